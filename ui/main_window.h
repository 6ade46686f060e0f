// SPDX-License-Identifier: MIT
// The main window: panels, views, actions and the status bar.
#pragma once

#include "ui/plots/density_heatmap.h"

#include "core/experiments/negativity.h"
#include "ui/plots/fd_plot.h"
#include "ui/plots/plot_export.h"
#include "ui/project_file.h"

#include <QKeySequence>
#include <QMainWindow>
#include <QMessageBox>

class QCustomPlot;
class QLabel;
class QMenu;
class QProgressBar;
class QSortFilterProxyModel;
class QTabWidget;
class QToolButton;
class QTableView;

namespace sosrep::ui {

class CompareView;
class DensityHeatmap;
class DensityPage;
class ClusterController;
class FitController;
class GridController;
class RatioController;
class Session;
class HueController;
class MarginalController;
class OverlayController;
class OtherRocController;
class PairPlotController;
class ThresholdController;
struct ClassDensity;
struct FitJobResult;
class NegativityJob;
class OptimizerView;
class FdPlot;
class RatioView;
class OutlierBar;
class ScorePlots;
class ScoresModel;
class SettingsHistory;
class TracePlot;

/// Wiring only: panels on the left, views in tabs, progress in the status bar. All state lives
/// in the Session.
class MainWindow : public QMainWindow
{
    Q_OBJECT

public:
    explicit MainWindow(QWidget* parent = nullptr);

    Session* session() const { return m_session; }
    /// The fit, its FD curve and traces, the optimizer's runs and a large fit's late stages.
    FitController* fits() const { return m_fits; }
    /// The Ratio view's samples, settings and fit (its data are the session's).
    RatioController* ratios() const { return m_ratios; }
    /// The Density tab's hue (seaborn's hue=): its column and classes.
    HueController* hue() const { return m_hue; }
    /// The Density tab's pair plot: its panels and job.
    PairPlotController* pairPlot() const { return m_pairs; }
    /// The 1-D view's overlaid curves.
    OverlayController* overlays() const { return m_overlays; }
    /// The Scores view's ROC curves of other estimators.
    OtherRocController* otherRocs() const { return m_otherRocs; }
    /// The Density tab's 1-D views: the density along one column and the marginals.
    MarginalController* marginals() const { return m_marginals; }
    /// The Scores view's outlier threshold (a share, or a cut-off chosen on the ROC curve).
    ThresholdController* thresholds() const { return m_thresholds; }
    /// The Compare view's cluster comparison (label clusters, or rows picked on the map).
    ClusterController* clusters() const { return m_clusters; }
    /// What a project saves and opens (project_file.h).
    ProjectParts projectParts() const { return {*m_session, *m_hue, *m_thresholds, *m_ratios}; }
    DensityHeatmap* densityView() const { return m_density; }
    /// The Density tab: the map, or a 1-D density (one column) or marginal (chosen).
    DensityPage* densityPage() const { return m_densityPage; }
    /// The Density tab on the 1-D marginal of a feature column (computed on a worker when it
    /// is not known yet: MarginalController::ready says when).
    void showMarginal(int column);
    /// The hue's classes on the map or the 1-D curve (none when no hue is set or ready).
    void showHue();
    /// The Density tab's pair plot: the panels at hand, the rest asked for (progressively).
    void showPairPlot();
    /// Shows the Density tab's pair plot (sosrep-studio --pairplot), starting it if needed.
    void showPairPlotView();
    TracePlot* tracePlot() const { return m_trace; }
    OptimizerView* optimizerView() const { return m_optimizer; }
    NegativityJob* negativityJob() const { return m_negativity; }
    /// Runs the negativity experiment (paper Fig. 3) on the loaded data off the GUI thread; the
    /// result is drawn in the Optimizer view. Escape cancels it like a fit.
    void runNegativityExperiment(const NegativitySettings& settings);
    FdPlot* fdPlot() const { return m_fd; }
    /// How the Scores view's model was tuned, as the Scores tab says it.
    QString scoresTuning() const;
    CompareView* compareView() const { return m_compare; }
    ScorePlots* scorePlots() const { return m_scorePlots; }
    /// The Scores tab (table, plots, AUC line) and its AUC line's text.
    QWidget* scoresPage() const { return m_scoresPage; }
    QString aucText() const;
    /// The flags at the threshold `offset` read against 0/1 labels: the confusion counts,
    /// precision and recall, and the precision of the k most anomalous rows (k = the labelled
    /// anomalies' count).
    static QString confusionText(const Vector& logValues, const Eigen::VectorXi& labels,
                                 double offset);
    RatioView* ratioView() const { return m_ratio; }
    QTabWidget* tabs() const { return m_tabs; }
    /// Last error shown to the user (for tests and the status bar).
    QString lastError() const { return m_lastError; }
    /// "19.60 s", with the stages' seconds when the fit took a second or more.
    static QString fitTimeText(const FitJobResult& r);
    /// The stale banner's text ("" while the results match the settings).
    QString staleText() const;

    /// Loads a data file; false (and the message shown, see lastError()) when it cannot.
    bool openFile(const QString& path);
    /// Reopens a saved session; returns "" or the error (shown to the user, state kept).
    QString openProjectFile(const QString& path);
    /// What the current tab exports: its plot, the score plots on the Scores tab, the whole
    /// view (maps, read-outs, bottom row) on the Compare tab.
    QWidget* currentPlot() const;
    /// Writes the current tab's plot; returns "" or the error (also shown to the user).
    QString exportCurrentPlot(const QString& path, const ExportOptions& options);
    /// Writes row,log_density,anomaly_score[,label] of the last fit; returns "" or the error.
    QString exportScores(const QString& path);
    /// Undo and redo of settings and column roles.
    SettingsHistory* history() const { return m_history; }
    /// Writes the session as a project; "" or the error (shown). Clears the modified mark.
    QString saveProjectTo(const QString& path);
    /// Open recent: data files and projects, newest first (full paths).
    QStringList recentFiles() const;
    QString aboutText() const;
    QString quickGuide() const;

    /// Linked views: the scores table's selected rows (data rows), and selecting rows there
    /// (also what a shift-drag on the density view does); selected rows are ringed on the maps.
    QList<qint64> selectedRows() const;
    void selectRows(const QList<qint64>& rows);

protected:
    /// Asks whether to save a modified session before closing (Save, Discard or Cancel).
    virtual QMessageBox::StandardButton askToSave();
    void closeEvent(QCloseEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    void buildControls();
    void buildViews();
    void buildStatusBar();
    void connectController();
    /// The stages that finish after a large fit (scores, comparison, clusters) reach the views.
    void connectLateStages();
    void createActions();
    /// The menus of createActions; the View menu returns its Pick action (a global shortcut).
    void createFileMenu();
    void createEditMenu();
    QAction* createViewMenu();
    void createModelAndHelpMenus();
    void openInteractively();
    void exportPlotInteractively();
    void exportScoresInteractively();
    void copyCurrent();
    void rememberFile(const QString& path);
    /// The window now stands for the project at `path` (saved or opened): title, recent files,
    /// no unsaved change; `message` in the status bar.
    void becomeProject(const QString& path, const QString& message, int milliseconds);
    void saveProjectInteractively();
    /// "file.csv[*] — SOSREP Studio": the project or data file, and the modified mark.
    void updateTitle();
    void rebuildRecentMenu();
    QString lastFolder() const;
    void showResult();
    /// The density and compare maps of the result (again after the plot columns change).
    void showMaps();
    /// The Scores view (table, histogram, ROC, AUC, how its l was tuned), or what it waits for
    /// (main_window_scores.cpp).
    void showScores();
    /// The outlier flags of the Scores view: the table's column, the histogram's line, the bar.
    void showThreshold();
    /// The Scores view's "ROC of…" button: a checkable menu of the other density estimators
    /// and detectors whose ROC curves join this model's (OtherRocController::setEstimators).
    QToolButton* makeRocButton();
    void showOtherRocs();
    /// The maps' row tooltips: raw values and anomaly scores (when the rows are scored).
    void showRowInfo();
    void highlightRows(const QList<qint64>& rows);
    void showError(const QString& message);
    QString densityTitle() const;
    /// The Density tab's 1-D view (one column, or the chosen marginal), asking the
    /// controller for a marginal it has not computed yet.
    void showDensityCurve();
    void connectDensityPage();
    /// Empties every result view (new data: nothing of the previous data set stays shown).
    void clearResultViews(const QString& message);
    /// Shows or hides the stale banner from the controller's staleReason().
    void showStaleness();
    void refreshWarnings();
    void showWarnings();
    /// "" or why the current tab's results cannot be exported (stale, or none yet).
    QString exportRefusal(const QString& path) const;

    void connectNegativity();
    /// The status bar's stage text and progress bar (fits and the negativity experiment).
    void showProgress(const QString& stage, int done, int total);
    /// The FD view's account of the last fit's choice (empty while fitting).
    FdChoice fdChoice() const;
    /// Which model ranks the Scores view's rows and how its length scale was tuned.
    QString scoresTuningText(const FitJobResult& r) const;
    /// purpose=auto with selection=auto: the density view and the Scores view each get their
    /// purpose's rule.
    bool settingsPurposeIsAuto() const;
    void negativityInteractively();

    Session* m_session;
    FitController* m_fits;
    GridController* m_grids;
    RatioController* m_ratios;
    HueController* m_hue;
    PairPlotController* m_pairs;
    OverlayController* m_overlays;
    OtherRocController* m_otherRocs;
    MarginalController* m_marginals;
    ThresholdController* m_thresholds;
    ClusterController* m_clusters;
    NegativityJob* m_negativity;
    QTabWidget* m_tabs;
    DensityHeatmap* m_density;
    DensityPage* m_densityPage = nullptr;
    CompareView* m_compare;
    RatioView* m_ratio;
    OptimizerView* m_optimizer;
    TracePlot* m_trace;
    FdPlot* m_fd;
    QTableView* m_scoresView;
    ScoresModel* m_scores;
    QWidget* m_scoresPage;
    QSortFilterProxyModel* m_scoresProxy = nullptr;
    ScorePlots* m_scorePlots;
    MapScale m_mapScale = MapScale::Log;
    bool m_joint = false;
    QAction* m_jointAction = nullptr;
    /// Puts the marginals on the map's edges (asking the controller for the missing ones).
    void showJointEdges();
    QList<QAction*> m_mapScaleActions; // View > Map colours, in MapScale order
    QLabel* m_aucLabel;
    QLabel* m_scoresTuning; // how the Scores view's model was tuned
    OutlierBar* m_outlierBar = nullptr;
    QLabel* m_staleBanner = nullptr;
    QLabel* m_warningBanner = nullptr; // the data's and the last fit's warnings, above the views
    QProgressBar* m_progress;
    QLabel* m_stage;
    QToolButton* m_warnings;
    /// The last fit's report ("Fitted in ... (model ..., comparison ...)"), reachable after the
    /// status message fades or another message replaces it; gone with new data.
    QToolButton* m_fitReport = nullptr;
    QString m_lastFitText;
    QString m_lastError;
    QMenu* m_recentMenu = nullptr;
    SettingsHistory* m_history = nullptr;
    QString m_projectPath; // the project saved or opened last ("" = none)
    QList<QKeySequence> m_globalShortcuts;
    bool m_batch = false; // --screenshot / --export-plot: no questions asked

public:
    /// Batch modes answer no question (a missing value refuses the file, as on the command line).
    void setBatch(bool on) { m_batch = on; }
    /// "label = 1 (25 rows)": a hue class as the legends name it.
    QString hueClassName(const ClassDensity& c) const;
    /// How the Density tab's map is coloured (View > Map colours; sosrep-studio --color-scale).
    void setMapScale(MapScale scale);
    /// The Density tab's map as a joint plot: the plotted columns' marginals on its edges
    /// (View > Joint plot; sosrep-studio --joint).
    void setJoint(bool on);
    bool joint() const { return m_joint; }
    MapScale mapScale() const { return m_mapScale; }

private:
    QAction* m_exportPlotAction = nullptr;
    QAction* m_exportScoresAction = nullptr;
    /// Export is offered only when there is something current to export (a stale view's
    /// export was refused only after its file and size dialogs).
    void updateExportActions();
    bool m_loading = false; // opening data or a project: not a user's change
};

} // namespace sosrep::ui
