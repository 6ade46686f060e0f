// SPDX-License-Identifier: MIT
// Outlier thresholds from held-out rows, and contamination parsing.
#include "core/pipeline/outlier_threshold.h"

#include "core/data/split.h"
#include "core/errors.h"
#include "core/estimators/common_options.h"
#include "core/estimators/registry.h"
#include "core/util/text.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace sosrep {

double parseContamination(const std::string& text)
{
    if (text == "auto") {
        return kAutoContamination;
    }
    double c = 0.0;
    size_t used = 0;
    try {
        c = std::stod(text, &used);
    } catch (const std::exception&) {
        used = 0;
    }
    if (used == 0 || used != text.size()) {
        throw ParameterError("contamination",
                             "must be 'auto' or a number in (0, 0.5], not '" + text + "'");
    }
    checkContamination(c);
    return c;
}

void checkContamination(double c)
{
    if (!(c > 0.0 && c <= 0.5)) {
        throw ParameterError("contamination",
                             "must be in (0, 0.5] (the share of rows to flag), not " +
                                 numberText(c));
    }
}

Vector heldOutLogValues(const FitData& data, const FitSettings& settings, const FitOutcome& fit,
                        int folds, const FitObserver& observer, std::string* method,
                        Vector* weights)
{
    if (weights) {
        *weights = Vector();
    }
    if (fit.heldOutLogValues.size() > 0) {
        *method = "validation rows"; // counted unweighted, as the ensemble's ranks count them
        return fit.heldOutLogValues;
    }
    if (const std::optional<FitData> rows = weightedRowsInOrder(data)) {
        // As the fit saw them: rows of positive weight, in order of value.
        return heldOutLogValues(*rows, settings, fit, folds, observer, method, weights);
    }
    // Copies of a row go to the same fold, as in the sweep (fit_route.cpp): a held-out row
    // whose copy was fitted sits on its own kernel bump, the very bias held-out values avoid.
    const std::vector<std::vector<Eigen::Index>> groups = identicalRowGroups(data.train);
    const auto n = Eigen::Index(groups.size());
    const int k = static_cast<int>(std::min<Eigen::Index>(folds, n));
    if (k < 2) {
        throw DataError(data.source, 0, 0,
                        "an outlier threshold needs at least 2 distinct rows to cross-fit on");
    }
    // The estimator at the fitted length scale, straight: no sweep per fold (the threshold is
    // for this model), and none of the fit route's diagnostics, which the fit has given.
    const Estimator& estimator = EstimatorRegistry::instance().get(settings.estimator);
    KernelSpec kernel;
    if (estimator.capabilities().usesKernel) {
        kernel = kernelSpecFrom(settings.values);
        kernel.lengthScale = fit.lengthScale;
    }
    FitControl control;
    control.progress = [&observer](int, int) {
        return !(observer.cancelled && observer.cancelled());
    };
    std::vector<SplitIndices> splits;
    for (const SplitIndices& g : kFoldSplits(n, k, settings.values.seed("seed"))) {
        splits.push_back(rowsOfGroups(g, groups));
    }
    Vector out(data.train.rows());
    for (int f = 0; f < k; ++f) {
        if (observer.progress) {
            observer.progress("cross-fit for the outlier threshold", f, k);
        }
        const SplitIndices& s = splits[size_t(f)];
        const Matrix train = rowsOf(data.train, s.train);
        FitInput input{train, data.second, kernel, settings.values, data.secondValues};
        const Vector trainWeights = entriesOf(data.weights, s.train);
        if (trainWeights.size() > 0) {
            if (!(trainWeights.sum() > 0.0)) {
                throw DataError(data.source, 0, 0,
                                "an outlier threshold cross-fit found a fold whose rows all "
                                "have weight 0: give more rows positive weights");
            }
            input.weights = &trainWeights;
        }
        std::unique_ptr<FittedModel> model = estimator.fit(input, control);
        if (model->report().status == SolverStatus::Cancelled) {
            return {};
        }
        checkUsable(*model);
        model->setDataUnits(data.scaler);
        const Vector v = model->logValues(rowsOf(data.train, s.test)).values;
        for (size_t i = 0; i < s.test.size(); ++i) {
            out(s.test[i]) = v(Eigen::Index(i));
        }
    }
    if (observer.progress) {
        observer.progress("cross-fit for the outlier threshold", k, k);
    }
    *method = std::to_string(k) + "-fold cross-fit";
    if (weights) {
        *weights = data.weights;
    }
    return out;
}

namespace {

/// The weighted quantile of outlierThreshold (header), over the rows of positive weight.
double weightedQuantile(const Vector& values, const Vector& weights, double c)
{
    if (weights.size() != values.size()) {
        throw std::invalid_argument("outlierThreshold: one weight per held-out value");
    }
    std::vector<std::pair<double, double>> v;
    for (Eigen::Index i = 0; i < values.size(); ++i) {
        if (weights(i) > 0.0) {
            v.emplace_back(values(i), weights(i));
        }
    }
    if (v.empty()) {
        throw std::invalid_argument("outlierThreshold: no held-out value of positive weight");
    }
    std::sort(v.begin(), v.end());
    double total = 0.0;
    for (const auto& p : v) {
        total += p.second;
    }
    const double span = total - v.back().second;
    if (v.size() == 1 || !(span > 0.0)) {
        return v.front().first;
    }
    double before = 0.0; // C_k - w_k
    for (size_t k = 0; k + 1 < v.size(); ++k) {
        const double at = before / span;
        const double next = (before + v[k].second) / span;
        if (c <= next) {
            const double t = next > at ? (c - at) / (next - at) : 0.0;
            return v[k].first + t * (v[k + 1].first - v[k].first);
        }
        before += v[k].second;
    }
    return v.back().first;
}

} // namespace

OutlierThreshold outlierThreshold(const Vector& heldOut, double contamination,
                                  const std::string& method, const Vector& weights)
{
    checkContamination(contamination);
    const bool equal = weights.size() == 0 || weights.maxCoeff() == weights.minCoeff();
    if (!equal) {
        OutlierThreshold t;
        t.contamination = contamination;
        t.offset = weightedQuantile(heldOut, weights, contamination);
        t.heldOutRows = static_cast<int>((weights.array() > 0.0).count());
        t.method = method;
        return t;
    }
    std::vector<double> v(heldOut.data(), heldOut.data() + heldOut.size());
    if (v.empty()) {
        throw std::invalid_argument("outlierThreshold: no held-out values");
    }
    std::sort(v.begin(), v.end());
    const double h = contamination * double(v.size() - 1);
    const size_t lo = static_cast<size_t>(std::floor(h));
    const size_t hi = std::min(lo + 1, v.size() - 1);
    OutlierThreshold t;
    t.contamination = contamination;
    t.offset = v[lo] + (h - double(lo)) * (v[hi] - v[lo]);
    t.heldOutRows = static_cast<int>(v.size());
    t.method = method;
    return t;
}

} // namespace sosrep
