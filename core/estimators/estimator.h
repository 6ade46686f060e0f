// SPDX-License-Identifier: MIT
// The estimator plug-in interface: fit input, control, report and the fitted model.
#pragma once

#include "core/data/scaler.h"
#include "core/estimators/option.h"
#include "core/estimators/parameter_map.h"
#include "core/kernels/kernel.h"
#include "core/numerics/gaussian_mixture.h"
#include "core/solvers/steppable_solver.h"
#include "core/types.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace sosrep {

class KernelFieldModel;
class KernelOperator;
class SweepWorkspace;

/// What an estimator's values are.
enum class DensityKind
{
    Normalized, // a probability density: integrates to 1
    PreDensity, // proportional to a density with an unknown constant (SOSREP)
    Ratio,      // a density ratio q/p (FIRE)
    /// A normality score, not a density (Isolation Forest, kNN distance, the rank ensemble):
    /// larger is more typical; the anomaly score is its negative.
    Score
};
std::string toString(DensityKind kind);

/// What an estimator can do; front ends offer views and options accordingly.
struct Capabilities
{
    DensityKind kind = DensityKind::Normalized;
    bool needsSecondSample = false; // fits on two samples (a density ratio)
    bool usesKernel = true;         // the kernel and length-scale options apply
    bool fisherTuning = false;      // has score and Laplacian: Fisher-divergence tuning applies
    bool liveTrace = false;         // its fit steps a solver whose trace can be watched
    /// The kernels it works with (empty: every kernel); front ends offer only these.
    std::vector<std::string> kernels;
    /// Whether the kernel back-end options (dense / low rank, landmarks) apply.
    bool kernelBackends = true;
    /// Whether it fits weighted rows (FitInput::weights; Python's sample_weight). The fit route
    /// refuses weights for the others, naming the option.
    bool rowWeights = false;
};

struct LogDensity
{
    Vector values;   // log p (log pre-density, log ratio) in the model's own units
    int floored = 0; // points whose value was floored at 1e-300 before the log (counted)
};

/// Settings of the paper's Hutchinson finite-difference trace estimator (Alg. 1 / Alg. 6).
struct HutchinsonConfig
{
    int probes = 8;     // n random vectors per point
    double step = 1e-3; // h, relative to the length scale
    uint64_t seed = 0;  // Rademacher probes (mean 0, covariance I, unlike Alg. 6's U{-1,0,1})
};

/// A named optimizer trace ("newton", "natural", "standard").
struct NamedTrace
{
    std::string run;
    SolverStatus status = SolverStatus::Converged;
    std::vector<TraceRow> rows;
};

/// One summary field of a fitted model (printed in the JSON summary, shown in the app).
using SummaryValue = std::variant<double, long long, std::string>;
using SummaryFields = std::vector<std::pair<std::string, SummaryValue>>;

/// What a fit did: its status and solver traces (empty for closed-form estimators).
struct FitReport
{
    SolverStatus status = SolverStatus::Converged;
    std::vector<NamedTrace> traces; // the first is the fitted model's own
    long clamped = 0;               // clamp events over the whole run
    int kernelProducts = 0;
    std::string note; // one line on what the solver did, or why nothing could be fitted
    /// True when nothing was fitted (e.g. l finer than the low-rank kernel resolves): the fit
    /// is refused as a parameter problem, and a sweep skips the point.
    bool refused = false;
    /// MaxIterations from a solver that stopped improving, not from its budget: its note says
    /// what to change, and "give more iterations" would mislead.
    bool stalled = false;
    /// The estimator's own fields about the fit (solver, iterations, final loss...).
    SummaryFields fields;
    /// Soft problems the estimator saw (the fit route passes them on to every front end).
    std::vector<std::string> warnings;
};

/// A fitted estimator: evaluates log values, and the Fisher-divergence terms when it has them;
/// saves its own parameters; reports its summary fields. Immutable once fitted (shared with
/// worker threads).
class FittedModel
{
public:
    virtual ~FittedModel() = default;

    /// The registry name of the estimator that made it.
    virtual std::string estimator() const = 0;
    virtual DensityKind kind() const = 0;

    /// log p (or log pre-density, log ratio) at the rows of y (in the scaled coordinates the
    /// model was fitted in), log-sum-exp safe, per unit of the data's own columns once
    /// setDataUnits() has been called: what every front end shows and writes. A row's value
    /// depends on the row and the model only, bit for bit (core/numerics/row_blocks.h).
    LogDensity logValues(const MatrixRef& y) const
    {
        LogDensity v = modelLogValues(y);
        if (m_logUnitShift != 0.0) {
            v.values.array() += m_logUnitShift;
        }
        if (m_rowUnits) {
            v.values += m_rowUnits->logDerivativeRows(y);
        }
        return v;
    }
    /// The same per unit of the scaled coordinates: what closed forms over the model's own
    /// kernel sums (grids, MMD) compare with.
    virtual LogDensity modelLogValues(const MatrixRef& y) const = 0;

    /// Log values per unit of the data's columns from now on: a density in scaled units
    /// x' = (x - shift) / scale is a density in data units times prod_j 1 / scale_j, so
    /// log p(x) = log p'(x') - sum_j log scale_j (the change of variables, applied here once).
    /// Ratios (q/p: the Jacobians cancel) and normality scores have no unit: unchanged.
    /// A rank scaling's derivative depends on the row: log p(x) = log p'(x') + sum_j log
    /// dx'_j/dx_j at each row (Scaler::logDerivativeRows).
    void setDataUnits(const Scaler& scaler)
    {
        const bool density = kind() == DensityKind::Normalized || kind() == DensityKind::PreDensity;
        m_logUnitShift = density ? -scaler.logJacobian() : 0.0;
        m_rowUnits =
            density && !scaler.isAffine() ? std::make_shared<const Scaler>(scaler) : nullptr;
    }
    /// What logValues() adds to modelLogValues() when the scaling is affine: -sum_j log
    /// scale_j, or 0.
    double logUnitShift() const { return m_logUnitShift; }
    /// The scaling whose row-dependent derivative logValues() adds (rank), or null.
    const Scaler* rowUnits() const { return m_rowUnits.get(); }

    /// Hyvaerinen score-matching terms tr grad^2 log p + 1/2 |grad log p|^2 per point
    /// (design.md section 4); invalid (non-finite) points counted and left +inf. Only when
    /// hasFisherTerms().
    virtual bool hasFisherTerms() const { return false; }
    virtual Vector fisherTerms(const MatrixRef& y, int* invalid) const;
    /// The same with the trace by Hutchinson finite differences of the score.
    virtual Vector fisherTermsFiniteDifference(const MatrixRef& y, const HutchinsonConfig& config,
                                               int* invalid) const;

    /// The kernel-sum form p = c |f|^q, f = sum_i w_i k(x_i, .), when the model has one: grids,
    /// comparisons and closed forms use it. Null otherwise.
    virtual const KernelFieldModel* kernelField() const { return nullptr; }
    /// The kernel the model was fitted with, when it uses one.
    virtual const KernelOperator* kernel() const { return nullptr; }

    /// The model as a signed isotropic Gaussian mixture, when it is exactly one (Gaussian KDE,
    /// Gaussian SOSREP, kernel SoS): MMDs are then closed form. mixtureComponents() is the
    /// number of components gaussianMixture() would build (0: not a mixture), so a caller can
    /// decide before paying for it.
    virtual long long mixtureComponents() const { return 0; }
    virtual GaussianMixture gaussianMixture() const { return {}; }

    /// Writes everything needed to rebuild the model (Estimator::load reads it back).
    virtual void save(ParameterMap& out) const = 0;
    /// Fields that describe the fit (solver state, sizes, diagnostics).
    virtual SummaryFields summary() const { return {}; }

    const FitReport& report() const { return m_report; }
    void setReport(FitReport report) { m_report = std::move(report); }

private:
    FitReport m_report;
    double m_logUnitShift = 0.0;
    std::shared_ptr<const Scaler> m_rowUnits;
};

/// Called with each solver step of a fit: the run's name and its new trace row.
using TraceObserver = std::function<void(const std::string& run, const TraceRow& row)>;

/// What a fit receives.
struct FitInput
{
    MatrixRef x;                    // training rows, scaled
    const Matrix* second = nullptr; // the second sample, for estimators that need one
    KernelSpec kernel;              // when the estimator uses a kernel (l fixed by now)
    const OptionValues& options;    // the estimator's options (and the common ones)
    /// A density ratio of Type II (q known as a function): q at the rows of x, in the scaled
    /// coordinates' units; `second` is then null.
    const Vector* secondValues = nullptr;
    /// Row weights of x (non-negative, finite, not all zero; the fit route checks them), or
    /// null for equal weights. Only estimators with Capabilities::rowWeights receive them.
    const Vector* weights = nullptr;
};

/// How a fit reports progress and learns it should stop.
struct FitControl
{
    ProgressFn progress; // (done, total) -> false cancels (answered within one step)
    TraceObserver trace; // every solver step, when the estimator has a live trace
    /// One point of a tuning sweep: only the model is needed (no companion runs).
    bool sweep = false;
    /// What the sweep's fits on these rows share (stored distances, recycled kernel storage,
    /// single-precision kernels; sweep_workspace.h). Null outside sweeps.
    std::shared_ptr<SweepWorkspace> workspace;
    /// Where an iterative fit may start: the weights of a neighbouring sweep point on the same
    /// rows (empty: the estimator's own start).
    Vector start;
};

/// An estimator plug-in: its name, options and capabilities, a fit and a loader. Register one
/// with EstimatorRegistry (registry.h); every front end then offers it.
class Estimator
{
public:
    virtual ~Estimator() = default;

    /// Registry name ("sosrep", "kde"): the --estimator value and the field in files.
    virtual std::string name() const = 0;
    /// One line for lists and help ("SOSREP: p = f^2, f in a Sobolev RKHS (natural gradient)").
    virtual std::string title() const = 0;
    /// The estimator's own options (the common ones are in common_options.h).
    virtual const OptionTable& options() const = 0;
    virtual Capabilities capabilities() const = 0;
    /// What the model's values are with these options (by default capabilities().kind; SOSREP
    /// is a normalized density with the Gaussian kernel and a pre-density otherwise).
    virtual DensityKind kindFor(const OptionValues& /*options*/) const
    {
        return capabilities().kind;
    }

    /// Fits on `input`. A cancelled fit returns a model whose report says Cancelled. Bad
    /// parameters throw ParameterError naming the option.
    virtual std::unique_ptr<FittedModel> fit(const FitInput& input,
                                             const FitControl& control) const = 0;

    /// Rebuilds a model from what FittedModel::save wrote; `kernel` is the fitted kernel when
    /// the estimator uses one. Missing or malformed parameters throw ParameterError naming the
    /// parameter (the file reader names the file).
    virtual std::unique_ptr<FittedModel> load(const ParameterMap& parameters,
                                              const KernelSpec* kernel) const = 0;
};

} // namespace sosrep
