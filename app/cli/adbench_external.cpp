// SPDX-License-Identifier: MIT
// `sosrep adbench`: exported splits, external score files and the AUC chart.
#include "app/cli/adbench_external.h"

#include "core/data/csv_reader.h"
#include "core/errors.h"
#include "core/metrics/auc.h"
#include "core/util/text.h"

#include <QDir>
#include <QFileInfo>

#include <cmath>

namespace sosrep::cli {

QString splitStem(const QString& npzFile, uint64_t seed)
{
    return QFileInfo(npzFile).completeBaseName() + QStringLiteral("_seed") + QString::number(seed);
}

std::vector<AdbenchRow> externalScoreRows(const QString& dir, const QString& npzFile, uint64_t seed,
                                          const Eigen::VectorXi& testLabels)
{
    const QString path = QDir(dir).filePath(splitStem(npzFile, seed) + QStringLiteral(".csv"));
    const Dataset scores = readCsvFile(path.toStdString());
    if (scores.rows() != testLabels.size()) {
        throw DataError(path.toStdString(), 0, 0,
                        "has " + std::to_string(scores.rows()) + " rows; the test part of " +
                            QFileInfo(npzFile).fileName().toStdString() + " seed " +
                            std::to_string(seed) + " has " + std::to_string(testLabels.size()) +
                            " (score the rows of --export-splits' _test.csv, in order)");
    }
    std::vector<AdbenchRow> rows;
    for (Eigen::Index c = 0; c < scores.dim(); ++c) {
        const Vector s = scores.x.col(c);
        // The exported _test.csv (its features and its "label") is not a score file: its label
        // column would be ranked as a method with an AUC of 1.
        if (scores.columns[size_t(c)] == "label") {
            throw DataError(path.toStdString(), 1, int(c) + 1,
                            "column 'label' holds the test labels: this looks like an exported "
                            "split (_test.csv), not a score file (one column of scores per "
                            "method, one row per test row)");
        }
        for (Eigen::Index i = 0; i < s.size(); ++i) {
            if (!std::isfinite(s(i))) {
                throw DataError(path.toStdString(), int(i) + 2, int(c) + 1,
                                "is not a finite score");
            }
        }
        AdbenchRow r;
        r.dataset = npzFile;
        r.seed = seed;
        r.method = QString::fromStdString(scores.columns[size_t(c)]);
        r.aucRoc = aucRoc(s, testLabels);
        r.aucPr = aucPr(s, testLabels);
        r.selection = QStringLiteral("external");
        rows.push_back(r);
    }
    return rows;
}

Chart adbenchChart(const std::vector<AdbenchRow>& rows, const QStringList& methods,
                   const QStringList& datasets, int seeds, double duplicate)
{
    const auto means = datasetMeans(rows, methods, datasets);
    const auto ranks = datasetRanks(means);
    ChartPanel auc;
    auc.kind = ChartPanel::Kind::Boxes;
    auc.title = "AUC-ROC per dataset (mean over seeds)";
    auc.yLabel = "AUC-ROC";
    ChartPanel rank;
    rank.kind = ChartPanel::Kind::Boxes;
    rank.title = "Rank among the methods per dataset";
    rank.yLabel = "rank (1 = best)";
    rank.lowerIsBetter = true;
    for (int m = 0; m < methods.size(); ++m) {
        ChartSeries a{methods[m].toStdString(), {}, {}, false, m};
        ChartSeries r = a;
        for (int d = 0; d < datasets.size(); ++d) {
            if (std::isfinite(ranks[size_t(m)][size_t(d)])) {
                a.y.push_back(means[size_t(m)][size_t(d)]);
                r.y.push_back(ranks[size_t(m)][size_t(d)]);
            }
        }
        auc.series.push_back(a);
        rank.series.push_back(r);
    }
    rank.yMin = 1.0;
    rank.yMax = std::max<double>(1.0, methods.size());
    Chart chart;
    chart.title =
        "ADBench protocol: " +
        std::to_string(auc.series.empty() ? 0 : auc.series.front().y.size()) + " datasets x " +
        std::to_string(seeds) + (seeds == 1 ? " seed" : " seeds") +
        (duplicate > 1.0 ? ", anomalies duplicated x" + QString::number(duplicate).toStdString()
                         : std::string());
    chart.panels = {auc, rank};
    chart.columns = 2;
    chart.width = std::max(1200, 160 * int(methods.size()) * 2);
    chart.height = 620;
    return chart;
}

} // namespace sosrep::cli
