// SPDX-License-Identifier: MIT
// Loading the data of a command (CSV/TSV or .npz) with its label column and matching columns.
#include "app/cli/data_loader.h"

#include "core/data/csv_reader.h"
#include "core/data/npz_reader.h"
#include "core/errors.h"
#include "core/util/text.h"

#include <algorithm>

namespace sosrep::cli {

namespace {

/// The id column names the rows: it cannot also be their labels or a feature.
void checkIdColumn(const QString& idColumn, const QString& labelColumn, const QStringList& columns)
{
    if (idColumn.isEmpty()) {
        return;
    }
    if (idColumn == labelColumn) {
        throw ParameterError("--id-column", quotedText(idColumn.toStdString()) +
                                                " is the --label-column too: a column names the "
                                                "rows or labels them, not both");
    }
    for (const QString& c : columns) {
        if (c.trimmed() == idColumn) {
            throw ParameterError("--id-column", quotedText(idColumn.toStdString()) +
                                                    " is in --columns too: a column names the "
                                                    "rows or is a feature, not both");
        }
    }
}

} // namespace

Dataset loadDataset(const QString& path, const QString& labelColumn, const QStringList& columns,
                    const QString& idColumn, Annotations annotations)
{
    checkIdColumn(idColumn, labelColumn, columns);
    Dataset ds;
    if (path.endsWith(QLatin1String(".npz"), Qt::CaseInsensitive)) {
        if (!idColumn.isEmpty()) {
            throw ParameterError("--id-column", "a .npz file has no named columns: " +
                                                    quotedText(path.toStdString()));
        }
        ds = readNpzDataset(path.toStdString());
        if (!labelColumn.isEmpty() && labelColumn != QLatin1String("y")) {
            throw ParameterError("--label-column", "a .npz file's labels are its array 'y', not " +
                                                       quotedText(labelColumn.toStdString()));
        }
    } else {
        CsvReadOptions options;
        options.idColumn = idColumn.toStdString();
        options.idColumnOptional = true; // said here, as --label-column's and --columns' are
        ds = readCsvFile(path.toStdString(), options, nullptr);
        if (!idColumn.isEmpty() && ds.rowNameColumn.empty() &&
            annotations == Annotations::Required) {
            try { // not there: says so, listing the file's columns
                ds.columnIndex(idColumn.toStdString());
            } catch (const ParameterError& e) {
                throw ParameterError("--id-column", e.message());
            }
        }
        const bool hasLabel = std::find(ds.columns.begin(), ds.columns.end(),
                                        labelColumn.toStdString()) != ds.columns.end();
        if (!labelColumn.isEmpty() && (hasLabel || annotations == Annotations::Required)) {
            try {
                ds = ds.withLabelColumn(labelColumn.toStdString());
            } catch (const ParameterError& e) {
                throw ParameterError("--label-column", e.message());
            }
        }
    }
    return selectFeatures(std::move(ds), columns, path);
}

Dataset selectFeatures(Dataset ds, const QStringList& columns, const QString& path)
{
    if (!columns.isEmpty()) {
        std::vector<std::string> names;
        for (const QString& c : columns) {
            names.push_back(c.trimmed().toStdString());
        }
        checkDistinctNames(names, "--columns");
        try {
            ds = ds.selectColumns(names);
        } catch (const ParameterError& e) {
            throw ParameterError("--columns", e.message());
        }
    }
    if (ds.dim() < 1) {
        throw DataError(path.toStdString(), 0, 0, "no feature columns left to fit");
    }
    return ds;
}

Dataset loadMatching(const QString& path, const QString& labelColumn,
                     const std::vector<std::string>& names, std::vector<std::string>* warnings,
                     const QString& idColumn)
{
    checkIdColumn(idColumn, labelColumn, {});
    // The label is optional here: rows to score need not be labelled (then there is no AUC).
    Dataset all = loadDataset(path, {}, {}, idColumn);
    const std::string label = labelColumn.toStdString();
    if (!label.empty() && !all.hasLabels()) {
        const auto& c = all.columns;
        if (std::find(c.begin(), c.end(), label) == c.end()) {
            warnings->push_back(path.toStdString() + " has no label column " + quotedText(label) +
                                ": no AUC");
        } else {
            all = all.withLabelColumn(label);
        }
    }
    std::vector<std::string> unused;
    Dataset out = all.matchColumns(names, &unused);
    for (const std::string& c : unused) {
        warnings->push_back(path.toStdString() + ": column " + quotedText(c) +
                            " is not a feature of the model: left out");
    }
    return out;
}

} // namespace sosrep::cli
