// SPDX-License-Identifier: MIT
// Gaussian shifts with known ratios, for tests and benchmarks.
#pragma once

#include "core/types.h"

#include <string>

namespace sosrep {

/// A covariate shift with a known ratio, for tests and the benchmark: p = N(0, I_d) and q =
/// N(mu, diag(s^2)) with q differing from p in its first `shifted` coordinates only, so that
/// r(x) = q(x)/p(x) = prod_{j < shifted} (1/s) exp(-(x_j - mu_j)^2/(2 s^2) + x_j^2/2).
struct GaussianShift
{
    int dim = 1;
    int shifted = 1;
    double mean = 0.5;   // mu_1 (the other shifted coordinates have mean 0)
    double stddev = 0.6; // s of the shifted coordinates

    Matrix sampleP(Eigen::Index rows, uint64_t seed) const;
    Matrix sampleQ(Eigen::Index rows, uint64_t seed) const;
    Vector ratio(const MatrixRef& x) const;
    /// E_p[r^2] in closed form (digest T6): per shifted coordinate
    /// (1/(sqrt(2 pi) s^2)) sqrt(pi/a) exp(mu^2/(s^4 a) - mu^2/s^2), a = 1/s^2 - 1/2.
    double ratioSecondMoment() const;
    std::string name() const;
};

/// NMSE of an estimate f of r on rows from p: sum (f - r)^2 / sum r^2.
double normalizedSquaredError(const Vector& f, const Vector& r);

} // namespace sosrep
