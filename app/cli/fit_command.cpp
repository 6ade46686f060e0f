// SPDX-License-Identifier: MIT
#include "app/cli/cli_runner.h"
#include "app/cli/commands.h"
#include "app/cli/data_loader.h"
#include "app/cli/fit_options.h"
#include "app/cli/fit_summary.h"
#include "core/data/preparation.h"
#include "core/errors.h"
#include "ui/io/model_file.h"
#include "ui/io/table_text.h"

namespace sosrep::cli {
namespace {

struct FitFiles
{
    QString scores;
    QString trace;
    QString fd;
    QString model;
};

/// Every output path is checked before anything is read or computed.
FitFiles planOutputs(const Options& o, CommandContext& ctx)
{
    FitFiles f;
    f.scores = ctx.plannedOutput(o, "--scores-out");
    f.trace = ctx.plannedOutput(o, "--trace-out");
    f.fd = ctx.plannedOutput(o, "--fd-out");
    f.model = ctx.plannedOutput(o, "--model-out");
    if (!f.fd.isEmpty() &&
        o.text(QStringLiteral("length-scale"), QStringLiteral("auto")) != QLatin1String("auto")) {
        throw ParameterError("--fd-out", "needs --length-scale auto (there is no curve otherwise)");
    }
    return f;
}

struct FitData
{
    Dataset train; // as read (unscaled)
    std::optional<Dataset> test;
    PreparedTraining prepared;
    Matrix testX; // scaled; empty without --test
};

FitData loadFitData(const Options& o, CommandContext& ctx)
{
    FitData d;
    const QString label = o.text(QStringLiteral("label-column"));
    const QStringList columns =
        o.text(QStringLiteral("columns")).split(QLatin1Char(','), Qt::SkipEmptyParts);
    d.train = loadDataset(o.required(QStringLiteral("train")), label, columns);
    d.prepared = prepareTraining(
        d.train, scalingKindFromString(
                     o.text(QStringLiteral("scale"), QStringLiteral("minmax")).toStdString()));
    ctx.warn(d.prepared.warnings);
    if (o.has(QStringLiteral("test"))) {
        std::vector<std::string> warnings;
        d.test =
            loadMatching(o.required(QStringLiteral("test")), label, d.train.columns, &warnings);
        ctx.warn(warnings);
        d.testX = applyToOther(d.prepared.scaler, *d.test);
    }
    return d;
}

/// Enough rows for what was asked: two to fit, five when l is tuned on an 80/20 split.
void checkRows(const FitData& d, const FitRequest& req)
{
    const bool split = req.autoLengthScale && !d.test;
    const Eigen::Index minimum = split ? 5 : 2;
    if (d.train.rows() < minimum) {
        throw DataError(d.train.source, 0, 0,
                        "has " + std::to_string(d.train.rows()) + " data row" +
                            (d.train.rows() == 1 ? "" : "s") +
                            (split ? "; automatic l without --test needs at least 5 (it fits on "
                                     "80 % and validates on 20 %): give more rows, --test, or a "
                                     "fixed --length-scale"
                                   : "; a fit needs at least 2"));
    }
}

void checkUsable(const FitOutcome& f, const FitRequest& req)
{
    if (f.model.status == SolverStatus::Diverged && f.model.kernelProducts == 0) {
        throw ParameterError("--length-scale", f.model.solverNote); // nothing could be fitted
    }
    if (f.model.status == SolverStatus::Diverged) {
        throw NumericalError("the " + toString(req.fit.solver.solver) +
                             " solver diverged at iteration " +
                             std::to_string(f.model.trace.back().iteration) + " (lower --lr)");
    }
}

void warnAboutFit(CommandContext& ctx, const FitOutcome& f)
{
    if (f.model.clamped > 0) {
        ctx.warn("the solver floored |f(x_i)| at 1e-12 " + std::to_string(f.model.clamped) +
                 " times before taking logs and inverses");
    }
    if (f.search && f.search->selection.reason == "global_minimum_fallback") {
        ctx.warn("no stable local minimum of the Fisher divergence where the rule looks: it took "
                 "the global minimum; look at the curve (--fd-out) before trusting this l");
    }
}

void stageOutputs(CommandContext& ctx, const FitFiles& files, const FitOutcome& f,
                  const FitRequest& req, const FitData& d, const Dataset& scored,
                  const LogDensity& ld)
{
    io::OutputSet& out = ctx.outputs();
    if (!files.scores.isEmpty()) {
        out.stage(files.scores, io::scoresText(files.scores, ld.values, scored.labels));
    }
    if (!files.trace.isEmpty()) {
        out.stage(files.trace, traceText(files.trace, f, req.fit.solver.solver));
    }
    if (!files.fd.isEmpty()) {
        out.stage(files.fd, fdText(files.fd, *f.search));
    }
    if (!files.model.isEmpty()) {
        io::SavedModel m;
        m.estimator = req.fit.estimator;
        m.kernel = f.model.model.kernel->spec();
        m.scaler = d.prepared.scaler;
        m.columns = d.train.columns;
        m.train = d.prepared.x;
        m.weights = f.model.model.weights;
        QJsonObject& prov = m.provenance;
        prov[QStringLiteral("seed")] = QString::number(req.seed);
        prov[QStringLiteral("solver")] = QString::fromStdString(toString(req.fit.solver.solver));
        prov[QStringLiteral("learning_rate")] = req.fit.solver.learningRate;
        prov[QStringLiteral("train_file")] = QString::fromStdString(d.train.source);
        if (f.search) {
            prov[QStringLiteral("selection_rule")] =
                QString::fromStdString(toString(req.search.rule));
            prov[QStringLiteral("selection_reason")] =
                QString::fromStdString(f.search->selection.reason);
        }
        out.stage(files.model, io::modelJson(m));
    }
}

} // namespace

int commandFit(const QStringList& args, CommandContext& ctx)
{
    QCommandLineParser p;
    addFitOptions(p);
    if (!ctx.parse(p, args)) {
        return ExitOk;
    }
    const Options o(p);
    ctx.input(o.required(QStringLiteral("train")), "--train");
    if (o.has(QStringLiteral("test"))) {
        ctx.input(o.required(QStringLiteral("test")), "--test");
    }
    const FitFiles files = planOutputs(o, ctx);
    const FitData d = loadFitData(o, ctx);
    const FitRequest req = fitRequestFromOptions(o, static_cast<int>(d.train.dim()));
    ctx.warn(ignoredOptionWarnings(o, req, d.train.rows()));
    checkRows(d, req);

    const FitOutcome f = runFit(d.prepared.x, d.test ? d.testX : Matrix(0, d.train.dim()), req);
    checkUsable(f, req);
    warnAboutFit(ctx, f);
    const Dataset& scored = d.test ? *d.test : d.train;
    const LogDensity ld = f.model.model.logDensity(d.test ? d.testX : d.prepared.x);
    warnFloored(ctx, ld);
    stageOutputs(ctx, files, f, req, d, scored, ld);
    QJsonObject s = fitSummary(f, req, d.train, scored, ld);
    addAucs(s, ld, scored);
    ctx.finish(s);
    return ExitOk;
}

} // namespace sosrep::cli
