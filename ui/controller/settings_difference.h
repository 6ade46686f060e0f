// SPDX-License-Identifier: MIT
// What changed between two settings, in words.
#pragma once

#include "core/estimators/fit_settings.h"

#include <QStringList>

namespace sosrep::ui {

/// What changed between two settings, one "name old → new" per option (or the estimator), in
/// the model panel's words: the stale banner and the undo history name changes with it.
QStringList settingsDifference(const FitSettings& was, const FitSettings& now);

} // namespace sosrep::ui
