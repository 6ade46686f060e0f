// SPDX-License-Identifier: MIT
// Python bindings of the measures: importance-weight summaries and MMDs, as `sosrep ratio` and
// `sosrep mmd` give them.
#include "app/python/compute_section.h"
#include "app/python/python_model.h"
#include "core/data/preparation.h"
#include "core/errors.h"
#include "core/estimators/option.h"
#include "core/metrics/mmd.h"
#include "core/pipeline/outlier_threshold.h"
#include "core/ratio/importance_weights.h"
#include "core/util/text.h"

#include <pybind11/eigen.h>

namespace py = pybind11;

namespace sosrep::python {
namespace {

/// What `sosrep ratio` prints about importance weights: mean, ESS, negative share, chi^2.
py::dict weightSummary(const py::array_t<double, py::array::c_style | py::array::forcecast>& w)
{
    const WeightSummary s =
        summarizeWeights(Eigen::Map<const Vector>(w.data(), Eigen::Index(w.size())));
    py::dict d;
    d["mean"] = s.mean;
    d["ess"] = s.ess;
    d["ess_fraction"] = s.essFraction;
    d["negative_share"] = s.negativeShare;
    d["chi2"] = s.chi2;
    d["minimum"] = s.minimum;
    d["maximum"] = s.maximum;
    d["non_finite"] = s.nonFinite;
    py::list warnings;
    for (const std::string& text : weightWarnings(s, Eigen::Index(w.size()))) {
        warnings.append(text);
    }
    d["warnings"] = warnings;
    return d;
}

/// `sosrep mmd --data X --data2 Y`: both samples in X's min-max coordinates, the V- and
/// U-statistics at the bandwidth given or the median distance of X's scaled rows.
/// The MMD options `sosrep mmd` accepts: a bandwidth of 0 (the median pairwise distance) or in
/// [1e-100, 1e100], and Monte Carlo samples in [100, 200000] (inf or 1e-300 gave NaN, and 0
/// samples silently became 100).
void checkMmdOptions(double bandwidth, int samples)
{
    if (!(bandwidth == 0.0 || (bandwidth >= 1e-100 && bandwidth <= 1e100))) {
        throw ParameterError("bandwidth", "is " + formatReal(bandwidth) +
                                              ": give None (the median pairwise distance) or a "
                                              "number in [1e-100, 1e100]");
    }
    if (samples < 100 || samples > 200000) {
        throw ParameterError("mc_samples", "is " + std::to_string(samples) +
                                               ": give a number in [100, 200000] (each Monte "
                                               "Carlo self term costs samples^2 kernel values)");
    }
}

py::dict mmdSamples(const py::array& x, const py::array& y, double bandwidth, uint64_t seed)
{
    checkMmdOptions(bandwidth, 100);
    const ArrayRows a(x, "X");
    const ArrayRows b(y, "Y");
    if (b.cols() != a.cols()) {
        throw py::value_error("Y: has " + std::to_string(b.cols()) + " columns, X has " +
                              std::to_string(a.cols()));
    }
    const Dataset first = datasetOf(a, "X");
    Dataset second = datasetOf(b, "Y");
    second.columns = first.columns;
    py::dict d;
    {
        const ComputeSection compute;
        const PreparedTraining prepared = prepareTraining(first, ScalingKind::MinMax);
        const Matrix scaled = applyToOther(prepared.scaler, second);
        const double h = bandwidth > 0.0 ? bandwidth : medianPairwiseDistance(prepared.x, seed);
        const SampleMmd s = sampleMmd(prepared.x, scaled, h);
        py::gil_scoped_acquire gil;
        d["mmd2_v"] = s.vStatistic;
        d["mmd2_u"] = s.uStatistic;
        d["bandwidth"] = h;
    }
    return d;
}

/// `sosrep mmd --data X --model M`: X in the model's coordinates against the model (closed
/// form, grid quadrature or Monte Carlo, as the model allows).
py::dict mmdModel(const py::array& x, const Model& m, double bandwidth, uint64_t seed, int samples)
{
    checkMmdOptions(bandwidth, samples);
    const ArrayRows a(x, "X");
    Dataset data = datasetOf(a, "X");
    if (data.dim() != Eigen::Index(m.saved.columns.size())) {
        throw py::value_error("X: has " + std::to_string(data.dim()) +
                              " columns, the model was fitted on " +
                              std::to_string(m.saved.columns.size()));
    }
    data.columns = m.saved.columns;
    py::dict d;
    {
        const ComputeSection compute;
        const Matrix scaled = applyToOther(m.saved.scaler, data);
        MmdOptions options;
        options.seed = seed;
        options.samples = samples;
        options.bandwidth = bandwidth > 0.0 ? bandwidth : medianPairwiseDistance(scaled, seed);
        const MmdResult r =
            mmd(MmdMeasure::ofSample(scaled), MmdMeasure::ofModel(*m.fitted), scaled, options);
        py::gil_scoped_acquire gil;
        d["mmd2"] = r.mmd2;
        d["bandwidth"] = r.bandwidth;
        d["method"] = toString(r.method);
        d["detail"] = r.detail;
    }
    return d;
}

} // namespace

void addMeasureFunctions(py::module_& m)
{
    m.def("weight_summary", &weightSummary, py::arg("weights"));
    m.def(
        "outlier_quantile",
        [](const Vector& values, double contamination, const Vector& weights) {
            return outlierThreshold(values, contamination, "", weights).offset;
        },
        py::arg("values"), py::arg("contamination"), py::arg("weights") = Vector(),
        "The contamination quantile of values, weighted as the core's outlier threshold");
    m.def("mmd_samples", &mmdSamples, py::arg("X"), py::arg("Y"), py::arg("bandwidth") = 0.0,
          py::arg("seed") = 0);
    m.def("mmd_model", &mmdModel, py::arg("X"), py::arg("model"), py::arg("bandwidth") = 0.0,
          py::arg("seed") = 0, py::arg("samples") = 4000);
}

} // namespace sosrep::python
