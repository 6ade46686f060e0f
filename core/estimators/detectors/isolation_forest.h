// SPDX-License-Identifier: MIT
// Isolation forest (Liu et al. 2008): trees, path lengths and scores.
#pragma once

#include "core/types.h"

#include <cstdint>
#include <vector>

namespace sosrep {

/// Average path length of an unsuccessful search in a binary search tree of n points (Liu, Ting
/// & Zhou 2008, Eq. 1): c(n) = 2 H(n-1) - 2 (n-1)/n with H(i) ~ ln i + Euler's gamma, c(2) = 1,
/// c(n <= 1) = 0. It normalizes path lengths and completes the ones cut at the depth limit.
double averagePathLength(double n);

/// Isolation Forest (Liu, Ting & Zhou 2008): `trees` isolation trees, each grown on a seeded
/// subsample of `subsample` rows drawn without replacement, to depth ceil(log2 subsample).
/// A node splits on a feature drawn among those not constant in it, at a threshold uniform
/// between the feature's minimum and maximum there (as scikit-learn's ExtraTreeRegressor).
class IsolationForest
{
public:
    struct Node
    {
        int feature = -1; // -1: a leaf
        double threshold = 0.0;
        int left = -1; // children's indices in the tree's node list; x[feature] < threshold: left
        int right = -1;
        int size = 0; // training rows that reached the node
    };

    IsolationForest() = default;
    /// Grows the forest; the seed fixes every subsample, feature and threshold.
    IsolationForest(const MatrixRef& x, int trees, int subsample, uint64_t seed);
    /// A forest from stored nodes (a model file): tree t is nodes[offsets[t] .. offsets[t+1]).
    IsolationForest(std::vector<Node> nodes, std::vector<int> offsets, int subsample);

    /// Mean path length E h(x) over the trees (a leaf of size s adds c(s)).
    Vector meanPathLengths(const MatrixRef& y) const;
    /// The anomaly score s(x) = 2^(-E h(x) / c(subsample)) in (0, 1] (Eq. 2): near 1 isolated,
    /// 0.5 when E h = c(subsample).
    Vector anomalyScores(const MatrixRef& y) const;

    const std::vector<Node>& nodes() const { return m_nodes; }
    const std::vector<int>& offsets() const { return m_offsets; }
    int subsample() const { return m_subsample; }
    int trees() const { return static_cast<int>(m_offsets.size()) - 1; }

private:
    double pathLength(int tree, const Eigen::Ref<const Eigen::RowVectorXd>& row) const;

    std::vector<Node> m_nodes;
    std::vector<int> m_offsets{0};
    int m_subsample = 0;
};

} // namespace sosrep
