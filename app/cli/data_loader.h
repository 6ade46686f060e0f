// SPDX-License-Identifier: MIT
// Loading the data of a command (CSV/TSV or .npz) with its label column and matching columns.
#pragma once

#include "core/data/dataset.h"

#include <QString>
#include <QStringList>

#include <string>
#include <vector>

namespace sosrep::cli {

/// Loads CSV/TSV (any other extension is read as delimited text) or .npz (X, y). For text files
/// a named label column moves into the labels; for .npz, `y` is the label column already and
/// the name must be empty or "y". A non-empty `columns` list selects and orders the features
/// (each name once). A non-empty `idColumn` (text files) is read as the rows' names; it is
/// neither the label column nor one of `columns` (ParameterError). The label and id columns
/// must be in a file whose rows are scored (`Annotations::Required`); a file only fitted on
/// (`IfPresent`: the training file when test rows are scored) has them left out where present.
enum class Annotations
{
    Required,
    IfPresent
};
Dataset loadDataset(const QString& path, const QString& labelColumn, const QStringList& columns,
                    const QString& idColumn = {}, Annotations annotations = Annotations::Required);

/// The feature columns `columns` of `ds` in that order (all when empty); ParameterError
/// ("--columns") for a name it lacks, DataError naming `path` when no feature is left.
Dataset selectFeatures(Dataset ds, const QStringList& columns, const QString& path);

/// Loads a second file (test rows, rows to score) and matches its feature columns to `names` by
/// name, whatever their order there; missing columns are a DataError listing them, columns not
/// among `names` are left out with a warning in *warnings.
Dataset loadMatching(const QString& path, const QString& labelColumn,
                     const std::vector<std::string>& names, std::vector<std::string>* warnings,
                     const QString& idColumn = {});

} // namespace sosrep::cli
