// SPDX-License-Identifier: MIT
// Symmetric tridiagonal solves for FIRE's systems in a Lanczos basis.
#include "core/numerics/banded_solvers.h"

#include "core/errors.h"

#include <array>
#include <cmath>
#include <string>

namespace sosrep {
namespace {

[[noreturn]] void notPositive(const char* what, Eigen::Index row, double pivot)
{
    throw NumericalError(std::string(what) + ": pivot " + std::to_string(pivot) + " at row " +
                         std::to_string(row + 1) + " is not positive (not positive definite)");
}

} // namespace

Vector SymmetricTridiagonal::times(const Vector& x) const
{
    const Eigen::Index n = size();
    Vector y = diagonal.cwiseProduct(x);
    if (n > 1) {
        y.head(n - 1) += subDiagonal.cwiseProduct(x.tail(n - 1));
        y.tail(n - 1) += subDiagonal.cwiseProduct(x.head(n - 1));
    }
    return y;
}

Matrix SymmetricTridiagonal::dense() const
{
    const Eigen::Index n = size();
    Matrix m = Matrix::Zero(n, n);
    m.diagonal() = diagonal;
    for (Eigen::Index i = 0; i + 1 < n; ++i) {
        m(i + 1, i) = m(i, i + 1) = subDiagonal(i);
    }
    return m;
}

Vector solveShiftedTridiagonal(const SymmetricTridiagonal& t, double shift, const Vector& rhs)
{
    // LDL^T of T + shift I: d_i = a_i - e_{i-1}^2 / d_{i-1}, l_i = e_i / d_i.
    const Eigen::Index n = t.size();
    Vector d(n), l(n > 0 ? n - 1 : 0), y = rhs;
    for (Eigen::Index i = 0; i < n; ++i) {
        d(i) = t.diagonal(i) + shift;
        if (i > 0) {
            d(i) -= l(i - 1) * t.subDiagonal(i - 1);
            y(i) -= l(i - 1) * y(i - 1);
        }
        if (!(d(i) > 0.0)) {
            notPositive("tridiagonal solve", i, d(i));
        }
        if (i + 1 < n) {
            l(i) = t.subDiagonal(i) / d(i);
        }
    }
    for (Eigen::Index i = n - 1; i >= 0; --i) {
        y(i) /= d(i);
        if (i + 1 < n) {
            y(i) -= l(i) * y(i + 1);
        }
    }
    return y;
}

Vector solveTridiagonalQuadratic(const SymmetricTridiagonal& t, double a, double b,
                                 const Vector& rhs)
{
    // P = T^2 + a T + b I has bands p0 (diagonal), p1, p2 below it. With T's diagonal c and
    // sub-diagonal e: (T^2)_ii = c_i^2 + e_{i-1}^2 + e_i^2, (T^2)_{i+1,i} = e_i (c_i + c_{i+1}),
    // (T^2)_{i+2,i} = e_i e_{i+1}.
    const Eigen::Index n = t.size();
    const Vector& c = t.diagonal;
    const Vector& e = t.subDiagonal;
    const auto sub = [&](Eigen::Index i) { return i >= 0 && i + 1 < n ? e(i) : 0.0; };
    // Banded Cholesky P = L L^T with L's bands g0 (diagonal), g1, g2.
    Vector g0(n), g1 = Vector::Zero(n), g2 = Vector::Zero(n), y = rhs;
    for (Eigen::Index i = 0; i < n; ++i) {
        const double p0 = c(i) * c(i) + sub(i - 1) * sub(i - 1) + sub(i) * sub(i) + a * c(i) + b;
        // Row i of L: entries at columns i-2 (g2(i-2)), i-1 (g1(i-1)), i (g0(i)).
        double diag = p0;
        if (i >= 2) {
            const double p2 = sub(i - 2) * sub(i - 1); // P(i, i-2)
            g2(i - 2) = p2 / g0(i - 2);
            diag -= g2(i - 2) * g2(i - 2);
        }
        if (i >= 1) {
            double p1 = sub(i - 1) * (c(i - 1) + c(i)) + a * sub(i - 1); // P(i, i-1)
            if (i >= 2) {
                p1 -= g2(i - 2) * g1(i - 2); // L(i, i-2) L(i-1, i-2)
            }
            g1(i - 1) = p1 / g0(i - 1);
            diag -= g1(i - 1) * g1(i - 1);
        }
        if (!(diag > 0.0)) {
            notPositive("pentadiagonal solve", i, diag);
        }
        g0(i) = std::sqrt(diag);
        // Forward substitution L y = rhs as the rows are made.
        double s = y(i);
        if (i >= 1) {
            s -= g1(i - 1) * y(i - 1);
        }
        if (i >= 2) {
            s -= g2(i - 2) * y(i - 2);
        }
        y(i) = s / g0(i);
    }
    // Back substitution L^T x = y.
    for (Eigen::Index i = n - 1; i >= 0; --i) {
        double s = y(i);
        if (i + 1 < n) {
            s -= g1(i) * y(i + 1);
        }
        if (i + 2 < n) {
            s -= g2(i) * y(i + 2);
        }
        y(i) = s / g0(i);
    }
    return y;
}

} // namespace sosrep
