// SPDX-License-Identifier: MIT
// A fitted kernel SoS density (PSD matrix B over the kernel features), saved and loaded.
#pragma once

#include "core/estimators/estimator.h"
#include "core/kernels/kernel_operator.h"

#include <memory>

namespace sosrep {

/// A fitted kernel sums-of-squares density p(x) = k(x)^T B k(x), Tr(BW) = 1 (sos_mmd_problem.h),
/// evaluated through B = V diag(lambda) V^T as sum_k lambda_k (v_k^T k(x))^2, in logs with a
/// per-point shift so that nothing underflows far from the support.
class SosMmdModel final : public FittedModel
{
public:
    /// `support` (m x d), B (m x m, B >= 0, Tr(BW) = 1) and the Gaussian kernel's length scale.
    SosMmdModel(const Matrix& support, const Matrix& b, double lengthScale);
    /// The model exactly as save() wrote it: B = V diag(lambda) V^T, already clipped and
    /// normalized (re-factorizing B would change the last bits, and `score` must reproduce
    /// `fit` exactly). Throws ParameterError when the factors are malformed or Tr(BW) != 1.
    static std::unique_ptr<SosMmdModel> fromFactors(const Matrix& support, const Matrix& vectors,
                                                    const Vector& values, double lengthScale);

    /// What a refused fit returns (its report says why; FitReport::refused): no B, nothing to
    /// evaluate. The fit route refuses it before anything could be.
    static std::unique_ptr<SosMmdModel> refused(const Matrix& support, double lengthScale)
    {
        return std::unique_ptr<SosMmdModel>(new SosMmdModel(support, lengthScale));
    }

    std::string estimator() const override { return "sos-mmd"; }
    DensityKind kind() const override { return DensityKind::Normalized; }
    LogDensity modelLogValues(const MatrixRef& y) const override;
    bool hasFisherTerms() const override { return true; }
    Vector fisherTerms(const MatrixRef& y, int* invalid) const override;
    Vector fisherTermsFiniteDifference(const MatrixRef& y, const HutchinsonConfig& config,
                                       int* invalid) const override;
    const KernelOperator* kernel() const override { return m_kernel.get(); }
    long long mixtureComponents() const override;
    GaussianMixture gaussianMixture() const override;
    void save(ParameterMap& out) const override;
    SummaryFields summary() const override;

    const Matrix& support() const { return m_support; }
    const Matrix& b() const { return m_b; }
    double lengthScale() const { return m_l; }
    /// Numerical rank of B (eigenvalues above 1e-12 of the largest).
    int rank() const { return static_cast<int>(m_lambda.size()); }
    /// Tr(B W): 1 up to rounding.
    double traceBW() const;

    /// p_B as a signed Gaussian mixture: sum_pq B_pq W_pq N(x; (x_p + x_q)/2, (l^2/2) I).
    Vector mean() const;
    Matrix covariance() const;
    /// The log marginal density of the columns `columns` at the rows of y (|columns| columns):
    /// the same mixture with the centres restricted to those columns.
    Vector logMarginal(const std::vector<int>& columns, const MatrixRef& y) const;
    /// The score grad log p at the rows of y.
    Matrix score(const MatrixRef& y) const;

private:
    SosMmdModel(const Matrix& support, double lengthScale);
    /// Kernel values k(y, x~_i) / exp(shift) per row of y, with the shift per row.
    Matrix shiftedKernel(const MatrixRef& y, Vector* shift) const;
    /// Mixture weights B_pq W_pq (m x m).
    Matrix mixtureWeights() const;

    Matrix m_support;
    Matrix m_b;
    double m_l;
    Matrix m_v;      // eigenvectors kept (m x r)
    Vector m_lambda; // their eigenvalues (r)
    std::shared_ptr<const KernelOperator> m_kernel;
};

} // namespace sosrep
