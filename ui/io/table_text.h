// SPDX-License-Identifier: MIT
#pragma once

#include "core/data/dataset.h"

#include <QString>
#include <QStringList>
#include <QTextStream>

#include <functional>

namespace sosrep::cli {

/// Writes a text file atomically (QSaveFile: a temporary file renamed on success), so a failed
/// run never leaves a half-written output. Throws DataError naming the file on failure.
void writeTextFileAtomically(const QString& path, const std::function<void(QTextStream&)>& body);

/// Writes rows of numbers under a header, CSV (comma) or TSV (tab, for .tsv/.tab paths).
/// Numbers use the shortest representation that reads back exactly.
void writeTable(const QString& path, const QStringList& header,
                const std::function<void(int row, QStringList& cells)>& rowCells, int rows);

/// A dataset as a table: its columns, then its label column if it has labels.
void writeDataset(const QString& path, const Dataset& data);

QString formatNumber(double v);

} // namespace sosrep::cli
