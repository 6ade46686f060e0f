// SPDX-License-Identifier: MIT
// FIRE's J criterion with random test functions, for tuning t and lambda.
#pragma once

#include "core/types.h"

#include <string>

namespace sosrep {

/// The test-function families of the paper's unsupervised tuning (section 6.1, digest 2).
enum class TestFamily
{
    Both,      // linear and half-spaces
    Linear,    // u(x) = beta^T x, beta ~ N(0, I), at most d of them (Remark 2)
    HalfSpaces // u(x) = 1{beta^T (x - c) > 0}, c a random row of the pooled sample
};
std::string toString(TestFamily family);
TestFamily testFamilyFromString(const std::string& text); // ParameterError("test_functions")

/// A drawn set of test functions. The half-spaces are affine (digest 5.1, point 5): the paper's
/// hyperplanes through the origin are degenerate in 1-D (two functions) and depend on centring.
struct TestFunctions
{
    Matrix linear;     // L x d
    Matrix directions; // H x d
    Vector offsets;    // H: beta^T c

    /// Draws min(d, ...) linear functions and `halfSpaces` half-spaces through rows of `pooled`.
    static TestFunctions draw(const MatrixRef& pooled, TestFamily family, int halfSpaces,
                              uint64_t seed);
    Eigen::Index count() const { return linear.rows() + directions.rows(); }
    /// u_l(x_i) for every row (rows x count()).
    Matrix evaluate(const MatrixRef& x) const;
};

/// Eq. 36 with means (digest 2: the printed sums are wrong when n != m):
/// J = (1/F) sum_l ((1/n) sum_i u_l(x_i) f(x_i) - (1/m) sum_j u_l(x'_j))^2.
/// `up` = u_l at the p rows (n x F), `f` the ratio there, `uqMean` the q-side means (F).
double jCriterion(const Matrix& up, const Vector& f, const Vector& uqMean);

} // namespace sosrep
