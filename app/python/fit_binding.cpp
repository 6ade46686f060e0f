// SPDX-License-Identifier: MIT
// The package's fit: Python's arrays, options and row weights through the core's fit route.
#include "app/python/array_input.h"
#include "app/python/compute_section.h"
#include "app/python/python_model.h"
#include "app/python/python_observer.h"
#include "core/data/preparation.h"
#include "core/data/split.h"
#include "core/errors.h"
#include "core/estimators/common_options.h"
#include "core/estimators/fit_settings.h"
#include "core/io/model_file.h"
#include "core/pipeline/fit_route.h"
#include "core/pipeline/q_density.h"
#include "core/tuning/rank_ensemble.h"
#include "core/util/text.h"

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cmath>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace py = pybind11;

namespace sosrep::python {
namespace {

/// Type II: q's values at the rows of p, checked as `sosrep ratio` checks them (finite, not
/// negative, not all zero), in the scaled coordinates' units.
Vector typeTwoValues(const py::object& qValues, const Matrix& scaledRows, const Scaler& scaler)
{
    const Eigen::Index rows = scaledRows.rows();
    const auto q = qValues.cast<py::array_t<double, py::array::c_style | py::array::forcecast>>();
    if (q.ndim() != 1 || q.shape(0) != rows) {
        throw py::value_error("q: gives " + std::to_string(q.size()) + " values for the " +
                              std::to_string(rows) + " rows of X (one per row expected)");
    }
    const Eigen::Map<const Vector> raw(q.data(), rows);
    for (Eigen::Index i = 0; i < rows; ++i) {
        if (!std::isfinite(raw(i)) || raw(i) < 0.0) {
            throw ParameterError("q", "is " + formatReal(raw(i)) + " at row " +
                                          std::to_string(i + 1) +
                                          " of 'X': q must be finite and non-negative there");
        }
    }
    if ((raw.array() == 0.0).all()) {
        throw ParameterError("q", "q is zero at every row of 'X': the ratio q/p is 0 there and "
                                  "has nothing to fit");
    }
    return raw.cwiseProduct(scaler.densityFactorRows(scaledRows));
}

/// The estimator's settings with Python's options (every one checked against its table).
FitSettings fitSettingsOf(const std::string& estimator,
                          const std::map<std::string, std::string>& options)
{
    FitSettings settings = FitSettings::defaults(estimator);
    for (const auto& [name, value] : options) {
        if (!settings.values.has(name)) {
            std::string known;
            for (const auto& [k, v] : settings.values.all()) {
                known += (known.empty() ? "" : ", ") + k;
            }
            throw ParameterError(name, "is not an option of " + estimator + " (" + known + ")");
        }
        settings.values.set(name, value);
    }
    settings.resolvePurpose("density"); // as `sosrep fit`: purpose=auto is the density
    return settings;
}

/// Whether a fit with these options may also get the anomaly purpose's model: purpose left at
/// auto and no second sample (not a ratio). It does when the purpose decides something here: a
/// tuned length scale's rule (selection=auto), or the scaling (scale=auto, where the anomaly
/// purpose's comes to another kind on these rows: anomalyScalingDiffers).
bool purposeLeftAuto(const std::string& estimator,
                     const std::map<std::string, std::string>& options, bool twoSamples)
{
    const FitSettings defaults = FitSettings::defaults(estimator);
    if (!defaults.values.has("purpose") || twoSamples) {
        return false;
    }
    const auto given = options.find("purpose");
    return given == options.end() || given->second == "auto";
}

/// The rule of a tuned length scale is the purpose's (selection=auto).
bool ruleFollowsPurpose(const FitSettings& settings)
{
    return settings.autoLengthScale() && settings.values.text("selection") == "auto";
}

/// Which model anomaly scores come from, and why (summary_["anomaly_model"]); empty for an
/// estimator without a purpose.
std::string anomalyNote(const FitSettings& settings,
                        const std::map<std::string, std::string>& options, bool purposeAuto,
                        const FitOutcome& density, const FitOutcome* anomaly,
                        const std::optional<PreparedTraining>& anomalyPrepared,
                        const PreparedTraining& prepared)
{
    if (!settings.values.has("purpose")) {
        return {};
    }
    if (!purposeAuto) {
        const auto asked = options.find("purpose");
        return asked == options.end()
                   ? "a ratio's fit: anomaly scores are minus its log values"
                   : "purpose='" + asked->second +
                         "' was asked: anomaly scores are minus this model's log values";
    }
    if (anomaly) {
        std::string why;
        if (anomalyPrepared) {
            why = "the anomaly purpose scales these rows by " +
                  toString(anomalyPrepared->scaler.kind) + " (the density by " +
                  toString(prepared.scaler.kind) + ": a spike and a sparse tail)";
        } else if (const auto* e = dynamic_cast<const RankEnsembleModel*>(anomaly->model.get())) {
            std::string scales;
            for (const RankEnsembleModel::Member& member : e->members()) {
                scales += (scales.empty() ? "" : ", ") + numberText(member.lengthScale, 4);
            }
            why =
                "a tuned length scale's rule follows the purpose: the density's is l = " +
                numberText(density.lengthScale, 4) +
                ", the anomaly purpose's ranks rows by their most anomalous rank at l = " + scales +
                " (the second is the reach of the neighbours)";
        } else {
            // The reach did not exceed l: one scale, the density's, and its scores.
            why = "the anomaly purpose's rule came to one scale here, l = " +
                  numberText(anomaly->lengthScale, 4) +
                  (anomaly->search && anomaly->search->reach > 0.0
                       ? " (the neighbours' reach, " + numberText(anomaly->search->reach, 4) +
                             ", does not exceed it)"
                       : std::string()) +
                  ", so its scores are the density's";
        }
        return "purpose='auto': " + why +
               "; anomaly_score, decision_function and predict use anomaly_model_ (the rule "
               "was chosen on training rows that hold the anomalies; trained on clean inliers, "
               "purpose='density' may rank better)";
    }
    return "purpose='auto', but the purpose decides nothing here (" +
           std::string(settings.autoLengthScale() ? "selection=" + settings.values.text("selection")
                                                  : "a fixed length scale") +
           ", and both purposes scale alike): anomaly scores are minus this model's log values";
}

/// The fitted model as Python holds it: the model, its warnings and file form, and for a density
/// or a detector the rows and outcome a held-out threshold is cross-fitted from.
std::shared_ptr<Model> modelOf(FitOutcome& f, FitData& data, const FitSettings& settings,
                               const PreparedTraining& prepared,
                               const std::vector<std::string>& columns)
{
    auto m = std::make_shared<Model>();
    m->fitted = f.model;
    m->lengthScale = f.lengthScale;
    m->warnings = prepared.warnings;
    m->warnings.insert(m->warnings.end(), f.warnings.begin(), f.warnings.end());
    if (f.search) {
        m->fdCurve = f.search->curve;
    }
    const io::Json prov = io::fitProvenance(settings, f, "(NumPy array)", m->warnings);
    m->saved = io::savedModelOf(*f.model, settings, prepared.scaler, columns, prov);
    m->saved.parameters = ParameterMap(); // the fitted model holds them (fileOf)
    if (!data.second && !data.secondValues) {
        m->data.train = std::move(data.train);
        m->data.source = data.source;
        m->data.scaler = data.scaler;
        m->data.weights = std::move(data.weights);
        m->settings = settings;
        m->outcome.lengthScale = f.lengthScale;
        m->outcome.heldOutLogValues = f.heldOutLogValues;
        m->outcome.fitRows = f.fitRows; // a subsample: held-out values from the other rows
        m->outcome.model = f.model;     // the cross-fits refit its kind (one model or an ensemble)
    }
    return m;
}

/// sample_weight as a vector of one weight per row (empty when None). The fit route checks the
/// values (finite, non-negative, not all zero, an estimator that can weight rows).
Vector rowWeightsOf(const py::object& sampleWeight, Eigen::Index rows)
{
    if (sampleWeight.is_none()) {
        return Vector();
    }
    const auto w =
        sampleWeight.cast<py::array_t<double, py::array::c_style | py::array::forcecast>>();
    if (w.ndim() != 1 || w.shape(0) != rows) {
        throw py::value_error("sample_weight: needs one weight per row of X (" +
                              std::to_string(rows) + "), got " + std::to_string(w.size()) +
                              " values in " + std::to_string(w.ndim()) + " dimension(s)");
    }
    return Eigen::Map<const Vector>(w.data(), rows);
}

/// The training rows checked and scaled; the scaling is that of the rows of positive weight,
/// since a row of weight 0 is not in the sample (its min-max range must not move the others).
PreparedTraining prepareWeighted(const Dataset& train, const Vector& weights,
                                 const FitSettings& settings)
{
    const ScalingKind kind = scalingOf(settings.values); // auto: the purpose's
    if (weights.size() == 0 || !(weights.array() == 0.0).any() || !(weights.array() > 0.0).any()) {
        return prepareTraining(train, kind);
    }
    Dataset positive = train;
    std::vector<Eigen::Index> keep;
    for (Eigen::Index i = 0; i < weights.size(); ++i) {
        if (weights(i) > 0.0) {
            keep.push_back(i);
        }
    }
    positive.x = rowsOf(train.x, keep);
    PreparedTraining prepared = prepareTraining(positive, kind);
    prepared.x = applyToOther(prepared.scaler, train);
    return prepared;
}

/// A DataFrame's column names on `train` (None: leave them): the model file keeps them, so
/// `sosrep score` reads the DataFrame's own CSV with it.
void nameColumns(Dataset& train, const py::object& columns)
{
    if (columns.is_none()) {
        return;
    }
    auto names = columns.cast<std::vector<std::string>>();
    if (Eigen::Index(names.size()) != train.dim()) {
        throw py::value_error("columns: " + std::to_string(names.size()) + " names for " +
                              std::to_string(train.dim()) + " columns");
    }
    train.columns = std::move(names);
}

/// purpose=auto: `settings` become the anomaly purpose's, and the rows are scaled anew where
/// its scaling (scale=auto) comes to another kind on them than the density's (else nullopt:
/// the density's rows serve both).
std::optional<PreparedTraining> anomalyRows(const Dataset& train, const Vector& weights,
                                            const PreparedTraining& prepared, FitSettings& settings)
{
    const ScalingKind density = scalingOf(settings.values);
    settings.values.set("purpose", "anomaly");
    if (scalingOf(settings.values) == density) {
        return std::nullopt;
    }
    PreparedTraining own = prepareWeighted(train, weights, settings);
    if (own.scaler.kind == prepared.scaler.kind) {
        return std::nullopt;
    }
    return own;
}

/// The second sample q of a ratio, scaled as X was (its columns named as X's; X has `dim`).
Matrix secondSampleOf(const py::object& second, const Dataset& train, Eigen::Index dim,
                      const Scaler& scaler)
{
    const ArrayRows qRows(second.cast<py::array>(), "q");
    if (qRows.cols() != dim) {
        throw py::value_error("q: has " + std::to_string(qRows.cols()) + " columns, X has " +
                              std::to_string(dim));
    }
    Dataset qData = datasetOf(qRows, "q");
    qData.columns = train.columns;
    return applyToOther(scaler, qData);
}

/// What a ratio's fit takes of q, kept alive for it.
struct SecondSample
{
    Matrix rows;
    Vector values;
};

/// q's rows (Type I), or q's values at X's rows (Type II: the caller's q, or the density of
/// Y's rows as `sosrep ratio --q-density` fits it, both in X's scaled units), set in `data`,
/// which points into *out.
void attachSecond(FitData& data, SecondSample* out, const py::object& second,
                  const py::object& qValues, const std::string& qDensity, const Dataset& train,
                  const Scaler& scaler, const std::string& seed)
{
    if (!second.is_none()) {
        out->rows = secondSampleOf(second, train, data.train.cols(), scaler);
    }
    if (!qValues.is_none()) {
        out->values = typeTwoValues(qValues, data.train, scaler);
        data.secondValues = &out->values;
    } else if (!qDensity.empty()) {
        out->values = fittedQDensity(qDensity, seed, out->rows, data.train);
        data.secondValues = &out->values;
    } else if (!second.is_none()) {
        data.second = &out->rows;
    }
}

/// The anomaly purpose's fit data: its own scaled rows (moved out of `own`), or the density's.
FitData anomalyDataOf(const FitData& density, std::optional<PreparedTraining>& own)
{
    FitData out;
    out.train = own ? std::move(own->x) : density.train;
    out.validation = density.validation;
    out.source = density.source;
    out.scaler = own ? own->scaler : density.scaler;
    out.weights = density.weights;
    return out;
}

/// Each warning as sosrep.FitWarning, now: for a fit about to fail. A warning filter that turns
/// them into errors raises the first instead of the failure.
void warnBeforeFailure(const std::vector<std::string>& warnings)
{
    if (warnings.empty()) {
        return;
    }
    const py::object category = py::module_::import("sosrep._estimators").attr("FitWarning");
    for (const std::string& w : warnings) {
        if (PyErr_WarnEx(category.ptr(), w.c_str(), 2) != 0) {
            throw py::error_already_set();
        }
    }
}

/// fitModel with the GIL released, its model checked: Ctrl+C or an error of the progress
/// callback raises in Python, a model that cannot be used throws as checkUsable says.
/// `rowWarnings` (the preparation's) reach Python with the model; a fit that fails has none,
/// and its message (a length scale) would hide their cause (a column blown up): they are
/// warned before the failure is raised.
FitOutcome fitUsable(const FitData& data, const FitSettings& settings, const FitObserver& observer,
                     const std::vector<std::string>& rowWarnings = {})
{
    FitOutcome f;
    try {
        const ComputeSection compute;
        f = fitModel(data, settings, observer);
    } catch (...) {
        warnBeforeFailure(rowWarnings);
        throw;
    }
    if (PyErr_Occurred() || f.cancelled || !f.model) {
        throw py::error_already_set(); // KeyboardInterrupt, or the progress callback's error
    }
    checkUsable(*f.model);
    return f;
}

/// The fit's rows: X scaled (moved out of `prepared`: the fit holds one copy), its weights,
/// no validation rows of its own (the tuning splits X), log values per unit of X's columns.
FitData fitDataOf(PreparedTraining& prepared, const Vector& weights, Eigen::Index dim)
{
    FitData data;
    data.train = std::move(prepared.x);
    data.weights = weights;
    data.validation = Matrix(0, dim);
    data.source = "X";
    data.scaler = prepared.scaler;
    return data;
}

} // namespace

std::shared_ptr<Model> fit(const std::string& estimator, const py::array& x,
                           const std::map<std::string, std::string>& options,
                           const py::object& second, const py::object& progress,
                           const py::object& qValues, const py::object& columns,
                           const py::object& sampleWeight, const std::string& qDensity)
{
    const FitSettings settings = fitSettingsOf(estimator, options);
    const ArrayRows rows(x, "X");
    Dataset train = datasetOf(rows, "X");
    nameColumns(train, columns);
    const Vector weights = rowWeightsOf(sampleWeight, train.x.rows());
    PreparedTraining prepared = prepareWeighted(train, weights, settings);
    const bool purposeAuto =
        purposeLeftAuto(estimator, options, !second.is_none() || !qValues.is_none());
    FitSettings anomalySettings = settings;
    std::optional<PreparedTraining> anomalyPrepared;
    if (purposeAuto) {
        anomalyPrepared = anomalyRows(train, weights, prepared, anomalySettings);
    }
    // The fit holds one double copy of X, the scaled one: the raw copy goes before it starts.
    const Eigen::Index trainDim = train.dim();
    train.x = Matrix();
    FitData data = fitDataOf(prepared, weights, trainDim);
    SecondSample q;
    attachSecond(data, &q, second, qValues, qDensity, train, prepared.scaler,
                 settings.values.text("seed"));
    PythonObserver watch;
    watch.progress = progress;
    // Whether the anomaly purpose's fit may follow: from this fit's sweep (a few final fits:
    // the last tenth of the progress), or on its own rows (a whole fit: the second half).
    const bool anomalyMayFollow =
        purposeAuto &&
        (anomalyPrepared || (settings.autoLengthScale() && ruleFollowsPurpose(settings)));
    if (anomalyMayFollow) {
        watch.to = anomalyPrepared ? 500 : 900;
        watch.last = false;
    }
    const FitObserver observer = watch.observer();
    FitOutcome f = fitUsable(data, settings, observer, prepared.warnings);
    const bool anomalyToo =
        purposeAuto && (anomalyPrepared || (f.search && ruleFollowsPurpose(settings)));
    // modelOf takes data.train: each model keeps its rows.
    FitData anomalyData = anomalyToo ? anomalyDataOf(data, anomalyPrepared) : FitData();
    auto m = modelOf(f, data, settings, prepared, train.columns);
    const auto asked = options.find("purpose");
    if (settings.values.has("purpose") && (asked == options.end() || asked->second == "auto")) {
        // The file holds the density (purpose=auto resolves to it, as `sosrep fit`) and says
        // what was asked, so sosrep.load gives back purpose='auto' as it was set.
        m->saved.provenance["purpose_asked"] = "auto";
    }
    if (anomalyToo) {
        // On the density's rows, the anomaly purpose reuses the density's sweep (the same
        // curve: both rules start at its minimum): the reach and the member fits are all it
        // adds. On its own rows (another scaling) it is a whole fit.
        if (!anomalyPrepared) {
            anomalyData.sweep = &*f.search;
        }
        watch.from = watch.to;
        watch.to = 1000;
        watch.last = true;
        FitOutcome a = fitUsable(anomalyData, anomalySettings, observer);
        m->anomaly = modelOf(a, anomalyData, anomalySettings,
                             anomalyPrepared ? *anomalyPrepared : prepared, train.columns);
        m->anomalyNote =
            anomalyNote(settings, options, purposeAuto, f, &a, anomalyPrepared, prepared);
    } else {
        m->anomalyNote =
            anomalyNote(settings, options, purposeAuto, f, nullptr, anomalyPrepared, prepared);
        if (anomalyMayFollow && !progress.is_none()) {
            progress("done", 1000, 1000); // one scale: the density's model ranks the rows
        }
    }
    return m;
}

} // namespace sosrep::python
