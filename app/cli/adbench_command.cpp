// SPDX-License-Identifier: MIT
#include "app/cli/adbench_command.h"

#include "app/cli/fit_options.h"
#include "core/data/npz_reader.h"
#include "core/data/scaler.h"
#include "core/data/split.h"
#include "core/errors.h"
#include "core/metrics/auc.h"

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

int commandAdbench(const QStringList& args, QTextStream& out)
{
    QCommandLineParser p;
    p.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    addFitOptions(p);
    addValueOption(p, QStringLiteral("data-dir"), QStringLiteral("folder of ADBench .npz files"),
                   QStringLiteral("DIR"));
    addValueOption(p, QStringLiteral("seeds"),
                   QStringLiteral("comma-separated split seeds (default 42)"),
                   QStringLiteral("LIST"));
    addValueOption(p, QStringLiteral("only"),
                   QStringLiteral("comma-separated substrings of file names to run"),
                   QStringLiteral("LIST"));
    p.addOption(QCommandLineOption(QStringLiteral("hindsight"),
                                   QStringLiteral("also report the best AUC over the grid")));
    p.addOption(QCommandLineOption(QStringLiteral("help"), QStringLiteral("show this help")));
    QStringList full = args;
    full.prepend(QStringLiteral("sosrep adbench"));
    if (!p.parse(full)) {
        throw ParameterError("adbench", p.errorText().toStdString());
    }
    if (p.isSet(QStringLiteral("help"))) {
        out << p.helpText();
        return 0;
    }
    const Options o(p);
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
    out << "dataset\tseed\tn_train\td\tlength_scale\tselection\tauc_roc\tauc_pr"
        << (hindsight ? "\tbest_grid_auc_roc" : "") << "\tseconds\n";
    std::vector<Row> rows;
    for (const QString& file : files) {
        const Dataset all = readNpzDataset(dir.filePath(file).toStdString());
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
            const FitOutcome f = runFit(train, testX, req);
            const Vector score = -f.model.model.logDensity(testX).values;
            Row r;
            r.aucRoc = aucRoc(score, *test.labels);
            r.aucPr = aucPr(score, *test.labels);
            if (hindsight && f.search) {
                for (const FdPoint& pt : f.search->curve) {
                    FitConfig cfg = req.fit;
                    cfg.kernel.lengthScale = pt.lengthScale;
                    const Vector sc = -fitDensity(train, cfg).model.logDensity(testX).values;
                    r.hindsight = std::max(r.hindsight, aucRoc(sc, *test.labels));
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
    return 0;
}

} // namespace sosrep::cli
