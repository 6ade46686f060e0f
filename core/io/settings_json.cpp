// SPDX-License-Identifier: MIT
// Fit settings as JSON: one field per option of the estimator's table.
#include "core/io/settings_json.h"

#include "core/errors.h"
#include "core/estimators/option.h"
#include "core/util/text.h"

#include <cmath>

namespace sosrep::io {

Json settingsToJson(const FitSettings& settings)
{
    Json o = Json::object();
    o["estimator"] = settings.estimator;
    for (const auto& [name, text] : settings.values.all()) {
        const OptionSpec* spec = settings.values.spec(name);
        const bool number =
            spec && (spec->type == OptionType::Real ||
                     (spec->type == OptionType::RealOrChoice && !settings.values.isChoice(name)));
        if (spec && spec->type == OptionType::Integer) {
            o[name] = std::stoll(text); // an integer as one: 100000, not 1e+05
        } else if (number) {
            o[name] = settings.values.real(name);
        } else {
            o[name] = text;
        }
    }
    return o;
}

FitSettings settingsFromJson(const Json& o, const std::string& source, const std::string& field)
{
    auto fail = [&](const std::string& key, const std::string& what) {
        return DataError(source, 0, 0, "field '" + field + "." + key + "' " + what);
    };
    if (!o.is_object()) {
        throw DataError(source, 0, 0, "field '" + field + "' must be an object");
    }
    FitSettings s;
    try {
        const auto e = o.find("estimator");
        s = FitSettings::defaults(e != o.end() && e->is_string() ? e->get<std::string>()
                                                                 : std::string());
    } catch (const ParameterError& e) {
        throw fail("estimator", e.message());
    }
    for (auto it = o.begin(); it != o.end(); ++it) {
        const std::string& name = it.key();
        if (name == "estimator") {
            continue;
        }
        if (!s.values.has(name)) {
            throw fail(name, "is not an option of the " + s.estimator + " estimator");
        }
        std::string text;
        if (it->is_number()) {
            const double v = it->get<double>();
            const OptionType type = s.values.spec(name)->type;
            text = type != OptionType::Real && type != OptionType::RealOrChoice &&
                           v == std::floor(v) && std::abs(v) < 9e15
                       ? std::to_string(static_cast<long long>(v))
                       : formatReal(v);
        } else if (it->is_string()) {
            text = it->get<std::string>();
        } else {
            throw fail(name, "must be a number or a text");
        }
        try {
            s.values.set(name, text);
        } catch (const ParameterError& e) {
            throw fail(name, e.message());
        }
    }
    return s;
}

} // namespace sosrep::io
