// SPDX-License-Identifier: MIT
#pragma once

#include "core/estimators/estimator.h"
#include "core/tuning/selection_rules.h"

#include <memory>
#include <string>
#include <vector>

namespace sosrep {

/// A rank ensemble of models of one estimator at several length scales (the "ensemble" and
/// "anomaly" selection rules). Each member's values are turned into a mid-rank among the values
/// it gives the reference rows (the tuning's validation rows, stored with the model), so members
/// with very different scales weigh the same:
///   rank_m(x) = [#{r : v_m(r) < v_m(x)} + 1/2 #{r : v_m(r) = v_m(x)}] / R,
/// values within 1e-10 (relative) of a reference value counting as equal to it. Beyond the
/// reference range the rank goes on continuously instead of tying at 0 (or 1): below the
/// lowest reference value v_(1), rank = 1/(2R) exp(-(v_(1) - v) / s) with s the reference
/// values' interquartile range (and symmetrically above), so rows rarer than every reference
/// row still rank among themselves; with few reference rows (71 on the smallest MVTec set)
/// the anomalies of a set would otherwise tie.
/// The model's value, in [0, 1], larger = more typical (DensityKind::Score), is
///   MeanRank: (1/M) sum_m rank_m(x);   MaxRank: min_m rank_m(x)
/// (the largest anomaly rank 1 - rank_m: a row is as anomalous as its most anomalous view).
/// A row's value does not depend on the other rows scored with it, so `score` reproduces it
/// exactly from the model file.
class RankEnsembleModel final : public FittedModel
{
public:
    struct Member
    {
        double lengthScale = 0.0;
        std::shared_ptr<const FittedModel> model;
        Vector reference; // the member's values at the reference rows, sorted
    };

    /// Members from fitted models; `referenceRows` are evaluated once by each.
    static std::unique_ptr<RankEnsembleModel>
    build(const std::vector<std::pair<double, std::shared_ptr<const FittedModel>>>& members,
          const MatrixRef& referenceRows, Combination combination = Combination::MeanRank);
    /// Rebuilds what save() wrote: the members through `estimator`'s loader with `kernel` at each
    /// member's length scale. Malformed entries throw ParameterError naming them.
    static std::unique_ptr<RankEnsembleModel>
    load(const Estimator& estimator, const ParameterMap& parameters, const KernelSpec& kernel);
    /// True when a model file's parameters hold an ensemble.
    static bool isEnsemble(const ParameterMap& parameters);

    std::string estimator() const override { return m_members.front().model->estimator(); }
    DensityKind kind() const override { return DensityKind::Score; }
    LogDensity logValues(const MatrixRef& y) const override;
    const KernelOperator* kernel() const override { return m_members.front().model->kernel(); }
    void save(ParameterMap& out) const override;
    SummaryFields summary() const override;

    const std::vector<Member>& members() const { return m_members; }
    Combination combination() const { return m_combination; }
    /// Spearman correlations of the members' rankings of the reference rows, over all pairs.
    double minimumAgreement() const { return m_minAgreement; }
    double meanAgreement() const { return m_meanAgreement; }

private:
    RankEnsembleModel(std::vector<Member> members, double minAgreement, double meanAgreement,
                      Combination combination);

    std::vector<Member> m_members;
    Combination m_combination = Combination::MeanRank;
    double m_minAgreement = 1.0;
    double m_meanAgreement = 1.0;
};

/// Mid-ranks of `values` scaled to (0, 1): (rank - 1/2) / n with ties sharing their mean rank.
Vector midRanks(const Vector& values);

/// The rank of x among the sorted `reference` values as RankEnsembleModel defines it (mid-rank
/// with the tie tolerance inside the range, the continuous tails outside).
double referenceRank(const Vector& sortedReference, double x);

/// Spearman's rank correlation: the Pearson correlation of the mid-ranks (1 when either side is
/// constant, by convention: no ranking to disagree with).
double spearman(const Vector& a, const Vector& b);

} // namespace sosrep
