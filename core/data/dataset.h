// SPDX-License-Identifier: MIT
// Dataset: named numeric columns and optional binary labels, with row and column selection.
#pragma once

#include "core/types.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace sosrep {

/// A table of samples: one row per sample, named feature columns, optional binary labels
/// (0 = normal, 1 = anomaly, the ADBench convention).
struct Dataset
{
    Matrix x;
    std::vector<std::string> columns;
    std::optional<Eigen::VectorXi> labels;
    std::string labelName; // name of the column the labels came from, if any
    std::string source;    // file the data came from (for messages)
    /// Row names: the id column of a file (text or numbers), kept out of the features so that
    /// tables of scores can name their rows; empty when the file had none.
    std::vector<std::string> rowNames;
    std::string rowNameColumn; // the id column's name
    /// Columns read from text categories (an interactive read: "species" of iris): their
    /// values are codes 0, 1, ... into these names, in order of first appearance.
    std::map<std::string, std::vector<std::string>> categories;

    Eigen::Index rows() const { return x.rows(); }
    Eigen::Index dim() const { return x.cols(); }
    bool hasLabels() const { return labels.has_value(); }

    /// Index of a column by name; throws ParameterError("columns", ...) when absent.
    int columnIndex(const std::string& name) const;
    /// Keeps only the named columns, in the given order.
    Dataset selectColumns(const std::vector<std::string>& names) const;
    /// Moves the named column out of the features into the labels (values must be 0/1).
    Dataset withLabelColumn(const std::string& name) const;
    /// The columns `names`, in that order, matched by name (another file holding the same
    /// features, possibly in another order). A missing name throws DataError naming the source
    /// and listing the missing columns and the columns that are not used; the names of columns
    /// left out go to *unused.
    Dataset matchColumns(const std::vector<std::string>& names,
                         std::vector<std::string>* unused) const;
    /// Keeps the given rows, in order.
    Dataset selectRows(const std::vector<Eigen::Index>& rows) const;
};

/// Throws ParameterError(parameter) if a name appears twice.
void checkDistinctNames(const std::vector<std::string>& names, const std::string& parameter);

} // namespace sosrep
