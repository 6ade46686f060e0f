// SPDX-License-Identifier: MIT
// ECOD (Li et al. 2022): anomaly scores from the tails of each column's empirical distribution,
// parameter free, as a comparison detector.
#include "core/estimators/detectors/detector_common.h"
#include "core/estimators/detectors/detector_estimators.h"

#include <algorithm>

namespace sosrep {
namespace {

using detectors::checkColumns;
using detectors::detectorCapabilities;

/// The sample skewness m3 / m2^(3/2) (biased, scipy.stats.skew's); 0 for a constant column.
double skewness(const Eigen::Ref<const Vector>& v)
{
    const double mean = v.mean();
    const double m2 = (v.array() - mean).square().mean();
    const double m3 = (v.array() - mean).cube().mean();
    return m2 > 0.0 ? m3 / std::pow(m2, 1.5) : 0.0;
}

class EcodModel final : public FittedModel
{
public:
    /// `sorted`: each training column sorted ascending (the empirical distributions).
    explicit EcodModel(Matrix sorted) : m_sorted(std::move(sorted)), m_skew(m_sorted.cols())
    {
        for (Eigen::Index j = 0; j < m_sorted.cols(); ++j) {
            m_skew(j) = skewness(m_sorted.col(j));
        }
    }
    std::string estimator() const override { return "ecod"; }
    DensityKind kind() const override { return DensityKind::Score; }
    /// Minus the outlier score O(x) = max(U_left, U_right, U_auto) of the paper's Algorithm 1:
    /// U_left = sum_j -log F_j(x_j), U_right = sum_j -log(1 - F_j(x_j^-)) (the right tail, ties
    /// counted), U_auto = the left tail where column j is left-skewed, else the right. F counts
    /// the training rows and x itself ((count + 1) / (n + 1)), so an x beyond every training
    /// value has a finite score and each row scores alone, whatever is scored with it. PyOD
    /// instead ranks the test rows together with the training rows, and takes the maximum per
    /// column before the sum.
    LogDensity modelLogValues(const MatrixRef& y) const override
    {
        checkColumns(y, m_sorted.cols(), "ecod");
        const double n1 = double(m_sorted.rows()) + 1.0;
        Vector value(y.rows());
        for (Eigen::Index i = 0; i < y.rows(); ++i) {
            double left = 0.0, right = 0.0, automatic = 0.0;
            for (Eigen::Index j = 0; j < m_sorted.cols(); ++j) {
                const double* begin = m_sorted.col(j).data();
                const double* end = begin + m_sorted.rows();
                const double below = double(std::upper_bound(begin, end, y(i, j)) - begin);
                const double above = double(end - std::lower_bound(begin, end, y(i, j)));
                const double l = -std::log((below + 1.0) / n1);
                const double r = -std::log((above + 1.0) / n1);
                left += l;
                right += r;
                automatic += m_skew(j) < 0.0 ? l : r;
            }
            value(i) = -std::max({left, right, automatic});
        }
        return {value, 0};
    }
    void save(ParameterMap& out) const override { out.set("sorted_columns", m_sorted); }
    SummaryFields summary() const override
    {
        return {{"reference_rows", static_cast<long long>(m_sorted.rows())}};
    }

private:
    Matrix m_sorted;
    Vector m_skew;
};

class EcodEstimator final : public Estimator
{
public:
    std::string name() const override { return "ecod"; }
    std::string title() const override
    {
        return "ECOD: tail probabilities of each column's empirical distribution (Li et al.)";
    }
    const OptionTable& options() const override
    {
        static const OptionTable table = {};
        return table;
    }
    Capabilities capabilities() const override { return detectorCapabilities(); }

    std::unique_ptr<FittedModel> fit(const FitInput& in, const FitControl&) const override
    {
        if (in.x.rows() < 1) {
            throw ParameterError("train", "ECOD needs at least 1 row");
        }
        Matrix sorted = in.x;
        for (Eigen::Index j = 0; j < sorted.cols(); ++j) {
            std::sort(sorted.col(j).data(), sorted.col(j).data() + sorted.rows());
        }
        auto model = std::make_unique<EcodModel>(std::move(sorted));
        FitReport report;
        report.note = "empirical distributions of " + std::to_string(in.x.cols()) + " columns";
        model->setReport(report);
        return model;
    }

    std::unique_ptr<FittedModel> load(const ParameterMap& p, const KernelSpec*) const override
    {
        const Matrix& sorted = p.matrix("sorted_columns");
        if (sorted.rows() < 1 || sorted.cols() < 1 || !sorted.allFinite()) {
            throw ParameterError("sorted_columns", "must hold at least one row of finite values");
        }
        for (Eigen::Index j = 0; j < sorted.cols(); ++j) {
            if (!std::is_sorted(sorted.col(j).data(), sorted.col(j).data() + sorted.rows())) {
                throw ParameterError("sorted_columns",
                                     "column " + std::to_string(j + 1) + " is not sorted");
            }
        }
        return std::make_unique<EcodModel>(sorted);
    }
};

} // namespace

std::unique_ptr<Estimator> makeEcodEstimator()
{
    return std::make_unique<EcodEstimator>();
}

} // namespace sosrep
