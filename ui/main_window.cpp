// SPDX-License-Identifier: MIT
// The main window: panels, views, actions and the status bar.
#include "ui/main_window.h"

#include "ui/controller/density_units.h"

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

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent)
{
    setWindowIcon(QIcon(QStringLiteral(":/icons/sosrep-studio.svg")));
    m_session = new Session(this);
    m_fits = new FitController(m_session, this);
    m_grids = new GridController(m_session, this);
    m_ratios = new RatioController(m_session, this);
    m_hue = new HueController(m_session, this);
    m_pairs = new PairPlotController(m_session, this);
    m_overlays = new OverlayController(m_session, this);
    m_otherRocs = new OtherRocController(m_session, this);
    m_marginals = new MarginalController(m_session, this);
    m_thresholds = new ThresholdController(m_session, this);
    m_clusters = new ClusterController(m_session, this);
    m_history = new SettingsHistory(m_session, m_ratios, this);
    m_negativity = new NegativityJob(this);
    buildControls();
    buildViews();
    buildStatusBar();
    connectController();
    connectNegativity();
    createActions();
    setAcceptDrops(true);
    // Rows with NA: the command line refuses the file; here the user may leave them out.
    m_session->askDropIncompleteRows = [this](const QString& message) {
        if (m_batch) {
            return false;
        }
        return QMessageBox::question(
                   this, tr("Missing values"),
                   tr("%1\n\nLoad the file without the rows that have a missing value?")
                       .arg(message),
                   QMessageBox::Yes | QMessageBox::No, QMessageBox::No) == QMessageBox::Yes;
    };
    // Scrolling past a field must not edit it (one guard for every panel, dialogs included).
    qApp->installEventFilter(new WheelGuard(this));
    updateTitle();
    // The modified mark: a change of settings or roles the project does not hold yet.
    connect(m_session, &Session::dataChanged, this, &MainWindow::updateTitle);
    for (auto signal : {&Session::settingsChanged, &Session::dataChanged}) {
        connect(m_session, signal, this, [this] {
            if (!m_loading) {
                setWindowModified(true);
            }
        });
    }
    resize(1400, 900);
    QSettings settings;
    restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray());
    restoreState(settings.value(QStringLiteral("window/state")).toByteArray());
}

void MainWindow::buildControls()
{
    auto* side = new QWidget;
    auto* sideLayout = new QVBoxLayout(side);
    auto* dataBox = new QGroupBox(tr("Data"));
    (new QVBoxLayout(dataBox))->addWidget(new DataPanel(m_session, dataBox));
    auto* modelBox = new QGroupBox(tr("Model"));
    auto* modelPanel = new ModelPanel(m_session, modelBox);
    connect(m_negativity, &NegativityJob::busyChanged, modelPanel, &ModelPanel::setOtherJobBusy);
    connect(modelPanel, &ModelPanel::fitRequested, m_fits, &FitController::fit);
    connect(modelPanel, &ModelPanel::cancelRequested, m_negativity, &NegativityJob::cancel);
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
        connect(panel, &DataPanel::openRequested, this, &MainWindow::openInteractively);
        connect(panel, &DataPanel::statusMessage, this,
                [this](const QString& text) { statusBar()->showMessage(text, 15000); });
    }
}

namespace {

/// A banner above the views: hidden until it has something to say, wrapped, in `colours`.
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

void MainWindow::buildViews()
{
    m_tabs = new QTabWidget(this);
    m_densityPage = new DensityPage;
    m_density = m_densityPage->map();
    m_optimizer = new OptimizerView(m_fits);
    m_trace = m_optimizer->plot();
    connect(m_optimizer, &OptimizerView::negativityRequested, this,
            &MainWindow::negativityInteractively);
    m_fd = new FdPlot;
    m_scoresPage = new QWidget;
    auto* scoresLayout = new QVBoxLayout(m_scoresPage);
    m_aucLabel = new QLabel(tr("Fit a model to score the rows."));
    m_scoresTuning = new QLabel;
    m_scoresTuning->setWordWrap(true);
    m_scores = new ScoresModel(this);
    auto* proxy = new QSortFilterProxyModel(this);
    proxy->setSourceModel(m_scores);
    proxy->setSortRole(Qt::EditRole);
    m_scoresProxy = proxy;
    m_scoresView = new QTableView;
    m_scoresView->setObjectName(QStringLiteral("scoresTable"));
    m_scoresView->setModel(proxy);
    m_scoresView->setSortingEnabled(true);
    m_scoresView->verticalHeader()->hide();
    m_scoresView->sortByColumn(2, Qt::DescendingOrder); // most anomalous rows first
    // Columns as wide as their headers and values (stretched equally, the anomaly-score header
    // was cut at 1280x720 once the outlier column came); measured on the first 200 rows only,
    // so shuttle's 49 097 rows cost nothing. The last column takes the rest.
    m_scoresView->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_scoresView->horizontalHeader()->setResizeContentsPrecision(200);
    m_scoresView->horizontalHeader()->setStretchLastSection(true);
    m_scoresView->setSelectionBehavior(QAbstractItemView::SelectRows);
    // Linked views: rows selected here are ringed in the density and compare maps.
    connect(m_scoresView->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            [this] { highlightRows(selectedRows()); });
    m_scorePlots = new ScorePlots;
    m_scorePlots->setMinimumHeight(260);
    scoresLayout->addWidget(m_aucLabel);
    scoresLayout->addWidget(m_scoresTuning);
    m_outlierBar = new OutlierBar;
    auto* barRow = new QHBoxLayout;
    barRow->addWidget(m_outlierBar, 1);
    barRow->addWidget(makeRocButton());
    scoresLayout->addLayout(barRow);
    connect(m_outlierBar, &OutlierBar::contaminationChanged, m_thresholds,
            &ThresholdController::setContamination);
    connect(m_thresholds, &ThresholdController::ready, this, &MainWindow::showThreshold);
    scoresLayout->addWidget(m_scorePlots, 1);
    scoresLayout->addWidget(m_scoresView, 1);
    m_tabs->addTab(m_densityPage, tr("Density"));
    m_tabs->addTab(m_optimizer, tr("Optimizer"));
    m_tabs->addTab(m_fd, tr("Fisher divergence"));
    m_tabs->addTab(m_scoresPage, tr("Scores"));
    m_compare = new CompareView;
    m_tabs->addTab(m_compare, tr("Compare"));
    m_ratio = new RatioView(m_ratios, m_session);
    m_tabs->addTab(m_ratio, tr("Ratio"));
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
    auto* central = new QWidget;
    auto* centralLayout = new QVBoxLayout(central);
    centralLayout->setContentsMargins(0, 0, 0, 0);
    centralLayout->setSpacing(2);
    centralLayout->addWidget(m_staleBanner);
    centralLayout->addWidget(m_warningBanner);
    centralLayout->addWidget(m_tabs, 1);
    setCentralWidget(central);
    clearResultViews(tr("Open or generate data, then Fit (F5)"));
}

void MainWindow::connectController()
{
    connectLateStages();
    connect(m_density, &DensityHeatmap::rectanglePicked, this,
            [this](double x0, double x1, double y0, double y1) {
                m_clusters->compareInRect(x0, x1, y0, y1);
                m_tabs->setCurrentWidget(m_compare);
            });
    connect(m_fits, &FitController::progressChanged, this, &MainWindow::showProgress);
    connect(m_grids, &GridController::progressChanged, this, &MainWindow::showProgress);
    connect(m_hue, &HueController::progressChanged, this, &MainWindow::showProgress);
    connect(m_pairs, &PairPlotController::progressChanged, this, &MainWindow::showProgress);
    connect(m_overlays, &OverlayController::progressChanged, this, &MainWindow::showProgress);
    connect(m_otherRocs, &OtherRocController::progressChanged, this, &MainWindow::showProgress);
    connect(m_thresholds, &ThresholdController::progressChanged, this, &MainWindow::showProgress);
    connect(m_session, &Session::busyChanged, this, [this](bool busy) {
        m_progress->setVisible(busy);
        m_stage->setText(busy ? tr("fitting…") : QString());
    });
    connect(m_fits, &FitController::traceUpdated, this,
            [this] { m_trace->setTraces(m_fits->traces()); });
    connect(m_fits, &FitController::fdCurveUpdated, this,
            [this] { m_fd->setCurve(m_fits->fdCurve(), fdChoice()); });
    connect(m_session, &Session::settingsChanged, this, [this] {
        if (!m_session->result() && !m_session->isBusy()) {
            m_fd->setCurve({}, fdChoice()); // a detector chosen before any fit: say so
        }
    });
    connect(m_session, &Session::fitFinished, this, &MainWindow::showResult);
    connect(m_session, &Session::gridsUpdated, this, &MainWindow::showMaps);
    connect(m_fits, &FitController::solverComparisonCancelled, this, [this] {
        statusBar()->showMessage(
            tr("Optimizer runs cancelled; the fit and its views are kept (Run starts them "
               "again)."),
            8000);
    });
    connect(m_fits, &FitController::fitCancelled, this, [this] {
        statusBar()->showMessage(tr("Fit cancelled; previous results kept."), 5000);
    });
    connect(m_session, &Session::errorOccurred, this, &MainWindow::showError);
    connect(m_marginals, &MarginalController::failed, this, &MainWindow::showError);
    connect(m_thresholds, &ThresholdController::failed, this, &MainWindow::showError);
    connect(m_clusters, &ClusterController::failed, this, &MainWindow::showError);
    connect(m_ratios, &RatioController::errorOccurred, this, &MainWindow::showError);
    connect(m_session, &Session::dataChanged, this, [this] {
        // New data or column roles drop the results (the controller clears them): every view
        // is emptied, none keeps the previous data's curves, scores or maps.
        if (!m_session->result()) {
            m_lastFitText.clear(); // the report was of other data
            m_fitReport->setVisible(false);
            const auto rows = m_session->data().features().rows();
            clearResultViews(rows == 1 ? tr("1 row loaded: press Fit (F5)")
                                       : tr("%1 rows loaded: press Fit (F5)").arg(rows));
        }
        showStaleness();
        refreshWarnings();
    });
    connect(m_session, &Session::settingsChanged, this, &MainWindow::showStaleness);
    connect(m_fd, &FdPlot::lengthScaleClicked, m_fits, &FitController::fitAtLengthScale);
    connect(m_density, &DensityHeatmap::rowsPicked, this, &MainWindow::selectRows);
    connectDensityPage();
}

void MainWindow::connectLateStages()
{
    // The Compare view says it is computing; the status line keeps the fit's report.
    connect(m_clusters, &ClusterController::started, m_compare, &CompareView::showClustersPending);
    connect(m_session, &Session::comparisonReady, this, [this] {
        const FitJobResult* r = m_session->result();
        m_compare->showResult(*r, m_session->data().features(), m_session->data().labels(),
                              m_session->data().featureNames());
        if (!r->stages.empty() && r->stages.back().name == "comparison") {
            m_lastFitText +=
                tr("; the compare view followed in %1 s").arg(r->stages.back().seconds, 0, 'f', 1);
            m_fitReport->setToolTip(m_lastFitText +
                                    tr("\n(click for the report and any warnings)"));
        }
    });
    connect(m_session, &Session::scoresReady, this, [this] {
        const FitJobResult* r = m_session->result();
        refreshWarnings(); // the Scores view's model may add its own
        showScores();
        showRowInfo();
        m_fd->setCurve(m_fits->fdCurve(), fdChoice()); // its words name the Scores' l
        if (r->scoresReady()) {
            double seconds = 0.0;
            for (const FitJobResult::Stage& st : r->stages) {
                seconds += st.name == "anomaly model" || st.name == "row scores" ? st.seconds : 0.0;
            }
            m_lastFitText += tr("; the Scores view followed in %1 s").arg(seconds, 0, 'f', 1);
            m_fitReport->setToolTip(m_lastFitText +
                                    tr("\n(click for the report and any warnings)"));
            statusBar()->showMessage(m_lastFitText, 15000);
        }
    });
    connect(m_clusters, &ClusterController::ready, this, [this] {
        m_compare->showClusters(*m_clusters->comparison(), m_clusters->description());
    });
}

void MainWindow::clearResultViews(const QString& message)
{
    m_density->clearContent(message);
    m_densityPage->curve()->clearContent(message);
    m_trace->setTraces({});
    m_fd->setCurve({}, fdChoice()); // says why there is none for a detector
    m_scores->setScores(Vector(), std::nullopt, DensityKind::Normalized);
    m_scores->setThreshold(std::nullopt);
    m_scorePlots->clearScores();
    m_outlierBar->showState(m_thresholds->contamination(), false, std::nullopt, Vector(), {});
    m_aucLabel->setText(tr("Fit a model to score the rows."));
    m_scoresTuning->clear();
    m_compare->clear(message);
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

QString MainWindow::lastFolder() const
{
    return QSettings().value(QStringLiteral("files/lastFolder")).toString();
}

FdChoice MainWindow::fdChoice() const
{
    const FitJobResult* r = m_session->result();
    const SearchResult* sweep = m_fits->sweep();
    // A detector without a kernel, fitted or only chosen (before its fit the tab said "no
    // sweep yet (l fixed or not fitted)", as if a fit would bring one).
    const std::string& chosen = m_session->settings().estimator;
    const bool chosenHasNoKernel =
        !EstimatorRegistry::instance().get(chosen).capabilities().usesKernel;
    if ((!r && chosenHasNoKernel) || (r && !m_session->isBusy() && !r->model().kernel())) {
        FdChoice none;
        none.noCurveReason = tr("%1 has no length scale, nothing to tune")
                                 .arg(QString::fromStdString(r ? r->model().estimator() : chosen));
        return none;
    }
    if (!r || !sweep || m_session->isBusy()) {
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
        const SelectionRule rule = resolvedRule(m_fits->sweepSettings().values);
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
    if (settingsPurposeIsAuto()) {
        c.anomalyWords = scoresTuningText(*r); // which l serves the Scores view, and why
    }
    return c;
}

QString MainWindow::scoresTuning() const
{
    return m_scoresTuning->text();
}

bool MainWindow::settingsPurposeIsAuto() const
{
    const OptionValues& v = m_fits->sweepSettings().values;
    return v.has("purpose") && v.text("purpose") == "auto" && v.text("selection") == "auto";
}

void MainWindow::connectNegativity()
{
    connect(m_negativity, &NegativityJob::progressChanged, this, &MainWindow::showProgress);
    connect(m_negativity, &NegativityJob::busyChanged, this, [this](bool busy) {
        m_progress->setVisible(busy);
        m_stage->setText(busy ? tr("negativity experiment…") : QString());
    });
    connect(m_negativity, &NegativityJob::finished, this, [this] {
        const NegativityRun& r = *m_negativity->result();
        m_trace->setExperiment(&r, m_negativity->settings().worst);
        m_tabs->setCurrentWidget(m_optimizer);
        const Vector nat = NegativityRun::worstMean(r.natural, m_negativity->settings().worst);
        const Vector std_ = NegativityRun::worstMean(r.standard, m_negativity->settings().worst);
        statusBar()->showMessage(
            tr("Negativity experiment: worst-%1 share of f(xᵢ) < 0 after %2 iterations: natural "
               "%3, standard %4 (start %5; %6 rows, ℓ = %7)")
                .arg(m_negativity->settings().worst)
                .arg(r.completedIterations)
                .arg(nat(nat.size() - 1), 0, 'f', 3)
                .arg(std_(std_.size() - 1), 0, 'f', 3)
                .arg(nat(0), 0, 'f', 3)
                .arg(r.rows)
                .arg(r.lengthScale, 0, 'g', 4),
            0);
    });
    connect(m_negativity, &NegativityJob::cancelled, this,
            [this] { statusBar()->showMessage(tr("Negativity experiment cancelled."), 5000); });
    connect(m_negativity, &NegativityJob::errorOccurred, this, &MainWindow::showError);
    // A result belongs to the data it was computed on.
    connect(m_session, &Session::dataChanged, this, [this] {
        m_negativity->clear();
        m_trace->setExperiment(nullptr, 0);
    });
}

void MainWindow::runNegativityExperiment(const NegativitySettings& settings)
{
    if (!m_session->data().hasData()) {
        showError(tr("Open or generate data first: the experiment runs on the loaded rows."));
        return;
    }
    m_negativity->start(m_session->data().features(), m_session->data().dataSource(), settings);
}

void MainWindow::negativityInteractively()
{
    NegativityDialog dialog(m_negativity->settings(), m_session->data().features().rows(), this);
    if (dialog.exec() == QDialog::Accepted) {
        runNegativityExperiment(dialog.settings());
    }
}

bool MainWindow::openFile(const QString& path)
{
    m_loading = true;
    const bool loaded = m_session->loadFile(path);
    m_loading = false;
    if (loaded) {
        rememberFile(path);
        m_projectPath.clear();
        setWindowModified(false);
        updateTitle();
        const QString label = m_session->data().labelColumn();
        QString message =
            !label.isEmpty()
                ? tr("Loaded %1: column '%2' (0/1) taken as the label, used only for AUCs; "
                     "change its role in the table")
                      .arg(path, label)
            : m_session->data().labels()
                ? tr("Loaded %1: its array y (0/1) taken as the labels, used only for AUCs")
                      .arg(path)
                : tr("Loaded %1: no 0/1 label column found (AUCs need one: set a column's role "
                     "to label)")
                      .arg(path);
        for (const QString& note : m_session->data().loadNotes()) {
            message += QStringLiteral("; ") + note;
        }
        if (m_session->data().lengthScaleWasReset()) {
            message += tr("; ℓ reset to auto (the fixed ℓ was chosen for the previous data)");
        }
        statusBar()->showMessage(message, 15000);
    }
    return loaded;
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

QString MainWindow::densityTitle() const
{
    const FitJobResult* r = m_session->result();
    const FittedModel& m = r->model();
    // The map's colouring names what is drawn (a normality score is drawn as it is).
    const bool score = m.kind() == DensityKind::Score;
    const QString what = (score                            ? tr("%1 %2")
                          : m_mapScale == MapScale::Log    ? tr("%1 log %2")
                          : m_mapScale == MapScale::Linear ? tr("%1 %2 (linear scale)")
                                                           : tr("%1 %2, iso-proportion levels"))
                             .arg(QString::fromStdString(m.estimator()).toUpper(),
                                  QString::fromStdString(toString(m.kind())));
    QString t = what;
    if (const KernelOperator* k = m.kernel()) {
        t += tr(", %1 kernel, %2")
                 .arg(QString::fromStdString(toString(k->spec().type)))
                 .arg(lengthScaleText(k->spec().lengthScale, m_session->data().scaler(),
                                      m_session->data().featureNames())) +
             bwAdjustText(r->fit.bwAdjust, r->fit.lengthScaleChosen);
    }
    if (m_session->data().features().cols() > 2) {
        t += tr("; a 2-D slice, other columns held at their medians");
    }
    if (r->fitRows < m_session->data().features().rows()) {
        t += tr("; fitted on %1 of %2 rows (seeded subsample), all drawn and scored")
                 .arg(r->fitRows)
                 .arg(m_session->data().features().rows());
    }
    return t;
}

void MainWindow::showMaps()
{
    const FitJobResult* r = m_session->result();
    const QStringList names = m_session->data().featureNames();
    if (r->grid.logDensity.size() > 0) {
        DensityHeatmap::Content c;
        c.grid = &r->grid;
        c.points = m_session->data().features();
        c.labels = m_session->data().labels();
        c.title = densityTitle();
        c.slice = m_session->data().features().cols() > 2;
        c.fitRows = r->fitRowIndices;
        // Per unit of the data's own columns (a slice of the d-dimensional density when d > 2).
        c.valueLabel = logValueLabel(names, r->model().kind());
        if (r->model().kind() == DensityKind::Score) {
            // The rows' scores are at hand when the map's model is the one that scored them.
            c.scoreLevels = rowScoreLevels(&r->scoresModel() == &r->model() && r->scoresReady()
                                               ? r->rowLogDensity
                                               : r->model().logValues(c.points).values);
        }
        c.xLabel = names.value(r->grid.spec.xColumn);
        c.yLabel = names.value(r->grid.spec.yColumn);
        c.scale = m_mapScale;
        m_density->showContent(c);
        showHue(); // a hue's classes of this result, once fitted
        showJointEdges();
    } else {
        m_density->clearContent(tr("One feature column: its 1-D density is shown"));
    }
    showDensityCurve();
    m_compare->showResult(*r, m_session->data().features(), m_session->data().labels(), names);
    showRowInfo();
    highlightRows(selectedRows());
}

void MainWindow::setMapScale(MapScale scale)
{
    m_mapScale = scale;
    for (int k = 0; k < m_mapScaleActions.size(); ++k) {
        m_mapScaleActions[k]->setChecked(k == int(scale));
    }
    if (m_session->result() && m_session->result()->grid.logDensity.size() > 0) {
        showMaps();
    }
}

QList<qint64> MainWindow::selectedRows() const
{
    QList<qint64> rows;
    for (const QModelIndex& i : m_scoresView->selectionModel()->selectedRows()) {
        rows << m_scoresProxy->mapToSource(i).row();
    }
    return rows;
}

void MainWindow::selectRows(const QList<qint64>& rows)
{
    QItemSelection selection;
    for (qint64 r : rows) {
        const QModelIndex i = m_scoresProxy->mapFromSource(m_scores->index(int(r), 0));
        if (i.isValid()) {
            selection.select(i, i);
        }
    }
    m_scoresView->selectionModel()->select(selection, QItemSelectionModel::ClearAndSelect |
                                                          QItemSelectionModel::Rows);
    if (!selection.isEmpty()) {
        m_scoresView->scrollTo(selection.indexes().first());
    }
    highlightRows(rows);
    statusBar()->showMessage(
        tr("%n row(s) selected: listed in the Scores table, ringed on the maps", nullptr,
           int(rows.size())),
        8000);
}

void MainWindow::highlightRows(const QList<qint64>& rows)
{
    for (DensityHeatmap* map : {m_density, m_compare->firstView(), m_compare->secondView(),
                                m_compare->differenceView()}) {
        map->setHighlighted(rows);
    }
}

void MainWindow::showResult()
{
    const FitJobResult* r = m_session->result();
    showStaleness();
    refreshWarnings();
    showMaps();
    showScores();
    const QString rows = r->fitRows < m_session->data().features().rows()
                             ? tr(" on a seeded subsample of %1 of %2 rows (all rows scored)")
                                   .arg(r->fitRows)
                                   .arg(m_session->data().features().rows())
                             : QString();
    const QStringList warnings = m_session->warnings();
    const QString scale =
        r->lengthScale() > 0
            ? tr(" (%1)").arg(lengthScaleText(r->lengthScale(), m_session->data().scaler(),
                                              m_session->data().featureNames()))
            : QString();
    m_lastFitText = tr("Fitted in %1%2%3").arg(fitTimeText(*r)).arg(scale).arg(rows);
    m_fitReport->setText(tr("last fit: %1 s").arg(r->seconds, 0, 'f', 2));
    m_fitReport->setToolTip(m_lastFitText + tr("\n(click for the report and any warnings)"));
    m_fitReport->setVisible(true);
    statusBar()->showMessage(
        m_lastFitText + (warnings.isEmpty() ? QString() : tr("; warnings: click ⚠ at the right")),
        15000);
}

} // namespace sosrep::ui
