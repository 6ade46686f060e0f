// SPDX-License-Identifier: MIT
// k-th nearest-neighbour distances.
#pragma once

#include "core/types.h"

namespace sosrep {

/// Distance from each row of `query` to its k-th nearest row of `reference` (k >= 1; a query row
/// that is also a reference row finds itself at distance 0). Exact: blocks of query rows get
/// their candidate order from |a|^2 + |b|^2 - 2 a.b (one matrix product per block), and the
/// chosen neighbours' distances are recomputed as sums of squared differences, so round-off in
/// the product cannot change a distance.
Vector kthNeighbourDistances(const MatrixRef& reference, const MatrixRef& query, int k);

/// The k nearest reference rows of each query row, nearest first (ties by the lower index).
struct NeighbourLists
{
    Matrix distances;                                                  // query rows x k
    Eigen::Matrix<Eigen::Index, Eigen::Dynamic, Eigen::Dynamic> index; // query rows x k
};

/// The k nearest rows of `reference` for each row of `query`, exact as kthNeighbourDistances.
/// With `skipSameRow` (query is the reference itself), row i is not its own neighbour, as
/// scikit-learn's kneighbors() without X: a copy of row i still is, at distance 0.
NeighbourLists nearestNeighbours(const MatrixRef& reference, const MatrixRef& query, int k,
                                 bool skipSameRow = false);

} // namespace sosrep
