// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <vector>

namespace sosrep {

enum class FdEstimator
{
    Analytic,        // closed-form gradient and Laplacian of the kernel sums
    FiniteDifference // the paper's Hutchinson finite-difference trace (Alg. 1 / 6)
};
std::string toString(FdEstimator e);
FdEstimator fdEstimatorFromString(const std::string& text); // ParameterError("fd_estimator")

enum class SelectionRule
{
    /// The paper's rule (App. I.2): the largest l that is a stable local minimum (smaller than its
    /// 3 neighbours on each side), else the global minimum.
    StableLocalMinimum,
    /// Walk down from the largest l and take the first local minimum (smaller than both
    /// neighbours), else the global minimum.
    FirstLocalMinimum,
    /// The paper's rule restricted to l >= the data's median nearest-neighbour distance: below the
    /// typical sample spacing each point gets its own bump and score matching rewards ever
    /// peakier models without bound, so that end of the curve carries no information.
    StableAboveSpacing,
    /// KDE only: the l with the highest mean log density of the validation rows (held-out
    /// likelihood; meaningless for SOSREP's unnormalized pre-density, so refused there).
    HeldOutLikelihood,
    /// The default, for anomaly ranking: the paper's choice l_FD, then the grid point nearest
    /// to 2 l_FD (the factor is the option fd_factor). Fisher divergence is a density criterion
    /// dominated by the bulk of the data; ranking rare rows needs a smoother estimate there
    /// (README, "Choosing l without labels": chosen by leave-one-dataset-out on the 14 shared
    /// ADBench sets).
    DoubledStableMinimum,
    /// A rank ensemble: the grid points nearest to l_FD, 2 l_FD and 4 l_FD; the model's value is
    /// the mean, over members, of a row's mid-rank among the validation rows (rank_ensemble.h).
    RankEnsemble
};
std::string toString(SelectionRule r);
SelectionRule selectionRuleFromString(const std::string& text); // ParameterError("selection")

/// Which grid point a rule picked, and why.
struct Selection
{
    int index = -1;
    /// "stable_local_minimum", "first_local_minimum", "global_minimum_fallback" or
    /// "held_out_likelihood_maximum"; the doubled and ensemble rules add "_doubled" or
    /// "_ensemble" to the reason of the FD choice they start from.
    std::string reason;
    int fdIndex = -1;         // the Fisher-divergence choice (equals index for the FD rules)
    std::vector<int> members; // the ensemble's grid points (RankEnsemble only), l increasing
};

/// The rule and its choice in a sentence, for summaries and the FD view.
std::string describeSelection(SelectionRule rule, const Selection& s);

/// Applies a rule to a curve sorted by increasing l. Non-finite values never count as minima.
/// `spacing` is the lower limit for StableAboveSpacing (ignored by the other rules). For
/// HeldOutLikelihood, `values` are negative mean held-out log densities: the global minimum wins.
/// `factor` is the ranking rule's multiple of the FD choice (2 by default; 1 is the paper's).
Selection selectLengthScale(const std::vector<double>& lengthScales,
                            const std::vector<double>& values, SelectionRule rule,
                            double spacing = 0.0, int neighbours = 3, double factor = 2.0);

/// `count` log-spaced values from centre * 10^-decades to centre * 10^decades.
std::vector<double> logSpacedGrid(double centre, int count, double decades);

} // namespace sosrep
