// SPDX-License-Identifier: MIT
// Symmetric tridiagonal solves for FIRE's systems in a Lanczos basis.
#pragma once

#include "core/types.h"

namespace sosrep {

/// A symmetric tridiagonal matrix T: its diagonal (n) and sub-diagonal (n - 1).
struct SymmetricTridiagonal
{
    Vector diagonal;
    Vector subDiagonal;

    Eigen::Index size() const { return diagonal.size(); }
    /// T x in O(n).
    Vector times(const Vector& x) const;
    /// T as a full matrix (for checks).
    Matrix dense() const;
};

/// (T + shift I)^-1 rhs by Cholesky of the shifted tridiagonal matrix, O(n). Throws
/// NumericalError if a pivot is not positive (the shifted matrix is not positive definite).
Vector solveShiftedTridiagonal(const SymmetricTridiagonal& t, double shift, const Vector& rhs);

/// (T^2 + a T + b I)^-1 rhs by Cholesky of that pentadiagonal matrix, O(n). T^2 + aT + bI is
/// positive definite whenever x^2 + a x + b > 0 on T's eigenvalues. Throws NumericalError if a
/// pivot is not positive.
Vector solveTridiagonalQuadratic(const SymmetricTridiagonal& t, double a, double b,
                                 const Vector& rhs);

} // namespace sosrep
