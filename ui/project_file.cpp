// SPDX-License-Identifier: MIT
#include "ui/project_file.h"

#include "ui/controller/estimation_controller.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>

namespace sosrep::ui {
namespace {

const char* kFormat = "sosrep-studio-project";

QString sha256Of(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        return {};
    }
    QCryptographicHash h(QCryptographicHash::Sha256);
    h.addData(&f);
    return QString::fromLatin1(h.result().toHex());
}

QJsonObject settingsToJson(const ModelSettings& s)
{
    QJsonObject o;
    o[QStringLiteral("estimator")] = QString::fromStdString(toString(s.estimator));
    o[QStringLiteral("kernel")] = QString::fromStdString(toString(s.kernel));
    o[QStringLiteral("length_scale")] = s.lengthScale;
    o[QStringLiteral("auto_length_scale")] = s.autoLengthScale;
    o[QStringLiteral("selection")] = QString::fromStdString(toString(s.selection));
    o[QStringLiteral("sdo_order")] = s.sdoOrder;
    o[QStringLiteral("features")] = s.features;
    o[QStringLiteral("sdo_method")] = QString::fromStdString(toString(s.sdoMethod));
    o[QStringLiteral("solver")] = QString::fromStdString(toString(s.solver));
    o[QStringLiteral("learning_rate")] = s.learningRate;
    o[QStringLiteral("iterations")] = s.iterations;
    o[QStringLiteral("seed")] = QString::number(s.seed); // 64-bit: a string keeps every digit
    o[QStringLiteral("scaling")] = QString::fromStdString(toString(s.scaling));
    return o;
}

ModelSettings settingsFromJson(const QJsonObject& o)
{
    // Each *FromString throws ParameterError on an unknown name; the caller reports it.
    ModelSettings s;
    s.estimator = estimatorKindFromString(o[QStringLiteral("estimator")].toString().toStdString());
    s.kernel = kernelTypeFromString(o[QStringLiteral("kernel")].toString().toStdString());
    s.lengthScale = o[QStringLiteral("length_scale")].toDouble(s.lengthScale);
    s.autoLengthScale = o[QStringLiteral("auto_length_scale")].toBool(s.autoLengthScale);
    s.selection = selectionRuleFromString(o[QStringLiteral("selection")].toString().toStdString());
    s.sdoOrder = o[QStringLiteral("sdo_order")].toInt(s.sdoOrder);
    s.features = o[QStringLiteral("features")].toInt(s.features);
    s.sdoMethod = sdoMethodFromString(
        o[QStringLiteral("sdo_method")].toString(QStringLiteral("rff")).toStdString());
    s.solver = solverKindFromString(o[QStringLiteral("solver")].toString().toStdString());
    s.learningRate = o[QStringLiteral("learning_rate")].toDouble(s.learningRate);
    s.iterations = o[QStringLiteral("iterations")].toInt(s.iterations);
    s.seed = o[QStringLiteral("seed")].toString().toULongLong();
    s.scaling = scalingKindFromString(o[QStringLiteral("scaling")].toString().toStdString());
    return s;
}

} // namespace

QString saveProject(const QString& path, const EstimationController& c)
{
    if (!c.hasData()) {
        return QStringLiteral("%1: nothing to save: no data loaded").arg(path);
    }
    QJsonObject root;
    root[QStringLiteral("format")] = QString::fromLatin1(kFormat);
    root[QStringLiteral("version")] = 1;
    QJsonObject data;
    if (c.toyConfig()) {
        QJsonObject toy;
        toy[QStringLiteral("kind")] = QString::fromStdString(toString(c.toyConfig()->kind));
        toy[QStringLiteral("n")] = c.toyConfig()->n;
        toy[QStringLiteral("seed")] = QString::number(c.toyConfig()->seed);
        data[QStringLiteral("toy")] = toy;
    } else {
        data[QStringLiteral("path")] = c.dataSource();
        data[QStringLiteral("sha256")] = sha256Of(c.dataSource());
    }
    QJsonArray roles;
    for (ColumnRole r : c.columnRoles()) {
        roles.append(r == ColumnRole::Feature ? QStringLiteral("feature")
                     : r == ColumnRole::Label ? QStringLiteral("label")
                                              : QStringLiteral("ignore"));
    }
    data[QStringLiteral("roles")] = roles;
    data[QStringLiteral("plot_x")] = c.plotX();
    data[QStringLiteral("plot_y")] = c.plotY();
    root[QStringLiteral("data")] = data;
    root[QStringLiteral("model")] = settingsToJson(c.settings());
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(QJsonDocument(root).toJson()) < 0 ||
        !file.commit()) {
        return QStringLiteral("%1: cannot write project (%2)").arg(path, file.errorString());
    }
    return {};
}

ProjectOpenResult openProject(const QString& path, EstimationController& c)
{
    ProjectOpenResult out;
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        out.error = QStringLiteral("%1: cannot open project file").arg(path);
        return out;
    }
    QJsonParseError pe;
    const QJsonDocument doc = QJsonDocument::fromJson(f.readAll(), &pe);
    if (doc.isNull()) {
        out.error = QStringLiteral("%1: invalid JSON at byte %2: %3")
                        .arg(path)
                        .arg(pe.offset)
                        .arg(pe.errorString());
        return out;
    }
    const QJsonObject root = doc.object();
    if (root[QStringLiteral("format")].toString() != QLatin1String(kFormat) ||
        root[QStringLiteral("version")].toInt() != 1) {
        out.error = QStringLiteral("%1: not a SOSREP Studio project (version 1)").arg(path);
        return out;
    }
    ModelSettings settings;
    try {
        settings = settingsFromJson(root[QStringLiteral("model")].toObject());
    } catch (const std::exception& e) {
        out.error = QStringLiteral("%1: bad model settings: %2")
                        .arg(path, QString::fromStdString(e.what()));
        return out;
    }
    const QJsonObject data = root[QStringLiteral("data")].toObject();
    // Settings first: scaling applies when the data's features are built.
    c.setSettings(settings);
    if (data.contains(QStringLiteral("toy"))) {
        const QJsonObject toy = data[QStringLiteral("toy")].toObject();
        try {
            c.generateToy(toyKindFromString(toy[QStringLiteral("kind")].toString().toStdString()),
                          toy[QStringLiteral("n")].toInt(),
                          toy[QStringLiteral("seed")].toString().toULongLong());
        } catch (const std::exception& e) {
            out.error = QStringLiteral("%1: bad toy data settings: %2")
                            .arg(path, QString::fromStdString(e.what()));
            return out;
        }
    } else {
        QString dataPath = data[QStringLiteral("path")].toString();
        if (QFileInfo(dataPath).isRelative()) {
            dataPath = QFileInfo(path).absoluteDir().filePath(dataPath);
        }
        if (!c.loadFile(dataPath)) {
            out.error =
                QStringLiteral("%1: its data file %2 could not be loaded").arg(path, dataPath);
            return out;
        }
        if (sha256Of(dataPath) != data[QStringLiteral("sha256")].toString()) {
            out.warning =
                QStringLiteral("%1 has changed since the project was saved (SHA-256 differs)")
                    .arg(dataPath);
        }
    }
    QVector<ColumnRole> roles;
    for (const QJsonValue& r : data[QStringLiteral("roles")].toArray()) {
        roles << (r.toString() == QLatin1String("label")    ? ColumnRole::Label
                  : r.toString() == QLatin1String("ignore") ? ColumnRole::Ignore
                                                            : ColumnRole::Feature);
    }
    if (roles.size() == c.columnRoles().size()) {
        c.setColumnRoles(roles);
    } else if (out.warning.isEmpty()) {
        out.warning =
            QStringLiteral("the data's columns differ from the project's; default roles used");
    }
    const int nf = int(c.features().cols());
    const int px = data[QStringLiteral("plot_x")].toInt();
    const int py = data[QStringLiteral("plot_y")].toInt();
    if (px < nf && py < nf) {
        c.setPlotColumns(px, py);
    }
    return out;
}

} // namespace sosrep::ui
