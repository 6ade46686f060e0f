// SPDX-License-Identifier: MIT
#include "ui/io/model_file.h"

#include "core/data/file_bytes.h"
#include "core/errors.h"
#include "core/estimators/common_options.h"
#include "core/estimators/registry.h"
#include "core/kernels/kernel_operator.h"
#include "core/pipeline/fit_route.h"
#include "core/tuning/rank_ensemble.h"
#include "core/util/text.h"
#include "ui/io/json_text.h"
#include "ui/io/settings_json.h"

#include <QJsonArray>
#include <QJsonDocument>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <optional>

namespace sosrep::io {
namespace {

const char* kFormat = "sosrep-model";
constexpr int kVersion = 2;

QJsonArray toJson(const Vector& v)
{
    QJsonArray a;
    for (Eigen::Index i = 0; i < v.size(); ++i) {
        a.append(v(i));
    }
    return a;
}

QJsonArray toJson(const Matrix& m)
{
    QJsonArray rows;
    for (Eigen::Index i = 0; i < m.rows(); ++i) {
        rows.append(toJson(Vector(m.row(i).transpose())));
    }
    return rows;
}

DataError fieldError(const QString& path, const std::string& field, const std::string& what)
{
    return DataError(path.toStdString(), 0, 0, "model field '" + field + "' " + what);
}

Vector vectorFromJson(const QJsonValue& value, const QString& path, const std::string& key)
{
    if (!value.isArray()) {
        throw fieldError(path, key, "must be an array of numbers");
    }
    const QJsonArray a = value.toArray();
    Vector v(a.size());
    for (int i = 0; i < a.size(); ++i) {
        if (!a[i].isDouble() || !std::isfinite(a[i].toDouble())) {
            throw fieldError(path, key, "must hold finite numbers");
        }
        v(i) = a[i].toDouble();
    }
    return v;
}

/// A table of numbers: an array of equally long arrays.
Matrix matrixFromJson(const QJsonArray& rows, const QString& path, const std::string& key)
{
    const Eigen::Index cols = rows.isEmpty() ? 0 : rows.first().toArray().size();
    Matrix m(rows.size(), cols);
    for (int i = 0; i < rows.size(); ++i) {
        const Vector row = vectorFromJson(rows[i], path, key);
        if (row.size() != cols) {
            throw fieldError(path, key, "has rows of different lengths");
        }
        m.row(i) = row.transpose();
    }
    return m;
}

QJsonObject kernelToJson(const KernelSpec& k)
{
    QJsonObject o;
    o[QStringLiteral("type")] = QString::fromStdString(toString(k.type));
    o[QStringLiteral("length_scale")] = k.lengthScale;
    o[QStringLiteral("sdo_order")] = k.sdoOrder;
    o[QStringLiteral("features")] = k.features;
    o[QStringLiteral("sdo_method")] = QString::fromStdString(toString(k.sdoMethod));
    o[QStringLiteral("backend")] = QString::fromStdString(toString(k.backend));
    o[QStringLiteral("rank")] = k.rank;
    o[QStringLiteral("feature_seed")] = QString::number(k.seed);
    return o;
}

/// Strict readers of one object's fields. A wrong type, a fraction where an integer belongs or
/// a value out of range refuses the file naming the field: reading "500" or 2.5 or 1e12 as some
/// default would make `score` disagree with `fit` and still exit 0. A field that is absent
/// takes `fallback` when there is one (files written before the field existed).
class StrictFields
{
public:
    StrictFields(const QJsonObject& o, const QString& path, std::string prefix)
        : m_o(o), m_path(path), m_prefix(std::move(prefix))
    {
    }
    double number(const char* key, std::optional<double> fallback = std::nullopt) const
    {
        const QJsonValue v = present(key, fallback.has_value());
        if (v.isUndefined()) {
            return *fallback;
        }
        if (!v.isDouble() || !std::isfinite(v.toDouble())) {
            throw fieldError(m_path, m_prefix + key, "must be a finite number");
        }
        return v.toDouble();
    }
    int integer(const char* key, std::optional<int> fallback = std::nullopt) const
    {
        const QJsonValue v = present(key, fallback.has_value());
        if (v.isUndefined()) {
            return *fallback;
        }
        const double d = v.toDouble();
        if (!v.isDouble() || d != std::floor(d) || std::fabs(d) > 2147483647.0) {
            throw fieldError(m_path, m_prefix + key,
                             "must be an integer of at most 2147483647, got " + shown(v));
        }
        return int(d);
    }
    std::string text(const char* key, std::optional<std::string> fallback = std::nullopt) const
    {
        const QJsonValue v = present(key, fallback.has_value());
        if (v.isUndefined()) {
            return *fallback;
        }
        if (!v.isString()) {
            throw fieldError(m_path, m_prefix + key, "must be a text");
        }
        return v.toString().toStdString();
    }
    /// A 64-bit seed, written as a decimal text (JSON numbers lose digits above 2^53); a
    /// hand-written whole number up to 2^53 is taken as well.
    uint64_t seed(const char* key) const
    {
        const QJsonValue v = m_o.value(QLatin1String(key));
        if (v.isDouble() && v.toDouble() >= 0.0 && v.toDouble() <= 9007199254740992.0 &&
            v.toDouble() == std::floor(v.toDouble())) {
            return uint64_t(v.toDouble());
        }
        const std::string t = v.isDouble() ? numberText(v.toDouble()) : text(key, std::string("0"));
        uint64_t s = 0;
        const auto r = std::from_chars(t.data(), t.data() + t.size(), s);
        if (t.empty() || r.ec != std::errc() || r.ptr != t.data() + t.size()) {
            throw fieldError(m_path, m_prefix + key,
                             "must be a non-negative integer below 2^64 in decimal digits, got " +
                                 quoted(t));
        }
        return s;
    }

private:
    static std::string shown(const QJsonValue& v)
    {
        if (v.isDouble()) {
            return numberText(v.toDouble());
        }
        if (v.isString()) {
            return "the text " + quoted(v.toString().toStdString());
        }
        return v.isBool()    ? "a boolean"
               : v.isNull()  ? "null"
               : v.isArray() ? "an array"
                             : "an object";
    }
    QJsonValue present(const char* key, bool optional) const
    {
        const QJsonValue v = m_o.value(QLatin1String(key));
        if (v.isUndefined() && !optional) {
            throw fieldError(m_path, m_prefix + key, "is missing");
        }
        return v;
    }
    const QJsonObject& m_o;
    const QString& m_path;
    std::string m_prefix;
};

KernelSpec kernelFromJson(const QJsonObject& k, const QString& path, int dim)
{
    KernelSpec spec;
    const StrictFields f(k, path, "kernel.");
    try {
        spec.type = kernelTypeFromString(f.text("type"));
        spec.lengthScale = f.number("length_scale");
        spec.sdoOrder = f.integer("sdo_order", 0);
        spec.features = f.integer("features", spec.features);
        spec.sdoMethod = sdoMethodFromString(f.text("sdo_method", std::string("rff")));
        spec.backend = backendChoiceFromString(f.text("backend", std::string("auto")));
        spec.rank = f.integer("rank", spec.rank);
        spec.seed = f.seed("feature_seed");
        spec.validate(dim);
    } catch (const ParameterError& e) {
        // The kernel option "kernel" is the file's kernel.type.
        throw fieldError(path, "kernel." + (e.parameter() == "kernel" ? "type" : e.parameter()),
                         e.message());
    }
    return spec;
}

Scaler scalerFromJson(const QJsonObject& s, const QString& path, Eigen::Index dim)
{
    Scaler scaler;
    try {
        scaler.kind = scalingKindFromString(s[QStringLiteral("kind")].toString().toStdString());
    } catch (const ParameterError& e) {
        throw fieldError(path, "scaler.kind", e.message());
    }
    scaler.shift = vectorFromJson(s[QStringLiteral("shift")], path, "scaler.shift");
    scaler.scale = vectorFromJson(s[QStringLiteral("scale")], path, "scaler.scale");
    if (scaler.shift.size() != dim || scaler.scale.size() != dim) {
        throw fieldError(path, "scaler", "must hold one shift and one scale per column");
    }
    if (!(scaler.scale.array() > 0.0).all()) {
        throw fieldError(path, "scaler.scale",
                         "must hold positive numbers (a zero scale would divide by zero)");
    }
    return scaler;
}

ParameterMap parametersFromJson(const QJsonObject& o, const QString& path)
{
    ParameterMap p;
    for (auto it = o.begin(); it != o.end(); ++it) {
        const std::string key = "parameters." + it.key().toStdString();
        if (it->isDouble()) {
            p.set(it.key().toStdString(), it->toDouble());
        } else if (it->isString()) {
            p.set(it.key().toStdString(), it->toString().toStdString());
        } else if (it->isArray()) {
            const QJsonArray a = it->toArray();
            if (!a.isEmpty() && a.first().isArray()) {
                p.set(it.key().toStdString(), matrixFromJson(a, path, key));
            } else {
                p.set(it.key().toStdString(), vectorFromJson(*it, path, key));
            }
        } else {
            throw fieldError(path, key, "must be a number, a text or an array");
        }
    }
    return p;
}

QJsonObject parametersToJson(const ParameterMap& p)
{
    QJsonObject o;
    for (const auto& [key, value] : p.entries()) {
        const QString k = QString::fromStdString(key);
        if (const double* d = std::get_if<double>(&value)) {
            o[k] = *d;
        } else if (const std::string* s = std::get_if<std::string>(&value)) {
            o[k] = QString::fromStdString(*s);
        } else if (const Vector* v = std::get_if<Vector>(&value)) {
            o[k] = toJson(*v);
        } else {
            o[k] = toJson(std::get<Matrix>(value));
        }
    }
    return o;
}

/// Version 1 (before the estimator plug-ins): estimator, kernel, train and weights at the top.
void readVersion1(const QJsonObject& root, SavedModel& m, const QString& path)
{
    try {
        m.settings =
            FitSettings::defaults(root[QStringLiteral("estimator")].toString().toStdString());
    } catch (const ParameterError& e) {
        throw fieldError(path, "estimator", e.message());
    }
    const QJsonArray train = root[QStringLiteral("train")].toArray();
    m.parameters.set("train", matrixFromJson(train, path, "train"));
    m.parameters.set("weights", vectorFromJson(root[QStringLiteral("weights")], path, "weights"));
}

} // namespace

SavedModel savedModelOf(const FittedModel& model, const FitSettings& settings, const Scaler& scaler,
                        const std::vector<std::string>& columns, const QJsonObject& provenance)
{
    SavedModel m;
    m.settings = settings;
    if (model.kernel()) {
        m.kernel = model.kernel()->spec();
    }
    m.scaler = scaler;
    m.columns = columns;
    model.save(m.parameters);
    m.provenance = provenance;
    return m;
}

QByteArray modelJson(const SavedModel& m)
{
    QJsonObject root;
    root[QStringLiteral("format")] = QString::fromLatin1(kFormat);
    root[QStringLiteral("version")] = kVersion;
    root[QStringLiteral("estimator")] = QString::fromStdString(m.settings.estimator);
    root[QStringLiteral("settings")] = settingsToJson(m.settings);
    if (m.kernel) {
        root[QStringLiteral("kernel")] = kernelToJson(*m.kernel);
    }
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
    root[QStringLiteral("parameters")] = parametersToJson(m.parameters);
    root[QStringLiteral("provenance")] = m.provenance;
    root[QStringLiteral("log_value_units")] = QStringLiteral("data");
    return QJsonDocument(root).toJson(QJsonDocument::Compact) + '\n';
}

SavedModel parseModel(const QByteArray& bytes, const QString& path)
{
    const QJsonObject root = parseJsonObject(bytes, path);
    if (root[QStringLiteral("format")].toString() != QLatin1String(kFormat)) {
        throw DataError(path.toStdString(), 0, 0,
                        "not a sosrep model file (missing \"format\": \"sosrep-model\")");
    }
    const int version = root[QStringLiteral("version")].toInt();
    if (version != 1 && version != kVersion) {
        throw DataError(path.toStdString(), 0, 0,
                        "unsupported model file version (this build reads 1 and 2)");
    }
    SavedModel m;
    for (const QJsonValue& c : root[QStringLiteral("columns")].toArray()) {
        // Scoring matches a file's columns by name: a nameless or repeated one would match
        // the wrong data column.
        const std::string name = c.toString().toStdString();
        if (!c.isString() || name.empty()) {
            throw fieldError(path, "columns", "must be non-empty texts");
        }
        if (std::find(m.columns.begin(), m.columns.end(), name) != m.columns.end()) {
            throw fieldError(path, "columns", "names " + quoted(name) + " twice");
        }
        m.columns.push_back(name);
    }
    const auto d = static_cast<Eigen::Index>(m.columns.size());
    if (d < 1) {
        throw fieldError(path, "columns", "must name at least one column");
    }
    if (version == 1) {
        readVersion1(root, m, path);
    } else {
        m.settings = settingsFromJson(root[QStringLiteral("settings")].toObject(), path,
                                      QStringLiteral("settings"));
        if (root[QStringLiteral("estimator")].toString().toStdString() != m.settings.estimator) {
            throw fieldError(path, "estimator", "disagrees with settings.estimator");
        }
        m.parameters = parametersFromJson(root[QStringLiteral("parameters")].toObject(), path);
    }
    const Estimator& estimator = EstimatorRegistry::instance().get(m.settings.estimator);
    if (estimator.capabilities().usesKernel) {
        m.kernel = kernelFromJson(root[QStringLiteral("kernel")].toObject(), path, int(d));
    }
    m.scaler = scalerFromJson(root[QStringLiteral("scaler")].toObject(), path, d);
    m.provenance = root[QStringLiteral("provenance")].toObject();
    const QJsonValue units = root[QStringLiteral("log_value_units")];
    if (!units.isUndefined() && units != QJsonValue(QStringLiteral("data"))) {
        throw fieldError(path, "log_value_units", "must be \"data\" (or absent, in older files)");
    }
    m.logValuesInDataUnits = !units.isUndefined();
    return m;
}

SavedModel loadModel(const QString& path)
{
    const std::vector<unsigned char> bytes = readFileBytes(path.toStdString(), uint64_t(1) << 31);
    return parseModel(
        QByteArray(reinterpret_cast<const char*>(bytes.data()), qsizetype(bytes.size())), path);
}

std::unique_ptr<FittedModel> toModel(const SavedModel& m, const QString& source)
{
    const Estimator& estimator = EstimatorRegistry::instance().get(m.settings.estimator);
    try {
        std::unique_ptr<FittedModel> model =
            RankEnsembleModel::isEnsemble(m.parameters) && m.kernel
                ? RankEnsembleModel::load(estimator, m.parameters, *m.kernel)
                : estimator.load(m.parameters, m.kernel ? &*m.kernel : nullptr);
        if (model->kernel() && model->kernel()->dim() != static_cast<int>(m.columns.size())) {
            throw ParameterError("train", "has " + std::to_string(model->kernel()->dim()) +
                                              " columns, the file names " +
                                              std::to_string(m.columns.size()));
        }
        model->setDataUnits(m.scaler);
        return model;
    } catch (const ParameterError& e) {
        const auto& k = kernelOptions();
        const bool kernelField = std::any_of(
            k.begin(), k.end(), [&](const OptionSpec& o) { return o.name == e.parameter(); });
        // The kernel option "kernel" is the file's kernel.type.
        const std::string field = e.parameter() == "kernel" ? std::string("type") : e.parameter();
        throw fieldError(source, (kernelField ? "kernel." : "parameters.") + field, e.message());
    }
}

std::unique_ptr<FittedModel> toDensityModel(const SavedModel& m, const QString& source,
                                            const std::string& flag)
{
    std::unique_ptr<FittedModel> model = toModel(m, source);
    const DensityKind kind = model->kind();
    if (kind == DensityKind::Ratio || kind == DensityKind::Score) {
        throw ParameterError(flag, quoted(source.toStdString()) + " holds a " + toString(kind) +
                                       " (" + m.settings.estimator + "), not a density");
    }
    return model;
}

QJsonObject outlierThresholdJson(const OutlierThreshold& t)
{
    QJsonObject o;
    o[QStringLiteral("contamination")] = t.contamination;
    o[QStringLiteral("offset")] = t.offset;
    o[QStringLiteral("held_out_rows")] = t.heldOutRows;
    o[QStringLiteral("method")] = QString::fromStdString(t.method);
    return o;
}

std::optional<OutlierThreshold> savedOutlierThreshold(const SavedModel& m,
                                                      const FittedModel& fitted)
{
    const QJsonObject o = m.provenance[QStringLiteral("outlier_threshold")].toObject();
    const QJsonValue c = o[QStringLiteral("contamination")];
    const QJsonValue offset = o[QStringLiteral("offset")];
    if (!c.isDouble() || !offset.isDouble() || !std::isfinite(offset.toDouble())) {
        return std::nullopt;
    }
    OutlierThreshold t;
    t.contamination = c.toDouble();
    t.offset = offset.toDouble() + (m.logValuesInDataUnits ? 0.0 : fitted.logUnitShift());
    t.heldOutRows = o[QStringLiteral("held_out_rows")].toInt();
    t.method = o[QStringLiteral("method")].toString(QStringLiteral("training rows")).toStdString();
    return t;
}

QJsonObject fitProvenance(const FitSettings& settings, const FitOutcome& fit,
                          const std::string& trainSource, const std::vector<std::string>& warnings)
{
    QJsonObject prov;
    prov[QStringLiteral("seed")] = QString::fromStdString(settings.values.text("seed"));
    prov[QStringLiteral("train_file")] = QString::fromStdString(trainSource);
    if (fit.search) {
        prov[QStringLiteral("purpose")] = QString::fromStdString(fit.purpose);
        prov[QStringLiteral("selection_rule")] = QString::fromStdString(fit.rule);
        prov[QStringLiteral("selection_reason")] =
            QString::fromStdString(fit.search->selection.reason);
    }
    if (!warnings.empty()) { // absent when there is nothing to say: older files read the same
        QJsonArray list;
        for (const std::string& w : warnings) {
            list.append(QString::fromStdString(w));
        }
        prov[QStringLiteral("fit_warnings")] = list;
    }
    return prov;
}

std::vector<std::string> savedFitWarnings(const SavedModel& m)
{
    std::vector<std::string> out;
    for (const QJsonValue& v : m.provenance[QStringLiteral("fit_warnings")].toArray()) {
        if (v.isString()) {
            out.push_back(v.toString().toStdString());
        }
    }
    return out;
}

} // namespace sosrep::io
