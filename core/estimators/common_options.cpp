// SPDX-License-Identifier: MIT
#include "core/estimators/common_options.h"

#include "core/data/scaler.h"
#include "core/estimators/estimator.h"

namespace sosrep {
namespace {

bool isSdo(const OptionValues& v)
{
    return v.text("kernel") == "sdo";
}

bool tuned(const OptionValues& v)
{
    return v.text("length_scale") == "auto";
}

} // namespace

const OptionTable& dataOptions()
{
    static const OptionTable table = [] {
        OptionTable t;
        OptionSpec scale;
        scale.name = "scale";
        scale.type = OptionType::Choice;
        scale.choices = {"minmax", "zscore", "none"};
        scale.defaultValue = "minmax";
        scale.label = "Scaling";
        scale.group = "Data";
        scale.valueName = "KIND";
        scale.help = "per-column scaling fitted on the training rows and applied unchanged to "
                     "other rows";
        t.push_back(scale);
        OptionSpec seed;
        seed.name = "seed";
        seed.type = OptionType::Seed;
        seed.defaultValue = "0";
        seed.label = "Seed";
        seed.group = "Data";
        seed.valueName = "S";
        seed.help = "one seed for initialisation, random features, landmarks and the validation "
                    "split (recorded in summaries and model files)";
        t.push_back(seed);
        return t;
    }();
    return table;
}

const OptionTable& kernelOptions()
{
    static const OptionTable table = [] {
        const KernelSpec d;
        OptionTable t;
        OptionSpec kernel;
        kernel.name = "kernel";
        kernel.type = OptionType::Choice;
        kernel.choices = {"gaussian", "laplace", "sdo"};
        kernel.defaultValue = toString(d.type);
        kernel.label = "Kernel";
        kernel.group = "Kernel";
        kernel.valueName = "K";
        kernel.help = "gaussian exp(-r^2/2l^2), laplace exp(-r/l), or sdo, the Sobolev kernel of "
                      "the paper (eq. 11)";
        t.push_back(kernel);
        OptionSpec l;
        l.name = "length_scale";
        l.type = OptionType::RealOrChoice;
        l.choices = {"auto", "scott", "silverman"};
        l.defaultValue = "auto";
        l.minimum = 0.0;
        l.minimumExclusive = true;
        l.logScale = true;
        l.label = "Length scale ℓ";
        l.group = "Kernel";
        l.valueName = "L";
        l.help = "auto (tuned by Fisher divergence), scott, silverman (rules of thumb on the "
                 "scaled data) or a number";
        t.push_back(l);
        OptionSpec order;
        order.name = "sdo_order";
        order.type = OptionType::Integer;
        order.defaultValue = std::to_string(d.sdoOrder);
        order.minimum = 0;
        order.maximum = KernelSpec::kMaxSdoOrder;
        order.label = "SDO order m";
        order.group = "Kernel";
        order.valueName = "M";
        order.help = "SDO order m > d/2 (0 = floor(d/2) + 1)";
        order.applies = [](const OptionValues& v, Eigen::Index) { return isSdo(v); };
        order.appliesText = "only the sdo kernel has an order";
        t.push_back(order);
        OptionSpec method;
        method.name = "sdo_method";
        method.type = OptionType::Choice;
        method.choices = {"rff", "exact"};
        method.defaultValue = toString(d.sdoMethod);
        method.label = "SDO method";
        method.group = "Kernel";
        method.valueName = "M";
        method.help = "rff: random Fourier features (the paper's eq. 12); exact: the radial "
                      "kernel by quadrature";
        method.applies = [](const OptionValues& v, Eigen::Index) { return isSdo(v); };
        method.appliesText = "only the sdo kernel has methods";
        t.push_back(method);
        OptionSpec features;
        features.name = "features";
        features.type = OptionType::Integer;
        features.defaultValue = std::to_string(d.features);
        features.minimum = 1;
        features.maximum = KernelSpec::kMaxFeatures;
        features.limitReason = "every evaluation costs T cosines per point";
        features.label = "SDO features T";
        features.group = "Kernel";
        features.valueName = "T";
        features.help = "random Fourier features for the sdo kernel";
        features.applies = [](const OptionValues& v, Eigen::Index) {
            return isSdo(v) && v.text("sdo_method") == "rff";
        };
        features.appliesText = "only the sdo kernel by random features uses them";
        t.push_back(features);
        OptionSpec backend;
        backend.name = "backend";
        backend.type = OptionType::Choice;
        backend.choices = {"auto", "dense", "lowrank"};
        backend.defaultValue = toString(d.backend);
        backend.label = "Kernel back-end";
        backend.group = "Kernel";
        backend.valueName = "B";
        backend.help = "how K is held: auto = dense up to " +
                       std::to_string(KernelSpec::kAutoDenseRows) +
                       " rows, low rank (Nystroem landmarks or random features) beyond";
        t.push_back(backend);
        OptionSpec rank;
        rank.name = "rank";
        rank.type = OptionType::Integer;
        rank.defaultValue = std::to_string(d.rank);
        rank.minimum = 1;
        rank.maximum = KernelSpec::kMaxRank;
        rank.limitReason = "the M x M eigendecomposition costs M^3";
        rank.label = "Landmarks M";
        rank.group = "Kernel";
        rank.valueName = "M";
        rank.help = "landmarks of the low-rank (Nystroem) back-end";
        rank.applies = [](const OptionValues& v, Eigen::Index rows) {
            const std::string b = v.text("backend");
            const bool lowRank =
                b == "lowrank" || (b == "auto" && rows > KernelSpec::kAutoDenseRows);
            return lowRank && !(isSdo(v) && v.text("sdo_method") == "rff");
        };
        rank.appliesText = "the kernel is not held by Nystroem landmarks here";
        t.push_back(rank);
        return t;
    }();
    return table;
}

const OptionTable& tuningOptions()
{
    static const OptionTable table = [] {
        const SearchConfig d;
        const auto whenTuned = [](const OptionValues& v, Eigen::Index) { return tuned(v); };
        const std::string whenTunedText = "the length scale is not tuned";
        OptionTable t;
        OptionSpec grid;
        grid.name = "grid";
        grid.type = OptionType::Integer;
        grid.defaultValue = std::to_string(d.gridSize);
        grid.minimum = 1;
        grid.maximum = 200;
        grid.limitReason = "each grid point is a whole fit";
        grid.label = "Grid points";
        grid.group = "Length scale";
        grid.valueName = "N";
        grid.help = "length scales tried by auto, log-spaced over two decades each side of the "
                    "median pairwise distance";
        grid.applies = whenTuned;
        grid.appliesText = whenTunedText;
        t.push_back(grid);
        OptionSpec rule;
        rule.name = "selection";
        rule.type = OptionType::Choice;
        rule.choices = {"above-spacing", "paper", "first-local", "likelihood"};
        rule.defaultValue = toString(d.rule);
        rule.label = "Selection rule";
        rule.group = "Length scale";
        rule.valueName = "RULE";
        rule.help = "above-spacing, paper (largest stable local minimum), first-local, or "
                    "likelihood (held-out log-likelihood; normalized densities only)";
        rule.applies = whenTuned;
        rule.appliesText = whenTunedText;
        t.push_back(rule);
        OptionSpec fd;
        fd.name = "fd_estimator";
        fd.type = OptionType::Choice;
        fd.choices = {"analytic", "finite-difference"};
        fd.defaultValue = toString(d.estimator);
        fd.label = "FD estimator";
        fd.group = "Length scale";
        fd.valueName = "E";
        fd.help = "analytic (closed-form Laplacian) or finite-difference (the paper's Hutchinson "
                  "estimator)";
        fd.applies = whenTuned;
        fd.appliesText = whenTunedText;
        t.push_back(fd);
        OptionSpec dup;
        dup.name = "fd_duplicates";
        dup.type = OptionType::Choice;
        dup.choices = {"keep", "exclude"};
        dup.defaultValue = d.excludeDuplicates ? "exclude" : "keep";
        dup.label = "Repeated rows";
        dup.group = "Length scale";
        dup.valueName = "MODE";
        dup.help = "keep or exclude validation rows that repeat a training row";
        dup.applies = whenTuned;
        dup.appliesText = whenTunedText;
        t.push_back(dup);
        return t;
    }();
    return table;
}

OptionTable optionTableFor(const Estimator& estimator)
{
    const Capabilities caps = estimator.capabilities();
    OptionTable t = dataOptions();
    if (caps.usesKernel) {
        t.insert(t.end(), kernelOptions().begin(), kernelOptions().end());
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
    k.sdoOrder = v.integer("sdo_order");
    k.sdoMethod = sdoMethodFromString(v.text("sdo_method"));
    k.features = v.integer("features");
    k.backend = backendChoiceFromString(v.text("backend"));
    k.rank = v.integer("rank");
    k.seed = v.seed("seed");
    return k;
}

SearchConfig searchConfigFrom(const OptionValues& v)
{
    SearchConfig s;
    s.gridSize = v.integer("grid");
    s.rule = selectionRuleFromString(v.text("selection"));
    s.estimator = fdEstimatorFromString(v.text("fd_estimator"));
    s.excludeDuplicates = v.text("fd_duplicates") == "exclude";
    s.hutchinson.seed = v.seed("seed");
    return s;
}

} // namespace sosrep
