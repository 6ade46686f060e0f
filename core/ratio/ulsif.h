// SPDX-License-Identifier: MIT
// uLSIF's closed-form solution and its leave-one-out score.
#pragma once

#include "core/types.h"

#include <vector>

namespace sosrep {

/// uLSIF (Kanamori, Hido & Sugiyama 2009), the density-ratio users' default today: r(x) =
/// sum_l alpha_l g_t(c_l, x) over centres c_l drawn from the q sample, alpha = max(0, (H +
/// lambda I)^-1 h) with H = mean over p of phi phi^T and h = mean over q of phi.
struct UlsifSystem
{
    Matrix phiP; // n x b: g_t(x_i, c_l)
    Matrix phiQ; // m x b
    Matrix h() const;
    Vector hq() const;
};

/// alpha at one lambda (entries clipped at 0 as uLSIF does; the count is returned in *clipped).
Vector ulsifCoefficients(const UlsifSystem& s, double lambda, int* clipped = nullptr);

/// The leave-one-out score of uLSIF in closed form (the paper's Sherman-Morrison formula): the
/// first min(n, m) rows of p and q are left out in pairs; the score is (1/2) mean r_loo(x_i)^2
/// - mean r_loo(x'_i), an estimate of the squared error up to a constant. Lower is better.
double ulsifLeaveOneOut(const UlsifSystem& s, double lambda);

/// The same by refitting once per left-out pair: the oracle the closed form is tested against.
double ulsifLeaveOneOutBruteForce(const UlsifSystem& s, double lambda);

} // namespace sosrep
