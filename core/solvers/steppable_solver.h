// SPDX-License-Identifier: MIT
// Solvers that advance step by step with a trace, so front ends can watch and cancel.
#pragma once

#include "core/types.h"

#include <functional>
#include <string>
#include <vector>

namespace sosrep {

enum class SolverStatus
{
    Running,
    Converged,     // residual below tolerance
    MaxIterations, // budget used up
    Cancelled,     // the progress callback asked to stop
    Diverged       // a value became non-finite, or the iterate left every sensible range
};
std::string toString(SolverStatus status);

/// One row of an optimizer trace (design.md section 1 monitors). Solvers fill what applies to
/// them; the fields they leave are 0.
struct TraceRow
{
    int iteration = 0;
    double loss = 0.0;             // the objective
    double sqNorm = 0.0;           // SOSREP: alpha^T K alpha, -> 1 at the optimum (Lemma 4)
    double negativeFraction = 0.0; // SOSREP: share of training points with f(x_i) < 0
    double residual = 0.0;         // distance from stationarity (0 at a fixed point)
    int clamped = 0;               // values floored in this iterate
    double mmd = 0.0;              // kernel SoS: the MMD^2 part of the loss
};

/// An iterative solver that can be driven one step at a time (design.md section 1; Eigen's
/// LevenbergMarquardt minimizeOneStep is the pattern): step() advances by one iteration and
/// records a trace row; run() steps to the end with a progress callback that may cancel. Live
/// views observe any solver the same way, through setObserver().
class SteppableSolver
{
public:
    virtual ~SteppableSolver() = default;

    /// One update; returns false once the run has finished (converged, diverged, budget).
    virtual bool step() = 0;
    /// Steps until finished; progress(iteration, budget()) returning false cancels.
    SolverStatus run(const ProgressFn& progress = {});

    /// Short name of the method ("natural", "standard", "newton", ...).
    virtual std::string name() const = 0;
    /// The iteration budget (the denominator of progress).
    virtual int budget() const = 0;
    /// One line on what the solver did (e.g. "newton: 12 steps").
    virtual std::string summary() const;

    const std::vector<TraceRow>& trace() const { return m_trace; }
    const TraceRow& last() const { return m_trace.back(); }
    SolverStatus status() const { return m_status; }
    int iteration() const { return m_iteration; }
    int kernelProducts() const { return m_products; }
    long totalClamped() const { return m_totalClamped; }

    /// Called with every trace row from now on (and at once with the rows already recorded).
    using Observer = std::function<void(const TraceRow&)>;
    void setObserver(Observer observer);

protected:
    /// Appends a row (counting its clamps) and shows it to the observer.
    void append(const TraceRow& row);

    std::vector<TraceRow> m_trace;
    SolverStatus m_status = SolverStatus::Running;
    int m_iteration = 0;
    int m_products = 0;
    long m_totalClamped = 0;

private:
    Observer m_observer;
};

} // namespace sosrep
