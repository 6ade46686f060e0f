// SPDX-License-Identifier: MIT
#include "app/cli/model_file.h"

#include "app/cli/table_writer.h"
#include "core/errors.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>

namespace sosrep::cli {
namespace {

QJsonArray toJson(const Vector& v)
{
    QJsonArray a;
    for (Eigen::Index i = 0; i < v.size(); ++i) {
        a.append(v(i));
    }
    return a;
}

Vector vectorFromJson(const QJsonValue& value, const QString& path, const char* key)
{
    const QJsonArray a = value.toArray();
    Vector v(a.size());
    for (int i = 0; i < a.size(); ++i) {
        if (!a[i].isDouble()) {
            throw DataError(path.toStdString(), 0, 0,
                            std::string("model field '") + key + "' must hold numbers");
        }
        v(i) = a[i].toDouble();
    }
    return v;
}

} // namespace

void saveModel(const QString& path, const SavedModel& m)
{
    QJsonObject root;
    root[QStringLiteral("format")] = QStringLiteral("sosrep-model");
    root[QStringLiteral("version")] = 1;
    root[QStringLiteral("estimator")] = QString::fromStdString(toString(m.estimator));
    QJsonObject k;
    k[QStringLiteral("type")] = QString::fromStdString(toString(m.kernel.type));
    k[QStringLiteral("length_scale")] = m.kernel.lengthScale;
    k[QStringLiteral("sdo_order")] = m.kernel.sdoOrder;
    k[QStringLiteral("features")] = m.kernel.features;
    k[QStringLiteral("sdo_method")] = QString::fromStdString(toString(m.kernel.sdoMethod));
    k[QStringLiteral("backend")] = QString::fromStdString(toString(m.kernel.backend));
    k[QStringLiteral("rank")] = m.kernel.rank;
    k[QStringLiteral("feature_seed")] = QString::number(m.kernel.seed);
    root[QStringLiteral("kernel")] = k;
    QJsonObject s;
    s[QStringLiteral("kind")] = QString::fromStdString(toString(m.scaler.kind));
    s[QStringLiteral("shift")] = toJson(m.scaler.shift);
    s[QStringLiteral("scale")] = toJson(m.scaler.scale);
    root[QStringLiteral("scaler")] = s;
    QJsonArray cols;
    for (const auto& c : m.columns) {
        cols.append(QString::fromStdString(c));
    }
    root[QStringLiteral("columns")] = cols;
    QJsonArray train;
    for (Eigen::Index i = 0; i < m.train.rows(); ++i) {
        train.append(toJson(m.train.row(i).transpose()));
    }
    root[QStringLiteral("train")] = train;
    root[QStringLiteral("weights")] = toJson(m.weights);
    root[QStringLiteral("provenance")] = m.provenance;
    const QByteArray bytes = QJsonDocument(root).toJson(QJsonDocument::Compact);
    writeTextFileAtomically(path, [&](QTextStream& ts) { ts << bytes << '\n'; });
}

SavedModel loadModel(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        throw DataError(path.toStdString(), 0, 0, "cannot open model file");
    }
    const QByteArray bytes = f.readAll();
    QJsonParseError pe;
    const QJsonDocument doc = QJsonDocument::fromJson(bytes, &pe);
    if (doc.isNull()) {
        // Report the byte offset as line and column.
        const QByteArray head = bytes.left(pe.offset);
        const long line = head.count('\n') + 1;
        const long col = pe.offset - (head.lastIndexOf('\n') + 1) + 1;
        throw DataError(path.toStdString(), line, col,
                        "invalid JSON: " + pe.errorString().toStdString());
    }
    const QJsonObject root = doc.object();
    if (root[QStringLiteral("format")].toString() != QLatin1String("sosrep-model")) {
        throw DataError(path.toStdString(), 0, 0,
                        "not a sosrep model file (missing \"format\": \"sosrep-model\")");
    }
    if (root[QStringLiteral("version")].toInt() != 1) {
        throw DataError(path.toStdString(), 0, 0, "unsupported model file version");
    }
    SavedModel m;
    try {
        m.estimator =
            estimatorKindFromString(root[QStringLiteral("estimator")].toString().toStdString());
        const QJsonObject k = root[QStringLiteral("kernel")].toObject();
        m.kernel.type = kernelTypeFromString(k[QStringLiteral("type")].toString().toStdString());
        m.kernel.lengthScale = k[QStringLiteral("length_scale")].toDouble();
        m.kernel.sdoOrder = k[QStringLiteral("sdo_order")].toInt();
        m.kernel.features = k[QStringLiteral("features")].toInt();
        m.kernel.sdoMethod = sdoMethodFromString(
            k[QStringLiteral("sdo_method")].toString(QStringLiteral("rff")).toStdString());
        m.kernel.backend = backendChoiceFromString(
            k[QStringLiteral("backend")].toString(QStringLiteral("auto")).toStdString());
        m.kernel.rank = k[QStringLiteral("rank")].toInt(1000);
        m.kernel.seed = k[QStringLiteral("feature_seed")].toString().toULongLong();
        const QJsonObject s = root[QStringLiteral("scaler")].toObject();
        m.scaler.kind = scalingKindFromString(s[QStringLiteral("kind")].toString().toStdString());
    } catch (const ParameterError& e) {
        throw DataError(path.toStdString(), 0, 0, std::string("bad model field ") + e.what());
    }
    const QJsonObject s = root[QStringLiteral("scaler")].toObject();
    m.scaler.shift = vectorFromJson(s[QStringLiteral("shift")], path, "scaler.shift");
    m.scaler.scale = vectorFromJson(s[QStringLiteral("scale")], path, "scaler.scale");
    for (const QJsonValue& c : root[QStringLiteral("columns")].toArray()) {
        m.columns.push_back(c.toString().toStdString());
    }
    const QJsonArray train = root[QStringLiteral("train")].toArray();
    const auto d = static_cast<Eigen::Index>(m.columns.size());
    m.train.resize(train.size(), d);
    for (int i = 0; i < train.size(); ++i) {
        const Vector row = vectorFromJson(train[i], path, "train");
        if (row.size() != d) {
            throw DataError(path.toStdString(), 0, 0,
                            "model field 'train' has a row of the wrong width");
        }
        m.train.row(i) = row.transpose();
    }
    m.weights = vectorFromJson(root[QStringLiteral("weights")], path, "weights");
    if (m.weights.size() != m.train.rows() || m.train.rows() < 1 || m.scaler.shift.size() != d ||
        m.scaler.scale.size() != d) {
        throw DataError(path.toStdString(), 0, 0,
                        "model file is inconsistent (sizes of train, weights, scaler)");
    }
    m.provenance = root[QStringLiteral("provenance")].toObject();
    return m;
}

DensityModel toDensityModel(const SavedModel& m)
{
    DensityModel dm;
    dm.estimator = m.estimator;
    dm.kernel = std::make_shared<const KernelOperator>(m.train, m.kernel);
    dm.weights = m.weights;
    return dm;
}

} // namespace sosrep::cli
