// SPDX-License-Identifier: MIT
// Natural against standard gradient on one problem, step by step.
#pragma once

#include "core/estimators/estimator.h"
#include "core/estimators/sosrep/gradient_solver.h"

#include <vector>

namespace sosrep {

/// The paper's Fig. 3 comparison: natural (eq. 8) and standard (eq. 7) gradient descent from the
/// same initialisation on one kernel, stepped alternately so that an observer sees both traces
/// grow together. `config` gives the learning rate, budget, tolerance and seed (its `solver` is
/// ignored). progress(iteration, budget) returning false stops both runs (status Cancelled).
struct SolverComparison
{
    std::vector<NamedTrace> runs; // "natural", then "standard"
    Vector naturalAlpha;
    Vector standardAlpha;
    int kernelProducts = 0;
    long clamped = 0; // of the natural run
    std::string naturalSummary;
    bool cancelled = false;
};

SolverComparison compareGradientSolvers(const KernelOperator& kernel, const GradientConfig& config,
                                        const TraceObserver& observer = {},
                                        const ProgressFn& progress = {});

} // namespace sosrep
