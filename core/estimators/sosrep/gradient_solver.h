// SPDX-License-Identifier: MIT
// SOSREP's natural and standard gradient descent, with their monitors.
#pragma once

#include "core/kernels/kernel_operator.h"
#include "core/solvers/steppable_solver.h"
#include "core/types.h"

#include <string>
#include <vector>

namespace sosrep {

enum class SolverKind
{
    Natural,  // eq. 8: alpha <- alpha - 2 lr [alpha - (1/N) (K alpha)^-1]
    Standard, // eq. 7: alpha <- alpha - 2 lr [K alpha - (1/N) K (K alpha)^-1]
    Newton    // damped Newton on the same objective (newton_solver.h): few kernel products
};
std::string toString(SolverKind kind);
SolverKind solverKindFromString(const std::string& text); // throws ParameterError("solver")

struct GradientConfig
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

/// The monitors of an iterate (design.md section 1): loss L = -(1/N) sum log (K alpha)_i^2 +
/// alpha^T K alpha with |(K alpha)_i| floored at `clampFloor` (counted), alpha^T K alpha, the
/// share of (K alpha)_i < 0 and the stationarity residual max_i |N alpha_i (K alpha)_i - 1|.
TraceRow sosrepMonitors(int iteration, const Vector& alpha, const Vector& u, double clampFloor);

/// Initial coefficients: |N(0,1)| from the seed, scaled so that alpha^T K alpha = 1 (by Lemma 4
/// the optimal scale along that ray). Shared by natural and standard runs that are compared.
Vector initialAlpha(const KernelOperator& kernel, uint64_t seed);

/// Steppable natural or standard gradient descent on the SOSREP objective (arXiv eq. 3/5) with
/// the unit-diagonal kernel. Trace rows: loss L(alpha) = -(1/N) sum log (K alpha)_i^2 +
/// alpha^T K alpha, alpha^T K alpha, the share of (K alpha)_i < 0, and the stationarity residual
/// max_i |N alpha_i (K alpha)_i - 1| (0 at a fixed point of eq. 8). Diverged: alpha^T K alpha
/// above 1e12 (the optimum has 1) or a non-finite value.
class GradientSolver : public SteppableSolver
{
public:
    GradientSolver(const KernelOperator& kernel, const GradientConfig& config);
    GradientSolver(const KernelOperator& kernel, const GradientConfig& config,
                   const Vector& alpha0);

    bool step() override;
    std::string name() const override { return toString(m_config.solver); }
    int budget() const override { return m_config.iterations; }

    const Vector& alpha() const { return m_alpha; }

private:
    void record();

    const KernelOperator& m_kernel;
    GradientConfig m_config;
    Vector m_alpha;
    Vector m_u; // K alpha
};

} // namespace sosrep
