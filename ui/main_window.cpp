// SPDX-License-Identifier: MIT
// The main window: the controllers, panels and views composed, and what joins them.
#include "ui/main_window.h"

#include "ui/controller/density_units.h"
#include "ui/controller/view_scaling.h"

#include "core/errors.h"
#include "core/estimators/common_options.h"
#include "core/estimators/registry.h"
#include "core/kernels/kernel_operator.h"
#include "core/metrics/auc.h"
#include "core/tuning/rank_ensemble.h"
#include "ui/controller/cluster_controller.h"
#include "ui/controller/fit_controller.h"
#include "ui/controller/grid_controller.h"
#include "ui/controller/hue_controller.h"
#include "ui/controller/marginal_controller.h"
#include "ui/controller/negativity_job.h"
#include "ui/controller/other_roc_controller.h"
#include "ui/controller/overlay_controller.h"
#include "ui/controller/pair_plot_controller.h"
#include "ui/controller/ratio_controller.h"
#include "ui/controller/session.h"
#include "ui/controller/settings_history.h"
#include "ui/controller/threshold_controller.h"
#include "ui/density_tab.h"
#include "ui/exporter.h"
#include "ui/panels/data_panel.h"
#include "ui/panels/model_panel.h"
#include "ui/panels/negativity_dialog.h"
#include "ui/panels/outlier_bar.h"
#include "ui/panels/wheel_guard.h"
#include "ui/plots/compare_view.h"
#include "ui/plots/density_curve_plot.h"
#include "ui/plots/density_heatmap.h"
#include "ui/plots/density_page.h"
#include "ui/plots/fd_plot.h"
#include "ui/plots/optimizer_view.h"
#include "ui/plots/ratio_view.h"
#include "ui/plots/score_plots.h"
#include "ui/plots/trace_plot.h"
#include "ui/project_files.h"
#include "ui/scores_tab.h"
#include "ui/status_panel.h"

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

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent)
{
    setWindowIcon(QIcon(QStringLiteral(":/icons/sosrep-studio.svg")));
    createControllers();
    m_status = new StatusPanel(this, m_c.session);
    buildControls();
    buildViews();
    m_files = new ProjectFiles(this, {*m_c.session, *m_c.hue, *m_c.thresholds, *m_c.ratios,
                                      *m_v.densityTab, *m_c.otherRocs});
    connect(m_files, &ProjectFiles::error, this, &MainWindow::showError);
    connect(m_files, &ProjectFiles::message, this, &MainWindow::showMessage);
    m_exporter = new Exporter(this, m_v, m_c);
    connect(m_exporter, &Exporter::error, this, &MainWindow::showError);
    connect(m_exporter, &Exporter::message, this, &MainWindow::showMessage);
    connect(m_files, &ProjectFiles::projectOpened, m_v.scores, &ScoresTab::showThreshold);
    connectSession();
    connectNegativity();
    createActions();
    setAcceptDrops(true);
    // Rows with NA: the command line refuses the file; here the user may leave them out.
    m_c.session->askDropIncompleteRows = [this](const QString& message) {
        if (m_batch) {
            return false;
        }
        return QMessageBox::question(
                   this, tr("Missing values"),
                   tr("%1\n\nLoad the file without the rows that have a missing value?")
                       .arg(message),
                   QMessageBox::Yes | QMessageBox::No, QMessageBox::No) == QMessageBox::Yes;
    };
    m_c.session->askDropStrayTextRows = [this](const QString& message) {
        if (m_batch) {
            return false;
        }
        return QMessageBox::question(
                   this, tr("Text in a numeric column"),
                   tr("%1\n\nLoad the file without the rows that have a word in a numeric "
                      "column?")
                       .arg(message),
                   QMessageBox::Yes | QMessageBox::No, QMessageBox::No) == QMessageBox::Yes;
    };
    // Scrolling past a field must not edit it (one guard for every panel, dialogs included).
    qApp->installEventFilter(new WheelGuard(this));
    resize(1400, 900);
    QSettings settings;
    restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray());
    restoreState(settings.value(QStringLiteral("window/state")).toByteArray());
}

void MainWindow::createControllers()
{
    // The session first: the fit's controller then hears its signals before the others.
    Session* s = m_c.session = new Session(this);
    m_c.fits = new FitController(s, this);
    m_c.grids = new GridController(s, this);
    m_c.ratios = new RatioController(s, this);
    m_c.hue = new HueController(s, this);
    m_c.pairs = new PairPlotController(s, this);
    m_c.overlays = new OverlayController(s, this);
    m_c.otherRocs = new OtherRocController(s, this);
    m_c.marginals = new MarginalController(s, this);
    m_c.thresholds = new ThresholdController(s, this);
    m_c.clusters = new ClusterController(s, this);
    m_c.history = new SettingsHistory(s, m_c.ratios, this);
    m_c.negativity = new NegativityJob(this);
}

void MainWindow::buildControls()
{
    auto* side = new QWidget;
    auto* sideLayout = new QVBoxLayout(side);
    auto* dataBox = new QGroupBox(tr("Data"));
    (new QVBoxLayout(dataBox))->addWidget(new DataPanel(m_c.session, dataBox));
    auto* modelBox = new QGroupBox(tr("Model"));
    auto* modelPanel = new ModelPanel(m_c.session, modelBox);
    // Cancel stays offered while anything runs: a large fit's late stages and the views' own
    // jobs run with the session idle (the Scores stage's Esc was greyed out; issue 50).
    connect(m_status, &StatusPanel::activityChanged, modelPanel, &ModelPanel::setOtherJobBusy);
    connect(modelPanel, &ModelPanel::fitRequested, m_c.fits, &FitController::fit);
    connect(modelPanel, &ModelPanel::cancelRequested, m_c.negativity, &NegativityJob::cancel);
    (new QVBoxLayout(modelBox))->addWidget(modelPanel);
    sideLayout->addWidget(dataBox);
    sideLayout->addWidget(modelBox);
    sideLayout->addStretch();
    auto* scroll = new QScrollArea;
    scroll->setWidget(side);
    scroll->setWidgetResizable(true);
    // Wide enough for the panels plus a vertical scroll bar (they are taller than small windows),
    // so no horizontal scroll bar appears.
    scroll->setMinimumWidth(side->minimumSizeHint().width() +
                            scroll->verticalScrollBar()->sizeHint().width() +
                            2 * scroll->frameWidth());
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    // Fit / Cancel stay in view below the scrolling panels.
    auto* dockBody = new QWidget;
    auto* dockLayout = new QVBoxLayout(dockBody);
    dockLayout->setContentsMargins(6, 0, 6, 4);
    dockLayout->addWidget(scroll, 1);
    dockLayout->addWidget(modelPanel->actionBar());
    auto* dock = new QDockWidget(tr("Data and model"), this);
    dock->setObjectName(QStringLiteral("controlsDock"));
    dock->setWidget(dockBody);
    dock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable);
    addDockWidget(Qt::LeftDockWidgetArea, dock);
    for (auto* panel : side->findChildren<DataPanel*>()) {
        connect(panel, &DataPanel::openRequested, this,
                [this] { m_files->openDataInteractively(); });
        connect(panel, &DataPanel::statusMessage, this,
                [this](const QString& text) { showMessage(text, 15000); });
    }
}

void MainWindow::buildViews()
{
    auto* tabs = m_v.tabs = new QTabWidget(this);
    m_v.densityPage = new DensityPage;
    m_v.density = m_v.densityPage->map();
    m_v.densityTab = new DensityTab({m_c.session, m_c.hue, m_c.marginals, m_c.overlays, m_c.pairs},
                                    m_v.densityPage, this);
    m_v.optimizer = new OptimizerView(m_c.fits);
    m_v.trace = m_v.optimizer->plot();
    connect(m_v.optimizer, &OptimizerView::negativityRequested, this,
            &MainWindow::negativityInteractively);
    m_v.fd = new FdPlot;
    m_v.scores = new ScoresTab(m_c.session, m_c.thresholds, m_c.otherRocs);
    m_v.compare = new CompareView;
    m_v.ratio = new RatioView(m_c.ratios, m_c.session);
    tabs->addTab(m_v.densityPage, tr("Density"));
    tabs->addTab(m_v.optimizer, tr("Optimizer"));
    tabs->addTab(m_v.fd, tr("Fisher divergence"));
    tabs->addTab(m_v.scores, tr("Scores"));
    tabs->addTab(m_v.compare, tr("Compare"));
    tabs->addTab(m_v.ratio, tr("Ratio"));
    auto* central = new QWidget;
    auto* centralLayout = new QVBoxLayout(central);
    centralLayout->setContentsMargins(0, 0, 0, 0);
    centralLayout->setSpacing(2);
    centralLayout->addWidget(m_status->staleBanner());
    centralLayout->addWidget(m_status->warningBanner());
    centralLayout->addWidget(tabs, 1);
    setCentralWidget(central);
    clearResultViews(tr("Open or generate data, then Fit (F5)"));
}

void MainWindow::connectSession()
{
    Session* s = m_c.session;
    connectLateStages();
    connect(m_v.density, &DensityHeatmap::rectanglePicked, this,
            [this](double x0, double x1, double y0, double y1) {
                m_c.clusters->compareInRect(x0, x1, y0, y1);
                m_v.tabs->setCurrentWidget(m_v.compare);
            });
    connect(m_v.density, &DensityHeatmap::rowsPicked, this, &MainWindow::selectRows);
    connect(m_v.scores, &ScoresTab::rowsSelected, this, &MainWindow::highlightRows);
    connect(m_v.scores, &ScoresTab::message, this, &MainWindow::showMessage);
    connect(m_v.densityTab, &DensityTab::message, this, &MainWindow::showMessage);
    connect(m_v.densityTab, &DensityTab::raiseRequested, this,
            [this] { m_v.tabs->setCurrentWidget(m_v.densityPage); });
    StatusPanel* status = m_status;
    connect(m_c.fits, &FitController::progressChanged, status, &StatusPanel::showProgress);
    connect(m_c.grids, &GridController::progressChanged, status, &StatusPanel::showProgress);
    connect(m_c.hue, &HueController::progressChanged, status, &StatusPanel::showProgress);
    connect(m_c.pairs, &PairPlotController::progressChanged, status, &StatusPanel::showProgress);
    connect(m_c.overlays, &OverlayController::progressChanged, status, &StatusPanel::showProgress);
    connect(m_c.otherRocs, &OtherRocController::progressChanged, status,
            &StatusPanel::showProgress);
    connect(m_c.thresholds, &ThresholdController::progressChanged, status,
            &StatusPanel::showProgress);
    connect(s, &Session::busyChanged, this,
            [this](bool busy) { m_status->setBusy(busy ? tr("fitting…") : QString()); });
    connect(m_c.fits, &FitController::traceUpdated, this,
            [this] { m_v.trace->setTraces(m_c.fits->traces()); });
    connect(m_c.fits, &FitController::fdCurveUpdated, this,
            [this] { m_v.fd->setCurve(m_c.fits->fdCurve(), fdChoice()); });
    connect(s, &Session::settingsChanged, this, [this] {
        if (!m_c.session->result() && !m_c.session->isBusy()) {
            m_v.fd->setCurve({}, fdChoice()); // a detector chosen before any fit: say so
        }
    });
    connect(s, &Session::fitFinished, this, &MainWindow::showResult);
    connect(s, &Session::gridsUpdated, this, &MainWindow::showMaps);
    connect(m_c.fits, &FitController::solverComparisonCancelled, this, [this] {
        showMessage(tr("Optimizer runs cancelled; the fit and its views are kept (Run starts "
                       "them again)."),
                    8000);
    });
    connect(m_c.fits, &FitController::fitCancelled, this,
            [this] { showMessage(tr("Fit cancelled; previous results kept."), 5000); });
    connect(s, &Session::errorOccurred, this, &MainWindow::showError);
    connect(m_c.marginals, &MarginalController::failed, this, &MainWindow::showError);
    connect(m_c.thresholds, &ThresholdController::failed, this, &MainWindow::showError);
    connect(m_c.clusters, &ClusterController::failed, this, &MainWindow::showError);
    connect(m_c.ratios, &RatioController::errorOccurred, this, &MainWindow::showError);
    connect(s, &Session::dataChanged, this, [this] {
        // New data or column roles drop the results (the session clears them): every view
        // is emptied, none keeps the previous data's curves, scores or maps.
        if (!m_c.session->result()) {
            m_status->clearReport(); // the report was of other data
            const auto rows = m_c.session->data().features().rows();
            clearResultViews(rows == 1 ? tr("1 row loaded: press Fit (F5)")
                                       : tr("%1 rows loaded: press Fit (F5)").arg(rows));
        }
        m_status->showStaleness();
        m_status->refreshWarnings();
    });
    connect(s, &Session::settingsChanged, m_status, &StatusPanel::showStaleness);
    connect(m_v.fd, &FdPlot::lengthScaleClicked, m_c.fits, &FitController::fitAtLengthScale);
}

void MainWindow::connectLateStages()
{
    // The Compare view says it is computing; the status line keeps the fit's report.
    connect(m_c.clusters, &ClusterController::started, m_v.compare,
            &CompareView::showClustersPending);
    connect(m_c.session, &Session::comparisonReady, this, [this] {
        const FitJobResult* r = m_c.session->result();
        const SessionData& data = m_c.session->data();
        showRowInfo(); // the compare maps were cleared while they waited
        m_v.compare->showResult(*r, data.features(), data.labels(), data.featureNames());
        if (!r->stages.empty() && r->stages.back().name == "comparison") {
            m_status->addToReport(
                tr("; the compare view followed in %1 s").arg(r->stages.back().seconds, 0, 'f', 1),
                false);
        }
    });
    connect(m_c.session, &Session::scoresReady, this, [this] {
        const FitJobResult* r = m_c.session->result();
        m_status->refreshWarnings(); // the Scores view's model may add its own
        m_v.scores->showScores();
        showRowInfo();
        m_v.fd->setCurve(m_c.fits->fdCurve(), fdChoice()); // its words name the Scores' l
        if (r->scoresReady()) {
            double seconds = 0.0;
            for (const FitJobResult::Stage& st : r->stages) {
                seconds += st.name == "anomaly model" || st.name == "row scores" ? st.seconds : 0.0;
            }
            m_status->addToReport(tr("; the Scores view followed in %1 s").arg(seconds, 0, 'f', 1),
                                  true);
        }
    });
    connect(m_c.clusters, &ClusterController::ready, this, [this] {
        m_v.compare->showClusters(*m_c.clusters->comparison(), m_c.clusters->description());
    });
}

void MainWindow::clearResultViews(const QString& message)
{
    m_v.densityTab->clear(message);
    m_v.trace->setTraces({});
    m_v.fd->setCurve({}, fdChoice()); // says why there is none for a detector
    m_v.scores->clear();
    m_v.compare->clear(message);
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event)
{
    if (event->mimeData()->hasUrls() && event->mimeData()->urls().first().isLocalFile()) {
        event->acceptProposedAction();
    }
}

void MainWindow::dropEvent(QDropEvent* event)
{
    openFile(event->mimeData()->urls().first().toLocalFile());
}

bool MainWindow::openFile(const QString& path)
{
    return m_files->openData(path);
}

void MainWindow::showError(const QString& message)
{
    m_lastError = message;
    statusBar()->showMessage(message, 10000);
    auto* box =
        new QMessageBox(QMessageBox::Warning, tr("SOSREP Studio"), message, QMessageBox::Ok, this);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open(); // window-modal, never blocks the event loop
}

void MainWindow::showMessage(const QString& text, int milliseconds)
{
    statusBar()->showMessage(text, milliseconds);
}

void MainWindow::showResult()
{
    m_status->showStaleness();
    m_status->refreshWarnings();
    showMaps();
    m_v.scores->showScores();
    m_status->reportFit(*m_c.session->result());
}

void MainWindow::showMaps()
{
    const FitJobResult* r = m_c.session->result();
    const SessionData& data = m_c.session->data();
    // The rows' scaling first: the maps' axes read it for their numbers.
    showRowInfo();
    m_v.densityTab->showMaps();
    m_v.compare->showResult(*r, data.features(), data.labels(), data.featureNames());
    highlightRows(m_v.scores->selectedRows());
}

void MainWindow::showRowInfo()
{
    const FitJobResult* r = m_c.session->result();
    const SessionData& data = m_c.session->data();
    DensityHeatmap::RowInfo info;
    info.raw = data.featureData().x;
    info.names = data.featureNames();
    if (r->scoresReady()) {
        info.anomalyScores = -r->rowLogDensity;
    }
    info.scoreName = r->scoresModel().kind() == DensityKind::Score
                         ? tr("anomaly score (−normality)")
                         : tr("anomaly score (−log p)");
    info.scaler = data.scaler();
    for (DensityHeatmap* map : {m_v.density, m_v.compare->firstView(), m_v.compare->secondView(),
                                m_v.compare->differenceView()}) {
        map->setRowInfo(info);
    }
}

void MainWindow::selectRows(const QList<qint64>& rows)
{
    m_v.scores->selectRows(rows);
    highlightRows(rows);
    showMessage(tr("%n row(s) selected: listed in the Scores table, ringed on the maps", nullptr,
                   int(rows.size())),
                8000);
}

void MainWindow::highlightRows(const QList<qint64>& rows)
{
    for (DensityHeatmap* map : {m_v.density, m_v.compare->firstView(), m_v.compare->secondView(),
                                m_v.compare->differenceView()}) {
        map->setHighlighted(rows);
    }
}

FdChoice MainWindow::fdChoice() const
{
    const FitJobResult* r = m_c.session->result();
    const SearchResult* sweep = m_c.fits->sweep();
    // A detector without a kernel, fitted or only chosen (before its fit the tab said "no
    // sweep yet (l fixed or not fitted)", as if a fit would bring one).
    const std::string& chosen = m_c.session->settings().estimator;
    const bool chosenHasNoKernel =
        !EstimatorRegistry::instance().get(chosen).capabilities().usesKernel;
    if ((!r && chosenHasNoKernel) || (r && !m_c.session->isBusy() && !r->model().kernel())) {
        FdChoice none;
        none.noCurveReason = tr("%1 has no length scale, nothing to tune")
                                 .arg(QString::fromStdString(r ? r->model().estimator() : chosen));
        return none;
    }
    if (!r || !sweep || m_c.session->isBusy()) {
        return {};
    }
    const Selection& s = sweep->selection;
    FdChoice c;
    c.selected = s.index;
    c.fdIndex = s.fdIndex;
    c.members = s.members;
    c.spacing = sweep->spacing;
    if (!r->fit.search) {
        c.shownLengthScale = r->lengthScale(); // a clicked point: the sweep is the earlier one
    } else {
        c.bwAdjust = r->fit.bwAdjust;
    }
    try {
        const SelectionRule rule = resolvedRule(m_c.fits->sweepSettings().values);
        c.spacingFloor = rule == SelectionRule::StableAboveSpacing;
        c.words =
            QString::fromStdString(describeSelection(rule, s))
                .replace(QStringLiteral("fd_factor x l_FD"), QStringLiteral("FD factor × ℓ_FD"))
                .replace(QStringLiteral("l_FD"), QStringLiteral("ℓ_FD"))
                .replace(QStringLiteral(" l "), QStringLiteral(" ℓ "));
    } catch (const ParameterError&) {
        c.words = QString::fromStdString(s.reason);
    }
    if (!c.words.isEmpty()) {
        c.words[0] = c.words[0].toUpper();
    }
    if (const auto* e = dynamic_cast<const RankEnsembleModel*>(r->fit.model.get())) {
        c.agreement = tr("members' rankings agree: Spearman ρ ≥ %1 (mean %2)")
                          .arg(e->minimumAgreement(), 0, 'f', 3)
                          .arg(e->meanAgreement(), 0, 'f', 3);
    }
    c.reach = sweep->reach;
    c.reachNeighbours = sweep->reachNeighbours;
    c.purposeOf = QString::fromStdString(r->fit.purpose);
    // On the density's rows only: the Scores view's own scaling has its own curve, whose
    // length scales mean other distances.
    c.scoresOwnCurve = r->scoresScaler.has_value();
    if (r->scoresFit && r->scoresFit->search && !c.scoresOwnCurve) {
        c.anomalyScales = r->scoresFit->search->selection.memberScales;
    }
    if (purposeAndRuleAreAuto(m_c.fits->sweepSettings().values)) {
        // Which l serves the Scores view, and why.
        c.anomalyWords = scoresTuningText(*r, m_c.session->data().scaler());
    }
    return c;
}

void MainWindow::connectNegativity()
{
    connect(m_c.negativity, &NegativityJob::progressChanged, m_status, &StatusPanel::showProgress);
    connect(m_c.negativity, &NegativityJob::busyChanged, this, [this](bool busy) {
        m_status->setBusy(busy ? tr("negativity experiment…") : QString());
    });
    connect(m_c.negativity, &NegativityJob::finished, this, [this] {
        const NegativityRun& r = *m_c.negativity->result();
        m_v.trace->setExperiment(&r, m_c.negativity->settings().worst);
        m_v.tabs->setCurrentWidget(m_v.optimizer);
        const Vector nat = NegativityRun::worstMean(r.natural, m_c.negativity->settings().worst);
        const Vector std_ = NegativityRun::worstMean(r.standard, m_c.negativity->settings().worst);
        showMessage(
            tr("Negativity experiment: worst-%1 share of f(xᵢ) < 0 after %2 iterations: natural "
               "%3, standard %4 (start %5; %6 rows, ℓ = %7)")
                .arg(m_c.negativity->settings().worst)
                .arg(r.completedIterations)
                .arg(nat(nat.size() - 1), 0, 'f', 3)
                .arg(std_(std_.size() - 1), 0, 'f', 3)
                .arg(nat(0), 0, 'f', 3)
                .arg(r.rows)
                .arg(r.lengthScale, 0, 'g', 4),
            0);
    });
    connect(m_c.negativity, &NegativityJob::cancelled, this,
            [this] { showMessage(tr("Negativity experiment cancelled."), 5000); });
    connect(m_c.negativity, &NegativityJob::errorOccurred, this, &MainWindow::showError);
    // A result belongs to the data it was computed on.
    connect(m_c.session, &Session::dataChanged, this, [this] {
        m_c.negativity->clear();
        m_v.trace->setExperiment(nullptr, 0);
    });
}

void MainWindow::runNegativityExperiment(const NegativitySettings& settings)
{
    if (!m_c.session->data().hasData()) {
        showError(tr("Open or generate data first: the experiment runs on the loaded rows."));
        return;
    }
    m_c.negativity->start(m_c.session->data().features(), m_c.session->data().dataSource(),
                          settings);
}

void MainWindow::negativityInteractively()
{
    NegativityDialog dialog(m_c.negativity->settings(), m_c.session->data().features().rows(),
                            this);
    if (dialog.exec() == QDialog::Accepted) {
        runNegativityExperiment(dialog.settings());
    }
}
} // namespace sosrep::ui
