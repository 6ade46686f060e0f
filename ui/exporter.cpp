// SPDX-License-Identifier: MIT
// Exporting and copying the current tab's plot and the rows' scores.
#include "ui/exporter.h"

#include "core/io/output_set.h"
#include "core/io/table_text.h"
#include "ui/controller/session.h"
#include "ui/controller/threshold_controller.h"
#include "ui/plots/compare_view.h"
#include "ui/plots/density_page.h"
#include "ui/plots/optimizer_view.h"
#include "ui/plots/ratio_plot.h"
#include "ui/plots/ratio_view.h"
#include "ui/plots/score_plots.h"
#include "ui/plots/trace_plot.h"
#include "ui/project_files.h"
#include "ui/scores_tab.h"

#include <QClipboard>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QGuiApplication>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QTabWidget>

#include <qcustomplot.h>

namespace sosrep::ui {

Exporter::Exporter(QWidget* window, const WindowViews& views, const WindowControllers& controllers)
    : QObject(window), m_window(window), m_v(views), m_c(controllers)
{
}

QWidget* Exporter::currentPlot() const
{
    QWidget* page = m_v.tabs->currentWidget();
    if (page == m_v.compare) {
        return m_v.compare; // the maps, the read-outs and the bottom row, exported whole
    }
    if (page == m_v.optimizer) {
        return m_v.trace;
    }
    if (page == m_v.densityPage) {
        return m_v.densityPage->currentPlot();
    }
    if (page == m_v.ratio) {
        return m_v.ratio->plot(); // map, tuning surface and weights: one plot, exported whole
    }
    if (auto* plot = qobject_cast<QCustomPlot*>(page)) {
        return plot;
    }
    return page->findChild<ScorePlots*>();
}

QString Exporter::exportRefusal(const QString& path) const
{
    if (m_v.tabs->currentWidget() == m_v.ratio) {
        return {}; // the Ratio view has its own samples and fit
    }
    const QString reason = m_c.session->staleReason();
    if (!reason.isEmpty()) {
        return tr("%1: not exported: the results are stale (%2); press F5 to refit first")
            .arg(path, reason);
    }
    return {};
}

QString Exporter::exportCurrentPlot(const QString& path, const ExportOptions& options)
{
    QWidget* plot = currentPlot();
    QString error = exportRefusal(path);
    if (error.isEmpty()) {
        error = plot ? exportPlot(plot, path, options)
                     : tr("%1: the Scores tab has no plot; use Export scores").arg(path);
    }
    return error.isEmpty() ? error : refuse(error);
}

QString Exporter::exportScores(const QString& path)
{
    const FitJobResult* r = m_c.session->result();
    if (!r) {
        return refuse(tr("%1: nothing to export yet: fit a model first").arg(path));
    }
    if (const QString e = exportRefusal(path); !e.isEmpty()) {
        return refuse(e);
    }
    if (!r->scoresReady()) {
        const QString e =
            r->scoresDeferred
                ? tr("%1: the rows are still being scored (after the density "
                     "view); export when the Scores view fills")
                      .arg(path)
                : tr("%1: no row scores to export (the Scores view's stage failed)").arg(path);
        return refuse(e);
    }
    // The same table, byte for byte, as `sosrep fit --scores-out` writes (with the purpose of
    // the Scores view's model: `sosrep fit --purpose anomaly` when the app tuned it for that).
    try {
        io::OutputSet out;
        const std::string file = path.toStdString();
        out.plan(file, "scores");
        // With the Scores view's outlier flags when they are computed (the same outlier column
        // as `sosrep fit --contamination`).
        const std::optional<OutlierThreshold>& t = m_c.thresholds->threshold();
        const Dataset& data = m_c.session->data().featureData();
        out.stage(file, io::scoresText(file, r->rowLogDensity, r->scoresModel().kind(),
                                       m_c.session->data().labels(),
                                       t ? std::optional<double>(t->offset) : std::nullopt,
                                       data.rowNames, data.rowNameColumn));
        out.commit();
        return {};
    } catch (const std::exception& ex) {
        const QString e =
            tr("%1: cannot write scores (%2)").arg(path, QString::fromStdString(ex.what()));
        return refuse(e);
    }
}

void Exporter::exportPlotInteractively()
{
    QWidget* plot = currentPlot();
    if (!plot) {
        exportScoresInteractively();
        return;
    }
    const QString path =
        QFileDialog::getSaveFileName(m_window, tr("Export plot"), lastFolder(),
                                     tr("PNG image (*.png);;PDF (*.pdf);;SVG (*.svg)"));
    if (path.isEmpty()) {
        return;
    }
    QDialog dialog(m_window);
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
    // The plot's numbers as a command or Python, copied without leaving the dialog.
    connect(buttons->addButton(tr("Copy as command"), QDialogButtonBox::ActionRole),
            &QPushButton::clicked, this, [this] { copyReproduction(false); });
    connect(buttons->addButton(tr("Copy as Python"), QDialogButtonBox::ActionRole),
            &QPushButton::clicked, this, [this] { copyReproduction(true); });
    form->addRow(buttons);
    connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    if (dialog.exec() != QDialog::Accepted) {
        return;
    }
    QSettings().setValue(QStringLiteral("export/dpi"), dpi->value());
    QSettings().setValue(QStringLiteral("files/lastFolder"), QFileInfo(path).absolutePath());
    if (exportCurrentPlot(path, {width->value(), height->value(), dpi->value()}).isEmpty()) {
        emit message(tr("Exported %1").arg(path), 5000);
    }
}

void Exporter::exportScoresInteractively()
{
    const QString path = QFileDialog::getSaveFileName(m_window, tr("Export scores"), lastFolder(),
                                                      tr("CSV (*.csv)"));
    if (!path.isEmpty() && exportScores(path).isEmpty()) {
        QSettings().setValue(QStringLiteral("files/lastFolder"), QFileInfo(path).absolutePath());
        emit message(tr("Exported %1").arg(path), 5000);
    }
}

void Exporter::copyCurrent()
{
    const bool rowsSelected =
        m_v.tabs->currentWidget() == m_v.scores && !m_v.scores->selectedRows().isEmpty();
    if (QWidget* plot = currentPlot(); plot && !rowsSelected) {
        copyPlotToClipboard(plot);
        emit message(tr("Plot copied to the clipboard"), 3000);
        return;
    }
    // Scores tab: the selected rows as tab-separated text.
    QGuiApplication::clipboard()->setText(m_v.scores->selectedRowsText());
}

QString Exporter::refuse(const QString& why)
{
    emit error(why);
    return why;
}

Reproduction Exporter::reproduction() const
{
    if (m_v.tabs->currentWidget() == m_v.ratio) {
        return reproduceRatio(*m_c.session, *m_c.ratios);
    }
    const ReproducedView view =
        m_v.tabs->currentWidget() == m_v.scores ? ReproducedView::Scores : ReproducedView::Density;
    return reproduce(*m_c.session, view, m_c.thresholds->contamination());
}

void Exporter::copyReproduction(bool python)
{
    try {
        const Reproduction r = reproduction();
        QGuiApplication::clipboard()->setText(python ? r.python : r.command);
        emit message(python ? tr("Copied the Python that reproduces this view's numbers")
                            : tr("Copied the sosrep command that reproduces this view's numbers"),
                     5000);
    } catch (const std::exception& e) {
        emit error(QString::fromStdString(e.what()));
    }
}

} // namespace sosrep::ui
