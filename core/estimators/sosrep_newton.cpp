// SPDX-License-Identifier: MIT
#include "core/estimators/sosrep_newton.h"

#include <algorithm>
#include <cmath>

namespace sosrep {
namespace {
constexpr int kWarmStartSteps = 10;
} // namespace

NewtonSolver::NewtonSolver(const KernelOperator& kernel, const NewtonConfig& config)
    : NewtonSolver(kernel, config, initialAlpha(kernel, config.seed))
{
    ++m_products; // the scaling product of initialAlpha
}

NewtonSolver::NewtonSolver(const KernelOperator& kernel, const NewtonConfig& config,
                           const Vector& alpha0)
    : m_kernel(kernel), m_config(config), m_alpha(alpha0)
{
    m_u = m_kernel.apply(m_alpha);
    ++m_products;
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
    const double n = static_cast<double>(m_u.size());
    TraceRow row;
    row.iteration = m_iteration;
    int negatives = 0;
    int clamped = 0;
    double residual = 0.0;
    for (Eigen::Index i = 0; i < m_u.size(); ++i) {
        negatives += m_u(i) < 0.0 ? 1 : 0;
        clamped += std::abs(m_u(i)) < m_config.clampFloor ? 1 : 0;
        residual = std::max(residual, std::abs(n * m_alpha(i) * m_u(i) - 1.0));
    }
    row.sqNorm = m_alpha.dot(m_u);
    row.loss = loss(m_alpha, m_u);
    row.negativeFraction = negatives / n;
    row.residual = residual;
    row.clamped = clamped;
    m_totalClamped += clamped;
    m_trace.push_back(row);
    if (!std::isfinite(row.loss) || !std::isfinite(residual) || !m_alpha.allFinite()) {
        m_status = SolverStatus::Diverged;
    } else if (residual < m_config.tolerance) {
        m_status = SolverStatus::Converged;
    } else if (m_iteration >= m_config.maxIterations) {
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
    Vector y = Vector::Zero(b.size());
    Vector r = b;
    Vector p = r;
    double rr = r.squaredNorm();
    const double stop = forcing * forcing * b.squaredNorm();
    for (int it = 0; it < m_config.maxCgIterations && rr > stop; ++it) {
        const Vector ap = p + s.cwiseProduct(m_kernel.apply(s.cwiseProduct(p))) / n;
        ++m_products;
        const double pap = p.dot(ap);
        if (!(pap > 0.0)) {
            break; // not positive definite along p (numerically): use what we have
        }
        const double a = rr / pap;
        y += a * p;
        r -= a * ap;
        const double rrNew = r.squaredNorm();
        p = r + (rrNew / rr) * p;
        rr = rrNew;
    }
    const Vector delta = y.cwiseProduct(s);
    const Vector kDelta = m_kernel.apply(delta);
    ++m_products;
    // Backtracking (Armijo) with every (K alpha)_i kept on its side of 0.
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

bool NewtonSolver::step()
{
    if (m_status != SolverStatus::Running) {
        return false;
    }
    // Warm start: balancing steps until the residual is below 1 (Newton's region), at most 10;
    // afterwards balancing only when a Newton step fails.
    const bool warm = m_iteration < kWarmStartSteps && m_trace.back().residual > 1.0;
    if (warm) {
        balancingStep();
        ++m_warmSteps;
    } else if (!newtonStep()) {
        balancingStep();
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

SolverStatus NewtonSolver::run(const ProgressFn& progress)
{
    while (step()) {
        if (progress && !progress(m_iteration, m_config.maxIterations)) {
            m_status = SolverStatus::Cancelled;
            break;
        }
    }
    return m_status;
}

} // namespace sosrep
