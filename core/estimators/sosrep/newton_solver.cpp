// SPDX-License-Identifier: MIT
// A Newton solver for SOSREP's objective that hands over to natural gradient.
#include "core/estimators/sosrep/newton_solver.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace sosrep {
NewtonSolver::NewtonSolver(const KernelOperator& kernel, const NewtonConfig& config)
    : NewtonSolver(kernel, config, initialAlpha(kernel, config.seed))
{
    ++m_products; // the scaling product of initialAlpha
}

NewtonSolver::NewtonSolver(const KernelOperator& kernel, const NewtonConfig& config,
                           const Vector& alpha0, bool rescale)
    : m_kernel(kernel), m_config(config), m_alpha(alpha0), m_signed(kernel.hasNegativeEntries())
{
    m_u = m_kernel.apply(m_alpha);
    ++m_products;
    const double q = m_alpha.dot(m_u);
    if (rescale && q > 0.0 && std::isfinite(q)) {
        // K (s alpha) = s K alpha: the scaled start's u without another product.
        const double s = 1.0 / std::sqrt(q);
        m_alpha *= s;
        m_u *= s;
    }
    record();
}

double NewtonSolver::loss(const Vector& alpha, const Vector& u) const
{
    const double n = static_cast<double>(u.size());
    double logSum = 0.0;
    for (Eigen::Index i = 0; i < u.size(); ++i) {
        logSum += 2.0 * std::log(std::max(std::abs(u(i)), m_config.clampFloor));
    }
    return -logSum / n + alpha.dot(u);
}

void NewtonSolver::record()
{
    const TraceRow row = sosrepMonitors(m_iteration, m_alpha, m_u, m_config.clampFloor);
    append(row);
    if (!std::isfinite(row.loss) || !std::isfinite(row.residual) || !m_alpha.allFinite()) {
        m_status = SolverStatus::Diverged;
    } else if (row.residual < m_config.tolerance) {
        m_status = SolverStatus::Converged;
    } else if (m_stalled ? (m_config.maxProducts > 0 && m_products >= m_config.maxProducts)
                         : (m_iteration >= m_config.maxIterations ||
                            (m_config.maxProducts > 0 && m_products >= m_config.maxProducts))) {
        m_status = SolverStatus::MaxIterations;
    }
}

bool NewtonSolver::newtonStep()
{
    const double n = static_cast<double>(m_alpha.size());
    if ((m_u.array().abs() < m_config.clampFloor).any()) {
        return false;
    }
    const Vector g = m_alpha - m_u.cwiseInverse() / n;
    const Vector s = m_u.cwiseInverse(); // S = diag(1/u)
    // CG on (I + S K S / N) y = b, b = -u o g.
    const Vector b = -m_u.cwiseProduct(g);
    const double residual = m_trace.back().residual;
    const double forcing = std::min(0.1, std::sqrt(residual));
    // Jacobi preconditioner for kernels with negative entries: the diagonal 1 + K_ii / (N u_i^2)
    // is huge where f(x_i) is small, which only happens there: with K >= 0, u_i >= alpha_i and
    // near the optimum N u_i^2 >= N alpha_i u_i = 1, so it lies in [1, 2] and is left out
    // (measured: it cost a product or two on Gaussian fits, halved SDO's). K_ii is taken as 1
    // (exact for the exact kernels, about 1 for random features) until CG runs out of
    // iterations on a Nystroem kernel (below).
    Vector precond = Vector::Ones(b.size());
    if (m_signed) {
        const Vector kii = m_diagonal.size() > 0 ? m_diagonal : Vector(Vector::Ones(b.size()));
        precond = (1.0 + kii.array() * s.array().square() / n).inverse().matrix();
    }
    Vector y = Vector::Zero(b.size());
    Vector r = b;
    Vector z = precond.cwiseProduct(r);
    Vector p = z;
    double rz = r.dot(z);
    const double stop = forcing * forcing * b.squaredNorm();
    int it = 0;
    for (; it < m_config.maxCgIterations && r.squaredNorm() > stop; ++it) {
        const Vector ap = p + s.cwiseProduct(m_kernel.apply(s.cwiseProduct(p))) / n;
        ++m_products;
        const double pap = p.dot(ap);
        if (!(pap > 0.0)) {
            break; // not positive definite along p (numerically): use what we have
        }
        const double a = rz / pap;
        y += a * p;
        r -= a * ap;
        z = precond.cwiseProduct(r);
        const double rzNew = r.dot(z);
        p = z + (rzNew / rz) * p;
        rz = rzNew;
    }
    if (it == m_config.maxCgIterations && r.squaredNorm() > stop && m_signed &&
        m_diagonal.size() == 0 && m_config.nystromDiagonal &&
        m_kernel.backend() == KernelBackend::Nystrom) {
        // CG ran out of iterations. With Nystroem, K_ii = k_i^T K_mm^+ k_i is far below 1 at
        // rows the landmarks barely cover, exactly where u_i is small, so the unit diagonal
        // overstated those rows by orders of magnitude (skin, 48 000 rows, l next to the finest
        // the landmarks resolve: 50 CG products per step, the residual halving per Newton step,
        // 1810 products; with K_ii, 47). The exact diagonal costs about r/2 products: it is
        // computed only now, and used from the next step on.
        m_diagonal = m_kernel.diagonal();
        m_diagonalFrom = m_newtonSteps + 1;
    }
    const Vector delta = y.cwiseProduct(s);
    const Vector kDelta = m_kernel.apply(delta);
    ++m_products;
    return lineSearch(g, delta, kDelta);
}

bool NewtonSolver::lineSearch(const Vector& g, const Vector& delta, const Vector& kDelta)
{
    const double slope = 2.0 * g.dot(kDelta); // grad L . Delta, grad L = 2 K g
    if (!(slope < 0.0)) {
        return false;
    }
    const double l0 = m_trace.back().loss;
    for (double t = 1.0; t > 1e-10; t *= 0.5) {
        const Vector uT = m_u + t * kDelta;
        if (((uT.array() * m_u.array()) <= 0.0).any()) {
            continue;
        }
        const Vector aT = m_alpha + t * delta;
        // Slack of a few ulps of L: near the optimum the decrease falls below rounding and the
        // plain Armijo test would reject the (correct) unit Newton step forever.
        if (loss(aT, uT) <= l0 + 1e-4 * t * slope + 1e-14 * std::abs(l0)) {
            m_alpha = aT;
            m_u = uT;
            return true;
        }
    }
    return false;
}

void NewtonSolver::balancingStep()
{
    // Symmetric Sinkhorn (matrix-balancing) step: alpha_i <- the geometric mean of alpha_i and
    // the fixed-point value 1/(N u_i) of eq. 8. It rescales each coordinate multiplicatively, so
    // tiny (K alpha)_i are repaired in one step where Newton only doubles them per step. Where
    // alpha_i and u_i differ in sign (kernels with negative entries) no mean exists: that
    // coordinate takes a small natural-gradient step (eq. 8, lr 0.1) instead.
    const double n = static_cast<double>(m_alpha.size());
    for (Eigen::Index i = 0; i < m_alpha.size(); ++i) {
        const double u = std::abs(m_u(i)) < m_config.clampFloor
                             ? (m_u(i) < 0 ? -m_config.clampFloor : m_config.clampFloor)
                             : m_u(i);
        const double target = 1.0 / (n * u);
        if (m_alpha(i) * target > 0.0) {
            m_alpha(i) = (target > 0 ? 1.0 : -1.0) * std::sqrt(m_alpha(i) * target);
        } else {
            m_alpha(i) -= 0.2 * (m_alpha(i) - target);
        }
    }
    m_u = m_kernel.apply(m_alpha);
    ++m_products;
    ++m_fallbackSteps;
}

void NewtonSolver::naturalStep()
{
    // Eq. 8: alpha <- alpha - 2 lr (alpha - (K alpha)^-1 / N), the step the natural-gradient
    // solver takes (Prop. 11 keeps f >= 0 for lr < 0.5).
    const double n = static_cast<double>(m_alpha.size());
    const Vector inv = flooredInverse(m_u, m_config.clampFloor, nullptr);
    m_alpha -= (2.0 * m_config.naturalLearningRate) * (m_alpha - inv / n);
    m_u = m_kernel.apply(m_alpha);
    ++m_products;
    ++m_naturalSteps;
}

std::string NewtonSolver::summary() const
{
    std::string s = "newton: " + std::to_string(m_newtonSteps) + " steps";
    if (m_warmSteps > 0) {
        s += " after " + std::to_string(m_warmSteps) + " balancing steps";
    }
    if (m_fallbackSteps > m_warmSteps) {
        s += ", " + std::to_string(m_fallbackSteps - m_warmSteps) + " balancing fallbacks";
    }
    if (m_diagonalFrom > 0) {
        s += ", the kernel's diagonal in the preconditioner after step " +
             std::to_string(m_diagonalFrom);
    }
    if (m_stalled) {
        std::ostringstream lr;
        lr << m_config.naturalLearningRate;
        s += ", then stalled (" + std::to_string(m_config.stallLimit) +
             " failed steps in a row): natural gradient lr " + lr.str() + " for " +
             std::to_string(m_naturalSteps) + " steps";
    } else if (m_naturalSteps > 0) {
        s += ", " + std::to_string(m_naturalSteps) + " natural-gradient fallbacks";
    }
    return s;
}

bool NewtonSolver::step()
{
    if (m_status != SolverStatus::Running) {
        return false;
    }
    // Warm start (non-negative kernels): balancing steps until the residual is below 1 (Newton's
    // region), at most warmStartSteps; afterwards a fallback step only when a Newton step fails.
    const bool warm =
        !m_signed && m_iteration < m_config.warmStartSteps && m_trace.back().residual > 1.0;
    if (m_stalled) {
        naturalStep();
    } else if (warm) {
        balancingStep();
        ++m_warmSteps;
    } else if (newtonStep()) {
        ++m_newtonSteps;
        m_failures = 0;
    } else {
        m_stalled = m_signed && ++m_failures >= m_config.stallLimit;
        if (m_signed) {
            naturalStep();
        } else {
            balancingStep();
        }
    }
    ++m_iteration;
    // Refresh u from alpha now and then: the line search updates it incrementally.
    if (m_iteration % 10 == 0) {
        m_u = m_kernel.apply(m_alpha);
        ++m_products;
    }
    record();
    return m_status == SolverStatus::Running;
}

} // namespace sosrep
