// SPDX-License-Identifier: MIT
// A fit job of the app and its stages (scores, comparison, threshold).
#include "ui/controller/fit_job.h"

#include "core/data/split.h"
#include "core/errors.h"
#include "core/estimators/common_options.h"
#include "core/estimators/sosrep/solver_comparison.h"
#include "core/kernels/kernel_operator.h"
#include "ui/controller/option_labels.h"

#include <algorithm>
#include <chrono>
#include <map>
#include <new>

namespace sosrep::ui {
namespace {

using Clock = std::chrono::steady_clock;

/// Collects trace rows per run on the worker and hands them to the sink in batches (at most
/// every 50 ms), so a fast solver does not flood the GUI thread with queued calls.
class TraceStream
{
public:
    explicit TraceStream(const FitJobSink& sink) : m_sink(sink) {}
    void add(const std::string& run, const TraceRow& row)
    {
        m_pending[run].push_back(row);
        if (Clock::now() - m_last > std::chrono::milliseconds(50)) {
            flush();
        }
    }
    void flush()
    {
        for (auto& [run, rows] : m_pending) {
            if (!rows.empty() && m_sink.traceRows) {
                m_sink.traceRows(run, rows);
            }
            rows.clear();
        }
        m_last = Clock::now();
    }

private:
    const FitJobSink& m_sink;
    std::map<std::string, std::vector<TraceRow>> m_pending;
    Clock::time_point m_last = Clock::now();
};

ProgressFn stageProgress(const FitJobSink& sink, const std::atomic<bool>& cancel, const char* stage)
{
    return [&sink, &cancel, stage](int done, int total) {
        if (sink.progress) {
            sink.progress(stage, done, total);
        }
        return !cancel.load();
    };
}

/// The model and the comparison model on the plot columns.
bool evaluateGrids(const FitJobInput& in, FitJobResult& out, const FitJobSink& sink,
                   const std::atomic<bool>& cancel)
{
    if (in.x.cols() < 2) {
        out.curve = evaluateCurve(out.model(), curveAroundData(in.x, 0));
        return true;
    }
    const GridSpec g = gridAroundData(in.x, in.plotX, in.plotY, in.gridResolution);
    out.grid = evaluateGrid(out.model(), g, stageProgress(sink, cancel, "density grid"));
    return !out.grid.cancelled;
}

/// purpose=auto: the Scores view ranks rows with the anomaly purpose's model where it differs
/// from the density's (what `sosrep fit --purpose anomaly` fits on the same rows). On the
/// density's rows with a tuned l, the anomaly rule's model from the density fit's sweep; on
/// rows of its own scaling (`scoresFitX`, non-empty), a whole fit with its own sweep. False
/// when cancelled.
bool fitScoresModel(const FitJobInput& in, const Matrix& fitX, const Matrix& scoresFitX,
                    const FitOutcome& fit, const FitObserver& observer,
                    std::optional<FitOutcome>* out)
{
    const OptionValues& v = in.settings.values;
    const bool ownRows = scoresFitX.size() > 0;
    if (!v.has("purpose") || v.text("purpose") != "auto") {
        return true;
    }
    FitSettings anomaly = in.settings;
    anomaly.resolvePurpose("anomaly");
    if (!ownRows) {
        if (!fit.search || v.text("selection") != "auto") {
            return true;
        }
        if (reselect(*fit.search, searchConfigFrom(anomaly.values, fitX)).memberScales.size() < 2) {
            return true; // one scale: the density's model ranks the rows
        }
    }
    FitObserver quiet;
    quiet.cancelled = observer.cancelled;
    quiet.progress = [&observer](const std::string&, int done, int total) {
        if (observer.progress) {
            observer.progress("fit for anomaly scores", done, total);
        }
    };
    FitData data{ownRows ? scoresFitX : fitX, Matrix(), "data", nullptr};
    data.sweep = ownRows ? nullptr : &*fit.search; // another scaling: another curve
    data.scaler = ownRows ? in.scoresScaler : in.scaler;
    *out = fitModel(data, anomaly, quiet);
    if ((*out)->cancelled) {
        return false;
    }
    checkUsable(*(*out)->model);
    return true;
}

/// The rows of x a model is fitted on: all of them, or a seeded subsample of large data (every
/// row is still scored and plotted), the rows the fit route's max_fit_rows takes (fitSubsample:
/// `sosrep fit --max-fit-rows` on this file fits the same rows, in the same order); their
/// indices, ascending, in `indices`.
Matrix fittedRowsOf(const Matrix& x, long long maxFitRows, uint64_t seed,
                    std::vector<Eigen::Index>* indices)
{
    std::vector<Eigen::Index> fitRows = fitSubsample(x.rows(), maxFitRows, seed);
    const Matrix out = fitRows.empty() ? x : rowsOf(x, fitRows);
    if (indices) {
        *indices = std::move(fitRows);
    }
    return out;
}

/// The settings' cap on fitted rows (max_fit_rows, which the app starts at 10000).
long long fitRowCap(const FitJobInput& in)
{
    return in.settings.values.integer("max_fit_rows");
}

/// The rows the model is fitted on; records which rows in `out`.
Matrix rowsToFit(const FitJobInput& in, uint64_t seed, FitJobResult& out)
{
    Matrix fitX = fittedRowsOf(in.x, fitRowCap(in), seed, &out.fitRowIndices);
    out.fitRows = static_cast<int>(fitX.rows());
    return fitX;
}

/// The same rows of the Scores view's own scaling (FitJobInput::scoresX), or an empty matrix
/// when it has none.
Matrix scoresRowsToFit(const FitJobInput& in, uint64_t seed)
{
    return in.scoresX.size() == 0 ? Matrix()
                                  : fittedRowsOf(in.scoresX, fitRowCap(in), seed, nullptr);
}

FitObserver jobObserver(const FitJobSink& sink, const std::atomic<bool>& cancel,
                        TraceStream& traces)
{
    FitObserver observer;
    observer.progress = sink.progress;
    observer.cancelled = [&cancel] { return cancel.load(); };
    observer.sweepPoint = [&sink](const FdPoint& p, const FittedModel&) {
        if (sink.fdPoint) {
            sink.fdPoint(p);
        }
    };
    observer.trace = [&traces](const std::string& run, const TraceRow& row) {
        traces.add(run, row);
    };
    return observer;
}

/// The comparison estimator at the fitted l, and the MMD read-out of both. False when
/// cancelled.
/// The optimizer view: natural vs standard gradient on the fitted kernel, observed live. Only
/// for kernel-field models (SOSREP, KDE): a kernel-SoS model has no alpha to run them on; a
/// large kernel defers them until the view is shown. False when cancelled.
bool runOptimizer(const FitJobInput& in, uint64_t seed, const FitJobSink& sink,
                  const std::atomic<bool>& cancel, FitJobResult& out, bool* ran)
{
    const KernelOperator* kernel = out.model().kernelField() ? out.model().kernel() : nullptr;
    const bool runnable = in.solverComparison.enabled && kernel && kernel->uncoveredRows() == 0;
    *ran = false;
    if (runnable && kernel->size() > in.solverComparison.eagerMaxCentres) {
        out.solverRunsDeferred = true;
    } else if (runnable) {
        out.solverRuns = runSolverComparison(out.model(), in.solverComparison, seed, sink, cancel);
        *ran = true;
        return !out.solverRuns.empty();
    }
    return true;
}

/// Where the time went, for the status bar: the app does more than `sosrep fit`.
class StageClock
{
public:
    StageClock(FitJobResult& out, Clock::time_point start) : m_out(out), m_lap(start) {}
    void lap(const char* name)
    {
        const auto now = Clock::now();
        m_out.stages.push_back({name, std::chrono::duration<double>(now - m_lap).count()});
        m_lap = now;
    }

private:
    FitJobResult& m_out;
    Clock::time_point m_lap;
};

} // namespace

std::shared_ptr<const FittedModel> fitAtLengthScale(const Matrix& x, const FitSettings& settings,
                                                    const std::string& estimator,
                                                    double lengthScale, const FitObserver& observer,
                                                    const Scaler& scaler)
{
    FitSettings other = settings;
    if (estimator != settings.estimator) {
        other = FitSettings::defaults(estimator);
        for (const auto& [name, value] : settings.values.all()) {
            const OptionSpec* spec = other.values.spec(name);
            if (spec && spec->group != "Solver") {
                other.values.set(name, value);
            }
        }
    }
    if (lengthScale > 0.0) {
        other.fixLengthScale(lengthScale);
    }
    FitObserver quiet;
    quiet.cancelled = observer.cancelled;
    quiet.progress = observer.progress;
    FitData data{x, Matrix(), "data", nullptr};
    data.scaler = scaler;
    FitOutcome f = fitModel(data, other, quiet);
    if (f.cancelled) {
        return nullptr;
    }
    checkUsable(*f.model);
    return f.model;
}

std::vector<NamedTrace> runSolverComparison(const FittedModel& model,
                                            const SolverComparisonSettings& settings, uint64_t seed,
                                            const FitJobSink& sink, const std::atomic<bool>& cancel)
{
    GradientConfig gc;
    gc.learningRate = settings.learningRate;
    gc.iterations = settings.iterations;
    gc.tolerance = 1e-9;
    gc.seed = seed;
    TraceStream traces(sink);
    const SolverComparison c = compareGradientSolvers(
        *model.kernel(), gc,
        [&traces](const std::string& run, const TraceRow& row) { traces.add(run, row); },
        stageProgress(sink, cancel, "optimizer: natural vs standard"));
    traces.flush();
    return c.cancelled ? std::vector<NamedTrace>{} : c.runs;
}

ComparisonStage runComparisonStage(const FitJobInput& in, const FittedModel& model,
                                   double lengthScale, const GridSpec* grid, const FitJobSink& sink,
                                   const std::atomic<bool>& cancel)
{
    const auto start = Clock::now();
    ComparisonStage stage;
    try {
        // The rows the model was fitted on, drawn again from the same seed.
        FitJobResult rows;
        const uint64_t seed = in.settings.values.seed("seed");
        const Matrix fitX = rowsToFit(in, seed, rows);
        TraceStream traces(sink);
        FitObserver observer = jobObserver(sink, cancel, traces);
        observer.trace = nullptr; // the second model's solver is not the Optimizer view's
        stage.comparison =
            fitAtLengthScale(fitX, in.settings, in.compareWith, lengthScale, observer, in.scaler);
        if (!stage.comparison) {
            stage.cancelled = true;
            return stage;
        }
        const GridSpec view = fitX.cols() >= 2
                                  ? gridAroundData(fitX, in.plotX, in.plotY, in.gridResolution)
                                  : GridSpec{};
        bool cancelled = false;
        stage.mmd =
            computeMmdReadout(fitX, in.settings, {&model, stage.comparison.get()}, lengthScale,
                              fitX.cols() == 2 ? &view : nullptr, observer, &cancelled);
        if (cancelled) {
            stage.cancelled = true;
            return stage;
        }
        if (grid) {
            stage.comparisonGrid = evaluateGrid(*stage.comparison, *grid,
                                                stageProgress(sink, cancel, "comparison grid"));
            if (stage.comparisonGrid.cancelled) {
                stage.cancelled = true;
                return stage;
            }
        }
        // A readable scatter needs no more rows, and a KDE at 50000 rows would cost seconds.
        stage.scatterRows = subsampleRows(in.x.rows(), FitJobResult::kScatterRows, seed);
        stage.scatterComparison =
            stage.comparison->logValues(rowsOf(in.x, stage.scatterRows)).values;
    } catch (const ParameterError& e) {
        stage.error = describe(e);
    } catch (const std::bad_alloc&) {
        // From a parallel region too (core/util/parallel_failure.h); what() says only
        // "std::bad_alloc".
        stage.error = "out of memory (try fewer rows: a subsample, or the low-rank back-end)";
    } catch (const std::exception& e) {
        stage.error = e.what();
    }
    stage.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    return stage;
}

namespace {

/// Every row's log value, a block of rows at a time with progress ("scoring rows", done of
/// rows) and cancel answered between blocks (shuttle's 49 097 rows under the anomaly rule's
/// ensemble took 8-10 s with neither). A row's value does not depend on its block
/// (core/numerics/row_blocks.h): the same numbers as one call. False when cancelled.
bool scoreRows(const FittedModel& model, const Matrix& x, const FitJobSink& sink,
               const std::atomic<bool>& cancel, Vector* out)
{
    constexpr Eigen::Index kBlock = 4096;
    const Eigen::Index n = x.rows();
    *out = Vector(n);
    for (Eigen::Index first = 0; first < n; first += kBlock) {
        if (cancel.load()) {
            return false;
        }
        if (sink.progress) {
            sink.progress("scoring rows", int(first), int(n));
        }
        const Eigen::Index rows = std::min(kBlock, n - first);
        out->segment(first, rows) = model.logValues(x.middleRows(first, rows)).values;
    }
    if (sink.progress) {
        sink.progress("scoring rows", int(n), int(n));
    }
    return !cancel.load();
}

} // namespace

ScoresStage runScoresStage(const FitJobInput& in, const FitOutcome& fit, const FitJobSink& sink,
                           const std::atomic<bool>& cancel)
{
    auto lap = Clock::now();
    const auto since = [&lap] {
        const auto now = Clock::now();
        const double s = std::chrono::duration<double>(now - lap).count();
        lap = now;
        return s;
    };
    ScoresStage stage;
    try {
        FitJobResult rows; // the rows the model was fitted on, drawn again from the same seed
        const uint64_t seed = in.settings.values.seed("seed");
        const Matrix fitX = rowsToFit(in, seed, rows);
        FitObserver observer;
        observer.progress = sink.progress;
        observer.cancelled = [&cancel] { return cancel.load(); };
        if (!fitScoresModel(in, fitX, scoresRowsToFit(in, seed), fit, observer, &stage.scoresFit)) {
            stage.cancelled = true;
            return stage;
        }
        stage.modelSeconds = stage.scoresFit ? since() : 0.0;
        const bool ownRows = stage.scoresFit && in.scoresX.size() > 0;
        if (ownRows) {
            stage.scoresScaler = in.scoresScaler;
        }
        // Every row's log value; the comparison's, for the scatter, are the compare stage's.
        const FittedModel& model = stage.scoresFit ? *stage.scoresFit->model : *fit.model;
        if (!scoreRows(model, ownRows ? in.scoresX : in.x, sink, cancel, &stage.rowLogDensity)) {
            stage.cancelled = true;
            return stage;
        }
        stage.rowSeconds = since();
    } catch (const ParameterError& e) {
        stage.error = describe(e);
    } catch (const std::exception& e) {
        stage.error = e.what();
    }
    return stage;
}

ThresholdStage runThresholdStage(const FitJobInput& in, const FitOutcome& scores, bool anomalyModel,
                                 double contamination, const FitJobSink& sink,
                                 const std::atomic<bool>& cancel)
{
    ThresholdStage stage;
    try {
        checkContamination(contamination);
        FitJobResult rows; // the rows the model was fitted on, drawn again from the same seed
        FitData data;
        const bool ownRows = anomalyModel && in.scoresX.size() > 0; // the Scores view's scaling
        data.train = ownRows ? scoresRowsToFit(in, in.settings.values.seed("seed"))
                             : rowsToFit(in, in.settings.values.seed("seed"), rows);
        data.source = "data";
        data.scaler = ownRows ? in.scoresScaler : in.scaler;
        FitSettings settings = in.settings;
        if (anomalyModel) {
            settings.resolvePurpose("anomaly"); // the Scores view's model is the anomaly rule's
        }
        FitObserver observer;
        observer.cancelled = [&cancel] { return cancel.load(); };
        observer.progress = [&sink](const std::string&, int done, int total) {
            if (sink.progress) {
                sink.progress("outlier threshold", done, total);
            }
        };
        std::string method;
        const Vector heldOut =
            heldOutLogValues(data, settings, scores, kThresholdFolds, observer, &method);
        if (heldOut.size() == 0 || cancel.load()) {
            stage.cancelled = true;
            return stage;
        }
        stage.threshold = outlierThreshold(heldOut, contamination, method);
    } catch (const ParameterError& e) {
        stage.error = describe(e);
    } catch (const std::exception& e) {
        stage.error = e.what();
    }
    return stage;
}

void mergeScoresStage(ScoresStage stage, FitJobResult& result)
{
    result.scoresFit = std::move(stage.scoresFit);
    result.scoresScaler = std::move(stage.scoresScaler);
    result.rowLogDensity = std::move(stage.rowLogDensity);
    result.scoresDeferred = false;
    if (result.scoresFit) {
        result.stages.push_back({"anomaly model", stage.modelSeconds});
    }
    result.stages.push_back({"row scores", stage.rowSeconds});
}

void mergeComparisonStage(ComparisonStage stage, FitJobResult& result)
{
    result.comparison = std::move(stage.comparison);
    result.comparisonGrid = std::move(stage.comparisonGrid);
    result.mmd = std::move(stage.mmd);
    result.scatterRows = std::move(stage.scatterRows);
    result.scatterComparison = std::move(stage.scatterComparison);
    result.comparisonDeferred = false;
    result.stages.push_back({"comparison", stage.seconds});
}

FitJobResult runFitJob(const FitJobInput& in, const FitJobSink& sink,
                       const std::atomic<bool>& cancel)
{
    const auto start = Clock::now();
    FitJobResult out;
    out.settings = in.settings;
    out.compareWith = in.compareWith;
    const auto cancelled = [&out] {
        out.cancelled = true;
        return out;
    };
    try {
        const uint64_t seed = in.settings.values.seed("seed");
        const Matrix fitX = rowsToFit(in, seed, out);
        TraceStream traces(sink);
        const FitObserver observer = jobObserver(sink, cancel, traces);
        // The one fit route: the same call `sosrep fit` makes with these settings (purpose=auto
        // is the density here, as for `sosrep fit`).
        FitSettings settings = in.settings;
        settings.resolvePurpose("density");
        FitData data{fitX, Matrix(), "data", nullptr};
        data.scaler = in.scaler; // log values per unit of the data's columns
        out.fit = fitModel(data, settings, observer);
        traces.flush();
        if (out.fit.cancelled) {
            return cancelled();
        }
        checkUsable(out.model());
        StageClock clock(out, start);
        clock.lap("model");
        bool ran = false;
        if (!runOptimizer(in, seed, sink, cancel, out, &ran)) {
            return cancelled();
        }
        if (ran) {
            clock.lap("optimizer runs");
        }
        if (!evaluateGrids(in, out, sink, cancel)) {
            return cancelled();
        }
        clock.lap("maps");
        const bool late = out.fitRows > in.eagerStagesMaxRows;
        if (late) {
            out.scoresDeferred = true;
        } else {
            ScoresStage stage = runScoresStage(in, out.fit, sink, cancel);
            if (stage.cancelled) {
                return cancelled();
            }
            if (!stage.error.empty()) {
                throw std::runtime_error(stage.error);
            }
            mergeScoresStage(std::move(stage), out);
        }
        if (!in.compareWith.empty() && late) {
            out.comparisonDeferred = true;
        } else if (!in.compareWith.empty()) {
            ComparisonStage stage = runComparisonStage(
                in, out.model(), out.fit.lengthScale,
                out.grid.logDensity.size() > 0 ? &out.grid.spec : nullptr, sink, cancel);
            if (stage.cancelled) {
                return cancelled();
            }
            if (!stage.error.empty()) {
                throw std::runtime_error(stage.error);
            }
            mergeComparisonStage(std::move(stage), out);
        }
    } catch (const ParameterError& e) {
        out.error = describe(e);
    } catch (const std::exception& e) {
        out.error = e.what();
    }
    out.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    return out;
}

} // namespace sosrep::ui
