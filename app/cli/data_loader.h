// SPDX-License-Identifier: MIT
#pragma once

#include "core/data/dataset.h"

#include <QString>
#include <QStringList>

namespace sosrep::cli {

/// Loads CSV/TSV (any other extension is read as delimited text) or .npz (X, y). For text files
/// a named label column moves into the labels; for .npz, `y` is the label column already and
/// the name must be empty or "y". A non-empty `columns` list selects and orders the features.
Dataset loadDataset(const QString& path, const QString& labelColumn, const QStringList& columns);

} // namespace sosrep::cli
