// SPDX-License-Identifier: MIT
// What the views say about the result: its warnings, and why it is stale.
#include "ui/controller/estimation_controller.h"

#include "ui/controller/settings_difference.h"

namespace sosrep::ui {

QStringList EstimationController::warnings() const
{
    QStringList out;
    for (const std::string& w : m_dataWarnings) {
        out << QString::fromStdString(w);
    }
    if (m_result) {
        for (const std::string& w : m_result->fit.warnings) {
            out << QString::fromStdString(w);
        }
        if (m_result->scoresFit) {
            // The Scores view's own model (the anomaly purpose's: its own rule, and maybe its
            // own scaling and sweep) warns on its own; what both say is said once.
            for (const std::string& w : m_result->scoresFit->warnings) {
                const QString text = QString::fromStdString(w);
                if (!out.contains(text)) {
                    out << tr("Scores view: %1").arg(text);
                }
            }
        }
    }
    return out;
}

QString EstimationController::staleReason() const
{
    if (!m_result) {
        return {};
    }
    QStringList changed = settingsDifference(m_result->settings, m_settings);
    // (The fit-row cap is the settings' max_fit_rows: settingsDifference names it.)
    if (m_result->compareWith != compareEstimator()) {
        changed << tr("compare with %1 → %2")
                       .arg(QString::fromStdString(m_result->compareWith),
                            QString::fromStdString(compareEstimator()));
    }
    if (changed.isEmpty()) {
        return {};
    }
    return tr("settings changed since this fit: %1").arg(changed.join(QStringLiteral(", ")));
}

} // namespace sosrep::ui
