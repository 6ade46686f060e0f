// SPDX-License-Identifier: MIT
#include "app/cli/fit_options.h"

#include "core/errors.h"

namespace sosrep::cli {

void addFitOptions(QCommandLineParser& p)
{
    addValueOption(p, QStringLiteral("train"),
                   QStringLiteral("training data (CSV/TSV with header, or .npz)"),
                   QStringLiteral("FILE"));
    addValueOption(p, QStringLiteral("test"), QStringLiteral("data to score (and FD validation)"),
                   QStringLiteral("FILE"));
    addValueOption(p, QStringLiteral("columns"), QStringLiteral("feature columns, comma-separated"),
                   QStringLiteral("LIST"));
    addValueOption(p, QStringLiteral("label-column"),
                   QStringLiteral("0/1 anomaly label column (not a feature)"),
                   QStringLiteral("NAME"));
    addValueOption(p, QStringLiteral("scale"),
                   QStringLiteral("none|zscore|minmax (default minmax, fitted on train)"),
                   QStringLiteral("KIND"));
    addValueOption(p, QStringLiteral("estimator"), QStringLiteral("sosrep|kde (default sosrep)"),
                   QStringLiteral("E"));
    addValueOption(p, QStringLiteral("kernel"),
                   QStringLiteral("gaussian|laplace|sdo (default gaussian)"), QStringLiteral("K"));
    addValueOption(p, QStringLiteral("length-scale"),
                   QStringLiteral("auto (Fisher divergence), scott, silverman or a number"),
                   QStringLiteral("L"));
    addValueOption(p, QStringLiteral("grid"),
                   QStringLiteral("number of length scales for auto (default 15)"),
                   QStringLiteral("N"));
    addValueOption(
        p, QStringLiteral("selection"),
        QStringLiteral("above-spacing|paper|first-local|likelihood (default above-spacing; "
                       "likelihood: kde only)"),
        QStringLiteral("RULE"));
    addValueOption(p, QStringLiteral("fd-estimator"),
                   QStringLiteral("analytic|finite-difference (default analytic)"),
                   QStringLiteral("E"));
    addValueOption(p, QStringLiteral("fd-duplicates"),
                   QStringLiteral("keep|exclude validation rows that repeat a training row "
                                  "(default keep)"),
                   QStringLiteral("MODE"));
    addValueOption(p, QStringLiteral("solver"),
                   QStringLiteral("auto|newton|natural|standard|both (default auto = newton, "
                                  "safeguarded for sdo)"),
                   QStringLiteral("S"));
    addValueOption(p, QStringLiteral("iterations"),
                   QStringLiteral("iteration budget (default 2000)"), QStringLiteral("N"));
    addValueOption(p, QStringLiteral("lr"), QStringLiteral("learning rate (default 0.4)"));
    addValueOption(p, QStringLiteral("tolerance"),
                   QStringLiteral("stop at this stationarity residual (default 1e-8 newton, "
                                  "1e-6 gradient; 0 = never)"));
    addValueOption(p, QStringLiteral("features"),
                   QStringLiteral("random Fourier features for SDO (default 2000)"),
                   QStringLiteral("T"));
    addValueOption(p, QStringLiteral("sdo-method"),
                   QStringLiteral("rff|exact: random Fourier features or the exact radial kernel "
                                  "by quadrature (default rff)"),
                   QStringLiteral("M"));
    addValueOption(p, QStringLiteral("backend"),
                   QStringLiteral("auto|dense|lowrank: how K is held (default auto: dense up to "
                                  "15000 rows, Nystroem landmarks beyond)"),
                   QStringLiteral("B"));
    addValueOption(p, QStringLiteral("rank"),
                   QStringLiteral("landmarks of the low-rank back-end (default 1000)"),
                   QStringLiteral("M"));
    addValueOption(p, QStringLiteral("sdo-order"),
                   QStringLiteral("SDO order m > d/2 (default floor(d/2)+1)"), QStringLiteral("M"));
    addValueOption(p, QStringLiteral("seed"),
                   QStringLiteral("seed for initialisation, features, splits (default 0)"),
                   QStringLiteral("S"));
    addValueOption(p, QStringLiteral("model-out"), QStringLiteral("save the model (JSON)"),
                   QStringLiteral("FILE"));
    addValueOption(p, QStringLiteral("scores-out"), QStringLiteral("per-row scores (CSV)"),
                   QStringLiteral("FILE"));
    addValueOption(p, QStringLiteral("trace-out"), QStringLiteral("optimizer trace (CSV)"),
                   QStringLiteral("FILE"));
    addValueOption(p, QStringLiteral("fd-out"), QStringLiteral("Fisher-divergence curve (CSV)"),
                   QStringLiteral("FILE"));
}

FitRequest fitRequestFromOptions(const Options& o, int dim)
{
    FitRequest r;
    r.seed = o.seed(QStringLiteral("seed"), 0);
    r.fit.estimator = estimatorKindFromString(
        o.text(QStringLiteral("estimator"), QStringLiteral("sosrep")).toStdString());
    r.fit.kernel.type = kernelTypeFromString(
        o.text(QStringLiteral("kernel"), QStringLiteral("gaussian")).toStdString());
    r.fit.kernel.features = o.integer(QStringLiteral("features"), 2000, 1, KernelSpec::kMaxFeatures,
                                      " (every evaluation costs T cosines per point)");
    r.fit.kernel.sdoOrder = o.integer(QStringLiteral("sdo-order"), 0, 0, KernelSpec::kMaxSdoOrder);
    r.fit.kernel.backend = backendChoiceFromString(
        o.text(QStringLiteral("backend"), QStringLiteral("auto")).toStdString());
    r.fit.kernel.rank = o.integer(QStringLiteral("rank"), 1000, 1, KernelSpec::kMaxRank,
                                  " (the M x M eigendecomposition costs M^3)");
    r.fit.kernel.sdoMethod = sdoMethodFromString(
        o.text(QStringLiteral("sdo-method"), QStringLiteral("rff")).toStdString());
    r.fit.kernel.seed = r.seed;
    const QString solver = o.text(QStringLiteral("solver"), QStringLiteral("auto"));
    r.runBothSolvers = solver == QLatin1String("both");
    if (r.runBothSolvers) {
        r.fit.solver.solver = SolverKind::Natural;
    } else if (solver == QLatin1String("auto")) {
        // Newton reaches the natural-gradient optimum in ~20 kernel products (measured); with
        // SDO's negative entries it is safeguarded (NewtonSolver) and says what it did.
        r.fit.solver.solver = SolverKind::Newton;
    } else {
        r.fit.solver.solver = solverKindFromString(solver.toStdString());
    }
    r.fit.solver.iterations = o.integer(QStringLiteral("iterations"), 2000, 0, kMaxIterations,
                                        " (each iteration is a kernel product)");
    r.fit.solver.learningRate = o.number(QStringLiteral("lr"), 0.4);
    // Newton reaches 1e-8 in a few more products; the gradient solvers stop at 1e-6 by default.
    r.fit.solver.tolerance = o.number(QStringLiteral("tolerance"),
                                      r.fit.solver.solver == SolverKind::Newton ? 1e-8 : 1e-6);
    r.fit.solver.seed = r.seed;
    r.fit.solver.validate();
    const QString ls = o.text(QStringLiteral("length-scale"), QStringLiteral("auto"));
    r.autoLengthScale = ls == QLatin1String("auto");
    if (ls == QLatin1String("scott") || ls == QLatin1String("silverman")) {
        r.autoLengthScale = false;
        r.lengthScaleRule = ls.toStdString(); // computed on the scaled training data in runFit
    } else if (!r.autoLengthScale) {
        r.fit.kernel.lengthScale = o.number(QStringLiteral("length-scale"), 1.0);
    }
    r.search.gridSize =
        o.integer(QStringLiteral("grid"), 15, 1, kMaxGrid, " (each grid point is a whole fit)");
    r.search.rule = selectionRuleFromString(
        o.text(QStringLiteral("selection"), QStringLiteral("above-spacing")).toStdString());
    r.search.estimator = fdEstimatorFromString(
        o.text(QStringLiteral("fd-estimator"), QStringLiteral("analytic")).toStdString());
    const QString dup = o.text(QStringLiteral("fd-duplicates"), QStringLiteral("keep"));
    if (dup != QLatin1String("keep") && dup != QLatin1String("exclude")) {
        throw ParameterError("--fd-duplicates",
                             "use keep or exclude, not '" + dup.toStdString() + "'");
    }
    r.search.excludeDuplicates = dup == QLatin1String("exclude");
    r.search.hutchinson.seed = r.seed;
    r.fit.kernel.validate(dim);
    return r;
}

std::vector<std::string> ignoredOptionWarnings(const Options& o, const FitRequest& r,
                                               Eigen::Index trainRows)
{
    const bool sdo = r.fit.kernel.type == KernelType::Sdo;
    const bool kde = r.fit.estimator == EstimatorKind::Kde;
    const bool newton = r.fit.solver.solver == SolverKind::Newton;
    const bool lowRank =
        r.fit.kernel.backend == BackendChoice::LowRank ||
        (r.fit.kernel.backend == BackendChoice::Auto && trainRows > KernelSpec::kAutoDenseRows);
    const bool nystrom = lowRank && !(sdo && r.fit.kernel.sdoMethod == SdoMethod::Rff);
    struct Rule
    {
        const char* option;
        bool ignored;
        const char* why;
    };
    const Rule rules[] = {
        {"features", !sdo || r.fit.kernel.sdoMethod == SdoMethod::Exact,
         "only the sdo kernel with --sdo-method rff uses random features"},
        {"sdo-method", !sdo, "only the sdo kernel has methods"},
        {"sdo-order", !sdo, "only the sdo kernel has an order"},
        {"rank", !nystrom, "the kernel is not held by Nystroem landmarks here"},
        {"lr", kde || newton, "the kde estimator and the newton solver take no learning rate"},
        {"iterations", kde, "the kde estimator is not iterative"},
        {"tolerance", kde, "the kde estimator is not iterative"},
        {"solver", kde, "the kde estimator has no solver"},
        {"grid", !r.autoLengthScale, "the length scale is not tuned"},
        {"selection", !r.autoLengthScale, "the length scale is not tuned"},
        {"fd-estimator", !r.autoLengthScale, "the length scale is not tuned"},
        {"fd-duplicates", !r.autoLengthScale, "the length scale is not tuned"},
    };
    std::vector<std::string> out;
    for (const Rule& rule : rules) {
        if (rule.ignored && o.has(QString::fromLatin1(rule.option))) {
            out.push_back(std::string("--") + rule.option + " is ignored: " + rule.why);
        }
    }
    return out;
}

} // namespace sosrep::cli
