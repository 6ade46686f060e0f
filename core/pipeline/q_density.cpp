// SPDX-License-Identifier: MIT
// q as the density of a density estimator fitted to q's rows, for every front end.
#include "core/pipeline/q_density.h"

#include "core/errors.h"
#include "core/estimators/fit_settings.h"
#include "core/estimators/registry.h"
#include "core/pipeline/fit_route.h"
#include "core/util/text.h"

#include <algorithm>

namespace sosrep {

std::vector<std::string> qDensityEstimators()
{
    std::vector<std::string> out;
    for (const Estimator* e : EstimatorRegistry::instance().family(false)) {
        const DensityKind kind = e->kindFor(FitSettings::defaults(e->name()).values);
        if (kind == DensityKind::Normalized || kind == DensityKind::PreDensity) {
            out.push_back(e->name());
        }
    }
    return out;
}

void checkQDensityEstimator(const std::string& estimator)
{
    const std::vector<std::string> names = qDensityEstimators();
    if (std::find(names.begin(), names.end(), estimator) == names.end()) {
        std::string list;
        for (const std::string& n : names) {
            list += (list.empty() ? "" : ", ") + n;
        }
        throw ParameterError("q-density", quotedText(estimator) +
                                              " is not a density estimator (q's density may be "
                                              "one of " +
                                              list + ")");
    }
}

Vector fittedQDensity(const std::string& estimator, const std::string& seed, const Matrix& qScaled,
                      const Matrix& pScaled)
{
    checkQDensityEstimator(estimator);
    if (qScaled.rows() < 2) {
        throw ParameterError("q-density", "q's density needs at least two rows of q, not " +
                                              std::to_string(qScaled.rows()));
    }
    FitSettings settings = FitSettings::defaults(estimator);
    settings.values.set("seed", seed);
    FitData data;
    data.train = qScaled;
    data.validation = Matrix(0, qScaled.cols());
    data.source = "q";
    const FitOutcome f = fitModel(data, settings);
    checkUsable(*f.model);
    return f.model->logValues(pScaled).values.array().exp().matrix();
}

} // namespace sosrep
