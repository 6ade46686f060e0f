// SPDX-License-Identifier: MIT
// The window's status area: progress, the banners, the warnings and the last fit's report.
#include "ui/status_panel.h"

#include "ui/controller/density_units.h"
#include "ui/controller/session.h"

#include <QLabel>
#include <QMainWindow>
#include <QMessageBox>
#include <QProgressBar>
#include <QStatusBar>
#include <QToolButton>

#include <algorithm>

namespace sosrep::ui {
namespace {

QLabel* makeBanner(const QString& name, const QString& colours)
{
    auto* banner = new QLabel;
    banner->setObjectName(name);
    banner->setWordWrap(true);
    banner->setStyleSheet(QStringLiteral("QLabel { %1 padding: 4px; }").arg(colours));
    banner->setVisible(false);
    return banner;
}

} // namespace

StatusPanel::StatusPanel(QMainWindow* window, Session* session)
    : QObject(window), m_window(window), m_session(session)
{
    m_progress = new QProgressBar;
    m_progress->setMaximumWidth(220);
    m_progress->setVisible(false);
    m_stage = new QLabel;
    // Warnings stay reachable after the status message fades (mnist gives 22 constant columns).
    m_warnings = new QToolButton;
    m_warnings->setObjectName(QStringLiteral("warningsButton"));
    m_warnings->setAutoRaise(true);
    m_warnings->setVisible(false);
    connect(m_warnings, &QToolButton::clicked, this, &StatusPanel::showWarnings);
    m_fitReport = new QToolButton;
    m_fitReport->setObjectName(QStringLiteral("fitReportButton"));
    m_fitReport->setAutoRaise(true);
    m_fitReport->setVisible(false);
    connect(m_fitReport, &QToolButton::clicked, this, &StatusPanel::showWarnings);
    QStatusBar* bar = window->statusBar();
    bar->addPermanentWidget(m_fitReport);
    bar->addPermanentWidget(m_warnings);
    bar->addPermanentWidget(m_stage);
    bar->addPermanentWidget(m_progress);
    // Results that no longer match the settings stay readable but are flagged above every
    // view (and are not exported) until the next fit.
    m_staleBanner = makeBanner(QStringLiteral("staleBanner"),
                               QStringLiteral("background: #fff3cd; color: #664d03; "
                                              "border: 1px solid #ffe69c;"));
    // A fit that ran but needs a look (a length scale far below the rows' spacing, a tuned
    // value at its grid's edge...) says so where the numbers are, not only in the status bar.
    m_warningBanner = makeBanner(QStringLiteral("warningBanner"),
                                 QStringLiteral("background: #f8d7da; color: #58151c; "
                                                "border: 1px solid #f1aeb5;"));
    m_warningBanner->setTextFormat(Qt::PlainText);
}

QString StatusPanel::staleText() const
{
    return m_session->staleReason().isEmpty() ? QString() : m_staleBanner->text();
}

void StatusPanel::refreshWarnings()
{
    const QStringList warnings = m_session->warnings();
    m_warnings->setVisible(!warnings.isEmpty());
    m_warnings->setText(warnings.size() == 1 ? tr("⚠ 1 warning")
                                             : tr("⚠ %1 warnings").arg(warnings.size()));
    m_warnings->setToolTip(warnings.join(QLatin1Char('\n')) + tr("\n(click for the list)"));
    m_warningBanner->setVisible(!warnings.isEmpty());
    m_warningBanner->setText(warnings.isEmpty() ? QString()
                             : warnings.size() == 1
                                 ? tr("⚠ %1").arg(warnings.front())
                                 : tr("⚠ %1\n(and %2 more: click ⚠ in the status bar)")
                                       .arg(warnings.front())
                                       .arg(warnings.size() - 1));
}

void StatusPanel::showWarnings()
{
    const QStringList warnings = m_session->warnings();
    QString html = QStringLiteral("<ul>");
    for (const QString& w : warnings) {
        html += QStringLiteral("<li>%1</li>").arg(w.toHtmlEscaped());
    }
    html += QStringLiteral("</ul>");
    // Not modal: the user may want to look at the data panel while reading.
    auto* box = new QMessageBox(
        warnings.isEmpty() ? QMessageBox::Information : QMessageBox::Warning,
        warnings.isEmpty() ? tr("Last fit") : tr("Warnings"),
        m_lastFitText.isEmpty()
            ? tr("About the data and the last fit:")
            : m_lastFitText + (warnings.isEmpty() ? QString() : tr("\n\nWarnings:")),
        QMessageBox::Close, m_window);
    box->setObjectName(QStringLiteral("warningsBox"));
    box->setInformativeText(html);
    box->setTextInteractionFlags(Qt::TextSelectableByMouse);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

void StatusPanel::showStaleness()
{
    const QString reason = m_session->staleReason();
    m_staleBanner->setText(
        reason.isEmpty() ? QString()
                         : tr("Stale: the views show the last fit, but %1. Press F5 to refit; "
                              "exports are refused until then.")
                               .arg(reason));
    m_staleBanner->setVisible(!reason.isEmpty());
}

void StatusPanel::showProgress(const QString& stage, int done, int total)
{
    m_stage->setText(stage);
    m_progress->setRange(0, std::max(1, total));
    m_progress->setValue(done);
    m_working = total > 0 && done < total;
    updateActivity();
}

void StatusPanel::setBusy(const QString& stage)
{
    m_busy = !stage.isEmpty();
    m_working = false; // what follows reports its own progress
    m_stage->setText(stage);
    updateActivity();
}

void StatusPanel::updateActivity()
{
    m_progress->setVisible(active());
    if (active() != m_active) {
        m_active = active();
        emit activityChanged(m_active);
    }
}

void StatusPanel::reportFit(const FitJobResult& r)
{
    const SessionData& data = m_session->data();
    const QString rows = r.fitRows < data.features().rows()
                             ? tr(" on a seeded subsample of %1 of %2 rows (all rows scored)")
                                   .arg(r.fitRows)
                                   .arg(data.features().rows())
                             : QString();
    const QStringList warnings = m_session->warnings();
    const QString scale =
        r.lengthScale() > 0
            ? tr(" (%1)").arg(lengthScaleText(r.lengthScale(), data.scaler(), data.featureNames()))
            : QString();
    m_lastFitText = tr("Fitted in %1%2%3").arg(fitTimeText(r)).arg(scale).arg(rows);
    m_fitReport->setText(tr("last fit: %1 s").arg(r.seconds, 0, 'f', 2));
    m_fitReport->setToolTip(m_lastFitText + tr("\n(click for the report and any warnings)"));
    m_fitReport->setVisible(true);
    say(m_lastFitText + (warnings.isEmpty() ? QString() : tr("; warnings: click ⚠ at the right")),
        15000);
}

void StatusPanel::say(const QString& text, int milliseconds)
{
    QStatusBar* bar = m_window->statusBar();
    int room = bar->width() - 24; // the size grip and margins
    for (QWidget* w : {static_cast<QWidget*>(m_fitReport), static_cast<QWidget*>(m_warnings),
                       static_cast<QWidget*>(m_stage), static_cast<QWidget*>(m_progress)}) {
        room -= w->isVisibleTo(m_window) ? w->sizeHint().width() + 6 : 0;
    }
    bar->showMessage(bar->fontMetrics().elidedText(text, Qt::ElideRight, std::max(room, 80)),
                     milliseconds);
}

void StatusPanel::addToReport(const QString& text, bool shown)
{
    m_lastFitText += text;
    m_fitReport->setToolTip(m_lastFitText + tr("\n(click for the report and any warnings)"));
    if (shown) {
        say(m_lastFitText, 15000);
    }
}

void StatusPanel::clearReport()
{
    m_lastFitText.clear();
    m_fitReport->setVisible(false);
}

QString StatusPanel::fitTimeText(const FitJobResult& r)
{
    QString text = tr("%1 s").arg(r.seconds, 0, 'f', 2);
    // A slow fit says where its time went (the app fits more than `sosrep fit` does).
    if (r.seconds >= 1.0 && !r.stages.empty()) {
        QStringList parts;
        for (const FitJobResult::Stage& st : r.stages) {
            parts << tr("%1 %2 s").arg(QString::fromStdString(st.name)).arg(st.seconds, 0, 'f', 1);
        }
        text += QStringLiteral(" (") + parts.join(QStringLiteral(", ")) + QLatin1Char(')');
    }
    return text;
}

} // namespace sosrep::ui
