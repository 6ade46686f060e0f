// SPDX-License-Identifier: MIT
// The session's result: set by a fit, completed by later jobs, its warnings and its staleness.
#include "ui/controller/session.h"

#include "ui/controller/settings_difference.h"

namespace sosrep::ui {

void Session::clearResult()
{
    ++m_resultGeneration;
    m_result.reset();
    emit resultDropped();
}

void Session::setResult(FitJobResult result, const FitJobInput& input)
{
    m_result = std::make_unique<FitJobResult>(std::move(result));
    m_resultInput = input;
    ++m_resultGeneration;
    emit resultDropped();
    emit fitFinished();
    emit resultReady(); // the classes of a hue chosen before, for this result
}

bool Session::updateResult(quint64 generation, ResultPart part,
                           const std::function<void(FitJobResult&)>& change)
{
    if (generation != m_resultGeneration || !m_result) {
        return false; // a new fit (or new data) since: nothing to complete
    }
    if (change) {
        change(*m_result);
    }
    switch (part) {
    case ResultPart::Grids:
        emit gridsUpdated(); // the hue's classes are fitted again for these columns
        break;
    case ResultPart::Scores:
        emit scoresReady(); // the threshold (ThresholdController) follows
        break;
    case ResultPart::Comparison:
        emit comparisonReady();
        emit comparisonModelReady(); // the label clusters
        break;
    case ResultPart::ComparisonModel:
        emit comparisonModelReady();
        break;
    case ResultPart::Unannounced:
        break;
    }
    return true;
}

void Session::setBusy(bool busy)
{
    if (busy != m_busy) {
        m_busy = busy;
        emit busyChanged(busy);
    }
}

void Session::cancel()
{
    emit cancelRequested(); // the fit, its late stages, the per-class fits...
}

QStringList Session::warnings() const
{
    QStringList out;
    for (const std::string& w : m_data.warnings()) {
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

QString Session::staleReason() const
{
    if (!m_result) {
        return {};
    }
    QStringList changed = settingsDifference(m_result->settings, m_settings);
    // (The fit-row cap is the settings' max_fit_rows: settingsDifference names it.)
    if (m_result->compareWith != compareEstimatorFor(m_settings, m_compareWith)) {
        changed << tr("compare with %1 → %2")
                       .arg(QString::fromStdString(m_result->compareWith),
                            QString::fromStdString(compareEstimatorFor(m_settings, m_compareWith)));
    }
    if (changed.isEmpty()) {
        return {};
    }
    return tr("settings changed since this fit: %1").arg(changed.join(QStringLiteral(", ")));
}

} // namespace sosrep::ui
