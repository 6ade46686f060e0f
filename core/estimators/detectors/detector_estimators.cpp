// SPDX-License-Identifier: MIT
// IsolationForest and kNN as comparison detectors behind the estimator interface.
#include "core/estimators/detectors/detector_estimators.h"

#include "core/errors.h"
#include "core/estimators/detectors/detector_common.h"
#include "core/estimators/detectors/isolation_forest.h"
#include "core/numerics/nearest_neighbours.h"

#include <cmath>

namespace sosrep {
namespace {

using detectors::checkColumns;
using detectors::checkedCount;
using detectors::detectorCapabilities;

class IsolationForestModel final : public FittedModel
{
public:
    IsolationForestModel(IsolationForest forest, Eigen::Index dim)
        : m_forest(std::move(forest)), m_dim(dim)
    {
    }
    std::string estimator() const override { return "iforest"; }
    DensityKind kind() const override { return DensityKind::Score; }
    LogDensity modelLogValues(const MatrixRef& y) const override
    {
        checkColumns(y, m_dim, "iforest");
        return {-m_forest.anomalyScores(y), 0};
    }
    void save(ParameterMap& out) const override
    {
        const auto& nodes = m_forest.nodes();
        Matrix m(static_cast<Eigen::Index>(nodes.size()), 5);
        for (size_t k = 0; k < nodes.size(); ++k) {
            const auto& n = nodes[k];
            m.row(static_cast<Eigen::Index>(k)) << n.feature, n.threshold, n.left, n.right, n.size;
        }
        Vector offsets(static_cast<Eigen::Index>(m_forest.offsets().size()));
        for (size_t t = 0; t < m_forest.offsets().size(); ++t) {
            offsets(static_cast<Eigen::Index>(t)) = m_forest.offsets()[t];
        }
        out.set("nodes", m);
        out.set("tree_offsets", offsets);
        out.set("subsample_used", double(m_forest.subsample()));
        out.set("dim", double(m_dim));
    }
    SummaryFields summary() const override
    {
        return {{"trees", static_cast<long long>(m_forest.trees())},
                {"subsample_used", static_cast<long long>(m_forest.subsample())},
                {"nodes", static_cast<long long>(m_forest.nodes().size())}};
    }

private:
    IsolationForest m_forest;
    Eigen::Index m_dim;
};

class IsolationForestEstimator final : public Estimator
{
public:
    std::string name() const override { return "iforest"; }
    std::string title() const override
    {
        return "Isolation Forest: mean path length over random isolation trees (Liu et al.)";
    }
    const OptionTable& options() const override
    {
        static const OptionTable table = {
            integerOption({"trees", "Trees", "Isolation Forest", "N"}, 100, 1, 100000,
                          "isolation trees (scikit-learn's n_estimators)"),
            integerOption({"subsample", "Subsample ψ", "Isolation Forest", "N"}, 256, 2, 1e9,
                          "rows drawn without replacement per tree (max_samples; at most the "
                          "training rows)")};
        return table;
    }
    Capabilities capabilities() const override { return detectorCapabilities(); }

    std::unique_ptr<FittedModel> fit(const FitInput& in, const FitControl&) const override
    {
        if (in.x.rows() < 1) {
            throw ParameterError("train", "needs at least 1 row");
        }
        IsolationForest forest(in.x, static_cast<int>(in.options.integer("trees")),
                               static_cast<int>(in.options.integer("subsample")),
                               in.options.seed("seed"));
        auto model = std::make_unique<IsolationForestModel>(std::move(forest), in.x.cols());
        FitReport report;
        report.note =
            "isolation forest of " + std::to_string(in.options.integer("trees")) + " trees";
        model->setReport(report);
        return model;
    }

    std::unique_ptr<FittedModel> load(const ParameterMap& p, const KernelSpec*) const override
    {
        const Matrix& m = p.matrix("nodes");
        const Vector& off = p.vector("tree_offsets");
        const Eigen::Index dim = checkedCount(p, "dim", 1);
        if (m.cols() != 5) {
            throw ParameterError("nodes", "must have 5 columns");
        }
        std::vector<IsolationForest::Node> nodes(static_cast<size_t>(m.rows()));
        for (Eigen::Index k = 0; k < m.rows(); ++k) {
            if (!m.row(k).allFinite() || m(k, 0) < -1 || m(k, 0) >= double(dim) || m(k, 4) < 0 ||
                m(k, 4) > 1e9) {
                throw ParameterError("nodes", "row " + std::to_string(k) + " is malformed");
            }
            nodes[static_cast<size_t>(k)] = {int(m(k, 0)), m(k, 1), int(m(k, 2)), int(m(k, 3)),
                                             int(m(k, 4))};
        }
        std::vector<int> offsets;
        for (Eigen::Index t = 0; t < off.size(); ++t) {
            if (!(off(t) >= 0 && off(t) <= double(m.rows()))) {
                throw ParameterError("tree_offsets", "are out of range");
            }
            offsets.push_back(int(off(t)));
        }
        try {
            IsolationForest forest(std::move(nodes), std::move(offsets),
                                   static_cast<int>(checkedCount(p, "subsample_used", 1)));
            return std::make_unique<IsolationForestModel>(std::move(forest), dim);
        } catch (const std::invalid_argument& e) {
            throw ParameterError("nodes", e.what());
        }
    }
};

class KnnModel final : public FittedModel
{
public:
    KnnModel(Matrix reference, int k) : m_reference(std::move(reference)), m_k(k) {}
    std::string estimator() const override { return "knn"; }
    DensityKind kind() const override { return DensityKind::Score; }
    LogDensity modelLogValues(const MatrixRef& y) const override
    {
        checkColumns(y, m_reference.cols(), "knn");
        return {-kthNeighbourDistances(m_reference, y, m_k), 0};
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
};

class KnnEstimator final : public Estimator
{
public:
    std::string name() const override { return "knn"; }
    std::string title() const override
    {
        return "kNN: distance to the k-th nearest training row (exact)";
    }
    const OptionTable& options() const override
    {
        static const OptionTable table = {integerOption(
            {"k", "Neighbours k", "kNN", "K"}, 5, 1, 100000,
            "the score is the distance to the k-th nearest training row (a training row "
            "scored counts itself; at most the training rows)")};
        return table;
    }
    Capabilities capabilities() const override { return detectorCapabilities(); }

    std::unique_ptr<FittedModel> fit(const FitInput& in, const FitControl&) const override
    {
        const long long k = in.options.integer("k");
        if (k > in.x.rows()) {
            throw ParameterError("k", "is " + std::to_string(k) + " but the training data have " +
                                          std::to_string(in.x.rows()) + " rows");
        }
        return std::make_unique<KnnModel>(Matrix(in.x), static_cast<int>(k));
    }

    std::unique_ptr<FittedModel> load(const ParameterMap& p, const KernelSpec*) const override
    {
        const Matrix& reference = p.matrix("reference");
        const Eigen::Index k = checkedCount(p, "k_used", 1);
        if (reference.rows() < k || reference.cols() < 1 || !reference.allFinite()) {
            throw ParameterError("reference", "must hold at least k finite rows");
        }
        return std::make_unique<KnnModel>(reference, static_cast<int>(k));
    }
};

} // namespace

std::unique_ptr<Estimator> makeIsolationForestEstimator()
{
    return std::make_unique<IsolationForestEstimator>();
}

std::unique_ptr<Estimator> makeKnnEstimator()
{
    return std::make_unique<KnnEstimator>();
}

} // namespace sosrep
