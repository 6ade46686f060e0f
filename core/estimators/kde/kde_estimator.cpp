// SPDX-License-Identifier: MIT
// Kernel density estimation with the product's kernels, as a plug-in.
#include "core/estimators/kde/kde_estimator.h"

#include "core/errors.h"
#include "core/estimators/kernel_field_model.h"

#include <cmath>

namespace sosrep {
namespace {

class KdeEstimator final : public Estimator
{
public:
    std::string name() const override { return "kde"; }
    std::string title() const override { return "KDE: kernel density estimate, same kernels"; }
    const OptionTable& options() const override
    {
        static const OptionTable none;
        return none;
    }
    Capabilities capabilities() const override
    {
        Capabilities c;
        c.kind = DensityKind::Normalized;
        c.fisherTuning = true;
        c.rowWeights = true;
        return c;
    }

    std::unique_ptr<FittedModel> fit(const FitInput& in, const FitControl&) const override
    {
        if (in.x.rows() < 1) {
            throw ParameterError("train", "needs at least 1 row");
        }
        // A KDE scores by kernel sums at new points: no N x N matrix unless one is asked for.
        return makeKdeModel(KernelOperator::forScoring(in.x, in.kernel),
                            in.weights ? *in.weights : Vector());
    }

    std::unique_ptr<FittedModel> load(const ParameterMap& parameters,
                                      const KernelSpec* kernel) const override
    {
        if (!kernel) {
            throw ParameterError("kernel", "is missing");
        }
        // The stored weights (1/N for an unweighted fit, so files of either kind read back).
        KernelFieldModel::StoredField field = KernelFieldModel::loadField(parameters, *kernel);
        std::unique_ptr<KernelFieldModel> model =
            makeKdeModel(std::move(field.kernel), field.weights, false);
        model->checkStoredNormalizer(parameters);
        return model;
    }
};

} // namespace

std::unique_ptr<KernelFieldModel> makeKdeModel(std::shared_ptr<const KernelOperator> kernel,
                                               const Vector& rowWeights, bool normalize)
{
    const double n = static_cast<double>(kernel->size());
    const double logZ = logKdeNormalizer(kernel->spec(), kernel->dim());
    Vector w = Vector::Constant(kernel->size(), 1.0 / n);
    // Equal weights are no weights, bit for bit (a file's stored 1/N, sample_weight of ones).
    const bool equal = rowWeights.size() > 0 && rowWeights.maxCoeff() == rowWeights.minCoeff();
    if (rowWeights.size() > 0 && !(equal && rowWeights(0) > 0.0 && std::isfinite(rowWeights(0)) &&
                                   rowWeights.size() == kernel->size())) {
        const double total = rowWeights.sum();
        if (rowWeights.size() != kernel->size() || !(total > 0.0) || !std::isfinite(total) ||
            rowWeights.minCoeff() < 0.0) {
            // A fit's sample_weight, or a file's weights (its field's name).
            throw ParameterError(normalize ? "sample_weight" : "weights",
                                 "needs one finite, non-negative weight per row, not all zero");
        }
        // Stored weights are used as written (they sum to 1 within rounding: dividing again
        // would move a loaded model's scores in the last bits).
        if (!normalize && std::abs(total - 1.0) > 1e-9) {
            throw ParameterError("weights",
                                 "a KDE's weights must sum to 1, not " + std::to_string(total));
        }
        w = normalize ? Vector(rowWeights / total) : rowWeights;
    }
    return std::make_unique<KernelFieldModel>("kde", DensityKind::Normalized, std::move(kernel),
                                              std::move(w), 1.0, logZ);
}

std::unique_ptr<Estimator> makeKdeEstimator()
{
    return std::make_unique<KdeEstimator>();
}

} // namespace sosrep
