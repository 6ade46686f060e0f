// SPDX-License-Identifier: MIT
// sosrep experiment negativity: the paper's Fig. 3 (natural vs standard gradient, the worst-k
// share of negative f(x_i) over many initialisations), on one file or a folder of them.
#include "app/cli/cli_flags.h"
#include "app/cli/cli_runner.h"
#include "app/cli/commands.h"
#include "app/cli/data_loader.h"
#include "app/cli/fit_summary.h"
#include "core/data/npz_reader.h"
#include "core/data/preparation.h"
#include "core/errors.h"
#include "core/experiments/negativity.h"
#include "core/io/table_text.h"
#include "core/util/text.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonObject>

#include <tuple>

namespace sosrep::cli {
namespace {

/// The data sets of the run: every --data file, then the .npz files of --data-dir (name order,
/// kept to those matching --only).
QStringList inputFiles(const Options& o, const QCommandLineParser& p)
{
    QStringList files = p.values(QStringLiteral("data"));
    if (o.has(QStringLiteral("data-dir"))) {
        const QDir dir(o.text(QStringLiteral("data-dir")));
        if (!dir.exists()) {
            throw ParameterError("--data-dir", dir.path().toStdString() + ": no such folder");
        }
        const QStringList only =
            o.text(QStringLiteral("only")).split(QLatin1Char(','), Qt::SkipEmptyParts);
        for (const QString& f : dir.entryList({QStringLiteral("*.npz")}, QDir::Files, QDir::Name)) {
            if (only.isEmpty() || std::any_of(only.begin(), only.end(),
                                              [&](const QString& s) { return f.contains(s); })) {
                files << dir.filePath(f);
            }
        }
    }
    if (files.isEmpty()) {
        throw ParameterError("--data", "give --data FILE (repeatable) or --data-dir DIR");
    }
    return files;
}

NegativitySettings settingsFrom(const Options& o)
{
    NegativitySettings s;
    s.kernel =
        kernelTypeFromString(o.text(QStringLiteral("kernel"), QStringLiteral("sdo")).toStdString());
    // ℓ given, or a factor of the median distance: never both, and a given ℓ is never 0 (0
    // stood for "use the factor" and silently did so).
    if (o.has(QStringLiteral("length-scale"))) {
        if (o.has(QStringLiteral("length-scale-factor"))) {
            throw ParameterError("--length-scale", "give --length-scale or "
                                                   "--length-scale-factor, not both");
        }
        s.lengthScale = o.number(QStringLiteral("length-scale"), 0.0, 0.0, 1e300);
        if (!(s.lengthScale > 0.0)) {
            throw ParameterError("--length-scale", "must be positive (or leave it out: "
                                                   "--length-scale-factor x the median distance)");
        }
    }
    s.lengthScaleFactor =
        o.number(QStringLiteral("length-scale-factor"), s.lengthScaleFactor, 1e-6, 1e6);
    s.features = o.integer(QStringLiteral("features"), s.features, 1, KernelSpec::kMaxFeatures);
    s.learningRate = o.number(QStringLiteral("learning-rate"), s.learningRate, 1e-12, 1e6);
    s.iterations = o.integer(QStringLiteral("iterations"), s.iterations, 1, 1000000);
    s.initializations = o.integer(QStringLiteral("initializations"), s.initializations, 1, 10000);
    s.worst = o.integer(QStringLiteral("worst"), s.worst, 1, s.initializations,
                        "(at most --initializations)");
    s.maxRows = o.integer(QStringLiteral("max-rows"), s.maxRows, 2, 20000,
                          "(a dense N x N kernel; 20000 rows take 3.2 GB)");
    s.seed = o.seed(QStringLiteral("seed"), 0);
    s.validate();
    return s;
}

QString datasetName(const QString& path)
{
    return QFileInfo(path).completeBaseName();
}

/// The rows of --csv-out for one run: every `every`-th iteration and the last.
void appendCsv(QByteArray& csv, const NegativityRun& r, int worst, int every)
{
    const Vector nat = NegativityRun::worstMean(r.natural, worst);
    const Vector std_ = NegativityRun::worstMean(r.standard, worst);
    const Eigen::Index last = r.natural.rows() - 1;
    for (const auto& [method, shares, worstShare, at] :
         {std::tuple{"natural", &r.natural, &nat, &r.naturalDivergedAt},
          std::tuple{"standard", &r.standard, &std_, &r.standardDivergedAt}}) {
        for (Eigen::Index t = 0; t <= last; ++t) {
            if (t % every != 0 && t != last) {
                continue;
            }
            const int diverged = static_cast<int>(
                std::count_if(at->begin(), at->end(), [t](int d) { return d >= 0 && d <= t; }));
            csv += QStringList{QString::fromStdString(r.name),
                               QString::fromLatin1(method),
                               QString::number(t),
                               qtNumber((*worstShare)(t)),
                               qtNumber(shares->row(t).mean()),
                               qtNumber(shares->row(t).maxCoeff()),
                               QString::number(diverged)}
                       .join(QLatin1Char(','))
                       .toUtf8() +
                   '\n';
        }
    }
}

/// The figure: the paper's Fig. 3 (final worst-k share per data set: initial, natural,
/// standard) beside the path of the same statistic over the iterations.
Chart negativityChart(const std::vector<NegativityRun>& runs, const NegativitySettings& s)
{
    ChartPanel bars;
    bars.kind = ChartPanel::Kind::Bars;
    bars.title = "After " + std::to_string(s.iterations) + " iterations (paper Fig. 3)";
    bars.yLabel = "negative share, mean of worst " + std::to_string(s.worst) + " of " +
                  std::to_string(s.initializations);
    bars.yMin = 0.0;
    bars.yMax = 1.0;
    ChartSeries initial{"initial", {}, {}, false, 6};
    ChartSeries natural{"natural gradient (eq. 8)", {}, {}, false, 0};
    ChartSeries standard{"standard gradient (eq. 7, alpha GD)", {}, {}, false, 1};
    ChartPanel lines;
    lines.kind = ChartPanel::Kind::Lines;
    lines.title = "Over the iterations (solid natural, dashed standard)";
    lines.xLabel = "iteration";
    lines.yLabel = bars.yLabel;
    lines.yMin = 0.0;
    lines.yMax = 1.0;
    for (size_t i = 0; i < runs.size(); ++i) {
        const NegativityRun& r = runs[i];
        bars.categories.push_back(r.name);
        const Vector nat = NegativityRun::worstMean(r.natural, s.worst);
        const Vector std_ = NegativityRun::worstMean(r.standard, s.worst);
        initial.y.push_back(nat(0));
        natural.y.push_back(nat(nat.size() - 1));
        standard.y.push_back(std_(std_.size() - 1));
        ChartSeries n{"", {}, {}, false, int(i)};
        ChartSeries d{r.name, {}, {}, true, int(i)};
        for (Eigen::Index t = 0; t < nat.size(); ++t) {
            n.x.push_back(double(t));
            n.y.push_back(nat(t));
            d.x.push_back(double(t));
            d.y.push_back(std_(t));
        }
        lines.series.push_back(n);
        lines.series.push_back(d);
    }
    bars.series = {initial, natural, standard};
    Chart chart;
    chart.title = "Negative values of f under natural vs standard gradient descent (" +
                  toString(s.kernel) + " kernel, lambda " + io::formatNumber(s.learningRate) +
                  ", seed " + std::to_string(s.seed) + ")";
    chart.panels = {bars, lines};
    chart.columns = 2;
    chart.width = 1500;
    chart.height = 620;
    return chart;
}

/// One data set's run: a line of the table on stdout, and its entry in the summary.
QJsonObject reportRun(QTextStream& out, const QString& name, const NegativityRun& r,
                      Eigen::Index dim, int worst, double seconds)
{
    const Vector nat = NegativityRun::worstMean(r.natural, worst);
    const Vector std_ = NegativityRun::worstMean(r.standard, worst);
    const double last[3] = {nat(0), nat(nat.size() - 1), std_(std_.size() - 1)};
    const int naturalDiverged = NegativityRun::divergedCount(r.naturalDivergedAt);
    const int standardDiverged = NegativityRun::divergedCount(r.standardDivergedAt);
    out << name << '\t' << r.rows << '\t' << dim << '\t' << QString::number(r.lengthScale, 'g', 4)
        << '\t' << QString::fromStdString(r.backend) << '\t' << QString::number(last[0], 'f', 4)
        << '\t' << QString::number(last[1], 'f', 4) << '\t' << QString::number(last[2], 'f', 4)
        << '\t' << naturalDiverged << '\t' << standardDiverged << '\t' << r.clamped << '\t'
        << QString::number(seconds, 'f', 2) << Qt::endl;
    return QJsonObject{{QStringLiteral("dataset"), name},
                       {QStringLiteral("rows"), double(r.rows)},
                       {QStringLiteral("length_scale"), r.lengthScale},
                       {QStringLiteral("initial"), last[0]},
                       {QStringLiteral("natural"), last[1]},
                       {QStringLiteral("standard"), last[2]},
                       {QStringLiteral("natural_diverged"), naturalDiverged},
                       {QStringLiteral("standard_diverged"), standardDiverged},
                       {QStringLiteral("clamped"), double(r.clamped)},
                       {QStringLiteral("seconds"), seconds}};
}

int negativity(const QStringList& args, CommandContext& ctx)
{
    QCommandLineParser p;
    addFlags(p, {QStringLiteral("data"), QStringLiteral("data-dir"), QStringLiteral("only"),
                 QStringLiteral("label-column"), QStringLiteral("initializations"),
                 QStringLiteral("iterations"), QStringLiteral("learning-rate"),
                 QStringLiteral("worst"), QStringLiteral("max-rows"), QStringLiteral("kernel"),
                 QStringLiteral("features"), QStringLiteral("length-scale"),
                 QStringLiteral("length-scale-factor"), QStringLiteral("seed"),
                 QStringLiteral("every"), QStringLiteral("csv-out"), QStringLiteral("plot-out")});
    if (!ctx.parse(p, args)) {
        return ExitOk;
    }
    const Options o(p);
    const NegativitySettings s = settingsFrom(o);
    const int every = o.integer(QStringLiteral("every"), 1, 1, 1000000);
    const QStringList files = inputFiles(o, p);
    for (const QString& f : files) {
        ctx.input(f, "--data");
    }
    const QString csvPath = ctx.plannedOutput(o, "--csv-out");
    const QString plotPath = ctx.plannedPlot(o, "--plot-out");
    const QString label = o.text(QStringLiteral("label-column"));

    QTextStream& out = ctx.out();
    out << "dataset\trows\td\tlength_scale\tbackend\tinitial\tnatural\tstandard\t"
           "natural_diverged\tstandard_diverged\tclamped\tseconds\n";
    QByteArray csv = "dataset,method,iteration,worst_mean,mean,max,diverged\n";
    std::vector<NegativityRun> runs;
    QJsonArray results;
    for (int k = 0; k < files.size(); ++k) {
        const QString& file = files[k];
        const Dataset raw = file.endsWith(QLatin1String(".npz"), Qt::CaseInsensitive)
                                ? readNpzDataset(file.toStdString())
                                : loadDataset(file, label, {});
        const PreparedTraining prepared = prepareTraining(raw, ScalingKind::MinMax);
        ctx.warn(prepared.warnings);
        const QString name = datasetName(file);
        QElapsedTimer timer;
        timer.start();
        const long step = std::max(1, s.iterations / 4);
        NegativityRun r = runNegativity(prepared.x, name.toStdString(), s, [&](long t, long all) {
            if (t % step == 0 && t < all) {
                ctx.err() << "sosrep experiment: [" << k + 1 << "/" << files.size() << "] " << name
                          << " " << t << "/" << all << " iterations" << Qt::endl;
            }
            return true;
        });
        const double seconds = timer.elapsed() / 1000.0;
        results.append(reportRun(out, name, r, prepared.x.cols(), s.worst, seconds));
        appendCsv(csv, r, s.worst, every);
        runs.push_back(std::move(r));
    }
    if (!csvPath.isEmpty()) {
        ctx.stage(csvPath, csv);
    }
    if (!plotPath.isEmpty()) {
        ctx.stagePlot(plotPath, negativityChart(runs, s));
    }
    ctx.finish(QJsonObject{{QStringLiteral("experiment"), QStringLiteral("negativity")},
                           {QStringLiteral("kernel"), QString::fromStdString(toString(s.kernel))},
                           {QStringLiteral("learning_rate"), s.learningRate},
                           {QStringLiteral("iterations"), s.iterations},
                           {QStringLiteral("initializations"), s.initializations},
                           {QStringLiteral("worst"), s.worst},
                           {QStringLiteral("seed"), QString::number(s.seed)},
                           {QStringLiteral("results"), results}});
    return ExitOk;
}

} // namespace

int commandExperiment(const QStringList& args, CommandContext& ctx)
{
    const QString which = args.isEmpty() ? QString() : args.first();
    if (which == QLatin1String("negativity")) {
        return negativity(args.mid(1), ctx);
    }
    if (which == QLatin1String("--help") || which == QLatin1String("-h")) {
        ctx.out() << "usage: sosrep experiment negativity [options]\n"
                     "  negativity  natural vs standard gradient: the share of negative f(x_i) "
                     "over many initialisations (paper Fig. 3)\n";
        return ExitOk;
    }
    throw ParameterError("experiment", which.isEmpty()
                                           ? std::string("name the experiment (negativity)")
                                           : "unknown experiment " +
                                                 sosrep::quotedText(which.toStdString()) +
                                                 " (use negativity)");
}

} // namespace sosrep::cli
