// SPDX-License-Identifier: MIT
// Labels of options as the app shows them.
#pragma once

#include "core/errors.h"

#include <string>

namespace sosrep::ui {

/// The app's spelling of a parameter named by core: its label in the option tables
/// ("learning_rate" is "Learning rate λ"), or the name itself.
std::string optionLabel(const std::string& parameter);

/// A ParameterError as the app shows it: "<label>: <message>".
std::string describe(const ParameterError& error);

} // namespace sosrep::ui
