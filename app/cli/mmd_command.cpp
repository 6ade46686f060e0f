// SPDX-License-Identifier: MIT
// `sosrep mmd`: the MMD between a data file and one or two saved models (and between the
// models), or between two data files (V- and U-statistics). Issue 9, part 2.
#include "app/cli/cli_flags.h"
#include "app/cli/cli_runner.h"
#include "app/cli/commands.h"
#include "app/cli/data_loader.h"
#include "core/data/preparation.h"
#include "core/errors.h"
#include "core/io/model_file.h"
#include "core/metrics/mmd.h"

#include <QJsonArray>

#include <memory>

namespace sosrep::cli {
namespace {

struct LoadedModel
{
    QString path;
    io::SavedModel saved;
    std::unique_ptr<FittedModel> model;
};

bool sameScaler(const Scaler& a, const Scaler& b)
{
    return a.kind == b.kind && a.shift == b.shift && a.scale == b.scale;
}

QJsonObject row(const QString& a, const QString& b, const MmdResult& r)
{
    QJsonObject o;
    o[QStringLiteral("a")] = a;
    o[QStringLiteral("b")] = b;
    o[QStringLiteral("mmd2")] = r.mmd2;
    o[QStringLiteral("method")] = QString::fromStdString(toString(r.method));
    o[QStringLiteral("detail")] = QString::fromStdString(r.detail);
    return o;
}

void printRow(QTextStream& out, const QJsonObject& o)
{
    out << "MMD^2(" << o[QStringLiteral("a")].toString() << ", "
        << o[QStringLiteral("b")].toString()
        << ") = " << QString::number(o[QStringLiteral("mmd2")].toDouble(), 'g', 6) << "  ["
        << o[QStringLiteral("method")].toString() << ": " << o[QStringLiteral("detail")].toString()
        << "]\n";
}

MmdOptions mmdOptions(const Options& o)
{
    MmdOptions m;
    if (o.has(QStringLiteral("bandwidth"))) {
        m.bandwidth = o.number(QStringLiteral("bandwidth"), 0.0, 1e-100, 1e100,
                               "(the Gaussian kernel's h, in the model's scaled coordinates)");
        if (!(m.bandwidth > 0.0)) {
            throw ParameterError("bandwidth", "must be positive");
        }
    }
    m.samples = o.integer(QStringLiteral("mc-samples"), m.samples, 100, 200000,
                          "(each Monte Carlo self term costs samples^2 kernel values)");
    m.seed = o.seed(QStringLiteral("seed"), 0);
    return m;
}

int twoSamples(const Options& o, const QString& dataPath, const QString& data2Path,
               CommandContext& ctx)
{
    const QString label = o.text(QStringLiteral("label-column"));
    const Dataset a = loadDataset(dataPath, label, {});
    std::vector<std::string> warnings;
    const Dataset b = loadMatching(data2Path, label, a.columns, &warnings);
    ctx.warn(warnings);
    // Both in the first sample's min-max coordinates, where the bandwidth is chosen.
    const PreparedTraining prepared = prepareTraining(a, ScalingKind::MinMax);
    ctx.warn(prepared.warnings);
    const Matrix y = applyToOther(prepared.scaler, b);
    const MmdOptions options = mmdOptions(o);
    const double h = options.bandwidth > 0.0 ? options.bandwidth
                                             : medianPairwiseDistance(prepared.x, options.seed);
    const SampleMmd s = sampleMmd(prepared.x, y, h);
    ctx.out() << "MMD^2 between the samples: V-statistic " << QString::number(s.vStatistic, 'g', 6)
              << ", U-statistic (unbiased) " << QString::number(s.uStatistic, 'g', 6) << '\n';
    QJsonObject summary;
    summary[QStringLiteral("bandwidth")] = h;
    summary[QStringLiteral("bandwidth_rule")] =
        options.bandwidth > 0.0 ? QStringLiteral("given") : QStringLiteral("median");
    summary[QStringLiteral("space")] = QStringLiteral("minmax of --data");
    summary[QStringLiteral("n_data")] = static_cast<int>(a.rows());
    summary[QStringLiteral("n_data2")] = static_cast<int>(b.rows());
    summary[QStringLiteral("mmd2_v")] = s.vStatistic;
    summary[QStringLiteral("mmd2_u")] = s.uStatistic;
    summary[QStringLiteral("seed")] = QString::number(options.seed);
    ctx.finish(summary);
    return ExitOk;
}

} // namespace

int commandMmd(const QStringList& args, CommandContext& ctx)
{
    QCommandLineParser p;
    addFlags(p, {QStringLiteral("data"), QStringLiteral("model"), QStringLiteral("data2"),
                 QStringLiteral("label-column"), QStringLiteral("bandwidth"),
                 QStringLiteral("mc-samples"), QStringLiteral("seed")});
    if (!ctx.parse(p, args)) {
        return ExitOk;
    }
    const Options o(p);
    const QString dataPath = o.required(QStringLiteral("data"));
    ctx.input(dataPath, "--data");
    const QStringList modelPaths = p.values(QStringLiteral("model"));
    const QString data2Path = o.text(QStringLiteral("data2"));
    if (modelPaths.size() > 2) {
        throw ParameterError("model", "give one or two model files");
    }
    if (modelPaths.isEmpty() == data2Path.isEmpty()) {
        throw ParameterError("model", "give --model FILE [--model FILE], or --data2 FILE");
    }
    if (!data2Path.isEmpty()) {
        ctx.input(data2Path, "--data2");
        return twoSamples(o, dataPath, data2Path, ctx);
    }
    std::vector<LoadedModel> models;
    for (const QString& path : modelPaths) {
        ctx.input(path, "--model");
        LoadedModel m;
        m.path = path;
        m.saved = io::loadModel(path.toStdString());
        m.model = io::toDensityModel(m.saved, path.toStdString(), "model");
        if (!models.empty() && (m.saved.columns != models.front().saved.columns ||
                                !sameScaler(m.saved.scaler, models.front().saved.scaler))) {
            throw ParameterError("model", "'" + path.toStdString() +
                                              "' was fitted on other columns or scaled "
                                              "differently than the first model: MMDs between "
                                              "them would compare different spaces");
        }
        models.push_back(std::move(m));
    }
    std::vector<std::string> warnings;
    const Dataset raw = loadMatching(dataPath, o.text(QStringLiteral("label-column")),
                                     models.front().saved.columns, &warnings);
    ctx.warn(warnings);
    const Matrix x = applyToOther(models.front().saved.scaler, raw);
    MmdOptions options = mmdOptions(o);
    options.bandwidth =
        options.bandwidth > 0.0 ? options.bandwidth : medianPairwiseDistance(x, options.seed);
    QJsonArray rows;
    auto name = [&](size_t i) {
        return QStringLiteral("%1 (%2)").arg(
            models.size() > 1 ? QStringLiteral("model %1").arg(i + 1) : QStringLiteral("model"),
            QString::fromStdString(models[i].model->estimator()));
    };
    for (size_t i = 0; i < models.size(); ++i) {
        rows.append(
            row(QStringLiteral("data"), name(i),
                mmd(MmdMeasure::ofSample(x), MmdMeasure::ofModel(*models[i].model), x, options)));
    }
    if (models.size() == 2) {
        rows.append(row(name(0), name(1),
                        mmd(MmdMeasure::ofModel(*models[0].model),
                            MmdMeasure::ofModel(*models[1].model), x, options)));
    }
    for (const QJsonValue& r : rows) {
        printRow(ctx.out(), r.toObject());
    }
    QJsonObject summary;
    summary[QStringLiteral("bandwidth")] = options.bandwidth;
    summary[QStringLiteral("bandwidth_rule")] =
        o.has(QStringLiteral("bandwidth")) ? QStringLiteral("given") : QStringLiteral("median");
    summary[QStringLiteral("space")] = QStringLiteral("the model's scaled coordinates");
    summary[QStringLiteral("n_data")] = static_cast<int>(raw.rows());
    summary[QStringLiteral("results")] = rows;
    summary[QStringLiteral("seed")] = QString::number(options.seed);
    ctx.finish(summary);
    return ExitOk;
}

} // namespace sosrep::cli
