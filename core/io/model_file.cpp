// SPDX-License-Identifier: MIT
// Model files: what a fit saves (settings, kernel, scaler, columns, parameters, provenance) and
// the strict reading that rebuilds the same model.
#include "core/io/model_file.h"

#include "core/data/file_bytes.h"
#include "core/errors.h"
#include "core/estimators/common_options.h"
#include "core/estimators/registry.h"
#include "core/io/settings_json.h"
#include "core/kernels/kernel_operator.h"
#include "core/pipeline/fit_route.h"
#include "core/pipeline/outlier_threshold.h"
#include "core/tuning/rank_ensemble.h"
#include "core/util/text.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <optional>

namespace sosrep::io {
namespace {

const char* kFormat = "sosrep-model";
/// 1: before the estimator plug-ins; 2: settings and parameters (log values in data units
/// from 2026-11, said by log_value_units); 3: 2 with every field of the data-units era, which a
/// version 3 file must have (its version, not the fields it happens to hold, says what it is).
constexpr int kVersion = 3;

Json toJson(const Vector& v)
{
    Json a = Json::array();
    for (Eigen::Index i = 0; i < v.size(); ++i) {
        a.push_back(v(i));
    }
    return a;
}

Json toJson(const Matrix& m)
{
    Json rows = Json::array();
    for (Eigen::Index i = 0; i < m.rows(); ++i) {
        rows.push_back(toJson(Vector(m.row(i).transpose())));
    }
    return rows;
}

DataError fieldError(const std::string& path, const std::string& field, const std::string& what)
{
    return DataError(path, 0, 0, "model field '" + field + "' " + what);
}

Vector vectorFromJson(const Json& value, const std::string& path, const std::string& key)
{
    if (!value.is_array()) {
        throw fieldError(path, key, "must be an array of numbers");
    }
    Vector v(Eigen::Index(value.size()));
    for (size_t i = 0; i < value.size(); ++i) {
        if (!value[i].is_number() || !std::isfinite(value[i].get<double>())) {
            throw fieldError(path, key, "must hold finite numbers");
        }
        v(Eigen::Index(i)) = value[i].get<double>();
    }
    return v;
}

/// A table of numbers: an array of equally long arrays.
Matrix matrixFromJson(const Json& rows, const std::string& path, const std::string& key)
{
    if (!rows.is_array()) {
        throw fieldError(path, key, "must be an array of arrays of numbers");
    }
    const Eigen::Index cols =
        rows.empty() || !rows[0].is_array() ? 0 : Eigen::Index(rows[0].size());
    Matrix m(Eigen::Index(rows.size()), cols);
    for (size_t i = 0; i < rows.size(); ++i) {
        const Vector row = vectorFromJson(rows[i], path, key);
        if (row.size() != cols) {
            throw fieldError(path, key, "has rows of different lengths");
        }
        m.row(Eigen::Index(i)) = row.transpose();
    }
    return m;
}

Json kernelToJson(const KernelSpec& k)
{
    Json o = Json::object();
    o["type"] = toString(k.type);
    o["length_scale"] = k.lengthScale;
    o["sdo_order"] = k.sdoOrder;
    o["features"] = k.features;
    o["sdo_method"] = toString(k.sdoMethod);
    o["backend"] = toString(k.backend);
    o["rank"] = k.rank;
    o["feature_seed"] = std::to_string(k.seed);
    return o;
}

/// Strict readers of one object's fields. A wrong type, a fraction where an integer belongs or
/// a value out of range refuses the file naming the field: reading "500" or 2.5 or 1e12 as some
/// default would make `score` disagree with `fit` and still exit 0. A field that is absent
/// takes `fallback` when there is one (files written before the field existed).
class StrictFields
{
public:
    StrictFields(const Json& o, const std::string& path, std::string prefix)
        : m_o(o), m_path(path), m_prefix(std::move(prefix))
    {
    }
    double number(const char* key, std::optional<double> fallback = std::nullopt) const
    {
        const Json& v = present(key, fallback.has_value());
        if (v.is_null()) {
            return *fallback;
        }
        if (!v.is_number() || !std::isfinite(v.get<double>())) {
            throw fieldError(m_path, m_prefix + key, "must be a finite number");
        }
        return v.get<double>();
    }
    int integer(const char* key, std::optional<int> fallback = std::nullopt) const
    {
        const Json& v = present(key, fallback.has_value());
        if (v.is_null()) {
            return *fallback;
        }
        const double d = v.is_number() ? v.get<double>() : 0.5;
        if (!v.is_number() || d != std::floor(d) || std::fabs(d) > 2147483647.0) {
            throw fieldError(m_path, m_prefix + key,
                             "must be an integer of at most 2147483647, got " + shown(v));
        }
        return int(d);
    }
    std::string text(const char* key, std::optional<std::string> fallback = std::nullopt) const
    {
        const Json& v = present(key, fallback.has_value());
        if (v.is_null()) {
            return *fallback;
        }
        if (!v.is_string()) {
            throw fieldError(m_path, m_prefix + key, "must be a text");
        }
        return v.get<std::string>();
    }
    /// A 64-bit seed, written as a decimal text (JSON numbers lose digits above 2^53); a
    /// hand-written whole number up to 2^53 is taken as well.
    uint64_t seed(const char* key, bool required) const
    {
        present(key, !required);
        const Json& v = member(m_o, key);
        if (v.is_number()) {
            const double d = v.get<double>();
            if (d >= 0.0 && d <= 9007199254740992.0 && d == std::floor(d)) {
                return uint64_t(d);
            }
        }
        const std::string t =
            v.is_number() ? numberText(v.get<double>()) : text(key, std::string("0"));
        uint64_t s = 0;
        const auto r = std::from_chars(t.data(), t.data() + t.size(), s);
        if (t.empty() || r.ec != std::errc() || r.ptr != t.data() + t.size()) {
            throw fieldError(m_path, m_prefix + key,
                             "must be a non-negative integer below 2^64 in decimal digits, got " +
                                 sosrep::quotedText(t));
        }
        return s;
    }

private:
    static std::string shown(const Json& v)
    {
        if (v.is_number()) {
            return numberText(v.get<double>());
        }
        if (v.is_string()) {
            return "the text " + sosrep::quotedText(v.get<std::string>());
        }
        return v.is_boolean() ? "a boolean"
               : v.is_null()  ? "null"
               : v.is_array() ? "an array"
                              : "an object";
    }
    const Json& present(const char* key, bool optional) const
    {
        const bool there = m_o.is_object() && m_o.contains(key);
        if (!there && !optional) {
            throw fieldError(m_path, m_prefix + key, "is missing");
        }
        if (there && member(m_o, key).is_null()) {
            throw fieldError(m_path, m_prefix + key, "must not be null");
        }
        return member(m_o, key);
    }
    const Json& m_o;
    const std::string& m_path;
    std::string m_prefix;
};

/// Refuses the fields of object `o` that are not in `known` (a typo such as "length_scal"
/// would otherwise be read as an absent field, or pass unread).
void refuseUnknownFields(const Json& o, std::initializer_list<const char*> known,
                         const std::string& path, const std::string& prefix)
{
    for (auto it = o.begin(); it != o.end(); ++it) {
        if (std::none_of(known.begin(), known.end(),
                         [&](const char* k) { return it.key() == k; })) {
            throw fieldError(path, prefix + it.key(), "is not a field of a sosrep model file");
        }
    }
}

/// `current`: a file written since log values are in data units, which writes every field, so
/// none may be missing; older files take the defaults of their day for fields they predate.
KernelSpec kernelFromJson(const Json& k, const std::string& path, int dim, bool current)
{
    KernelSpec spec;
    const StrictFields f(k, path, "kernel.");
    const auto old = [current](auto value) {
        return current ? std::nullopt : std::make_optional(value);
    };
    try {
        if (current) {
            refuseUnknownFields(k,
                                {"type", "length_scale", "sdo_order", "features", "sdo_method",
                                 "backend", "rank", "feature_seed"},
                                path, "kernel.");
        }
        spec.type = kernelTypeFromString(f.text("type"));
        spec.lengthScale = f.number("length_scale");
        spec.sdoOrder = f.integer("sdo_order", old(0));
        spec.features = f.integer("features", old(spec.features));
        spec.sdoMethod = sdoMethodFromString(f.text("sdo_method", old(std::string("rff"))));
        spec.backend = backendChoiceFromString(f.text("backend", old(std::string("auto"))));
        spec.rank = f.integer("rank", old(spec.rank));
        spec.seed = f.seed("feature_seed", current);
        spec.validate(dim);
    } catch (const ParameterError& e) {
        // The kernel option "kernel" is the file's kernel.type.
        throw fieldError(path, "kernel." + (e.parameter() == "kernel" ? "type" : e.parameter()),
                         e.message());
    }
    return spec;
}

/// A rank scaling's knots: per column, x strictly increasing and u strictly increasing in
/// [0, 1], as many of each (Scaler::knotX, knotU).
void rankKnotsFromJson(const Json& s, const std::string& path, Eigen::Index dim, Scaler& scaler)
{
    const Json& xs = member(s, "knots_x");
    const Json& us = member(s, "knots_u");
    if (!xs.is_array() || !us.is_array() || Eigen::Index(xs.size()) != dim ||
        Eigen::Index(us.size()) != dim) {
        throw fieldError(path, "scaler.knots_x",
                         "a rank scaling needs knots_x and knots_u: one array per column");
    }
    for (Eigen::Index j = 0; j < dim; ++j) {
        const std::string at = "[" + std::to_string(j) + "]";
        Vector x = vectorFromJson(xs[size_t(j)], path, "scaler.knots_x" + at);
        Vector u = vectorFromJson(us[size_t(j)], path, "scaler.knots_u" + at);
        if (x.size() == 0 || x.size() != u.size()) {
            throw fieldError(path, "scaler.knots_u" + at,
                             "must hold as many knots as knots_x" + at + ", at least one");
        }
        for (Eigen::Index k = 0; k < x.size(); ++k) {
            if (!std::isfinite(x(k)) || !(u(k) >= 0.0 && u(k) <= 1.0) ||
                (k > 0 && !(x(k) > x(k - 1) && u(k) > u(k - 1)))) {
                throw fieldError(path, "scaler.knots_x" + at,
                                 "knots must be finite and increase, with levels in [0, 1] "
                                 "(knot " +
                                     std::to_string(k) + ")");
            }
        }
        scaler.knotX.push_back(std::move(x));
        scaler.knotU.push_back(std::move(u));
    }
}

Scaler scalerFromJson(const Json& s, const std::string& path, Eigen::Index dim)
{
    Scaler scaler;
    try {
        scaler.kind = scalingKindFromString(textOf(member(s, "kind")));
    } catch (const ParameterError& e) {
        throw fieldError(path, "scaler.kind", e.message());
    }
    if (scaler.kind == ScalingKind::Auto) { // a fitted scaler holds what auto resolved to
        throw fieldError(path, "scaler.kind", "'auto' is a setting, not a fitted scaling");
    }
    scaler.shift = vectorFromJson(member(s, "shift"), path, "scaler.shift");
    scaler.scale = vectorFromJson(member(s, "scale"), path, "scaler.scale");
    if (scaler.shift.size() != dim || scaler.scale.size() != dim) {
        throw fieldError(path, "scaler", "must hold one shift and one scale per column");
    }
    if (!(scaler.scale.array() > 0.0).all()) {
        throw fieldError(path, "scaler.scale",
                         "must hold positive numbers (a zero scale would divide by zero)");
    }
    // Any normal double is a scale a fit can write (a column spanning 1e300 has min-max scale
    // 1e300, and its scores stay finite); below the smallest normal one, 1/scale is infinite.
    if (!(scaler.scale.array() >= std::numeric_limits<double>::min()).all()) {
        throw fieldError(path, "scaler.scale",
                         "must hold numbers of at least 2.2e-308 (1/scale must be finite)");
    }
    if (scaler.kind == ScalingKind::Rank) {
        rankKnotsFromJson(s, path, dim, scaler);
    } else if (s.contains("knots_x") || s.contains("knots_u")) {
        throw fieldError(path, "scaler.knots_x",
                         "belongs to a rank scaling, not " + toString(scaler.kind));
    }
    return scaler;
}

/// A model's parameters live in scaled coordinates, where a fitted model's numbers are far
/// below 1e100; beyond it squared distances overflow and scores become NaN (a support point at
/// 1e308 gave NaN ratios). Only a file sosrep did not write holds such a number.
void checkMagnitude(const Eigen::Ref<const Vector>& values, const std::string& path,
                    const std::string& key)
{
    for (Eigen::Index i = 0; i < values.size(); ++i) {
        if (std::fabs(values(i)) > 1e100) {
            throw fieldError(path, key,
                             "holds " + numberText(values(i)) +
                                 ": a model's parameters lie within +-1e100 (beyond it its "
                                 "squared distances overflow)");
        }
    }
}

ParameterMap parametersFromJson(const Json& o, const std::string& path)
{
    ParameterMap p;
    for (auto it = o.begin(); it != o.end(); ++it) {
        const std::string key = "parameters." + it.key();
        if (it->is_number()) {
            p.set(it.key(), it->get<double>());
            checkMagnitude(Vector::Constant(1, it->get<double>()), path, key);
        } else if (it->is_string()) {
            p.set(it.key(), it->get<std::string>());
        } else if (it->is_array()) {
            if (!it->empty() && (*it)[0].is_array()) {
                const Matrix m = matrixFromJson(*it, path, key);
                checkMagnitude(m.reshaped(), path, key);
                p.set(it.key(), m);
            } else {
                const Vector v = vectorFromJson(*it, path, key);
                checkMagnitude(v, path, key);
                p.set(it.key(), v);
            }
        } else {
            throw fieldError(path, key, "must be a number, a text or an array");
        }
    }
    return p;
}

Json parametersToJson(const ParameterMap& p)
{
    Json o = Json::object();
    for (const auto& [key, value] : p.entries()) {
        if (const double* d = std::get_if<double>(&value)) {
            o[key] = *d;
        } else if (const std::string* s = std::get_if<std::string>(&value)) {
            o[key] = *s;
        } else if (const Vector* v = std::get_if<Vector>(&value)) {
            o[key] = toJson(*v);
        } else {
            o[key] = toJson(std::get<Matrix>(value));
        }
    }
    return o;
}

/// Version 1 (before the estimator plug-ins): estimator, kernel, train and weights at the top.
void readVersion1(const Json& root, SavedModel& m, const std::string& path)
{
    try {
        m.settings = FitSettings::defaults(textOf(member(root, "estimator")));
    } catch (const ParameterError& e) {
        throw fieldError(path, "estimator", e.message());
    }
    const Json& train = member(root, "train");
    m.parameters.set("train",
                     matrixFromJson(train.is_array() ? train : Json::array(), path, "train"));
    m.parameters.set("weights", vectorFromJson(member(root, "weights"), path, "weights"));
}

/// The file's columns: non-empty names, none twice (scoring matches a file's columns by name:
/// a nameless or repeated one would match the wrong data column).
std::vector<std::string> columnsFromJson(const Json& columns, const std::string& path)
{
    std::vector<std::string> out;
    for (const Json& c : columns.is_array() ? columns : Json::array()) {
        const std::string name = textOf(c);
        if (!c.is_string() || name.empty()) {
            throw fieldError(path, "columns", "must be non-empty texts");
        }
        if (std::find(out.begin(), out.end(), name) != out.end()) {
            throw fieldError(path, "columns", "names " + sosrep::quotedText(name) + " twice");
        }
        out.push_back(name);
    }
    if (out.empty()) {
        throw fieldError(path, "columns", "must name at least one column");
    }
    return out;
}

} // namespace

SavedModel savedModelOf(const FittedModel& model, const FitSettings& settings, const Scaler& scaler,
                        const std::vector<std::string>& columns, const Json& provenance)
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

std::string modelJson(const SavedModel& m)
{
    Json root = Json::object();
    root["format"] = kFormat;
    root["version"] = kVersion;
    root["estimator"] = m.settings.estimator;
    root["settings"] = settingsToJson(m.settings);
    if (m.kernel) {
        root["kernel"] = kernelToJson(*m.kernel);
    }
    root["scaler"] = {{"kind", toString(m.scaler.kind)},
                      {"shift", toJson(m.scaler.shift)},
                      {"scale", toJson(m.scaler.scale)}};
    if (!m.scaler.isAffine()) {
        Json xs = Json::array();
        Json us = Json::array();
        for (size_t j = 0; j < m.scaler.knotX.size(); ++j) {
            xs.push_back(toJson(m.scaler.knotX[j]));
            us.push_back(toJson(m.scaler.knotU[j]));
        }
        root["scaler"]["knots_x"] = std::move(xs);
        root["scaler"]["knots_u"] = std::move(us);
    }
    root["columns"] = m.columns;
    root["parameters"] = parametersToJson(m.parameters);
    root["provenance"] = m.provenance.is_object() ? m.provenance : Json::object();
    root["log_value_units"] = "data";
    return jsonCompact(root) + '\n';
}

/// The settings' kernel option, when it names one, must be the kernel the file holds: a file
/// whose settings say "laplace" over a Gaussian kernel would be refitted as another model.
void checkKernelAgrees(const SavedModel& m, const std::string& path)
{
    if (m.settings.values.has("kernel") &&
        m.settings.values.text("kernel") != toString(m.kernel->type)) {
        throw fieldError(path, "settings.kernel",
                         "is " + sosrep::quotedText(m.settings.values.text("kernel")) +
                             " but kernel.type is " + sosrep::quotedText(toString(m.kernel->type)));
    }
}

/// The parts of the provenance that change what a file does: the saved outlier threshold
/// (`predict` flags rows with it) and the fit's warnings (repeated on every use). Each is
/// checked as the fit wrote it; the rest is a record only.
void checkProvenance(const Json& provenance, const std::string& path)
{
    if (provenance.contains("outlier_threshold")) {
        const Json& t = member(provenance, "outlier_threshold");
        const std::string field = "provenance.outlier_threshold";
        if (!t.is_object()) {
            throw fieldError(path, field, "must be an object");
        }
        const StrictFields f(t, path, field + ".");
        try {
            checkContamination(f.number("contamination"));
        } catch (const ParameterError& e) {
            throw fieldError(path, field + ".contamination", e.message());
        }
        if (std::fabs(f.number("offset")) > 1e100) {
            throw fieldError(path, field + ".offset",
                             "must be a log value within +-1e100, got " +
                                 numberText(f.number("offset")));
        }
        if (f.integer("held_out_rows", 0) < 0) {
            throw fieldError(path, field + ".held_out_rows", "must not be negative");
        }
        f.text("method", std::string());
    }
    // Python's purpose='auto' records it, and `purpose_asked` says so; any other value was
    // loaded and shown as it stood (issue 52).
    if (provenance.contains("purpose_asked") && member(provenance, "purpose_asked") != "auto") {
        throw fieldError(path, "provenance.purpose_asked",
                         "must be \"auto\" (the only purpose a fit records there)");
    }
    // Python's random_state, when an int, and the seed option it stood in for (issue 53).
    if (provenance.contains("random_state") &&
        !member(provenance, "random_state").is_number_unsigned()) {
        throw fieldError(path, "provenance.random_state", "must be a non-negative integer");
    }
    if (provenance.contains("seed_asked") && !member(provenance, "seed_asked").is_string()) {
        throw fieldError(path, "provenance.seed_asked", "must be a text");
    }
    if (provenance.contains("fit_warnings")) {
        const Json& w = member(provenance, "fit_warnings");
        if (!w.is_array() ||
            std::any_of(w.begin(), w.end(), [](const Json& v) { return !v.is_string(); })) {
            throw fieldError(path, "provenance.fit_warnings", "must be an array of texts");
        }
    }
}

SavedModel parseModel(std::string_view bytes, const std::string& path)
{
    const Json root = parseJsonObject(bytes, path);
    if (textOf(member(root, "format")) != kFormat) {
        throw DataError(path, 0, 0,
                        "not a sosrep model file (missing \"format\": \"sosrep-model\")");
    }
    const Json& v = member(root, "version");
    const int version = v.is_number_integer() ? v.get<int>() : 0;
    if (version < 1 || version > kVersion) {
        throw DataError(path, 0, 0,
                        "unsupported model file version (this build reads 1 to " +
                            std::to_string(kVersion) + ")");
    }
    SavedModel m;
    m.columns = columnsFromJson(member(root, "columns"), path);
    const auto d = static_cast<Eigen::Index>(m.columns.size());
    if (version == 1) {
        readVersion1(root, m, path);
    } else {
        m.settings = settingsFromJson(objectOf(root, "settings"), path, "settings");
        if (textOf(member(root, "estimator")) != m.settings.estimator) {
            throw fieldError(path, "estimator", "disagrees with settings.estimator");
        }
        m.parameters = parametersFromJson(objectOf(root, "parameters"), path);
    }
    if (version >= 3 && !root.contains("log_value_units")) {
        throw fieldError(path, "log_value_units",
                         "is missing (a version " + std::to_string(version) +
                             " model file has it)");
    }
    // Version 2 files written since log values are in data units say so; they are read as
    // strictly as version 3.
    const bool hasUnits = version >= 3 || root.contains("log_value_units");
    if (hasUnits) {
        refuseUnknownFields(root,
                            {"format", "version", "estimator", "settings", "kernel", "scaler",
                             "columns", "parameters", "provenance", "log_value_units"},
                            path, "");
        refuseUnknownFields(objectOf(root, "scaler"),
                            {"kind", "shift", "scale", "knots_x", "knots_u"}, path, "scaler.");
    }
    const Estimator& estimator = EstimatorRegistry::instance().get(m.settings.estimator);
    if (estimator.capabilities().usesKernel) {
        m.kernel = kernelFromJson(objectOf(root, "kernel"), path, int(d), hasUnits);
        checkKernelAgrees(m, path);
    } else if (root.contains("kernel")) {
        throw fieldError(path, "kernel",
                         "is not used by the " + m.settings.estimator +
                             " estimator: this file was not written by sosrep");
    }
    if (hasUnits && RankEnsembleModel::isEnsemble(m.parameters) &&
        !m.parameters.has("ensemble.combination")) {
        // Files before the anomaly rule had mean-rank ensembles only; a current file says.
        throw fieldError(path, "parameters.ensemble.combination", "is missing");
    }
    m.scaler = scalerFromJson(objectOf(root, "scaler"), path, d);
    m.provenance = objectOf(root, "provenance");
    checkProvenance(m.provenance, path);
    if (hasUnits && member(root, "log_value_units") != Json("data")) {
        throw fieldError(path, "log_value_units", "must be \"data\" (or absent, in older files)");
    }
    m.logValuesInDataUnits = hasUnits;
    return m;
}

SavedModel loadModel(const std::string& path)
{
    const std::vector<unsigned char> bytes = readFileBytes(path, uint64_t(1) << 31);
    return parseModel(std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()),
                      path);
}

std::unique_ptr<FittedModel> toModel(const SavedModel& m, const std::string& source)
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

std::unique_ptr<FittedModel> toDensityModel(const SavedModel& m, const std::string& source,
                                            const std::string& flag)
{
    std::unique_ptr<FittedModel> model = toModel(m, source);
    const DensityKind kind = model->kind();
    if (kind == DensityKind::Ratio || kind == DensityKind::Score) {
        throw ParameterError(flag, sosrep::quotedText(source) + " holds a " + toString(kind) +
                                       " (" + m.settings.estimator + "), not a density");
    }
    return model;
}

Json outlierThresholdJson(const OutlierThreshold& t)
{
    return {{"contamination", t.contamination},
            {"offset", t.offset},
            {"held_out_rows", t.heldOutRows},
            {"method", t.method}};
}

std::optional<OutlierThreshold> savedOutlierThreshold(const SavedModel& m,
                                                      const FittedModel& fitted)
{
    const Json o = objectOf(m.provenance, "outlier_threshold");
    const Json& c = member(o, "contamination");
    const Json& offset = member(o, "offset");
    if (!c.is_number() || !offset.is_number() || !std::isfinite(offset.get<double>())) {
        return std::nullopt;
    }
    OutlierThreshold t;
    t.contamination = c.get<double>();
    t.offset = offset.get<double>() + (m.logValuesInDataUnits ? 0.0 : fitted.logUnitShift());
    const Json& rows = member(o, "held_out_rows");
    t.heldOutRows = rows.is_number() ? int(rows.get<double>()) : 0;
    const Json& method = member(o, "method");
    t.method = method.is_string() ? method.get<std::string>() : std::string("training rows");
    return t;
}

Json fitProvenance(const FitSettings& settings, const FitOutcome& fit,
                   const std::string& trainSource, const std::vector<std::string>& warnings)
{
    Json prov = Json::object();
    prov["seed"] = settings.values.text("seed");
    prov["train_file"] = trainSource;
    if (fit.search) {
        prov["purpose"] = fit.purpose;
        prov["selection_rule"] = fit.rule;
        prov["selection_reason"] = fit.search->selection.reason;
    }
    if (!warnings.empty()) { // absent when there is nothing to say: older files read the same
        prov["fit_warnings"] = warnings;
    }
    return prov;
}

std::vector<std::string> savedFitWarnings(const SavedModel& m)
{
    std::vector<std::string> out;
    for (const Json& v : member(m.provenance, "fit_warnings").is_array()
                             ? member(m.provenance, "fit_warnings")
                             : Json::array()) {
        if (v.is_string()) {
            out.push_back(v.get<std::string>());
        }
    }
    return out;
}

} // namespace sosrep::io
