// SPDX-License-Identifier: MIT
// What option editors edit: settings that check each value as it is set.
#pragma once

#include "core/estimators/fit_settings.h"
#include "core/types.h"

#include <string>

namespace sosrep::ui {

/// What option editors edit: settings that check each value as it is set (the main fit's, the
/// Ratio view's). The controllers implement it; the editors (ui/panels) call it.
class OptionHost
{
public:
    virtual ~OptionHost() = default;
    virtual const FitSettings& optionSettings() const = 0;
    /// Checks and sets one option; a refused value is reported by the host, which returns false.
    virtual bool setOption(const std::string& name, const std::string& value) = 0;
    /// The rows the settings will be fitted on (options may apply only beyond a size).
    virtual Eigen::Index optionRows() const = 0;
};

} // namespace sosrep::ui
