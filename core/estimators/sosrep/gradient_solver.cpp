// SPDX-License-Identifier: MIT
// SOSREP's natural and standard gradient descent, with their monitors.
#include "core/estimators/sosrep/gradient_solver.h"

#include "core/errors.h"
#include "core/random.h"
#include "core/util/text.h"

#include <cmath>

namespace sosrep {
namespace {
constexpr double kDivergedSquaredNorm = 1e12;
} // namespace

std::string toString(SolverKind kind)
{
    switch (kind) {
    case SolverKind::Natural:
        return "natural";
    case SolverKind::Standard:
        return "standard";
    case SolverKind::Newton:
        return "newton";
    }
    return "natural";
}

SolverKind solverKindFromString(const std::string& text)
{
    if (text == "natural") {
        return SolverKind::Natural;
    }
    if (text == "standard") {
        return SolverKind::Standard;
    }
    if (text == "newton") {
        return SolverKind::Newton;
    }
    throw ParameterError("solver", "unknown solver " + quotedText(text) +
                                       " (use newton, natural or standard)");
}

void GradientConfig::validate() const
{
    if (!(learningRate > 0.0) || !std::isfinite(learningRate)) {
        throw ParameterError("learning_rate", "must be a positive finite number");
    }
    if (iterations < 0) {
        throw ParameterError("iterations", "must not be negative");
    }
    if (!(tolerance >= 0.0)) {
        throw ParameterError("tolerance", "must not be negative");
    }
}

Vector initialAlpha(const KernelOperator& kernel, uint64_t seed)
{
    Rng rng(seed);
    Vector a(kernel.size());
    for (Eigen::Index i = 0; i < a.size(); ++i) {
        a(i) = std::abs(rng.normal());
    }
    const double q = a.dot(kernel.apply(a));
    if (q > 0.0 && std::isfinite(q)) {
        a /= std::sqrt(q);
    }
    return a;
}

GradientSolver::GradientSolver(const KernelOperator& kernel, const GradientConfig& config)
    : GradientSolver(kernel, config, initialAlpha(kernel, config.seed))
{
    ++m_products; // the scaling product of initialAlpha
}

GradientSolver::GradientSolver(const KernelOperator& kernel, const GradientConfig& config,
                               const Vector& alpha0)
    : m_kernel(kernel), m_config(config), m_alpha(alpha0)
{
    config.validate();
    m_u = m_kernel.apply(m_alpha);
    ++m_products;
    record();
}

Vector flooredInverse(const Vector& u, double floor, int* clamped)
{
    Vector inv(u.size());
    int count = 0;
    for (Eigen::Index i = 0; i < u.size(); ++i) {
        double v = u(i);
        if (std::abs(v) < floor) {
            v = v < 0.0 ? -floor : floor;
            ++count;
        }
        inv(i) = 1.0 / v;
    }
    if (clamped) {
        *clamped = count;
    }
    return inv;
}

TraceRow sosrepMonitors(int iteration, const Vector& alpha, const Vector& u, double clampFloor)
{
    const double n = static_cast<double>(u.size());
    TraceRow row;
    row.iteration = iteration;
    double logSum = 0.0;
    int negatives = 0;
    int clamped = 0;
    double residual = 0.0;
    for (Eigen::Index i = 0; i < u.size(); ++i) {
        double a = std::abs(u(i));
        if (a < clampFloor) {
            a = clampFloor;
            ++clamped;
        }
        logSum += 2.0 * std::log(a);
        negatives += u(i) < 0.0 ? 1 : 0;
        residual = std::max(residual, std::abs(n * alpha(i) * u(i) - 1.0));
    }
    row.sqNorm = alpha.dot(u);
    row.loss = -logSum / n + row.sqNorm;
    row.negativeFraction = negatives / n;
    row.residual = residual;
    row.clamped = clamped;
    return row;
}

void GradientSolver::record()
{
    const TraceRow row = sosrepMonitors(m_iteration, m_alpha, m_u, m_config.clampFloor);
    append(row);
    // Divergence: non-finite values, or a norm no run towards the optimum can reach. The optimum
    // and the initialisation both have alpha^T K alpha = 1 (Lemma 4); a step size too large for
    // the standard update grows it geometrically (to 1e300 before anything overflows).
    if (!std::isfinite(row.loss) || !std::isfinite(row.residual) || !m_alpha.allFinite() ||
        row.sqNorm > kDivergedSquaredNorm) {
        m_status = SolverStatus::Diverged;
    } else if (m_config.tolerance > 0.0 && row.residual < m_config.tolerance) {
        m_status = SolverStatus::Converged;
    } else if (m_iteration >= m_config.iterations) {
        m_status = SolverStatus::MaxIterations;
    }
}

bool GradientSolver::step()
{
    if (m_status != SolverStatus::Running) {
        return false;
    }
    const double n = static_cast<double>(m_alpha.size());
    const double lr = m_config.learningRate;
    // Clamps are counted in record().
    const Vector inv = flooredInverse(m_u, m_config.clampFloor, nullptr);
    if (m_config.solver == SolverKind::Natural) {
        m_alpha -= (2.0 * lr) * (m_alpha - inv / n);
    } else {
        const Vector kInv = m_kernel.apply(inv);
        ++m_products;
        m_alpha -= (2.0 * lr) * (m_u - kInv / n);
    }
    m_u = m_kernel.apply(m_alpha);
    ++m_products;
    ++m_iteration;
    record();
    return m_status == SolverStatus::Running;
}

} // namespace sosrep
