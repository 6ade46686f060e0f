// SPDX-License-Identifier: MIT
// A Newton solver for SOSREP's objective that hands over to natural gradient.
#pragma once

#include "core/estimators/sosrep/gradient_solver.h"

namespace sosrep {

struct NewtonConfig
{
    int maxIterations = 100;  // outer Newton iterations (each = CG products + 1)
    double tolerance = 1e-8;  // stationarity residual max_i |N alpha_i (K alpha)_i - 1|
    int maxCgIterations = 50; // kernel products per inner solve, at most
    double clampFloor = 1e-12;
    uint64_t seed = 0;       // initialisation, as for the gradient solvers
    int warmStartSteps = 10; // balancing steps first, while the residual is above 1
    /// Kernel products allowed in all (the budget natural gradient would get); 0 = no limit.
    int maxProducts = 0;
    /// Consecutive failed Newton steps after which the solver gives up on Newton and spends the
    /// rest of the budget on natural gradient (eq. 8) at `naturalLearningRate`.
    int stallLimit = 3;
    double naturalLearningRate = 0.1;
    /// Once CG runs out of iterations on a Nystroem kernel, precondition with its true diagonal
    /// instead of 1 (newtonStep()); off only to measure what it saves.
    bool nystromDiagonal = true;
};

/// Damped Newton on the SOSREP objective (arXiv eq. 3/5), solving the stationarity condition
/// alpha o (K alpha) = 1/N in few kernel products.
///
/// With u = K alpha and g = alpha - u^-1 / N (the natural gradient, eq. 8, halved), the Hessian is
/// 2K (I + diag(u^-2) K / N), so the Newton step is Delta = -(I + D K / N)^-1 g, D = diag(u^-2):
/// the natural gradient preconditioned. With S = diag(1/u) the system becomes the symmetric
/// positive definite (I + S K S / N) y = -u o g, Delta = y / u, solved inexactly by conjugate
/// gradients (one kernel product per CG iteration; forcing term min(0.1, sqrt(residual))),
/// Jacobi-preconditioned when K has negative entries (K_ii taken as 1, or Nystroem's true
/// K_ii once CG has run out of iterations: newtonStep()).
/// L is convex wherever the signs of (K alpha)_i are fixed, so a backtracking line search that
/// keeps every (K alpha)_i on its side of 0 and asks for sufficient decrease makes it globally
/// convergent there; u + t K Delta is linear in t, so the search costs no further products.
/// With a non-negative kernel it starts with symmetric-Sinkhorn balancing steps until the residual
/// is below 1 and takes one whenever a Newton step fails. With negative entries (SDO) balancing
/// flips signs erratically (measured on shuttle), so there is no warm start and a failed Newton
/// step is replaced by a natural-gradient step; after `stallLimit` failures in a row Newton is
/// abandoned and the rest of the budget goes to natural gradient from the current iterate, whose
/// loss is already below the start's. summary() says which of these happened.
class NewtonSolver : public SteppableSolver
{
public:
    NewtonSolver(const KernelOperator& kernel, const NewtonConfig& config);
    /// From alpha0; with `rescale`, alpha0 is first scaled to alpha^T K alpha = 1 (a start
    /// taken from another kernel's solution: every stationary point has sum_i alpha_i (K
    /// alpha)_i = 1), in the same kernel product.
    NewtonSolver(const KernelOperator& kernel, const NewtonConfig& config, const Vector& alpha0,
                 bool rescale = false);

    bool step() override;
    std::string name() const override { return "newton"; }
    int budget() const override { return m_config.maxIterations; }

    const Vector& alpha() const { return m_alpha; }
    /// Steps that were not Newton steps: balancing (warm start included) and natural gradient.
    int fallbackSteps() const { return m_fallbackSteps + m_naturalSteps; }
    int warmStartSteps() const { return m_warmSteps; }
    int naturalSteps() const { return m_naturalSteps; }
    bool stalled() const { return m_stalled; }
    /// One line on what the solver did, e.g. "newton: 12 steps" or "newton: 4 steps, then
    /// stalled (3 failed steps): natural gradient lr 0.1 for 300 steps".
    std::string summary() const override;

private:
    void record();
    double loss(const Vector& alpha, const Vector& u) const;
    bool newtonStep();
    /// The Newton step's backtracking (Armijo) search along delta (K delta = kDelta), every
    /// (K alpha)_i kept on its side of 0; false when no step length decreases the loss.
    bool lineSearch(const Vector& g, const Vector& delta, const Vector& kDelta);
    void balancingStep();
    void naturalStep();

    const KernelOperator& m_kernel;
    NewtonConfig m_config;
    Vector m_alpha;
    Vector m_u;
    int m_fallbackSteps = 0;
    int m_warmSteps = 0;
    int m_naturalSteps = 0;
    int m_newtonSteps = 0;
    int m_failures = 0; // consecutive failed Newton steps
    bool m_stalled = false;
    bool m_signed = false;  // kernel with negative entries
    Vector m_diagonal;      // K_ii for the preconditioner, once CG has run out (Nystroem)
    int m_diagonalFrom = 0; // the Newton step whose CG ran out (0: none did)
};

} // namespace sosrep
