// SPDX-License-Identifier: MIT
// The kernel SoS MMD objective, its gradient and its closed-form integrals.
#pragma once

#include "core/types.h"

#include <Eigen/Cholesky>

namespace sosrep {

/// The kernel sums-of-squares density of Muzellec, Bach & Rudi (seed 004): p_B(x) = k(x)^T B k(x)
/// over m support points, B >= 0, normalized by Tr(BW) = 1, fitted by minimizing the (projected)
/// MMD^2 to the empirical measure plus a regularizer (kernel-sos-mmd-digest.md, sections 1-2).
///
/// Kernel: k(x, y) = exp(-|x - y|^2 / sigma^2), the paper's convention, with sigma^2 = 2 l^2 so
/// that it is the product's Gaussian kernel exp(-|x - y|^2 / 2 l^2) at length scale l. With it
/// (Lemma 4; the exponents in the digest's stable pairwise-distance form):
///   W_pq  = (pi l^2)^(d/2)       exp(-D_pq^2 / 4 l^2)                      (int k_p k_q)
///   u_pqr = (2 pi l^2 / 3)^(d/2) exp(-(D_pq^2 + D_pr^2 + D_qr^2) / 6 l^2)  (int k_p k_q k_r)
/// and p_B is the signed Gaussian mixture sum_pq B_pq W_pq N(x; (x_p + x_q)/2, (l^2/2) I).
enum class SosRegularizer
{
    Trace,    // lambda Tr(B K~) = lambda Tr A (the paper's)
    Frobenius // lambda <B, K~ B K~> = lambda |A|_HS^2 (the authors' code)
};

enum class SosObjective
{
    Projected, // the paper's eq. (13): the MMD^2 projected onto span{phi(x~_j)} (a lower bound)
    Exact      // the exact MMD^2 with the model's kernel (digest 5.1 item 2; m^4 memory)
};

struct SosMmdConfig
{
    double lengthScale = 1.0; // l (sigma = l sqrt 2)
    double lambda = 1e-3;
    SosRegularizer regularizer = SosRegularizer::Trace;
    SosObjective objective = SosObjective::Projected;
    /// Relative jitter added to K~ and W before factorizing (paper Remark 1: the constraint
    /// becomes Tr(B (W + eps I)) = 1, then B is renormalized exactly).
    double jitter = 1e-10;
};

/// Everything the solver needs, formed once (O(m n d + m^4)); then every iteration is O(m^3).
class SosMmdProblem
{
public:
    /// `support` are the m support points, `data` the n rows of the target measure
    /// sum_i a_i delta_{x_i}, with a_i = 1/n unless `weights` is given (n weights, any sign:
    /// the target is then a signed measure, as in the digest's zero-residual fixture F10).
    SosMmdProblem(const MatrixRef& support, const MatrixRef& data, const SosMmdConfig& config,
                  const Vector* weights = nullptr);

    Eigen::Index m() const { return m_support.rows(); }
    const Matrix& support() const { return m_support; }
    const Matrix& kt() const { return m_kt; } // K~, m x m
    const Matrix& w() const { return m_w; }   // W (exact, without jitter)
    const SosMmdConfig& config() const { return m_config; }

    /// U(B)_r = sum_pq B_pq u_pqr (an m-vector), from the closed form (O(m^3) exponentials: for
    /// checks; the solver works in C, below).
    Vector u(const Matrix& b) const;
    /// U*(y)_pq = sum_r u_pqr y_r (an m x m matrix), likewise.
    Matrix uStar(const Vector& y) const;

    /// The objective J(B) and, separately, its MMD^2 part (projected or exact).
    struct Value
    {
        double objective = 0.0;
        double mmd2 = 0.0;
    };
    Value value(const Matrix& b) const;
    /// dJ/dB.
    Matrix gradient(const Matrix& b) const;

    /// The whitening W + eps I = R^T R: B = R^-1 C R^-T maps the spectraplex {C >= 0, Tr C = 1}
    /// onto the feasible set {B >= 0, Tr(B (W + eps I)) = 1}.
    Matrix toB(const Matrix& c) const { return m_ri * c * m_ri.transpose(); }
    /// The solver's side, in whitened coordinates C = R B R^T, where the u tensor is formed
    /// once as u~_r = R^-T U_r R^-1 (O(m^4)): U(B) = U~(C) is one O(m^3) product and the
    /// gradient in C another, instead of the six of going through B each step (the products
    /// were half of a fit's time; the rest is the projection's eigendecomposition). U~ is
    /// linear, so the solver carries U~ of its iterates along: `uc` is U~(C) (empty for the
    /// exact objective, which does not use it).
    Vector uOfC(const Matrix& c) const;
    Value valueInC(const Matrix& c, const Vector& uc) const;
    Matrix gradientInC(const Matrix& c, const Vector& uc) const;
    /// The largest eigenvalue of the Hessian in C over symmetric directions, by power iteration
    /// with Hessian-vector products (the digest's advice: the explicit Kronecker form is
    /// polluted by round-off when W is ill-conditioned).
    double lipschitz(int iterations, uint64_t seed) const;
    /// The jitter's exact renormalization: B / Tr(B W) (B >= 0 has Tr(B W) > 0).
    Matrix normalized(const Matrix& b) const;

private:
    /// The Hessian in C times a symmetric direction.
    Matrix hessianTimesC(const Matrix& direction) const;
    /// The objective's MMD^2 and regularizer from U(B) (or U~(C)) and the regularizer's value.
    double projectedMmd2(const Vector& u) const;
    /// K~, W, their factors and the whitened u tensor of the support points (Lemma 4).
    void formIntegrals(double logW0, double logU0);
    /// u_pqr's matrix U_r (Lemma 4).
    Matrix uSlice(Eigen::Index r) const;
    /// The exact objective's G, e and a^T K(X, X) a (digest 5.1 item 2).
    void formExactTerms(const MatrixRef& data, const Vector& a);

    Matrix m_support;
    SosMmdConfig m_config;
    Matrix m_kt;
    Matrix m_w;
    Matrix m_d2; // squared distances between support points
    double m_u0 = 0.0;
    Matrix m_uc;  // m^2 x m, column r = vec(R^-T U_r R^-1)
    Matrix m_ktc; // R^-T K~ R^-1: the regularizer's K~ in C
    Eigen::LLT<Matrix> m_ktFactor;
    Matrix m_ri; // R^-1
    Vector m_c;  // K~^-1 K(X~, X) a
    double m_cKc = 0.0;
    // The exact objective: G over component pairs, e against the data, and a^T K(X, X) a.
    Matrix m_g;
    Vector m_e;
    double m_dataTerm = 0.0;
};

} // namespace sosrep
