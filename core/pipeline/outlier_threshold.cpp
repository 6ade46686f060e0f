// SPDX-License-Identifier: MIT
// Outlier thresholds from held-out rows, and contamination parsing.
#include "core/pipeline/outlier_threshold.h"

#include "core/data/split.h"
#include "core/errors.h"
#include "core/estimators/common_options.h"
#include "core/estimators/registry.h"
#include "core/util/text.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace sosrep {

double parseContamination(const std::string& text)
{
    if (text == "auto") {
        return kAutoContamination;
    }
    double c = 0.0;
    size_t used = 0;
    try {
        c = std::stod(text, &used);
    } catch (const std::exception&) {
        used = 0;
    }
    if (used == 0 || used != text.size()) {
        throw ParameterError("contamination",
                             "must be 'auto' or a number in (0, 0.5], not '" + text + "'");
    }
    checkContamination(c);
    return c;
}

void checkContamination(double c)
{
    if (!(c > 0.0 && c <= 0.5)) {
        throw ParameterError("contamination",
                             "must be in (0, 0.5] (the share of rows to flag), not " +
                                 numberText(c));
    }
}

Vector heldOutLogValues(const FitData& data, const FitSettings& settings, const FitOutcome& fit,
                        int folds, const FitObserver& observer, std::string* method)
{
    if (fit.heldOutLogValues.size() > 0) {
        *method = "validation rows";
        return fit.heldOutLogValues;
    }
    const Eigen::Index n = data.train.rows();
    const int k = static_cast<int>(std::min<Eigen::Index>(folds, n));
    if (k < 2) {
        throw DataError(data.source, 0, 0,
                        "an outlier threshold needs at least 2 rows to cross-fit on");
    }
    // The estimator at the fitted length scale, straight: no sweep per fold (the threshold is
    // for this model), and none of the fit route's diagnostics, which the fit has given.
    const Estimator& estimator = EstimatorRegistry::instance().get(settings.estimator);
    KernelSpec kernel;
    if (estimator.capabilities().usesKernel) {
        kernel = kernelSpecFrom(settings.values);
        kernel.lengthScale = fit.lengthScale;
    }
    FitControl control;
    control.progress = [&observer](int, int) {
        return !(observer.cancelled && observer.cancelled());
    };
    const std::vector<SplitIndices> splits = kFoldSplits(n, k, settings.values.seed("seed"));
    Vector out(n);
    for (int f = 0; f < k; ++f) {
        if (observer.progress) {
            observer.progress("cross-fit for the outlier threshold", f, k);
        }
        const SplitIndices& s = splits[size_t(f)];
        const Matrix train = rowsOf(data.train, s.train);
        std::unique_ptr<FittedModel> model = estimator.fit(
            FitInput{train, data.second, kernel, settings.values, data.secondValues}, control);
        if (model->report().status == SolverStatus::Cancelled) {
            return {};
        }
        checkUsable(*model);
        model->setDataUnits(data.scaler);
        const Vector v = model->logValues(rowsOf(data.train, s.test)).values;
        for (size_t i = 0; i < s.test.size(); ++i) {
            out(s.test[i]) = v(Eigen::Index(i));
        }
    }
    if (observer.progress) {
        observer.progress("cross-fit for the outlier threshold", k, k);
    }
    *method = std::to_string(k) + "-fold cross-fit";
    return out;
}

OutlierThreshold outlierThreshold(const Vector& heldOut, double contamination,
                                  const std::string& method)
{
    checkContamination(contamination);
    std::vector<double> v(heldOut.data(), heldOut.data() + heldOut.size());
    if (v.empty()) {
        throw std::invalid_argument("outlierThreshold: no held-out values");
    }
    std::sort(v.begin(), v.end());
    const double h = contamination * double(v.size() - 1);
    const size_t lo = static_cast<size_t>(std::floor(h));
    const size_t hi = std::min(lo + 1, v.size() - 1);
    OutlierThreshold t;
    t.contamination = contamination;
    t.offset = v[lo] + (h - double(lo)) * (v[hi] - v[lo]);
    t.heldOutRows = static_cast<int>(v.size());
    t.method = method;
    return t;
}

} // namespace sosrep
