// SPDX-License-Identifier: MIT
// Isolation forest (Liu et al. 2008): trees, path lengths and scores.
#include "core/estimators/detectors/isolation_forest.h"

#include "core/random.h"
#include "core/util/float_mode.h"
#include "core/util/parallel_failure.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

namespace sosrep {
namespace {

constexpr double kEulerGamma = 0.57721566490153286061;

/// Grows one tree over rows[begin, end) of x, appending its nodes depth first.
class TreeBuilder
{
public:
    TreeBuilder(const MatrixRef& x, Rng& rng, int depthLimit,
                std::vector<IsolationForest::Node>& out)
        : m_x(x), m_rng(rng), m_limit(depthLimit), m_out(out)
    {
    }

    int grow(std::vector<Eigen::Index>& rows, size_t begin, size_t end, int depth)
    {
        const int index = static_cast<int>(m_out.size());
        m_out.push_back({});
        m_out[static_cast<size_t>(index)].size = static_cast<int>(end - begin);
        if (depth >= m_limit || end - begin <= 1) {
            return index;
        }
        // The features that still vary here: splitting a constant one isolates nothing.
        std::vector<int> varying;
        std::vector<double> lo(static_cast<size_t>(m_x.cols())), hi(lo.size());
        for (Eigen::Index j = 0; j < m_x.cols(); ++j) {
            double a = m_x(rows[begin], j), b = a;
            for (size_t r = begin + 1; r < end; ++r) {
                a = std::min(a, m_x(rows[r], j));
                b = std::max(b, m_x(rows[r], j));
            }
            lo[static_cast<size_t>(j)] = a;
            hi[static_cast<size_t>(j)] = b;
            if (b > a) {
                varying.push_back(static_cast<int>(j));
            }
        }
        if (varying.empty()) {
            return index; // identical rows: a leaf of their count
        }
        const int f = varying[std::min(varying.size() - 1,
                                       static_cast<size_t>(m_rng.uniform() * varying.size()))];
        const double a = lo[static_cast<size_t>(f)], b = hi[static_cast<size_t>(f)];
        double t = a + m_rng.uniform() * (b - a);
        if (t <= a) {
            t = std::nextafter(a, b); // keeps both sides non-empty
        }
        const auto mid = std::partition(rows.begin() + static_cast<long>(begin),
                                        rows.begin() + static_cast<long>(end),
                                        [&](Eigen::Index r) { return m_x(r, f) < t; });
        const size_t split = static_cast<size_t>(mid - rows.begin());
        const int left = grow(rows, begin, split, depth + 1);
        const int right = grow(rows, split, end, depth + 1);
        IsolationForest::Node& node = m_out[static_cast<size_t>(index)];
        node.feature = f;
        node.threshold = t;
        node.left = left;
        node.right = right;
        return index;
    }

private:
    const MatrixRef& m_x;
    Rng& m_rng;
    int m_limit;
    std::vector<IsolationForest::Node>& m_out;
};

} // namespace

double averagePathLength(double n)
{
    if (n <= 1.0) {
        return 0.0;
    }
    if (n <= 2.0) {
        return 1.0;
    }
    return 2.0 * (std::log(n - 1.0) + kEulerGamma) - 2.0 * (n - 1.0) / n;
}

IsolationForest::IsolationForest(const MatrixRef& x, int trees, int subsample, uint64_t seed)
{
    if (x.rows() < 1 || trees < 1 || subsample < 1) {
        throw std::invalid_argument("isolation forest: needs rows, trees and a subsample");
    }
    m_subsample = static_cast<int>(std::min<Eigen::Index>(subsample, x.rows()));
    const int limit = static_cast<int>(std::ceil(std::log2(std::max(2, m_subsample))));
    Rng rng(seed);
    std::vector<Eigen::Index> all(static_cast<size_t>(x.rows()));
    for (int t = 0; t < trees; ++t) {
        // A partial Fisher-Yates shuffle draws the subsample without replacement.
        std::iota(all.begin(), all.end(), Eigen::Index(0));
        for (int i = 0; i < m_subsample; ++i) {
            const size_t j =
                static_cast<size_t>(i) +
                std::min(all.size() - 1 - static_cast<size_t>(i),
                         static_cast<size_t>(rng.uniform() *
                                             double(all.size() - static_cast<size_t>(i))));
            std::swap(all[static_cast<size_t>(i)], all[j]);
        }
        std::vector<Eigen::Index> rows(all.begin(), all.begin() + m_subsample);
        TreeBuilder builder(x, rng, limit, m_nodes);
        builder.grow(rows, 0, rows.size(), 0);
        // Children were stored relative to the whole list; make them tree-relative.
        const int base = m_offsets.back();
        for (size_t k = static_cast<size_t>(base); k < m_nodes.size(); ++k) {
            if (m_nodes[k].feature >= 0) {
                m_nodes[k].left -= base;
                m_nodes[k].right -= base;
            }
        }
        m_offsets.push_back(static_cast<int>(m_nodes.size()));
    }
}

IsolationForest::IsolationForest(std::vector<Node> nodes, std::vector<int> offsets, int subsample)
    : m_nodes(std::move(nodes)), m_offsets(std::move(offsets)), m_subsample(subsample)
{
    const int n = static_cast<int>(m_nodes.size());
    if (m_offsets.size() < 2 || m_offsets.front() != 0 || m_offsets.back() != n || subsample < 1) {
        throw std::invalid_argument("isolation forest: malformed tree offsets");
    }
    for (size_t t = 0; t + 1 < m_offsets.size(); ++t) {
        const int begin = m_offsets[t], size = m_offsets[t + 1] - begin;
        if (size < 1) {
            throw std::invalid_argument("isolation forest: an empty tree");
        }
        // Every tree grew from the same subsample: a file whose subsample_used disagrees with
        // its trees would scale every path length by the wrong c(psi).
        if (m_nodes[static_cast<size_t>(begin)].size != subsample) {
            throw std::invalid_argument("isolation forest: tree " + std::to_string(t + 1) +
                                        " holds " +
                                        std::to_string(m_nodes[static_cast<size_t>(begin)].size) +
                                        " rows but subsample_used is " + std::to_string(subsample));
        }
        for (int k = begin; k < begin + size; ++k) {
            const Node& node = m_nodes[static_cast<size_t>(k)];
            // Children come after their parent (depth-first order), so walks always end; a
            // node holds the rows of its two children.
            if (node.size < 1 ||
                (node.feature >= 0 && (node.left <= k - begin || node.right <= k - begin ||
                                       node.left >= size || node.right >= size ||
                                       m_nodes[size_t(begin + node.left)].size +
                                               m_nodes[size_t(begin + node.right)].size !=
                                           node.size))) {
                throw std::invalid_argument("isolation forest: malformed node " +
                                            std::to_string(k));
            }
        }
    }
}

double IsolationForest::pathLength(int tree, const Eigen::Ref<const Eigen::RowVectorXd>& row) const
{
    const Node* base = m_nodes.data() + m_offsets[static_cast<size_t>(tree)];
    int k = 0, depth = 0;
    while (base[k].feature >= 0) {
        k = row(base[k].feature) < base[k].threshold ? base[k].left : base[k].right;
        ++depth;
    }
    return depth + averagePathLength(base[k].size);
}

Vector IsolationForest::meanPathLengths(const MatrixRef& y) const
{
    Vector h(y.rows());
    ParallelFailure failure;
#pragma omp parallel
    {
        const FlushSubnormalsScope subnormalsFlushed;
#pragma omp for schedule(static)
        for (Eigen::Index i = 0; i < y.rows(); ++i) {
            failure.run([&] {
                double total = 0.0;
                for (int t = 0; t < trees(); ++t) {
                    total += pathLength(t, y.row(i));
                }
                h(i) = total / trees();
            });
        }
    }
    failure.rethrow();
    return h;
}

Vector IsolationForest::anomalyScores(const MatrixRef& y) const
{
    const double c = averagePathLength(m_subsample);
    const Vector h = meanPathLengths(y);
    if (c <= 0.0) {
        return Vector::Constant(y.rows(), 0.5); // one training row: nothing to isolate
    }
    // One std::exp per row: Eigen's array exp takes SIMD lanes for full packets and std::exp for
    // the tail, so a row's bits would depend on the batch's length (row_blocks.h).
    Vector s(h.size());
    for (Eigen::Index i = 0; i < h.size(); ++i) {
        s(i) = std::exp(-(h(i) / c) * std::log(2.0));
    }
    return s;
}

} // namespace sosrep
