// SPDX-License-Identifier: MIT
// The option tables every kernel estimator shares: data, kernel and length-scale tuning.
#include "core/estimators/common_options.h"

#include "core/data/scaler.h"
#include "core/estimators/estimator.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace sosrep {
namespace {

bool isSdo(const OptionValues& v)
{
    return v.text("kernel") == "sdo";
}

bool tuned(const OptionValues& v, Eigen::Index)
{
    return v.text("length_scale") == "auto";
}

OptionTable makeDataOptions()
{
    OptionSpec scale = choiceOption(
        {"scale", "Scaling", "Data", "KIND"},
        {"auto", "minmax", "zscore", "robust", "quantile", "rank", "none"}, "auto",
        "per-column scaling fitted on the training rows and applied unchanged to other rows "
        "(robust: median and interquartile range; quantile: median and the central 80 % "
        "range, q90 - q10; rank: the empirical CDF, continued beyond "
        "the training range with min-max's slope; auto: the purpose's, which is minmax for "
        "the density and for estimators without a purpose, and for anomaly ranking rank when "
        "the median column's most frequent value holds half the rows or more, a spike and a "
        "sparse tail, else minmax)");
    OptionSpec seed;
    seed.name = "seed";
    seed.type = OptionType::Seed;
    seed.defaultValue = "0";
    seed.label = "Seed";
    seed.group = "Data";
    seed.valueName = "S";
    seed.help = "one seed for initialisation, random features, landmarks and the validation "
                "split (recorded in summaries and model files)";
    OptionSpec maxFitRows = integerOption(
        {"max_fit_rows", "Rows fitted at most", "Data", "N"}, kDefaultMaxFitRows, 0,
        std::numeric_limits<int>::max(),
        "rows a fit uses at most: larger data are fitted on a seeded subsample of this many "
        "rows, said in a warning (every row is still scored); 0 = every row");
    return {scale, seed, maxFitRows};
}

OptionTable makeKernelOptions()
{
    const KernelSpec d;
    OptionTable t;
    t.push_back(choiceOption({"kernel", "Kernel", "Kernel", "K"}, {"gaussian", "laplace", "sdo"},
                             toString(d.type),
                             "gaussian exp(-r^2/2l^2), laplace exp(-r/l), or sdo, the Sobolev "
                             "kernel of the paper (eq. 11)"));
    OptionSpec l = realOption({"length_scale", "Length scale ℓ", "Kernel", "L"}, "auto", 0.0, true,
                              "auto (tuned by Fisher divergence), scott, silverman (rules of "
                              "thumb on the scaled data) or a number",
                              {"auto", "scott", "silverman"});
    l.logScale = true;
    t.push_back(l);
    OptionSpec adjust = realOption(
        {"bw_adjust", "ℓ multiplier", "Kernel", "A"}, "1", 0.0, true,
        "multiplies the length scale once it is set (tuned, a rule of thumb or a number), as "
        "seaborn's bw_adjust: below 1 sharper, above 1 smoother; the tuning's curve and choice "
        "are not changed by it");
    adjust.logScale = true;
    t.push_back(adjust);
    OptionSpec order =
        integerOption({"sdo_order", "SDO order m", "Kernel", "M"}, d.sdoOrder, 0,
                      KernelSpec::kMaxSdoOrder, "SDO order m > d/2 (0 = floor(d/2) + 1)");
    order.applies = [](const OptionValues& v, Eigen::Index) { return isSdo(v); };
    order.appliesText = "only the sdo kernel has an order";
    t.push_back(order);
    OptionSpec method = choiceOption({"sdo_method", "SDO method", "Kernel", "M"}, {"rff", "exact"},
                                     toString(d.sdoMethod),
                                     "rff: random Fourier features (the paper's eq. 12); exact: "
                                     "the radial kernel by quadrature");
    method.applies = order.applies;
    method.appliesText = "only the sdo kernel has methods";
    t.push_back(method);
    OptionSpec features = integerOption(
        {"features", "SDO features T", "Kernel", "T"}, d.features, 1, KernelSpec::kMaxFeatures,
        "random Fourier features for the sdo kernel", "every evaluation costs T cosines per point");
    features.applies = [](const OptionValues& v, Eigen::Index) {
        return isSdo(v) && v.text("sdo_method") == "rff";
    };
    features.appliesText = "only the sdo kernel by random features uses them";
    t.push_back(features);
    t.push_back(choiceOption(
        {"backend", "Kernel back-end", "Kernel", "B"}, {"auto", "dense", "sparse", "lowrank"},
        toString(d.backend),
        "how K is held: auto = per length scale, by the predicted cost of a product: dense or "
        "sparse up to " +
            std::to_string(KernelSpec::kAutoDenseRows) +
            " rows, sparse or low rank (Nystroem landmarks or random features) beyond; sparse "
            "keeps the entries above 1e-16 of the diagonal (gaussian and laplace)"));
    OptionSpec rank = integerOption(
        {"rank", "Landmarks M", "Kernel", "M"}, d.rank, 1, KernelSpec::kMaxRank,
        "landmarks of the low-rank (Nystroem) back-end", "the M x M eigendecomposition costs M^3");
    rank.applies = [](const OptionValues& v, Eigen::Index rows) {
        const std::string b = v.text("backend");
        const bool lowRank = b == "lowrank" || (b == "auto" && rows > KernelSpec::kAutoDenseRows);
        return lowRank && !(isSdo(v) && v.text("sdo_method") == "rff");
    };
    rank.appliesText = "the kernel is not held by Nystroem landmarks here";
    t.push_back(rank);
    return t;
}

OptionTable makeTuningOptions()
{
    const SearchConfig d;
    OptionTable t;
    t.push_back(choiceOption(
        {"purpose", "Purpose", "Length scale", "P"}, {"auto", "density", "anomaly"}, "auto",
        "what the tuned l (and scale=auto's scaling) is for: density (the density to look "
        "at: the Fisher-divergence minimum; min-max), anomaly (ranking rows: the larger "
        "anomaly rank at that l and at the reach of a row's nearest neighbours; rank for "
        "spike-and-tail columns), or auto (the task's own: fit and the app's density view "
        "tune for density, adbench and the app's scores for anomaly)"));
    t.push_back(integerOption({"grid", "Grid points", "Length scale", "N"}, d.gridSize, 1, 200,
                              "length scales tried by auto, log-spaced over two decades each "
                              "side of the median pairwise distance",
                              "each grid point is a whole fit"));
    t.push_back(choiceOption(
        {"selection", "Selection rule", "Length scale", "RULE"},
        {"auto", "density", "anomaly", "paper", "paper-code", "ranking", "ensemble",
         "above-spacing", "first-local", "likelihood"},
        "auto",
        "auto (the purpose's rule), density (the Fisher-divergence minimum, refined), anomaly "
        "(two scales: that minimum and the neighbourhood reach), paper (largest stable local "
        "minimum, as the paper), paper-code (the authors' code: the same on round(log(1 + J + "
        "abs(min J)))), ranking (twice the paper's choice: the former default), "
        "ensemble (rank average at 1, 2 and 4 times it), above-spacing, first-local, or "
        "likelihood (held-out log-likelihood; normalized densities only)"));
    t.push_back(integerOption({"reach_neighbours", "Neighbourhood k", "Length scale", "K"},
                              d.reachNeighbours, 2, 100000,
                              "the anomaly rule's second scale: the length scale at which the "
                              "kernel weighs a row's k-th nearest neighbour 1/e of its nearest "
                              "(a clump of fewer than k near-copies cannot look dense there)"));
    t.push_back(choiceOption({"wide_scale", "Wide scale", "Length scale", "W"},
                             {"none", "median", "auto"}, "auto",
                             "the anomaly rule's third scale: none, median (the median "
                             "pairwise distance, where a row far from the bulk in a few "
                             "columns stands out), or auto (median when the median column's "
                             "skewness is 2 or more in absolute value: heavy tails)"));
    OptionSpec factor = realOption({"fd_factor", "FD factor", "Length scale", "X"}, "2", 0.0, true,
                                   "the ranking rule's l: the grid point nearest this multiple of "
                                   "the paper's FD choice (1: the paper's l)");
    t.push_back(factor);
    t.push_back(choiceOption({"fd_estimator", "FD estimator", "Length scale", "E"},
                             {"analytic", "finite-difference"}, toString(d.estimator),
                             "analytic (closed-form Laplacian) or finite-difference (the "
                             "paper's Hutchinson estimator)"));
    t.push_back(choiceOption({"fd_duplicates", "Repeated rows", "Length scale", "MODE"},
                             {"auto", "keep", "exclude"}, "auto",
                             "exclude: split distinct rows into fitting and validation rows, so "
                             "no validation row repeats a fitted one; keep: split rows as they "
                             "come (auto: exclude for the density and anomaly rules)"));
    t.push_back(choiceOption({"fd_precision", "Sweep precision", "Length scale", "P"},
                             {"single", "double"}, "single",
                             "precision of the sweep's kernel matrices: single (half the "
                             "memory and time per product; products still add in double) or "
                             "double; the final fit is in double either way"));
    t.push_back(integerOption({"fd_folds", "Validation folds", "Length scale", "K"}, d.folds, 0, 10,
                              "folds of the training rows the tuning validates on: 0 = auto (" +
                                  std::to_string(SearchConfig::kAutoFolds) + " below " +
                                  std::to_string(SearchConfig::kAutoFoldsRows) +
                                  " rows, one 80/20 split above), 1 = one 80/20 split, k = k "
                                  "folds, every row validated once",
                              "each fold is a whole sweep"));
    t.push_back(choiceOption({"validation", "Validation rows", "Length scale", "ROWS"},
                             {"train", "test"}, "train",
                             "rows the tuning is judged on: train (a seeded 80/20 split of the "
                             "training rows) or test (the rows given to score, e.g. fit --test: "
                             "unlabelled, but then the scored rows shape the model)"));
    for (OptionSpec& s : t) {
        s.applies = tuned;
        s.appliesText = "the length scale is not tuned";
        if (s.name == "fd_factor") {
            s.applies = [](const OptionValues& v, Eigen::Index rows) {
                return tuned(v, rows) && v.text("selection") == "ranking";
            };
            s.appliesText = "only with --selection ranking";
        } else if (s.name == "fd_folds") {
            s.applies = [](const OptionValues& v, Eigen::Index rows) {
                return tuned(v, rows) && v.text("validation") == "train";
            };
            s.appliesText = "only when the tuning validates on the training rows";
        } else if (s.name == "purpose") {
            // The purpose also chooses scale=auto's scaling, whatever sets the length scale.
            s.applies = [](const OptionValues& v, Eigen::Index rows) {
                return tuned(v, rows) || v.text("scale") == "auto";
            };
            s.appliesText = "the length scale is not tuned and the scaling is named";
        } else if (s.name == "reach_neighbours" || s.name == "wide_scale") {
            // The anomaly rule may serve: chosen by name, or by a purpose that is anomaly or
            // not yet decided (the app's auto: its Scores view tunes for anomaly ranking).
            s.applies = [](const OptionValues& v, Eigen::Index rows) {
                const std::string& rule = v.text("selection");
                return tuned(v, rows) &&
                       (rule == "anomaly" || (rule == "auto" && v.text("purpose") != "density"));
            };
            s.appliesText = "only with the anomaly rule (purpose anomaly)";
        }
    }
    return t;
}

} // namespace

const OptionTable& dataOptions()
{
    static const OptionTable table = makeDataOptions();
    return table;
}

const OptionTable& kernelOptions()
{
    static const OptionTable table = makeKernelOptions();
    return table;
}

const OptionTable& tuningOptions()
{
    static const OptionTable table = makeTuningOptions();
    return table;
}

OptionTable optionTableFor(const Estimator& estimator)
{
    const Capabilities caps = estimator.capabilities();
    OptionTable t = dataOptions();
    if (caps.usesKernel) {
        for (OptionSpec spec : kernelOptions()) {
            if (!caps.kernels.empty() && spec.name == "kernel") {
                // Only the kernels the estimator has: the first is the default when the
                // shared default is not among them.
                spec.choices = caps.kernels;
                if (std::find(caps.kernels.begin(), caps.kernels.end(), spec.defaultValue) ==
                    caps.kernels.end()) {
                    spec.defaultValue = caps.kernels.front();
                }
            }
            const bool sdoOption =
                spec.name == "sdo_order" || spec.name == "sdo_method" || spec.name == "features";
            const bool backendOption = spec.name == "backend" || spec.name == "rank";
            const bool hasSdo =
                caps.kernels.empty() ||
                std::find(caps.kernels.begin(), caps.kernels.end(), "sdo") != caps.kernels.end();
            if ((sdoOption && !hasSdo) || (backendOption && !caps.kernelBackends)) {
                continue;
            }
            t.push_back(spec);
        }
    }
    if (caps.usesKernel && caps.fisherTuning) {
        t.insert(t.end(), tuningOptions().begin(), tuningOptions().end());
    }
    t.insert(t.end(), estimator.options().begin(), estimator.options().end());
    return t;
}

KernelSpec kernelSpecFrom(const OptionValues& v)
{
    KernelSpec k;
    k.type = kernelTypeFromString(v.text("kernel"));
    k.lengthScale = v.isChoice("length_scale") ? 1.0 : v.real("length_scale");
    // Estimators without SDO or back-end choices have no such options: the defaults stay.
    if (v.has("sdo_order")) {
        k.sdoOrder = v.integer("sdo_order");
        k.sdoMethod = sdoMethodFromString(v.text("sdo_method"));
        k.features = v.integer("features");
    }
    if (v.has("backend")) {
        k.backend = backendChoiceFromString(v.text("backend"));
        k.rank = v.integer("rank");
    }
    k.seed = v.seed("seed");
    return k;
}

SelectionRule resolvedRule(const OptionValues& v)
{
    const std::string& rule = v.text("selection");
    return rule == "auto" ? ruleFor(purposeOf(v)) : selectionRuleFromString(rule);
}

ScalingKind scalingOf(const OptionValues& v)
{
    const ScalingKind asked = scalingKindFromString(v.text("scale"));
    if (asked != ScalingKind::Auto) {
        return asked;
    }
    // Chosen by leave-one-dataset-out over the 42 shared ADBench sets for anomaly ranking;
    // the density purpose's held-out likelihood prefers min-max (docs/performance.md).
    const bool anomaly = v.has("purpose") && v.text("purpose") == "anomaly";
    return anomaly ? ScalingKind::Auto : ScalingKind::MinMax;
}

Purpose purposeOf(const OptionValues& v)
{
    const std::string& p = v.has("purpose") ? v.text("purpose") : std::string("auto");
    return p == "auto" ? Purpose::Density : purposeFromString(p);
}

bool heavyTailed(const MatrixRef& x)
{
    if (x.rows() < 3 || x.cols() == 0) {
        return false;
    }
    std::vector<double> skew;
    for (Eigen::Index j = 0; j < x.cols(); ++j) {
        const double mean = x.col(j).mean();
        const Eigen::ArrayXd c = x.col(j).array() - mean;
        const double m2 = c.square().mean();
        const double m3 = c.cube().mean();
        skew.push_back(m2 > 0.0 ? std::abs(m3) / std::pow(m2, 1.5) : 0.0); // a constant: 0
    }
    std::nth_element(skew.begin(), skew.begin() + skew.size() / 2, skew.end());
    return skew[skew.size() / 2] >= kWideScaleSkewness;
}

SearchConfig searchConfigFrom(const OptionValues& v, const MatrixRef& train)
{
    SearchConfig s = searchConfigFrom(v);
    // Only the anomaly rule reads it: a density fit skips the pass over the rows.
    if (s.rule == SelectionRule::Anomaly && v.has("wide_scale") && v.text("wide_scale") == "auto") {
        s.wideScale = heavyTailed(train);
    }
    return s;
}

SearchConfig searchConfigFrom(const OptionValues& v)
{
    SearchConfig s;
    s.gridSize = v.integer("grid");
    s.purpose = purposeOf(v);
    s.rule = resolvedRule(v);
    s.factor = v.real("fd_factor");
    s.reachNeighbours = v.integer("reach_neighbours");
    s.wideScale = v.text("wide_scale") == "median";
    s.folds = v.integer("fd_folds");
    s.estimator = fdEstimatorFromString(v.text("fd_estimator"));
    const std::string& duplicates = v.text("fd_duplicates");
    s.excludeDuplicates = duplicates == "auto" ? refinesSweep(s.rule) : duplicates == "exclude";
    s.hutchinson.seed = v.seed("seed");
    s.singlePrecision = v.text("fd_precision") == "single";
    return s;
}

} // namespace sosrep
