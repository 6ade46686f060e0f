// SPDX-License-Identifier: MIT
#include "app/cli/cli_flags.h"
#include "app/cli/cli_runner.h"
#include "app/cli/commands.h"
#include "app/cli/fit_options.h"
#include "app/cli/fit_summary.h"
#include "core/data/npz_reader.h"
#include "core/data/preparation.h"
#include "core/data/split.h"
#include "core/errors.h"
#include "core/metrics/auc.h"
#include "core/pipeline/fit_route.h"
#include "ui/io/table_text.h"

#include <QDir>

namespace sosrep::cli {
namespace {

struct Row
{
    double aucRoc = 0.0;
    double aucPr = 0.0;
    double hindsight = 0.0;
};

QString fixed(double v, int decimals)
{
    return QString::number(v, 'f', decimals);
}

void addAdbenchOptions(QCommandLineParser& p)
{
    addEstimatorOptions(p);
    addFlags(p, {QStringLiteral("data-dir"), QStringLiteral("seeds"), QStringLiteral("only"),
                 QStringLiteral("curves-out"), QStringLiteral("hindsight")});
}

/// The .npz files of --data-dir, kept to those matching --only.
QStringList datasetFiles(const Options& o, const QDir& dir)
{
    const QStringList all = dir.entryList({QStringLiteral("*.npz")}, QDir::Files, QDir::Name);
    const QStringList only =
        o.text(QStringLiteral("only")).split(QLatin1Char(','), Qt::SkipEmptyParts);
    QStringList files;
    for (const QString& f : all) {
        if (only.isEmpty() || std::any_of(only.begin(), only.end(),
                                          [&](const QString& s) { return f.contains(s); })) {
            files << f;
        }
    }
    if (files.isEmpty()) {
        throw ParameterError("--data-dir", "no .npz files in " + dir.path().toStdString());
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

/// One dataset and seed under the ADBench protocol: subsample to 10000, stratified 70/30 split,
/// min-max scaling fitted on the training part; the FD search validates on the test rows.
struct Run
{
    Row row;
    QStringList curveLines;
    FitOutcome fit;
    Eigen::Index nTrain = 0;
    Eigen::Index dim = 0;
};

Run runOne(const Dataset& all, const QString& file, FitSettings settings, uint64_t seed,
           bool gridAucs)
{
    const Dataset data = all.selectRows(subsampleRows(all.rows(), 10000, seed));
    const SplitIndices s = trainTestSplit(data.rows(), 0.3, seed, data.labels, true);
    const Dataset trainRaw = data.selectRows(s.train);
    const Dataset test = data.selectRows(s.test);
    const PreparedTraining prepared = prepareTraining(trainRaw, ScalingKind::MinMax);
    const Matrix testX = applyToOther(prepared.scaler, test);
    settings.values.set("seed", std::to_string(seed));
    // The search validates on the test rows, so each grid model is fitted on the whole training
    // part: scoring it gives the grid AUC without refitting (labels are used only here, after
    // the fact, never by the selection).
    std::vector<double> gridAuc;
    FitObserver observer;
    if (gridAucs) {
        observer.sweepPoint = [&](const FdPoint&, const FittedModel& model) {
            gridAuc.push_back(aucRoc(-model.logValues(testX).values, *test.labels));
        };
    }
    Run run;
    run.fit = fitModel(FitData{prepared.x, testX, all.source, nullptr}, settings, observer);
    checkUsable(*run.fit.model);
    const Vector score = -run.fit.model->logValues(testX).values;
    run.row.aucRoc = aucRoc(score, *test.labels);
    run.row.aucPr = aucPr(score, *test.labels);
    run.nTrain = prepared.x.rows();
    run.dim = prepared.x.cols();
    for (double a : gridAuc) {
        run.row.hindsight = std::max(run.row.hindsight, a);
    }
    if (gridAucs && run.fit.search) {
        const SearchResult& r = *run.fit.search;
        for (size_t i = 0; i < r.curve.size(); ++i) {
            const FdPoint& pt = r.curve[i];
            run.curveLines << QStringList{file,
                                          QString::number(seed),
                                          io::formatNumber(pt.lengthScale),
                                          finiteCell(pt.value),
                                          QString::number(pt.invalidPoints),
                                          QString::number(pt.iterations),
                                          finiteCell(pt.residual),
                                          finiteCell(gridAuc[i]),
                                          io::formatNumber(r.centre),
                                          io::formatNumber(r.spacing),
                                          QString::number(int(i) == r.selection.index)}
                                  .join(QLatin1Char(','));
        }
    }
    return run;
}

void printRun(QTextStream& out, const QString& file, uint64_t seed, const Run& run, bool hindsight)
{
    out << file << '\t' << seed << '\t' << run.nTrain << '\t' << run.dim << '\t'
        << QString::number(run.fit.lengthScale, 'g', 4) << '\t'
        << (run.fit.search ? QString::fromStdString(run.fit.search->selection.reason)
                           : QStringLiteral("fixed"))
        << '\t' << fixed(run.row.aucRoc, 4) << '\t' << fixed(run.row.aucPr, 4);
    if (hindsight) {
        out << '\t' << fixed(run.row.hindsight, 4);
    }
    out << '\t' << fixed(run.fit.seconds, 2) << Qt::endl;
}

void printMeans(QTextStream& out, const std::vector<Row>& rows, bool hindsight)
{
    Row mean;
    for (const Row& r : rows) {
        mean.aucRoc += r.aucRoc / double(rows.size());
        mean.aucPr += r.aucPr / double(rows.size());
        mean.hindsight += r.hindsight / double(rows.size());
    }
    out << "mean\t\t\t\t\t\t" << fixed(mean.aucRoc, 4) << '\t' << fixed(mean.aucPr, 4);
    if (hindsight) {
        out << '\t' << fixed(mean.hindsight, 4);
    }
    out << "\t\n";
}

} // namespace

int commandAdbench(const QStringList& args, CommandContext& ctx)
{
    QTextStream& out = ctx.out();
    QCommandLineParser p;
    addAdbenchOptions(p);
    if (!ctx.parse(p, args)) {
        return ExitOk;
    }
    const Options o(p);
    const QString curvesPath = ctx.plannedOutput(o, "--curves-out");
    const QDir dir(o.required(QStringLiteral("data-dir")));
    const QStringList files = datasetFiles(o, dir);
    const std::vector<uint64_t> seeds = seedList(o);
    std::vector<std::string> warnings;
    const FitSettings settings = settingsFromOptions(o, 0, &warnings);
    ctx.warn(warnings);
    const bool hindsight = o.has(QStringLiteral("hindsight"));
    const bool curves = !curvesPath.isEmpty();
    QByteArray curveText = "dataset,seed,length_scale,fisher_divergence,invalid_points,"
                           "iterations,residual,auc_roc,centre,spacing,selected\n";
    out << "dataset\tseed\tn_train\td\tlength_scale\tselection\tauc_roc\tauc_pr"
        << (hindsight ? "\tbest_grid_auc_roc" : "") << "\tseconds\n";
    std::vector<Row> rows;
    for (const QString& file : files) {
        const Dataset all = readNpzDataset(dir.filePath(file).toStdString());
        if (!all.hasLabels()) {
            throw DataError(all.source, 0, 0, "has no labels (array 'y'): adbench needs them");
        }
        for (uint64_t seed : seeds) {
            const Run run = runOne(all, file, settings, seed, hindsight || curves);
            for (const QString& line : run.curveLines) {
                curveText += line.toUtf8() + '\n';
            }
            rows.push_back(run.row);
            printRun(out, file, seed, run, hindsight);
        }
    }
    printMeans(out, rows, hindsight);
    if (curves) {
        ctx.outputs().stage(curvesPath, curveText);
    }
    ctx.commitOutputs();
    return ExitOk;
}

} // namespace sosrep::cli
