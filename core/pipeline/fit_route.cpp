// SPDX-License-Identifier: MIT
// The one fit route of every front end: prepare, tune, fit, check.
#include "core/pipeline/fit_route.h"

#include "core/data/split.h"
#include "core/errors.h"
#include "core/estimators/common_options.h"
#include "core/estimators/ratio_model.h"
#include "core/estimators/registry.h"
#include "core/pipeline/fit_diagnostics.h"
#include "core/tuning/length_scale_rules.h"
#include "core/tuning/rank_ensemble.h"
#include "core/util/float_mode.h"
#include "core/util/text.h"

#include <algorithm>
#include <chrono>
#include <cmath>

namespace sosrep {
namespace {

/// Enough rows for what was asked: two to fit, five when l is tuned on an 80/20 split.
void checkRows(const FitData& data, bool split)
{
    const Eigen::Index n = data.train.rows();
    const Eigen::Index minimum = split ? 5 : 2;
    if (n < minimum) {
        throw DataError(data.source, 0, 0,
                        "has " + std::to_string(n) + " data row" + (n == 1 ? "" : "s") +
                            (split ? "; an automatic length scale without validation rows needs "
                                     "at least 5 (it fits on 80 % and validates on 20 %): give "
                                     "more rows, validation rows, or a fixed length scale"
                                   : "; a fit needs at least 2"));
    }
}

/// Polls `cancelled` as a ProgressFn that also reports the stage.
ProgressFn progressOf(const FitObserver& o, const std::string& stage)
{
    return [&o, stage](int done, int total) {
        if (o.progress) {
            o.progress(stage, done, total);
        }
        return !(o.cancelled && o.cancelled());
    };
}

/// Progress of the fits that follow a sweep, on one scale with it: the sweep reports its points
/// out of points + 1, the final fit (or the members of a multi-scale fit) the last step, so a
/// progress bar never runs to 100 % and back to 2 % (issue 24). `first` of `count` fits.
ProgressFn finalFitProgress(const FitObserver& o, int sweepPoints, int first, int count)
{
    return [&o, sweepPoints, first, count](int done, int total) {
        if (o.progress) {
            const double part = total > 0 ? std::min(1.0, double(done) / total) : 0.0;
            const int scale = 1000;
            o.progress(sweepPoints > 0 ? "fit at the selected length scale" : "fit",
                       sweepPoints * scale + int(scale * (first + part) / count),
                       (sweepPoints + 1) * scale);
        }
        return !(o.cancelled && o.cancelled());
    };
}

/// Sets the kernel's length scale to the chosen one times bw_adjust and checks it. A product
/// the kernel refuses (1e308 times any l overflows) is bw_adjust's fault, not the length
/// scale's: the message named --length-scale (issue 52).
void validateAdjusted(KernelSpec& kernel, double chosen, double bwAdjust, int dim)
{
    kernel.lengthScale = chosen * bwAdjust;
    try {
        kernel.validate(dim);
    } catch (const ParameterError& e) {
        if (e.parameter() != "length_scale" || bwAdjust == 1.0) {
            throw;
        }
        throw ParameterError("bw_adjust", numberText(bwAdjust, 6) + " times the length scale " +
                                              numberText(chosen, 6) +
                                              " is refused: " + e.message());
    }
}

/// The multi-scale rules ("ensemble", "anomaly"): the members are fitted on the rows the sweep
/// fitted on (refitted rather than kept: a dense kernel per grid point would not fit in memory)
/// and ranked against the sweep's validation rows, which none of them has seen.
FitOutcome fitEnsemble(FitOutcome& out, const SweepFold& fold, const Estimator& estimator,
                       const FitSettings& settings, const KernelSpec& kernel,
                       const FitObserver& observer, std::chrono::steady_clock::time_point start,
                       int sweepPoints)
{
    const SearchResult& r = *out.search;
    std::vector<std::pair<double, std::shared_ptr<const FittedModel>>> members;
    const int total = static_cast<int>(r.selection.memberScales.size());
    for (double chosen : r.selection.memberScales) {
        const double scale = chosen * out.bwAdjust;
        KernelSpec k = kernel;
        validateAdjusted(k, chosen, out.bwAdjust, static_cast<int>(fold.train.cols()));
        FitControl control;
        const int done = static_cast<int>(members.size());
        control.progress = finalFitProgress(observer, sweepPoints, done, total);
        // The sweep fitted these rows already: start from its weights at the nearest l.
        control.start = nearestStart(r.firstFoldWeights, scale);
        FitInput input{fold.train, nullptr, k, settings.values, nullptr};
        input.weights = fold.trainWeights.size() > 0 ? &fold.trainWeights : nullptr;
        std::shared_ptr<const FittedModel> model = estimator.fit(input, control);
        if (model->report().status == SolverStatus::Cancelled) {
            out.cancelled = true;
            return out;
        }
        const bool lastChance = members.empty() && chosen == r.selection.memberScales.back();
        if (model->report().refused && !lastChance) {
            // A scale nothing can be fitted at (kernel SoS at the neighbourhood reach in 1555
            // columns stopped a whole adbench run): the others rank the rows, and it is said.
            out.warnings.push_back("the anomaly rule's length scale " + numberText(scale, 4) +
                                   " could not be fitted (" + model->report().note +
                                   "); the rows are ranked without it");
            continue;
        }
        checkUsable(*model);
        members.emplace_back(k.lengthScale, std::move(model));
    }
    // Ranks count validation rows, not their weights: a rank is a share of rows the members
    // did not fit, and the weights entered through the members' fits.
    auto ensemble = RankEnsembleModel::build(members, fold.validation, r.selection.combination);
    FitReport report = members.front().second->report();
    const std::string count = std::to_string(members.size());
    report.note = r.selection.combination == Combination::MaxRank
                      ? "the larger anomaly rank of " + count + " length scales"
                      : "rank ensemble of " + count + " length scales";
    ensemble->setReport(report);
    // Its threshold counts these rows as the ranks do, unweighted: a weighted quantile of
    // unweighted ranks flagged 10 % of new inliers at contamination 0.05 (rows weighted 2:1).
    out.heldOutLogValues = ensemble->logValues(fold.validation).values;
    out.lengthScaleChosen = r.curve[static_cast<size_t>(r.selection.fdIndex)].lengthScale;
    out.lengthScale = out.lengthScaleChosen * out.bwAdjust;
    out.model = std::move(ensemble);
    out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return out;
}

/// The fitting/validation pairs of a sweep: the test rows (validation=test), one seeded 80/20
/// split of the training rows, or k folds of them (fd_folds; automatic: folds for small data,
/// where one split leaves too few validation rows). Beyond kMaxSweepValidationRows validation
/// rows the split's are subsampled, and `note` says so.
constexpr Eigen::Index kMaxSweepValidationRows = 5000;

std::vector<SweepFold> sweepFolds(const FitData& data, const FitSettings& settings,
                                  const SearchConfig& config, uint64_t seed, std::string* note)
{
    if (settings.values.text("validation") == "test") {
        if (data.validation.rows() == 0) {
            throw ParameterError("validation", "test needs rows to score (e.g. fit --test); "
                                               "use train to tune on the training rows");
        }
        return {SweepFold{data.train, data.validation, data.weights, Vector()}};
    }
    const auto part = [&data](const SplitIndices& s) {
        return SweepFold{rowsOf(data.train, s.train), rowsOf(data.train, s.test),
                         entriesOf(data.weights, s.train), entriesOf(data.weights, s.test)};
    };
    // Where repeated rows are left out of validation, the split is of distinct rows: copies of
    // a row go to the same side. A split of rows put copies on both sides, and when every row
    // had copies (a sample repeated 3 times) no validation row was left to keep, so the curve
    // scored rows the model had fitted and chose l = 0.0068 for moons where once gives 0.048.
    // Without repeats each group is one row and the split is the split of rows.
    std::vector<std::vector<Eigen::Index>> groups;
    if (config.excludeDuplicates) {
        groups = identicalRowGroups(data.train);
    } else {
        for (Eigen::Index i = 0; i < data.train.rows(); ++i) {
            groups.push_back({i});
        }
    }
    const auto n = Eigen::Index(groups.size());
    const int k = config.foldsFor(n);
    if (n < 2 && data.train.rows() > 1) {
        // Said as it is (issue 50: 50 copies of one row were told they needed two distinct
        // rows): the tuning cannot fit some rows and validate on others.
        throw DataError(data.source, 0, 0,
                        "all " + std::to_string(data.train.rows()) +
                            " rows are equal: an automatic length scale fits some rows and "
                            "validates on others; give rows that differ, or a fixed length "
                            "scale");
    }
    if (n < 2) {
        throw ParameterError("validation", "needs at least two distinct training rows (one to "
                                           "fit, one to validate)");
    }
    if (k <= 1) {
        SplitIndices split = rowsOfGroups(trainTestSplit(n, 0.2, seed), groups);
        if (Eigen::Index(split.test.size()) > kMaxSweepValidationRows) {
            // Each grid point scores every validation row against every fitted row: at 1e5
            // rows, 20 000 x 80 000 kernel values, 8 s a point on 2 cores. The Fisher
            // divergence is a mean over rows; a seeded 5000 of them estimate it to a standard
            // error ~2 % of its spread, and every row is still fitted.
            const Eigen::Index all = Eigen::Index(split.test.size());
            split.test =
                entriesOf(split.test, subsampleRows(all, kMaxSweepValidationRows, seed + 1));
            *note = "the Fisher-divergence sweep scored a seeded " +
                    std::to_string(kMaxSweepValidationRows) + " of its " + std::to_string(all) +
                    " validation rows (the cost of a grid point grows with both sides); its "
                    "fits use all their rows";
        }
        return {part(split)};
    }
    if (Eigen::Index(k) > n) {
        throw ParameterError("fd_folds", std::to_string(k) + " folds need at least " +
                                             std::to_string(k) + " distinct training rows");
    }
    std::vector<SweepFold> folds;
    for (const SplitIndices& g : kFoldSplits(n, k, seed)) {
        folds.push_back(part(rowsOfGroups(g, groups)));
    }
    return folds;
}

/// The tuned l was fitted on part of the rows; on all of them a low-rank kernel can leave rows
/// beyond every landmark at that l, and the fit is refused (adbench with duplicated anomalies
/// hit this on magic). Rather than fail after the sweep, take the next larger curve points
/// that fit, and say so: the l changed, and --rank would keep it.
std::unique_ptr<FittedModel> refitAboveRefused(std::unique_ptr<FittedModel> model,
                                               const FitData& data, const Estimator& estimator,
                                               const FitSettings& settings, KernelSpec& kernel,
                                               const FitControl& control, const SearchResult& r,
                                               std::vector<std::string>& warnings)
{
    const double chosen = kernel.lengthScale;
    const std::string why = model->report().note;
    for (const FdPoint& p : r.curve) {
        if (p.lengthScale <= kernel.lengthScale || !std::isfinite(p.value)) {
            continue;
        }
        kernel.lengthScale = p.lengthScale;
        FitInput input{data.train, data.second, kernel, settings.values, data.secondValues};
        input.weights = data.weights.size() > 0 ? &data.weights : nullptr;
        model = estimator.fit(input, control);
        if (!model->report().refused || model->report().status == SolverStatus::Cancelled) {
            break;
        }
    }
    if (!model->report().refused) {
        warnings.push_back("the selected length scale " + numberText(chosen, 6) +
                           " could not be fitted on all training rows (" + why + "): raised to " +
                           numberText(kernel.lengthScale, 6) +
                           ", the next point of the curve that fits");
    }
    return model;
}

/// The kernel of the settings, with a rule of thumb's length scale applied (scott, silverman);
/// `rule` gets the rule's name ("" for a number).
KernelSpec kernelOf(const FitSettings& settings, const FitData& data, std::string& rule)
{
    KernelSpec kernel = kernelSpecFrom(settings.values);
    kernel.validate(static_cast<int>(data.train.cols()));
    const std::string& l = settings.values.text("length_scale");
    rule = settings.values.isChoice("length_scale") ? l : std::string();
    if (l == "scott") {
        kernel.lengthScale = scottBandwidth(data.train, data.weights);
    } else if (l == "silverman") {
        kernel.lengthScale = silvermanBandwidth(data.train, data.weights);
    }
    return kernel;
}

/// The Fisher-divergence curve over the grid: swept here, or a finished sweep of the same rows
/// (FitData::sweep) with this fit's rule applied. `sweepPoints`: the grid points swept here.
SearchResult sweep(const FitData& data, const FitSettings& settings, const SearchConfig& config,
                   const std::vector<SweepFold>& folds, const Estimator& estimator,
                   const KernelSpec& kernel, const FitObserver& observer, int& sweepPoints)
{
    if (data.sweep) {
        SearchResult r = *data.sweep;
        const Eigen::Index fitRows = folds.front().train.rows();
        if (config.rule == SelectionRule::Anomaly &&
            r.reachNeighbours != std::min<int>(config.reachNeighbours, int(fitRows))) {
            // The sweep's reach is that of another neighbourhood k: the curve holds, the
            // reach is the first fold's again with this k.
            r.reach = sweepReach(folds.front(), config.reachNeighbours, config.excludeDuplicates,
                                 &r.reachNeighbours);
        }
        r.selection = reselect(r, config);
        return r;
    }
    LengthScaleSearch search(folds, estimator, settings.values, kernel, config);
    search.setObserver(observer.sweepPoint);
    SearchResult r = search.run([&](int, int) {
        if (observer.progress) {
            // One step more than the sweep's points: the final fit's.
            observer.progress("Fisher-divergence sweep", search.done(), search.expected() + 1);
        }
        return !(observer.cancelled && observer.cancelled());
    });
    sweepPoints = search.done();
    return r;
}

} // namespace

namespace {

/// Row weights as the stages take them: checked (ParameterError "sample_weight" naming the
/// entry), refused for an estimator that cannot use them.
void checkWeights(const FitData& data, const Estimator& estimator)
{
    const Vector& w = data.weights;
    if (w.size() != data.train.rows()) {
        throw ParameterError("sample_weight", "has " + std::to_string(w.size()) + " entries for " +
                                                  std::to_string(data.train.rows()) + " rows");
    }
    if (!estimator.capabilities().rowWeights) {
        std::string which;
        for (const std::string& name : EstimatorRegistry::instance().names()) {
            if (EstimatorRegistry::instance().get(name).capabilities().rowWeights) {
                which += (which.empty() ? "" : ", ") + name;
            }
        }
        throw ParameterError("sample_weight", estimator.name() +
                                                  " cannot weight its rows (estimators that "
                                                  "can: " +
                                                  which + "); repeat rows instead");
    }
    for (Eigen::Index i = 0; i < w.size(); ++i) {
        if (!std::isfinite(w(i)) || w(i) < 0.0) {
            throw ParameterError("sample_weight", "entry " + std::to_string(i) + " is " +
                                                      numberText(w(i)) +
                                                      ": weights must be finite and >= 0");
        }
    }
    if (!(w.sum() > 0.0)) {
        throw ParameterError("sample_weight", "is 0 for every row");
    }
}

/// Rows whose weights the fit route uses as they come, or nullopt when they are fine: weights
/// scaled by a power of two to a largest weight in [1, 2) (exact, so nothing moves by a bit,
/// and no sum of them overflows: equal weights of 1e306 summed to infinity and tuned another
/// length scale), then the rows of positive weight in order of value (weightedRowsInOrder).
std::optional<FitData> weightedRowsForFit(const FitData& data, const Estimator& estimator)
{
    if (data.weights.size() == 0) {
        return std::nullopt;
    }
    checkWeights(data, estimator);
    const int exponent = std::ilogb(data.weights.maxCoeff());
    if (exponent != 0) {
        FitData scaled = data;
        scaled.weights =
            data.weights.unaryExpr([exponent](double v) { return std::ldexp(v, -exponent); });
        return scaled;
    }
    return weightedRowsInOrder(data);
}

/// What the tuning validated on, in the summary's words: "5-fold", "test", "split-80-20",
/// with the number of validation rows when the sweep scored a subsample of them.
std::string validationWords(const std::vector<SweepFold>& folds, const FitSettings& settings,
                            bool subsampled)
{
    std::string out = folds.size() > 1 ? std::to_string(folds.size()) + "-fold"
                      : settings.values.text("validation") == "test" ? "test"
                                                                     : "split-80-20";
    if (subsampled) {
        out += " (" + std::to_string(folds.front().validation.rows()) + " validation rows)";
    }
    return out;
}

/// A rank scaling's change of units differs by row: the held-out curve's mean log densities
/// move by the validation rows' mean log-derivative (weighted, as the curve's means). Zero for
/// an affine scaling, whose shift the model's own logUnitShift carries.
double meanValidationUnitShift(const Scaler& scaler, const std::vector<SweepFold>& folds)
{
    if (scaler.isAffine()) {
        return 0.0;
    }
    double sum = 0.0;
    double rows = 0.0;
    for (const SweepFold& f : folds) {
        const Vector d = scaler.logDerivativeRows(f.validation);
        const Vector& w = f.validationWeights;
        sum += w.size() > 0 ? w.dot(d) : d.sum();
        rows += w.size() > 0 ? w.sum() : double(f.validation.rows());
    }
    return rows > 0.0 ? sum / rows : 0.0;
}

/// What the selection says that a user must read: a fallback to the global minimum, a reach
/// computed with fewer neighbours than asked.
void warnAboutSelection(const SearchResult& r, const SearchConfig& config,
                        std::vector<std::string>& warnings)
{
    if (r.selection.reason.rfind("global_minimum_fallback", 0) == 0) {
        warnings.push_back("no stable local minimum of the Fisher divergence where the rule "
                           "looks: the global minimum was taken; look at the curve before "
                           "trusting this length scale");
    }
    if (r.reachNeighbours > 0 && r.reachNeighbours < config.reachNeighbours) {
        warnings.push_back(
            "--reach-neighbours " + std::to_string(config.reachNeighbours) +
            " is more than the rows the tuning fits on: the neighbourhood reach uses k = " +
            std::to_string(r.reachNeighbours));
    }
}

/// The likelihood rule's curve in the model's units: its held-out mean log densities move by
/// the same change of units as the model's values (`shift`).
void shiftHeldOutLikelihoods(FitOutcome& out, const FitSettings& settings, double shift)
{
    if (!out.search || searchConfigFrom(settings.values).rule != SelectionRule::HeldOutLikelihood) {
        return;
    }
    for (FdPoint& p : out.search->curve) {
        p.heldOutLogLikelihood += std::isfinite(p.heldOutLogLikelihood) ? shift : 0.0;
    }
}

/// The fit's stages in order (sweep, final fit or members), each reporting its progress in its
/// own units as a fraction of the whole fit.
FitOutcome fitStages(const FitData& data, const FitSettings& settings, const FitObserver& observer)
{
    const auto start = std::chrono::steady_clock::now();
    const Estimator& estimator = EstimatorRegistry::instance().get(settings.estimator);
    const Capabilities caps = estimator.capabilities();
    if (const std::optional<FitData> rows = weightedRowsForFit(data, estimator)) {
        return fitStages(*rows, settings, observer);
    }
    // Weights for the final fit and the rules of thumb; the folds carry their own.
    const Vector* weights = data.weights.size() > 0 ? &data.weights : nullptr;
    FitOutcome out;
    const bool tune = caps.usesKernel && settings.autoLengthScale();
    checkRows(data, tune && settings.values.text("validation") != "test");
    KernelSpec kernel;
    if (caps.usesKernel) {
        kernel = kernelOf(settings, data, out.lengthScaleRule);
        out.bwAdjust = settings.values.has("bw_adjust") ? settings.values.real("bw_adjust") : 1.0;
    }
    int sweepPoints = 0;              // grid points swept here (0: no sweep, or a sweep reused)
    double validationUnitShift = 0.0; // rank scaling: see below
    if (tune) {
        const SearchConfig config = searchConfigFrom(settings.values, data.train);
        out.purpose = toString(config.purpose);
        out.rule = toString(config.rule);
        std::string subsampled;
        const std::vector<SweepFold> folds =
            sweepFolds(data, settings, config, kernel.seed, &subsampled);
        out.validation = validationWords(folds, settings, !subsampled.empty());
        if (!subsampled.empty()) {
            out.warnings.push_back(subsampled);
        }
        const SearchResult r =
            sweep(data, settings, config, folds, estimator, kernel, observer, sweepPoints);
        if (r.cancelled) {
            out.cancelled = true;
            return out;
        }
        out.search = r;
        validationUnitShift = meanValidationUnitShift(data.scaler, folds);
        kernel.lengthScale = r.selectedLengthScale();
        warnAboutSelection(r, config, out.warnings);
        if (r.selection.memberScales.size() > 1) {
            // The multi-scale rules fit their members on the first fold and rank against its
            // validation rows.
            return fitEnsemble(out, folds.front(), estimator, settings, kernel, observer, start,
                               sweepPoints);
        }
    }
    if (caps.usesKernel) {
        out.lengthScaleChosen = kernel.lengthScale;
        validateAdjusted(kernel, kernel.lengthScale, out.bwAdjust,
                         static_cast<int>(data.train.cols()));
    }
    FitControl control;
    control.progress = sweepPoints > 0 ? finalFitProgress(observer, sweepPoints, 0, 1)
                                       : progressOf(observer, "fit");
    control.trace = observer.trace;
    FitInput input{data.train, data.second, kernel, settings.values, data.secondValues};
    input.weights = weights;
    std::unique_ptr<FittedModel> model = estimator.fit(input, control);
    if (tune && model->report().refused && out.search) {
        model = refitAboveRefused(std::move(model), data, estimator, settings, kernel, control,
                                  *out.search, out.warnings);
        out.lengthScaleChosen = kernel.lengthScale / out.bwAdjust;
    }
    if (model->report().status == SolverStatus::Cancelled) {
        out.cancelled = true;
        return out;
    }
    out.lengthScale = caps.usesKernel ? kernel.lengthScale : 0.0;
    diagnoseFit(*model, data.train, caps.usesKernel ? &kernel : nullptr,
                out.search ? &*out.search : nullptr, out.warnings);
    model->setDataUnits(data.scaler);
    shiftHeldOutLikelihoods(out, settings, model->logUnitShift() + validationUnitShift);
    out.model = std::move(model);
    out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return out;
}

} // namespace

std::optional<FitData> weightedRowsInOrder(const FitData& data, std::vector<Eigen::Index>* order)
{
    const Vector& w = data.weights;
    if (w.size() == 0 || (w.minCoeff() > 0.0 && w.maxCoeff() == w.minCoeff())) {
        return std::nullopt;
    }
    std::vector<Eigen::Index> keep;
    for (Eigen::Index i = 0; i < w.size(); ++i) {
        if (w(i) > 0.0) {
            keep.push_back(i);
        }
    }
    const Matrix& x = data.train;
    const auto before = [&x, &w](Eigen::Index a, Eigen::Index b) {
        for (Eigen::Index j = 0; j < x.cols(); ++j) {
            if (x(a, j) != x(b, j)) {
                return x(a, j) < x(b, j);
            }
        }
        return w(a) < w(b);
    };
    if (Eigen::Index(keep.size()) == w.size() && std::is_sorted(keep.begin(), keep.end(), before)) {
        return std::nullopt; // in order already (the rows this function gave)
    }
    std::stable_sort(keep.begin(), keep.end(), before);
    if (order) {
        *order = keep;
    }
    FitData rows;
    rows.train = rowsOf(x, keep);
    rows.weights = entriesOf(w, keep);
    rows.validation = data.validation;
    rows.source = data.source;
    rows.second = data.second;
    rows.secondValues = data.secondValues;
    rows.sweep = data.sweep;
    rows.scaler = data.scaler;
    return rows;
}

std::vector<Eigen::Index> fitSubsample(Eigen::Index rows, long long maxFitRows, uint64_t seed)
{
    if (maxFitRows <= 0 || rows <= maxFitRows) {
        return {};
    }
    return subsampleRows(rows, Eigen::Index(maxFitRows), seed);
}

FitOutcome fitModel(const FitData& data, const FitSettings& settings, const FitObserver& observer)
{
    // Whichever front end calls, the fit's threads flush subnormal numbers (issue 48).
    const FlushSubnormalsScope flushed(FlushSubnormalsScope::Threads::CallerAndPool);
    const long long cap = settings.values.integer("max_fit_rows");
    const uint64_t seed = settings.values.seed("seed");
    std::vector<Eigen::Index> rows = fitSubsample(data.train.rows(), cap, seed);
    // A second sample beyond the cap is subsampled alike, with a stream of its own.
    const std::vector<Eigen::Index> secondRows =
        data.second ? fitSubsample(data.second->rows(), cap, seed + 1)
                    : std::vector<Eigen::Index>{};
    if (!rows.empty() || !secondRows.empty()) {
        FitData part = data;
        Vector secondValues;
        Matrix second;
        std::vector<std::string> said;
        if (!rows.empty()) {
            part.train = rowsOf(data.train, rows);
            part.weights = entriesOf(data.weights, rows);
            if (data.secondValues) {
                secondValues = entriesOf(*data.secondValues, rows);
                part.secondValues = &secondValues;
            }
            said.push_back("fitted on a seeded " + std::to_string(rows.size()) + " of the " +
                           std::to_string(data.train.rows()) +
                           " training rows (max_fit_rows; 0 fits every row): the fit's time grows "
                           "faster than its rows; every row is still scored");
        }
        if (!secondRows.empty()) {
            second = rowsOf(*data.second, secondRows);
            part.second = &second;
            said.push_back("fitted on a seeded " + std::to_string(secondRows.size()) + " of the " +
                           std::to_string(data.second->rows()) +
                           " rows of the second sample (max_fit_rows; 0 fits every row)");
        }
        FitSettings all = settings;
        all.values.set("max_fit_rows", "0");
        FitOutcome out = fitModel(part, all, observer);
        out.warnings.insert(out.warnings.begin(), said.begin(), said.end());
        out.fitRows = std::move(rows);
        return out;
    }
    if (!observer.progress) {
        return fitStages(data, settings, observer);
    }
    // What the caller sees (issue 37: a tqdm bar stopped at 94 %, totals changed mid-run): one
    // total for the whole fit, `done` never going back, and done == total exactly once, when
    // the fit is complete. The stages report fractions of the fit in their own units.
    constexpr int kTotal = 1000;
    int shown = 0;
    std::string shownStage = "fit";
    observer.progress(shownStage, 0, kTotal);
    FitObserver stages = observer;
    stages.progress = [&](const std::string& stage, int done, int total) {
        const double part = total > 0 ? std::clamp(double(done) / total, 0.0, 1.0) : 0.0;
        const int at = std::max(shown, std::min(kTotal - 1, int(part * kTotal)));
        if (at != shown || stage != shownStage) {
            shown = at;
            shownStage = stage;
            observer.progress(stage, at, kTotal);
        }
    };
    FitOutcome out = fitStages(data, settings, stages);
    if (out.model && !out.cancelled) {
        observer.progress("done", kTotal, kTotal);
    }
    return out;
}

void checkUsable(const FittedModel& model)
{
    const FitReport& r = model.report();
    if (r.refused) {
        throw ParameterError("length_scale", r.note);
    }
    if (r.status == SolverStatus::Diverged) {
        const int at = r.traces.empty() || r.traces.front().rows.empty()
                           ? 0
                           : r.traces.front().rows.back().iteration;
        throw NumericalError(
            "the " + (r.traces.empty() ? model.estimator() : r.traces.front().run) +
            " solver diverged at iteration " + std::to_string(at) + " (lower the learning rate)");
    }
}

} // namespace sosrep
