// SPDX-License-Identifier: MIT
// FIRE's Gaussian kernel g_t and its Gram blocks for the ratio estimators.
#pragma once

#include "core/types.h"

namespace sosrep {

/// FIRE's Gaussian with variance t (digest section 1.10), kept at unit peak:
/// g_t(x, y) = exp(-|x - y|^2 / (2t)). The paper's delta-family kernel is k_t = c(t, d) g_t with
/// c = (2 pi t)^(-d/2). Type I is the same with either (only lambda scales, by c^3 for the L2
/// losses: digest T5), so every lambda in this library is stated for g_t, which keeps one
/// lambda grid meaningful for every t and every dimension; Type II divides q by c instead.
Matrix gaussianGram(const MatrixRef& a, const MatrixRef& b, double t);

/// sum_l a_l g_t(c_l, y_i) for every row of y (a kernel expansion), in blocks of y's rows.
Vector gaussianExpansion(const MatrixRef& y, const MatrixRef& centres, const Vector& a, double t);

/// (1/m) sum_j g_t(y_i, x_j) for every row of y over the m rows of `sample`, in blocks of the
/// sample (the y x m matrix is never held whole): the KDE up to its normalizer.
Vector gaussianRowMeans(const MatrixRef& y, const MatrixRef& sample, double t);

/// c(t, d) = (2 pi t)^(-d/2): the normalizer that makes g_t a delta family in dimension d (the
/// intrinsic dimension for data on a manifold, appendix C, Lemma 10).
double deltaNormalizer(double t, double dim);

/// The paper's t0 (section 6.1): the mean distance of each row of x to its 10 nearest other rows
/// (fewer when x has fewer rows), used, as the paper does, as a variance.
double meanNeighbourDistance(const MatrixRef& x, int neighbours = 10);

} // namespace sosrep
