// SPDX-License-Identifier: MIT
// The main window's status bar: progress, the stale banner, the warnings and the last fit's
// report (split from main_window.cpp, which builds and connects the views).
#include "core/errors.h"
#include "core/estimators/common_options.h"
#include "core/kernels/kernel_operator.h"
#include "core/metrics/auc.h"
#include "core/tuning/rank_ensemble.h"
#include "ui/controller/negativity_job.h"
#include "ui/controller/ratio_controller.h"
#include "ui/controller/session.h"
#include "ui/controller/settings_history.h"
#include "ui/main_window.h"
#include "ui/panels/data_panel.h"
#include "ui/panels/model_panel.h"
#include "ui/panels/negativity_dialog.h"
#include "ui/panels/wheel_guard.h"
#include "ui/plots/compare_view.h"
#include "ui/plots/density_heatmap.h"
#include "ui/plots/fd_plot.h"
#include "ui/plots/optimizer_view.h"
#include "ui/plots/ratio_view.h"
#include "ui/plots/score_plots.h"
#include "ui/plots/trace_plot.h"
#include "ui/project_file.h"
#include "ui/scores_model.h"
#include <QApplication>
#include <QDockWidget>
#include <QFileDialog>
#include <QGroupBox>
#include <QHeaderView>
#include <QIcon>
#include <QLabel>
#include <QMessageBox>
#include <QProgressBar>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QSortFilterProxyModel>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <functional>

namespace sosrep::ui {

void MainWindow::buildStatusBar()
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
    connect(m_warnings, &QToolButton::clicked, this, &MainWindow::showWarnings);
    m_fitReport = new QToolButton;
    m_fitReport->setObjectName(QStringLiteral("fitReportButton"));
    m_fitReport->setAutoRaise(true);
    m_fitReport->setVisible(false);
    connect(m_fitReport, &QToolButton::clicked, this, &MainWindow::showWarnings);
    statusBar()->addPermanentWidget(m_fitReport);
    statusBar()->addPermanentWidget(m_warnings);
    statusBar()->addPermanentWidget(m_stage);
    statusBar()->addPermanentWidget(m_progress);
}

void MainWindow::refreshWarnings()
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

void MainWindow::showWarnings()
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
        QMessageBox::Close, this);
    box->setObjectName(QStringLiteral("warningsBox"));
    box->setInformativeText(html);
    box->setTextInteractionFlags(Qt::TextSelectableByMouse);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

void MainWindow::showStaleness()
{
    const QString reason = m_session->staleReason();
    m_staleBanner->setText(
        reason.isEmpty() ? QString()
                         : tr("Stale: the views show the last fit, but %1. Press F5 to refit; "
                              "exports are refused until then.")
                               .arg(reason));
    m_staleBanner->setVisible(!reason.isEmpty());
    updateExportActions();
}

void MainWindow::showProgress(const QString& stage, int done, int total)
{
    m_stage->setText(stage);
    m_progress->setRange(0, std::max(1, total));
    m_progress->setValue(done);
}

QString MainWindow::fitTimeText(const FitJobResult& r)
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
