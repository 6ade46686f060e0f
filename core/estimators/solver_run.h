// SPDX-License-Identifier: MIT
// Running a steppable solver to its budget with progress and cancel.
#pragma once

#include "core/estimators/estimator.h"

namespace sosrep {

/// Runs a solver to its end under `control` (each step observed as a trace row of the run named
/// after the solver; cancellable between steps) and reports what every iterative fit reports:
/// status, trace, clamps, kernel products, the solver's one-line summary and its name as the
/// "solver" field. Estimators add their own fields.
FitReport runSolver(SteppableSolver& solver, const FitControl& control);

} // namespace sosrep
