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
    throw ParameterError("selection",
                         "unknown rule '" + text +
                             "' (use above-spacing, paper, first-local or likelihood)");
}

Selection selectLengthScale(const std::vector<double>& lengthScales,
                            const std::vector<double>& values, SelectionRule rule, double spacing,
                            int neighbours)
{
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
            return {i, k == 1 ? "first_local_minimum" : "stable_local_minimum"};
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
