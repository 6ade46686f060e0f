// SPDX-License-Identifier: MIT
#pragma once

#include "core/estimators/sosrep.h"

namespace sosrep {

struct NewtonConfig
{
    int maxIterations = 100;  // outer Newton iterations (each = CG products + 1)
    double tolerance = 1e-8;  // stationarity residual max_i |N alpha_i (K alpha)_i - 1|
    int maxCgIterations = 50; // kernel products per inner solve, at most
    double clampFloor = 1e-12;
    uint64_t seed = 0; // initialisation, as for the gradient solvers
};

/// Damped Newton on the SOSREP objective (arXiv eq. 3/5), solving the stationarity condition
/// alpha o (K alpha) = 1/N in few kernel products.
///
/// With u = K alpha and g = alpha - u^-1 / N (the natural gradient, eq. 8, halved), the Hessian is
/// 2K (I + diag(u^-2) K / N), so the Newton step is Delta = -(I + D K / N)^-1 g, D = diag(u^-2):
/// the natural gradient preconditioned. With S = diag(1/u) the system becomes the symmetric
/// positive definite (I + S K S / N) y = -u o g, Delta = y / u, solved inexactly by conjugate
/// gradients (one kernel product per CG iteration; forcing term min(0.1, sqrt(residual))).
/// L is convex wherever the signs of (K alpha)_i are fixed, so a backtracking line search that
/// keeps every (K alpha)_i on its side of 0 and asks for sufficient decrease makes it globally
/// convergent there; u + t K Delta is linear in t, so the search costs no further products.
/// It starts with symmetric-Sinkhorn balancing steps until the residual is below 1, and takes one
/// whenever a Newton step collapses (kernels with negative entries, e.g. SDO at small l, can trap
/// it); fallbackSteps() counts them.
class NewtonSolver
{
public:
    NewtonSolver(const KernelOperator& kernel, const NewtonConfig& config);
    NewtonSolver(const KernelOperator& kernel, const NewtonConfig& config, const Vector& alpha0);

    bool step();
    SolverStatus run(const ProgressFn& progress = {});

    const Vector& alpha() const { return m_alpha; }
    const std::vector<TraceRow>& trace() const { return m_trace; }
    const TraceRow& last() const { return m_trace.back(); }
    SolverStatus status() const { return m_status; }
    int iteration() const { return m_iteration; }
    int kernelProducts() const { return m_products; }
    /// Balancing steps taken instead of Newton steps (warm start included).
    int fallbackSteps() const { return m_fallbackSteps; }
    int warmStartSteps() const { return m_warmSteps; }
    long totalClamped() const { return m_totalClamped; }

private:
    void record();
    double loss(const Vector& alpha, const Vector& u) const;
    bool newtonStep();
    void balancingStep();

    const KernelOperator& m_kernel;
    NewtonConfig m_config;
    Vector m_alpha;
    Vector m_u;
    std::vector<TraceRow> m_trace;
    SolverStatus m_status = SolverStatus::Running;
    int m_iteration = 0;
    int m_products = 0;
    int m_fallbackSteps = 0;
    int m_warmSteps = 0;
    long m_totalClamped = 0;
};

} // namespace sosrep
