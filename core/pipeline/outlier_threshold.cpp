// SPDX-License-Identifier: MIT
// Outlier thresholds from held-out rows, and contamination parsing.
#include "core/pipeline/outlier_threshold.h"

#include "core/data/split.h"
#include "core/errors.h"
#include "core/estimators/common_options.h"
#include "core/estimators/registry.h"
#include "core/tuning/rank_ensemble.h"
#include "core/util/text.h"

#include <algorithm>
#include <cmath>
#include <numeric>
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

namespace {

/// A fold's models, fitted on `train` alone: the estimator at the fitted length scale, or for
/// the multi-scale anomaly rule one per member at the member's length scale (null where that
/// scale could not be fitted: the fit's other scales then rank, as in fit_route.cpp). Empty
/// when cancelled.
std::vector<std::unique_ptr<FittedModel>> refitOn(const Matrix& train, const Vector& trainWeights,
                                                  const FitData& data, const FitSettings& settings,
                                                  const FitOutcome& fit, const FitControl& control)
{
    const Estimator& estimator = EstimatorRegistry::instance().get(settings.estimator);
    KernelSpec kernel;
    if (estimator.capabilities().usesKernel) {
        kernel = kernelSpecFrom(settings.values);
        kernel.lengthScale = fit.lengthScale;
    }
    if (trainWeights.size() > 0 && !(trainWeights.sum() > 0.0)) {
        throw DataError(data.source, 0, 0,
                        "a cross-fit found a fold whose rows all have weight 0: give more rows "
                        "positive weights");
    }
    std::vector<double> scales{kernel.lengthScale};
    if (const auto* ensemble = dynamic_cast<const RankEnsembleModel*>(fit.model.get())) {
        scales.clear();
        for (const RankEnsembleModel::Member& m : ensemble->members()) {
            scales.push_back(m.lengthScale);
        }
    }
    std::vector<std::unique_ptr<FittedModel>> models;
    for (double scale : scales) {
        KernelSpec k = kernel;
        k.lengthScale = scale;
        FitInput input{train, data.second, k, settings.values, data.secondValues};
        input.weights = trainWeights.size() > 0 ? &trainWeights : nullptr;
        std::unique_ptr<FittedModel> model = estimator.fit(input, control);
        if (model->report().status == SolverStatus::Cancelled) {
            return {};
        }
        if (model->report().refused && scales.size() > 1) {
            models.push_back(nullptr);
            continue;
        }
        checkUsable(*model);
        model->setDataUnits(data.scaler);
        models.push_back(std::move(model));
    }
    return models;
}

/// The multi-scale rule's value at every row from its members' held-out values: each member's
/// mid-rank among all rows' held-out values (pooled over the folds, every one from a model that
/// did not fit its row: the ensemble's own reference rows, as many as there are rows), combined
/// as the ensemble combines them. Ranks within one fold would fall on a grid of 1/(rows/folds)
/// and tie across folds. Pooled, combined ranks still tie where members' ranks coincide (rows
/// ranked (a, b) and (b, a) share the larger anomaly rank and the mean): such rows are ordered
/// by the other combination, then by the members' ranks in turn, and spread in that order over
/// half a step of the grid the combined ranks lie on, so no other pair moves. Only rows whose
/// every rank is equal (copies of a row) keep one value, and a quantile flags its share of the
/// rows to within one (PyOD's labels_).
Vector pooledRanks(const std::vector<Vector>& members, Combination combination)
{
    const Eigen::Index n = members.front().size();
    const auto count = Eigen::Index(members.size());
    const bool max = combination == Combination::MaxRank;
    Matrix key(n, count + 2); // the value, the other combination, then each member's rank
    key.col(0).setConstant(max ? 1.0 : 0.0);
    key.col(1).setConstant(max ? 0.0 : 1.0);
    for (Eigen::Index m = 0; m < count; ++m) {
        key.col(m + 2) = midRanks(members[size_t(m)]);
        const auto r = key.col(m + 2);
        key.col(0) = max ? Vector(key.col(0).cwiseMin(r)) : Vector(key.col(0) + r);
        key.col(1) = max ? Vector(key.col(1) + r) : Vector(key.col(1).cwiseMin(r));
    }
    if (!max) {
        key.col(0) /= double(count);
    }
    // Distinct values differ by a grid step or more: 1/n for the smallest rank, 1/(n members)
    // for the mean.
    const double step = (max ? 1.0 : 1.0 / double(count)) / double(n);
    std::vector<Eigen::Index> order(static_cast<size_t>(n));
    std::iota(order.begin(), order.end(), Eigen::Index(0));
    const auto before = [&key](Eigen::Index a, Eigen::Index b) {
        for (Eigen::Index c = 0; c < key.cols(); ++c) {
            if (key(a, c) != key(b, c)) {
                return key(a, c) < key(b, c);
            }
        }
        return false;
    };
    std::stable_sort(order.begin(), order.end(), before);
    Vector out = key.col(0);
    for (size_t i = 0; i < order.size();) {
        size_t j = i; // rows [i, j] share the value
        while (j + 1 < order.size() && key(order[j + 1], 0) == key(order[i], 0)) {
            ++j;
        }
        size_t distinct = 0;
        std::vector<size_t> position(j - i + 1, 0);
        for (size_t k = i + 1; k <= j; ++k) {
            distinct += before(order[k - 1], order[k]) ? 1 : 0;
            position[k - i] = distinct;
        }
        for (size_t k = i; k <= j && distinct > 0; ++k) {
            out(order[k]) += 0.5 * step * double(position[k - i]) / double(distinct + 1);
        }
        i = j + 1;
    }
    return out;
}

/// Every row's value from a `folds`-fold cross-fit (copies of a row in one fold), rows as
/// given. Empty when cancelled.
Vector crossFit(const FitData& data, const FitSettings& settings, const FitOutcome& fit, int folds,
                const FitObserver& observer, const std::string& stage, std::string* method)
{
    // Copies of a row go to the same fold, as in the sweep (fit_route.cpp): a held-out row
    // whose copy was fitted sits on its own kernel bump, the very bias held-out values avoid.
    const std::vector<std::vector<Eigen::Index>> groups = identicalRowGroups(data.train);
    const auto n = Eigen::Index(groups.size());
    const int k = static_cast<int>(std::min<Eigen::Index>(folds, n));
    if (k < 2) {
        throw DataError(data.source, 0, 0,
                        "an outlier threshold needs at least 2 distinct rows to cross-fit on");
    }
    // The fit's model at its length scale(s), straight: no sweep per fold (the values are this
    // model's), and none of the fit route's diagnostics, which the fit has given.
    FitControl control;
    control.progress = [&observer](int, int) {
        return !(observer.cancelled && observer.cancelled());
    };
    std::vector<SplitIndices> splits;
    for (const SplitIndices& g : kFoldSplits(n, k, settings.values.seed("seed"))) {
        splits.push_back(rowsOfGroups(g, groups));
    }
    std::vector<Vector> values; // per model of a fold (one, or the ensemble's members)
    std::vector<bool> fitted;   // the member could be fitted on every fold
    for (int f = 0; f < k; ++f) {
        if (observer.progress) {
            observer.progress(stage, f, k);
        }
        const SplitIndices& s = splits[size_t(f)];
        // A fold fits what the fit would on those rows: at most max_fit_rows of them.
        const std::vector<Eigen::Index> capped =
            fitSubsample(Eigen::Index(s.train.size()), settings.values.integer("max_fit_rows"),
                         settings.values.seed("seed") + 3 + uint64_t(f));
        const std::vector<Eigen::Index> trainRows =
            capped.empty() ? s.train : entriesOf(s.train, capped);
        const std::vector<std::unique_ptr<FittedModel>> models =
            refitOn(rowsOf(data.train, trainRows), entriesOf(data.weights, trainRows), data,
                    settings, fit, control);
        if (models.empty()) {
            return {};
        }
        values.resize(models.size(), Vector(data.train.rows()));
        fitted.resize(models.size(), true);
        const Matrix test = rowsOf(data.train, s.test);
        for (size_t m = 0; m < models.size(); ++m) {
            if (!models[m]) {
                fitted[m] = false;
                continue;
            }
            const Vector v = models[m]->logValues(test).values;
            for (size_t i = 0; i < s.test.size(); ++i) {
                values[m](s.test[i]) = v(Eigen::Index(i));
            }
        }
    }
    if (observer.progress) {
        observer.progress(stage, k, k);
    }
    *method = std::to_string(k) + "-fold cross-fit";
    const auto* ensemble = dynamic_cast<const RankEnsembleModel*>(fit.model.get());
    if (!ensemble) {
        return values.front();
    }
    std::vector<Vector> members;
    for (size_t m = 0; m < values.size(); ++m) {
        if (fitted[m]) {
            members.push_back(std::move(values[m]));
        }
    }
    if (members.empty()) {
        throw ParameterError("length_scale", "no length scale of the anomaly rule could be "
                                             "fitted on every fold of the cross-fit");
    }
    return pooledRanks(members, ensemble->combination());
}

/// A subsampled fit's held-out values: its own model's at rows outside the subsample (as many
/// as it fitted at most, seeded), which no fit saw: no cross-fit needed.
Vector unfittedRowValues(const FitData& data, const FitSettings& settings, const FitOutcome& fit,
                         std::string* method, Vector* weights)
{
    std::vector<Eigen::Index> unfitted;
    unfitted.reserve(size_t(data.train.rows()) - fit.fitRows.size());
    size_t next = 0; // fit.fitRows is ascending
    for (Eigen::Index i = 0; i < data.train.rows(); ++i) {
        if (next < fit.fitRows.size() && fit.fitRows[next] == i) {
            ++next;
        } else {
            unfitted.push_back(i);
        }
    }
    const std::vector<Eigen::Index> rows = entriesOf(
        unfitted, subsampleRows(Eigen::Index(unfitted.size()), Eigen::Index(fit.fitRows.size()),
                                settings.values.seed("seed") + 2));
    *method = "rows outside the fitted subsample";
    if (weights) {
        *weights = entriesOf(data.weights, rows);
    }
    return fit.model->logValues(rowsOf(data.train, rows)).values;
}

} // namespace

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
    if (!fit.fitRows.empty()) {
        return unfittedRowValues(data, settings, fit, method, weights);
    }
    if (const std::optional<FitData> rows = weightedRowsInOrder(data)) {
        // As the fit saw them: rows of positive weight, in order of value.
        return heldOutLogValues(*rows, settings, fit, folds, observer, method, weights);
    }
    Vector out = crossFit(data, settings, fit, folds, observer,
                          "cross-fit for the outlier threshold", method);
    if (weights && out.size() > 0) {
        *weights = data.weights;
    }
    return out;
}

Vector crossFittedLogValues(const FitData& data, const FitSettings& settings, const FitOutcome& fit,
                            int folds, const FitObserver& observer, std::string* method)
{
    const std::string stage = "cross-fit of the training rows' scores";
    std::string said;
    method = method ? method : &said;
    std::vector<Eigen::Index> order;
    const std::optional<FitData> rows = weightedRowsInOrder(data, &order);
    if (!rows) {
        return crossFit(data, settings, fit, folds, observer, stage, method);
    }
    // The folds as the fit's own (rows of positive weight in order of value), values put back
    // in the input's order; a row of weight 0 is in no fit, so the fit's model scores it.
    const Vector fitted = crossFit(*rows, settings, fit, folds, observer, stage, method);
    if (fitted.size() == 0) {
        return {};
    }
    Vector out(data.train.rows());
    std::vector<bool> seen(size_t(out.size()), false);
    for (size_t i = 0; i < order.size(); ++i) {
        out(order[i]) = fitted(Eigen::Index(i));
        seen[size_t(order[i])] = true;
    }
    std::vector<Eigen::Index> unfitted;
    for (Eigen::Index i = 0; i < out.size(); ++i) {
        if (!seen[size_t(i)]) {
            unfitted.push_back(i);
        }
    }
    if (!unfitted.empty()) {
        const Vector v = fit.model->logValues(rowsOf(data.train, unfitted)).values;
        for (size_t i = 0; i < unfitted.size(); ++i) {
            out(unfitted[i]) = v(Eigen::Index(i));
        }
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
