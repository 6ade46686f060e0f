// SPDX-License-Identifier: MIT
// Score, summary and weight tables as text with stable number formatting.
#pragma once

#include "core/data/dataset.h"
#include "core/estimators/estimator.h"
#include "core/types.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace sosrep::io {

/// Shortest text that reads back as the same double ("0.1", "1e-05", "2000").
std::string formatNumber(double v);

/// A table as delimited text: CSV (comma), or TSV (tab) when `path` ends in .tsv or .tab.
/// Header names holding the delimiter or a quote are quoted (RFC 4180).
std::string tableText(const std::string& path, const std::vector<std::string>& header,
                      const std::function<void(int row, std::vector<std::string>& cells)>& rowCells,
                      int rows);

/// A dataset as a table: its columns, then its label column if it has labels.
std::string datasetText(const std::string& path, const Dataset& data);

/// Per-row scores as the command line and the app both write them:
/// row,<log value>,anomaly_score[,outlier][,label], where the column says what the value is:
/// log_density (a normalized density), log_pre_density (unnormalized), log_ratio, or normality
/// (a detector's score). Throws NumericalError if a value is not finite (nothing may leave the
/// program as NaN or infinity). With an outlier threshold (a log value, outlier_threshold.h) an
/// `outlier` column follows the anomaly score: 1 where the log value is below it.
/// With row names (the file's id column, one per row) a column of that name follows `row`
/// (quoted where a name holds the separator, a quote or a line break).
std::string scoresText(const std::string& path, const Vector& logValues, DensityKind kind,
                       const std::optional<Eigen::VectorXi>& labels,
                       const std::optional<double>& threshold = std::nullopt,
                       const std::vector<std::string>& rowNames = {},
                       const std::string& rowNameColumn = "id");

/// Importance weights as `sosrep ratio --weights-out` and the app's Ratio view write them:
/// row,weight_raw,weight_clipped,weight_renormalized (clipping at 0 and renormalizing to mean 1
/// are post-processing); a non-finite weight is an empty cell.
std::string weightsText(const Vector& raw);

/// The name of the log-value column for a kind of model.
std::string logValueColumn(DensityKind kind);

} // namespace sosrep::io
