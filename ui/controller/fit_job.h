// SPDX-License-Identifier: MIT
// A fit job of the app and its stages (scores, comparison, threshold).
#pragma once

#include "core/data/scaler.h"

#include "core/estimators/fit_settings.h"
#include "core/grid/density_curve.h"
#include "core/grid/density_grid.h"
#include "core/pipeline/fit_route.h"
#include "core/pipeline/outlier_threshold.h"
#include "ui/controller/mmd_panel.h"

#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace sosrep::ui {

/// The optimizer view's comparison (the paper's Fig. 3): natural and standard gradient from the
/// same initialisation on the fitted kernel, stepped side by side. View settings, not model
/// settings: the fitted model does not depend on them.
struct SolverComparisonSettings
{
    bool enabled = true;
    double learningRate = 0.1;
    int iterations = 500;
    /// Kernels with more centres run the comparison on demand (when the Optimizer view is
    /// shown, or on Run), not inside every fit: each iteration is a kernel product, memory
    /// bound on a dense kernel (7603 centres, mnist: 460 MB read per product, and the default
    /// 2 x 500 iterations took 14.5 s of a 34 s fit in the app).
    Eigen::Index eagerMaxCentres = 2000;
    /// A deferred comparison starts by itself when the Optimizer view is shown only if its
    /// kernel entries read (centres^2 per product, 2 x iterations products) stay below this:
    /// about 15 s at the 4e9 entries/s mnist's runs read (issue 38: shuttle's 10 000 centres
    /// ran 2 x 1000 iterations for 270 s without asking). Above it, Run starts them.
    double autoStartMaxEntries = 6e10;

    /// The kernel entries a comparison on `centres` centres reads.
    double entries(Eigen::Index centres) const
    {
        return 2.0 * double(iterations) * double(centres) * double(centres);
    }
};

/// What the app's fit job needs: the same settings and data as `sosrep fit`, plus what only the
/// app shows.
struct FitJobInput
{
    Matrix x;      // scaled features, every row
    Scaler scaler; // what scaled them: models give log values per unit of the data's columns
    /// purpose=auto where the anomaly purpose's scaling (scale=auto: rank for spike-and-tail
    /// columns) comes to another kind than the density's: every row in that scaling, and its
    /// scaler. The Scores view's model is fitted (with its own sweep) and scores rows on these.
    /// Empty otherwise: both views share `x`.
    Matrix scoresX;
    Scaler scoresScaler;
    FitSettings settings;
    std::string compareWith; // a second estimator for the compare view ("" = none)
    SolverComparisonSettings solverComparison;
    int plotX = 0;
    int plotY = 1;
    int gridResolution = 128;
    /// Above this many fitted rows two stages run after the fit, so the density view shows
    /// first: the Scores view's (the anomaly rule's model and every row's score; shuttle: 3.2
    /// of the 9.5 s before the density view showed) and then the compare view's (the second
    /// model, its map, the MMDs, the scatter; shuttle: 4 of 18 s).
    int eagerStagesMaxRows = 2000;
};

/// The Scores view's part of a fit: with purpose=auto the anomaly rule's model (from the fit's
/// sweep), and every row's log value under the Scores view's model.
struct ScoresStage
{
    bool cancelled = false;
    std::string error;
    std::optional<FitOutcome> scoresFit;
    std::optional<Scaler> scoresScaler; // FitJobInput::scoresScaler when scoresFit is on its rows
    Vector rowLogDensity;
    double modelSeconds = 0.0; // the anomaly model (0 when none was fitted)
    double rowSeconds = 0.0;
};

/// The compare view's part of a fit: the second estimator at the fitted length scale, its map
/// on the result's grid, both models' MMDs and the per-row scatter.
struct ComparisonStage
{
    bool cancelled = false;
    std::string error;
    std::shared_ptr<const FittedModel> comparison;
    DensityGrid comparisonGrid;
    MmdReadout mmd;
    std::vector<Eigen::Index> scatterRows;
    Vector scatterComparison;
    double seconds = 0.0;
};

/// What a finished fit hands back to the GUI thread.
struct FitJobResult
{
    bool cancelled = false;
    std::string error; // empty on success
    /// The model of the settings, through the one fit route (core): the density view's, the
    /// comparison's and the optimizer's. With purpose=auto it is tuned for the density.
    FitOutcome fit;
    /// With purpose=auto and a tuned l, the Scores view's model, tuned for anomaly ranking
    /// from the same sweep (a final fit costs a few products; the sweep is the cost). Empty
    /// when the anomaly rule comes to the density's one scale, or the purpose is explicit.
    std::optional<FitOutcome> scoresFit;
    /// The scaler of scoresFit's rows when the anomaly purpose scales them its own way
    /// (FitJobInput::scoresX): its length scales are in those units, not the density's.
    std::optional<Scaler> scoresScaler;
    std::shared_ptr<const FittedModel> comparison; // `compareWith` at the same kernel
    /// The Scores view's stage was left for after the fit (more fitted rows than
    /// eagerStagesMaxRows): scoresFit and rowLogDensity are empty until the controller runs
    /// runScoresStage and merges it.
    bool scoresDeferred = false;
    /// The deferred scores stage was cancelled (Esc): the views say so, and a fit scores again.
    bool scoresCancelled = false;
    /// The comparison was left for after the fit (more fitted rows than eagerStagesMaxRows):
    /// the controller runs runComparisonStage after the scores stage and merges it.
    bool comparisonDeferred = false;
    std::vector<NamedTrace> solverRuns; // the optimizer comparison, when run
    /// The comparison was left for later (a kernel above eagerMaxCentres): the Optimizer view
    /// starts it when shown.
    bool solverRunsDeferred = false;
    DensityGrid grid;           // log values of the model over the plot columns
    DensityGrid comparisonGrid; // the same for the comparison model
    DensityCurve curve;         // one feature column: the model along it (the 1-D view)
    MmdReadout mmd;             // both compared models against held-out and training rows
    Vector rowLogDensity;       // the scores model at every row (the Scores view's values)
    /// The compare view's per-row scatter: at most kScatterRows seeded rows, and the comparison
    /// model's log value (or normality score) at each of them.
    std::vector<Eigen::Index> scatterRows;
    Vector scatterComparison;
    static constexpr int kScatterRows = 5000;
    double seconds = 0.0;
    /// Seconds per stage, in order: "model" (the fit route, as `sosrep fit`), "optimizer runs"
    /// (when run in the fit), "maps", "anomaly model" (purpose=auto), "row scores",
    /// "comparison" (the compare view's model and MMDs).
    struct Stage
    {
        std::string name;
        double seconds = 0.0;
    };
    std::vector<Stage> stages;
    int fitRows = 0; // rows the models were fitted on (a subsample of large data)
    /// The rows fitted, ascending (empty when every row was fitted): the views mark them.
    std::vector<Eigen::Index> fitRowIndices;
    /// What the result was made from: a view whose settings or data differ since is stale.
    FitSettings settings; // its max_fit_rows: the rows fitted at most
    std::string compareWith;

    /// Every row has its score (false while a deferred scores stage runs).
    bool scoresReady() const { return !scoresDeferred && rowLogDensity.size() > 0; }
    const FittedModel& model() const { return *fit.model; }
    /// The model the Scores view ranks rows with (scoresFit's, else the model).
    const FittedModel& scoresModel() const { return scoresFit ? *scoresFit->model : *fit.model; }
    const FitOutcome& scoresOutcome() const { return scoresFit ? *scoresFit : fit; }
    double lengthScale() const { return fit.lengthScale; }
};

/// Callbacks from the worker thread; each must be safe to call from there (the controller
/// forwards them with queued invocations).
struct FitJobSink
{
    std::function<void(const std::string& stage, int done, int total)> progress;
    std::function<void(const FdPoint&)> fdPoint;
    /// New trace rows of a solver run since the last call ("newton", "natural", "standard").
    std::function<void(const std::string& run, const std::vector<TraceRow>& rows)> traceRows;
};

/// `estimator` fitted on x at a fixed length scale: the model's own settings when it is the
/// settings' estimator, else that estimator's defaults with the shared options (kernel, scale,
/// seed...) copied. Null when cancelled.
std::shared_ptr<const FittedModel> fitAtLengthScale(const Matrix& x, const FitSettings& settings,
                                                    const std::string& estimator,
                                                    double lengthScale, const FitObserver& observer,
                                                    const Scaler& scaler = Scaler());

/// The optimizer view's natural-vs-standard comparison alone, on the kernel of a fitted
/// kernel-field model (no refit), streamed to the sink; empty when cancelled.
std::vector<NamedTrace> runSolverComparison(const FittedModel& model,
                                            const SolverComparisonSettings& settings, uint64_t seed,
                                            const FitJobSink& sink,
                                            const std::atomic<bool>& cancel);

/// The compare view's stage for a fitted `model` (the same rows and seed as the fit, at its
/// length scale): run inside runFitJob for small data, after it for large data. `grid` is the
/// result's map (null: one column, no map). Polls `cancel`.
ComparisonStage runComparisonStage(const FitJobInput& in, const FittedModel& model,
                                   double lengthScale, const GridSpec* grid, const FitJobSink& sink,
                                   const std::atomic<bool>& cancel);
/// Puts a finished stage into its result (and its time into the stages).
void mergeComparisonStage(ComparisonStage stage, FitJobResult& result);

/// The Scores view's stage of a fit `fit` (the same rows and seed): run inside runFitJob for
/// small data, after it for large data. Polls `cancel`.
ScoresStage runScoresStage(const FitJobInput& in, const FitOutcome& fit, const FitJobSink& sink,
                           const std::atomic<bool>& cancel);
/// Puts a finished scores stage into its result (and its times into the stages).
void mergeScoresStage(ScoresStage stage, FitJobResult& result);

/// The Scores view's outlier threshold: the `contamination` quantile of log values that the
/// Scores view's model gave rows it did not fit (`sosrep fit --contamination`'s: the anomaly
/// rule's validation rows, or a 5-fold cross-fit at the fitted l), on the rows and seed of the
/// fit. `scores` is the Scores view's fit (FitJobResult::scoresOutcome), `anomalyModel` whether
/// it is the anomaly rule's (FitJobResult::scoresFit). Polls `cancel`.
struct ThresholdStage
{
    bool cancelled = false;
    std::string error;
    std::optional<OutlierThreshold> threshold;
};
ThresholdStage runThresholdStage(const FitJobInput& in, const FitOutcome& scores, bool anomalyModel,
                                 double contamination, const FitJobSink& sink,
                                 const std::atomic<bool>& cancel);

/// Runs the whole fit off the GUI thread: the model through core's fitModel (exactly what
/// `sosrep fit` does with the same settings and data), then the comparison model, the
/// optimizer comparison, the grids and the row scores. Polls `cancel` between steps (every
/// solver iteration, every FD grid point, every grid chunk).
FitJobResult runFitJob(const FitJobInput& input, const FitJobSink& sink,
                       const std::atomic<bool>& cancel);

} // namespace sosrep::ui
