// SPDX-License-Identifier: MIT
// Running a steppable solver to its budget with progress and cancel.
#include "core/estimators/solver_run.h"

namespace sosrep {

FitReport runSolver(SteppableSolver& solver, const FitControl& control)
{
    if (control.trace) {
        const std::string run = solver.name();
        solver.setObserver([&control, run](const TraceRow& row) { control.trace(run, row); });
    }
    FitReport r;
    r.status = solver.run(control.progress);
    r.traces.push_back({solver.name(), r.status, solver.trace()});
    r.clamped = solver.totalClamped();
    r.kernelProducts = solver.kernelProducts();
    r.note = solver.summary();
    r.fields.emplace_back("solver", solver.name());
    return r;
}

} // namespace sosrep
