// SPDX-License-Identifier: MIT
#include "core/tuning/fisher_divergence.h"

#include "core/errors.h"

#include <cmath>
#include <limits>

namespace sosrep {

std::string toString(FdEstimator e)
{
    return e == FdEstimator::Analytic ? "analytic" : "finite-difference";
}

FdEstimator fdEstimatorFromString(const std::string& text)
{
    if (text == "analytic") {
        return FdEstimator::Analytic;
    }
    if (text == "finite-difference" || text == "hutchinson") {
        return FdEstimator::FiniteDifference;
    }
    throw ParameterError("fd_estimator",
                         "unknown estimator '" + text + "' (use analytic or finite-difference)");
}

std::string toString(SelectionRule r)
{
    switch (r) {
    case SelectionRule::StableLocalMinimum:
        return "paper";
    case SelectionRule::FirstLocalMinimum:
        return "first-local";
    case SelectionRule::StableAboveSpacing:
        return "above-spacing";
    case SelectionRule::HeldOutLikelihood:
        return "likelihood";
    case SelectionRule::DoubledStableMinimum:
        return "ranking";
    case SelectionRule::RankEnsemble:
        return "ensemble";
    }
    return "paper";
}

SelectionRule selectionRuleFromString(const std::string& text)
{
    if (text == "paper") {
        return SelectionRule::StableLocalMinimum;
    }
    if (text == "first-local") {
        return SelectionRule::FirstLocalMinimum;
    }
    if (text == "above-spacing") {
        return SelectionRule::StableAboveSpacing;
    }
    if (text == "likelihood") {
        return SelectionRule::HeldOutLikelihood;
    }
    if (text == "ranking") {
        return SelectionRule::DoubledStableMinimum;
    }
    if (text == "ensemble") {
        return SelectionRule::RankEnsemble;
    }
    throw ParameterError("selection", "unknown rule '" + text +
                                          "' (use ranking, ensemble, paper, above-spacing, "
                                          "first-local or likelihood)");
}

namespace {

/// The finite grid point at or above `from` whose l is nearest to `target` in log scale.
int nearestAbove(const std::vector<double>& ls, const std::vector<double>& values, int from,
                 double target)
{
    int best = from;
    double gap = std::numeric_limits<double>::infinity();
    for (int i = from; i < static_cast<int>(ls.size()); ++i) {
        const double g = std::abs(std::log(ls[static_cast<size_t>(i)] / target));
        if (std::isfinite(values[static_cast<size_t>(i)]) && g < gap) {
            gap = g;
            best = i;
        }
    }
    return best;
}

} // namespace

std::string describeSelection(SelectionRule rule, const Selection& s)
{
    std::string fd;
    if (s.reason.rfind("stable_local_minimum", 0) == 0) {
        fd = rule == SelectionRule::StableAboveSpacing
                 ? "the largest stable local minimum of the Fisher divergence above the data's "
                   "nearest-neighbour spacing"
                 : "the largest stable local minimum of the Fisher divergence";
    } else if (s.reason.rfind("first_local_minimum", 0) == 0) {
        fd = "the first local minimum of the Fisher divergence from large l down";
    } else if (s.reason.rfind("held_out_likelihood", 0) == 0) {
        fd = "the highest held-out log-likelihood";
    } else {
        fd = "the global minimum of the Fisher divergence (no stable local minimum where the "
             "rule looks)";
    }
    switch (rule) {
    case SelectionRule::DoubledStableMinimum:
        return "a multiple of " + fd +
               " (the grid point nearest fd_factor x l_FD: smoother, for "
               "ranking rare rows)";
    case SelectionRule::RankEnsemble:
        return "a rank ensemble of " + std::to_string(s.members.size()) + " length scales from " +
               fd + " up (l_FD, 2 l_FD, 4 l_FD)";
    default:
        return fd;
    }
}

Selection selectLengthScale(const std::vector<double>& lengthScales,
                            const std::vector<double>& values, SelectionRule rule, double spacing,
                            int neighbours, double factor)
{
    if (rule == SelectionRule::DoubledStableMinimum || rule == SelectionRule::RankEnsemble) {
        Selection s = selectLengthScale(lengthScales, values, SelectionRule::StableLocalMinimum,
                                        spacing, neighbours);
        if (s.index < 0) {
            return s;
        }
        s.fdIndex = s.index;
        const double l = lengthScales[static_cast<size_t>(s.index)];
        if (rule == SelectionRule::DoubledStableMinimum) {
            s.index = nearestAbove(lengthScales, values, s.index, factor * l);
            s.reason += "_doubled";
            return s;
        }
        s.members = {s.index};
        for (double factor : {2.0, 4.0}) {
            const int m = nearestAbove(lengthScales, values, s.index, factor * l);
            if (m != s.members.back()) {
                s.members.push_back(m);
            }
        }
        s.reason += "_ensemble";
        return s;
    }
    const int n = static_cast<int>(values.size());
    auto finite = [&](int i) { return std::isfinite(values[static_cast<size_t>(i)]); };
    auto v = [&](int i) { return values[static_cast<size_t>(i)]; };
    int lowest = 0;
    if (rule == SelectionRule::StableAboveSpacing) {
        while (lowest < n && lengthScales[static_cast<size_t>(lowest)] < spacing) {
            ++lowest;
        }
        if (lowest >= n) {
            lowest = 0;
        }
    }
    // Minimum in the strict sense over the neighbours that exist inside [lowest, n).
    auto isLocalMin = [&](int i, int k) {
        if (!finite(i) || i - k < lowest || i + k >= n) {
            return false;
        }
        for (int j = 1; j <= k; ++j) {
            if (!(v(i) < v(i - j)) || !(v(i) < v(i + j))) {
                return false;
            }
        }
        return true;
    };
    const int k = rule == SelectionRule::FirstLocalMinimum ? 1 : neighbours;
    for (int i = n - 1; i >= lowest && rule != SelectionRule::HeldOutLikelihood; --i) {
        if (isLocalMin(i, k)) {
            return {i, k == 1 ? "first_local_minimum" : "stable_local_minimum", i, {}};
        }
    }
    Selection s;
    double best = std::numeric_limits<double>::infinity();
    for (int i = lowest; i < n; ++i) {
        if (finite(i) && v(i) < best) {
            best = v(i);
            s.index = i;
        }
    }
    s.reason = rule == SelectionRule::HeldOutLikelihood ? "held_out_likelihood_maximum"
                                                        : "global_minimum_fallback";
    s.fdIndex = s.index;
    return s;
}

std::vector<double> logSpacedGrid(double centre, int count, double decades)
{
    if (count < 1) {
        throw ParameterError("grid", "must be at least 1");
    }
    if (!(centre > 0.0)) {
        throw ParameterError("length_scale", "grid centre must be positive");
    }
    std::vector<double> grid(static_cast<size_t>(count));
    for (int i = 0; i < count; ++i) {
        const double e = count == 1 ? 0.0 : -decades + 2.0 * decades * i / (count - 1);
        grid[static_cast<size_t>(i)] = centre * std::pow(10.0, e);
    }
    return grid;
}

} // namespace sosrep
