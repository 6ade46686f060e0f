// SPDX-License-Identifier: MIT
// Cubic splines on a uniform grid, with derivatives.
#include "core/numerics/uniform_spline.h"

#include <utility>

namespace sosrep {

UniformSpline::UniformSpline(double step, std::vector<double> values)
    : m_h(step), m_invH(1.0 / step), m_y(std::move(values)), m_c(m_y.size(), 0.0)
{
    const std::size_t n = m_y.size();
    if (n < 3) {
        return;
    }
    // Tridiagonal system for the second derivatives M_j (Thomas algorithm):
    // M_{j-1} + 4 M_j + M_{j+1} = 6 (y_{j-1} - 2 y_j + y_{j+1}) / h^2 inside, the clamped left
    // end 2 M_0 + M_1 = 6 (y_1 - y_0) / h^2 (y'(0) = 0) and M_{n-1} = 0.
    std::vector<double> diag(n, 4.0);
    std::vector<double> rhs(n, 0.0);
    const double s = 6.0 / (m_h * m_h);
    diag[0] = 2.0;
    rhs[0] = s * (m_y[1] - m_y[0]);
    for (std::size_t j = 1; j + 1 < n; ++j) {
        rhs[j] = s * (m_y[j - 1] - 2.0 * m_y[j] + m_y[j + 1]);
    }
    diag[n - 1] = 1.0;
    std::vector<double> upper(n, 1.0);
    upper[n - 1] = 0.0;
    std::vector<double> lower(n, 1.0);
    lower[n - 1] = 0.0;
    for (std::size_t j = 1; j < n; ++j) {
        const double f = lower[j] / diag[j - 1];
        diag[j] -= f * upper[j - 1];
        rhs[j] -= f * rhs[j - 1];
    }
    std::vector<double> second(n);
    second[n - 1] = rhs[n - 1] / diag[n - 1];
    for (std::size_t j = n - 1; j-- > 0;) {
        second[j] = (rhs[j] - upper[j] * second[j + 1]) / diag[j];
    }
    for (std::size_t j = 0; j < n; ++j) {
        m_c[j] = second[j] * m_h * m_h / 6.0;
    }
}

void UniformSpline::derivatives(double x, double& value, double& first, double& second) const
{
    const double t = x * m_invH;
    const std::size_t j = static_cast<std::size_t>(t);
    if (!(t >= 0.0) || j + 1 >= m_y.size()) {
        value = first = second = 0.0;
        return;
    }
    const double b = t - static_cast<double>(j);
    const double a = 1.0 - b;
    value = a * m_y[j] + b * m_y[j + 1] + (a * a * a - a) * m_c[j] + (b * b * b - b) * m_c[j + 1];
    // d/dx = (d/db) / h with da/db = -1.
    first =
        (m_y[j + 1] - m_y[j] - (3.0 * a * a - 1.0) * m_c[j] + (3.0 * b * b - 1.0) * m_c[j + 1]) *
        m_invH;
    second = 6.0 * (a * m_c[j] + b * m_c[j + 1]) * m_invH * m_invH;
}

} // namespace sosrep
