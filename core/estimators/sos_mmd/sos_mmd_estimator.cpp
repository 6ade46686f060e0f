// SPDX-License-Identifier: MIT
// Kernel sums-of-squares densities fitted by MMD, as a plug-in.
#include "core/estimators/sos_mmd/sos_mmd_estimator.h"

#include "core/errors.h"
#include "core/estimators/solver_run.h"
#include "core/estimators/sos_mmd/sos_mmd_model.h"
#include "core/estimators/sos_mmd/sos_mmd_problem.h"
#include "core/estimators/sos_mmd/sos_mmd_solver.h"
#include "core/random.h"
#include "core/util/text.h"

#include <cmath>
#include <numeric>

namespace sosrep {
namespace {

/// The u tensor holds m^3 numbers and every iteration eigendecomposes an m x m matrix.
constexpr int kMaxSupport = 300;
/// support=auto: this many points, or every training row when there are fewer.
constexpr Eigen::Index kAutoSupport = 50;
/// A fit whose regularizer exceeds its data term this many times ignores the data.
constexpr double kDataShare = 1e6;
/// Below this log10 of the kernel's mass (pi l^2)^(d/2), a fit that ignores the data does so
/// because of l: lambda's weight in the objective is lambda / mass.
constexpr double kTinyMassLog10 = -6.0;
/// A stalled solver whose objective still changes more than this relative amount a step is
/// not at a fixed point (the convergence test of solverReport(): a warning).
constexpr double kStalledChange = 1e-6;
/// How far from 1 a normalized B's mass may be: the model file's own check.
constexpr double kMassTolerance = 1e-6;
/// The exact objective's matrix holds m^4 numbers.
constexpr int kMaxExactSupport = 40;
/// |log (pi l^2)^(d/2)| beyond which the problem is not formed (sos_mmd_problem.cpp).
constexpr double kMaxLogMass = 600.0;

/// Why nothing fits in many columns, appended to a refusal's note (empty in few columns). The
/// normalizer (pi l^2)^(d/2) is a double only in a window of l that narrows like 1/d, and the
/// model's kernel embedding is (2/3)^(d/2) of the data's at every l (digest 1.4: u / W), so the
/// MMD^2's data term drowns in rounding: InternetAds (d = 1555) is refused at every l of the
/// grid, its first 500 columns still fit.
std::string manyColumnsNote(Eigen::Index columns)
{
    const double d = static_cast<double>(columns);
    const double shrink = 0.5 * d * std::log10(2.0 / 3.0);
    if (shrink > -30.0) {
        return {};
    }
    const double lo = std::sqrt(std::exp(-2.0 * kMaxLogMass / d) / M_PI);
    const double hi = std::sqrt(std::exp(2.0 * kMaxLogMass / d) / M_PI);
    return ". Kernel SoS suits few columns: in " + std::to_string(columns) +
           " columns its normalizer (pi l^2)^(d/2) is a double only for l in [" +
           numberText(lo, 3) + ", " + numberText(hi, 3) +
           "] (scaled units), and the model's kernel embedding is (2/3)^(d/2) "
           "= 1e" +
           numberText(shrink, 3) +
           " of the data's at every l; reduce the columns first (e.g. to principal components)";
}

OptionTable sosMmdOptions()
{
    OptionTable t;
    OptionSpec lambda = realOption({"lambda", "Regularization λ", "Kernel SoS"}, "0.001", 0.0, true,
                                   "weight of the regularizer in the objective (eq. 13)");
    lambda.logScale = true;
    t.push_back(lambda);
    t.push_back(choiceOption({"regularizer", "Regularizer", "Kernel SoS", "R"},
                             {"trace", "frobenius"}, "trace",
                             "trace: lambda Tr(B K~) (the paper's); frobenius: lambda <B, K~ B K~> "
                             "(the authors' code)"));
    // auto: 50 points, or every row of a smaller sample (scikit-learn's conformance checks fit
    // on 8-32 rows; a number larger than N is still refused).
    OptionSpec support =
        realOption({"support", "Support points m", "Kernel SoS", "M"}, "auto", 1.0, false,
                   "support points: a seeded random subset of the training "
                   "rows (at most N; auto: min(50, N))",
                   {"auto"});
    support.maximum = kMaxSupport;
    support.limitReason =
        "the u tensor holds m^3 numbers and each step eigendecomposes an m x m matrix";
    t.push_back(support);
    t.push_back(realOption({"jitter", "Jitter ε", "Kernel SoS"}, "1e-10", 0.0, false,
                           "relative jitter on K~ and W before factorizing (Remark 1); B is "
                           "renormalized exactly afterwards"));
    t.push_back(choiceOption({"objective", "Objective", "Kernel SoS", "O"}, {"projected", "exact"},
                             "projected",
                             "projected: the paper's MMD^2 projected on the support (eq. 13); "
                             "exact: the exact MMD^2 with the model's kernel (m <= " +
                                 std::to_string(kMaxExactSupport) + ")"));
    t.push_back(integerOption({"iterations", "Iterations", "Solver", "N"}, 1000, 0, 1000000,
                              "FISTA iterations at most", "each iteration costs O(m^3)"));
    OptionSpec tol = realOption({"tolerance", "Tolerance", "Solver"}, "1e-10", 0.0, false,
                                "stop when the objective's relative change falls below this (0 = "
                                "never)");
    tol.maximum = 1.0;
    t.push_back(tol);
    return t;
}

/// The problem's settings from the options.
SosMmdConfig configOf(const FitInput& in)
{
    SosMmdConfig config;
    config.lengthScale = in.kernel.lengthScale;
    config.lambda = in.options.real("lambda");
    config.regularizer = in.options.text("regularizer") == "frobenius" ? SosRegularizer::Frobenius
                                                                       : SosRegularizer::Trace;
    config.objective =
        in.options.text("objective") == "exact" ? SosObjective::Exact : SosObjective::Projected;
    config.jitter = in.options.real("jitter");
    return config;
}

/// The number of support points m (auto: min(50, N)), checked against N and the objective.
int supportCount(const FitInput& in, const SosMmdConfig& config)
{
    if (!in.options.isChoice("support") &&
        in.options.real("support") != std::floor(in.options.real("support"))) {
        throw ParameterError("support", "is " + in.options.text("support") +
                                            ": a number of points must be whole");
    }
    const int m = in.options.isChoice("support")
                      ? static_cast<int>(std::min<Eigen::Index>(kAutoSupport, in.x.rows()))
                      : static_cast<int>(in.options.real("support"));
    if (m > in.x.rows()) {
        throw ParameterError("support", "is " + std::to_string(m) + " but the fit has only " +
                                            std::to_string(in.x.rows()) +
                                            " training rows: m must be at most N");
    }
    if (config.objective == SosObjective::Exact && m > kMaxExactSupport) {
        throw ParameterError("objective", "exact needs at most " +
                                              std::to_string(kMaxExactSupport) +
                                              " support points (its matrix holds m^4 "
                                              "numbers); use projected or fewer points");
    }
    return m;
}

/// The solver run and its summary fields; a run that stopped improving far from a fixed point
/// is not converged, and says so.
FitReport solverReport(SosMmdSolver& solver, const SosMmdConfig& config, const FitControl& control)
{
    FitReport report = runSolver(solver, control);
    const TraceRow& last = solver.last();
    report.fields.emplace_back("iterations", static_cast<long long>(last.iteration));
    report.fields.emplace_back("loss", last.loss);
    report.fields.emplace_back(
        config.objective == SosObjective::Exact ? "mmd2_exact" : "mmd2_projected", last.mmd);
    report.fields.emplace_back("relative_change", last.residual);
    report.fields.emplace_back("step_lipschitz", solver.stepLipschitz());
    if (solver.stalled() && last.residual > kStalledChange) {
        // Not a budget that ran out: "give more --iterations" sent users to a run 10 times
        // longer that stopped at the same step (issue 52, item 11).
        report.status = SolverStatus::MaxIterations;
        report.stalled = true;
        report.note = "FISTA stalled: its objective has not improved for " +
                      std::to_string(SosMmdSolver::kStallSteps) + " steps but still changes by " +
                      numberText(100.0 * last.residual, 3) +
                      " % a step (the fit is the best iterate; a smaller --lambda, or another "
                      "length scale, converges; more --iterations do not help)";
    }
    return report;
}

/// Nothing fitted at this l: a placeholder model whose report says why (a sweep skips it, a
/// fixed l is refused naming length_scale).
std::unique_ptr<SosMmdModel> refusedModel(const Matrix& support, double l, FitReport report,
                                          std::string note)
{
    report.status = SolverStatus::Diverged;
    report.refused = true;
    report.note = std::move(note);
    auto model = SosMmdModel::refused(support, l);
    model->setReport(std::move(report));
    return model;
}

/// The solver's B failed the model's checks. A zero B: the regularizer won (the checks name
/// the file field "b"; here B is what the solver produced). A non-finite or indefinite B is a
/// numerical failure at this l: at a fine l in many dimensions the kernel's mass (pi l^2)^(d/2)
/// is so small that Tr(BW) = 1 asks for a B beyond double precision (Cardiotocography, d = 21,
/// at the tuned l = 0.05: 7e-23), whatever lambda. Refused like a length scale the landmarks
/// cannot resolve: a sweep skips it and the fit route refits at the next larger l.
std::unique_ptr<SosMmdModel> unusableB(const ParameterError& e, const SosMmdConfig& config,
                                       const Matrix& support, Eigen::Index columns,
                                       FitReport report)
{
    if (e.message().find("not zero") != std::string::npos) {
        throw NumericalError("kernel SoS: the fitted B is unusable (zero: the regularizer won at "
                             "lambda = " +
                             numberText(config.lambda, 6) + "); try a smaller --lambda");
    }
    const double l = config.lengthScale;
    const double logMass = 0.5 * double(columns) * std::log(M_PI * l * l);
    return refusedModel(
        support, l, std::move(report),
        "not fitted: at l = " + numberText(l, 4) + " in " + std::to_string(columns) +
            " dimensions the kernel's mass (pi l^2)^(d/2) is 1e" +
            numberText(logMass / std::log(10.0), 3) + ", and the fitted B (b " + e.message() +
            ") is unusable there; try a larger length scale" + manyColumnsNote(columns));
}

/// Fitted in many columns, where the MMD^2 hardly sees the model: what the scores are then.
std::string manyColumnsWarning(Eigen::Index columns, int rank)
{
    const double shrink = 0.5 * double(columns) * std::log10(2.0 / 3.0);
    return "kernel SoS in " + std::to_string(columns) +
           " columns: the MMD^2 sees the model only through (2/3)^(d/2) = 1e" +
           numberText(shrink, 3) +
           " of its mass, so B goes to the support points where the data's smoothed mass is "
           "largest (rank " +
           std::to_string(rank) +
           " here) and the scores rank rows by kernel proximity to them, not by a density; "
           "reduce the columns first (e.g. to principal components)";
}

/// Up to m distinct rows of x chosen by a seeded shuffle (the seed is recorded with the model's
/// options). A repeated row would repeat a row of K~ and W, which are then singular: their
/// factorizations blow up (mammography, with its repeated rows: B with an eigenvalue -3e15
/// times its largest). Fewer than m distinct rows give fewer support points.
Matrix supportPoints(const MatrixRef& x, int m, uint64_t seed)
{
    std::vector<Eigen::Index> idx(static_cast<size_t>(x.rows()));
    std::iota(idx.begin(), idx.end(), Eigen::Index(0));
    Rng rng(seed ^ 0x5e1ec7ed599000ffULL);
    rng.shuffle(idx);
    Matrix s(m, x.cols());
    Eigen::Index kept = 0;
    for (size_t i = 0; i < idx.size() && kept < m; ++i) {
        bool repeated = false;
        for (Eigen::Index k = 0; k < kept && !repeated; ++k) {
            repeated = s.row(k) == x.row(idx[i]);
        }
        if (!repeated) {
            s.row(kept++) = x.row(idx[i]);
        }
    }
    return s.topRows(kept);
}

class SosMmdEstimator final : public Estimator
{
public:
    std::string name() const override { return "sos-mmd"; }
    std::string title() const override
    {
        return "Kernel SoS: p = k(x)^T B k(x), B >= 0, fitted by MMD (Muzellec, Bach & Rudi); "
               "the paper's sigma = l sqrt 2";
    }
    const OptionTable& options() const override
    {
        static const OptionTable t = sosMmdOptions();
        return t;
    }
    Capabilities capabilities() const override
    {
        Capabilities c;
        c.kind = DensityKind::Normalized;
        c.fisherTuning = true;
        c.liveTrace = true;
        c.kernels = {"gaussian"};
        c.kernelBackends = false;
        return c;
    }

    std::unique_ptr<FittedModel> fit(const FitInput& in, const FitControl& control) const override
    {
        if (in.kernel.type != KernelType::Gaussian) {
            throw ParameterError("kernel", "must be gaussian for sos-mmd (its integrals W and u "
                                           "are closed forms for that kernel only)");
        }
        const SosMmdConfig config = configOf(in);
        const uint64_t seed = in.options.seed("seed");
        const Matrix support = supportPoints(in.x, supportCount(in, config), seed);
        const double l = in.kernel.lengthScale;
        std::unique_ptr<SosMmdProblem> problem;
        try {
            problem = std::make_unique<SosMmdProblem>(support, in.x, config);
        } catch (const ParameterError& e) {
            if (e.parameter() != "length_scale") {
                throw;
            }
            // (pi l^2)^(d/2) itself leaves double precision (InternetAds at a coarse l): refused
            // like an l whose B overflows (below), so a sweep skips it.
            return refusedModel(support, l, FitReport(),
                                "not fitted at l = " + numberText(l, 4) + ": " + e.message() +
                                    manyColumnsNote(in.x.cols()));
        }
        SosMmdSolver solver(*problem, in.options.integer("iterations"),
                            in.options.real("tolerance"), seed);
        FitReport report = solverReport(solver, config, control);
        const TraceRow& last = solver.last();
        // The regularizer outweighing the data a million times over: B is whatever minimizes
        // lambda Tr(B K~) on the spectraplex, and the data hardly enter. At a fine l in many
        // columns this is what (pi l^2)^(d/2) does to lambda's weight (Cardiotocography at the
        // tuned l = 0.15: 6.6e8 against an MMD^2 of 5e-4, AUC-ROC 0.67; at l = 0.3: 1e4, 0.77).
        const double regularizer = last.loss - last.mmd;
        if (std::isfinite(last.loss) && regularizer > kDataShare * std::abs(last.mmd)) {
            const std::string why =
                "the regularizer lambda Tr(B K~) = " + numberText(regularizer, 3) +
                " outweighs the data's MMD^2 " + numberText(last.mmd, 3) +
                " at l = " + numberText(l, 4);
            // When the kernel's mass (pi l^2)^(d/2), which divides lambda's weight, is tiny,
            // the cause is l (no lambda helps): refused naming length_scale, as a sweep skips
            // it. Otherwise lambda is too large for these data.
            const double logMass10 = 0.5 * double(in.x.cols()) * std::log10(M_PI * l * l);
            if (!control.sweep && logMass10 > kTinyMassLog10) {
                throw NumericalError("kernel SoS: the fitted B is unusable (" + why +
                                     ": the fit ignores the data); try a smaller --lambda");
            }
            return refusedModel(support, l, std::move(report),
                                "not fitted: " + why +
                                    ", where the kernel's mass (pi l^2)^(d/2) "
                                    "is 1e" +
                                    numberText(logMass10, 3) + ": give a larger length scale" +
                                    manyColumnsNote(in.x.cols()));
        }
        std::unique_ptr<SosMmdModel> model;
        try {
            model = std::make_unique<SosMmdModel>(support, solver.b(), l);
        } catch (const ParameterError& e) {
            return unusableB(e, config, support, in.x.cols(), std::move(report));
        }
        // Normalized, B must have mass Tr(BW) = 1 (the model file refuses other masses); a
        // mass that moves when divided by itself is cancellation in W's sum, not a density.
        // This is what large lambdas give (issue 52, item 11: at lambda >= 0.1 on 300 rows
        // FISTA oscillated between vertices of the spectraplex, and the fit was kept with
        // Tr(BW) = 1.0005 to 1.044 and AUC-ROC 0.13); a sweep's point is judged by its curve.
        if (!control.sweep && !(std::abs(model->traceBW() - 1.0) < kMassTolerance)) {
            throw NumericalError("kernel SoS: no usable fit: the fitted B's mass Tr(BW) is " +
                                 numberText(model->traceBW(), 6) +
                                 " after normalization (cancellation at l = " + numberText(l, 4) +
                                 "); try a smaller --lambda or another --length-scale");
        }
        if (!manyColumnsNote(in.x.cols()).empty()) {
            report.warnings.push_back(manyColumnsWarning(in.x.cols(), model->rank()));
        }
        model->setReport(std::move(report));
        return model;
    }

    std::unique_ptr<FittedModel> load(const ParameterMap& parameters,
                                      const KernelSpec* kernel) const override
    {
        if (!kernel) {
            throw ParameterError("kernel", "is missing");
        }
        if (kernel->type != KernelType::Gaussian) {
            throw ParameterError("kernel", "must be gaussian for sos-mmd");
        }
        // Read one by one: the order of function arguments is unspecified (GCC and clang differ),
        // and the first missing field must be the same one on every build.
        const Matrix& support = parameters.matrix("support");
        const Matrix& vectors = parameters.matrix("b_eigenvectors");
        const Vector& values = parameters.vector("b_eigenvalues");
        return SosMmdModel::fromFactors(support, vectors, values, kernel->lengthScale);
    }
};

} // namespace

std::unique_ptr<Estimator> makeSosMmdEstimator()
{
    return std::make_unique<SosMmdEstimator>();
}

} // namespace sosrep
