// SPDX-License-Identifier: MIT
#pragma once

#include "core/data/dataset.h"
#include "core/grid/density_grid.h"
#include "core/tuning/length_scale_search.h"
#include "ui/controller/model_settings.h"

#include <atomic>
#include <functional>
#include <optional>
#include <string>

namespace sosrep::ui {

/// What a finished fit hands back to the GUI thread.
struct FitJobResult
{
    bool cancelled = false;
    std::string error; // empty on success
    double lengthScale = 0.0;
    std::optional<SearchResult> search; // when l was tuned
    DensityModel sosrepNatural;
    DensityModel sosrepStandard;
    SolverStatus naturalStatus = SolverStatus::Running;
    SolverStatus standardStatus = SolverStatus::Running;
    DensityModel kde;
    DensityModel primary;   // the model shown and scored (settings' estimator/solver)
    DensityGrid grid;       // log density of `primary` over the plot columns
    DensityGrid sosrepGrid; // natural-gradient SOSREP (for the comparison view)
    DensityGrid kdeGrid;
    Vector rowLogDensity; // `primary` at every row
    double seconds = 0.0;
    int fitRows = 0; // rows the models were fitted on (a subsample of large data)
};

/// Callbacks from the worker thread; each must be safe to call from there (the controller
/// forwards them with queued invocations).
struct FitJobSink
{
    std::function<void(const std::string& stage, int done, int total)> progress;
    std::function<void(const FdPoint&)> fdPoint;
    std::function<void(const std::vector<TraceRow>& natural, const std::vector<TraceRow>& standard)>
        traceRows; // new rows since the last call
};

struct FitJobInput
{
    Matrix x; // scaled features
    ModelSettings settings;
    int plotX = 0;
    int plotY = 1;
    int gridResolution = 128;
};

/// Runs the whole fit off the GUI thread; polls `cancel` between steps (every solver iteration,
/// every FD grid point, every grid chunk), so cancelling answers within one step.
FitJobResult runFitJob(const FitJobInput& input, const FitJobSink& sink,
                       const std::atomic<bool>& cancel);

} // namespace sosrep::ui
