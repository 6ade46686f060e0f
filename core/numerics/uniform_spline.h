// SPDX-License-Identifier: MIT
// Cubic splines on a uniform grid, with derivatives.
#pragma once

#include <cstddef>
#include <vector>

namespace sosrep {

/// Cubic interpolating spline on the uniform grid x_j = j h, j = 0..n-1, with y'(0) = 0 (the
/// tabulated profiles are even in their variable) and a natural right end. Outside [0, x_{n-1}]
/// it returns 0: the tables end where the function is negligible.
class UniformSpline
{
public:
    UniformSpline() = default;
    UniformSpline(double step, std::vector<double> values);

    double step() const { return m_h; }
    double end() const { return m_h * static_cast<double>(m_y.size() - 1); }
    const std::vector<double>& values() const { return m_y; }

    double value(double x) const
    {
        const double t = x * m_invH;
        const std::size_t j = static_cast<std::size_t>(t);
        if (!(t >= 0.0) || j + 1 >= m_y.size()) {
            return 0.0;
        }
        const double b = t - static_cast<double>(j);
        const double a = 1.0 - b;
        return a * m_y[j] + b * m_y[j + 1] + (a * a * a - a) * m_c[j] +
               (b * b * b - b) * m_c[j + 1];
    }

    /// Value, first and second derivative at x.
    void derivatives(double x, double& value, double& first, double& second) const;

private:
    double m_h = 1.0;
    double m_invH = 1.0;
    std::vector<double> m_y;
    std::vector<double> m_c; // second derivatives times h^2 / 6
};

} // namespace sosrep
