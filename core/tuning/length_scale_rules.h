// SPDX-License-Identifier: MIT
// Rule-of-thumb length scales: Scott, Silverman, median distances.
#pragma once

#include "core/types.h"

namespace sosrep {

/// Rule-of-thumb bandwidths, computed on the data as given and shown as numbers (scikit-learn's
/// "scott"/"silverman" are only the factor; SciPy multiplies by the covariance: we state ours).
/// sigma is the mean of the per-column standard deviations.
/// Scott: sigma * n^(-1/(d+4)); Silverman: sigma * (4/(d+2))^(1/(d+4)) * n^(-1/(d+4)).
/// With row weights w (empty: none) as SciPy's gaussian_kde takes them: sigma from the
/// weighted variances sum_i w_i (x_i - m)^2 / (V1 - V2 / V1), V1 = sum w, V2 = sum w^2, and n
/// the effective size V1^2 / V2 (equal weights give the unweighted numbers).
double scottBandwidth(const MatrixRef& x, const Vector& weights = Vector());
double silvermanBandwidth(const MatrixRef& x, const Vector& weights = Vector());

/// (Upper) median of the pairwise Euclidean distances over at most `maxPoints` rows (seeded
/// subsample); the data-driven centre of the length-scale grid (design.md section 4).
double medianPairwiseDistance(const MatrixRef& x, int maxPoints = 1000, uint64_t seed = 0);

/// Median over (at most `maxPoints` seeded) rows of the distance to the nearest other row: the
/// typical sample spacing. Zero distances (duplicates) are skipped.
double medianNearestNeighbourDistance(const MatrixRef& x, int maxPoints = 2000, uint64_t seed = 0);

} // namespace sosrep
