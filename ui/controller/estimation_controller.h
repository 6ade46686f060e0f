// SPDX-License-Identifier: MIT
// The app's estimation controller: fits, sweeps and scores on worker threads.
#pragma once

#include "core/data/dataset.h"
#include "core/data/scaler.h"
#include "core/data/toy_data.h"
#include "core/estimators/cluster_comparison.h"
#include "core/estimators/fit_settings.h"
#include "ui/controller/class_densities.h"
#include "ui/controller/fit_job.h"
#include "ui/controller/option_host.h"

#include <QFutureWatcher>
#include <QObject>
#include <QString>
#include <QVector>

#include <QStringList>

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>

namespace sosrep::ui {

class RatioController;

enum class ColumnRole
{
    Feature,
    Label,
    Ignore,
    RowName // the rows' names (an id column): shown and exported beside the scores
};

/// The app's single facade (style-anchors habit 5): owns the dataset, its column roles, the model
/// settings and the latest results; runs fits on a worker thread with progress and cancel.
/// Widgets read from it and send requests to it; it does no drawing.
class EstimationController : public QObject, public OptionHost
{
    Q_OBJECT

public:
    explicit EstimationController(QObject* parent = nullptr);
    ~EstimationController() override;

    /// The Ratio view's state: its samples come from this controller's data.
    RatioController* ratio() const { return m_ratio; }

    // --- data -----------------------------------------------------------------------------
    /// Loads CSV/TSV or .npz. On failure emits errorOccurred with the reader's one-line message
    /// (file, line, column) and keeps the current dataset. Returns success.
    /// Loads CSV/TSV/NPZ. A text column is left out (the command line refuses the file); rows
    /// with a missing value are left out only when `askDropIncompleteRows` says yes (it is
    /// asked with the reader's message), else the file is refused as on the command line.
    bool loadFile(const QString& path);
    std::function<bool(const QString& message)> askDropIncompleteRows;
    /// What the last load left out ("column 'name' holds text", "3 rows with a missing
    /// value"), for the status line; empty when nothing was.
    const QStringList& loadNotes() const { return m_loadNotes; }
    void generateToy(ToyKind kind, int n, uint64_t seed);
    const Dataset& rawData() const { return m_raw; }
    QString dataSource() const { return m_source; }
    /// Set when the data came from the toy generator (projects store it instead of a path).
    const std::optional<ToyConfig>& toyConfig() const { return m_toy; }
    bool hasData() const { return m_raw.rows() > 0; }

    QVector<ColumnRole> columnRoles() const { return m_roles; }
    /// The column with the label role ("" = none; an .npz's y is not a column).
    QString labelColumn() const;
    /// Whether loading the current data reset a fixed l to auto (it was chosen for other data).
    bool lengthScaleWasReset() const { return m_lengthScaleReset; }
    /// Returns false (and emits errorOccurred) if the roles are invalid (e.g. non-0/1 labels).
    bool setColumnRoles(const QVector<ColumnRole>& roles);
    /// Feature columns (names) in order, after roles.
    QStringList featureNames() const;
    /// The feature columns as read (unscaled), after roles; the Ratio view scales its own.
    const Dataset& featureData() const { return m_featureData; }
    /// Scaled feature matrix and labels, as fitted.
    const Matrix& features() const { return m_features; }
    const std::optional<Eigen::VectorXi>& labels() const { return m_labels; }
    /// The scaling of the features (raw = shift + scale * scaled), for axes in raw units.
    const Scaler& scaler() const { return m_scaler; }

    int plotX() const { return m_plotX; }
    int plotY() const { return m_plotY; }
    /// Other plot columns: the fitted model's grids are re-evaluated on a worker (no refit)
    /// and gridsUpdated() follows; the data, model and scores stay as they are.
    void setPlotColumns(int x, int y);
    /// Whether a grid re-evaluation for new plot columns is running.
    bool isRegridding() const { return m_gridWatcher != nullptr; }

    // --- model ----------------------------------------------------------------------------
    /// The fit settings: the same type, defaults and option tables as the command line.
    const FitSettings& settings() const { return m_settings; }
    void setSettings(const FitSettings& s); // never refits by itself
    /// Sets one option (checked; a bad value emits errorOccurred and keeps the old one).
    bool setOption(const std::string& name, const std::string& value) override;
    const FitSettings& optionSettings() const override { return m_settings; }
    Eigen::Index optionRows() const override { return m_features.rows(); }
    /// Switches the estimator (shared options keep their values).
    void setEstimator(const std::string& name);
    /// Rows the app fits on at most (a seeded subsample beyond; every row is scored): the
    /// settings' max_fit_rows, which the app starts at kAppMaxFitRows, not core's default.
    int maxFitRows() const { return m_settings.values.integer("max_fit_rows"); }
    void setMaxFitRows(int rows);
    /// The app's own start for max_fit_rows (the ADBench cap): an interactive session fits
    /// in seconds; the command line and Python start at core's 100 000.
    static constexpr int kAppMaxFitRows = 10000;
    /// The estimator of the compare view: the one chosen, else kde for sosrep and sosrep for
    /// every other estimator.
    std::string compareEstimator() const;
    void setCompareEstimator(const std::string& name); // "" = automatic
    const std::string& compareChoice() const { return m_compareWith; }
    const SolverComparisonSettings& solverComparison() const { return m_solverComparison; }
    void setSolverComparison(const SolverComparisonSettings& s);
    /// Soft problems of the data and of the last fit (constant columns, fallbacks, clamps).
    QStringList warnings() const;

    // --- jobs -----------------------------------------------------------------------------
    bool isBusy() const { return m_watcher != nullptr || m_solverWatcher != nullptr; }
    void fit();
    /// Runs the optimizer view's natural-vs-standard comparison again on the fitted kernel with
    /// the current solverComparison() settings (no refit); the traces stream in as in a fit.
    /// Returns false (and says why) when there is no fitted kernel-field model.
    bool rerunSolverComparison();
    /// Whether the last fit left its comparison for later (a large kernel) and it has not been
    /// started since.
    bool solverComparisonDeferred() const { return m_result && m_result->solverRunsDeferred; }
    /// Starts a deferred comparison once (the Optimizer view calls it when shown); false when
    /// none is waiting or a job runs. A cancelled one is not restarted by this (Run is).
    bool startDeferredSolverComparison();
    /// The deferred comparison is too large to start by itself (autoStartMaxEntries): the
    /// Optimizer view asks for Run instead.
    bool solverComparisonAsks() const;
    /// Fits above this many rows run the Scores view's and the compare view's stages after the
    /// fit (FitJobInput::eagerStagesMaxRows).
    void setEagerStagesMaxRows(int rows) { m_eagerStagesMaxRows = rows; }
    /// Whether the Scores view's stage of a large fit still runs (scoresReady follows).
    bool scoresPending() const { return m_scoresWatcher != nullptr; }
    /// Whether the compare view's stage of a large fit is still to come (comparisonReady
    /// follows): it runs after the scores stage.
    bool comparisonPending() const
    {
        return m_comparisonWatcher != nullptr ||
               (m_scoresWatcher != nullptr && m_result && m_result->comparisonDeferred);
    }
    /// Refits with a fixed length scale (e.g. a point clicked on the FD curve).
    void fitAtLengthScale(double lengthScale);
    void cancel();

    // --- results --------------------------------------------------------------------------
    /// Solver traces of the last fit, by run ("newton", "natural", "standard"), live.
    const std::vector<NamedTrace>& traces() const { return m_traces; }
    const std::vector<FdPoint>& fdCurve() const { return m_fdPoints; }
    /// The last length-scale sweep on this data, kept through fits at a fixed ℓ (a point
    /// clicked on the curve) as long as nothing else changed; null otherwise.
    const SearchResult* sweep() const { return m_sweep ? &*m_sweep : nullptr; }
    /// The settings the sweep ran with (its rule).
    const FitSettings& sweepSettings() const { return m_sweepSettings; }
    const FitJobResult* result() const { return m_result.get(); }
    /// The rows scaled as a fit with these settings scales them (scale=auto: its purpose's),
    /// and the scaler: the views' own matrices when one matches, else scaled anew.
    std::pair<Matrix, Scaler> rowsScaledFor(const FitSettings& s) const;
    /// Counts results: a job for one applies its answer only while this has not moved on.
    quint64 resultGeneration() const { return m_resultGeneration; }

    /// What the current result was fitted from (a stage after the fit starts from it).
    const FitJobInput& resultInput() const { return m_lastInput; }
    /// Why the result no longer matches the settings ("" while it does): the estimator or the
    /// options that changed since the fit, old and new values. Data changes clear the result.
    QString staleReason() const;

signals:
    void dataChanged();
    void settingsChanged();
    void busyChanged(bool busy);
    void progressChanged(const QString& stage, int done, int total);
    void traceUpdated();
    void fdCurveUpdated();
    void fitFinished();
    /// A natural-vs-standard run started by rerunSolverComparison() ended (done or cancelled).
    void solverComparisonFinished();
    void fitCancelled();
    /// The natural-vs-standard runs were cancelled; the fit and its views stay.
    void solverComparisonCancelled();
    void errorOccurred(const QString& message);
    /// The Scores view's stage of a large fit, run after it, is in the result now (or failed:
    /// errorOccurred came first and the result has no row scores).
    void scoresReady();
    /// The compare view's stage of a large fit, run after it, is in the result now.
    void comparisonReady();
    /// The comparison model is in the result (in the fit, or after the compare view's stage
    /// of a large one): the label clusters can be compared (ClusterController).
    void comparisonModelReady();
    void plotColumnsChanged();
    /// The result's grids now show the current plot columns.
    void gridsUpdated();
    /// The result went (new data, new roles) or is about to be replaced by a fit's: what was
    /// computed for it is dropped. resultReady() follows once a new one is in and shown.
    void resultDropped();
    /// A fit's result is in and the views have shown it (after fitFinished): work for the
    /// result (hue classes, overlays, other ROCs...) starts.
    void resultReady();
    /// Esc: every job for the result stops.
    void cancelRequested();

private:
    void setDataset(Dataset raw, const QString& source);
    void rebuildFeatures();
    void onJobFinished();
    void appendTrace(const std::string& run, const std::vector<TraceRow>& rows);
    /// Callbacks for a worker job that forward to this object's thread.
    FitJobSink workerSink();
    void clearResults();
    void regrid();
    /// Whether the kept sweep describes a fit with these settings (equal but for ℓ).
    bool sweepFits(const FitSettings& s) const;

    RatioController* m_ratio = nullptr;
    bool m_lengthScaleReset = false;
    QStringList m_loadNotes;
    Dataset m_raw;
    QString m_source;
    std::optional<ToyConfig> m_toy;
    QVector<ColumnRole> m_roles;
    Matrix m_features;
    Scaler m_scaler;
    /// purpose=auto where the anomaly purpose's scaling comes to another kind: every row in
    /// it, for the Scores view (FitJobInput::scoresX); empty otherwise.
    Matrix m_scoresFeatures;
    Scaler m_scoresScaler;
    Dataset m_featureData;
    std::optional<Eigen::VectorXi> m_labels;
    QStringList m_featureNames;
    int m_plotX = 0;
    int m_plotY = 1;
    FitSettings m_settings = FitSettings::defaults();
    std::string m_compareWith;
    SolverComparisonSettings m_solverComparison;
    std::vector<std::string> m_dataWarnings;

    std::atomic<bool> m_cancel{false};
    QFutureWatcher<FitJobResult>* m_watcher = nullptr;
    std::vector<NamedTrace> m_traces;
    std::vector<FdPoint> m_fdPoints;
    std::optional<SearchResult> m_sweep;
    FitSettings m_sweepSettings;
    std::unique_ptr<FitJobResult> m_result;
    struct Grids
    {
        DensityGrid model;
        DensityGrid comparison;
    };
    QFutureWatcher<Grids>* m_gridWatcher = nullptr;
    QFutureWatcher<std::vector<NamedTrace>>* m_solverWatcher = nullptr;
    std::atomic<bool> m_gridCancel{false};
    quint64 m_resultGeneration = 0; // a finished grid job applies only to its own result
    /// The Scores view's stage of a large fit, after it (estimation_controller_scores.cpp);
    /// the compare view's stage follows it.
    void startScoresStage();
    QFutureWatcher<ScoresStage>* m_scoresWatcher = nullptr;
    std::atomic<bool> m_scoresCancel{false};
    /// After the scores stage: the comparison stage, or the label clusters when none is due.
    void startStagesAfterScores();
    /// The compare view's stage of a large fit, after it (estimation_controller_comparison.cpp).
    void startComparisonStage();
    FitJobInput m_lastInput; // what the current result was fitted from
    int m_eagerStagesMaxRows = FitJobInput().eagerStagesMaxRows;
    QFutureWatcher<ComparisonStage>* m_comparisonWatcher = nullptr;
    std::atomic<bool> m_comparisonCancel{false};
};

} // namespace sosrep::ui
