// SPDX-License-Identifier: MIT
// Exact draws from a signed Gaussian mixture whose density is nonnegative, one coordinate at a
// time from its conditional distribution.
#pragma once

#include "core/numerics/gaussian_mixture.h"

#include <random>

namespace sosrep {

/// n rows from the density of `g`, a signed mixture of isotropic Gaussians that is nonnegative
/// everywhere (a square f^2, a PSD quadratic form), for mixtures whose weights cancel so much
/// that rejection from the positive part keeps almost nothing (a kernel SoS fit of 200 normal
/// rows kept fewer than 1 in 10^6 proposals).
///
/// Coordinate j is drawn from its conditional given the coordinates drawn before it: the
/// components' weights times their densities there, w_k prod_{t<j} N(x_t; mu_kt, v_k) (kept in
/// logs), give F_j(x) = sum_k a_k Phi((x - mu_kj) / sqrt v_k) / sum_k a_k, inverted at a uniform
/// u by Newton's method inside a bisection bracket to 1e-12 of the bracket. Every draw is exact
/// up to that rounding, and costs about 30 d passes over the components.
///
/// ParameterError("sample") when a variance is not positive, or when a conditional's weights
/// cancel so far (sum |a_k| > 1e10 sum a_k) that its CDF keeps no digits.
Matrix sampleByConditionals(const GaussianMixture& g, Eigen::Index n, std::mt19937_64& rng);

/// The share of proposals that rejection from the positive part keeps: sum_k w_k over
/// sum_k max(w_k, 0) (each component integrates to 1).
double positivePartAcceptance(const GaussianMixture& g);

} // namespace sosrep
