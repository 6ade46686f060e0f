// SPDX-License-Identifier: MIT
// Gaussian mixtures: their density and quadratic forms, for closed-form checks.
#pragma once

#include "core/types.h"

namespace sosrep {

/// A signed mixture of isotropic Gaussians p(x) = sum_k w_k N(x; mu_k, v_k I); v_k = 0 is an
/// atom (an empirical sample is the mixture of its rows with weights 1/n and variance 0).
/// Gaussian KDE, Gaussian SOSREP and the kernel sums-of-squares density are all such mixtures,
/// which is what gives them closed-form MMDs (kernel-sos-mmd-digest.md 1.4 and 5.2).
struct GaussianMixture
{
    Matrix centres;   // components x d
    Vector weights;   // signed; they sum to 1 for a density
    Vector variances; // per component, >= 0

    Eigen::Index size() const { return centres.rows(); }
    int dim() const { return static_cast<int>(centres.cols()); }

    /// The rows of x as atoms of weight 1/n.
    static GaussianMixture atoms(const MatrixRef& x);
    /// Components N(x_i, v I) of equal weight 1/n (a Gaussian KDE with bandwidth sqrt v).
    static GaussianMixture equalWeights(const MatrixRef& centres, double variance);
};

/// The quadratic form p(x) = k(x)^T Q k(x), k(x)_p = exp(-|x - c_p|^2 / 2 l^2) over m centres,
/// as a mixture: k_p k_q = W_pq N(x; (c_p + c_q)/2, (l^2/2) I) with
/// W_pq = (pi l^2)^(d/2) exp(-|c_p - c_q|^2 / 4 l^2), so the weights are Q_pq W_pq. The pairs
/// p < q are merged with p > q (Q symmetric): m (m + 1) / 2 components. The weights are
/// multiplied by exp(logScale), applied in logs with (pi l^2)^(d/2), which alone can overflow.
GaussianMixture quadraticFormMixture(const MatrixRef& centres, const Matrix& q, double lengthScale,
                                     double logScale = 0.0);

/// Components quadraticFormMixture gives for m centres.
inline long long quadraticFormComponents(Eigen::Index m)
{
    return static_cast<long long>(m) * (static_cast<long long>(m) + 1) / 2;
}

/// The mixture's density at the rows of y, summed term by term (for checks and small mixtures).
Vector mixtureDensity(const GaussianMixture& mixture, const MatrixRef& y);

} // namespace sosrep
