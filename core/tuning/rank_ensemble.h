// SPDX-License-Identifier: MIT
// An ensemble of length scales whose anomaly scores are combined by rank.
#pragma once

#include "core/estimators/estimator.h"
#include "core/tuning/selection_rules.h"

#include <memory>
#include <string>
#include <vector>

namespace sosrep {

/// A rank ensemble of models of one estimator at several length scales (the "ensemble" and
/// "anomaly" selection rules). Each member's values are turned into a rank among the values it
/// gives the reference rows (the tuning's validation rows, stored with the model), so members
/// with very different scales weigh the same. The rank is the reference values' empirical
/// distribution function made continuous (referenceRank): a reference value's mid-rank
///   [#{r : v_m(r) < v} + 1/2 #{r : v_m(r) = v}] / R
/// at each reference value (within 1e-10 relative), linear between neighbouring ones, and
/// beyond the range c_(1) exp(-(v_(1) - v) / s) below (c_(1) the lowest mid-rank, s the
/// reference values' interquartile range) and symmetrically above. A step function would tie
/// every row between two reference values: with few reference rows (71 on the smallest MVTec
/// set) the anomalies of a set tied among themselves and with normal rows.
/// The model's value, in [0, 1], larger = more typical (DensityKind::Score), is
///   MeanRank: (1/M) sum_m rank_m(x);   MaxRank: min_m rank_m(x)
/// (the largest anomaly rank 1 - rank_m: a row is as anomalous as its most anomalous view).
/// Like every model's values, a row's value is the same alone or in a batch up to round-off
/// (the kernel sums are blocked), and `score` reproduces the file's model exactly.
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
    LogDensity modelLogValues(const MatrixRef& y) const override;
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

/// The rank of x among the sorted `reference` values as RankEnsembleModel defines it (mid-ranks
/// at the reference values, linear between them, continuous tails outside).
double referenceRank(const Vector& sortedReference, double x);

/// Spearman's rank correlation: the Pearson correlation of the mid-ranks (1 when either side is
/// constant, by convention: no ranking to disagree with).
double spearman(const Vector& a, const Vector& b);

} // namespace sosrep
