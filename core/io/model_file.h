// SPDX-License-Identifier: MIT
// The model file: what a fit saves and how it is read back, strictly.
#pragma once

#include "core/data/scaler.h"
#include "core/estimators/estimator.h"
#include "core/estimators/fit_settings.h"
#include "core/io/json.h"
#include "core/pipeline/outlier_threshold.h"

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sosrep {
struct FitOutcome;
}

namespace sosrep::io {

/// What a model file holds: enough to score new rows exactly as the fit did, whatever the
/// estimator. The settings are the options as asked (e.g. length_scale "auto"); `kernel` is the
/// kernel as fitted (the selected length scale, the seed of its random features or landmarks);
/// `parameters` are what the estimator's model saved. SDO random features and Nystroem landmarks
/// are not stored: they are regenerated from the recorded seed (core/random.h).
struct SavedModel
{
    FitSettings settings;
    std::optional<KernelSpec> kernel;
    Scaler scaler;
    std::vector<std::string> columns;
    ParameterMap parameters;
    Json provenance = Json::object(); // seeds, selection, source files
    /// Which units the log values tied to this file are in: per unit of the data's own columns
    /// ("log_value_units": "data", every file written now), or, in files written before that
    /// field, per unit of the scaled coordinates. Only a saved outlier threshold depends on it
    /// (outlierThresholdInDataUnits); the model's parameters mean the same either way.
    bool logValuesInDataUnits = true;
};

/// The parts of a fitted model as a model file stores them.
SavedModel savedModelOf(const FittedModel& model, const FitSettings& settings, const Scaler& scaler,
                        const std::vector<std::string>& columns, const Json& provenance);

/// The model as JSON ("format": "sosrep-model", "version": 3).
std::string modelJson(const SavedModel& model);
/// Parses and validates a model file's bytes (version 2, or version 1 as written before the
/// estimator plug-ins); throws DataError naming `source` (with line and column for malformed
/// JSON) on anything malformed or out of range: an unknown estimator, settings that are not its
/// options, sizes that disagree, non-finite numbers, a scaler with a zero scale, kernel
/// parameters beyond their limits.
SavedModel parseModel(std::string_view bytes, const std::string& source);
/// Reads and parses a model file.
SavedModel loadModel(const std::string& path);
/// The fitted model rebuilt by its estimator; problems throw DataError naming `source`.
std::unique_ptr<FittedModel> toModel(const SavedModel& model, const std::string& source);
/// toModel() for a use that needs a density (a ratio's q, an MMD against data): a density
/// ratio or a normality score (iforest, knn, the anomaly rule's rank ensemble) throws
/// ParameterError(flag) saying what the file holds.
std::unique_ptr<FittedModel> toDensityModel(const SavedModel& model, const std::string& source,
                                            const std::string& flag);

/// A detector's outlier threshold as a model file's provenance keeps it ("outlier_threshold":
/// contamination, offset, held_out_rows, method); `sosrep fit --contamination` and the Python
/// package write it.
Json outlierThresholdJson(const OutlierThreshold& threshold);
/// The threshold a model file holds, in today's units (a file written before log values were
/// per unit of the data's columns is moved by the model's logUnitShift); none without one.
std::optional<OutlierThreshold> savedOutlierThreshold(const SavedModel& model,
                                                      const FittedModel& fitted);

/// What a model file records of how it was fitted: the seed, the training file, the tuning's
/// purpose and rule, and the fit's warnings ("fit_warnings", when there were any), so that a
/// degenerate fit still says so when the file is scored later, in every front end.
Json fitProvenance(const FitSettings& settings, const FitOutcome& fit,
                   const std::string& trainSource, const std::vector<std::string>& warnings);
/// The warnings a model file's fit gave (none in files written before they were recorded).
std::vector<std::string> savedFitWarnings(const SavedModel& model);

} // namespace sosrep::io
