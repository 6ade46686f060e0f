// SPDX-License-Identifier: MIT
// The scalings of the app's two views: the density view's and the Scores view's.
#pragma once

#include "core/data/scaler.h"
#include "core/estimators/fit_settings.h"

#include <string>

namespace sosrep::ui {

/// The settings leave the purpose to the views (purpose=auto: the density view tunes for the
/// density, the Scores view for anomaly ranking).
bool purposeIsAuto(const FitSettings& s);

/// purpose=auto with selection=auto: the density view and the Scores view each get their
/// purpose's rule (from one sweep).
bool purposeAndRuleAreAuto(const OptionValues& v);

/// The scaling a view's fit asks for (scalingOf): purpose=auto resolved to the view's task,
/// "density" or "anomaly".
ScalingKind viewScaling(const FitSettings& s, const char* task);

/// What decides the features' scalings, as text: the density view's asked kind and, with
/// purpose=auto, the Scores view's. Settings with another signature need the rows scaled anew.
std::string scalingSignature(const FitSettings& s);

} // namespace sosrep::ui
