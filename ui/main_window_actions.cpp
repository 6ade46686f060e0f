// SPDX-License-Identifier: MIT
// The menus and the desktop conventions around them: title with the file and a modified mark,
// undo and redo of settings, recent data and projects, asking to save on quit, Help.
#include "ui/main_window.h"
#include "ui/plots/density_curve_plot.h"
#include "ui/plots/density_page.h"

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
namespace {

bool isProjectPath(const QString& path)
{
    return path.endsWith(QLatin1String(".json"), Qt::CaseInsensitive);
}

} // namespace

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
    connect(m_tabs, &QTabWidget::currentChanged, this, &MainWindow::updateExportActions);
    for (auto signal : {&Session::fitFinished, &Session::dataChanged, &Session::settingsChanged}) {
        connect(m_session, signal, this, &MainWindow::updateExportActions);
    }
    updateExportActions();
}

void MainWindow::createFileMenu()
{
    QMenu* file = menuBar()->addMenu(tr("&File"));
    QAction* open = file->addAction(tr("&Open…"));
    open->setShortcut(QKeySequence::Open);
    connect(open, &QAction::triggered, this, &MainWindow::openInteractively);
    QAction* openProjectAction = file->addAction(tr("Open &project…"));
    openProjectAction->setShortcut(Qt::CTRL | Qt::SHIFT | Qt::Key_O);
    connect(openProjectAction, &QAction::triggered, this, [this] {
        const QString path =
            QFileDialog::getOpenFileName(this, tr("Open project"), lastFolder(),
                                         tr("SOSREP Studio project (*.sosrep.json *.json)"));
        if (!path.isEmpty()) {
            openProjectFile(path);
        }
    });
    QAction* saveProjectAction = file->addAction(tr("&Save project…"));
    saveProjectAction->setShortcut(QKeySequence::Save);
    connect(saveProjectAction, &QAction::triggered, this, &MainWindow::saveProjectInteractively);
    m_recentMenu = file->addMenu(tr("Open &recent"));
    rebuildRecentMenu();
    file->addSeparator();
    m_exportPlotAction = file->addAction(tr("&Export plot…"));
    m_exportPlotAction->setShortcut(Qt::CTRL | Qt::Key_E);
    connect(m_exportPlotAction, &QAction::triggered, this, &MainWindow::exportPlotInteractively);
    m_exportScoresAction = file->addAction(tr("Export &scores…"));
    m_exportScoresAction->setShortcut(Qt::CTRL | Qt::SHIFT | Qt::Key_E);
    connect(m_exportScoresAction, &QAction::triggered, this,
            &MainWindow::exportScoresInteractively);
    file->addSeparator();
    QAction* quit = file->addAction(tr("&Quit"));
    quit->setShortcut(QKeySequence::Quit);
    connect(quit, &QAction::triggered, this, &QWidget::close);
}

void MainWindow::createEditMenu()
{
    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    QAction* undo = m_history->stack()->createUndoAction(this, tr("&Undo"));
    undo->setShortcut(QKeySequence::Undo);
    QAction* redo = m_history->stack()->createRedoAction(this, tr("&Redo"));
    redo->setShortcut(QKeySequence::Redo);
    edit->addAction(undo);
    edit->addAction(redo);
    edit->addSeparator();
    QAction* copy = edit->addAction(tr("&Copy plot (or selected scores)"));
    copy->setShortcut(QKeySequence::Copy);
    connect(copy, &QAction::triggered, this, &MainWindow::copyCurrent);
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
            m_density->setColormap(name);
            m_compare->firstView()->setColormap(name);
            m_compare->secondView()->setColormap(name);
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
        a->setChecked(scale == m_mapScale);
        scaleGroup->addAction(a);
        connect(a, &QAction::triggered, this, [this, scale = scale] { setMapScale(scale); });
        m_mapScaleActions << a;
    }
    m_jointAction = view->addAction(tr("&Joint plot: marginals on the map's edges"));
    m_jointAction->setCheckable(true);
    connect(m_jointAction, &QAction::toggled, this, &MainWindow::setJoint);
    QAction* resetZoom = view->addAction(tr("&Reset zoom"));
    resetZoom->setShortcut(Qt::Key_Home);
    connect(resetZoom, &QAction::triggered, this, [this] {
        QWidget* page = m_tabs->currentWidget() == m_densityPage ? m_densityPage->currentPlot()
                                                                 : m_tabs->currentWidget();
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
        m_tabs->setCurrentWidget(m_densityPage);
        m_densityPage->showView(-1);
        m_density->setPickMode(true);
        statusBar()->showMessage(
            tr("Drag a rectangle around cluster 2; the other rows form cluster 1"), 8000);
    });
    return pick;
}

void MainWindow::createModelAndHelpMenus()
{
    QMenu* model = menuBar()->addMenu(tr("&Model"));
    QAction* fit = model->addAction(tr("&Fit"));
    fit->setShortcut(Qt::Key_F5);
    connect(fit, &QAction::triggered, m_fits, &FitController::fit);
    QAction* cancel = model->addAction(tr("&Cancel"));
    cancel->setShortcut(Qt::Key_Escape);
    connect(cancel, &QAction::triggered, m_session, &Session::cancel);
    connect(cancel, &QAction::triggered, m_negativity, &NegativityJob::cancel);
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
    const bool ratio = m_tabs->currentWidget() == m_ratio;
    const QString stale = m_session->staleReason();
    const bool fitted = m_session->result() != nullptr;
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

QString MainWindow::aboutText() const
{
    return tr("<h3>SOSREP Studio %8</h3>"
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

QString MainWindow::quickGuide() const
{
    // Kept as HTML in resources/, where it reads (and is edited) as the page it is.
    QFile guide(QStringLiteral(":/quick_guide.html"));
    return guide.open(QIODevice::ReadOnly) ? QString::fromUtf8(guide.readAll()) : QString();
}

void MainWindow::saveProjectInteractively()
{
    const QString path = QFileDialog::getSaveFileName(this, tr("Save project"), lastFolder(),
                                                      tr("SOSREP Studio project (*.sosrep.json)"));
    if (path.isEmpty()) {
        return;
    }
    saveProjectTo(projectPathFor(path));
}

QString MainWindow::saveProjectTo(const QString& path)
{
    const QString error = saveProject(path, projectParts());
    if (!error.isEmpty()) {
        showError(error);
        return error;
    }
    becomeProject(path, tr("Saved %1").arg(path), 5000);
    return {};
}

void MainWindow::becomeProject(const QString& path, const QString& message, int milliseconds)
{
    m_projectPath = path;
    rememberFile(path);
    setWindowModified(false);
    updateTitle();
    statusBar()->showMessage(message, milliseconds);
}

void MainWindow::updateTitle()
{
    const QString source =
        !m_projectPath.isEmpty() ? m_projectPath : m_session->data().dataSource();
    const QString name = source.isEmpty()                           ? tr("untitled")
                         : source.startsWith(QLatin1String("toy:")) ? source
                                                                    : QFileInfo(source).fileName();
    setWindowTitle(tr("%1[*] — SOSREP Studio").arg(name));
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    if (isWindowModified()) {
        switch (askToSave()) {
        case QMessageBox::Save:
            if (m_projectPath.isEmpty()) {
                saveProjectInteractively();
            } else {
                saveProjectTo(m_projectPath);
            }
            if (isWindowModified()) { // not saved (cancelled or failed): stay open
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

void MainWindow::rememberFile(const QString& path)
{
    QSettings settings;
    settings.setValue(QStringLiteral("files/lastFolder"), QFileInfo(path).absolutePath());
    QStringList recent = settings.value(QStringLiteral("files/recent")).toStringList();
    recent.removeAll(QFileInfo(path).absoluteFilePath());
    recent.prepend(QFileInfo(path).absoluteFilePath());
    settings.setValue(QStringLiteral("files/recent"), recent.mid(0, 8));
    rebuildRecentMenu();
}

void MainWindow::rebuildRecentMenu()
{
    m_recentMenu->clear();
    const QStringList recent = QSettings().value(QStringLiteral("files/recent")).toStringList();
    for (const QString& path : recent) {
        // Data files and projects in one list; a project says so.
        const QString label = isProjectPath(path)
                                  ? tr("%1 (project)").arg(QFileInfo(path).fileName())
                                  : QFileInfo(path).fileName();
        QAction* a = m_recentMenu->addAction(label);
        a->setToolTip(path);
        connect(a, &QAction::triggered, this, [this, path] {
            if (isProjectPath(path)) {
                openProjectFile(path);
            } else {
                openFile(path);
            }
        });
    }
    m_recentMenu->setEnabled(!recent.isEmpty());
}

QStringList MainWindow::recentFiles() const
{
    QStringList out;
    for (QAction* a : m_recentMenu->actions()) {
        out << a->toolTip();
    }
    return out;
}

QString MainWindow::openProjectFile(const QString& path)
{
    m_loading = true;
    const ProjectOpenResult r = openProject(path, projectParts());
    m_loading = false;
    m_outlierBar->setContamination(m_thresholds->contamination());
    if (!r.error.isEmpty()) {
        showError(r.error);
        return r.error;
    }
    if (!r.warning.isEmpty()) {
        showError(r.warning);
    }
    becomeProject(path, tr("Opened project %1: press F5 to fit").arg(path), 8000);
    return {};
}

void MainWindow::openInteractively()
{
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Open data"), lastFolder(), tr("Data (*.csv *.tsv *.txt *.npz);;All files (*)"));
    if (!path.isEmpty()) {
        openFile(path);
    }
}

} // namespace sosrep::ui
