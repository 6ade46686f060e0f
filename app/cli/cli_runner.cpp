// SPDX-License-Identifier: MIT
#include "app/cli/cli_runner.h"

#include "app/cli/adbench_command.h"
#include "app/cli/cli_options.h"
#include "app/cli/data_loader.h"
#include "app/cli/fit_options.h"
#include "app/cli/fit_pipeline.h"
#include "app/cli/model_file.h"
#include "app/cli/table_writer.h"
#include "core/data/split.h"
#include "core/data/toy_data.h"
#include "core/errors.h"
#include "core/metrics/auc.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <cmath>

namespace sosrep::cli {
namespace {

const char* kUsage =
    "usage: sosrep <command> [options]\n"
    "commands:\n"
    "  generate  write a seeded 2-D toy dataset (gmm, moons, rings, square, cosine, blocks)\n"
    "  fit       fit SOSREP or KDE (length scale tuned by Fisher divergence), score, save\n"
    "  score     score rows with a saved model\n"
    "  split     subsample and split a dataset (the ADBench protocol's split step)\n"
    "  adbench   evaluate on a folder of ADBench .npz files (ADBench protocol)\n"
    "run 'sosrep <command> --help' for the options of a command";

/// Parses `args` for a command; returns false (and prints help) for --help.
bool parse(QCommandLineParser& parser, const QString& command, const QStringList& args,
           QTextStream& out)
{
    parser.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    parser.addOption(QCommandLineOption(QStringLiteral("help"), QStringLiteral("show this help")));
    QStringList full = args;
    full.prepend(QStringLiteral("sosrep ") + command);
    if (!parser.parse(full)) {
        throw ParameterError(command.toStdString(), parser.errorText().toStdString());
    }
    if (!parser.positionalArguments().isEmpty()) {
        throw ParameterError(command.toStdString(),
                             "unexpected argument '" +
                                 parser.positionalArguments().first().toStdString() + "'");
    }
    if (parser.isSet(QStringLiteral("help"))) {
        out << parser.helpText();
        return false;
    }
    return true;
}

Dataset applyScaling(const Dataset& data, const Scaler& scaler)
{
    Dataset out = data;
    out.x = scaler.apply(data.x);
    return out;
}

void writeScores(const QString& path, const LogDensity& ld, const Dataset& data)
{
    // The column is named log_density by the command-line contract; for SOSREP it holds the
    // log pre-density (design.md section 1), as the README states.
    QStringList header{QStringLiteral("row"), QStringLiteral("log_density"),
                       QStringLiteral("anomaly_score")};
    if (data.hasLabels()) {
        header << QStringLiteral("label");
    }
    writeTable(
        path, header,
        [&](int i, QStringList& c) {
            c << QString::number(i) << formatNumber(ld.values(i)) << formatNumber(-ld.values(i));
            if (data.hasLabels()) {
                c << QString::number((*data.labels)(i));
            }
        },
        static_cast<int>(ld.values.size()));
}

void addAucs(QJsonObject& summary, const LogDensity& ld, const Dataset& data)
{
    if (!data.hasLabels()) {
        return;
    }
    const long pos = (data.labels->array() != 0).count();
    if (pos == 0 || pos == data.rows()) {
        summary[QStringLiteral("auc_note")] = QStringLiteral("labels hold one class only: no AUC");
        return;
    }
    const Vector score = -ld.values;
    summary[QStringLiteral("auc_roc")] = aucRoc(score, *data.labels);
    summary[QStringLiteral("auc_pr")] = aucPr(score, *data.labels);
}

int commandGenerate(const QStringList& args, QTextStream& out)
{
    QCommandLineParser p;
    addValueOption(p, QStringLiteral("kind"),
                   QStringLiteral("gmm|moons|rings|square|cosine|blocks"), QStringLiteral("KIND"));
    addValueOption(p, QStringLiteral("n"), QStringLiteral("number of rows"), QStringLiteral("N"));
    addValueOption(p, QStringLiteral("seed"), QStringLiteral("random seed (default 0)"),
                   QStringLiteral("S"));
    addValueOption(p, QStringLiteral("anomalies"),
                   QStringLiteral("share of uniform anomalies, label 1 (default 0)"));
    addValueOption(p, QStringLiteral("out"), QStringLiteral("output CSV/TSV file"),
                   QStringLiteral("FILE"));
    if (!parse(p, QStringLiteral("generate"), args, out)) {
        return ExitOk;
    }
    const Options o(p);
    ToyConfig c;
    c.kind = toyKindFromString(o.required(QStringLiteral("kind")).toStdString());
    c.n = o.integer(QStringLiteral("n"), 500, 1);
    c.seed = o.seed(QStringLiteral("seed"), 0);
    c.anomalyFraction = o.number(QStringLiteral("anomalies"), 0.0);
    const QString path = o.required(QStringLiteral("out"));
    writeDataset(path, generateToyData(c));
    out << "wrote " << c.n << " rows of '" << QString::fromStdString(toString(c.kind)) << "' (seed "
        << c.seed << ") to " << path << '\n';
    return ExitOk;
}

void writeTrace(const QString& path, const FitOutcome& f, SolverKind primary)
{
    std::vector<std::pair<QString, const FitResult*>> runs;
    runs.emplace_back(QString::fromStdString(toString(primary)), &f.model);
    if (f.companion) {
        runs.emplace_back(QStringLiteral("standard"), &*f.companion);
    }
    std::vector<std::pair<QString, TraceRow>> rows;
    for (const auto& [name, fit] : runs) {
        for (const TraceRow& t : fit->trace) {
            rows.emplace_back(name, t);
        }
    }
    writeTable(
        path,
        {QStringLiteral("solver"), QStringLiteral("iteration"), QStringLiteral("loss"),
         QStringLiteral("sq_norm"), QStringLiteral("negative_fraction"),
         QStringLiteral("residual")},
        [&](int i, QStringList& c) {
            const TraceRow& t = rows[size_t(i)].second;
            c << rows[size_t(i)].first << QString::number(t.iteration) << formatNumber(t.loss)
              << formatNumber(t.sqNorm) << formatNumber(t.negativeFraction)
              << formatNumber(t.residual);
        },
        static_cast<int>(rows.size()));
}

int commandFit(const QStringList& args, QTextStream& out)
{
    QCommandLineParser p;
    addFitOptions(p);
    if (!parse(p, QStringLiteral("fit"), args, out)) {
        return ExitOk;
    }
    const Options o(p);
    const QString label = o.text(QStringLiteral("label-column"));
    const QStringList columns =
        o.text(QStringLiteral("columns")).split(QLatin1Char(','), Qt::SkipEmptyParts);
    const Dataset trainRaw = loadDataset(o.required(QStringLiteral("train")), label, columns);
    std::optional<Dataset> testRaw;
    if (o.has(QStringLiteral("test"))) {
        testRaw = loadDataset(o.required(QStringLiteral("test")), label, columns);
        if (testRaw->dim() != trainRaw.dim()) {
            throw DataError(o.required(QStringLiteral("test")).toStdString(), 0, 0,
                            "has " + std::to_string(testRaw->dim()) +
                                " feature columns, the training data " +
                                std::to_string(trainRaw.dim()));
        }
    }
    const FitRequest req = fitRequestFromOptions(o, static_cast<int>(trainRaw.dim()));
    const Scaler scaler =
        Scaler::fit(scalingKindFromString(
                        o.text(QStringLiteral("scale"), QStringLiteral("minmax")).toStdString()),
                    trainRaw.x);
    const Dataset train = applyScaling(trainRaw, scaler);
    const std::optional<Dataset> test =
        testRaw ? std::optional<Dataset>(applyScaling(*testRaw, scaler)) : std::nullopt;

    const FitOutcome f = runFit(train.x, test ? test->x : Matrix(0, train.dim()), req);
    if (f.model.status == SolverStatus::Diverged && f.model.kernelProducts == 0) {
        throw ParameterError("--length-scale", f.model.solverNote); // nothing could be fitted
    }
    if (f.model.status == SolverStatus::Diverged) {
        throw std::runtime_error("the " + toString(req.fit.solver.solver) +
                                 " solver diverged at iteration " +
                                 std::to_string(f.model.trace.back().iteration) + " (lower --lr)");
    }
    const Dataset& scored = test ? *test : train;
    const LogDensity ld = f.model.model.logDensity(scored.x);

    // Outputs are written only after everything has been computed.
    if (o.has(QStringLiteral("scores-out"))) {
        writeScores(o.required(QStringLiteral("scores-out")), ld, scored);
    }
    if (o.has(QStringLiteral("trace-out"))) {
        writeTrace(o.required(QStringLiteral("trace-out")), f, req.fit.solver.solver);
    }
    if (o.has(QStringLiteral("fd-out"))) {
        if (!f.search) {
            throw ParameterError("--fd-out",
                                 "needs --length-scale auto (there is no curve otherwise)");
        }
        const SearchResult& s = *f.search;
        writeTable(
            o.required(QStringLiteral("fd-out")),
            {QStringLiteral("length_scale"), QStringLiteral("fisher_divergence"),
             QStringLiteral("selected")},
            [&](int i, QStringList& c) {
                c << formatNumber(s.curve[size_t(i)].lengthScale)
                  << formatNumber(s.curve[size_t(i)].value)
                  << QString::number(i == s.selection.index ? 1 : 0);
            },
            static_cast<int>(s.curve.size()));
    }
    const KernelSpec& spec = f.model.model.kernel->spec();
    QJsonObject prov;
    prov[QStringLiteral("seed")] = QString::number(req.seed);
    prov[QStringLiteral("solver")] = QString::fromStdString(toString(req.fit.solver.solver));
    prov[QStringLiteral("learning_rate")] = req.fit.solver.learningRate;
    prov[QStringLiteral("train_file")] = o.required(QStringLiteral("train"));
    if (f.search) {
        prov[QStringLiteral("selection_rule")] = QString::fromStdString(toString(req.search.rule));
        prov[QStringLiteral("selection_reason")] =
            QString::fromStdString(f.search->selection.reason);
    }
    if (o.has(QStringLiteral("model-out"))) {
        SavedModel m;
        m.estimator = req.fit.estimator;
        m.kernel = spec;
        m.scaler = scaler;
        m.columns = train.columns;
        m.train = train.x;
        m.weights = f.model.model.weights;
        m.provenance = prov;
        saveModel(o.required(QStringLiteral("model-out")), m);
    }

    QJsonObject s;
    s[QStringLiteral("estimator")] = QString::fromStdString(toString(req.fit.estimator));
    s[QStringLiteral("kernel")] = QString::fromStdString(toString(spec.type));
    s[QStringLiteral("backend")] = QString::fromStdString(f.model.model.kernel->backendName());
    if (f.model.model.kernel->rank() > 0) {
        s[QStringLiteral("rank")] = f.model.model.kernel->rank();
    }
    s[QStringLiteral("length_scale")] = spec.lengthScale;
    if (!req.lengthScaleRule.empty()) {
        s[QStringLiteral("length_scale_rule")] = QString::fromStdString(req.lengthScaleRule);
    }
    if (f.search) {
        s[QStringLiteral("selection")] = QString::fromStdString(f.search->selection.reason);
        s[QStringLiteral("selection_rule")] = QString::fromStdString(toString(req.search.rule));
        s[QStringLiteral("fd_validation")] = QString::fromStdString(f.validation);
        s[QStringLiteral("fd_excluded_duplicates")] = f.search->excludedDuplicates;
        int sweepProducts = 0;
        for (const FdPoint& pt : f.search->curve) {
            sweepProducts += pt.kernelProducts;
        }
        s[QStringLiteral("sweep_kernel_products")] = sweepProducts;
    }
    s[QStringLiteral("n_train")] = static_cast<int>(train.rows());
    s[QStringLiteral("dim")] = static_cast<int>(train.dim());
    const bool hasTrace = !f.model.trace.empty();
    const TraceRow last = hasTrace ? f.model.trace.back() : TraceRow{};
    s[QStringLiteral("solver")] =
        hasTrace ? QString::fromStdString(toString(req.fit.solver.solver)) : QStringLiteral("none");
    s[QStringLiteral("status")] = QString::fromStdString(toString(f.model.status));
    s[QStringLiteral("iterations")] = last.iteration;
    s[QStringLiteral("loss")] = last.loss;
    s[QStringLiteral("sq_norm")] = last.sqNorm;
    s[QStringLiteral("negative_fraction")] = last.negativeFraction;
    s[QStringLiteral("residual")] = last.residual;
    s[QStringLiteral("clamped")] = static_cast<double>(f.model.clamped);
    s[QStringLiteral("kernel_products")] = f.model.kernelProducts;
    if (req.fit.solver.solver == SolverKind::Newton) {
        s[QStringLiteral("fallback_steps")] = f.model.fallbackSteps;
        s[QStringLiteral("solver_path")] = QString::fromStdString(f.model.solverNote);
    }
    s[QStringLiteral("floored_scores")] = ld.floored;
    s[QStringLiteral("seed")] = QString::number(req.seed);
    s[QStringLiteral("n_scored")] = static_cast<int>(scored.rows());
    s[QStringLiteral("seconds")] = std::round(f.seconds * 1000.0) / 1000.0;
    if (f.companion) {
        // The companion run may diverge (standard GD at a natural-GD step size): say so instead
        // of printing a non-finite loss.
        const TraceRow& c = f.companion->trace.back();
        s[QStringLiteral("standard_status")] =
            QString::fromStdString(toString(f.companion->status));
        s[QStringLiteral("standard_iterations")] = c.iteration;
        if (std::isfinite(c.loss)) {
            s[QStringLiteral("standard_loss")] = c.loss;
            s[QStringLiteral("standard_negative_fraction")] = c.negativeFraction;
        }
    }
    addAucs(s, ld, scored);
    out << QJsonDocument(s).toJson(QJsonDocument::Compact) << '\n';
    return ExitOk;
}

int commandScore(const QStringList& args, QTextStream& out)
{
    QCommandLineParser p;
    addValueOption(p, QStringLiteral("model"), QStringLiteral("model file from 'fit --model-out'"),
                   QStringLiteral("FILE"));
    addValueOption(p, QStringLiteral("data"), QStringLiteral("rows to score (CSV/TSV or .npz)"),
                   QStringLiteral("FILE"));
    addValueOption(p, QStringLiteral("label-column"), QStringLiteral("0/1 label column"),
                   QStringLiteral("NAME"));
    addValueOption(p, QStringLiteral("scores-out"), QStringLiteral("per-row scores (CSV)"),
                   QStringLiteral("FILE"));
    if (!parse(p, QStringLiteral("score"), args, out)) {
        return ExitOk;
    }
    const Options o(p);
    const QString outPath = o.required(QStringLiteral("scores-out"));
    const SavedModel m = loadModel(o.required(QStringLiteral("model")));
    const QString dataPath = o.required(QStringLiteral("data"));
    QStringList columns;
    for (const auto& c : m.columns) {
        columns << QString::fromStdString(c);
    }
    const Dataset raw = loadDataset(dataPath, o.text(QStringLiteral("label-column")), columns);
    const Dataset data = applyScaling(raw, m.scaler);
    const DensityModel dm = toDensityModel(m);
    const LogDensity ld = dm.logDensity(data.x);
    writeScores(outPath, ld, data);
    QJsonObject s;
    s[QStringLiteral("estimator")] = QString::fromStdString(toString(m.estimator));
    s[QStringLiteral("kernel")] = QString::fromStdString(toString(m.kernel.type));
    s[QStringLiteral("length_scale")] = m.kernel.lengthScale;
    s[QStringLiteral("n_scored")] = static_cast<int>(data.rows());
    s[QStringLiteral("floored_scores")] = ld.floored;
    addAucs(s, ld, data);
    out << QJsonDocument(s).toJson(QJsonDocument::Compact) << '\n';
    return ExitOk;
}

int commandSplit(const QStringList& args, QTextStream& out)
{
    QCommandLineParser p;
    addValueOption(p, QStringLiteral("data"), QStringLiteral("input (CSV/TSV or .npz)"),
                   QStringLiteral("FILE"));
    addValueOption(p, QStringLiteral("label-column"), QStringLiteral("0/1 label column"),
                   QStringLiteral("NAME"));
    addValueOption(p, QStringLiteral("test-fraction"),
                   QStringLiteral("share of rows in the test part (default 0.3)"));
    p.addOption(QCommandLineOption(QStringLiteral("stratify"),
                                   QStringLiteral("keep the label proportions in both parts")));
    addValueOption(p, QStringLiteral("subsample"),
                   QStringLiteral("first draw at most N rows (default 10000)"),
                   QStringLiteral("N"));
    addValueOption(p, QStringLiteral("seed"), QStringLiteral("random seed (default 0)"),
                   QStringLiteral("S"));
    addValueOption(p, QStringLiteral("train-out"), QStringLiteral("training part (CSV/TSV)"),
                   QStringLiteral("FILE"));
    addValueOption(p, QStringLiteral("test-out"), QStringLiteral("test part (CSV/TSV)"),
                   QStringLiteral("FILE"));
    if (!parse(p, QStringLiteral("split"), args, out)) {
        return ExitOk;
    }
    const Options o(p);
    const QString trainOut = o.required(QStringLiteral("train-out"));
    const QString testOut = o.required(QStringLiteral("test-out"));
    for (const QString& path : {trainOut, testOut}) {
        if (path.endsWith(QLatin1String(".npz"), Qt::CaseInsensitive)) {
            throw ParameterError(path == trainOut ? "--train-out" : "--test-out",
                                 "split writes CSV or TSV (.csv/.tsv), not .npz");
        }
    }
    const uint64_t seed = o.seed(QStringLiteral("seed"), 0);
    const bool stratify = o.has(QStringLiteral("stratify"));
    const Dataset full =
        loadDataset(o.required(QStringLiteral("data")), o.text(QStringLiteral("label-column")), {});
    if (stratify && !full.hasLabels()) {
        throw ParameterError("--stratify", "needs labels (--label-column, or y in a .npz)");
    }
    const Dataset data = full.selectRows(
        subsampleRows(full.rows(), o.integer(QStringLiteral("subsample"), 10000, 2), seed));
    const SplitIndices s = trainTestSplit(
        data.rows(), o.number(QStringLiteral("test-fraction"), 0.3), seed, data.labels, stratify);
    writeDataset(trainOut, data.selectRows(s.train));
    writeDataset(testOut, data.selectRows(s.test));
    out << "split " << data.rows() << " rows (seed " << seed << (stratify ? ", stratified" : "")
        << "): " << s.train.size() << " train -> " << trainOut << ", " << s.test.size()
        << " test -> " << testOut << '\n';
    return ExitOk;
}

} // namespace

int runCli(const QStringList& args, QTextStream& out, QTextStream& err)
{
    if (args.isEmpty() || args.first() == QLatin1String("--help") ||
        args.first() == QLatin1String("-h")) {
        (args.isEmpty() ? err : out) << kUsage << '\n';
        return args.isEmpty() ? ExitUsage : ExitOk;
    }
    const QString command = args.first();
    const QStringList rest = args.mid(1);
    try {
        if (command == QLatin1String("generate")) {
            return commandGenerate(rest, out);
        }
        if (command == QLatin1String("fit")) {
            return commandFit(rest, out);
        }
        if (command == QLatin1String("score")) {
            return commandScore(rest, out);
        }
        if (command == QLatin1String("split")) {
            return commandSplit(rest, out);
        }
        if (command == QLatin1String("adbench")) {
            return commandAdbench(rest, out);
        }
        err << "sosrep: unknown command '" << command
            << "' (use generate, fit, score, split or adbench)\n";
        return ExitUsage;
    } catch (const ParameterError& e) {
        err << "sosrep " << command << ": " << e.what() << '\n';
        return ExitUsage;
    } catch (const DataError& e) {
        err << "sosrep " << command << ": " << e.what() << '\n';
        return ExitData;
    } catch (const std::exception& e) {
        err << "sosrep " << command << ": numerical failure: " << e.what() << '\n';
        return ExitNumerical;
    }
}

} // namespace sosrep::cli
