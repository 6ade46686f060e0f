// SPDX-License-Identifier: MIT
// A density p = f^2 (or a kernel sum) from a stored kernel field, with its Fisher terms.
#pragma once

#include "core/estimators/estimator.h"
#include "core/kernels/kernel_operator.h"
#include "core/types.h"

#include <functional>
#include <memory>
#include <mutex>
#include <string>

namespace sosrep {

/// A density formed from a kernel field f = sum_i w_i k(x_i, .) on the unit-diagonal kernel
/// k / c, c = k(x, x): log p = q log|f| + log c - log Z, that is
///   SOSREP (q = 2, Z = 1): p = c f^2, the fit on k / c converted to the true kernel's units
///                   (scaling a kernel by c scales the density by c; design.md section 1);
///   KDE (q = 1):    p = c f / Z with w_i = 1/N and Z the kernel's integral (design.md 3).
/// The same evaluator serves both (and any estimator whose model is such a field), with the
/// fast grid paths, the closed-form score and Laplacian, and comparisons.
class KernelFieldModel final : public FittedModel
{
public:
    KernelFieldModel(std::string estimator, DensityKind kind,
                     std::shared_ptr<const KernelOperator> kernel, Vector weights, double power,
                     double logNormalizer);
    /// The same with log Z computed on first use (it costs a kernel product, which a model of a
    /// tuning sweep that is only asked for its Fisher-divergence terms never needs).
    using LazyNormalizer = std::function<double(const KernelOperator&, const Vector& weights)>;
    KernelFieldModel(std::string estimator, DensityKind kind,
                     std::shared_ptr<const KernelOperator> kernel, Vector weights, double power,
                     LazyNormalizer logNormalizer);

    std::string estimator() const override { return m_estimator; }
    DensityKind kind() const override { return m_kind; }
    LogDensity modelLogValues(const MatrixRef& y) const override;
    bool hasFisherTerms() const override { return true; }
    Vector fisherTerms(const MatrixRef& y, int* invalid) const override;
    Vector fisherTermsFiniteDifference(const MatrixRef& y, const HutchinsonConfig& config,
                                       int* invalid) const override;
    const KernelFieldModel* kernelField() const override { return this; }
    const KernelOperator* kernel() const override { return m_kernel.get(); }
    /// Gaussian kernel with centres (dense or Nystroem), normalized: KDE is sum_i w_i N(x_i, l^2),
    /// SOSREP f^2 / Z the quadratic form of c c^T / Z (f^2 = sum_pq c_p c_q k_p k_q).
    long long mixtureComponents() const override;
    GaussianMixture gaussianMixture() const override;
    void save(ParameterMap& out) const override;
    SummaryFields summary() const override;

    /// The training points and weights save() wrote, with the kernel rebuilt on them.
    struct StoredField
    {
        std::shared_ptr<const KernelOperator> kernel;
        Vector weights;
    };
    /// `exactSums`: the kernel of a KDE (KernelOperator::forExactSums), else as a fit holds it.
    static StoredField loadField(const ParameterMap& parameters, const KernelSpec& kernel,
                                 bool exactSums = false);
    /// A loaded model's stored log_normalizer (written for readers, recomputed on load) must be
    /// the one its rows, weights and kernel give, to 1e-9: a file whose value was changed is
    /// refused rather than scored with a value it does not hold (ParameterError naming it).
    void checkStoredNormalizer(const ParameterMap& parameters) const;

    const std::shared_ptr<const KernelOperator>& kernelOperator() const { return m_kernel; }
    const Vector& weights() const { return m_weights; }
    /// Exponent q of |f|: 2 for SOSREP, 1 for KDE.
    double power() const { return m_power; }

    /// log p from a field value f = value * exp(logShift): q log|f| + offset, with |f| floored
    /// at 1e-300 and counted in *floored (for q = 1, a non-positive f is floored too).
    double logFromField(double value, double logShift, double offset, int* floored) const;
    /// Constant added to q log|f|: log k(x, x) - log Z.
    double logOffset() const;
    /// log Z, the log of the normalizer (0 for a pre-density).
    double logNormalizer() const { return m_kernel->logDiagonal() - logOffset(); }

    /// The score grad log p at the rows of y.
    Matrix score(const MatrixRef& y) const;

private:
    std::string m_estimator;
    DensityKind m_kind;
    std::shared_ptr<const KernelOperator> m_kernel;
    Vector m_weights;
    double m_power;
    LazyNormalizer m_lazy;
    mutable std::once_flag m_once;
    mutable double m_logOffset = 0.0;
};

} // namespace sosrep
