// SPDX-License-Identifier: MIT
// FISTA over the spectraplex for the kernel SoS MMD problem, with a capped step.
#include "core/estimators/sos_mmd/sos_mmd_solver.h"

#include "core/estimators/sos_mmd/spectraplex.h"
#include "core/util/single_thread_scope.h"
#include "core/util/text.h"

#include <cmath>
#include <limits>

namespace sosrep {
namespace {

constexpr double kMaxMove = 1e6;

} // namespace

SosMmdSolver::SosMmdSolver(const SosMmdProblem& problem, int iterations, double tolerance,
                           uint64_t seed)
    : m_problem(problem), m_iterations(iterations), m_tolerance(tolerance)
{
    const SingleThreadScope serial;
    const Eigen::Index m = problem.m();
    m_lipschitz = 1.05 * problem.lipschitz(100, seed);
    if (!(m_lipschitz > 0.0) || !std::isfinite(m_lipschitz)) {
        m_lipschitz = 1.0;
    }
    m_c = Matrix::Identity(m, m) / double(m);
    m_y = m_c;
    m_uC = problem.uOfC(m_c);
    m_uY = m_uC;
    m_previous = std::numeric_limits<double>::infinity();
    m_best = std::numeric_limits<double>::infinity();
    record();
}

Matrix SosMmdSolver::b() const
{
    // A run that stalled ends on whatever iterate its oscillation reached: the best one is the
    // fit (the objective's minimum over the run).
    return m_problem.normalized(m_problem.toB(m_stalled ? m_bestC : m_c));
}

void SosMmdSolver::record()
{
    const SosMmdProblem::Value v = m_problem.valueInC(m_c, m_uC);
    TraceRow row;
    row.iteration = m_iteration;
    row.loss = v.objective;
    row.mmd = v.mmd2;
    row.residual = std::isfinite(m_previous) ? std::abs(v.objective - m_previous) /
                                                   std::max(std::abs(v.objective), 1e-300)
                                             : 1.0;
    append(row);
    if (v.objective < m_best - m_tolerance * std::abs(m_best) || !std::isfinite(m_best)) {
        m_best = v.objective;
        m_bestC = m_c;
        m_sinceBest = 0;
    } else {
        ++m_sinceBest;
    }
    if (!std::isfinite(v.objective)) {
        m_status = SolverStatus::Diverged;
    } else if (m_iteration > 0 && row.residual < m_tolerance) {
        m_status = SolverStatus::Converged;
    } else if (m_sinceBest >= kStallSteps) {
        m_status = SolverStatus::Converged;
        m_stalled = true;
    } else if (m_iteration >= m_iterations) {
        m_status = SolverStatus::MaxIterations;
    }
    m_previous = v.objective;
}

bool SosMmdSolver::step()
{
    if (m_status != SolverStatus::Running) {
        return false;
    }
    const SingleThreadScope serial;
    const Matrix g = m_problem.gradientInC(m_y, m_uY);
    // The step 1/L, but no longer than a move of kMaxMove: the spectraplex's diameter is
    // sqrt 2, so a longer move only lands on the same vertex. In many columns the MMD^2's
    // curvature L is ~(2/3)^d (1e-87 at d = 500) while the regularizer's gradient is not, and
    // 1/L times it overflowed B.
    const double gNorm = g.norm();
    const double step =
        gNorm > 0.0 ? std::min(1.0 / m_lipschitz, kMaxMove / gNorm) : 1.0 / m_lipschitz;
    const Matrix next = projectOntoSpectraplex(m_y - step * g);
    const Vector uNext = m_problem.uOfC(next);
    const double tNext = 0.5 * (1.0 + std::sqrt(1.0 + 4.0 * m_t * m_t));
    const double momentum = (m_t - 1.0) / tNext;
    const Matrix y = next + momentum * (next - m_c);
    // U~ is linear: U~(Y) from the iterates' own, without another O(m^3) product.
    m_uY = uNext + momentum * (uNext - m_uC);
    const double before = m_previous;
    m_c = next;
    m_uC = uNext;
    m_y = 0.5 * (y + y.transpose());
    m_t = tNext;
    ++m_iteration;
    record();
    // Function-value restart (O'Donoghue & Candes): momentum that made things worse is dropped.
    if (m_trace.back().loss > before) {
        m_t = 1.0;
        m_y = m_c;
        m_uY = m_uC;
        ++m_restarts;
    }
    return m_status == SolverStatus::Running;
}

std::string SosMmdSolver::summary() const
{
    return "fista: " + std::to_string(m_iteration) +
           " steps, step 1/L with L = " + numberText(m_lipschitz, 6) + ", " +
           std::to_string(m_restarts) + " restarts";
}

} // namespace sosrep
