// SPDX-License-Identifier: MIT
// The scalings of the app's two views: the density view's and the Scores view's.
#include "ui/controller/view_scaling.h"

#include "core/estimators/common_options.h"

namespace sosrep::ui {

bool purposeAndRuleAreAuto(const OptionValues& v)
{
    return v.has("purpose") && v.text("purpose") == "auto" && v.text("selection") == "auto";
}

bool purposeIsAuto(const FitSettings& s)
{
    return s.values.has("purpose") && s.values.text("purpose") == "auto";
}

ScalingKind viewScaling(const FitSettings& s, const char* task)
{
    FitSettings view = s;
    view.resolvePurpose(task);
    return scalingOf(view.values);
}

std::string scalingSignature(const FitSettings& s)
{
    return toString(viewScaling(s, "density")) + "/" +
           (purposeIsAuto(s) ? toString(viewScaling(s, "anomaly")) : std::string());
}

} // namespace sosrep::ui
