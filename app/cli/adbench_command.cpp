// SPDX-License-Identifier: MIT
// sosrep adbench: the ADBench protocol over a folder of .npz files, several methods side by
// side, with ranks, leave-one-dataset-out and a table that an interrupted run resumes from.
#include "app/cli/adbench_external.h"
#include "app/cli/adbench_protocol.h"
#include "app/cli/adbench_table.h"
#include "app/cli/cli_flags.h"
#include "app/cli/cli_runner.h"
#include "app/cli/commands.h"
#include "app/cli/fit_options.h"
#include "app/cli/fit_summary.h"
#include "core/data/npz_reader.h"
#include "core/data/preparation.h"
#include "core/data/split.h"
#include "core/errors.h"
#include "core/estimators/common_options.h"
#include "core/estimators/registry.h"
#include "core/io/table_text.h"
#include "core/metrics/auc.h"
#include "core/pipeline/fit_route.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QSaveFile>

#include <map>

namespace sosrep::cli {
namespace {

/// One method of the run: a label (as given) and its settings.
struct Method
{
    QString label;
    FitSettings settings;
};

void addAdbenchOptions(QCommandLineParser& p)
{
    addEstimatorOptions(p);
    addFlags(p, {QStringLiteral("data-dir"), QStringLiteral("seeds"), QStringLiteral("only"),
                 QStringLiteral("curves-out"), QStringLiteral("hindsight"),
                 QStringLiteral("estimators"), QStringLiteral("duplicate-anomalies"),
                 QStringLiteral("table-out"), QStringLiteral("json-out"), QStringLiteral("resume"),
                 QStringLiteral("lodo"), QStringLiteral("reference"), QStringLiteral("plot-out"),
                 QStringLiteral("export-splits"), QStringLiteral("external-scores")});
}

/// One .npz file of the run and the family it belongs to (the name of its folder).
struct DataFile
{
    QString path;
    QString name; // the file name: the dataset's identity in tables
    QString family;
};

/// The .npz files of the --data-dir folders (comma-separated; each folder is a family, e.g.
/// classical sets and deep-feature embeddings), kept to those matching --only.
std::vector<DataFile> datasetFiles(const Options& o)
{
    const QStringList only =
        o.text(QStringLiteral("only")).split(QLatin1Char(','), Qt::SkipEmptyParts);
    std::vector<DataFile> files;
    for (const QString& folder :
         o.required(QStringLiteral("data-dir")).split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        const QDir dir(folder.trimmed());
        if (!dir.exists()) {
            throw ParameterError("--data-dir", folder.trimmed().toStdString() + ": no such folder");
        }
        const QString family = QDir::cleanPath(dir.absolutePath()).section(QLatin1Char('/'), -1);
        for (const QString& f : dir.entryList({QStringLiteral("*.npz")}, QDir::Files, QDir::Name)) {
            if (!only.isEmpty() && std::none_of(only.begin(), only.end(),
                                                [&](const QString& s) { return f.contains(s); })) {
                continue;
            }
            for (const DataFile& other : files) {
                if (other.name == f) {
                    throw ParameterError("--data-dir", f.toStdString() + " is in " +
                                                           other.family.toStdString() + " and " +
                                                           family.toStdString() +
                                                           ": dataset names must be unique");
                }
            }
            files.push_back({dir.filePath(f), f, family});
        }
    }
    if (files.empty()) {
        throw ParameterError("--data-dir",
                             "no .npz files in " +
                                 o.required(QStringLiteral("data-dir")).toStdString());
    }
    return files;
}

std::vector<uint64_t> seedList(const Options& o)
{
    std::vector<uint64_t> seeds;
    for (const QString& s :
         o.text(QStringLiteral("seeds"), QStringLiteral("42")).split(QLatin1Char(','))) {
        bool ok = false;
        seeds.push_back(s.toULongLong(&ok));
        if (!ok) {
            throw ParameterError("--seeds", "expected comma-separated integers");
        }
    }
    return seeds;
}

/// --estimators "sosrep,sosrep:selection=paper,iforest,knn:k=10": each method is an estimator
/// at its defaults with NAME=VALUE options (the option tables' names). Without the flag, one
/// method from the command line's estimator options.
std::vector<Method> methodList(const Options& o, CommandContext& ctx)
{
    std::vector<Method> methods;
    if (!o.has(QStringLiteral("estimators"))) {
        std::vector<std::string> warnings;
        methods.push_back({QString(), settingsFromOptions(o, 0, &warnings, false, "anomaly")});
        methods.back().label = QString::fromStdString(methods.back().settings.estimator);
        ctx.warn(warnings);
        return methods;
    }
    for (const QString& spec :
         o.text(QStringLiteral("estimators")).split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        const QStringList parts = spec.split(QLatin1Char(':'));
        Method m{spec.trimmed(), {}};
        const std::string name = parts.first().trimmed().toStdString();
        EstimatorRegistry::instance().getOf(false, name); // names the family's estimators
        m.settings = FitSettings::defaults(name);
        for (int i = 1; i < parts.size(); ++i) {
            const QStringList kv = parts[i].split(QLatin1Char('='));
            if (kv.size() != 2) {
                throw ParameterError("--estimators", "'" + parts[i].toStdString() + "' in '" +
                                                         spec.toStdString() +
                                                         "': expected OPTION=VALUE");
            }
            try {
                m.settings.values.set(kv[0].trimmed().toStdString(), kv[1].trimmed().toStdString());
            } catch (const ParameterError& e) {
                throw ParameterError("--estimators", spec.toStdString() + ": " + e.what());
            }
        }
        methods.push_back(m);
    }
    if (methods.empty()) {
        throw ParameterError("--estimators", "names no estimator");
    }
    return methods;
}

/// adbench ranks rows: a method that tunes l and leaves its purpose to the task tunes for
/// anomaly ranking, or for --purpose when given (a method's own purpose=... wins).
void applyPurpose(std::vector<Method>& methods, const Options& o)
{
    const bool given = o.has(QStringLiteral("purpose"));
    const std::string purpose =
        given ? o.text(QStringLiteral("purpose")).toStdString() : std::string("anomaly");
    bool any = false;
    for (Method& m : methods) {
        if (m.settings.values.has("purpose")) {
            any = true;
            if (given) {
                m.settings.values.set("purpose", purpose); // checked: ParameterError("purpose")
            } else {
                m.settings.resolvePurpose(purpose);
            }
        }
    }
    if (given && !any) {
        throw ParameterError("--purpose", "none of the methods has a length scale to tune");
    }
}

/// Methods whose Fisher-divergence sweep is the same (only the rule differs) share it: the
/// same options but the rule's own, the same validation rows, and the same refinement (the
/// density and anomaly rules add points to the grid and leave repeated rows out).
std::string sweepKey(const FitSettings& s)
{
    if (!s.autoLengthScale() || s.values.text("selection") == "likelihood") {
        return {};
    }
    const SearchConfig config = searchConfigFrom(s.values);
    std::string key = s.estimator + ";refines=" + std::to_string(refinesSweep(config.rule)) +
                      ";without_repeats=" + std::to_string(config.excludeDuplicates);
    for (const auto& [name, value] : s.values.all()) {
        if (name != "selection" && name != "fd_factor" && name != "purpose" &&
            name != "reach_neighbours" && name != "fd_duplicates") {
            key += ";" + name + "=" + value;
        }
    }
    return key;
}

/// One dataset and seed under the ADBench protocol: subsample to 10000, stratified 70/30 split,
/// anomalies duplicated in each part when asked, min-max scaling fitted on the training part.
struct Split
{
    Matrix train;
    Matrix test;
    Eigen::VectorXi testLabels;
};

/// --export-splits: the two parts as the methods see them, the test part with its label.
void stageSplit(CommandContext& ctx, const QString& dir, const QString& stem, const Split& s,
                const std::vector<std::string>& columns)
{
    Dataset train;
    train.x = s.train;
    train.columns = columns;
    Dataset test;
    test.x = s.test;
    test.columns = columns;
    test.labels = s.testLabels;
    test.labelName = "label";
    const QString trainPath = QDir(dir).filePath(stem + QStringLiteral("_train.csv"));
    const QString testPath = QDir(dir).filePath(stem + QStringLiteral("_test.csv"));
    ctx.stage(trainPath, io::datasetText(trainPath.toStdString(), train));
    ctx.stage(testPath, io::datasetText(testPath.toStdString(), test));
}

/// A folder option: it must exist.
QString folderOption(const Options& o, const char* option)
{
    const QString name = QString::fromLatin1(option + 2);
    if (!o.has(name)) {
        return {};
    }
    const QString dir = o.required(name);
    if (!QDir(dir).exists()) {
        throw ParameterError(option, dir.toStdString() + ": no such folder");
    }
    return dir;
}

Split adbenchSplit(const Dataset& all, uint64_t seed, double duplicate)
{
    const Dataset data = all.selectRows(subsampleRows(all.rows(), 10000, seed));
    const SplitIndices s = trainTestSplit(data.rows(), 0.3, seed, data.labels, true);
    Dataset trainRaw = data.selectRows(s.train);
    Dataset test = data.selectRows(s.test);
    if (duplicate > 1.0) {
        trainRaw =
            trainRaw.selectRows(duplicatedAnomalyRows(*trainRaw.labels, duplicate, seed + 1));
        test = test.selectRows(duplicatedAnomalyRows(*test.labels, duplicate, seed + 2));
    }
    const PreparedTraining prepared = prepareTraining(trainRaw, ScalingKind::MinMax);
    return {prepared.x, applyToOther(prepared.scaler, test), *test.labels};
}

/// The grid AUCs and FD curve lines of a tuned fit (--hindsight, --curves-out).
struct Extras
{
    double hindsight = 0.0;
    QStringList curveLines;
};

AdbenchRow runMethod(const Split& split, const QString& file, uint64_t seed, const Method& method,
                     std::map<std::string, SearchResult>& sweeps, Extras* extras)
{
    FitSettings settings = method.settings;
    settings.values.set("seed", std::to_string(seed));
    const std::string key = sweepKey(settings);
    std::vector<double> gridAuc;
    FitObserver observer;
    if (extras) {
        // Each grid model scored on the test rows (labels are used only here, after the fact,
        // never by the selection): fitted on the sweep's fitting rows (80 % of the training
        // part, or all of it with validation=test), so the hindsight AUC is a close stand-in
        // for the final model's at that l.
        observer.sweepPoint = [&](const FdPoint&, const FittedModel& model) {
            gridAuc.push_back(aucRoc(-model.logValues(split.test).values, split.testLabels));
        };
    }
    FitData data{split.train, split.test, file.toStdString(), nullptr};
    const auto known = sweeps.find(key);
    if (!key.empty() && known != sweeps.end() && !extras) {
        data.sweep = &known->second;
    }
    const FitOutcome fit = fitModel(data, settings, observer);
    checkUsable(*fit.model);
    if (!key.empty() && fit.search && known == sweeps.end()) {
        sweeps.emplace(key, *fit.search);
    }
    const Vector score = -fit.model->logValues(split.test).values;
    AdbenchRow row{file,
                   seed,
                   method.label,
                   aucRoc(score, split.testLabels),
                   aucPr(score, split.testLabels),
                   fit.lengthScale,
                   fit.search ? QString::fromStdString(fit.search->selection.reason)
                              : (fit.lengthScale > 0 ? QStringLiteral("fixed") : QString()),
                   fit.seconds};
    if (extras && fit.search) {
        for (double a : gridAuc) {
            extras->hindsight = std::max(extras->hindsight, a);
        }
        const SearchResult& r = *fit.search;
        for (size_t i = 0; i < r.curve.size() && i < gridAuc.size(); ++i) {
            const FdPoint& pt = r.curve[i];
            extras->curveLines << QStringList{file,
                                              QString::number(seed),
                                              qtNumber(pt.lengthScale),
                                              qtFiniteCell(pt.value),
                                              QString::number(pt.invalidPoints),
                                              QString::number(pt.iterations),
                                              qtFiniteCell(pt.residual),
                                              qtFiniteCell(gridAuc[i]),
                                              qtNumber(r.centre),
                                              qtNumber(r.spacing),
                                              QString::number(int(i) == r.selection.index)}
                                      .join(QLatin1Char(','));
        }
    }
    return row;
}

QString fixed(double v, int decimals)
{
    return QString::number(v, 'f', decimals);
}

void printRow(QTextStream& out, const AdbenchRow& r, const Split& s, const Extras* extras)
{
    out << r.dataset << '\t' << r.seed << '\t' << r.method << '\t' << s.train.rows() << '\t'
        << s.train.cols() << '\t'
        << (r.lengthScale > 0 ? QString::number(r.lengthScale, 'g', 4) : QStringLiteral("-"))
        << '\t' << (r.selection.isEmpty() ? QStringLiteral("-") : r.selection) << '\t'
        << fixed(r.aucRoc, 4) << '\t' << fixed(r.aucPr, 4);
    if (extras) {
        out << '\t' << fixed(extras->hindsight, 4);
    }
    out << '\t' << fixed(r.seconds, 2) << Qt::endl;
}

void printSummary(QTextStream& out, const std::vector<MethodSummary>& summary)
{
    out << "\nmethod\tdatasets\tmean_auc_roc\tmedian_auc_roc\tmean_auc_pr\tmedian_auc_pr\t"
           "average_rank\n";
    for (const MethodSummary& s : summary) {
        out << s.method << '\t' << s.datasets << '\t' << fixed(s.meanAucRoc, 4) << '\t'
            << fixed(s.medianAucRoc, 4) << '\t' << fixed(s.meanAucPr, 4) << '\t'
            << fixed(s.medianAucPr, 4) << '\t' << fixed(s.averageRank, 2) << '\n';
    }
}

/// The partial table beside --table-out, rewritten atomically after every run.
void checkpoint(const QString& path, const std::vector<AdbenchRow>& rows)
{
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(adbenchCsv(rows)) < 0 || !f.commit()) {
        throw io::OutputError(path.toStdString() + ": cannot be written");
    }
}

/// Everything the options decide, checked before any data is read.
struct AdbenchPlan
{
    QString curvesPath, tablePath, jsonPath, plotPath, partialPath;
    QString exportDir, externalDir;
    std::vector<DataFile> files;
    std::vector<uint64_t> seeds;
    std::vector<Method> methods;
    QStringList builtIn; // the --estimators labels
    QStringList lodo;
    QString reference;
    double duplicate = 1.0;
    bool hindsight = false;
    bool resume = false;
};

/// The state of a run: its rows (resumed ones first), the methods met so far (external score
/// files add theirs), the datasets with their families, and the FD curves' text.
struct AdbenchRun
{
    std::vector<AdbenchRow> rows;
    QStringList labels;
    DatasetFamilies data;
    QByteArray curveText = "dataset,seed,length_scale,fisher_divergence,invalid_points,"
                           "iterations,residual,auc_roc,centre,spacing,selected\n";
    int done = 0;
    int total = 0;

    bool has(const QString& dataset, uint64_t seed, const QString& method) const
    {
        return std::any_of(rows.begin(), rows.end(), [&](const AdbenchRow& r) {
            return r.dataset == dataset && r.seed == seed && r.method == method;
        });
    }
};

QStringList methodLabels(const std::vector<Method>& methods)
{
    QStringList labels;
    for (const Method& m : methods) {
        if (labels.contains(m.label)) {
            throw ParameterError("--estimators", "names " + m.label.toStdString() + " twice");
        }
        labels << m.label;
    }
    return labels;
}

AdbenchPlan planAdbench(const Options& o, CommandContext& ctx)
{
    AdbenchPlan plan;
    plan.curvesPath = ctx.plannedOutput(o, "--curves-out");
    plan.tablePath = ctx.plannedOutput(o, "--table-out");
    plan.jsonPath = ctx.plannedOutput(o, "--json-out");
    plan.plotPath = ctx.plannedPlot(o, "--plot-out");
    plan.exportDir = folderOption(o, "--export-splits");
    plan.externalDir = folderOption(o, "--external-scores");
    plan.resume = o.has(QStringLiteral("resume"));
    if (plan.resume && plan.tablePath.isEmpty()) {
        throw ParameterError("--resume", "needs --table-out (the run resumes from its partial "
                                         "table)");
    }
    plan.files = datasetFiles(o);
    plan.seeds = seedList(o);
    plan.methods = methodList(o, ctx);
    applyPurpose(plan.methods, o);
    plan.builtIn = methodLabels(plan.methods);
    if (!plan.exportDir.isEmpty()) {
        for (const DataFile& file : plan.files) {
            for (uint64_t seed : plan.seeds) {
                const QString stem = QDir(plan.exportDir).filePath(splitStem(file.name, seed));
                ctx.plan(stem + QStringLiteral("_train.csv"), "--export-splits");
                ctx.plan(stem + QStringLiteral("_test.csv"), "--export-splits");
            }
        }
    }
    plan.lodo = o.text(QStringLiteral("lodo")).split(QLatin1Char(';'), Qt::SkipEmptyParts);
    for (const QString& m : plan.lodo) {
        if (!plan.builtIn.contains(m)) {
            throw ParameterError("--lodo", "'" + m.toStdString() +
                                               "' is not one of --estimators (separate the "
                                               "family's methods with ';')");
        }
    }
    plan.reference = o.text(QStringLiteral("reference"));
    if (!plan.reference.isEmpty() && !plan.builtIn.contains(plan.reference) &&
        plan.externalDir.isEmpty()) {
        throw ParameterError("--reference", "'" + plan.reference.toStdString() +
                                                "' is not one of the methods of the run");
    }
    if (plan.reference.isEmpty() && plan.builtIn.contains(QStringLiteral("iforest"))) {
        plan.reference = QStringLiteral("iforest");
    }
    plan.duplicate = o.number(QStringLiteral("duplicate-anomalies"), 1.0, 1.0, 100.0);
    plan.hindsight = o.has(QStringLiteral("hindsight"));
    plan.partialPath =
        plan.tablePath.isEmpty() ? QString() : plan.tablePath + QStringLiteral(".partial");
    return plan;
}

/// The rows an interrupted run left in its partial table, checked against this run.
std::vector<AdbenchRow> resumedRows(const AdbenchPlan& plan, CommandContext& ctx)
{
    if (!plan.resume || !QFile::exists(plan.partialPath)) {
        return {};
    }
    AdbenchRunScope scope;
    for (const DataFile& file : plan.files) {
        scope.datasets << file.name;
    }
    scope.seeds = plan.seeds;
    scope.methods = plan.builtIn;
    scope.otherMethods = !plan.externalDir.isEmpty();
    std::vector<AdbenchRow> rows = readResumedRows(plan.partialPath, scope);
    ctx.err() << "sosrep adbench: resuming from " << plan.partialPath << " (" << rows.size()
              << " runs done)" << Qt::endl;
    return rows;
}

/// The external methods' rows for one split (--external-scores), each once.
void addExternalRows(const AdbenchPlan& plan, const QString& file, uint64_t seed,
                     const Split& split, AdbenchRun& run, QTextStream& out)
{
    for (const AdbenchRow& r : externalScoreRows(plan.externalDir, file, seed, split.testLabels)) {
        if (plan.builtIn.contains(r.method)) {
            throw ParameterError("--external-scores",
                                 "the column '" + r.method.toStdString() + "' of " +
                                     splitStem(file, seed).toStdString() +
                                     ".csv has the name of an --estimators method");
        }
        if (!run.labels.contains(r.method)) {
            run.labels << r.method;
        }
        if (!run.has(file, seed, r.method)) {
            run.rows.push_back(r);
            printRow(out, r, split, nullptr);
        }
    }
}

/// Every method of the run on one split, skipping those a resumed table holds; the partial
/// table is rewritten after each.
void runSplit(const AdbenchPlan& plan, const QString& file, uint64_t seed, const Split& split,
              AdbenchRun& run, CommandContext& ctx)
{
    std::map<std::string, SearchResult> sweeps;
    for (size_t m = 0; m < plan.methods.size(); ++m) {
        ++run.done;
        if (run.has(file, seed, plan.methods[m].label)) {
            continue;
        }
        Extras extras;
        const bool extra = m == 0 && (plan.hindsight || !plan.curvesPath.isEmpty());
        const AdbenchRow row =
            runMethod(split, file, seed, plan.methods[m], sweeps, extra ? &extras : nullptr);
        run.rows.push_back(row);
        for (const QString& line : extras.curveLines) {
            run.curveText += line.toUtf8() + '\n';
        }
        printRow(ctx.out(), row, split, plan.hindsight && m == 0 ? &extras : nullptr);
        ctx.err() << "sosrep adbench: [" << run.done << "/" << run.total << "] " << file << " seed "
                  << seed << " " << row.method << " AUC-ROC " << fixed(row.aucRoc, 4) << " ("
                  << fixed(row.seconds, 1) << " s)" << Qt::endl;
        if (!plan.partialPath.isEmpty()) {
            checkpoint(plan.partialPath, run.rows);
        }
    }
}

/// The summaries on stdout and every output file, committed together.
void finishAdbench(const AdbenchPlan& plan, const AdbenchRun& run, CommandContext& ctx)
{
    QTextStream& out = ctx.out();
    if (!plan.reference.isEmpty() && !run.labels.contains(plan.reference)) {
        throw ParameterError("--reference", "'" + plan.reference.toStdString() +
                                                "' is not one of the methods of the run");
    }
    const std::vector<MethodSummary> summary = summarize(run.rows, run.labels, run.data.datasets);
    printSummary(out, summary);
    const std::vector<FamilySummary> families =
        summarizeFamilies(run.rows, run.labels, run.data, plan.reference);
    out << familySummaryText(families, plan.reference);
    QJsonObject json = adbenchJson(run.rows, summary);
    json[QStringLiteral("families")] = familySummaryJson(families, plan.reference);
    if (!plan.lodo.isEmpty()) {
        const ProtocolReport report = selectionProtocol(run.rows, plan.lodo, run.data, plan.seeds);
        out << protocolText(report);
        json[QStringLiteral("selection_protocol")] = protocolJson(report);
    }
    if (!plan.curvesPath.isEmpty()) {
        ctx.stage(plan.curvesPath, run.curveText);
    }
    if (!plan.tablePath.isEmpty()) {
        ctx.stage(plan.tablePath, adbenchCsv(run.rows));
    }
    if (!plan.plotPath.isEmpty()) {
        ctx.stagePlot(plan.plotPath, adbenchChart(run.rows, run.labels, run.data.datasets,
                                                  int(plan.seeds.size()), plan.duplicate));
    }
    if (!plan.jsonPath.isEmpty()) {
        ctx.stage(plan.jsonPath, QJsonDocument(json).toJson(QJsonDocument::Indented));
    }
    ctx.commitOutputs();
    if (!plan.partialPath.isEmpty()) {
        QFile::remove(plan.partialPath);
    }
}

} // namespace

int commandAdbench(const QStringList& args, CommandContext& ctx)
{
    QCommandLineParser p;
    addAdbenchOptions(p);
    if (!ctx.parse(p, args)) {
        return ExitOk;
    }
    const Options o(p);
    const AdbenchPlan plan = planAdbench(o, ctx);
    AdbenchRun run;
    run.rows = resumedRows(plan, ctx);
    run.labels = plan.builtIn;
    run.total = int(plan.files.size() * plan.seeds.size() * plan.methods.size());
    ctx.out() << "dataset\tseed\tmethod\tn_train\td\tlength_scale\tselection\tauc_roc\tauc_pr"
              << (plan.hindsight ? "\tbest_grid_auc_roc" : "") << "\tseconds\n";
    for (const DataFile& file : plan.files) {
        run.data.datasets << file.name;
        run.data.families << file.family;
        const Dataset all = readNpzDataset(file.path.toStdString());
        if (!all.hasLabels()) {
            throw DataError(all.source, 0, 0, "has no labels (array 'y'): adbench needs them");
        }
        for (uint64_t seed : plan.seeds) {
            const Split split = adbenchSplit(all, seed, plan.duplicate);
            if (!plan.exportDir.isEmpty()) {
                stageSplit(ctx, plan.exportDir, splitStem(file.name, seed), split, all.columns);
            }
            if (!plan.externalDir.isEmpty()) {
                addExternalRows(plan, file.name, seed, split, run, ctx.out());
            }
            runSplit(plan, file.name, seed, split, run, ctx);
        }
    }
    finishAdbench(plan, run, ctx);
    return ExitOk;
}

} // namespace sosrep::cli
