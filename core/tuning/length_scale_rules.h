// SPDX-License-Identifier: MIT
// Rule-of-thumb length scales: Scott, Silverman, median distances.
#pragma once

#include "core/types.h"

namespace sosrep {

/// Rule-of-thumb bandwidths, computed on the data as given and shown as numbers (scikit-learn's
/// "scott"/"silverman" are only the factor; SciPy multiplies by the covariance: we state ours).
/// sigma is the mean of the per-column standard deviations.
/// Scott: sigma * n^(-1/(d+4)); Silverman: sigma * (4/(d+2))^(1/(d+4)) * n^(-1/(d+4)).
double scottBandwidth(const MatrixRef& x);
double silvermanBandwidth(const MatrixRef& x);

/// (Upper) median of the pairwise Euclidean distances over at most `maxPoints` rows (seeded
/// subsample); the data-driven centre of the length-scale grid (design.md section 4).
double medianPairwiseDistance(const MatrixRef& x, int maxPoints = 1000, uint64_t seed = 0);

/// Median over (at most `maxPoints` seeded) rows of the distance to the nearest other row: the
/// typical sample spacing. Zero distances (duplicates) are skipped.
double medianNearestNeighbourDistance(const MatrixRef& x, int maxPoints = 2000, uint64_t seed = 0);

} // namespace sosrep
