// SPDX-License-Identifier: MIT
#include "app/cli/table_writer.h"

#include "core/errors.h"

#include <QLocale>
#include <QSaveFile>
#include <QTextStream>

namespace sosrep::cli {

QString formatNumber(double v)
{
    return QString::number(v, 'g', QLocale::FloatingPointShortest);
}

void writeTextFileAtomically(const QString& path, const std::function<void(QTextStream&)>& body)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Text)) {
        throw DataError(path.toStdString(), 0, 0,
                        "cannot write file: " + file.errorString().toStdString());
    }
    QTextStream ts(&file);
    body(ts);
    ts.flush();
    if (!file.commit()) {
        throw DataError(path.toStdString(), 0, 0,
                        "cannot write file: " + file.errorString().toStdString());
    }
}

void writeTable(const QString& path, const QStringList& header,
                const std::function<void(int, QStringList&)>& rowCells, int rows)
{
    const bool tsv = path.endsWith(QLatin1String(".tsv")) || path.endsWith(QLatin1String(".tab"));
    const QString sep = tsv ? QStringLiteral("\t") : QStringLiteral(",");
    writeTextFileAtomically(path, [&](QTextStream& ts) {
        QStringList quoted;
        for (const QString& h : header) {
            quoted << (h.contains(sep) || h.contains(QLatin1Char('"'))
                           ? QLatin1Char('"') +
                                 QString(h).replace(QStringLiteral("\""), QStringLiteral("\"\"")) +
                                 QLatin1Char('"')
                           : h);
        }
        ts << quoted.join(sep) << '\n';
        QStringList cells;
        for (int i = 0; i < rows; ++i) {
            cells.clear();
            rowCells(i, cells);
            ts << cells.join(sep) << '\n';
        }
    });
}

void writeDataset(const QString& path, const Dataset& data)
{
    QStringList header;
    for (const auto& c : data.columns) {
        header << QString::fromStdString(c);
    }
    if (data.hasLabels()) {
        header << QString::fromStdString(data.labelName.empty() ? std::string("label")
                                                                : data.labelName);
    }
    writeTable(
        path, header,
        [&](int i, QStringList& cells) {
            for (Eigen::Index j = 0; j < data.dim(); ++j) {
                cells << formatNumber(data.x(i, j));
            }
            if (data.hasLabels()) {
                cells << QString::number((*data.labels)(i));
            }
        },
        static_cast<int>(data.rows()));
}

} // namespace sosrep::cli
