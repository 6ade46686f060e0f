// SPDX-License-Identifier: MIT
#pragma once

#include "core/kernels/kernel_operator.h"
#include "core/types.h"

#include <string>
#include <vector>

namespace sosrep {

enum class SolverKind
{
    Natural,  // eq. 8: alpha <- alpha - 2 lr [alpha - (1/N) (K alpha)^-1]
    Standard, // eq. 7: alpha <- alpha - 2 lr [K alpha - (1/N) K (K alpha)^-1]
    Newton    // damped Newton on the same objective (sosrep_newton.h): few kernel products
};
std::string toString(SolverKind kind);
SolverKind solverKindFromString(const std::string& text); // throws ParameterError("--solver")

enum class SolverStatus
{
    Running,
    Converged,     // residual below tolerance
    MaxIterations, // budget used up
    Cancelled,     // the progress callback asked to stop
    Diverged       // alpha^T K alpha > 1e12 (the optimum has 1) or a value became non-finite
};
std::string toString(SolverStatus status);

struct SosrepConfig
{
    SolverKind solver = SolverKind::Natural;
    double learningRate = 0.1; // lambda; Prop. 11 needs < 0.5 for the natural step to keep f >= 0
    int iterations = 2000;     // budget
    double tolerance = 1e-6;   // stop when the stationarity residual falls below (0 = never)
    uint64_t seed = 0;         // initialisation alpha_i = |N(0,1)|
    double clampFloor = 1e-12; // |(K alpha)_i| is floored here before log and inverse (counted)

    void validate() const;
};

/// 1 / u with |u_i| floored at `floor` (sign kept) before inverting; counts floored entries.
Vector flooredInverse(const Vector& u, double floor, int* clamped);

/// One row of the optimizer trace (design.md section 1 monitors).
struct TraceRow
{
    int iteration = 0;
    double loss = 0.0;             // L(alpha) = -(1/N) sum log (K alpha)_i^2 + alpha^T K alpha
    double sqNorm = 0.0;           // alpha^T K alpha, -> 1 at the optimum (Lemma 4)
    double negativeFraction = 0.0; // share of training points with f(x_i) = (K alpha)_i < 0
    double residual = 0.0;         // max_i |N alpha_i (K alpha)_i - 1|, 0 at a fixed point of eq. 8
    int clamped = 0;               // points whose |f(x_i)| was floored in this iterate
};

/// Initial coefficients: |N(0,1)| from the seed, scaled so that alpha^T K alpha = 1 (by Lemma 4
/// the optimal scale along that ray). Shared by natural and standard runs that are compared.
Vector initialAlpha(const KernelOperator& kernel, uint64_t seed);

/// Steppable SOSREP optimizer on the unit-diagonal kernel: init(), step(), run(progress).
class SosrepSolver
{
public:
    SosrepSolver(const KernelOperator& kernel, const SosrepConfig& config);
    SosrepSolver(const KernelOperator& kernel, const SosrepConfig& config, const Vector& alpha0);

    /// One update; returns false once the run has finished (converged, diverged, budget).
    bool step();
    /// Steps until finished; progress(iteration, budget) returning false cancels.
    SolverStatus run(const ProgressFn& progress = {});

    const Vector& alpha() const { return m_alpha; }
    const std::vector<TraceRow>& trace() const { return m_trace; }
    const TraceRow& last() const { return m_trace.back(); }
    SolverStatus status() const { return m_status; }
    int iteration() const { return m_iteration; }
    long totalClamped() const { return m_totalClamped; }
    int kernelProducts() const { return m_products; }

private:
    void record();

    const KernelOperator& m_kernel;
    SosrepConfig m_config;
    Vector m_alpha;
    Vector m_u; // K alpha
    std::vector<TraceRow> m_trace;
    SolverStatus m_status = SolverStatus::Running;
    int m_iteration = 0;
    long m_totalClamped = 0;
    int m_products = 0;
};

} // namespace sosrep
