// SPDX-License-Identifier: MIT
// The one fit route of every front end: prepare, tune, fit, check.
#pragma once

#include "core/data/scaler.h"
#include "core/estimators/estimator.h"
#include "core/estimators/fit_settings.h"
#include "core/tuning/length_scale_search.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace sosrep {

/// The data of a fit, scaled.
struct FitData
{
    Matrix train;
    /// The rows the fit will be judged on (the test data, when given): they validate the
    /// length-scale tuning only with the option validation=test; otherwise (and when empty) a
    /// seeded 80/20 split of `train` does (design.md section 4). Labels are never used.
    Matrix validation;
    std::string source;                   // the training data's name, for messages
    const Matrix* second = nullptr;       // the second sample of estimators that need one
    const Vector* secondValues = nullptr; // or q at the train rows (a Type II ratio)
    /// A finished sweep of the same estimator, kernel and rows (a benchmark comparing rules):
    /// reused instead of run again, with this fit's rule applied to its curve.
    const SearchResult* sweep = nullptr;
    /// The scaler that made `train` from the data's own columns: the fitted model's log values
    /// (and the curve's held-out log-likelihoods) are then per unit of those columns
    /// (FittedModel::setDataUnits). The identity leaves them in the scaled coordinates' units.
    Scaler scaler{};
    /// Row weights of `train` (Python's sample_weight), or empty for equal weights: finite,
    /// non-negative, not all zero (ParameterError "sample_weight" otherwise), and only for
    /// estimators that can use them (Capabilities::rowWeights; refused for the others). The
    /// sweep's fits and its validation mean, the rules of thumb (weighted spread, effective
    /// N) and the final fit all take them (weightedRowsInOrder: the rows the stages see);
    /// equal weights give the unweighted fit bit for bit.
    Vector weights{};
};

/// What a fit route reports while it runs; every member is optional.
struct FitObserver
{
    /// (stage, done, total): the stage ("Fisher-divergence sweep", "fit at the selected
    /// length scale", "fit"...) and the whole fit's progress, always out of the same total;
    /// done never decreases, and reaches total once, with stage "done", when the fit is
    /// complete (not when cancelled).
    std::function<void(const std::string& stage, int done, int total)> progress;
    /// Polled between solver steps and grid points; true stops the fit.
    std::function<bool()> cancelled;
    /// Each grid point of the sweep with the model fitted there.
    LengthScaleSearch::Observer sweepPoint;
    /// Each solver step of the final fit.
    TraceObserver trace;
};

struct FitOutcome
{
    std::shared_ptr<const FittedModel> model; // null when cancelled
    std::optional<SearchResult> search;       // when the length scale was tuned
    std::string validation;                   // "test" or "split-80-20" when tuned
    std::string purpose;                      // "density" or "anomaly" when tuned
    std::string rule;                         // the rule applied ("density", "paper"...)
    std::string lengthScaleRule;              // "auto", "scott", "silverman", "" for a number
    double lengthScale = 0.0;                 // the fitted kernel's (0 without a kernel)
    /// bw_adjust: the fitted l is lengthScaleChosen x bwAdjust (the tuning's or the rule's
    /// choice, or the number given, times the multiplier); 1 leaves it as chosen.
    double bwAdjust = 1.0;
    double lengthScaleChosen = 0.0;
    std::vector<std::string> warnings; // soft problems of the fit
    /// The rows of FitData::train the model was fitted on, ascending, when max_fit_rows took a
    /// seeded subsample of larger data (said in `warnings`); empty when it fitted every row.
    std::vector<Eigen::Index> fitRows;
    /// Log values at rows the model did not fit, when the fit holds such rows: the multi-scale
    /// anomaly rule's validation rows, which none of its members saw (outlier_threshold.h).
    Vector heldOutLogValues;
    bool cancelled = false;
    double seconds = 0.0;
};

/// The one fit route of the product, for the command line and the app alike: takes a seeded
/// subsample of data beyond max_fit_rows (FitOutcome::fitRows), checks the rows, builds the
/// kernel of the settings, sets the length scale (a number, a rule of thumb, or
/// Fisher-divergence tuning on the validation rows), then fits the settings' estimator.
/// Bad settings throw ParameterError naming the option; too few rows throw DataError naming
/// `data.source`. A fit that cannot be used (refused, diverged) is returned as it is: its
/// report says so (see checkUsable).
FitOutcome fitModel(const FitData& data, const FitSettings& settings,
                    const FitObserver& observer = {});

/// The rows of a weighted fit as the fit route uses them: those of positive weight (a row of
/// weight 0 is not in the sample), sorted by value, so a weighted fit does not depend on the
/// order of its rows (the tuning's folds are seeded over rows in order). Nullopt when there is
/// nothing to do: no weights, equal positive weights (the unweighted fit, rows as given), or
/// rows in that order already. `order`, when given, gets the input row of each row returned.
std::optional<FitData> weightedRowsInOrder(const FitData& data,
                                           std::vector<Eigen::Index>* order = nullptr);

/// The rows of `rows` a fit with this max_fit_rows uses (0: every row): all of them, or a
/// seeded subsample of `maxFitRows`, ascending (empty when all: nothing to pick). One rule for
/// the fit route and the app's views, so both fit the same rows.
std::vector<Eigen::Index> fitSubsample(Eigen::Index rows, long long maxFitRows, uint64_t seed);

/// Throws when a fit's model cannot be used: ParameterError("length_scale") when nothing could
/// be fitted at that length scale, NumericalError when the solver diverged (with the iteration).
void checkUsable(const FittedModel& model);

} // namespace sosrep
