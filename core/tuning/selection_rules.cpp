// SPDX-License-Identifier: MIT
// How a point of the Fisher-divergence curve is chosen, per purpose.
#include "core/tuning/selection_rules.h"

#include "core/errors.h"
#include "core/util/text.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace sosrep {

std::string toString(Purpose p)
{
    return p == Purpose::Density ? "density" : "anomaly";
}

Purpose purposeFromString(const std::string& text)
{
    if (text == "density") {
        return Purpose::Density;
    }
    if (text == "anomaly") {
        return Purpose::Anomaly;
    }
    throw ParameterError("purpose",
                         "unknown purpose " + quotedText(text) + " (use density or anomaly)");
}

std::string toString(SelectionRule r)
{
    switch (r) {
    case SelectionRule::Density:
        return "density";
    case SelectionRule::Anomaly:
        return "anomaly";
    case SelectionRule::StableLocalMinimum:
        return "paper";
    case SelectionRule::AuthorsCode:
        return "paper-code";
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
    for (SelectionRule r :
         {SelectionRule::Density, SelectionRule::Anomaly, SelectionRule::StableLocalMinimum,
          SelectionRule::AuthorsCode, SelectionRule::FirstLocalMinimum,
          SelectionRule::StableAboveSpacing, SelectionRule::HeldOutLikelihood,
          SelectionRule::DoubledStableMinimum, SelectionRule::RankEnsemble}) {
        if (toString(r) == text) {
            return r;
        }
    }
    throw ParameterError("selection", "unknown rule " + quotedText(text) +
                                          "' (use auto, density, anomaly, paper, paper-code, "
                                          "ranking, ensemble, above-spacing, first-local or "
                                          "likelihood)");
}

SelectionRule ruleFor(Purpose p)
{
    return p == Purpose::Density ? SelectionRule::Density : SelectionRule::Anomaly;
}

bool refinesSweep(SelectionRule r)
{
    return r == SelectionRule::Density || r == SelectionRule::Anomaly;
}

namespace {

/// The points of a curve on its log grid (refinement midpoints left out), in increasing l.
std::vector<int> gridPoints(const CurveView& c)
{
    std::vector<int> out;
    for (size_t i = 0; i < c.values.size(); ++i) {
        if (c.refinement.empty() || !c.refinement[i]) {
            out.push_back(int(i));
        }
    }
    return out;
}

bool finite(const CurveView& c, int i)
{
    return std::isfinite(c.values[size_t(i)]);
}

/// The largest grid point from position `lowest` on that is below its k grid neighbours on
/// each side (all of them inside [lowest, end)); -1 when none. Returns the curve index.
int stableMinimum(const CurveView& c, const std::vector<int>& grid, int k, int lowest)
{
    const int n = int(grid.size());
    auto v = [&](int pos) { return c.values[size_t(grid[size_t(pos)])]; };
    for (int i = n - 1; i >= lowest; --i) {
        if (!finite(c, grid[size_t(i)]) || i - k < lowest || i + k >= n) {
            continue;
        }
        bool ok = true;
        for (int j = 1; j <= k && ok; ++j) {
            ok = v(i) < v(i - j) && v(i) < v(i + j);
        }
        if (ok) {
            return grid[size_t(i)];
        }
    }
    return -1;
}

/// The grid point with the smallest finite value from position `lowest` on; -1 when none.
int globalMinimum(const CurveView& c, const std::vector<int>& grid, int lowest)
{
    int best = -1;
    double value = std::numeric_limits<double>::infinity();
    for (size_t i = size_t(std::max(lowest, 0)); i < grid.size(); ++i) {
        const double v = c.values[size_t(grid[i])];
        if (std::isfinite(v) && v < value) {
            value = v;
            best = grid[i];
        }
    }
    return best;
}

int positionOf(const std::vector<int>& grid, int index)
{
    return int(std::find(grid.begin(), grid.end(), index) - grid.begin());
}

/// The finite grid point at or above position `from` whose l is nearest to `target` in log
/// scale (curve index).
int nearestAbove(const CurveView& c, const std::vector<int>& grid, int from, double target)
{
    int best = grid[size_t(from)];
    double gap = std::numeric_limits<double>::infinity();
    for (size_t i = size_t(from); i < grid.size(); ++i) {
        const double g = std::abs(std::log(c.lengthScales[size_t(grid[i])] / target));
        if (finite(c, grid[i]) && g < gap) {
            gap = g;
            best = grid[i];
        }
    }
    return best;
}

/// The minimum-finding rules on the grid points (paper, first-local, above-spacing).
Selection gridMinimum(const CurveView& c, SelectionRule rule, int neighbours)
{
    const std::vector<int> grid = gridPoints(c);
    int lowest = 0;
    if (rule == SelectionRule::StableAboveSpacing) {
        while (lowest < int(grid.size()) &&
               c.lengthScales[size_t(grid[size_t(lowest)])] < c.spacing) {
            ++lowest;
        }
        if (lowest >= int(grid.size())) {
            lowest = 0;
        }
    }
    const int k = rule == SelectionRule::FirstLocalMinimum ? 1 : neighbours;
    Selection s;
    if (rule != SelectionRule::HeldOutLikelihood) {
        s.index = stableMinimum(c, grid, k, lowest);
        if (s.index >= 0) {
            s.reason = k == 1 ? "first_local_minimum" : "stable_local_minimum";
            s.fdIndex = s.index;
            return s;
        }
    }
    s.index = globalMinimum(c, grid, lowest);
    s.reason = rule == SelectionRule::HeldOutLikelihood ? "held_out_likelihood_maximum"
                                                        : "global_minimum_fallback";
    s.fdIndex = s.index;
    return s;
}

/// The authors' code's choice: the last strict minimum of the rounded log curve over a
/// window of k grid points each side, neighbours beyond the ends clipped to the end points
/// (scipy.signal.argrelextrema(..., np.less, order=k), mode 'clip'); else the smallest value.
Selection authorsChoice(const CurveView& c, int k)
{
    const std::vector<int> grid = gridPoints(c);
    const int n = int(grid.size());
    double lowest = std::numeric_limits<double>::infinity();
    for (int i : grid) {
        if (finite(c, i)) {
            lowest = std::min(lowest, c.values[size_t(i)]);
        }
    }
    std::vector<double> rounded(size_t(n), std::numeric_limits<double>::quiet_NaN());
    for (int a = 0; a < n; ++a) {
        const double v = c.values[size_t(grid[size_t(a)])];
        if (std::isfinite(v)) {
            rounded[size_t(a)] = std::nearbyint(std::log(1.0 + v + std::abs(lowest)));
        }
    }
    Selection s;
    for (int i = n - 1; i >= 0; --i) {
        bool ok = std::isfinite(rounded[size_t(i)]);
        for (int j = 1; j <= k && ok; ++j) {
            const double left = rounded[size_t(std::max(i - j, 0))];
            const double right = rounded[size_t(std::min(i + j, n - 1))];
            ok = rounded[size_t(i)] < left && rounded[size_t(i)] < right;
        }
        if (ok) {
            s.index = grid[size_t(i)];
            s.reason = "stable_local_minimum_rounded";
            s.fdIndex = s.index;
            return s;
        }
    }
    s.index = globalMinimum(c, grid, 0);
    s.reason = "global_minimum_fallback";
    s.fdIndex = s.index;
    return s;
}

/// The density rule: the paper's choice on the grid, then the lowest of it and the refinement
/// midpoints between its grid neighbours.
Selection densityChoice(const CurveView& c, int neighbours)
{
    Selection s = gridMinimum(c, SelectionRule::StableLocalMinimum, neighbours);
    if (s.index < 0 || c.refinement.empty()) {
        return s;
    }
    const std::vector<int> grid = gridPoints(c);
    const int pos = positionOf(grid, s.index);
    const double lo = pos > 0 ? c.lengthScales[size_t(grid[size_t(pos - 1)])] : 0.0;
    const double hi = pos + 1 < int(grid.size()) ? c.lengthScales[size_t(grid[size_t(pos + 1)])]
                                                 : std::numeric_limits<double>::infinity();
    int best = s.index;
    for (size_t i = 0; i < c.values.size(); ++i) {
        const double l = c.lengthScales[i];
        if (c.refinement[i] && l > lo && l < hi && finite(c, int(i)) &&
            c.values[i] < c.values[size_t(best)]) {
            best = int(i);
        }
    }
    if (best != s.index) {
        s.reason += "_refined";
    }
    s.index = best;
    s.fdIndex = best;
    return s;
}

} // namespace

Selection selectLengthScale(const CurveView& c, SelectionRule rule, const RuleParameters& p)
{
    switch (rule) {
    case SelectionRule::Density:
        return densityChoice(c, p.neighbours);
    case SelectionRule::AuthorsCode:
        return authorsChoice(c, p.neighbours);
    case SelectionRule::Anomaly: {
        Selection s = densityChoice(c, p.neighbours);
        if (s.index < 0) {
            return s;
        }
        const double a = c.lengthScales[size_t(s.index)];
        s.memberScales = {a};
        if (c.reach > a * (1.0 + 1e-9)) {
            s.memberScales.push_back(c.reach);
        }
        if (p.wideScale && c.centre > s.memberScales.back() * (1.0 + 1e-9)) {
            s.memberScales.push_back(c.centre);
        }
        s.combination = Combination::MaxRank;
        s.reason += "_two_scale";
        return s;
    }
    case SelectionRule::DoubledStableMinimum:
    case SelectionRule::RankEnsemble: {
        Selection s = gridMinimum(c, SelectionRule::StableLocalMinimum, p.neighbours);
        if (s.index < 0) {
            return s;
        }
        const std::vector<int> grid = gridPoints(c);
        const int pos = positionOf(grid, s.index);
        const double l = c.lengthScales[size_t(s.index)];
        if (rule == SelectionRule::DoubledStableMinimum) {
            s.index = nearestAbove(c, grid, pos, p.factor * l);
            s.reason += "_doubled";
            return s;
        }
        s.members = {s.index};
        for (double factor : {2.0, 4.0}) {
            const int m = nearestAbove(c, grid, pos, factor * l);
            if (m != s.members.back()) {
                s.members.push_back(m);
            }
        }
        for (int m : s.members) {
            s.memberScales.push_back(c.lengthScales[size_t(m)]);
        }
        s.combination = Combination::MeanRank;
        s.reason += "_ensemble";
        return s;
    }
    default:
        return gridMinimum(c, rule, p.neighbours);
    }
}

PendingPoint nextPendingPoint(const CurveView& c, const RuleParameters& p, double gridRatio,
                              int extensionBudget)
{
    const std::vector<int> grid = gridPoints(c);
    if (grid.empty()) {
        return {};
    }
    int choice = stableMinimum(c, grid, p.neighbours, 0);
    if (choice < 0) {
        choice = globalMinimum(c, grid, 0);
        // The minimum may lie below the grid: step down while it sits within the stable
        // test's reach of the lower edge (and the edge itself could be fitted).
        if (choice >= 0 && positionOf(grid, choice) < p.neighbours && extensionBudget > 0 &&
            finite(c, grid.front()) && gridRatio > 1.0) {
            return {c.lengthScales[size_t(grid.front())] / gridRatio, false};
        }
    }
    if (choice < 0) {
        return {};
    }
    const int pos = positionOf(grid, choice);
    const double l = c.lengthScales[size_t(choice)];
    for (int side : {-1, 1}) {
        const int q = pos + side;
        if (q < 0 || q >= int(grid.size())) {
            continue;
        }
        const double mid = std::sqrt(l * c.lengthScales[size_t(grid[size_t(q)])]);
        const bool have = std::any_of(c.lengthScales.begin(), c.lengthScales.end(),
                                      [mid](double x) { return std::abs(x / mid - 1.0) < 1e-9; });
        if (!have) {
            return {mid, true};
        }
    }
    return {};
}

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
    if (s.reason.find("_refined") != std::string::npos) {
        fd += ", refined between its grid neighbours";
    }
    switch (rule) {
    case SelectionRule::Density:
        return "for the density: " + fd;
    case SelectionRule::Anomaly:
        return s.memberScales.size() > 1
                   ? "for anomaly ranking: the larger anomaly rank at " + fd +
                         " and at the neighbourhood reach (a row against its nearest neighbours)"
                   : "for anomaly ranking: " + fd +
                         " (the neighbourhood reach is no larger: one scale)";
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
