// SPDX-License-Identifier: MIT
// Kernel density estimation with the product's kernels, as a plug-in.
#include "core/estimators/kde/kde_estimator.h"

#include "core/errors.h"
#include "core/estimators/kernel_field_model.h"

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
        return c;
    }

    std::unique_ptr<FittedModel> fit(const FitInput& in, const FitControl&) const override
    {
        if (in.x.rows() < 1) {
            throw ParameterError("train", "needs at least 1 row");
        }
        // A KDE scores by kernel sums at new points: no N x N matrix unless one is asked for.
        return makeKdeModel(KernelOperator::forScoring(in.x, in.kernel));
    }

    std::unique_ptr<FittedModel> load(const ParameterMap& parameters,
                                      const KernelSpec* kernel) const override
    {
        if (!kernel) {
            throw ParameterError("kernel", "is missing");
        }
        return makeKdeModel(KernelFieldModel::loadField(parameters, *kernel).kernel);
    }
};

} // namespace

std::unique_ptr<KernelFieldModel> makeKdeModel(std::shared_ptr<const KernelOperator> kernel)
{
    const double n = static_cast<double>(kernel->size());
    const double logZ = logKdeNormalizer(kernel->spec(), kernel->dim());
    Vector w = Vector::Constant(kernel->size(), 1.0 / n);
    return std::make_unique<KernelFieldModel>("kde", DensityKind::Normalized, std::move(kernel),
                                              std::move(w), 1.0, logZ);
}

std::unique_ptr<Estimator> makeKdeEstimator()
{
    return std::make_unique<KdeEstimator>();
}

} // namespace sosrep
