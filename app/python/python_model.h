// SPDX-License-Identifier: MIT
// The fitted model as the Python package holds it, and the input helpers its bindings share.
#pragma once

#include "app/python/array_input.h"
#include "core/data/dataset.h"
#include "core/io/model_file.h"
#include "core/pipeline/fit_route.h"

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace sosrep::python {

/// A fitted model as the package holds it: what a model file stores, and the fit's tuning.
struct Model
{
    std::shared_ptr<const FittedModel> fitted;
    io::SavedModel saved;
    std::vector<FdPoint> fdCurve;
    double lengthScale = 0.0;
    std::vector<std::string> warnings;
    /// What an outlier threshold is cross-fitted from (outlier_threshold.h), kept from a fit
    /// in this process: the scaled training rows (one copy, as the kernel's) and the fit.
    /// Empty for a model read from a file, whose threshold (if any) is saved in it.
    FitData data;
    FitSettings settings;
    FitOutcome outcome;
    std::optional<Vector> heldOut; // computed on first use
    Vector heldOutWeights;         // their row weights (a fit with sample_weight)
    std::string heldOutMethod;
    /// Every training row's value from a model that did not fit it (decision_scores_),
    /// computed on first use.
    std::optional<Vector> crossFitted;
    std::string crossFittedMethod;
    /// purpose=auto: the anomaly purpose's model from the same sweep, which anomaly_score,
    /// decision_function and predict use (the density stays `fitted`); null otherwise.
    std::shared_ptr<Model> anomaly;
    /// Which model anomaly scores come from and why (purpose-bearing estimators; else empty).
    std::string anomalyNote;
};

/// NaN or infinity in the rows: a DataError naming the row and column (as the readers do).
void refuseNonFinite(const ArrayRows& rows, const std::string& name);
/// The rows as a dataset with columns x1..xn.
Dataset datasetOf(const ArrayRows& rows, const std::string& name);
/// The package's fit (fit_binding.cpp): estimator by name, X, options as text; optional second
/// sample, progress callback, Type II q values, DataFrame column names, row weights and the
/// name of the density estimator whose density of the second sample is q (Type II).
std::shared_ptr<Model> fit(const std::string& estimator, const pybind11::array& x,
                           const std::map<std::string, std::string>& options,
                           const pybind11::object& second, const pybind11::object& progress,
                           const pybind11::object& qValues, const pybind11::object& columns,
                           const pybind11::object& sampleWeight, const std::string& qDensity);
/// weight_summary, mmd_samples and mmd_model (measures.cpp).
void addMeasureFunctions(pybind11::module_& m);

} // namespace sosrep::python
