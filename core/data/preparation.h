// SPDX-License-Identifier: MIT
// Training data made ready for a fit: columns checked, a scaler fitted and reused.
#pragma once

#include "core/data/dataset.h"
#include "core/data/scaler.h"

#include <string>
#include <vector>

namespace sosrep {

/// Training data as every fit route prepares it: checked, scaled, with its warnings.
struct PreparedTraining
{
    Scaler scaler;
    Matrix x; // scaled features
    std::vector<std::string> warnings;
};

/// Checks and scales a training table.
///
/// Refused (DataError naming the file and column): a column whose range max - min overflows
/// double precision (e.g. values of +-1e308; min-max scaling would divide by infinity), a column
/// that z-score scaling cannot represent, and unscaled data whose distances would overflow or
/// underflow when squared (nonzero column ranges must lie in [1e-100, 1e100] with --scale none:
/// the kernels square distances and the Fisher divergence divides by l^4).
/// Warned: constant columns (they carry no information; scaled to 0), and columns that span
/// more than kMaxTypicalScaledSpan units once scaled (a central spread tiny beside the range).
PreparedTraining prepareTraining(const Dataset& raw, ScalingKind kind);
constexpr double kMaxTypicalScaledSpan = 1e6;

/// Applies a training scaler to other rows (test or validation data). Scaled values beyond
/// kMaxScaledMagnitude refuse with DataError naming the file, row and column: that far outside
/// the training range, distances and random-feature phases lose all precision.
Matrix applyToOther(const Scaler& scaler, const Dataset& other);
constexpr double kMaxScaledMagnitude = 1e15;

/// Scored rows a scaling cannot tell apart: a column whose rows to score differ in the data
/// (their range is lo..hi per column) but span less than kMinResolvedSpread once scaled, where
/// the training rows span about 1. Next to training rows of that spread, the difference is
/// below what the kernel sums resolve, so the rows get one score: a training column with one
/// row far out under min-max, or a model file whose scale was changed (1e300 scored every row
/// -1385.511, issue 52). One warning naming the columns, or "" when every column is resolved.
/// Not for unscaled data (its training spread is not 1).
std::string unresolvedSpreadWarning(const Scaler& scaler, const Vector& lo, const Vector& hi,
                                    const std::vector<std::string>& columns);
/// The same for a table of rows to score.
std::string unresolvedSpreadWarning(const Scaler& scaler, const Dataset& other);
constexpr double kMinResolvedSpread = 1e-12;

} // namespace sosrep
