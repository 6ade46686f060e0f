// SPDX-License-Identifier: MIT
#include "ui/io/settings_json.h"

#include "core/errors.h"
#include "core/estimators/option.h"

#include <cmath>

namespace sosrep::io {

QJsonObject settingsToJson(const FitSettings& settings)
{
    QJsonObject o;
    o[QStringLiteral("estimator")] = QString::fromStdString(settings.estimator);
    for (const auto& [name, text] : settings.values.all()) {
        const OptionSpec* spec = settings.values.spec(name);
        const bool number =
            spec && (spec->type == OptionType::Integer || spec->type == OptionType::Real ||
                     (spec->type == OptionType::RealOrChoice && !settings.values.isChoice(name)));
        if (number) {
            o[QString::fromStdString(name)] = settings.values.real(name);
        } else {
            o[QString::fromStdString(name)] = QString::fromStdString(text);
        }
    }
    return o;
}

FitSettings settingsFromJson(const QJsonObject& o, const QString& source, const QString& field)
{
    auto fail = [&](const QString& key, const std::string& what) {
        return DataError(source.toStdString(), 0, 0,
                         "field '" + (field + QLatin1Char('.') + key).toStdString() + "' " + what);
    };
    FitSettings s;
    try {
        s = FitSettings::defaults(o[QStringLiteral("estimator")].toString().toStdString());
    } catch (const ParameterError& e) {
        throw fail(QStringLiteral("estimator"), e.message());
    }
    for (auto it = o.begin(); it != o.end(); ++it) {
        if (it.key() == QLatin1String("estimator")) {
            continue;
        }
        const std::string name = it.key().toStdString();
        if (!s.values.has(name)) {
            throw fail(it.key(), "is not an option of the " + s.estimator + " estimator");
        }
        std::string text;
        if (it->isDouble()) {
            const double v = it->toDouble();
            text = v == std::floor(v) && std::abs(v) < 9e15 ? std::to_string(qint64(v))
                                                            : formatReal(v);
            if (s.values.spec(name)->type == OptionType::Real ||
                s.values.spec(name)->type == OptionType::RealOrChoice) {
                text = formatReal(v);
            }
        } else if (it->isString()) {
            text = it->toString().toStdString();
        } else {
            throw fail(it.key(), "must be a number or a text");
        }
        try {
            s.values.set(name, text);
        } catch (const ParameterError& e) {
            throw fail(it.key(), e.message());
        }
    }
    return s;
}

} // namespace sosrep::io
