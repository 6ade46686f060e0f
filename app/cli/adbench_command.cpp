// SPDX-License-Identifier: MIT
#include "app/cli/commands.h"
#include "app/cli/fit_options.h"
#include "app/cli/fit_summary.h"
#include "core/data/npz_reader.h"
#include "core/data/scaler.h"
#include "core/data/split.h"
#include "core/errors.h"
#include "core/metrics/auc.h"
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

} // namespace

int commandAdbench(const QStringList& args, CommandContext& ctx)
{
    QTextStream& out = ctx.out();
    QCommandLineParser p;
    addFitOptions(p);
    addValueOption(p, QStringLiteral("data-dir"), QStringLiteral("folder of ADBench .npz files"),
                   QStringLiteral("DIR"));
    addValueOption(p, QStringLiteral("seeds"),
                   QStringLiteral("comma-separated split seeds (default 42)"),
                   QStringLiteral("LIST"));
    addValueOption(p, QStringLiteral("only"),
                   QStringLiteral("comma-separated substrings of file names to run"),
                   QStringLiteral("LIST"));
    addValueOption(p, QStringLiteral("curves-out"),
                   QStringLiteral("every FD curve with the AUC at each grid point (CSV)"),
                   QStringLiteral("FILE"));
    p.addOption(QCommandLineOption(QStringLiteral("hindsight"),
                                   QStringLiteral("also report the best AUC over the grid")));
    if (!ctx.parse(p, args)) {
        return 0;
    }
    const Options o(p);
    for (const char* unused : {"train", "test", "scores-out", "trace-out", "fd-out", "model-out",
                               "columns", "label-column"}) {
        if (o.has(QString::fromLatin1(unused))) {
            throw ParameterError(std::string("--") + unused,
                                 "is not an adbench option (adbench reads every .npz of "
                                 "--data-dir and writes a table; see --curves-out)");
        }
    }
    const QString curvesPath = ctx.plannedOutput(o, "--curves-out");
    const QDir dir(o.required(QStringLiteral("data-dir")));
    QStringList files = dir.entryList({QStringLiteral("*.npz")}, QDir::Files, QDir::Name);
    const QStringList only =
        o.text(QStringLiteral("only")).split(QLatin1Char(','), Qt::SkipEmptyParts);
    if (!only.isEmpty()) {
        QStringList kept;
        for (const QString& f : files) {
            for (const QString& s : only) {
                if (f.contains(s)) {
                    kept << f;
                    break;
                }
            }
        }
        files = kept;
    }
    if (files.isEmpty()) {
        throw ParameterError("--data-dir", "no .npz files in " + dir.path().toStdString());
    }
    std::vector<uint64_t> seeds;
    for (const QString& s :
         o.text(QStringLiteral("seeds"), QStringLiteral("42")).split(QLatin1Char(','))) {
        bool ok = false;
        seeds.push_back(s.toULongLong(&ok));
        if (!ok) {
            throw ParameterError("--seeds", "expected comma-separated integers");
        }
    }
    const bool hindsight = o.has(QStringLiteral("hindsight"));
    const bool curves = o.has(QStringLiteral("curves-out"));
    QStringList curveLines;
    out << "dataset\tseed\tn_train\td\tlength_scale\tselection\tauc_roc\tauc_pr"
        << (hindsight ? "\tbest_grid_auc_roc" : "") << "\tseconds\n";
    std::vector<Row> rows;
    for (const QString& file : files) {
        const Dataset all = readNpzDataset(dir.filePath(file).toStdString());
        if (!all.hasLabels()) {
            throw DataError(all.source, 0, 0, "has no labels (array 'y'): adbench needs them");
        }
        for (uint64_t seed : seeds) {
            const Dataset data = all.selectRows(subsampleRows(all.rows(), 10000, seed));
            const SplitIndices s = trainTestSplit(data.rows(), 0.3, seed, data.labels, true);
            const Dataset trainRaw = data.selectRows(s.train);
            const Dataset test = data.selectRows(s.test);
            const Scaler scaler = Scaler::fit(ScalingKind::MinMax, trainRaw.x);
            const Matrix train = scaler.apply(trainRaw.x);
            const Matrix testX = scaler.apply(test.x);
            FitRequest req = fitRequestFromOptions(o, static_cast<int>(train.cols()));
            req.seed = seed;
            req.fit.solver.seed = seed;
            req.fit.kernel.seed = seed;
            // The search validates on the test rows, so each grid model is fitted on the whole
            // training part: scoring it gives the grid AUC without refitting (labels are used
            // only here, after the fact, never by the selection).
            std::vector<double> gridAuc;
            LengthScaleSearch::Observer observer;
            if (hindsight || curves) {
                observer = [&](const FdPoint&, const DensityModel& model) {
                    gridAuc.push_back(aucRoc(-model.logDensity(testX).values, *test.labels));
                };
            }
            const FitOutcome f = runFit(train, testX, req, observer);
            const Vector score = -f.model.model.logDensity(testX).values;
            Row r;
            r.aucRoc = aucRoc(score, *test.labels);
            r.aucPr = aucPr(score, *test.labels);
            for (double a : gridAuc) {
                r.hindsight = std::max(r.hindsight, a);
            }
            if (curves && f.search) {
                for (size_t i = 0; i < f.search->curve.size(); ++i) {
                    const FdPoint& pt = f.search->curve[i];
                    curveLines << QStringList{file,
                                              QString::number(seed),
                                              io::formatNumber(pt.lengthScale),
                                              finiteCell(pt.value),
                                              QString::number(pt.invalidPoints),
                                              QString::number(pt.iterations),
                                              finiteCell(pt.residual),
                                              finiteCell(gridAuc[i]),
                                              io::formatNumber(f.search->centre),
                                              io::formatNumber(f.search->spacing),
                                              QString::number(int(i) == f.search->selection.index)}
                                      .join(QLatin1Char(','));
                }
            }
            rows.push_back(r);
            out << file << '\t' << seed << '\t' << train.rows() << '\t' << train.cols() << '\t'
                << QString::number(f.model.model.kernel->spec().lengthScale, 'g', 4) << '\t'
                << (f.search ? QString::fromStdString(f.search->selection.reason)
                             : QStringLiteral("fixed"))
                << '\t' << fixed(r.aucRoc, 4) << '\t' << fixed(r.aucPr, 4);
            if (hindsight) {
                out << '\t' << fixed(r.hindsight, 4);
            }
            out << '\t' << fixed(f.seconds, 2) << Qt::endl;
        }
    }
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
    if (curves) {
        QByteArray text = "dataset,seed,length_scale,fisher_divergence,invalid_points,iterations,"
                          "residual,auc_roc,centre,spacing,selected\n";
        for (const QString& line : curveLines) {
            text += line.toUtf8() + '\n';
        }
        ctx.outputs().stage(curvesPath, text);
    }
    ctx.commitOutputs();
    return 0;
}

} // namespace sosrep::cli
