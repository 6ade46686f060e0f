// SPDX-License-Identifier: MIT
// FitSettings: the one settings type of a fit, with its defaults and purpose.
#include "core/estimators/fit_settings.h"

#include "core/estimators/common_options.h"
#include "core/estimators/registry.h"

#include <algorithm>

namespace sosrep {

FitSettings FitSettings::defaults(const std::string& estimator)
{
    FitSettings s;
    s.estimator = EstimatorRegistry::instance().get(estimator).name();
    s.values = OptionValues(optionTableFor(EstimatorRegistry::instance().get(estimator)));
    return s;
}

void FitSettings::setEstimator(const std::string& name)
{
    const OptionTable table = optionTableFor(EstimatorRegistry::instance().get(name));
    OptionValues next(table);
    for (const OptionSpec& spec : table) {
        const OptionSpec* old = values.spec(spec.name);
        // A value carries over when the old option was the same kind of thing and the value
        // is valid here (a kernel another estimator lacks is not).
        if (old && old->type == spec.type) {
            try {
                next.set(spec.name, values.text(spec.name));
            } catch (const std::exception&) {
                // out of the new option's range: its default stays
            }
        }
    }
    estimator = name;
    values = next;
}

bool FitSettings::autoLengthScale() const
{
    return values.has("length_scale") && values.text("length_scale") == "auto";
}

void FitSettings::fixLengthScale(double lengthScale)
{
    if (values.has("length_scale")) {
        values.setReal("length_scale", lengthScale);
    }
    if (values.has("bw_adjust")) {
        values.setReal("bw_adjust", 1.0);
    }
}

void FitSettings::resolvePurpose(const std::string& taskPurpose)
{
    if (values.has("purpose") && values.text("purpose") == "auto") {
        values.set("purpose", taskPurpose);
    }
}

std::vector<std::string> ignoredOptions(const FitSettings& settings,
                                        const std::vector<std::string>& given, long long rows)
{
    std::vector<std::string> out;
    for (const std::string& name : given) {
        const OptionSpec* spec = settings.values.spec(name);
        if (!spec || (spec->applies && !spec->applies(settings.values, rows))) {
            out.push_back(name);
        }
    }
    return out;
}

} // namespace sosrep
