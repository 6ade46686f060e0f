// SPDX-License-Identifier: MIT
// FIRE's linear systems (the losses of its Eqs. 11-21), exact or by Fourier features.
#pragma once

#include "core/types.h"

#include <memory>
#include <string>
#include <vector>

namespace sosrep {

/// FIRE's losses (digest section 1): the L2,p loss of Eq. 11 (main), the gamma-mixed
/// L2,p + L2,q norm of Eq. 13 with the lambda*I correction of digest 1.4, the RKHS loss of
/// Eq. 14 (a regularized KMM) and spectral cut-off (Eqs. 18-21).
enum class FireLoss
{
    L2p,
    Mixed,
    Rkhs,
    Cutoff
};
std::string toString(FireLoss loss);
/// "l2p", "mixed", "rkhs", "cutoff"; anything else throws ParameterError("loss").
FireLoss fireLossFromString(const std::string& text);

/// Exact (representer) form, or random Fourier features for large samples (digest 5.2).
enum class FireForm
{
    Exact,
    Features
};

/// What the ratio is fitted against: Type I, a sample of q; Type II, q's values at the p rows
/// (already divided by the delta normalizer's units: see FireFit::build).
struct RatioTarget
{
    const Matrix* sample = nullptr; // Type I: rows of q, same columns as p
    const Vector* values = nullptr; // Type II: q(x_i) at the p rows
    double intrinsicDim = 0.0;      // Type II: the dimension of c(t, d) (0: the columns)
    bool typeTwo() const { return values != nullptr; }
};

struct FireSetup
{
    FireLoss loss = FireLoss::L2p;
    double gamma = 0.5; // weight of L2,p in the mixed norm
    FireForm form = FireForm::Exact;
    int features = 500; // D of the feature form
    uint64_t seed = 0;  // the features' frequencies and phases
    /// Exact L2,p and RKHS from a Lanczos basis of Kpp's Krylov space from b instead of the
    /// tridiagonal reduction, when > 0: steps are added until the coefficients at each of
    /// `krylovLambdas` change by less than this (relative) over 8 steps; without convergence
    /// by n/4 steps, the reduction. For the tuning's fold fits (issue 25: 10-100 steps at
    /// n = 800, 1e-11 from the exact path); the final model keeps the exact path.
    double krylovTolerance = 0.0;
    std::vector<double> krylovLambdas;
};

/// The random Fourier features of the unit-peak Gaussian g_t: phi(x) = sqrt(2/D) cos(W x + b),
/// W = Z / sqrt(t) with Z ~ N(0, I) and b ~ U[0, 2 pi) drawn once per seed, so that every t of a
/// grid shares Z and b (the J surface is then smooth in t).
struct FourierFeatures
{
    Matrix frequencies; // D x d, already divided by sqrt(t)
    Vector phases;      // D
    static FourierFeatures draw(int dim, int count, double t, uint64_t seed);
    Matrix map(const MatrixRef& x) const; // rows x D
};

/// FIRE at one kernel width t on one p-sample: the expensive part (one reduction of Kpp to
/// tridiagonal form, one symmetric eigendecomposition, or one LU per lambda for the mixed norm)
/// is done here once, and every lambda of the path is then cheap (digest 1.3: the app's lambda
/// slider does not refit).
///
/// Exact L2,p and RKHS need no eigenvectors: with Kpp = Q T Q^T (Householder Q, tridiagonal
/// T) their filters are banded solves, v = Q (T^3 + lambda)^-1 T Q^T b and Q (T^2 +
/// lambda)^-1 Q^T b, O(n^2) per lambda after an O(n^3) reduction about seven times cheaper
/// than the eigendecomposition (issue 25: 50 of them made the J tuning at n = 1000 take 5 s).
///
/// Exact form: f(x) = (1/n) sum_i g_t(x_i, x) v_i with v = Q F(sigma) Q^T b, Kpp = g_t/n =
/// Q diag(sigma) Q^T, b = Kpq 1 (Type I) or q / c (Type II), and the filter F of the loss:
/// L2,p sigma/(sigma^3 + lambda) (Eq. 12), RKHS 1/(sigma^2 + lambda) (Eq. 15), cut-off
/// 1/sigma^2 on the eigenvalues with sigma^3 > lambda (Eq. 20, K_1 = Kpp, K_2 = Kpq, digest
/// 1.8), mixed v = n (A K_H + lambda I)^-1 K_1 1 (Eq. 13 with lambda I).
/// Feature form: f(x) = phi(x)^T w with w = U F(Lambda) U^T s, Cp = U diag(Lambda) U^T, s =
/// Cp mu_q (Type I) or (1/n) Phi_p^T q / c (Type II): the same filters, since the feature
/// kernel's Gram matrix has Cp's eigenvalues (digest 5.2); mixed w = (Cp M Cp + lambda)^-1 Cp
/// M mu_q, decomposed once.
class FireFit
{
public:
    /// Throws ParameterError for a loss the target's type has no formula for (Type II: L2,p
    /// and cut-off only, section 3.6).
    static std::shared_ptr<const FireFit> build(const MatrixRef& xp, const RatioTarget& target,
                                                double t, const FireSetup& setup);

    /// The ratio estimate at the rows of y.
    Vector values(const MatrixRef& y, double lambda) const;
    /// Evaluation at fixed rows for many lambdas (the tuning sweep): O(rows x n) per lambda.
    class Evaluator
    {
    public:
        Vector at(double lambda) const;

    private:
        friend class FireFit;
        const FireFit* m_fit = nullptr;
        Matrix m_basis; // rows x n (exact: g_t(y, Xp) / n, or times Q; features: Phi(y) U)
    };
    Evaluator evaluator(const MatrixRef& y) const;

    /// The estimate at the p rows the fit was built on (exact: Kpp v; features: Phi_p w).
    Vector sampleValues(double lambda) const;
    /// The coefficients of the path at lambda (exact: v, n entries; features: w, D entries).
    Vector coefficients(double lambda) const;
    /// Eigenvalues kept by the cut-off at lambda (other losses: all).
    int cutoffRank(double lambda) const;

    double t() const { return m_t; }
    const FireSetup& setup() const { return m_setup; }
    bool typeTwo() const { return m_typeTwo; }
    const Matrix& support() const { return m_xp; }
    const FourierFeatures& features() const { return m_features; }

private:
    /// The random-feature form (D x D systems) and the exact one (n x n: the tridiagonal or
    /// Lanczos path, the mixed system, or the cut-off's eigenbasis) of build().
    void buildFeatures(const MatrixRef& xp, const RatioTarget& target, const Vector& qOverC);
    void buildExact(const MatrixRef& xp, const RatioTarget& target, const Vector& qOverC);
    struct TridiagonalForm; // exact L2,p and RKHS: Kpp = Q T Q^T and Q^T b
    FireFit() = default;
    Vector filter(double lambda) const;

    FireSetup m_setup;
    double m_t = 1.0;
    bool m_typeTwo = false;
    Matrix m_xp;                // exact form: the p rows (the expansion's centres)
    FourierFeatures m_features; // feature form
    Matrix m_vectors;           // Q (exact) or U (features); mixed exact: unused
    Vector m_eigenvalues;       // sigma or Lambda
    Vector m_projected;         // Q^T b or U^T s (mixed: U^T Cp M mu_q)
    Matrix m_mixedSystem;       // mixed exact: A K_H (n x n)
    Vector m_mixedRhs;          // mixed exact: K_1 1
    Matrix m_sampleBasis;       // features, Type II: Phi_p U (for sampleValues)
    std::shared_ptr<const TridiagonalForm> m_tridiagonal;
};

} // namespace sosrep
