// SPDX-License-Identifier: MIT
// sosrep adbench: the ADBench protocol over a folder of .npz files, several methods side by
// side, with ranks, leave-one-dataset-out and a table that an interrupted run resumes from.
#include "app/cli/adbench_external.h"
#include "app/cli/adbench_plan.h"
#include "app/cli/adbench_protocol.h"
#include "app/cli/adbench_table.h"
#include "app/cli/cli_flags.h"
#include "app/cli/cli_runner.h"
#include "app/cli/commands.h"
#include "app/cli/fit_options.h"
#include "app/cli/fit_summary.h"
#include "core/data/adbench_generator.h"
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
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSaveFile>
#include <QSet>

#include <map>
#include <set>

namespace sosrep::cli {
namespace {

/// Methods whose Fisher-divergence sweep is the same (only the rule differs) share it: the
/// same options but the rule's own, the same validation rows, and the same refinement (the
/// density and anomaly rules add points to the grid and leave repeated rows out).
std::string sweepKey(const FitSettings& s, ScalingKind scaling)
{
    if (!s.autoLengthScale() || s.values.text("selection") == "likelihood") {
        return {};
    }
    const SearchConfig config = searchConfigFrom(s.values);
    std::string key = s.estimator + ";refines=" + std::to_string(refinesSweep(config.rule)) +
                      ";without_repeats=" + std::to_string(config.excludeDuplicates);
    for (const auto& [name, value] : s.values.all()) {
        if (name == "scale") {
            key += ";scale=" + toString(scaling); // auto differs by purpose: what it came to
        } else if (name != "selection" && name != "fd_factor" && name != "purpose" &&
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
    Dataset trainRaw; // as read: a method with its own scale= option scales these
    Dataset testRaw;
    Scaler scaler; // what made `train` and `test`: log values are per unit of the data's columns
};

/// The split as a method sees it: min-max scaled (the protocol's), or by the method's own
/// `scale` option (auto: its purpose's), fitted on the training part and applied unchanged to
/// the test part.
const Split& scaledFor(const Split& split, const FitSettings& settings, Split* own)
{
    const ScalingKind kind = resolvedScaling(scalingOf(settings.values), split.trainRaw.x);
    if (kind == ScalingKind::MinMax) {
        return split;
    }
    PreparedTraining prepared = prepareTraining(split.trainRaw, kind);
    own->train = prepared.x;
    own->test = applyToOther(prepared.scaler, split.testRaw);
    own->testLabels = split.testLabels;
    own->scaler = std::move(prepared.scaler);
    return *own;
}

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

/// The two parts of `all` for a seed under the protocol (--protocol): ours (seeded with this
/// project's generator) or ADBench's generator draw for draw (core/data/adbench_generator).
Split adbenchSplit(const Dataset& all, uint64_t seed, double duplicate, DataProtocol protocol)
{
    Dataset trainRaw, test;
    if (protocol == DataProtocol::Ours) {
        const Dataset data = all.selectRows(subsampleRows(all.rows(), 10000, seed));
        const SplitIndices s = trainTestSplit(data.rows(), 0.3, seed, data.labels, true);
        trainRaw = data.selectRows(s.train);
        test = data.selectRows(s.test);
        if (duplicate > 1.0) {
            trainRaw =
                trainRaw.selectRows(duplicatedAnomalyRows(*trainRaw.labels, duplicate, seed + 1));
            test = test.selectRows(duplicatedAnomalyRows(*test.labels, duplicate, seed + 2));
        }
    } else {
        AdbenchGeneratorOptions g;
        g.resampleSmall = protocol == DataProtocol::Adbench;
        g.duplicateTimes = duplicate;
        const AdbenchParts parts = adbenchParts(*all.labels, uint32_t(seed), g);
        trainRaw = all.selectRows(parts.train);
        test = all.selectRows(parts.test);
    }
    const PreparedTraining prepared = prepareTraining(trainRaw, ScalingKind::MinMax);
    return {prepared.x,     applyToOther(prepared.scaler, test), *test.labels, trainRaw, test,
            prepared.scaler};
}

/// The grid AUCs and FD curve lines of a tuned fit (--hindsight, --curves-out).
struct Extras
{
    double hindsight = 0.0;
    QStringList curveLines;
};

AdbenchRow runMethod(const Split& protocolSplit, const QString& file, uint64_t seed,
                     const Method& method, std::map<std::string, SearchResult>& sweeps,
                     Extras* extras)
{
    Split own;
    const Split& split = scaledFor(protocolSplit, method.settings, &own);
    FitSettings settings = method.settings;
    settings.values.set("seed", std::to_string(seed));
    const std::string key = sweepKey(settings, split.scaler.kind);
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
    // The scores users get: log values per unit of the data's columns (a rank scaling's
    // Jacobian depends on the row, so it can move a ranking; an affine one cannot).
    data.scaler = split.scaler;
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
        if (!gridAuc.empty()) {
            row.bestGridAuc = extras->hindsight;
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

/// A number with `decimals` decimals, or "-" where there is none (NaN).
QString fixed(double v, int decimals)
{
    return std::isfinite(v) ? QString::number(v, 'f', decimals) : QStringLiteral("-");
}

void printRow(QTextStream& out, const AdbenchRow& r, const Split& s, bool hindsight)
{
    out << r.dataset << '\t' << r.seed << '\t' << r.method << '\t' << s.train.rows() << '\t'
        << s.train.cols() << '\t'
        << (r.lengthScale > 0 ? QString::number(r.lengthScale, 'g', 4) : QStringLiteral("-"))
        << '\t' << (r.selection.isEmpty() ? QStringLiteral("-") : r.selection) << '\t'
        << fixed(r.aucRoc, 4) << '\t' << fixed(r.aucPr, 4);
    if (hindsight) {
        out << '\t' << fixed(r.bestGridAuc, 4);
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

/// Writes `bytes` to `path` atomically (a reader sees the old file or the new one).
void writeAtomically(const QString& path, const QByteArray& bytes)
{
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(bytes) < 0 || !f.commit()) {
        throw io::OutputError(path.toStdString() + ": cannot be written");
    }
}

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
    /// The columns of the first external score file and its name: every file must have them.
    QStringList externalColumns;
    QString externalFirst;

    bool has(const QString& dataset, uint64_t seed, const QString& method) const
    {
        return std::any_of(rows.begin(), rows.end(), [&](const AdbenchRow& r) {
            return r.dataset == dataset && r.seed == seed && r.method == method;
        });
    }
};

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
    checkResumedOptions(plan);
    std::vector<AdbenchRow> rows = readResumedRows(plan.partialPath, scope);
    ctx.err() << "sosrep adbench: resuming from " << plan.partialPath << " (" << rows.size()
              << " runs done)" << Qt::endl;
    return rows;
}

/// The external methods' rows for one split (--external-scores), each once.
void addExternalRows(const AdbenchPlan& plan, const QString& file, uint64_t seed,
                     const Split& split, AdbenchRun& run, QTextStream& out)
{
    const std::vector<AdbenchRow> rows =
        externalScoreRows(plan.externalDir, file, seed, split.testLabels);
    // Files naming their methods differently compared nothing: every dataset lacked some
    // method, the summaries had 0 datasets and null means, and the run exited 0 (issue 52,
    // item 12).
    QStringList columns;
    for (const AdbenchRow& r : rows) {
        columns << r.method;
    }
    const QString name = splitStem(file, seed) + QStringLiteral(".csv");
    if (run.externalFirst.isEmpty()) {
        run.externalColumns = columns;
        run.externalFirst = name;
    } else if (QSet<QString>(columns.begin(), columns.end()) !=
               QSet<QString>(run.externalColumns.begin(), run.externalColumns.end())) {
        throw DataError(QDir(plan.externalDir).filePath(name).toStdString(), 1, 0,
                        "has the columns " + columns.join(QStringLiteral(", ")).toStdString() +
                            " but " + run.externalFirst.toStdString() + " has " +
                            run.externalColumns.join(QStringLiteral(", ")).toStdString() +
                            ": every score file needs the same methods, or no dataset "
                            "compares them all");
    }
    for (const AdbenchRow& r : rows) {
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
            printRow(out, r, split, plan.hindsight);
        }
    }
}

/// A method that could not be fitted on one split: said at once and in the JSON summary; the
/// dataset then drops out of the summaries (they compare methods on the same datasets).
void failedRun(CommandContext& ctx, const QString& file, uint64_t seed, const QString& method,
               const std::string& why)
{
    ctx.warn(file.toStdString() + " seed " + std::to_string(seed) + ", " + method.toStdString() +
             ": not fitted (" + why + "); the dataset is left out of the summaries");
}

/// The test part of a split must hold both classes for an AUC; a dataset with very few
/// anomalies may put them all in the training part. Said, and the split is left out.
bool hasBothClasses(CommandContext& ctx, const QString& file, uint64_t seed, const Split& split)
{
    const long anomalies = long(split.testLabels.sum());
    if (anomalies > 0 && anomalies < split.testLabels.size()) {
        return true;
    }
    ctx.warn(file.toStdString() + " seed " + std::to_string(seed) + ": the test part holds " +
             (anomalies == 0 ? "no anomaly" : "only anomalies") +
             ", so no AUC can be measured; this split is left out");
    return false;
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
        // --hindsight measures every tuned method; --curves-out writes the first one's curves.
        const bool extra = plan.hindsight || (m == 0 && !plan.curvesPath.isEmpty());
        AdbenchRow row;
        try {
            row = runMethod(split, file, seed, plan.methods[m], sweeps, extra ? &extras : nullptr);
        } catch (const ParameterError& e) {
            // A length scale nothing can be fitted at depends on the data (the window where the
            // kernel's mass is a double): the method fails on this split, the run goes on.
            // Every other bad option is the command line's mistake and stops the run.
            if (e.parameter() != "length_scale") {
                throw;
            }
            failedRun(ctx, file, seed, plan.methods[m].label, e.what());
            continue;
        } catch (const NumericalError& e) {
            failedRun(ctx, file, seed, plan.methods[m].label, e.what());
            continue;
        } catch (const DataError& e) {
            failedRun(ctx, file, seed, plan.methods[m].label, e.what());
            continue;
        }
        run.rows.push_back(row);
        for (const QString& line : m == 0 ? extras.curveLines : QStringList()) {
            run.curveText += line.toUtf8() + '\n'; // the first method's curves (no method column)
        }
        printRow(ctx.out(), row, split, plan.hindsight);
        ctx.err() << "sosrep adbench: [" << run.done << "/" << run.total << "] " << file << " seed "
                  << seed << " " << row.method << " AUC-ROC " << fixed(row.aucRoc, 4) << " ("
                  << fixed(row.seconds, 1) << " s)" << Qt::endl;
        if (!plan.partialPath.isEmpty()) {
            writeAtomically(optionsPathOf(plan.partialPath), runOptionsText(plan));
            writeAtomically(plan.partialPath, adbenchCsv(run.rows));
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
    // Nothing fitted anywhere is a failed run, not an empty table with exit 0 (issue 52: an
    // option no split accepts). One method failing while others ran stays a warning.
    if (run.rows.empty() && !plan.methods.empty()) {
        throw NumericalError("no method could be fitted on any split (the warnings above say "
                             "why); nothing was written");
    }
    const std::vector<MethodSummary> summary = summarize(run.rows, run.labels, run.data.datasets);
    printSummary(out, summary);
    const std::vector<FamilySummary> families =
        summarizeFamilies(run.rows, run.labels, run.data, plan.reference);
    out << familySummaryText(families, plan.reference);
    const std::vector<ReferenceLoss> losses =
        referenceLosses(run.rows, run.labels, run.data, plan.reference);
    out << referenceLossText(losses, plan.reference);
    QJsonObject json = adbenchJson(run.rows, summary);
    json[QStringLiteral("families")] = familySummaryJson(families, plan.reference);
    if (!plan.reference.isEmpty()) {
        json[QStringLiteral("losses_by_0.05")] = referenceLossJson(losses);
    }
    QJsonArray warnings;
    for (const std::string& w : ctx.warnings()) {
        warnings.append(QString::fromStdString(w));
    }
    json[QStringLiteral("warnings")] = warnings;
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
        QFile::remove(optionsPathOf(plan.partialPath));
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
    if (!plan.summarizePath.isEmpty()) {
        // No fit: the table's rows, checked against the run as --resume checks them, and
        // the summaries of this run's options (--families, --reference, --lodo, outputs).
        AdbenchRunScope scope;
        for (const DataFile& file : plan.files) {
            scope.datasets << file.name;
            run.data.datasets << file.name;
            run.data.families << file.family;
        }
        scope.seeds = plan.seeds;
        scope.methods = plan.builtIn;
        scope.otherMethods = true; // a table may hold --external-scores columns
        scope.hint = "give the --data-dir, --only, --seeds and --estimators of the run that "
                     "wrote it";
        run.rows = readResumedRows(plan.summarizePath, scope);
        run.labels = plan.builtIn;
        for (const AdbenchRow& r : run.rows) {
            if (!run.labels.contains(r.method)) {
                run.labels << r.method;
            }
        }
        finishAdbench(plan, run, ctx);
        return ExitOk;
    }
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
            const Split split = adbenchSplit(all, seed, plan.duplicate, plan.protocol);
            if (!plan.exportDir.isEmpty()) {
                stageSplit(ctx, plan.exportDir, splitStem(file.name, seed), split, all.columns);
            }
            if (!hasBothClasses(ctx, file.name, seed, split)) {
                run.done += int(plan.methods.size());
                continue;
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
