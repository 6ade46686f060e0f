// SPDX-License-Identifier: MIT
#pragma once

#include "core/estimators/fit_settings.h"

#include <QJsonObject>
#include <QString>

namespace sosrep::io {

/// Fit settings as a JSON object: "estimator" and one field per option of the estimator's option
/// table (numbers for numeric options, strings otherwise; seeds as strings, so every digit
/// survives). Model and project files both store them this way.
QJsonObject settingsToJson(const FitSettings& settings);

/// Reads what settingsToJson wrote: the estimator must be registered, every field must be one of
/// its options with a valid value (options missing from the object keep their defaults).
/// Problems throw DataError naming `source` and the field ("<field>.<option>").
FitSettings settingsFromJson(const QJsonObject& object, const QString& source,
                             const QString& field);

} // namespace sosrep::io
