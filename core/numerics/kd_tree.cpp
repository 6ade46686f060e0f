// SPDX-License-Identifier: MIT
// A k-d tree over the rows of a matrix: exact radius and nearest-row queries.
#include "core/numerics/kd_tree.h"

#include <algorithm>
#include <limits>
#include <numeric>

namespace sosrep {

KdTree::KdTree(const MatrixRef& points) : m_n(points.rows()), m_d(static_cast<int>(points.cols()))
{
    m_order.resize(static_cast<size_t>(m_n));
    std::iota(m_order.begin(), m_order.end(), Eigen::Index(0));
    m_points.resize(static_cast<size_t>(m_n) * static_cast<size_t>(m_d));
    for (Eigen::Index i = 0; i < m_n; ++i) {
        for (int c = 0; c < m_d; ++c) {
            m_points[static_cast<size_t>(i) * static_cast<size_t>(m_d) + static_cast<size_t>(c)] =
                points(i, c);
        }
    }
    if (m_n > 0) {
        // Nodes are appended depth first; the row order is permuted as they split, and the rows
        // are copied into it at the end.
        build(0, m_n);
        std::vector<double> ordered(m_points.size());
        for (Eigen::Index p = 0; p < m_n; ++p) {
            const auto from = static_cast<size_t>(m_order[static_cast<size_t>(p)]);
            std::copy_n(m_points.begin() + long(from * size_t(m_d)), m_d,
                        ordered.begin() + long(size_t(p) * size_t(m_d)));
        }
        m_points = std::move(ordered);
        m_position.resize(static_cast<size_t>(m_n));
        for (Eigen::Index p = 0; p < m_n; ++p) {
            m_position[static_cast<size_t>(m_order[static_cast<size_t>(p)])] = p;
        }
    }
}

int KdTree::build(Eigen::Index begin, Eigen::Index end)
{
    const int index = static_cast<int>(m_nodes.size());
    m_nodes.push_back({begin, end, -1, -1});
    // The node's box over the original rows (m_points is still in the original order here).
    const auto at = [this](Eigen::Index p, int c) {
        return m_points[static_cast<size_t>(m_order[static_cast<size_t>(p)]) * size_t(m_d) +
                        size_t(c)];
    };
    m_lo.resize(m_lo.size() + size_t(m_d), std::numeric_limits<double>::infinity());
    m_hi.resize(m_hi.size() + size_t(m_d), -std::numeric_limits<double>::infinity());
    double* lo = m_lo.data() + size_t(index) * size_t(m_d);
    double* hi = m_hi.data() + size_t(index) * size_t(m_d);
    for (Eigen::Index p = begin; p < end; ++p) {
        for (int c = 0; c < m_d; ++c) {
            lo[c] = std::min(lo[c], at(p, c));
            hi[c] = std::max(hi[c], at(p, c));
        }
    }
    int widest = 0;
    for (int c = 1; c < m_d; ++c) {
        if (hi[c] - lo[c] > hi[widest] - lo[widest]) {
            widest = c;
        }
    }
    if (end - begin <= kLeafRows || !(hi[widest] > lo[widest])) {
        return index; // a leaf: few rows, or all of them the same point
    }
    const Eigen::Index mid = begin + (end - begin) / 2;
    std::nth_element(m_order.begin() + long(begin), m_order.begin() + long(mid),
                     m_order.begin() + long(end), [&](Eigen::Index a, Eigen::Index b) {
                         const double va = m_points[size_t(a) * size_t(m_d) + size_t(widest)];
                         const double vb = m_points[size_t(b) * size_t(m_d) + size_t(widest)];
                         return va < vb || (va == vb && a < b);
                     });
    const int left = build(begin, mid);
    const int right = build(mid, end);
    m_nodes[static_cast<size_t>(index)].left = left;
    m_nodes[static_cast<size_t>(index)].right = right;
    return index;
}

double KdTree::boxBoxDistance(int a, int b) const
{
    const double* alo = m_lo.data() + size_t(a) * size_t(m_d);
    const double* ahi = m_hi.data() + size_t(a) * size_t(m_d);
    const double* blo = m_lo.data() + size_t(b) * size_t(m_d);
    const double* bhi = m_hi.data() + size_t(b) * size_t(m_d);
    double d2 = 0.0;
    for (int c = 0; c < m_d; ++c) {
        const double t = blo[c] > ahi[c]   ? blo[c] - ahi[c]
                         : alo[c] > bhi[c] ? alo[c] - bhi[c]
                                           : 0.0;
        d2 += t * t;
    }
    return d2;
}

void KdTree::leavesNear(int node, double r2, std::vector<int>& out) const
{
    out.clear();
    traverse([&](int n) { return boxBoxDistance(n, node) > r2; },
             [&](const Node&, int n) {
                 out.push_back(n);
                 return true;
             });
}

std::vector<int> KdTree::leaves() const
{
    std::vector<int> out;
    for (size_t n = 0; n < m_nodes.size(); ++n) {
        if (m_nodes[n].left < 0) {
            out.push_back(static_cast<int>(n));
        }
    }
    // In position order (the nodes were appended depth first, so they are already).
    return out;
}

std::vector<Eigen::Index> KdTree::leafRows(int leaf) const
{
    const Node& l = m_nodes[static_cast<size_t>(leaf)];
    return std::vector<Eigen::Index>(m_order.begin() + long(l.begin),
                                     m_order.begin() + long(l.end));
}

double KdTree::boxDistance(int node, const double* q) const
{
    const double* lo = m_lo.data() + size_t(node) * size_t(m_d);
    const double* hi = m_hi.data() + size_t(node) * size_t(m_d);
    double d2 = 0.0;
    for (int c = 0; c < m_d; ++c) {
        const double t = q[c] < lo[c] ? lo[c] - q[c] : q[c] > hi[c] ? q[c] - hi[c] : 0.0;
        d2 += t * t;
    }
    return d2;
}

Eigen::Index KdTree::countWithin(const double* q, double r2, Eigen::Index cap,
                                 Eigen::Index* examined) const
{
    Eigen::Index count = 0;
    Eigen::Index measured = 0;
    traverse([&](int n) { return boxDistance(n, q) > r2; },
             [&](const Node& node, int) {
                 for (Eigen::Index p = node.begin; p < node.end; ++p) {
                     count += squaredDistance(p, q) <= r2 ? 1 : 0;
                 }
                 measured += node.end - node.begin;
                 return count < cap;
             });
    if (examined) {
        *examined = measured;
    }
    return std::min(count, cap);
}

double KdTree::nearestSquaredDistance(const double* q, Eigen::Index skip) const
{
    double best = std::numeric_limits<double>::infinity();
    if (m_n == 0) {
        return best;
    }
    int stack[128];
    int top = 0;
    stack[top++] = 0;
    while (top > 0) {
        const int n = stack[--top];
        if (boxDistance(n, q) >= best) {
            continue;
        }
        const Node& node = m_nodes[static_cast<size_t>(n)];
        if (node.left < 0) {
            for (Eigen::Index p = node.begin; p < node.end; ++p) {
                if (m_order[static_cast<size_t>(p)] == skip) {
                    continue;
                }
                const double d2 = squaredDistance(p, q);
                best = std::min(best, d2);
            }
            continue;
        }
        // The nearer child last on the stack, so it is searched first and prunes the other.
        const bool leftFirst = boxDistance(node.left, q) <= boxDistance(node.right, q);
        stack[top++] = leftFirst ? node.right : node.left;
        stack[top++] = leftFirst ? node.left : node.right;
    }
    return best;
}

} // namespace sosrep
