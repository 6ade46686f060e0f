// SPDX-License-Identifier: MIT
// Project files: the app's session (data source, roles, settings, the views' own state).
#include "core/io/project_format.h"

#include "core/errors.h"
#include "core/io/settings_json.h"

#include <cmath>
#include <filesystem>

namespace sosrep::io {
namespace {

const char* kFormat = "sosrep-studio-project";
constexpr int kVersion = 2;

DataError fieldError(const std::string& path, const char* field, const std::string& what)
{
    return DataError(path, 0, 0, std::string("project field '") + field + "' " + what);
}

/// A whole number that fits an int, else `fallback` (what the files' readers always took).
int intOr(const Json& v, int fallback)
{
    if (!v.is_number()) {
        return fallback;
    }
    const double d = v.get<double>();
    return d == std::floor(d) && std::fabs(d) <= 2147483647.0 ? int(d) : fallback;
}

double numberOr(const Json& v, double fallback)
{
    return v.is_number() ? v.get<double>() : fallback;
}

ToyConfig toyFromJson(const Json& toy, const std::string& path)
{
    ToyConfig c;
    try {
        c.kind = toyKindFromString(textOf(member(toy, "kind")));
    } catch (const ParameterError& e) {
        throw fieldError(path, "data.toy.kind", e.message());
    }
    c.n = intOr(member(toy, "n"), 0);
    if (c.n < 1 || c.n > 10000000) {
        throw fieldError(path, "data.toy.n", "must lie in [1, 10000000]");
    }
    const std::string seed = textOf(member(toy, "seed"));
    try {
        size_t used = 0;
        c.seed = std::stoull(seed, &used);
        if (used != seed.size() || seed.front() == '-') {
            throw std::invalid_argument(seed);
        }
    } catch (const std::exception&) {
        throw fieldError(path, "data.toy.seed", "must be a non-negative integer (as text)");
    }
    c.anomalyFraction = numberOr(member(toy, "anomalies"), 0.05);
    if (!(c.anomalyFraction >= 0.0 && c.anomalyFraction <= 1.0)) {
        throw fieldError(path, "data.toy.anomalies", "must lie in [0, 1]");
    }
    return c;
}

/// The app's own settings; absent ones (projects saved before they were kept) the defaults.
void readAppSettings(const Json& app, ProjectData& p, const std::string& path)
{
    p.maxFitRows = intOr(member(app, "max_fit_rows"), p.maxFitRows);
    if (p.maxFitRows < 0) {
        throw fieldError(path, "app.max_fit_rows", "must not be negative (0 = all rows)");
    }
    p.compareWith = textOf(member(app, "compare_with"));
    p.optimizerStep = numberOr(member(app, "optimizer_step"), p.optimizerStep);
    if (!(p.optimizerStep >= 1e-4 && p.optimizerStep <= 100.0)) {
        throw fieldError(path, "app.optimizer_step", "must be in [0.0001, 100]");
    }
    p.optimizerIterations = intOr(member(app, "optimizer_iterations"), p.optimizerIterations);
    if (p.optimizerIterations < 1 || p.optimizerIterations > 100000) {
        throw fieldError(path, "app.optimizer_iterations", "must be in [1, 100000]");
    }
    if (app.contains("hue")) {
        const Json& h = member(app, "hue");
        if (!h.is_string() || h.get<std::string>().empty()) {
            throw fieldError(path, "app.hue", "must be a column's name");
        }
        p.hue = h.get<std::string>();
    }
    for (const auto& [key, target] :
         {std::pair<const char*, bool*>{"hue_per_class_length_scale", &p.huePerClassLengthScale},
          {"hue_common_norm", &p.hueCommonNorm}}) {
        if (app.contains(key)) {
            const Json& b = member(app, key);
            if (!b.is_boolean()) {
                const std::string field = std::string("app.") + key;
                throw fieldError(path, field.c_str(), "must be true or false");
            }
            *target = b.get<bool>();
        }
    }
    if (app.contains("map_colours")) {
        const Json& m = member(app, "map_colours");
        const std::string v = m.is_string() ? m.get<std::string>() : std::string();
        if (v != "log" && v != "linear" && v != "proportion") {
            throw fieldError(path, "app.map_colours", "must be log, linear or proportion");
        }
        p.mapColours = v;
    }
    if (app.contains("joint")) {
        const Json& j = member(app, "joint");
        if (!j.is_boolean()) {
            throw fieldError(path, "app.joint", "must be true or false");
        }
        p.joint = j.get<bool>();
    }
    if (app.contains("roc_with")) {
        const Json& r = member(app, "roc_with");
        if (!r.is_array()) {
            throw fieldError(path, "app.roc_with", "must be a list of estimators' names");
        }
        for (const Json& name : r) {
            if (!name.is_string() || name.get<std::string>().empty()) {
                throw fieldError(path, "app.roc_with", "must be a list of estimators' names");
            }
            p.rocWith.push_back(name.get<std::string>());
        }
    }
    if (app.contains("contamination")) {
        const Json& c = member(app, "contamination");
        p.contamination = numberOr(c, -1.0);
        if (!(p.contamination > 0.0 && p.contamination <= 0.5)) {
            throw fieldError(path, "app.contamination", "must be a number in (0, 0.5]");
        }
    }
}

/// Where the data come from, their column roles and the plotted columns.
void readData(const Json& data, ProjectData& p, const std::string& path)
{
    if (data.contains("toy")) {
        p.toy = toyFromJson(objectOf(data, "toy"), path);
    } else {
        p.dataPath = textOf(member(data, "path"));
        if (p.dataPath.empty()) {
            throw fieldError(path, "data.path", "is missing (or use data.toy)");
        }
        if (std::filesystem::path(p.dataPath).is_relative()) {
            p.dataPath =
                (std::filesystem::absolute(std::filesystem::path(path)).parent_path() / p.dataPath)
                    .string();
        }
        p.sha256 = textOf(member(data, "sha256"));
    }
    const Json& roles = member(data, "roles");
    for (const Json& r : roles.is_array() ? roles : Json::array()) {
        const std::string role = textOf(r);
        if (role != "feature" && role != "label" && role != "ignore" && role != "row_name") {
            throw fieldError(path, "data.roles", "must hold feature, label, ignore or row_name");
        }
        p.roles.push_back(role);
    }
    p.plotX = intOr(member(data, "plot_x"), 0);
    p.plotY = intOr(member(data, "plot_y"), 0);
    if (p.plotX < 0 || p.plotY < 0) {
        throw fieldError(path, "data.plot_x", "and plot_y must not be negative");
    }
}

} // namespace

std::string projectJson(const ProjectData& p)
{
    Json root = Json::object();
    root["format"] = kFormat;
    root["version"] = kVersion;
    Json data = Json::object();
    if (p.toy) {
        data["toy"] = {{"kind", toString(p.toy->kind)},
                       {"n", p.toy->n},
                       {"seed", std::to_string(p.toy->seed)},
                       {"anomalies", p.toy->anomalyFraction}};
    } else {
        data["path"] = p.dataPath;
        data["sha256"] = p.sha256;
    }
    data["roles"] = p.roles;
    data["plot_x"] = p.plotX;
    data["plot_y"] = p.plotY;
    root["data"] = data;
    root["model"] = settingsToJson(p.settings);
    Json app = Json::object();
    app["max_fit_rows"] = p.maxFitRows;
    app["compare_with"] = p.compareWith;
    app["optimizer_step"] = p.optimizerStep;
    app["optimizer_iterations"] = p.optimizerIterations;
    if (p.contamination > 0.0) { // absent when off: projects without flags read as before
        app["contamination"] = p.contamination;
    }
    if (!p.hue.empty()) { // likewise absent without a hue
        app["hue"] = p.hue;
    }
    if (p.huePerClassLengthScale) {
        app["hue_per_class_length_scale"] = true;
    }
    if (!p.hueCommonNorm) {
        app["hue_common_norm"] = false;
    }
    if (p.mapColours != "log") { // and absent at the defaults, as before they were kept
        app["map_colours"] = p.mapColours;
    }
    if (p.joint) {
        app["joint"] = true;
    }
    if (!p.rocWith.empty()) {
        app["roc_with"] = p.rocWith;
    }
    root["app"] = app;
    if (p.ratio.is_object() && !p.ratio.empty()) {
        root["ratio"] = p.ratio;
    }
    if (p.tuning.is_object() && !p.tuning.empty()) {
        root["tuning"] = p.tuning;
    }
    return jsonIndented(root);
}

ProjectData parseProject(std::string_view bytes, const std::string& path)
{
    const Json root = parseJsonObject(bytes, path);
    if (textOf(member(root, "format")) != kFormat ||
        intOr(member(root, "version"), 0) != kVersion) {
        throw DataError(path, 0, 0, "not a SOSREP Studio project (version 2)");
    }
    ProjectData p;
    p.settings = settingsFromJson(objectOf(root, "model"), path, "model");
    if (root.contains("ratio") && !member(root, "ratio").is_object()) {
        throw fieldError(path, "ratio", "must be an object");
    }
    p.ratio = objectOf(root, "ratio");
    if (root.contains("tuning") && !member(root, "tuning").is_object()) {
        throw fieldError(path, "tuning", "must be an object");
    }
    p.tuning = objectOf(root, "tuning");
    readAppSettings(objectOf(root, "app"), p, path);
    readData(objectOf(root, "data"), p, path);
    return p;
}

} // namespace sosrep::io
