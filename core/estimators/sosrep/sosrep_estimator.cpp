// SPDX-License-Identifier: MIT
// SOSREP (p = f^2, f in a Sobolev-type RKHS) as a plug-in.
#include "core/estimators/sosrep/sosrep_estimator.h"

#include "core/errors.h"
#include "core/estimators/kernel_field_model.h"
#include "core/estimators/solver_run.h"
#include "core/estimators/sosrep/gradient_solver.h"
#include "core/estimators/sosrep/newton_solver.h"
#include "core/estimators/sosrep/solver_comparison.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace sosrep {
namespace {

OptionTable sosrepOptions()
{
    OptionTable t;
    t.push_back(choiceOption({"solver", "Solver", "Solver", "S"},
                             {"auto", "newton", "natural", "standard", "both"}, "auto",
                             "auto = newton (safeguarded for kernels with negative entries), "
                             "natural (eq. 8), standard (eq. 7), or both gradients from one "
                             "initialisation"));
    OptionSpec lr = realOption({"learning_rate", "Learning rate λ", "Solver"}, "0.4", 0.0, true,
                               "step size lambda of the gradient solvers (Prop. 11: natural "
                               "needs < 0.5)");
    lr.flag = "lr";
    lr.applies = [](const OptionValues& v, Eigen::Index) {
        const std::string s = v.text("solver");
        return s == "natural" || s == "standard" || s == "both";
    };
    lr.appliesText = "the newton solver takes no learning rate";
    t.push_back(lr);
    t.push_back(integerOption({"iterations", "Iterations", "Solver", "N"}, 2000, 0, 1000000,
                              "iteration budget of the gradient solvers; newton gets the same "
                              "kernel products",
                              "each iteration is a kernel product"));
    OptionSpec tol = realOption({"tolerance", "Tolerance", "Solver"}, "auto", 0.0, false,
                                "stop at this stationarity residual (auto: 1e-8 newton, 1e-6 "
                                "gradient; 0 = never)",
                                {"auto"});
    tol.maximum = 1.0;
    t.push_back(tol);
    return t;
}

void addTraceFields(SummaryFields& f, const std::string& prefix, const TraceRow& last)
{
    f.emplace_back(prefix + "iterations", static_cast<long long>(last.iteration));
    f.emplace_back(prefix + "loss", last.loss);
    if (prefix.empty()) {
        f.emplace_back("sq_norm", last.sqNorm);
    }
    f.emplace_back(prefix + "negative_fraction", last.negativeFraction);
    if (prefix.empty()) {
        f.emplace_back("residual", last.residual);
    }
}

/// Whether the fit starts from control.start (a neighbouring sweep point's weights).
bool warmStart(const FitInput& in, const FitControl& control)
{
    return control.start.size() == in.x.rows() && control.start.allFinite() &&
           control.start.squaredNorm() > 0.0;
}

/// Runs one solver (observed, cancellable) and reports it with SOSREP's fields.
FitReport runSosrepSolver(SteppableSolver& solver, const FitControl& control)
{
    FitReport r = runSolver(solver, control);
    addTraceFields(r.fields, "", solver.last());
    r.fields.emplace_back("clamped", static_cast<long long>(r.clamped));
    r.fields.emplace_back("kernel_products", static_cast<long long>(r.kernelProducts));
    return r;
}

/// Natural and standard gradient from the same initialisation (the paper's Fig. 3); the
/// natural run is the model.
FitReport reportBoth(const SolverComparison& c)
{
    FitReport r;
    r.status = c.cancelled ? SolverStatus::Cancelled : c.runs[0].status;
    r.traces = c.runs;
    r.clamped = c.clamped;
    r.kernelProducts = c.kernelProducts;
    r.note = c.naturalSummary;
    r.fields.emplace_back("solver", std::string("natural"));
    addTraceFields(r.fields, "", c.runs[0].rows.back());
    r.fields.emplace_back("clamped", static_cast<long long>(r.clamped));
    r.fields.emplace_back("kernel_products", static_cast<long long>(r.kernelProducts));
    // The standard run may diverge at a natural-gradient step size: say so instead of printing
    // a non-finite loss.
    r.fields.emplace_back("standard_status", toString(c.runs[1].status));
    const TraceRow& last = c.runs[1].rows.back();
    if (std::isfinite(last.loss)) {
        addTraceFields(r.fields, "standard_", last);
    } else {
        r.fields.emplace_back("standard_iterations", static_cast<long long>(last.iteration));
    }
    return r;
}

class SosrepEstimator final : public Estimator
{
public:
    std::string name() const override { return "sosrep"; }
    std::string title() const override
    {
        return "SOSREP: p = f^2, f in a Sobolev-type RKHS (Kozdoba, Perets & Mannor)";
    }
    const OptionTable& options() const override
    {
        static const OptionTable t = sosrepOptions();
        return t;
    }
    DensityKind kindFor(const OptionValues& options) const override
    {
        return options.text("kernel") == "gaussian" ? DensityKind::Normalized
                                                    : DensityKind::PreDensity;
    }
    Capabilities capabilities() const override
    {
        Capabilities c;
        c.kind = DensityKind::PreDensity; // normalized with the Gaussian kernel (kindFor)
        c.fisherTuning = true;
        c.liveTrace = true;
        return c;
    }

    std::unique_ptr<FittedModel> fit(const FitInput& in, const FitControl& control) const override
    {
        if (in.x.rows() < 2) {
            throw ParameterError("train", "needs at least 2 rows to fit a density");
        }
        auto kernel = std::make_shared<const KernelOperator>(in.x, in.kernel, control.workspace);
        const std::string solver = in.options.text("solver");
        const int iterations = in.options.integer("iterations");
        const bool autoTol = in.options.isChoice("tolerance");
        const bool newton = solver == "auto" || solver == "newton";
        const double tol = autoTol ? (newton ? 1e-8 : 1e-6) : in.options.real("tolerance");
        const uint64_t seed = in.options.seed("seed");
        FitReport report;
        Vector alpha;
        if (kernel->uncoveredRows() > 0) {
            // The low-rank kernel is ~0 at these rows: no f is positive there, so the fit
            // would only burn its budget. Refused (a sweep skips this l).
            report.status = SolverStatus::Diverged;
            report.refused = true;
            report.note = "not fitted: " + std::to_string(kernel->uncoveredRows()) +
                          " rows are beyond every landmark (l is finer than " +
                          std::to_string(kernel->rank()) + " landmarks resolve; raise the rank)";
            alpha = Vector::Zero(kernel->size());
        } else if (newton) {
            NewtonConfig nc;
            nc.tolerance = tol > 0 ? tol : 1e-8;
            nc.maxIterations = std::min(iterations, 200);
            nc.seed = seed;
            nc.maxProducts = iterations + 2; // natural gradient's budget
            // Warm starts only where K >= 0: with negative entries (SDO, Nystroem) there is no
            // balancing warm-up, and another l's weights led Newton into failed steps and
            // natural-gradient fallbacks (skin, 60 000 rows: 2604 sweep products against 1074
            // from the default start).
            NewtonSolver s = warmStart(in, control) && !kernel->hasNegativeEntries()
                                 ? NewtonSolver(*kernel, nc, control.start, true)
                                 : NewtonSolver(*kernel, nc);
            report = runSosrepSolver(s, control);
            report.fields.emplace_back("fallback_steps", static_cast<long long>(s.fallbackSteps()));
            report.fields.emplace_back("solver_path", s.summary());
            alpha = s.alpha();
        } else {
            GradientConfig gc;
            gc.solver = solver == "standard" ? SolverKind::Standard : SolverKind::Natural;
            gc.learningRate = in.options.real("learning_rate");
            gc.iterations = iterations;
            gc.tolerance = tol;
            gc.seed = seed;
            if (solver == "both" && !control.sweep) {
                const SolverComparison c =
                    compareGradientSolvers(*kernel, gc, control.trace, control.progress);
                report = reportBoth(c);
                alpha = c.naturalAlpha;
            } else {
                GradientSolver s(*kernel, gc);
                report = runSosrepSolver(s, control);
                alpha = s.alpha();
            }
        }
        if (!control.sweep && (kernel->backend() == KernelBackend::Dense ||
                               kernel->backend() == KernelBackend::Sparse)) {
            // The model scores new rows by kernel sums over the training rows: it need not keep
            // the solver's matrix (220 MB at 7000 rows dense), only the rows, as a model read
            // from its file does (and it scores exactly as that one).
            kernel = KernelOperator::forScoring(*kernel);
        }
        auto model = makeSosrepModel(kernel, alpha);
        model->setReport(std::move(report));
        return model;
    }

    std::unique_ptr<FittedModel> load(const ParameterMap& parameters,
                                      const KernelSpec* kernel) const override
    {
        if (!kernel) {
            throw ParameterError("kernel", "is missing");
        }
        auto f = KernelFieldModel::loadField(parameters, *kernel);
        std::unique_ptr<KernelFieldModel> model = makeSosrepModel(f.kernel, f.weights);
        model->checkStoredNormalizer(parameters);
        return model;
    }
};

} // namespace

bool sosrepIsNormalized(const KernelSpec& kernel)
{
    return kernel.type == KernelType::Gaussian;
}

std::unique_ptr<KernelFieldModel> makeSosrepModel(std::shared_ptr<const KernelOperator> kernel,
                                                  Vector alpha)
{
    if (!sosrepIsNormalized(kernel->spec())) {
        return std::make_unique<KernelFieldModel>("sosrep", DensityKind::PreDensity,
                                                  std::move(kernel), std::move(alpha), 2.0, 0.0);
    }
    // Gaussian kernel: p = f^2 / Z with Z = int f^2 in closed form (issue 9): a true density.
    return std::make_unique<KernelFieldModel>(
        "sosrep", DensityKind::Normalized, std::move(kernel), std::move(alpha), 2.0,
        [](const KernelOperator& k, const Vector& w) { return k.logSquaredFieldIntegral(w); });
}

std::unique_ptr<Estimator> makeSosrepEstimator()
{
    return std::make_unique<SosrepEstimator>();
}

} // namespace sosrep
