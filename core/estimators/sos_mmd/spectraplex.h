// SPDX-License-Identifier: MIT
// Euclidean projections onto the simplex and the spectraplex.
#pragma once

#include "core/types.h"

namespace sosrep {

/// Euclidean projection onto the simplex {x >= 0, sum x = 1} (sort-based, O(n log n)).
Vector projectOntoSimplex(const Vector& v);

/// Frobenius projection of a symmetric matrix onto the spectraplex {X >= 0, Tr X = 1}
/// (Muzellec, Bach & Rudi, Algorithm 1): eigendecompose, project the eigenvalues onto the
/// simplex, recompose. The input is symmetrized first.
Matrix projectOntoSpectraplex(const Matrix& x);

} // namespace sosrep
