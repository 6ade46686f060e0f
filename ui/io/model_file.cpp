// SPDX-License-Identifier: MIT
#include "ui/io/model_file.h"

#include "core/data/file_bytes.h"
#include "core/errors.h"
#include "ui/io/json_text.h"

#include <QJsonArray>
#include <QJsonDocument>

#include <cmath>

namespace sosrep::io {
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
    if (!value.isArray()) {
        throw DataError(path.toStdString(), 0, 0,
                        std::string("model field '") + key + "' must be an array of numbers");
    }
    const QJsonArray a = value.toArray();
    Vector v(a.size());
    for (int i = 0; i < a.size(); ++i) {
        if (!a[i].isDouble() || !std::isfinite(a[i].toDouble())) {
            throw DataError(path.toStdString(), 0, 0,
                            std::string("model field '") + key + "' must hold finite numbers");
        }
        v(i) = a[i].toDouble();
    }
    return v;
}

/// Reads the kernel and scaler fields; ParameterErrors (unknown names, values out of range)
/// become DataErrors naming the file and the field.
void readHeader(const QJsonObject& root, SavedModel& m, const QString& path)
{
    try {
        m.estimator =
            estimatorKindFromString(root[QStringLiteral("estimator")].toString().toStdString());
        const QJsonObject k = root[QStringLiteral("kernel")].toObject();
        m.kernel.type = kernelTypeFromString(k[QStringLiteral("type")].toString().toStdString());
        m.kernel.lengthScale = k[QStringLiteral("length_scale")].toDouble();
        m.kernel.sdoOrder = k[QStringLiteral("sdo_order")].toInt();
        m.kernel.features = k[QStringLiteral("features")].toInt(2000);
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
    if (m.scaler.scale.size() > 0 && !(m.scaler.scale.array() > 0.0).all()) {
        throw DataError(path.toStdString(), 0, 0,
                        "model field 'scaler.scale' must hold positive numbers (a zero scale "
                        "would divide by zero)");
    }
}

} // namespace

QByteArray modelJson(const SavedModel& m)
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
    return QJsonDocument(root).toJson(QJsonDocument::Compact) + '\n';
}

SavedModel parseModel(const QByteArray& bytes, const QString& path)
{
    const QJsonObject root = parseJsonObject(bytes, path);
    if (root[QStringLiteral("format")].toString() != QLatin1String("sosrep-model")) {
        throw DataError(path.toStdString(), 0, 0,
                        "not a sosrep model file (missing \"format\": \"sosrep-model\")");
    }
    if (root[QStringLiteral("version")].toInt() != 1) {
        throw DataError(path.toStdString(), 0, 0, "unsupported model file version");
    }
    SavedModel m;
    readHeader(root, m, path);
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
    if (d < 1 || m.weights.size() != m.train.rows() || m.train.rows() < 1 ||
        m.scaler.shift.size() != d || m.scaler.scale.size() != d) {
        throw DataError(path.toStdString(), 0, 0,
                        "model file is inconsistent (sizes of columns, train, weights, scaler)");
    }
    try {
        m.kernel.validate(static_cast<int>(d));
    } catch (const ParameterError& e) {
        throw DataError(path.toStdString(), 0, 0, std::string("bad model field ") + e.what());
    }
    m.provenance = root[QStringLiteral("provenance")].toObject();
    return m;
}

SavedModel loadModel(const QString& path)
{
    const std::vector<unsigned char> bytes = readFileBytes(path.toStdString(), uint64_t(1) << 31);
    return parseModel(
        QByteArray(reinterpret_cast<const char*>(bytes.data()), qsizetype(bytes.size())), path);
}

DensityModel toDensityModel(const SavedModel& m, const QString& source)
{
    DensityModel dm;
    dm.estimator = m.estimator;
    try {
        dm.kernel = std::make_shared<const KernelOperator>(m.train, m.kernel);
    } catch (const ParameterError& e) {
        throw DataError(source.toStdString(), 0, 0, std::string("bad model field ") + e.what());
    }
    dm.weights = m.weights;
    return dm;
}

} // namespace sosrep::io
