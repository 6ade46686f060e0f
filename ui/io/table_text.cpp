// SPDX-License-Identifier: MIT
#include "ui/io/table_text.h"

#include "core/errors.h"
#include "core/ratio/importance_weights.h"

#include <QLocale>

#include <cmath>

namespace sosrep::io {

QString formatNumber(double v)
{
    return QString::number(v, 'g', QLocale::FloatingPointShortest);
}

QByteArray tableText(const QString& path, const QStringList& header,
                     const std::function<void(int, QStringList&)>& rowCells, int rows)
{
    const bool tsv = path.endsWith(QLatin1String(".tsv")) || path.endsWith(QLatin1String(".tab"));
    const QString sep = tsv ? QStringLiteral("\t") : QStringLiteral(",");
    QStringList quoted;
    for (const QString& h : header) {
        quoted << (h.contains(sep) || h.contains(QLatin1Char('"'))
                       ? QLatin1Char('"') +
                             QString(h).replace(QStringLiteral("\""), QStringLiteral("\"\"")) +
                             QLatin1Char('"')
                       : h);
    }
    QString text = quoted.join(sep) + QLatin1Char('\n');
    QStringList cells;
    for (int i = 0; i < rows; ++i) {
        cells.clear();
        rowCells(i, cells);
        text += cells.join(sep) + QLatin1Char('\n');
    }
    return text.toUtf8();
}

QByteArray datasetText(const QString& path, const Dataset& data)
{
    QStringList header;
    for (const auto& c : data.columns) {
        header << QString::fromStdString(c);
    }
    if (data.hasLabels()) {
        header << QString::fromStdString(data.labelName.empty() ? std::string("label")
                                                                : data.labelName);
    }
    return tableText(
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

QString logValueColumn(DensityKind kind)
{
    switch (kind) {
    case DensityKind::Normalized:
        return QStringLiteral("log_density");
    case DensityKind::PreDensity:
        return QStringLiteral("log_pre_density");
    case DensityKind::Ratio:
        return QStringLiteral("log_ratio");
    case DensityKind::Score:
        return QStringLiteral("normality");
    }
    return QStringLiteral("log_density");
}

QByteArray scoresText(const QString& path, const Vector& logDensity, DensityKind kind,
                      const std::optional<Eigen::VectorXi>& labels,
                      const std::optional<double>& threshold)
{
    const Eigen::Index bad = logDensity.size() - logDensity.array().isFinite().count();
    if (bad > 0) {
        throw NumericalError(std::to_string(bad) + " of " + std::to_string(logDensity.size()) +
                             " scores are not finite; nothing was written");
    }
    QStringList header{QStringLiteral("row"), logValueColumn(kind),
                       QStringLiteral("anomaly_score")};
    if (threshold) {
        header << QStringLiteral("outlier");
    }
    if (labels) {
        header << QStringLiteral("label");
    }
    return tableText(
        path, header,
        [&](int i, QStringList& c) {
            c << QString::number(i) << formatNumber(logDensity(i)) << formatNumber(-logDensity(i));
            if (threshold) {
                c << QString::number(logDensity(i) < *threshold ? 1 : 0);
            }
            if (labels) {
                c << QString::number((*labels)(i));
            }
        },
        static_cast<int>(logDensity.size()));
}

QByteArray weightsText(const Vector& raw)
{
    const auto cell = [](double v) { return std::isfinite(v) ? formatNumber(v) : QString(); };
    QString s = QStringLiteral("row,weight_raw,weight_clipped,weight_renormalized\n");
    const Vector c = postProcessWeights(raw, WeightForm::Clipped);
    const Vector r = postProcessWeights(raw, WeightForm::Renormalized);
    for (Eigen::Index i = 0; i < raw.size(); ++i) {
        s += QString::number(i + 1) + QLatin1Char(',') + cell(raw(i)) + QLatin1Char(',') +
             cell(c(i)) + QLatin1Char(',') + cell(r(i)) + QLatin1Char('\n');
    }
    return s.toUtf8();
}

} // namespace sosrep::io
