// SPDX-License-Identifier: MIT
// What changed between two settings, in words.
#include "ui/controller/settings_difference.h"

#include "ui/controller/session.h"

namespace sosrep::ui {

QStringList settingsDifference(const FitSettings& was, const FitSettings& now)
{
    if (was.estimator != now.estimator) {
        return {
            Session::tr("estimator %1 → %2")
                .arg(QString::fromStdString(was.estimator), QString::fromStdString(now.estimator))};
    }
    // In the panel's words and at the panel's precision (the banner said "length_scale
    // 0.05209123456789012 → auto").
    const auto shown = [](const std::string& text) {
        bool number = false;
        const double v = QString::fromStdString(text).toDouble(&number);
        return number ? QString::number(v, 'g', 6) : QString::fromStdString(text);
    };
    QStringList changed;
    for (const auto& [name, value] : now.values.all()) {
        const std::string old = was.values.has(name) ? was.values.text(name) : std::string();
        if (old != value) {
            const OptionSpec* spec = now.values.spec(name);
            const QString label = spec && !spec->label.empty() ? QString::fromStdString(spec->label)
                                                               : QString::fromStdString(name);
            changed << Session::tr("%1 %2 → %3")
                           .arg(label, old.empty() ? Session::tr("(unset)") : shown(old),
                                shown(value));
        }
    }
    return changed;
}

} // namespace sosrep::ui
