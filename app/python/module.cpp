// SPDX-License-Identifier: MIT
// The `sosrep._sosrep` extension: the core's registry, its one fit route and the model files,
// for the Python package (app/python/sosrep). No widgets: sosrep_core and sosrep_io only.
#include "app/python/array_input.h"
#include "app/python/compute_section.h"
#include "app/python/python_model.h"
#include "app/python/python_observer.h"
#include "core/data/file_bytes.h"
#include "core/data/preparation.h"
#include "core/errors.h"
#include "core/estimators/model_sampling.h"
#include "core/estimators/ratio_model.h"
#include "core/estimators/registry.h"
#include "core/io/model_file.h"
#include "core/io/output_set.h"

#include "core/metrics/mmd.h"
#include "core/pipeline/fit_route.h"
#include "core/pipeline/outlier_threshold.h"
#include "core/ratio/expression.h"
#include "core/ratio/importance_weights.h"
#include "core/util/thread_settings.h"
#include <new>

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <functional>
#include <limits>
#include <sstream>

namespace py = pybind11;

namespace sosrep::python {

void refuseNonFinite(const ArrayRows& rows, const std::string& name)
{
    long row = 0, column = 0;
    std::string value;
    if (rows.firstNonFinite(&row, &column, &value)) {
        throw DataError(name, row, column,
                        "non-finite value " + value + " in " + name + " (row " +
                            std::to_string(row) + ", column " + std::to_string(column) + ")");
    }
}

Dataset datasetOf(const ArrayRows& rows, const std::string& name)
{
    refuseNonFinite(rows, name);
    Dataset d;
    d.x = rows.all();
    d.source = name;
    for (Eigen::Index j = 0; j < d.x.cols(); ++j) {
        d.columns.push_back("x" + std::to_string(j + 1));
    }
    return d;
}

namespace {

/// Rows scored per block: bounded memory whatever the input's size and layout.
constexpr Eigen::Index kScoreBlockRows = 8192;

/// The core and the command line name options as flags ("give a larger --length-scale"); in
/// Python they are constructor keywords: `--length-scale` -> `length_scale`, `--lambda` -> `lam`
/// (keyword_of in _estimators.py).
std::string pythonWords(const std::string& text)
{
    std::string out;
    for (size_t i = 0; i < text.size();) {
        const bool flag = text.compare(i, 2, "--") == 0 && i + 2 < text.size() &&
                          std::islower(static_cast<unsigned char>(text[i + 2])) &&
                          (i == 0 || !std::isalnum(static_cast<unsigned char>(text[i - 1])));
        if (!flag) {
            out += text[i++];
            continue;
        }
        size_t end = i + 2;
        while (end < text.size() &&
               (std::isalnum(static_cast<unsigned char>(text[end])) || text[end] == '-')) {
            ++end;
        }
        std::string name = text.substr(i + 2, end - i - 2);
        std::replace(name.begin(), name.end(), '-', '_');
        out += name == "lambda" ? "lam" : name;
        i = end;
    }
    return out;
}

std::vector<std::string> pythonWords(const std::vector<std::string>& texts)
{
    std::vector<std::string> out;
    for (const std::string& t : texts) {
        out.push_back(pythonWords(t));
    }
    return out;
}

std::string typeName(OptionType t)
{
    switch (t) {
    case OptionType::Integer:
        return "integer";
    case OptionType::Real:
        return "real";
    case OptionType::Choice:
        return "choice";
    case OptionType::RealOrChoice:
        return "real_or_choice";
    case OptionType::Seed:
        return "seed";
    }
    return "real";
}

/// Every registered estimator with its option table (the common options included): the
/// package generates its classes from this.
py::list estimatorTable()
{
    py::list out;
    for (const Estimator* e : EstimatorRegistry::instance().all()) {
        const FitSettings defaults = FitSettings::defaults(e->name());
        const Capabilities caps = e->capabilities();
        py::list options;
        for (const auto& [name, value] : defaults.values.all()) {
            const OptionSpec* spec = defaults.values.spec(name);
            py::dict o;
            o["name"] = name;
            o["type"] = typeName(spec->type);
            o["default"] = value;
            o["choices"] = spec->choices;
            o["help"] = spec->help;
            o["label"] = spec->label;
            o["group"] = spec->group;
            o["minimum"] = spec->minimum;
            o["maximum"] = spec->maximum;
            options.append(o);
        }
        py::dict d;
        d["name"] = e->name();
        d["title"] = e->title();
        d["kind"] = toString(caps.kind);
        d["needs_second_sample"] = caps.needsSecondSample;
        d["row_weights"] = caps.rowWeights;
        d["options"] = options;
        out.append(d);
    }
    return out;
}

std::shared_ptr<Model> fromJson(const std::string& bytes, const std::string& source)
{
    auto m = std::make_shared<Model>();
    m->saved = io::parseModel(bytes, source);
    m->fitted = io::toModel(m->saved, source);
    m->lengthScale = m->saved.kernel ? m->saved.kernel->lengthScale : 0.0;
    m->warnings = io::savedFitWarnings(m->saved);
    if (const auto t = io::savedOutlierThreshold(m->saved, *m->fitted)) {
        // In today's units (a file written before log values were per unit of the data's
        // columns: its threshold moved by the same constant as the model's log values).
        m->saved.provenance["outlier_threshold"]["offset"] = t->offset;
    }
    m->saved.logValuesInDataUnits = true;
    m->saved.parameters = ParameterMap(); // the fitted model holds them (fileOf)
    return m;
}

/// The model file's parts: the saved settings and provenance with the fitted model's
/// parameters, written again when needed rather than kept twice (a loaded 14 000-row model held
/// its training rows in both).
io::SavedModel fileOf(const Model& m)
{
    io::SavedModel file = m.saved;
    m.fitted->save(file.parameters);
    return file;
}

std::shared_ptr<Model> load(const std::string& path)
{
    // Read and size-checked as every other reader of the product does (a DataError naming the
    // file when it cannot be read).
    const std::vector<unsigned char> bytes = readFileBytes(path, uint64_t(1) << 31);
    return fromJson(std::string(bytes.begin(), bytes.end()), path);
}

py::bytes toJson(const Model& m)
{
    return py::bytes(io::modelJson(fileOf(m)));
}

void save(const Model& m, const std::string& path)
{
    io::OutputSet out;
    out.plan(path, "model");
    out.stage(path, io::modelJson(fileOf(m)));
    out.commit(); // a temporary file renamed into place: never half written
}

/// One value per row of X, in the model's coordinates, a block of rows at a time with the
/// GIL released: `of(scaled block)` gives the block's values.
py::array_t<double> rowValues(const Model& m, const py::array& x,
                              const std::function<Vector(const Matrix&)>& of)
{
    const ArrayRows rows(x, "X");
    if (rows.cols() != Eigen::Index(m.saved.columns.size())) {
        throw py::value_error("X: has " + std::to_string(rows.cols()) +
                              " columns, the model was fitted on " +
                              std::to_string(m.saved.columns.size()));
    }
    refuseNonFinite(rows, "X");
    py::array_t<double> out(rows.rows());
    double* values = out.mutable_data();
    // Each column's range of X, for the rows the scaling cannot tell apart.
    Vector lo = Vector::Constant(rows.cols(), std::numeric_limits<double>::infinity());
    Vector hi = -lo;
    {
        const ComputeSection compute;
        rows.forEachBlock(kScoreBlockRows, [&](Eigen::Index first, const MatrixRef& block) {
            const Vector v = of(m.saved.scaler.apply(block));
            std::copy(v.data(), v.data() + v.size(), values + first);
            lo = lo.cwiseMin(block.colwise().minCoeff().transpose());
            hi = hi.cwiseMax(block.colwise().maxCoeff().transpose());
        });
    }
    if (rows.rows() > 0) {
        const std::string w = unresolvedSpreadWarning(m.saved.scaler, lo, hi, m.saved.columns);
        if (!w.empty()) {
            const py::object category =
                py::module_::import("sosrep._estimators").attr("FitWarning");
            if (PyErr_WarnEx(category.ptr(), w.c_str(), 2) != 0) {
                throw py::error_already_set(); // warnings turned into errors
            }
        }
    }
    return out;
}

py::array_t<double> logValues(const Model& m, const py::array& x)
{
    return rowValues(m, x, [&m](const Matrix& y) { return m.fitted->logValues(y).values; });
}

/// The log values at the training rows the model was fitted on in this process (PyOD's
/// decision_scores_); a model read from a file keeps no rows.
/// A vector as a new NumPy array.
py::array_t<double> arrayOf(const Vector& v)
{
    py::array_t<double> out(v.size());
    std::copy(v.data(), v.data() + v.size(), out.mutable_data());
    return out;
}

/// Whether the outlier threshold's held-out values and the training rows' cross-fitted ones are
/// one computation (one model, rows in their input order: same folds, same seed), so that
/// whichever comes first serves the other.
bool thresholdIsTheCrossFit(const Model& m)
{
    return m.outcome.heldOutLogValues.size() == 0 && m.outcome.fitRows.empty() &&
           !weightedRowsInOrder(m.data).has_value();
}

py::array_t<double> trainingLogValues(const Model& m)
{
    if (m.data.train.rows() == 0) {
        throw py::attribute_error("a model read from a file keeps no training rows: score the "
                                  "rows you fitted on with anomaly_score");
    }
    Vector v;
    {
        const ComputeSection compute;
        v = m.fitted->logValues(m.data.train).values;
    }
    return arrayOf(v);
}

/// n rows drawn from the model's density (sampleModel), in the data's own units.
py::tuple sampleRows(const Model& m, long long n, unsigned long long seed)
{
    ModelSample s;
    {
        const ComputeSection compute;
        s = sampleModel(*m.fitted, Eigen::Index(n), seed);
    }
    const Scaler& scaler = m.saved.scaler;
    py::array_t<double> out({py::ssize_t(s.rows.rows()), py::ssize_t(s.rows.cols())});
    auto o = out.mutable_unchecked<2>();
    for (Eigen::Index r = 0; r < s.rows.rows(); ++r) {
        for (Eigen::Index j = 0; j < s.rows.cols(); ++j) {
            o(r, j) = scaler.toData(j, s.rows(r, j));
        }
    }
    return py::make_tuple(out, s.method, s.proposals);
}

/// The ratio q/p at the rows of X (a ratio model; the scaling cancels in a ratio).
py::array_t<double> ratioAt(const Model& m, const py::array& x)
{
    const auto* ratio = dynamic_cast<const RatioModel*>(m.fitted.get());
    if (!ratio) {
        throw py::type_error(m.fitted->estimator() + " is not a density-ratio model");
    }
    return rowValues(m, x, [ratio](const Matrix& y) { return ratio->ratio(y); });
}

/// An expression of x1..xd at the rows of X, as `sosrep ratio --q-function` evaluates it.
py::array_t<double> evaluateExpression(const std::string& text, const py::array& x)
{
    const ArrayRows rows(x, "X");
    const Vector v = Expression::parse(text, int(rows.cols()), "q_function").evaluate(rows.all());
    py::array_t<double> out(py::ssize_t(v.size()));
    std::copy(v.data(), v.data() + v.size(), out.mutable_data());
    return out;
}

py::dict settingsOf(const Model& m)
{
    py::dict d;
    for (const auto& [k, v] : m.saved.settings.values.all()) {
        d[py::str(k)] = v;
    }
    return d;
}

py::dict summaryOf(const Model& m)
{
    py::dict d;
    const auto put = [&d](const SummaryFields& fields) {
        for (const auto& [k, v] : fields) {
            std::visit([&](const auto& x) { d[py::str(k)] = x; }, v);
        }
    };
    put(m.fitted->summary());
    put(m.fitted->report().fields);
    if (d.contains("ensemble_length_scales")) {
        // The summary's text form ("0.2 0.21") as the numbers they are.
        py::list scales;
        std::istringstream in(py::cast<std::string>(d["ensemble_length_scales"]));
        for (double l = 0.0; in >> l;) {
            scales.append(l);
        }
        d["ensemble_length_scales"] = scales;
    }
    // What the command line's summary says beside them: the fit's status and how l was chosen.
    d["status"] =
        m.fitted->report().refused ? std::string("refused") : toString(m.fitted->report().status);
    d["scaling"] = toString(m.saved.scaler.kind); // what scale=auto came to, as the CLI's summary
    if (!m.outcome.fitRows.empty()) { // max_fit_rows took a subsample: as the CLI's summary
        d["n_train"] = m.data.train.rows();
        d["n_fitted"] = m.outcome.fitRows.size();
    }
    for (const char* key : {"purpose", "selection_rule", "selection_reason", "seed"}) {
        const io::Json& v = io::member(m.saved.provenance, key);
        if (v.is_string()) {
            d[key] = v.get<std::string>();
        }
    }
    return d;
}

py::list fdCurveOf(const Model& m)
{
    py::list out;
    // Held-out log-likelihood is computed by the likelihood rule only: NaN elsewhere, not 0.
    const io::Json& rule = io::member(m.saved.provenance, "selection_rule");
    const bool likelihood = rule.is_string() && rule.get<std::string>() == "likelihood";
    for (const FdPoint& p : m.fdCurve) {
        out.append(py::make_tuple(
            p.lengthScale, p.value, p.invalidPoints, p.iterations, p.kernelProducts,
            likelihood ? p.heldOutLogLikelihood : std::numeric_limits<double>::quiet_NaN(),
            toString(p.status)));
    }
    return out;
}

/// The outlier threshold of scikit-learn's API (the training rows' `contamination` quantile of
/// score_samples), kept in the model file's provenance so a saved detector predicts as it did.
/// None when the file has none (the command line and the app score without one).
py::object savedThresholdOf(const Model& m)
{
    const io::Json t = io::objectOf(m.saved.provenance, "outlier_threshold");
    const io::Json& c = io::member(t, "contamination");
    const io::Json& o = io::member(t, "offset");
    if (!c.is_number() || !o.is_number()) {
        return py::none();
    }
    return py::make_tuple(c.get<double>(), o.get<double>());
}

/// scikit-learn's random_state when it was an int, kept in the model file's provenance with
/// the seed option it stood in for, so sosrep.load gives back get_params() as fitted and clone()
/// of a loaded model refits alike (issue 53, item 5): (random_state, seed text) or None.
py::object randomStateOf(const Model& m)
{
    const io::Json& r = io::member(m.saved.provenance, "random_state");
    const io::Json& s = io::member(m.saved.provenance, "seed_asked");
    if (!r.is_number_unsigned() || !s.is_string()) {
        return py::none();
    }
    return py::make_tuple(r.get<uint64_t>(), s.get<std::string>());
}

void recordRandomState(Model& m, uint64_t randomState, const std::string& seedAsked)
{
    m.saved.provenance["random_state"] = randomState;
    m.saved.provenance["seed_asked"] = seedAsked;
}

/// The outlier threshold for `contamination` from log values of rows the models giving them
/// did not fit (outlier_threshold.h), computed once per fit and kept: (offset, held-out rows,
/// method). Also saved as the model's outlier_threshold. A model read from a file has no rows
/// to cross-fit on: ValueError.
py::tuple heldOutThreshold(Model& m, double contamination)
{
    checkContamination(contamination);
    if (!m.heldOut) {
        if (m.data.train.rows() == 0) {
            // Read from a file (or unpickled): its saved threshold, for the same contamination.
            const auto saved = io::savedOutlierThreshold(m.saved, *m.fitted);
            if (saved && saved->contamination == contamination) {
                return py::make_tuple(saved->offset, saved->heldOutRows, saved->method);
            }
            throw py::value_error("contamination: this model was read from a file, which keeps "
                                  "no training rows to cross-fit a threshold on" +
                                  std::string(saved ? " (its saved threshold is for another "
                                                      "contamination)"
                                                    : ""));
        }
        PythonObserver watch;
        watch.progress = py::none(); // Ctrl+C still cancels
        const FitObserver observer = watch.observer();
        Vector values;
        if (m.crossFitted && thresholdIsTheCrossFit(m)) {
            values = *m.crossFitted; // the training rows' cross-fit is this one
            m.heldOutMethod = m.crossFittedMethod;
            m.heldOutWeights = m.data.weights;
        } else {
            const ComputeSection compute;
            values = heldOutLogValues(m.data, m.settings, m.outcome, kThresholdFolds, observer,
                                      &m.heldOutMethod, &m.heldOutWeights);
        }
        if (PyErr_Occurred() || values.size() == 0) {
            throw py::error_already_set(); // KeyboardInterrupt
        }
        m.heldOut = std::move(values);
    }
    const OutlierThreshold t =
        outlierThreshold(*m.heldOut, contamination, m.heldOutMethod, m.heldOutWeights);
    m.saved.provenance["outlier_threshold"] = io::outlierThresholdJson(t);
    return py::make_tuple(t.offset, t.heldOutRows, t.method);
}

/// Every training row's log value from a model that did not fit it (crossFittedLogValues), in
/// the order of the rows fitted on: decision_scores_ as PyOD defines them, each row scored by a
/// model that has not seen it.
py::array_t<double> crossFittedValues(Model& m)
{
    if (m.data.train.rows() == 0) {
        throw py::attribute_error("a model read from a file keeps no training rows to cross-fit: "
                                  "score the rows you fitted on with anomaly_score");
    }
    if (!m.crossFitted) {
        PythonObserver watch;
        watch.progress = py::none(); // Ctrl+C still cancels
        const FitObserver observer = watch.observer();
        Vector values;
        if (m.heldOut && thresholdIsTheCrossFit(m)) {
            values = *m.heldOut; // the threshold's cross-fit is this one (same folds and seed)
            m.crossFittedMethod = m.heldOutMethod;
        } else {
            const ComputeSection compute;
            values = crossFittedLogValues(m.data, m.settings, m.outcome, kThresholdFolds, observer,
                                          &m.crossFittedMethod);
        }
        if (PyErr_Occurred() || values.size() == 0) {
            throw py::error_already_set(); // KeyboardInterrupt
        }
        m.crossFitted = std::move(values);
    }
    return arrayOf(*m.crossFitted);
}

void setOutlierThreshold(Model& m, const py::object& value)
{
    if (value.is_none()) {
        m.saved.provenance.erase("outlier_threshold");
        return;
    }
    const auto [contamination, offset] = value.cast<std::pair<double, double>>();
    if (!(contamination >= 0.0 && contamination <= 1.0) || !std::isfinite(offset)) {
        throw ParameterError("contamination", "the outlier threshold needs a contamination in "
                                              "[0, 1] and a finite offset, got " +
                                                  formatReal(contamination) + " and " +
                                                  formatReal(offset));
    }
    m.saved.provenance["outlier_threshold"] = {{"contamination", contamination},
                                               {"offset", offset}};
}

} // namespace
} // namespace sosrep::python

PYBIND11_MODULE(_sosrep, m)
{
    using namespace sosrep;
    using namespace sosrep::python;
    m.doc() = "SOSREP Studio's core: estimators, fits, scores and model files";
    m.attr("__version__") = SOSREP_VERSION; // `sosrep --version`'s
    py::register_exception_translator([](std::exception_ptr p) {
        try {
            if (p) {
                std::rethrow_exception(p);
            }
        } catch (const ParameterError& e) {
            PyErr_SetString(PyExc_ValueError, pythonWords(e.what()).c_str());
        } catch (const DataError& e) {
            PyErr_SetString(PyExc_ValueError, e.what());
        } catch (const NumericalError& e) {
            PyErr_SetString(PyExc_FloatingPointError, pythonWords(e.what()).c_str());
        } catch (const io::OutputError& e) {
            // A file that cannot be written is the operating system's error, as open() gives
            // (it was RuntimeError; issue 52).
            PyErr_SetString(PyExc_OSError, e.what());
        } catch (const std::bad_alloc&) {
            // pybind11's own translation says only "std::bad_alloc" (issue 52).
            PyErr_SetString(PyExc_MemoryError,
                            "out of memory: the arrays this call needs do not fit (fewer rows, "
                            "fewer samples, or the low-rank back-end)");
        }
    });
    m.def(
        "set_threads",
        [](int threads, bool dynamic) {
            const ThreadSettings old = currentThreadSettings();
            applyThreadSettings({threads, dynamic});
            return py::make_tuple(old.threads, old.dynamic);
        },
        py::arg("threads"), py::arg("dynamic"),
        "Sets the calling thread's OpenMP threads (and dynamic adjustment); returns the old");
    m.def("available_cores", &availableCores);
    m.def("estimators", &estimatorTable, "Every registered estimator and its options");
    m.def("fit", &fit, py::arg("estimator"), py::arg("X"), py::arg("options"),
          py::arg("second") = py::none(), py::arg("progress") = py::none(),
          py::arg("q_values") = py::none(), py::arg("columns") = py::none(),
          py::arg("sample_weight") = py::none(), py::arg("q_density") = std::string(),
          "Fits an estimator through the core's fit route (the command line's)");
    m.def("evaluate_expression", &evaluateExpression, py::arg("expression"), py::arg("X"),
          "q of `sosrep ratio --q-function` at the rows of X");
    m.def("load", &load, py::arg("path"), "Reads a model file of the command line or the app");
    m.def("from_json", &fromJson, py::arg("data"), py::arg("source") = "<bytes>");
    addMeasureFunctions(m);
    py::class_<Model, std::shared_ptr<Model>>(m, "Model")
        .def_property_readonly("estimator", [](const Model& x) { return x.fitted->estimator(); })
        .def_property_readonly("kind", [](const Model& x) { return toString(x.fitted->kind()); })
        .def_property_readonly("n_features", [](const Model& x) { return x.saved.columns.size(); })
        .def_property_readonly("columns", [](const Model& x) { return x.saved.columns; })
        .def_property_readonly("length_scale", [](const Model& x) { return x.lengthScale; })
        .def_property_readonly("settings", &settingsOf)
        .def_property_readonly(
            "purpose_asked",
            [](const Model& x) {
                const io::Json& v = io::member(x.saved.provenance, "purpose_asked");
                return v.is_string() ? v.get<std::string>() : std::string();
            },
            "the purpose the fit was asked for when it differs from the model's ('auto'), or ''")
        .def_property_readonly("summary", &summaryOf)
        .def_property_readonly("fd_curve", &fdCurveOf)
        .def_property_readonly("warnings", [](const Model& x) { return pythonWords(x.warnings); })
        .def_property_readonly(
            "anomaly", [](const Model& x) { return x.anomaly; },
            "the anomaly purpose's model (purpose=auto), or None")
        .def_property_readonly(
            "anomaly_note", [](const Model& x) { return x.anomalyNote; },
            "which model anomaly scores come from and why ('' without a purpose)")
        .def_property("outlier_threshold", &savedThresholdOf, &setOutlierThreshold)
        .def_property_readonly("random_state", &randomStateOf)
        .def("record_random_state", &recordRandomState, py::arg("random_state"),
             py::arg("seed_asked"))
        .def("held_out_threshold", &heldOutThreshold, py::arg("contamination"))
        .def("log_values", &logValues, py::arg("X"))
        .def_property_readonly(
            "fit_rows",
            [](const Model& x) -> py::object {
                if (x.outcome.fitRows.empty()) {
                    return py::none();
                }
                py::array_t<long long> out(py::ssize_t(x.outcome.fitRows.size()));
                std::copy(x.outcome.fitRows.begin(), x.outcome.fitRows.end(), out.mutable_data());
                return std::move(out);
            },
            "the training rows fitted (ascending) when max_fit_rows took a subsample, else None")
        .def("training_log_values", &trainingLogValues)
        .def("cross_fitted_log_values", &crossFittedValues)
        .def("sample", &sampleRows, py::arg("n"), py::arg("seed"))
        .def("ratio", &ratioAt, py::arg("X"))
        .def("to_json", &toJson)
        .def("save", &save, py::arg("path"))
        .def(py::pickle([](const Model& x) { return toJson(x); },
                        [](const py::bytes& b) { return fromJson(std::string(b), "<pickle>"); }));
}
