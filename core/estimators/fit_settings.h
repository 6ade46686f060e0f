// SPDX-License-Identifier: MIT
// FitSettings: the one settings type of a fit, with its defaults and purpose.
#pragma once

#include "core/estimators/option.h"

#include <string>
#include <vector>

namespace sosrep {

/// The one settings type of a fit, used by the command line and the app alike: the estimator's
/// name and the values of every option that applies to it (common_options.h and the estimator's
/// own table), with the defaults of those tables. Model and project files store it as it is.
struct FitSettings
{
    std::string estimator;
    OptionValues values;

    /// The registered estimator's options, all at their defaults.
    static FitSettings defaults(const std::string& estimator = "sosrep");

    /// Switches the estimator: options both have keep their values, the new estimator's own
    /// options come at their defaults, options it does not have are dropped.
    void setEstimator(const std::string& name);

    /// True when the length scale is tuned by Fisher divergence ("auto").
    bool autoLengthScale() const;

    /// Fixes the length scale at a fitted one: length_scale = l and bw_adjust = 1 (a fitted l
    /// has its multiplier in it already; refits of other rows or columns at that l must not
    /// apply it twice). Settings without a kernel: unchanged.
    void fixLengthScale(double lengthScale);

    /// Resolves purpose=auto to the task's own purpose (fit: density; adbench: anomaly), so
    /// that summaries, model and project files state it. Estimators without a tuned length
    /// scale have no purpose: unchanged.
    void resolvePurpose(const std::string& taskPurpose);

    bool operator==(const FitSettings& o) const
    {
        return estimator == o.estimator && values == o.values;
    }
    bool operator!=(const FitSettings& o) const { return !(*this == o); }
};

/// The options among `given` (names) that these settings do not use, given the training rows
/// (e.g. "features" with the gaussian kernel): front ends warn about each.
std::vector<std::string> ignoredOptions(const FitSettings& settings,
                                        const std::vector<std::string>& given, long long rows);

} // namespace sosrep
