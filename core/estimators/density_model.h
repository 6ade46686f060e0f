// SPDX-License-Identifier: MIT
#pragma once

#include "core/kernels/kernel_operator.h"
#include "core/types.h"

#include <memory>
#include <string>

namespace sosrep {

enum class EstimatorKind
{
    Sosrep, // p = f^2 with f = sum_i alpha_i k(x_i, .): an unnormalized pre-density
    Kde     // p = (1/N) sum_i k(x_i, .) / Z: a normalized density
};
std::string toString(EstimatorKind kind);
EstimatorKind estimatorKindFromString(const std::string& text); // ParameterError("--estimator")

struct LogDensity
{
    Vector values;   // log p (log pre-density for SOSREP) in the kernel's own units
    int floored = 0; // points where |f| (SOSREP) or p (KDE) was <= 1e-300 or p <= 0 and was floored
};

/// Settings of the paper's Hutchinson finite-difference trace estimator (Alg. 1 / Alg. 6).
struct HutchinsonConfig
{
    int probes = 8;     // n random vectors per point
    double step = 1e-3; // h, relative to the length scale
    uint64_t seed = 0;  // Rademacher probes (mean 0, covariance I, unlike Alg. 6's U{-1,0,1})
};

/// A fitted kernel density: field f = sum_i w_i k(x_i, .) on a unit-diagonal kernel, with
/// p = f^2 * k(x,x) (SOSREP, design.md section 1) or p = f * k(x,x) / Z (KDE, w_i = 1/N).
struct DensityModel
{
    EstimatorKind estimator = EstimatorKind::Sosrep;
    std::shared_ptr<const KernelOperator> kernel;
    Vector weights;

    /// Exponent of p in f: 2 for SOSREP, 1 for KDE.
    double power() const { return estimator == EstimatorKind::Sosrep ? 2.0 : 1.0; }

    /// log p at the rows of y (log-sum-exp safe: the kernel sums are computed with a shift).
    LogDensity logDensity(const MatrixRef& y) const;

    /// log p from a field value f = value * exp(logShift): power * log|f| + logOffset(), with
    /// |f| (SOSREP) or f (KDE) floored at 1e-300 and counted in *floored.
    double logFromField(double value, double logShift, double offset, int* floored) const;
    /// Constant added to power * log f: log k(x,x), minus log Z for KDE.
    double logOffset() const;

    /// Hyvaerinen score-matching terms tr grad^2 log p + 1/2 |grad log p|^2 per point, analytic
    /// (design.md section 4; for SOSREP this is exactly 2 lap f / f). Points where the term is not
    /// finite are counted in *invalid and left as +inf.
    Vector fisherTerms(const MatrixRef& y, int* invalid = nullptr) const;

    /// The same terms with the trace by Hutchinson finite differences of the score.
    Vector fisherTermsFiniteDifference(const MatrixRef& y, const HutchinsonConfig& config,
                                       int* invalid = nullptr) const;

    /// The score grad log p at the rows of y.
    Matrix score(const MatrixRef& y) const;
};

/// KDE on the given kernel: weights 1/N.
DensityModel makeKde(std::shared_ptr<const KernelOperator> kernel);

} // namespace sosrep
