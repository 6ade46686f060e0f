// SPDX-License-Identifier: MIT
// How a point of the Fisher-divergence curve is chosen, per purpose.
#pragma once

// Which length scale a tuning sweep hands to the final fit: the purposes, the rules that serve
// them, and the rules of the paper and of earlier releases that stay selectable.

#include <string>
#include <vector>

namespace sosrep {

/// What the tuned length scale is for. The two want different things (README, "Choosing l
/// without labels"): a density to look at wants the density criterion's own minimum; ranking
/// rows as anomalies wants a row to be judged at a scale where a small clump of near-copies
/// cannot make itself look dense.
enum class Purpose
{
    Density,
    Anomaly
};
std::string toString(Purpose p);
Purpose purposeFromString(const std::string& text); // ParameterError("purpose")

enum class SelectionRule
{
    /// The density purpose's rule: the minimum of the Fisher divergence, located by the
    /// paper's stable-minimum test on the log grid, with the grid extended below its lower edge
    /// when the minimum lies within the test's reach of it, then refined by the two geometric
    /// midpoints beside it (the lowest of the three wins). Validation rows that repeat a
    /// fitting row are left out (score matching assumes a continuous density).
    Density,
    /// The anomaly purpose's rule: two views of the data, combined by the maximum of their
    /// anomaly ranks. One at the density rule's l (each row judged at the density's own
    /// scale), one at the neighbourhood reach l_k (a row judged against about k neighbours, so
    /// that a clump of fewer than k near-copies cannot make itself dense); see NeighbourReach.
    Anomaly,
    /// The paper's rule (App. I.2): the largest l that is a stable local minimum (smaller than its
    /// 3 neighbours on each side), else the global minimum.
    StableLocalMinimum,
    /// The authors' code (SOSREP.fit_predict): the largest l whose round(log(1 + J + |min J|))
    /// is below its 3 grid neighbours on each side (scipy's argrelextrema, indices clipped at
    /// the ends, so the integer rounding makes plateaus that are never minima), else the
    /// smallest J.
    AuthorsCode,
    /// Walk down from the largest l and take the first local minimum (smaller than both
    /// neighbours), else the global minimum.
    FirstLocalMinimum,
    /// The paper's rule restricted to l >= the data's median nearest-neighbour distance.
    StableAboveSpacing,
    /// The l with the highest mean log density of the validation rows (held-out likelihood;
    /// normalized densities only).
    HeldOutLikelihood,
    /// The former default: the grid point nearest fd_factor x the paper's choice.
    DoubledStableMinimum,
    /// A rank ensemble: the grid points nearest to l_FD, 2 l_FD and 4 l_FD; the model's value is
    /// the mean, over members, of a row's mid-rank among the validation rows (rank_ensemble.h).
    RankEnsemble
};
std::string toString(SelectionRule r);
/// A rule by name; "auto" is resolved by the caller (ruleFor). ParameterError("selection").
SelectionRule selectionRuleFromString(const std::string& text);
/// The rule `selection=auto` means for a purpose.
SelectionRule ruleFor(Purpose p);
/// True for the rules that ask the sweep for more points than its grid (extension below the
/// lower edge, refinement around the minimum) and leave repeated validation rows out.
bool refinesSweep(SelectionRule r);

/// How the members of a multi-scale model are combined.
enum class Combination
{
    MeanRank, // the mean of the members' mid-ranks (the "ensemble" rule)
    MaxRank   // the largest of the members' anomaly ranks (the "anomaly" rule)
};

/// Which point of a curve a rule picked, and why.
struct Selection
{
    int index = -1;
    /// "stable_local_minimum", "first_local_minimum", "global_minimum_fallback",
    /// "held_out_likelihood_maximum", "refined_minimum"; the ranking, ensemble and anomaly
    /// rules add "_doubled", "_ensemble" or "_two_scale" to the reason of the FD choice they
    /// start from.
    std::string reason;
    int fdIndex = -1;         // the Fisher-divergence choice (equals index for the FD rules)
    std::vector<int> members; // the ensemble's grid points (RankEnsemble only), l increasing
    /// Multi-scale models (RankEnsemble, Anomaly): the members' length scales, increasing, and
    /// how their ranks combine. Empty for a single model.
    std::vector<double> memberScales;
    Combination combination = Combination::MeanRank;
};

/// One sweep as the rules see it: length scales increasing, values (+inf where invalid), and
/// which points refine the grid (they are off its log spacing: the stable-minimum test skips
/// them).
struct CurveView
{
    std::vector<double> lengthScales;
    std::vector<double> values;
    std::vector<bool> refinement; // empty: none
    double spacing = 0.0;         // the above-spacing rule's floor
    double reach = 0.0;           // the anomaly rule's neighbourhood scale (0: none)
    double centre = 0.0;          // the grid's centre: the median pairwise distance
};

struct RuleParameters
{
    int neighbours = 3;  // the stable-minimum test's reach on each side
    double factor = 2.0; // the ranking rule's multiple of the FD choice
    /// The anomaly rule's third scale: the median pairwise distance (wide_scale=median), at
    /// which a row far from the bulk in a few columns is seen as one.
    bool wideScale = false;
};

/// Applies a rule to a curve. Non-finite values never count as minima. For HeldOutLikelihood
/// the values are negative mean held-out log densities (the global minimum wins).
Selection selectLengthScale(const CurveView& curve, SelectionRule rule,
                            const RuleParameters& parameters = {});

/// The next point a refining rule wants evaluated after `curve` (0: none). While no stable
/// minimum exists and the global minimum lies within the stable test's reach of the lower
/// edge, one grid step (`gridRatio`) below the lowest point, at most `extensionBudget` times
/// in all (the caller counts); then the geometric midpoints beside the minimum, once each.
struct PendingPoint
{
    double lengthScale = 0.0; // 0: nothing pending
    bool refinement = false;  // a midpoint (off the log grid), not a grid extension
};
PendingPoint nextPendingPoint(const CurveView& curve, const RuleParameters& parameters,
                              double gridRatio, int extensionBudget);

/// The rule and its choice in a sentence, for summaries and the FD view.
std::string describeSelection(SelectionRule rule, const Selection& s);

/// `count` log-spaced values from centre * 10^-decades to centre * 10^decades.
std::vector<double> logSpacedGrid(double centre, int count, double decades);

} // namespace sosrep
