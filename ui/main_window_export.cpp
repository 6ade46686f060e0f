// SPDX-License-Identifier: MIT
// Exporting and copying plots and scores from the main window.
#include "ui/main_window.h"
#include "ui/plots/density_page.h"

#include "core/io/output_set.h"
#include "core/io/table_text.h"
#include "ui/controller/session.h"
#include "ui/controller/threshold_controller.h"
#include "ui/plots/compare_view.h"
#include "ui/plots/optimizer_view.h"
#include "ui/plots/ratio_plot.h"
#include "ui/plots/ratio_view.h"
#include "ui/plots/score_plots.h"
#include "ui/plots/trace_plot.h"

#include <QApplication>
#include <QClipboard>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QItemSelectionModel>
#include <QLabel>
#include <QSettings>
#include <QSpinBox>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>

namespace sosrep::ui {

QWidget* MainWindow::currentPlot() const
{
    QWidget* page = m_tabs->currentWidget();
    if (page == m_compare) {
        return m_compare; // the maps, the read-outs and the bottom row, exported whole
    }
    if (page == m_optimizer) {
        return m_trace;
    }
    if (page == m_densityPage) {
        return m_densityPage->currentPlot();
    }
    if (page == m_ratio) {
        return m_ratio->plot(); // map, tuning surface and weights: one plot, exported whole
    }
    if (auto* plot = qobject_cast<QCustomPlot*>(page)) {
        return plot;
    }
    return page->findChild<ScorePlots*>();
}

QString MainWindow::staleText() const
{
    return m_session->staleReason().isEmpty() ? QString() : m_staleBanner->text();
}

QString MainWindow::exportRefusal(const QString& path) const
{
    if (m_tabs->currentWidget() == m_ratio) {
        return {}; // the Ratio view has its own samples and fit
    }
    const QString reason = m_session->staleReason();
    if (!reason.isEmpty()) {
        return tr("%1: not exported: the results are stale (%2); press F5 to refit first")
            .arg(path, reason);
    }
    return {};
}

QString MainWindow::exportCurrentPlot(const QString& path, const ExportOptions& options)
{
    QWidget* plot = currentPlot();
    QString error = exportRefusal(path);
    if (error.isEmpty()) {
        error = plot ? exportPlot(plot, path, options)
                     : tr("%1: the Scores tab has no plot; use Export scores").arg(path);
    }
    if (!error.isEmpty()) {
        showError(error);
    }
    return error;
}

QString MainWindow::exportScores(const QString& path)
{
    const FitJobResult* r = m_session->result();
    if (!r) {
        const QString e = tr("%1: nothing to export yet: fit a model first").arg(path);
        showError(e);
        return e;
    }
    if (const QString e = exportRefusal(path); !e.isEmpty()) {
        showError(e);
        return e;
    }
    if (!r->scoresReady()) {
        const QString e =
            r->scoresDeferred
                ? tr("%1: the rows are still being scored (after the density "
                     "view); export when the Scores view fills")
                      .arg(path)
                : tr("%1: no row scores to export (the Scores view's stage failed)").arg(path);
        showError(e);
        return e;
    }
    // The same table, byte for byte, as `sosrep fit --scores-out` writes (with the purpose of
    // the Scores view's model: `sosrep fit --purpose anomaly` when the app tuned it for that).
    try {
        io::OutputSet out;
        const std::string file = path.toStdString();
        out.plan(file, "scores");
        // With the Scores view's outlier flags when they are computed (the same outlier column
        // as `sosrep fit --contamination`).
        const std::optional<OutlierThreshold>& t = m_thresholds->threshold();
        const Dataset& data = m_session->data().featureData();
        out.stage(file, io::scoresText(file, r->rowLogDensity, r->scoresModel().kind(),
                                       m_session->data().labels(),
                                       t ? std::optional<double>(t->offset) : std::nullopt,
                                       data.rowNames, data.rowNameColumn));
        out.commit();
        return {};
    } catch (const std::exception& ex) {
        const QString e =
            tr("%1: cannot write scores (%2)").arg(path, QString::fromStdString(ex.what()));
        showError(e);
        return e;
    }
}

void MainWindow::exportPlotInteractively()
{
    QWidget* plot = currentPlot();
    if (!plot) {
        exportScoresInteractively();
        return;
    }
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export plot"), lastFolder(), tr("PNG image (*.png);;PDF (*.pdf);;SVG (*.svg)"));
    if (path.isEmpty()) {
        return;
    }
    QDialog dialog(this);
    dialog.setWindowTitle(tr("Export size"));
    auto* form = new QFormLayout(&dialog);
    auto* width = new QSpinBox(&dialog);
    auto* height = new QSpinBox(&dialog);
    auto* dpi = new QSpinBox(&dialog);
    width->setRange(100, 10000);
    height->setRange(100, 10000);
    dpi->setRange(50, 1200);
    width->setValue(plot->width());
    height->setValue(plot->height());
    dpi->setValue(QSettings().value(QStringLiteral("export/dpi"), 150).toInt());
    dpi->setEnabled(path.endsWith(QLatin1String(".png"), Qt::CaseInsensitive));
    form->addRow(tr("Width (px at 96 DPI)"), width);
    form->addRow(tr("Height"), height);
    form->addRow(tr("PNG resolution (DPI)"), dpi);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, &dialog);
    form->addRow(buttons);
    connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    if (dialog.exec() != QDialog::Accepted) {
        return;
    }
    QSettings().setValue(QStringLiteral("export/dpi"), dpi->value());
    QSettings().setValue(QStringLiteral("files/lastFolder"), QFileInfo(path).absolutePath());
    if (exportCurrentPlot(path, {width->value(), height->value(), dpi->value()}).isEmpty()) {
        statusBar()->showMessage(tr("Exported %1").arg(path), 5000);
    }
}

void MainWindow::exportScoresInteractively()
{
    const QString path =
        QFileDialog::getSaveFileName(this, tr("Export scores"), lastFolder(), tr("CSV (*.csv)"));
    if (!path.isEmpty() && exportScores(path).isEmpty()) {
        QSettings().setValue(QStringLiteral("files/lastFolder"), QFileInfo(path).absolutePath());
        statusBar()->showMessage(tr("Exported %1").arg(path), 5000);
    }
}

void MainWindow::copyCurrent()
{
    const bool rowsSelected = m_tabs->currentWidget()->isAncestorOf(m_scoresView) &&
                              m_scoresView->selectionModel()->hasSelection();
    if (QWidget* plot = currentPlot(); plot && !rowsSelected) {
        copyPlotToClipboard(plot);
        statusBar()->showMessage(tr("Plot copied to the clipboard"), 3000);
        return;
    }
    // Scores tab: the selected rows as tab-separated text.
    QStringList lines;
    const QModelIndexList rows = m_scoresView->selectionModel()->selectedRows();
    for (const QModelIndex& r : rows) {
        QStringList cells;
        for (int c = 0; c < m_scoresView->model()->columnCount(); ++c) {
            cells << m_scoresView->model()->index(r.row(), c).data().toString();
        }
        lines << cells.join(QLatin1Char('\t'));
    }
    QGuiApplication::clipboard()->setText(lines.join(QLatin1Char('\n')));
}

} // namespace sosrep::ui
