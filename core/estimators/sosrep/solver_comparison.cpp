// SPDX-License-Identifier: MIT
// Natural against standard gradient on one problem, step by step.
#include "core/estimators/sosrep/solver_comparison.h"

#include <algorithm>

namespace sosrep {

SolverComparison compareGradientSolvers(const KernelOperator& kernel, const GradientConfig& config,
                                        const TraceObserver& observer, const ProgressFn& progress)
{
    const Vector alpha0 = initialAlpha(kernel, config.seed);
    GradientConfig nc = config;
    nc.solver = SolverKind::Natural;
    GradientConfig sc = config;
    sc.solver = SolverKind::Standard;
    GradientSolver natural(kernel, nc, alpha0);
    GradientSolver standard(kernel, sc, alpha0);
    for (GradientSolver* s : {&natural, &standard}) {
        if (observer) {
            const std::string run = s->name();
            s->setObserver([&observer, run](const TraceRow& row) { observer(run, row); });
        }
    }
    SolverComparison out;
    bool a = true;
    bool b = true;
    while (a || b) {
        a = a && natural.step();
        b = b && standard.step();
        if (progress &&
            !progress(std::max(natural.iteration(), standard.iteration()), natural.budget())) {
            out.cancelled = true;
            break;
        }
    }
    const SolverStatus cancelled = SolverStatus::Cancelled;
    out.runs.push_back(
        {"natural", out.cancelled && a ? cancelled : natural.status(), natural.trace()});
    out.runs.push_back(
        {"standard", out.cancelled && b ? cancelled : standard.status(), standard.trace()});
    out.naturalAlpha = natural.alpha();
    out.standardAlpha = standard.alpha();
    out.kernelProducts = natural.kernelProducts() + 1; // + the product that scaled alpha0
    out.clamped = natural.totalClamped();
    out.naturalSummary = natural.summary();
    return out;
}

} // namespace sosrep
