// SPDX-License-Identifier: MIT
// The window's status area: progress, the stale and warning banners, the warnings and the last
// fit's report.
#pragma once

#include "ui/controller/fit_job.h"

#include <QObject>
#include <QString>

class QLabel;
class QMainWindow;
class QProgressBar;
class QToolButton;

namespace sosrep::ui {

class Session;

/// What the window says about the work and the result outside the views: the status bar's
/// stage text, progress bar, warnings button and last fit's report, and the two banners above
/// the views (the result is stale; the data or the fit warn). Reads the session only.
class StatusPanel : public QObject
{
    Q_OBJECT

public:
    /// Adds its widgets to `window`'s status bar; the banners go where the window lays them.
    StatusPanel(QMainWindow* window, Session* session);

    QLabel* staleBanner() const { return m_staleBanner; }
    QLabel* warningBanner() const { return m_warningBanner; }
    /// The stale banner's text ("" while the results match the settings).
    QString staleText() const;
    /// The banner and the button from the session's warnings.
    void refreshWarnings();
    /// Shows or hides the stale banner from the session's staleReason().
    void showStaleness();
    /// A job's progress: the bar shows while some part of a total is left (a large fit's
    /// late stages and the views' own jobs run with the session idle).
    void showProgress(const QString& stage, int done, int total);
    /// A fit or an experiment runs (`stage`, with the progress bar) or none does ("").
    void setBusy(const QString& stage);
    /// Whether work is shown under way (a fit, an experiment, or a job with work left).
    bool active() const { return m_busy || m_working; }
    /// The last fit's report, kept after the status message fades; said now too.
    void reportFit(const FitJobResult& r);
    /// A late stage finished: its seconds join the report (said now when `shown`).
    void addToReport(const QString& text, bool shown);
    /// New data: the report was of other data.
    void clearReport();
    /// "19.60 s", with the stages' seconds when the fit took a second or more.
    static QString fitTimeText(const FitJobResult& r);

signals:
    /// Work started or ended: Cancel is offered while it runs.
    void activityChanged(bool active);

private:
    void showWarnings();
    void updateActivity();
    /// `text` in the status line, elided to the room the permanent widgets leave (a slow fit's
    /// report ran under them; the whole of it is the report button's).
    void say(const QString& text, int milliseconds);

    QMainWindow* m_window;
    Session* m_session;
    QProgressBar* m_progress;
    QLabel* m_stage;
    QToolButton* m_warnings;
    /// The last fit's report ("Fitted in ... (model ..., comparison ...)"), reachable after the
    /// status message fades or another message replaces it; gone with new data.
    QToolButton* m_fitReport;
    QString m_lastFitText;
    QLabel* m_staleBanner;
    QLabel* m_warningBanner; // the data's and the last fit's warnings, above the views
    bool m_busy = false;     // setBusy
    bool m_working = false;  // the last progress had work left
    bool m_active = false;   // as last said by activityChanged
};

} // namespace sosrep::ui
