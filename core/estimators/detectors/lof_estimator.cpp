// SPDX-License-Identifier: MIT
// Local Outlier Factor (Breunig et al. 2000) as a comparison detector, scoring new rows as
// scikit-learn's LocalOutlierFactor(novelty=True).score_samples does.
#include "core/estimators/detectors/detector_common.h"
#include "core/estimators/detectors/detector_estimators.h"
#include "core/numerics/nearest_neighbours.h"

namespace sosrep {
namespace {

using detectors::checkColumns;
using detectors::checkedCount;
using detectors::detectorCapabilities;

/// The local reachability density of rows whose k nearest training rows are `nn`: one over the
/// mean reachability distance max(d(x, o), k-distance(o)); the 1e-10 keeps it finite where more
/// than k rows coincide (scikit-learn's constant, so that the two agree to round-off).
Vector reachabilityDensity(const NeighbourLists& nn, const Vector& kDistance)
{
    Vector lrd(nn.distances.rows());
    for (Eigen::Index i = 0; i < nn.distances.rows(); ++i) {
        double sum = 0.0;
        for (Eigen::Index c = 0; c < nn.distances.cols(); ++c) {
            sum += std::max(nn.distances(i, c), kDistance(nn.index(i, c)));
        }
        lrd(i) = 1.0 / (sum / double(nn.distances.cols()) + 1e-10);
    }
    return lrd;
}

class LofModel final : public FittedModel
{
public:
    /// The training rows' k-distances and densities, from their k nearest other rows.
    LofModel(Matrix reference, int k) : m_reference(std::move(reference)), m_k(k)
    {
        const NeighbourLists own = nearestNeighbours(m_reference, m_reference, m_k, true);
        m_kDistance = own.distances.col(m_k - 1);
        m_lrd = reachabilityDensity(own, m_kDistance);
    }
    std::string estimator() const override { return "lof"; }
    DensityKind kind() const override { return DensityKind::Score; }
    /// Minus the local outlier factor: the mean density of x's k nearest training rows over x's
    /// own (about 1 inside a cluster, large for an outlier). A row scores alone: its neighbours
    /// are training rows only, never the rows scored with it.
    LogDensity modelLogValues(const MatrixRef& y) const override
    {
        checkColumns(y, m_reference.cols(), "lof");
        const NeighbourLists nn = nearestNeighbours(m_reference, y, m_k);
        const Vector lrd = reachabilityDensity(nn, m_kDistance);
        Vector value(y.rows());
        for (Eigen::Index i = 0; i < y.rows(); ++i) {
            double neighbours = 0.0;
            for (Eigen::Index c = 0; c < m_k; ++c) {
                neighbours += m_lrd(nn.index(i, c));
            }
            value(i) = -(neighbours / double(m_k)) / lrd(i);
        }
        return {value, 0};
    }
    void save(ParameterMap& out) const override
    {
        out.set("reference", m_reference);
        out.set("k_used", double(m_k));
    }
    SummaryFields summary() const override
    {
        return {{"k_used", static_cast<long long>(m_k)},
                {"reference_rows", static_cast<long long>(m_reference.rows())}};
    }

private:
    Matrix m_reference;
    int m_k;
    Vector m_kDistance; // of each training row, among the other training rows
    Vector m_lrd;       // of each training row
};

class LofEstimator final : public Estimator
{
public:
    std::string name() const override { return "lof"; }
    std::string title() const override
    {
        return "LOF: local outlier factor, the neighbours' density over the row's (Breunig et "
               "al.)";
    }
    const OptionTable& options() const override
    {
        static const OptionTable table = {integerOption(
            {"k", "Neighbours k", "LOF", "K"}, 20, 1, 100000,
            "neighbours that define a row's local density (scikit-learn's n_neighbors; at most "
            "the training rows less one)")};
        return table;
    }
    Capabilities capabilities() const override { return detectorCapabilities(); }

    std::unique_ptr<FittedModel> fit(const FitInput& in, const FitControl&) const override
    {
        if (in.x.rows() < 2) {
            throw ParameterError("train", "LOF needs at least 2 rows");
        }
        // As scikit-learn: k beyond the rows less one is lowered to that, and said.
        const long long asked = in.options.integer("k");
        const int k = int(std::min<long long>(asked, in.x.rows() - 1));
        auto model = std::make_unique<LofModel>(Matrix(in.x), k);
        FitReport report;
        report.note = "local outlier factor with k = " + std::to_string(k);
        if (k < asked) {
            report.warnings.push_back("--k " + std::to_string(asked) + " is more than the " +
                                      std::to_string(in.x.rows()) +
                                      " training rows less one: LOF uses k = " + std::to_string(k));
        }
        model->setReport(report);
        return model;
    }

    std::unique_ptr<FittedModel> load(const ParameterMap& p, const KernelSpec*) const override
    {
        const Matrix& reference = p.matrix("reference");
        const Eigen::Index k = checkedCount(p, "k_used", 1);
        if (reference.rows() < k + 1 || reference.cols() < 1 || !reference.allFinite()) {
            throw ParameterError("reference", "must hold more than k finite rows");
        }
        return std::make_unique<LofModel>(reference, static_cast<int>(k));
    }
};

} // namespace

std::unique_ptr<Estimator> makeLofEstimator()
{
    return std::make_unique<LofEstimator>();
}

} // namespace sosrep
