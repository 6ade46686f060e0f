// SPDX-License-Identifier: MIT
// The window's menus and the desktop conventions around them: shortcuts that win over a focused
// field, export offered only when current, asking to save on quit, Help.
#include "ui/main_window.h"

#include "ui/density_tab.h"
#include "ui/exporter.h"
#include "ui/plots/density_curve_plot.h"
#include "ui/plots/density_page.h"
#include "ui/project_files.h"
#include "ui/status_panel.h"

#include "ui/controller/fit_controller.h"
#include "ui/controller/negativity_job.h"
#include "ui/controller/session.h"
#include "ui/controller/settings_history.h"
#include "ui/controller/threshold_controller.h"
#include "ui/panels/outlier_bar.h"
#include "ui/plots/compare_view.h"
#include "ui/plots/density_heatmap.h"
#include "ui/plots/plot_style.h"
#include "ui/plots/ratio_view.h"
#include "ui/project_file.h"

#include <qcustomplot.h>

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QKeyEvent>
#include <QMenuBar>
#include <QMessageBox>
#include <QSettings>
#include <QStatusBar>
#include <QTabWidget>
#include <QUndoStack>
#include <zlib.h>

#include <Eigen/Core>

namespace sosrep::ui {

void MainWindow::createActions()
{
    createFileMenu();
    createEditMenu();
    QAction* pick = createViewMenu();
    createModelAndHelpMenus();

    // Our shortcuts win over the editing keys a focused spin box or line edit claims (Ctrl+E
    // and Ctrl+K move the cursor in line edits on X11, so Export did nothing there).
    for (QAction* a : {m_exportPlotAction, m_exportScoresAction, pick}) {
        m_globalShortcuts << a->shortcut();
    }
    qApp->installEventFilter(this);
    connect(m_v.tabs, &QTabWidget::currentChanged, this, &MainWindow::updateExportActions);
    for (auto signal : {&Session::fitFinished, &Session::dataChanged, &Session::settingsChanged}) {
        connect(m_c.session, signal, this, &MainWindow::updateExportActions);
    }
    updateExportActions();
}

void MainWindow::createFileMenu()
{
    QMenu* file = menuBar()->addMenu(tr("&File"));
    QAction* open = file->addAction(tr("&Open…"));
    open->setShortcut(QKeySequence::Open);
    connect(open, &QAction::triggered, m_files, &ProjectFiles::openDataInteractively);
    QAction* openProjectAction = file->addAction(tr("Open &project…"));
    openProjectAction->setShortcut(Qt::CTRL | Qt::SHIFT | Qt::Key_O);
    connect(openProjectAction, &QAction::triggered, m_files,
            &ProjectFiles::openProjectInteractively);
    QAction* saveProjectAction = file->addAction(tr("&Save project…"));
    saveProjectAction->setShortcut(QKeySequence::Save);
    connect(saveProjectAction, &QAction::triggered, m_files, &ProjectFiles::saveInteractively);
    file->addMenu(m_files->recentMenu());
    file->addSeparator();
    m_exportPlotAction = file->addAction(tr("&Export plot…"));
    m_exportPlotAction->setShortcut(Qt::CTRL | Qt::Key_E);
    connect(m_exportPlotAction, &QAction::triggered, m_exporter,
            &Exporter::exportPlotInteractively);
    m_exportScoresAction = file->addAction(tr("Export &scores…"));
    m_exportScoresAction->setShortcut(Qt::CTRL | Qt::SHIFT | Qt::Key_E);
    connect(m_exportScoresAction, &QAction::triggered, m_exporter,
            &Exporter::exportScoresInteractively);
    file->addSeparator();
    QAction* quit = file->addAction(tr("&Quit"));
    quit->setShortcut(QKeySequence::Quit);
    connect(quit, &QAction::triggered, this, &QWidget::close);
}

void MainWindow::createEditMenu()
{
    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    QAction* undo = m_c.history->stack()->createUndoAction(this, tr("&Undo"));
    undo->setShortcut(QKeySequence::Undo);
    QAction* redo = m_c.history->stack()->createRedoAction(this, tr("&Redo"));
    redo->setShortcut(QKeySequence::Redo);
    edit->addAction(undo);
    edit->addAction(redo);
    edit->addSeparator();
    QAction* copy = edit->addAction(tr("&Copy plot (or selected scores)"));
    copy->setShortcut(QKeySequence::Copy);
    connect(copy, &QAction::triggered, m_exporter, &Exporter::copyCurrent);
}

QAction* MainWindow::createViewMenu()
{
    QMenu* view = menuBar()->addMenu(tr("&View"));
    QMenu* maps = view->addMenu(tr("Colour &map"));
    auto* mapGroup = new QActionGroup(this);
    for (const QString& name : colormapNames()) {
        if (name.startsWith(QLatin1String("RdBu"))) {
            continue; // diverging: kept for the difference map
        }
        QAction* a = maps->addAction(name);
        a->setCheckable(true);
        a->setChecked(name == QLatin1String("viridis"));
        mapGroup->addAction(a);
        connect(a, &QAction::triggered, this, [this, name] {
            m_v.density->setColormap(name);
            m_v.compare->firstView()->setColormap(name);
            m_v.compare->secondView()->setColormap(name);
        });
    }
    QMenu* scales = view->addMenu(tr("Map &colours"));
    auto* scaleGroup = new QActionGroup(this);
    const std::pair<MapScale, QString> scaleNames[] = {
        {MapScale::Log, tr("&Log density (the tails readable)")},
        {MapScale::Linear, tr("&Density, linear (where the mass is)")},
        {MapScale::Proportion, tr("&Iso-proportion levels (filled, 10 steps)")}};
    for (const auto& [scale, name] : scaleNames) {
        QAction* a = scales->addAction(name);
        a->setCheckable(true);
        a->setChecked(scale == m_v.densityTab->mapScale());
        scaleGroup->addAction(a);
        connect(a, &QAction::triggered, this,
                [this, scale = scale] { m_v.densityTab->setMapScale(scale); });
        m_mapScaleActions << a;
    }
    // Set elsewhere too (a project, --color-scale): the marks follow.
    connect(m_v.densityTab, &DensityTab::mapScaleChanged, this, [this](MapScale scale) {
        for (int k = 0; k < m_mapScaleActions.size(); ++k) {
            m_mapScaleActions[k]->setChecked(k == int(scale));
        }
    });
    m_jointAction = view->addAction(tr("&Joint plot: marginals on the map's edges"));
    m_jointAction->setCheckable(true);
    connect(m_jointAction, &QAction::toggled, m_v.densityTab, &DensityTab::setJoint);
    connect(m_v.densityTab, &DensityTab::jointChanged, m_jointAction, [this](bool on) {
        if (m_jointAction->isChecked() != on) {
            m_jointAction->setChecked(on);
        }
    });
    // The numbers of the view shown, as a command line or Python (JASP shows its R syntax).
    connect(view->addAction(tr("Copy as &command")), &QAction::triggered, m_exporter,
            [this] { m_exporter->copyReproduction(false); });
    connect(view->addAction(tr("Copy as P&ython")), &QAction::triggered, m_exporter,
            [this] { m_exporter->copyReproduction(true); });
    QAction* resetZoom = view->addAction(tr("&Reset zoom"));
    resetZoom->setShortcut(Qt::Key_Home);
    connect(resetZoom, &QAction::triggered, this, [this] {
        QWidget* page = m_v.tabs->currentWidget() == m_v.densityPage
                            ? m_v.densityPage->currentPlot()
                            : m_v.tabs->currentWidget();
        if (auto* map = qobject_cast<DensityHeatmap*>(page)) {
            map->resetZoom();
        } else if (auto* curve = qobject_cast<DensityCurvePlot*>(page)) {
            curve->resetZoom();
        } else if (auto* plot = qobject_cast<QCustomPlot*>(page)) {
            plot->rescaleAxes();
            plot->replot();
        }
    });
    QAction* pick = view->addAction(tr("&Pick cluster 2 (drag a rectangle on the density)"));
    pick->setShortcut(Qt::CTRL | Qt::Key_K);
    connect(pick, &QAction::triggered, this, [this] {
        m_v.tabs->setCurrentWidget(m_v.densityPage);
        m_v.densityPage->showView(-1);
        m_v.density->setPickMode(true);
        showMessage(tr("Drag a rectangle around cluster 2; the other rows form cluster 1"), 8000);
    });
    return pick;
}

void MainWindow::createModelAndHelpMenus()
{
    QMenu* model = menuBar()->addMenu(tr("&Model"));
    QAction* fit = model->addAction(tr("&Fit"));
    fit->setShortcut(Qt::Key_F5);
    connect(fit, &QAction::triggered, m_c.fits, &FitController::fit);
    QAction* cancel = model->addAction(tr("&Cancel"));
    cancel->setShortcut(Qt::Key_Escape);
    connect(cancel, &QAction::triggered, m_c.session, &Session::cancel);
    connect(cancel, &QAction::triggered, m_c.negativity, &NegativityJob::cancel);
    model->addSeparator();
    QAction* negativity = model->addAction(tr("&Negativity experiment (paper Fig. 3)…"));
    connect(negativity, &QAction::triggered, this, &MainWindow::negativityInteractively);

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    QAction* guide = help->addAction(tr("&Quick guide"));
    guide->setShortcut(QKeySequence::HelpContents);
    connect(guide, &QAction::triggered, this,
            [this] { QMessageBox::information(this, tr("Quick guide"), quickGuide()); });
    QAction* about = help->addAction(tr("&About SOSREP Studio"));
    connect(about, &QAction::triggered, this,
            [this] { QMessageBox::about(this, tr("About SOSREP Studio"), aboutText()); });
}

void MainWindow::updateExportActions()
{
    if (!m_exportPlotAction) {
        return; // called while the window is still being built
    }
    const bool ratio = m_v.tabs->currentWidget() == m_v.ratio;
    const QString stale = m_c.session->staleReason();
    const bool fitted = m_c.session->result() != nullptr;
    const QString why = !fitted ? tr("nothing fitted yet (F5 fits)")
                        : !stale.isEmpty()
                            ? tr("the results are stale (%1): press F5 to refit").arg(stale)
                            : QString();
    m_exportPlotAction->setEnabled(ratio || why.isEmpty());
    m_exportScoresAction->setEnabled(why.isEmpty());
    for (QAction* a : {m_exportPlotAction, m_exportScoresAction}) {
        a->setStatusTip(a->isEnabled() ? QString() : tr("Not available: %1").arg(why));
    }
}

bool MainWindow::eventFilter(QObject* watched, QEvent* event)
{
    if (event->type() == QEvent::ShortcutOverride) {
        auto* key = static_cast<QKeyEvent*>(event);
        const QKeySequence pressed(key->keyCombination());
        // Not accepted here, so the shortcut map (our action) gets the key.
        if (m_globalShortcuts.contains(pressed) && isAncestorOf(qobject_cast<QWidget*>(watched))) {
            return true;
        }
    }
    return QMainWindow::eventFilter(watched, event);
}

QString aboutText()
{
    return MainWindow::tr(
               "<h3>SOSREP Studio %8</h3>"
               "<p>Non-parametric density estimation: SOSREP (p = f², natural gradient, "
               "Fisher-divergence tuning), KDE, kernel sums of squares by MMD, FIRE density "
               "ratios, and anomaly scores from the density.</p>"
               "<p><b>How to cite the method.</b> M. Kozdoba, B. Perets, S. Mannor. "
               "<i>Sobolev Space Regularised Pre Density Models.</i> Proceedings of the 41st "
               "International Conference on Machine Learning (ICML), PMLR 235, 2024 "
               "(arXiv:2307.13763); "
               "a later version is titled <i>Unnormalized Density Estimation with Root Sobolev "
               "Norm Regularization</i>.</p>"
               "<p>Built with Qt %1 (running %2), QCustomPlot %3, Eigen %4.%5.%6, zlib %7.</p>")
        .arg(QStringLiteral(QT_VERSION_STR), QString::fromLatin1(qVersion()),
             QStringLiteral(QCUSTOMPLOT_VERSION_STR))
        .arg(EIGEN_WORLD_VERSION)
        .arg(EIGEN_MAJOR_VERSION)
        .arg(EIGEN_MINOR_VERSION)
        .arg(QStringLiteral(ZLIB_VERSION))
        .arg(QStringLiteral(SOSREP_VERSION));
}

QString quickGuide()
{
    // Kept as HTML in resources/, where it reads (and is edited) as the page it is.
    QFile guide(QStringLiteral(":/quick_guide.html"));
    return guide.open(QIODevice::ReadOnly) ? QString::fromUtf8(guide.readAll()) : QString();
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    if (isWindowModified()) {
        switch (askToSave()) {
        case QMessageBox::Save:
            if (!m_files->saveBeforeClosing()) { // not saved (cancelled or failed): stay open
                event->ignore();
                return;
            }
            break;
        case QMessageBox::Discard:
            break;
        default:
            event->ignore();
            return;
        }
    }
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("window/state"), saveState());
    QMainWindow::closeEvent(event);
}

QMessageBox::StandardButton MainWindow::askToSave()
{
    return QMessageBox::question(
        this, tr("Save changes?"),
        tr("The settings changed since the project was last saved. Save the project before "
           "quitting?"),
        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
}

} // namespace sosrep::ui
