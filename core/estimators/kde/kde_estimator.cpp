// SPDX-License-Identifier: MIT
// Kernel density estimation with the product's kernels, as a plug-in.
#include "core/estimators/kde/kde_estimator.h"

#include "core/data/split.h"
#include "core/errors.h"
#include "core/estimators/kernel_field_model.h"
#include "core/util/text.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace sosrep {
namespace {

constexpr Eigen::Index kErrorRows = 500;

/// What backend=lowrank costs a KDE, measured: its log values against the exact sums at up to
/// kErrorRows of the training rows (every n/500-th: seeded by nothing, the same rows each time).
std::string lowRankError(const FitInput& in, const KernelFieldModel& approximate,
                         const Vector& weights)
{
    const Eigen::Index n = in.x.rows();
    const Eigen::Index step = std::max<Eigen::Index>(1, n / kErrorRows);
    std::vector<Eigen::Index> rows;
    for (Eigen::Index i = step / 2; i < n && Eigen::Index(rows.size()) < kErrorRows; i += step) {
        rows.push_back(i);
    }
    const Matrix at = rowsOf(in.x, rows);
    KernelSpec spec = in.kernel;
    spec.backend = BackendChoice::Auto;
    const Vector exact =
        makeKdeModel(KernelOperator::forExactSums(in.x, spec), weights)->logValues(at).values;
    const Vector approx = approximate.logValues(at).values;
    std::vector<double> gaps;
    int lost = 0; // rows where the approximation is not positive: no log value at all
    for (Eigen::Index i = 0; i < exact.size(); ++i) {
        if (!std::isfinite(approx(i))) {
            ++lost;
        } else {
            gaps.push_back(std::abs(approx(i) - exact(i)));
        }
    }
    std::sort(gaps.begin(), gaps.end());
    const auto quantile = [&gaps](double q) {
        return gaps.empty() ? 0.0 : gaps[size_t(q * double(gaps.size() - 1))];
    };
    std::string text =
        "backend=lowrank: the KDE's sums over " + std::to_string(n) + " rows are approximated by " +
        std::to_string(approximate.kernel()->rank()) + " Nystroem landmarks; at " +
        std::to_string(rows.size()) + " of the training rows |log p - exact log p| is at most " +
        numberText(quantile(1.0), 3) + " (median " + numberText(quantile(0.5), 3) + ")";
    if (lost > 0) {
        text += ", and " + std::to_string(lost) + " of them get no positive value";
    }
    return text + ": leave backend at auto for the exact sums";
}

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
        // A KDE scores by kernel sums at new points: exact at any N, no N x N matrix.
        const Vector weights = in.weights ? *in.weights : Vector();
        std::unique_ptr<KernelFieldModel> model =
            makeKdeModel(KernelOperator::forExactSums(in.x, in.kernel), weights);
        if (model->kernel()->backend() == KernelBackend::Nystrom) {
            FitReport report = model->report();
            report.warnings.push_back(lowRankError(in, *model, weights));
            model->setReport(report);
        }
        return model;
    }

    std::unique_ptr<FittedModel> load(const ParameterMap& parameters,
                                      const KernelSpec* kernel) const override
    {
        if (!kernel) {
            throw ParameterError("kernel", "is missing");
        }
        // The stored weights (1/N for an unweighted fit, so files of either kind read back).
        KernelFieldModel::StoredField field =
            KernelFieldModel::loadField(parameters, *kernel, true);
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
