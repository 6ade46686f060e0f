// SPDX-License-Identifier: MIT
// FISTA over the spectraplex for the kernel SoS MMD problem, with a capped step.
#pragma once

#include "core/estimators/sos_mmd/sos_mmd_problem.h"
#include "core/solvers/steppable_solver.h"

namespace sosrep {

/// FISTA (Beck & Teboulle) on the whitened problem: minimize J(R^-1 C R^-T) over the spectraplex
/// {C >= 0, Tr C = 1} (paper eq. 14), with the projection of Algorithm 1, step 1/L from power
/// iteration on the Hessian (times 1.05), C_0 = I/m, and a function-value restart when an
/// iterate is worse than the one before. Trace rows: loss = J, mmd = its MMD^2 part, residual =
/// the relative change of J; converged when that falls below `tolerance`, or when no iterate has
/// improved on the best by more than `tolerance` (relative) in kStallSteps steps: a round-off
/// floor, where the relative change jitters for ever. J and its gradient are evaluated in C
/// (SosMmdProblem::valueInC): evaluated through B = R^-1 C R^-T they carried relative errors of
/// ~cond(W) 1e-16, and the default fit on 100 rows of 2-D data jittered at 7e-7 until its
/// 1000 steps ran out; in C it converges in 337.
class SosMmdSolver : public SteppableSolver
{
public:
    SosMmdSolver(const SosMmdProblem& problem, int iterations, double tolerance, uint64_t seed);

    bool step() override;
    std::string name() const override { return "fista"; }
    int budget() const override { return m_iterations; }
    std::string summary() const override;

    /// The current iterate as a normalized B (Tr(B W) = 1, B >= 0).
    Matrix b() const;
    double stepLipschitz() const { return m_lipschitz; }

private:
    void record();

    const SosMmdProblem& m_problem;
    int m_iterations;
    double m_tolerance;
    double m_lipschitz = 1.0;
    Matrix m_c;
    Matrix m_y;
    Vector m_uC; // U~(C) and U~(Y) (SosMmdProblem::uOfC)
    Vector m_uY;
    double m_t = 1.0;
    double m_previous = 0.0;
    double m_best = 0.0;
    Matrix m_bestC; // the iterate of m_best
    int m_sinceBest = 0;
    bool m_stalled = false;
    int m_restarts = 0;

public:
    static constexpr int kStallSteps = 200;
    bool stalled() const { return m_stalled; }
};

} // namespace sosrep
