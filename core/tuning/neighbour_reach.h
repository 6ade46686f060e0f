// SPDX-License-Identifier: MIT
// How far a length scale reaches among the data's neighbours.
#pragma once

#include "core/types.h"

#include <cstdint>

namespace sosrep {

/// The neighbourhood reach l_k of a sample: the median, over the rows of `query`, of the length
/// scale at which a Gaussian kernel centred on the row weighs its k-th nearest row of
/// `reference` 1/e as much as its nearest one:
///     exp(-(r_k^2 - r_1^2) / (2 l^2)) = exp(-1)   =>   l = sqrt((r_k^2 - r_1^2) / 2).
/// At l_k a row's kernel sum averages over about k neighbours (kNN detection with that k, in
/// kernel form), so a clump of fewer than k near-copies cannot make itself dense. Unlike r_k
/// itself it adapts to high dimension, where distances concentrate (r_k / r_1 -> 1) and a kernel
/// at l = r_1 already spans many neighbours. `query` rows should not be `reference` rows (the
/// tuning's validation rows against its fitting rows); needs k <= reference rows. At most
/// `maxQuery` seeded query rows are used (a median needs no more, and kNN is exact: O(n m d)).
double neighbourReach(const MatrixRef& reference, const MatrixRef& query, int k,
                      int maxQuery = 2000, uint64_t seed = 0);

} // namespace sosrep
