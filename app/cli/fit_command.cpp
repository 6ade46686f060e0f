// SPDX-License-Identifier: MIT
// `sosrep fit`: load, fit through the one fit route, score and write every output.
#include "app/cli/cli_flags.h"
#include "app/cli/cli_runner.h"
#include "app/cli/commands.h"
#include "app/cli/data_loader.h"
#include "app/cli/fit_options.h"
#include "app/cli/fit_summary.h"
#include "core/data/preparation.h"
#include "core/errors.h"
#include "core/estimators/common_options.h"
#include "core/io/model_file.h"
#include "core/io/table_text.h"
#include "core/pipeline/fit_route.h"
#include "core/pipeline/outlier_threshold.h"

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

/// The training rows (read, checked and scaled) and the test rows matched to them by name.
struct LoadedData
{
    Dataset train; // as read (unscaled)
    std::optional<Dataset> test;
    PreparedTraining prepared;
    Matrix testX; // scaled; empty without --test
};

LoadedData loadFitData(const Options& o, const FitSettings& settings, CommandContext& ctx)
{
    LoadedData d;
    const QString label = o.text(QStringLiteral("label-column"));
    const QStringList columns =
        o.text(QStringLiteral("columns")).split(QLatin1Char(','), Qt::SkipEmptyParts);
    const QString id = o.text(QStringLiteral("id-column"));
    // With --test the scores are the test rows': the training rows need no names or labels.
    d.train =
        loadDataset(o.required(QStringLiteral("train")), label, columns, id,
                    o.has(QStringLiteral("test")) ? Annotations::IfPresent : Annotations::Required);
    d.prepared = prepareTraining(d.train, scalingOf(settings.values)); // the purpose's, for auto
    ctx.warn(d.prepared.warnings);
    if (o.has(QStringLiteral("test"))) {
        std::vector<std::string> warnings;
        d.test =
            loadMatching(o.required(QStringLiteral("test")), label, d.train.columns, &warnings, id);
        ctx.warn(warnings);
        d.testX = applyToOther(d.prepared.scaler, *d.test);
        if (const std::string w = unresolvedSpreadWarning(d.prepared.scaler, *d.test); !w.empty()) {
            ctx.warn(w);
        }
    }
    return d;
}

void stageOutputs(CommandContext& ctx, const FitFiles& files, const FitOutcome& f,
                  const FitSettings& settings, const LoadedData& d, const Dataset& scored,
                  const LogDensity& ld, const std::optional<OutlierThreshold>& threshold)
{
    if (!files.scores.isEmpty()) {
        const std::optional<double> offset =
            threshold ? std::optional<double>(threshold->offset) : std::nullopt;
        ctx.stage(files.scores,
                  io::scoresText(files.scores.toStdString(), ld.values, f.model->kind(),
                                 scored.labels, offset, scored.rowNames, scored.rowNameColumn));
    }
    if (!files.trace.isEmpty()) {
        ctx.stage(files.trace, traceText(files.trace.toStdString(), f.model->report()));
    }
    if (!files.fd.isEmpty()) {
        ctx.stage(files.fd, fdText(files.fd.toStdString(), *f.search));
    }
    if (!files.model.isEmpty()) {
        std::vector<std::string> warnings = d.prepared.warnings;
        warnings.insert(warnings.end(), f.warnings.begin(), f.warnings.end());
        io::Json prov = io::fitProvenance(settings, f, d.train.source, warnings);
        if (threshold) {
            prov["outlier_threshold"] = io::outlierThresholdJson(*threshold);
        }
        ctx.stage(files.model, io::modelJson(io::savedModelOf(*f.model, settings, d.prepared.scaler,
                                                              d.train.columns, prov)));
    }
}

} // namespace

int commandFit(const QStringList& args, CommandContext& ctx)
{
    QCommandLineParser p;
    addFlags(p, {QStringLiteral("train"), QStringLiteral("test"), QStringLiteral("columns"),
                 QStringLiteral("label-column"), QStringLiteral("id-column"),
                 QStringLiteral("model-out"), QStringLiteral("scores-out"),
                 QStringLiteral("trace-out"), QStringLiteral("fd-out"),
                 QStringLiteral("contamination")});
    addEstimatorOptions(p);
    if (!ctx.parse(p, args)) {
        return ExitOk;
    }
    const Options o(p);
    ctx.input(o.required(QStringLiteral("train")), "--train");
    if (o.has(QStringLiteral("test"))) {
        ctx.input(o.required(QStringLiteral("test")), "--test");
    }
    const FitFiles files = planOutputs(o, ctx);
    std::optional<double> contamination;
    if (o.has(QStringLiteral("contamination"))) {
        try {
            contamination =
                parseContamination(o.text(QStringLiteral("contamination")).toStdString());
        } catch (const ParameterError& e) {
            throw ParameterError("--contamination", e.message());
        }
    }
    // Every flag is checked before any data is read (a typo costs nothing); whether an option
    // applies can depend on the number of rows, so the warnings come once the data is read.
    std::vector<std::string> optionWarnings;
    // fit's own task is the density to look at: purpose=auto is density here.
    const LoadedData d =
        loadFitData(o, settingsFromOptions(o, 0, &optionWarnings, false, "density"), ctx);
    optionWarnings.clear();
    const FitSettings settings =
        settingsFromOptions(o, d.train.rows(), &optionWarnings, false, "density");
    ctx.warn(optionWarnings);

    FitData data;
    data.train = d.prepared.x;
    data.validation = d.test ? d.testX : Matrix(0, d.train.dim());
    data.source = d.train.source;
    data.scaler = d.prepared.scaler; // log values per unit of the data's columns
    const FitOutcome f = fitModel(data, settings);
    checkUsable(*f.model);
    ctx.warn(f.warnings);
    const Dataset& scored = d.test ? *d.test : d.train;
    const LogDensity ld = f.model->logValues(d.test ? d.testX : d.prepared.x);
    warnFloored(ctx, ld);
    std::optional<OutlierThreshold> threshold;
    if (contamination) {
        if (f.model->kind() == DensityKind::Ratio) {
            throw ParameterError("--contamination", "applies to densities and detectors, not to "
                                                    "a density ratio");
        }
        std::string method;
        const Vector held = heldOutLogValues(data, settings, f, kThresholdFolds, {}, &method);
        threshold = outlierThreshold(held, *contamination, method);
    }
    stageOutputs(ctx, files, f, settings, d, scored, ld, threshold);
    QJsonObject s = fitSummary(f, settings, d.train, scored, ld);
    addUnits(s, *f.model, d.prepared.scaler, d.train.columns);
    if (threshold) {
        addThreshold(s, *threshold, ld);
    }
    addAucs(s, ld, scored);
    ctx.finish(s);
    return ExitOk;
}

} // namespace sosrep::cli
