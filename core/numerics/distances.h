// SPDX-License-Identifier: MIT
#pragma once

#include "core/types.h"

namespace sosrep {

/// Squared Euclidean distances between the rows of a and the rows of b (a.rows() x b.rows()),
/// by |a|^2 + |b|^2 - 2 a b^T with the round-off below zero clamped to 0.
Matrix squaredDistances(const MatrixRef& a, const MatrixRef& b);

} // namespace sosrep
