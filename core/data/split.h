// SPDX-License-Identifier: MIT
// Train/test splits, k folds, subsamples and ADBench's duplicated anomalies, all seeded.
#pragma once

#include <Eigen/Core>

#include <cstdint>
#include <optional>
#include <vector>

namespace sosrep {

struct SplitIndices
{
    std::vector<Eigen::Index> train;
    std::vector<Eigen::Index> test;
};

/// Random train/test split of n rows; with labels and `stratify`, each class is split in the same
/// proportion (the ADBench protocol uses a stratified 70/30 split). Indices come out sorted.
SplitIndices trainTestSplit(Eigen::Index n, double testFraction, uint64_t seed,
                            const std::optional<Eigen::VectorXi>& labels = std::nullopt,
                            bool stratify = false);

/// A seeded k-fold partition of n rows: fold f is (the other rows, its own rows), every row in
/// exactly one fold's second part; fold sizes differ by at most one. k in [2, n].
std::vector<SplitIndices> kFoldSplits(Eigen::Index n, int k, uint64_t seed);

/// The rows of `x` grouped by value: each group holds the indices of identical rows (equal in
/// every column), groups in the order of their first row. Rows without a copy are groups of one.
std::vector<std::vector<Eigen::Index>>
identicalRowGroups(const Eigen::Ref<const Eigen::MatrixXd>& x);

/// A split of groups (indices into `groups`) as a split of their rows, each part sorted: the
/// copies of a row then never sit on both sides.
SplitIndices rowsOfGroups(const SplitIndices& groupSplit,
                          const std::vector<std::vector<Eigen::Index>>& groups);

/// The rows of x at these indices, in their order (a fold's part, a subsample).
Eigen::MatrixXd rowsOf(const Eigen::Ref<const Eigen::MatrixXd>& x,
                       const std::vector<Eigen::Index>& rows);

/// The entries of v at these indices, in their order (a fold's row weights); empty v: empty.
Eigen::VectorXd entriesOf(const Eigen::VectorXd& v, const std::vector<Eigen::Index>& rows);
/// The indices of `indices` at these positions (a subsample of a fold's rows, say).
std::vector<Eigen::Index> entriesOf(const std::vector<Eigen::Index>& indices,
                                    const std::vector<Eigen::Index>& at);

/// Up to `maxRows` row indices drawn without replacement (all rows when n <= maxRows), sorted.
std::vector<Eigen::Index> subsampleRows(Eigen::Index n, Eigen::Index maxRows, uint64_t seed);

/// ADBench's duplicated-anomalies setting (DataGenerator.add_duplicated_anomalies), applied to a
/// train or a test part: the normal rows once each, then floor(factor x #anomalies) anomaly rows
/// drawn with replacement, in seeded random order. factor <= 1 returns the rows unchanged.
std::vector<Eigen::Index> duplicatedAnomalyRows(const Eigen::VectorXi& labels, double factor,
                                                uint64_t seed);

} // namespace sosrep
