// SPDX-License-Identifier: MIT
// The Lanczos process for symmetric operators.
#pragma once

#include "core/numerics/banded_solvers.h"
#include "core/types.h"

#include <functional>
#include <optional>

namespace sosrep {

/// An orthonormal basis Q of the Krylov space of a symmetric A from b, and T = Q^T A Q (a
/// symmetric tridiagonal matrix), so that f(A) b ~ |b| Q f(T) e1 for functions f that a
/// polynomial of the space's degree approximates well on A's spectrum (Golub & Van Loan 10.1;
/// Saad, "Iterative methods", 6.6).
struct LanczosBasis
{
    Matrix q;               // n x m, orthonormal columns; the first is b / |b|
    SymmetricTridiagonal t; // m x m
    double norm = 0.0;      // |b|
    bool invariant = false; // the space is A-invariant: f(A) b = |b| Q f(T) e1 exactly
};

/// Lanczos steps with full reorthogonalisation (twice, Gram-Schmidt): each step costs one
/// product with A and O(n m). Every `every` steps `converged(t)` is asked whether T is enough;
/// the process stops there, when the space becomes invariant, or after `maxSteps` steps
/// (then: no basis). b must not be zero.
std::optional<LanczosBasis>
lanczos(const Matrix& a, const Vector& b, Eigen::Index maxSteps, int every,
        const std::function<bool(const SymmetricTridiagonal&)>& converged);

} // namespace sosrep
