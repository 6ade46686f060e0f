// SPDX-License-Identifier: MIT
// Gauss-Legendre quadrature rules.
#include "core/numerics/gauss_legendre.h"

#include <cmath>

namespace sosrep {

QuadratureRule gaussLegendre(int n, double a, double b)
{
    QuadratureRule rule;
    rule.nodes.resize(static_cast<size_t>(n));
    rule.weights.resize(static_cast<size_t>(n));
    const double mid = 0.5 * (a + b);
    const double half = 0.5 * (b - a);
    for (int i = 0; i < (n + 1) / 2; ++i) {
        // Newton on P_n from Tricomi's estimate of the i-th root; the recurrence
        // (k + 1) P_{k+1} = (2k + 1) x P_k - k P_{k-1} gives P_n and P_n' together.
        double x = std::cos(M_PI * (i + 0.75) / (n + 0.5));
        double derivative = 1.0;
        for (int iter = 0; iter < 100; ++iter) {
            double p0 = 1.0;
            double p1 = x;
            for (int k = 1; k < n; ++k) {
                const double p2 = ((2.0 * k + 1.0) * x * p1 - k * p0) / (k + 1.0);
                p0 = p1;
                p1 = p2;
            }
            if (n == 1) {
                p1 = x;
                p0 = 1.0;
            }
            derivative = n * (x * p1 - p0) / (x * x - 1.0);
            const double dx = p1 / derivative;
            x -= dx;
            if (std::abs(dx) < 1e-16) {
                break;
            }
        }
        const double w = 2.0 / ((1.0 - x * x) * derivative * derivative);
        const size_t lo = static_cast<size_t>(i);
        const size_t hi = static_cast<size_t>(n - 1 - i);
        rule.nodes[lo] = mid - half * x;
        rule.nodes[hi] = mid + half * x;
        rule.weights[lo] = half * w;
        rule.weights[hi] = half * w;
    }
    return rule;
}

} // namespace sosrep
