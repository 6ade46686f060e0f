// SPDX-License-Identifier: MIT
// The main window: composes the session, the controllers, the panels and the views; owns the menus.
#pragma once

#include "core/experiments/negativity.h"
#include "ui/plots/fd_plot.h"

#include <QKeySequence>
#include <QList>
#include <QMainWindow>
#include <QMessageBox>

class QAction;
class QTabWidget;

namespace sosrep::ui {

class ClusterController;
class CompareView;
class DensityHeatmap;
class DensityPage;
class DensityTab;
class Exporter;
class FitController;
class GridController;
class HueController;
class MarginalController;
class NegativityJob;
class OptimizerView;
class OtherRocController;
class OverlayController;
class PairPlotController;
class ProjectFiles;
class RatioController;
class RatioView;
class ScoresTab;
class Session;
class SettingsHistory;
class StatusPanel;
class ThresholdController;
class TracePlot;

/// The session and the controllers that listen to it (each to it alone), as the window made
/// them: one per view or feature.
struct WindowControllers
{
    Session* session;
    FitController* fits;
    GridController* grids;
    RatioController* ratios;
    HueController* hue;
    PairPlotController* pairs;
    OverlayController* overlays;
    OtherRocController* otherRocs;
    MarginalController* marginals;
    ThresholdController* thresholds;
    ClusterController* clusters;
    NegativityJob* negativity;
    SettingsHistory* history;
};

/// The views in the window's tabs, and the bindings of the two tabs that draw from several
/// controllers.
struct WindowViews
{
    QTabWidget* tabs;
    DensityPage* densityPage;
    DensityHeatmap* density; // the Density tab's map
    DensityTab* densityTab;
    OptimizerView* optimizer;
    TracePlot* trace;
    FdPlot* fd;
    ScoresTab* scores;
    CompareView* compare;
    RatioView* ratio;
};

/// Composition and menus: panels on the left, views in tabs, the status area below. The state
/// lives in the session and the controllers; the files in ProjectFiles and the exports in
/// Exporter.
class MainWindow : public QMainWindow
{
    Q_OBJECT

public:
    explicit MainWindow(QWidget* parent = nullptr);

    const WindowControllers& controllers() const { return m_c; }
    const WindowViews& views() const { return m_v; }
    Session* session() const { return m_c.session; }
    FitController* fits() const { return m_c.fits; }
    StatusPanel* status() const { return m_status; }
    ProjectFiles* projectFiles() const { return m_files; }
    Exporter* exporter() const { return m_exporter; }

    /// Loads a data file; false (and the message shown, see lastError()) when it cannot.
    bool openFile(const QString& path);
    /// Runs the negativity experiment (paper Fig. 3) on the loaded data off the GUI thread; the
    /// result is drawn in the Optimizer view. Escape cancels it like a fit.
    void runNegativityExperiment(const NegativitySettings& settings);
    /// Last error shown to the user (for tests and the status bar).
    QString lastError() const { return m_lastError; }
    /// Linked views: selecting rows in the Scores table (also what a shift-drag on the density
    /// view does); selected rows are ringed on the maps.
    void selectRows(const QList<qint64>& rows);
    /// Batch modes answer no question (a missing value refuses the file, as on the command line).
    void setBatch(bool on) { m_batch = on; }

protected:
    /// Asks whether to save a modified session before closing (Save, Discard or Cancel).
    virtual QMessageBox::StandardButton askToSave();
    void closeEvent(QCloseEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    void createControllers();
    void buildControls();
    void buildViews();
    void connectSession();
    /// The stages that finish after a large fit (scores, comparison, clusters) reach the views.
    void connectLateStages();
    void connectNegativity();
    /// The menus (main_window_menus.cpp); the View menu returns its Pick action (a global
    /// shortcut).
    void createActions();
    void createFileMenu();
    void createEditMenu();
    QAction* createViewMenu();
    void createModelAndHelpMenus();
    /// Export is offered only when there is something current to export (a stale view's
    /// export was refused only after its file and size dialogs).
    void updateExportActions();
    void showResult();
    /// The density and compare maps of the result (again after the plot columns change).
    void showMaps();
    /// The maps' row tooltips: raw values and anomaly scores (when the rows are scored).
    void showRowInfo();
    void highlightRows(const QList<qint64>& rows);
    void showError(const QString& message);
    void showMessage(const QString& text, int milliseconds);
    /// Empties every result view (new data: nothing of the previous data set stays shown).
    void clearResultViews(const QString& message);
    /// The FD view's account of the last fit's choice (empty while fitting).
    FdChoice fdChoice() const;
    void negativityInteractively();

    WindowControllers m_c{};
    WindowViews m_v{};
    StatusPanel* m_status = nullptr;
    ProjectFiles* m_files = nullptr;
    Exporter* m_exporter = nullptr;
    QAction* m_exportPlotAction = nullptr;
    QAction* m_exportScoresAction = nullptr;
    QAction* m_jointAction = nullptr;
    QList<QAction*> m_mapScaleActions; // View > Map colours, in MapScale order
    QList<QKeySequence> m_globalShortcuts;
    QString m_lastError;
    bool m_batch = false; // --screenshot / --export-plot: no questions asked
};

/// The Help menu's texts: About (versions, how to cite) and the quick guide (resources/).
QString aboutText();
QString quickGuide();

} // namespace sosrep::ui
