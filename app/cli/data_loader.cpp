// SPDX-License-Identifier: MIT
#include "app/cli/data_loader.h"

#include "core/data/csv_reader.h"
#include "core/data/npz_reader.h"
#include "core/errors.h"

namespace sosrep::cli {

Dataset loadDataset(const QString& path, const QString& labelColumn, const QStringList& columns)
{
    Dataset ds;
    if (path.endsWith(QLatin1String(".npz"), Qt::CaseInsensitive)) {
        ds = readNpzDataset(path.toStdString());
        if (!labelColumn.isEmpty() && labelColumn != QLatin1String("y")) {
            throw ParameterError("--label-column", "a .npz file's labels are its array 'y', not '" +
                                                       labelColumn.toStdString() + "'");
        }
    } else {
        ds = readCsvFile(path.toStdString());
        if (!labelColumn.isEmpty()) {
            ds = ds.withLabelColumn(labelColumn.toStdString());
        }
    }
    if (!columns.isEmpty()) {
        std::vector<std::string> names;
        for (const QString& c : columns) {
            names.push_back(c.trimmed().toStdString());
        }
        ds = ds.selectColumns(names);
    }
    if (ds.dim() < 1) {
        throw DataError(path.toStdString(), 0, 0, "no feature columns left to fit");
    }
    return ds;
}

} // namespace sosrep::cli
