// SPDX-License-Identifier: MIT
// A k-d tree over the rows of a matrix: exact radius and nearest-row queries.
#pragma once

#include "core/types.h"

#include <vector>

namespace sosrep {

/// The rows of a matrix in a k-d tree (median splits on each node's widest column, boxes kept
/// per node), for the sparse kernel back-end (issue 48): the rows within a radius of a point, and
/// the nearest row, in about O(log N + found) when the radius is small against the data.
/// Squared distances are sums of squared differences over the columns in order, so a pair's
/// distance is the same bits from either end.
class KdTree
{
public:
    explicit KdTree(const MatrixRef& points);

    Eigen::Index size() const { return m_n; }
    int dim() const { return m_d; }
    /// Row i of the matrix the tree was built on (d values).
    const double* rowOf(Eigen::Index i) const { return point(m_position[static_cast<size_t>(i)]); }

    /// Calls f(j, d2) for every row j whose squared distance d2 to q (d values) is at most r2,
    /// in the tree's order (not by j).
    template <typename F> void forEachWithin(const double* q, double r2, F&& f) const;
    /// How many rows lie within squared distance r2 of q, counting stopped at `cap`; with
    /// `examined`, how many rows' distances the search measured (the query's cost: in high
    /// dimension the boxes prune little and it approaches every row).
    Eigen::Index countWithin(const double* q, double r2, Eigen::Index cap,
                             Eigen::Index* examined = nullptr) const;
    /// The squared distance from q to its nearest row (with `skip` >= 0, not row `skip`).
    double nearestSquaredDistance(const double* q, Eigen::Index skip = -1) const;

    /// The tree's leaves (node indices); a leaf's rows are consecutive positions.
    std::vector<int> leaves() const;
    /// The original indices of leaf `leaf`'s rows, in position order.
    std::vector<Eigen::Index> leafRows(int leaf) const;
    /// For every row q of leaf `leaf`, in position order: f(q, j, d2) for every row j within
    /// squared distance r2 of it. The leaves near `leaf` are found once for all its rows (a
    /// traversal per leaf instead of one per row), and each row's pairs come in the same order
    /// every time.
    template <typename F> void forEachPairWithin(int leaf, double r2, F&& f) const;

private:
    struct Node
    {
        Eigen::Index begin = 0; // rows [begin, end) of m_order
        Eigen::Index end = 0;
        int left = -1; // children (-1: a leaf)
        int right = -1;
    };
    static constexpr Eigen::Index kLeafRows = 16;

    int build(Eigen::Index begin, Eigen::Index end);
    /// Depth first over the nodes `skip` does not rule out (with their subtrees), calling
    /// leaf(node, index) at each leaf reached until it returns false.
    template <typename Skip, typename Leaf> void traverse(Skip&& skip, Leaf&& leaf) const;
    /// Squared distance between the boxes of nodes a and b (0 where they overlap).
    double boxBoxDistance(int a, int b) const;
    /// The leaves whose boxes lie within squared distance r2 of node `node`'s box.
    void leavesNear(int node, double r2, std::vector<int>& out) const;
    /// Squared distance from q to node n's box (0 inside it).
    double boxDistance(int node, const double* q) const;
    const double* point(Eigen::Index position) const
    {
        return m_points.data() + static_cast<size_t>(position) * static_cast<size_t>(m_d);
    }
    /// The squared distance from the row at `position` to q: a sum of squared differences in
    /// column order (the same bits from either end of a pair).
    double squaredDistance(Eigen::Index position, const double* q) const
    {
        const double* x = point(position);
        double d2 = 0.0;
        for (int c = 0; c < m_d; ++c) {
            const double t = x[c] - q[c];
            d2 += t * t;
        }
        return d2;
    }

    Eigen::Index m_n = 0;
    int m_d = 0;
    std::vector<double> m_points;         // rows in tree order, row after row
    std::vector<Eigen::Index> m_order;    // original index of each position
    std::vector<Eigen::Index> m_position; // position of each original index
    std::vector<Node> m_nodes;
    std::vector<double> m_lo; // node boxes, d values per node
    std::vector<double> m_hi;
};

template <typename F> void KdTree::forEachPairWithin(int leaf, double r2, F&& f) const
{
    std::vector<int> near;
    leavesNear(leaf, r2, near);
    const Node& l = m_nodes[static_cast<size_t>(leaf)];
    for (Eigen::Index p = l.begin; p < l.end; ++p) {
        const double* q = point(p);
        const Eigen::Index i = m_order[static_cast<size_t>(p)];
        for (int c : near) {
            const Node& n = m_nodes[static_cast<size_t>(c)];
            for (Eigen::Index s = n.begin; s < n.end; ++s) {
                const double d2 = squaredDistance(s, q);
                if (d2 <= r2) {
                    f(i, m_order[static_cast<size_t>(s)], d2);
                }
            }
        }
    }
}

template <typename Skip, typename Leaf> void KdTree::traverse(Skip&& skip, Leaf&& leaf) const
{
    if (m_n == 0) {
        return;
    }
    int stack[128];
    int top = 0;
    stack[top++] = 0;
    while (top > 0) {
        const int n = stack[--top];
        if (skip(n)) {
            continue;
        }
        const Node& node = m_nodes[static_cast<size_t>(n)];
        if (node.left < 0) {
            if (!leaf(node, n)) {
                return;
            }
            continue;
        }
        stack[top++] = node.right;
        stack[top++] = node.left;
    }
}

template <typename F> void KdTree::forEachWithin(const double* q, double r2, F&& f) const
{
    traverse([&](int n) { return boxDistance(n, q) > r2; },
             [&](const Node& node, int) {
                 for (Eigen::Index p = node.begin; p < node.end; ++p) {
                     const double d2 = squaredDistance(p, q);
                     if (d2 <= r2) {
                         f(m_order[static_cast<size_t>(p)], d2);
                     }
                 }
                 return true;
             });
}

} // namespace sosrep
