// SPDX-License-Identifier: MIT
// ADBench's data generator (DataGenerator.generator, unsupervised setting): which rows of a
// data set make its training and test parts for a seed, drawn as its Python code draws them.
#pragma once

#include <Eigen/Core>

#include <cstdint>
#include <vector>

namespace sosrep {

struct AdbenchGeneratorOptions
{
    /// ADBench's generate_duplicates: a set of fewer than `smallRows` rows is first redrawn to
    /// that many with replacement (so the two parts share copies of rows). ADBench's default
    /// is on; the SOSREP authors' loader turns it off.
    bool resampleSmall = true;
    Eigen::Index smallRows = 1000;
    Eigen::Index maxRows = 10000; // larger sets: this many rows without replacement
    double testFraction = 0.3;
    /// noise_type='duplicated_anomalies' with duplicate_times: each part's anomalies redrawn
    /// floor(times x count) times with replacement, after the split. 1 = off.
    double duplicateTimes = 1.0;
};

/// The rows of each part, as indices into the data set's rows, in the order ADBench's
/// generator leaves them (train and test shuffled; a redrawn row appears more than once).
struct AdbenchParts
{
    std::vector<Eigen::Index> train;
    std::vector<Eigen::Index> test;
};

/// The generator's draws for `seed` (np.random.seed and random.seed): the redraw of a small
/// set, the subsample of a large one, scikit-learn's train_test_split(stratify=y, test_size)
/// on NumPy's global generator (StratifiedShuffleSplit: ceil(test share x n) test rows, each
/// class's share by _approximate_mode), then the duplicated anomalies (numpy's choice with
/// replacement, Python's random.shuffle). Labels are 0 (normal) or 1 (anomaly).
AdbenchParts adbenchParts(const Eigen::VectorXi& labels, uint32_t seed,
                          const AdbenchGeneratorOptions& options);

} // namespace sosrep
