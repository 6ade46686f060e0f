// SPDX-License-Identifier: MIT
#include "ui/io/project_format.h"

#include "core/errors.h"
#include "ui/io/json_text.h"
#include "ui/io/settings_json.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace sosrep::io {
namespace {

const char* kFormat = "sosrep-studio-project";
constexpr int kVersion = 2;

DataError fieldError(const QString& path, const char* field, const std::string& what)
{
    return DataError(path.toStdString(), 0, 0,
                     std::string("project field '") + field + "' " + what);
}

ToyConfig toyFromJson(const QJsonObject& toy, const QString& path)
{
    ToyConfig c;
    try {
        c.kind = toyKindFromString(toy[QStringLiteral("kind")].toString().toStdString());
    } catch (const ParameterError& e) {
        throw fieldError(path, "data.toy.kind", e.message());
    }
    c.n = toy[QStringLiteral("n")].toInt();
    if (c.n < 1 || c.n > 10000000) {
        throw fieldError(path, "data.toy.n", "must lie in [1, 10000000]");
    }
    bool ok = false;
    c.seed = toy[QStringLiteral("seed")].toString().toULongLong(&ok);
    if (!ok) {
        throw fieldError(path, "data.toy.seed", "must be a non-negative integer (as text)");
    }
    c.anomalyFraction = toy[QStringLiteral("anomalies")].toDouble(0.05);
    if (!(c.anomalyFraction >= 0.0 && c.anomalyFraction <= 1.0)) {
        throw fieldError(path, "data.toy.anomalies", "must lie in [0, 1]");
    }
    return c;
}

} // namespace

QByteArray projectJson(const ProjectData& p)
{
    QJsonObject root;
    root[QStringLiteral("format")] = QString::fromLatin1(kFormat);
    root[QStringLiteral("version")] = kVersion;
    QJsonObject data;
    if (p.toy) {
        QJsonObject toy;
        toy[QStringLiteral("kind")] = QString::fromStdString(toString(p.toy->kind));
        toy[QStringLiteral("n")] = p.toy->n;
        toy[QStringLiteral("seed")] = QString::number(p.toy->seed);
        toy[QStringLiteral("anomalies")] = p.toy->anomalyFraction;
        data[QStringLiteral("toy")] = toy;
    } else {
        data[QStringLiteral("path")] = p.dataPath;
        data[QStringLiteral("sha256")] = p.sha256;
    }
    data[QStringLiteral("roles")] = QJsonArray::fromStringList(p.roles);
    data[QStringLiteral("plot_x")] = p.plotX;
    data[QStringLiteral("plot_y")] = p.plotY;
    root[QStringLiteral("data")] = data;
    root[QStringLiteral("model")] = settingsToJson(p.settings);
    QJsonObject app;
    app[QStringLiteral("max_fit_rows")] = p.maxFitRows;
    app[QStringLiteral("compare_with")] = QString::fromStdString(p.compareWith);
    app[QStringLiteral("optimizer_step")] = p.optimizerStep;
    app[QStringLiteral("optimizer_iterations")] = p.optimizerIterations;
    if (p.contamination > 0.0) { // absent when off: projects without flags read as before
        app[QStringLiteral("contamination")] = p.contamination;
    }
    root[QStringLiteral("app")] = app;
    if (!p.ratio.isEmpty()) {
        root[QStringLiteral("ratio")] = p.ratio;
    }
    if (!p.tuning.isEmpty()) {
        root[QStringLiteral("tuning")] = p.tuning;
    }
    return QJsonDocument(root).toJson();
}

ProjectData parseProject(const QByteArray& bytes, const QString& path)
{
    const QJsonObject root = parseJsonObject(bytes, path);
    if (root[QStringLiteral("format")].toString() != QLatin1String(kFormat) ||
        root[QStringLiteral("version")].toInt() != kVersion) {
        throw DataError(path.toStdString(), 0, 0, "not a SOSREP Studio project (version 2)");
    }
    ProjectData p;
    p.settings =
        settingsFromJson(root[QStringLiteral("model")].toObject(), path, QStringLiteral("model"));
    if (root.contains(QStringLiteral("ratio")) && !root[QStringLiteral("ratio")].isObject()) {
        throw fieldError(path, "ratio", "must be an object");
    }
    p.ratio = root[QStringLiteral("ratio")].toObject();
    if (root.contains(QStringLiteral("tuning")) && !root[QStringLiteral("tuning")].isObject()) {
        throw fieldError(path, "tuning", "must be an object");
    }
    p.tuning = root[QStringLiteral("tuning")].toObject();
    const QJsonObject app = root[QStringLiteral("app")].toObject();
    p.maxFitRows = app[QStringLiteral("max_fit_rows")].toInt(p.maxFitRows);
    if (p.maxFitRows < 0) {
        throw fieldError(path, "app.max_fit_rows", "must not be negative (0 = all rows)");
    }
    p.compareWith = app[QStringLiteral("compare_with")].toString().toStdString();
    // Absent in projects saved before they were kept: the defaults.
    p.optimizerStep = app[QStringLiteral("optimizer_step")].toDouble(p.optimizerStep);
    if (!(p.optimizerStep >= 1e-4 && p.optimizerStep <= 100.0)) {
        throw fieldError(path, "app.optimizer_step", "must be in [0.0001, 100]");
    }
    p.optimizerIterations =
        app[QStringLiteral("optimizer_iterations")].toInt(p.optimizerIterations);
    if (p.optimizerIterations < 1 || p.optimizerIterations > 100000) {
        throw fieldError(path, "app.optimizer_iterations", "must be in [1, 100000]");
    }
    if (app.contains(QStringLiteral("contamination"))) {
        const QJsonValue c = app[QStringLiteral("contamination")];
        p.contamination = c.toDouble(-1.0);
        if (!c.isDouble() || !(p.contamination > 0.0 && p.contamination <= 0.5)) {
            throw fieldError(path, "app.contamination", "must be a number in (0, 0.5]");
        }
    }
    const QJsonObject data = root[QStringLiteral("data")].toObject();
    if (data.contains(QStringLiteral("toy"))) {
        p.toy = toyFromJson(data[QStringLiteral("toy")].toObject(), path);
    } else {
        p.dataPath = data[QStringLiteral("path")].toString();
        if (p.dataPath.isEmpty()) {
            throw fieldError(path, "data.path", "is missing (or use data.toy)");
        }
        if (QFileInfo(p.dataPath).isRelative()) {
            p.dataPath = QFileInfo(path).absoluteDir().filePath(p.dataPath);
        }
        p.sha256 = data[QStringLiteral("sha256")].toString();
    }
    for (const QJsonValue& r : data[QStringLiteral("roles")].toArray()) {
        const QString role = r.toString();
        if (role != QLatin1String("feature") && role != QLatin1String("label") &&
            role != QLatin1String("ignore")) {
            throw fieldError(path, "data.roles", "must hold feature, label or ignore");
        }
        p.roles << role;
    }
    p.plotX = data[QStringLiteral("plot_x")].toInt();
    p.plotY = data[QStringLiteral("plot_y")].toInt();
    if (p.plotX < 0 || p.plotY < 0) {
        throw fieldError(path, "data.plot_x", "and plot_y must not be negative");
    }
    return p;
}

} // namespace sosrep::io
