// SPDX-License-Identifier: MIT
// Gauss-Legendre quadrature rules.
#pragma once

#include <vector>

namespace sosrep {

/// Gauss-Legendre rule with n nodes on [a, b]: exact for polynomials of degree 2n - 1.
struct QuadratureRule
{
    std::vector<double> nodes;
    std::vector<double> weights;
};

QuadratureRule gaussLegendre(int n, double a = -1.0, double b = 1.0);

} // namespace sosrep
