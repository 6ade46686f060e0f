// SPDX-License-Identifier: MIT
// FitSettings to and from JSON, for model and project files.
#pragma once

#include "core/estimators/fit_settings.h"
#include "core/io/json.h"

#include <string>

namespace sosrep::io {

/// Fit settings as a JSON object: "estimator" and one field per option of the estimator's option
/// table (numbers for numeric options, strings otherwise; seeds as strings, so every digit
/// survives). Model and project files both store them this way.
Json settingsToJson(const FitSettings& settings);

/// Reads what settingsToJson wrote: the estimator must be registered, every field must be one of
/// its options with a valid value (options missing from the object keep their defaults).
/// Problems throw DataError naming `source` and the field ("<field>.<option>").
FitSettings settingsFromJson(const Json& object, const std::string& source,
                             const std::string& field);

} // namespace sosrep::io
