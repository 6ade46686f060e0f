// SPDX-License-Identifier: MIT
#include "ui/main_window.h"

#include "core/errors.h"
#include "core/kernels/kernel_operator.h"
#include "core/metrics/auc.h"
#include "core/tuning/rank_ensemble.h"
#include "ui/controller/estimation_controller.h"
#include "ui/controller/negativity_job.h"
#include "ui/controller/ratio_controller.h"
#include "ui/io/output_set.h"
#include "ui/io/table_text.h"
#include "ui/panels/data_panel.h"
#include "ui/panels/model_panel.h"
#include "ui/panels/negativity_dialog.h"
#include "ui/plots/compare_view.h"
#include "ui/plots/density_heatmap.h"
#include "ui/plots/fd_plot.h"
#include "ui/plots/plot_style.h"
#include "ui/plots/ratio_plot.h"
#include "ui/plots/ratio_view.h"
#include "ui/plots/score_plots.h"
#include "ui/plots/trace_plot.h"
#include "ui/project_file.h"
#include "ui/scores_model.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QClipboard>
#include <QCloseEvent>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDockWidget>
#include <QFileDialog>
#include <QFormLayout>
#include <QGroupBox>
#include <QHeaderView>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QSaveFile>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QSortFilterProxyModel>
#include <QSpinBox>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

namespace sosrep::ui {

void MainWindow::createActions()
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
    connect(saveProjectAction, &QAction::triggered, this, [this] {
        QString path = QFileDialog::getSaveFileName(this, tr("Save project"), lastFolder(),
                                                    tr("SOSREP Studio project (*.sosrep.json)"));
        if (path.isEmpty()) {
            return;
        }
        if (!path.endsWith(QLatin1String(".json"))) {
            path += QStringLiteral(".sosrep.json");
        }
        const QString error = saveProject(path, *m_controller);
        if (error.isEmpty()) {
            statusBar()->showMessage(tr("Saved %1").arg(path), 5000);
        } else {
            showError(error);
        }
    });
    m_recentMenu = file->addMenu(tr("Open &recent"));
    rebuildRecentMenu();
    file->addSeparator();
    QAction* exportPlotAction = file->addAction(tr("&Export plot…"));
    exportPlotAction->setShortcut(Qt::CTRL | Qt::Key_E);
    connect(exportPlotAction, &QAction::triggered, this, &MainWindow::exportPlotInteractively);
    QAction* exportScoresAction = file->addAction(tr("Export &scores…"));
    exportScoresAction->setShortcut(Qt::CTRL | Qt::SHIFT | Qt::Key_E);
    connect(exportScoresAction, &QAction::triggered, this, &MainWindow::exportScoresInteractively);
    file->addSeparator();
    QAction* quit = file->addAction(tr("&Quit"));
    quit->setShortcut(QKeySequence::Quit);
    connect(quit, &QAction::triggered, this, &QWidget::close);
    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    QAction* copy = edit->addAction(tr("&Copy plot (or selected scores)"));
    copy->setShortcut(QKeySequence::Copy);
    connect(copy, &QAction::triggered, this, &MainWindow::copyCurrent);
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
    QAction* pick = view->addAction(tr("&Pick cluster 2 (drag a rectangle on the density)"));
    pick->setShortcut(Qt::CTRL | Qt::Key_K);
    connect(pick, &QAction::triggered, this, [this] {
        m_tabs->setCurrentWidget(m_density);
        m_density->setPickMode(true);
        statusBar()->showMessage(
            tr("Drag a rectangle around cluster 2; the other rows form cluster 1"), 8000);
    });
    QMenu* model = menuBar()->addMenu(tr("&Model"));
    QAction* fit = model->addAction(tr("&Fit"));
    fit->setShortcut(Qt::Key_F5);
    connect(fit, &QAction::triggered, m_controller, &EstimationController::fit);
    QAction* cancel = model->addAction(tr("&Cancel"));
    cancel->setShortcut(Qt::Key_Escape);
    connect(cancel, &QAction::triggered, m_controller, &EstimationController::cancel);
    connect(cancel, &QAction::triggered, m_negativity, &NegativityJob::cancel);
    model->addSeparator();
    QAction* negativity = model->addAction(tr("&Negativity experiment (paper Fig. 3)…"));
    connect(negativity, &QAction::triggered, this, &MainWindow::negativityInteractively);
}

} // namespace sosrep::ui
