// SPDX-License-Identifier: MIT
// Solvers that advance step by step with a trace, so front ends can watch and cancel.
#include "core/solvers/steppable_solver.h"

namespace sosrep {

std::string toString(SolverStatus status)
{
    switch (status) {
    case SolverStatus::Running:
        return "running";
    case SolverStatus::Converged:
        return "converged";
    case SolverStatus::MaxIterations:
        return "max_iterations";
    case SolverStatus::Cancelled:
        return "cancelled";
    case SolverStatus::Diverged:
        return "diverged";
    }
    return "running";
}

SolverStatus SteppableSolver::run(const ProgressFn& progress)
{
    while (step()) {
        if (progress && !progress(m_iteration, budget())) {
            m_status = SolverStatus::Cancelled;
            break;
        }
    }
    return m_status;
}

std::string SteppableSolver::summary() const
{
    return name() + ": " + std::to_string(m_iteration) + " steps";
}

void SteppableSolver::setObserver(Observer observer)
{
    m_observer = std::move(observer);
    if (m_observer) {
        for (const TraceRow& row : m_trace) {
            m_observer(row);
        }
    }
}

void SteppableSolver::append(const TraceRow& row)
{
    m_trace.push_back(row);
    m_totalClamped += row.clamped;
    if (m_observer) {
        m_observer(row);
    }
}

} // namespace sosrep
