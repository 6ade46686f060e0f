// SPDX-License-Identifier: MIT
// Labels of options as the app shows them.
#include "ui/controller/option_labels.h"

#include "core/estimators/common_options.h"
#include "core/estimators/registry.h"

namespace sosrep::ui {

std::string optionLabel(const std::string& parameter)
{
    std::vector<const OptionTable*> tables{&dataOptions(), &kernelOptions(), &tuningOptions()};
    for (const Estimator* e : EstimatorRegistry::instance().all()) {
        tables.push_back(&e->options());
    }
    for (const OptionTable* t : tables) {
        for (const OptionSpec& s : *t) {
            if (s.name == parameter && !s.label.empty()) {
                return s.label;
            }
        }
    }
    return parameter == "estimator" ? "Estimator" : parameter;
}

std::string describe(const ParameterError& error)
{
    return optionLabel(error.parameter()) + ": " + error.message();
}

} // namespace sosrep::ui
