// SPDX-License-Identifier: MIT
// `sosrep adbench`: the per-dataset result table, its summaries, ranks and --resume.
#include "app/cli/adbench_table.h"

#include "core/errors.h"
#include "core/util/text.h"

#include <QFile>
#include <QJsonArray>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <set>
#include <tuple>

namespace sosrep::cli {
namespace {

const char* const kHeader =
    "dataset,seed,method,auc_roc,auc_pr,length_scale,selection,seconds,best_grid_auc_roc";
/// Tables written before --hindsight had a column (read back by --resume and by scripts).
const char* const kHeaderWithoutHindsight =
    "dataset,seed,method,auc_roc,auc_pr,length_scale,selection,seconds";

/// Datasets where every method has a value.
std::vector<int> completeDatasets(const std::vector<std::vector<double>>& m)
{
    std::vector<int> out;
    for (size_t d = 0; !m.empty() && d < m.front().size(); ++d) {
        if (std::all_of(m.begin(), m.end(),
                        [&](const auto& row) { return std::isfinite(row[d]); })) {
            out.push_back(static_cast<int>(d));
        }
    }
    return out;
}

} // namespace

std::vector<double> hindsightGaps(const std::vector<AdbenchRow>& rows, const QString& method,
                                  const QStringList& datasets)
{
    std::vector<double> sum(size_t(datasets.size()), 0.0);
    std::vector<int> count(size_t(datasets.size()), 0);
    for (const AdbenchRow& r : rows) {
        const int d = int(datasets.indexOf(r.dataset));
        if (r.method == method && d >= 0 && std::isfinite(r.bestGridAuc)) {
            sum[size_t(d)] += r.bestGridAuc - r.aucRoc;
            ++count[size_t(d)];
        }
    }
    std::vector<double> out(sum.size(), std::numeric_limits<double>::quiet_NaN());
    for (size_t d = 0; d < out.size(); ++d) {
        if (count[d] > 0) {
            out[d] = sum[d] / double(count[d]);
        }
    }
    return out;
}

double medianOf(std::vector<double> v)
{
    if (v.empty()) {
        return std::numeric_limits<double>::quiet_NaN();
    }
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

QByteArray adbenchCsv(const std::vector<AdbenchRow>& rows)
{
    QByteArray out = QByteArray(kHeader) + '\n';
    for (const AdbenchRow& r : rows) {
        out += QStringList{r.dataset,
                           QString::number(r.seed),
                           r.method.contains(QLatin1Char(','))
                               ? QLatin1Char('"') + r.method + QLatin1Char('"')
                               : r.method,
                           QString::number(r.aucRoc, 'g', 10),
                           QString::number(r.aucPr, 'g', 10),
                           QString::number(r.lengthScale, 'g', 10),
                           r.selection,
                           QString::number(r.seconds, 'f', 3),
                           std::isfinite(r.bestGridAuc) ? QString::number(r.bestGridAuc, 'g', 10)
                                                        : QString()}
                   .join(QLatin1Char(','))
                   .toUtf8() +
               '\n';
    }
    return out;
}

std::vector<AdbenchRow> readAdbenchCsv(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        throw DataError(path.toStdString(), 0, 0, "cannot be read");
    }
    const QStringList lines = QString::fromUtf8(f.readAll()).split(QLatin1Char('\n'));
    const QString header = lines.isEmpty() ? QString() : lines.first().trimmed();
    if (header != QLatin1String(kHeader) && header != QLatin1String(kHeaderWithoutHindsight)) {
        throw DataError(path.toStdString(), 1, 1, std::string("expected the header ") + kHeader);
    }
    const int width = int(header.count(QLatin1Char(','))) + 1;
    std::vector<AdbenchRow> rows;
    for (int i = 1; i < lines.size(); ++i) {
        QString line = lines[i].trimmed();
        if (line.isEmpty()) {
            continue;
        }
        // The method may be quoted (it can hold commas); no other cell can.
        QStringList cells;
        const int q1 = line.indexOf(QLatin1Char('"'));
        if (q1 >= 0) {
            const int q2 = line.indexOf(QLatin1Char('"'), q1 + 1);
            if (q2 < 0) {
                throw DataError(path.toStdString(), i + 1, q1 + 1, "unterminated quote");
            }
            cells = line.left(q1).split(QLatin1Char(','));
            cells.removeLast();
            cells << line.mid(q1 + 1, q2 - q1 - 1);
            cells << line.mid(q2 + 2).split(QLatin1Char(','));
        } else {
            cells = line.split(QLatin1Char(','));
        }
        if (cells.size() != width) {
            throw DataError(path.toStdString(), i + 1, 1,
                            "expected " + std::to_string(width) + " cells, found " +
                                std::to_string(cells.size()));
        }
        AdbenchRow r;
        bool ok[5] = {};
        r.dataset = cells[0];
        r.seed = cells[1].toULongLong(&ok[0]);
        r.method = cells[2];
        r.aucRoc = cells[3].toDouble(&ok[1]);
        r.aucPr = cells[4].toDouble(&ok[2]);
        r.lengthScale = cells[5].toDouble(&ok[3]);
        r.selection = cells[6];
        r.seconds = cells[7].toDouble(&ok[4]);
        if (width > 8 && !cells[8].isEmpty()) {
            bool good = false;
            r.bestGridAuc = cells[8].toDouble(&good);
            if (!good || !(r.bestGridAuc >= 0.0 && r.bestGridAuc <= 1.0)) {
                throw DataError(path.toStdString(), i + 1, 9, "an AUC must lie in [0, 1]");
            }
        }
        const int column[5] = {2, 4, 5, 6, 8};
        for (int k = 0; k < 5; ++k) {
            if (!ok[k]) {
                throw DataError(path.toStdString(), i + 1, column[k], "is not a number");
            }
        }
        // A NaN or an AUC of 7 would pass into the means: the README promises neither.
        const auto inRange = [](double v, double lo, double hi) { return v >= lo && v <= hi; };
        if (!inRange(r.aucRoc, 0.0, 1.0) || !inRange(r.aucPr, 0.0, 1.0)) {
            throw DataError(path.toStdString(), i + 1, inRange(r.aucRoc, 0.0, 1.0) ? 5 : 4,
                            "an AUC must lie in [0, 1]");
        }
        if (!inRange(r.lengthScale, 0.0, 1e300) || !inRange(r.seconds, 0.0, 1e300)) {
            throw DataError(path.toStdString(), i + 1, inRange(r.lengthScale, 0.0, 1e300) ? 8 : 6,
                            "must be a finite number >= 0");
        }
        if (r.dataset.isEmpty() || r.method.isEmpty()) {
            throw DataError(path.toStdString(), i + 1, r.dataset.isEmpty() ? 1 : 3, "is empty");
        }
        r.line = i + 1;
        rows.push_back(r);
    }
    return rows;
}

std::vector<AdbenchRow> readResumedRows(const QString& path, const AdbenchRunScope& scope)
{
    std::vector<AdbenchRow> rows = readAdbenchCsv(path);
    std::set<std::tuple<QString, uint64_t, QString>> seen;
    for (const AdbenchRow& r : rows) {
        const auto fail = [&](int column, const std::string& what) {
            return DataError(path.toStdString(), r.line, column, what + " (" + scope.hint + ")");
        };
        if (!scope.datasets.contains(r.dataset)) {
            throw fail(1, "the dataset " + sosrep::quotedText(r.dataset.toStdString()) +
                              " is not among this run's");
        }
        if (std::find(scope.seeds.begin(), scope.seeds.end(), r.seed) == scope.seeds.end()) {
            throw fail(2, "the seed " + std::to_string(r.seed) + " is not among this run's");
        }
        if (!scope.otherMethods && !scope.methods.contains(r.method)) {
            throw fail(3, "the method " + sosrep::quotedText(r.method.toStdString()) +
                              " is not among this run's --estimators");
        }
        if (!seen.insert({r.dataset, r.seed, r.method}).second) {
            throw fail(1, "repeats the run " + r.dataset.toStdString() + " seed " +
                              std::to_string(r.seed) + " " + r.method.toStdString());
        }
    }
    return rows;
}

std::vector<std::vector<double>> datasetMeans(const std::vector<AdbenchRow>& rows,
                                              const QStringList& methods,
                                              const QStringList& datasets, bool pr)
{
    std::vector<std::vector<double>> sum(size_t(methods.size()),
                                         std::vector<double>(size_t(datasets.size()), 0.0));
    auto count = sum;
    for (const AdbenchRow& r : rows) {
        const auto m = methods.indexOf(r.method), d = datasets.indexOf(r.dataset);
        if (m >= 0 && d >= 0) {
            sum[size_t(m)][size_t(d)] += pr ? r.aucPr : r.aucRoc;
            count[size_t(m)][size_t(d)] += 1.0;
        }
    }
    for (size_t m = 0; m < sum.size(); ++m) {
        for (size_t d = 0; d < sum[m].size(); ++d) {
            sum[m][d] = count[m][d] > 0 ? sum[m][d] / count[m][d]
                                        : std::numeric_limits<double>::quiet_NaN();
        }
    }
    return sum;
}

std::vector<std::vector<double>> datasetRanks(const std::vector<std::vector<double>>& means)
{
    std::vector<std::vector<double>> ranks = means;
    for (auto& row : ranks) {
        std::fill(row.begin(), row.end(), std::numeric_limits<double>::quiet_NaN());
    }
    for (int d : completeDatasets(means)) {
        for (size_t m = 0; m < means.size(); ++m) {
            // Rank 1 is the best; ties share the mean of their ranks.
            double better = 0, tied = 0;
            for (size_t o = 0; o < means.size(); ++o) {
                better += means[o][size_t(d)] > means[m][size_t(d)];
                tied += means[o][size_t(d)] == means[m][size_t(d)];
            }
            ranks[m][size_t(d)] = better + 0.5 * (tied + 1.0);
        }
    }
    return ranks;
}

std::vector<MethodSummary> summarize(const std::vector<AdbenchRow>& rows,
                                     const QStringList& methods, const QStringList& datasets)
{
    const auto roc = datasetMeans(rows, methods, datasets);
    const auto pr = datasetMeans(rows, methods, datasets, true);
    const std::vector<int> complete = completeDatasets(roc);
    std::vector<MethodSummary> out(size_t(methods.size()));
    for (size_t m = 0; m < out.size(); ++m) {
        out[m].method = methods[int(m)];
        out[m].datasets = int(complete.size());
        std::vector<double> a, b;
        for (int d : complete) {
            a.push_back(roc[m][size_t(d)]);
            b.push_back(pr[m][size_t(d)]);
        }
        // No complete dataset: no mean (NaN, printed "-"), not a mean of 0.
        const double n = a.empty() ? std::nan("") : double(a.size());
        out[m].meanAucRoc = std::accumulate(a.begin(), a.end(), 0.0) / n;
        out[m].meanAucPr = std::accumulate(b.begin(), b.end(), 0.0) / n;
        out[m].medianAucRoc = medianOf(a);
        out[m].medianAucPr = medianOf(b);
    }
    const auto ranks = datasetRanks(roc);
    for (size_t m = 0; m < out.size(); ++m) {
        out[m].averageRank = complete.empty() ? std::nan("") : 0.0;
        for (int d : complete) {
            out[m].averageRank += ranks[m][size_t(d)] / double(complete.size());
        }
    }
    return out;
}

QJsonObject adbenchJson(const std::vector<AdbenchRow>& rows,
                        const std::vector<MethodSummary>& summary)
{
    QJsonArray runs;
    for (const AdbenchRow& r : rows) {
        runs.append(QJsonObject{{QStringLiteral("dataset"), r.dataset},
                                {QStringLiteral("seed"), QString::number(r.seed)},
                                {QStringLiteral("method"), r.method},
                                {QStringLiteral("auc_roc"), r.aucRoc},
                                {QStringLiteral("auc_pr"), r.aucPr},
                                {QStringLiteral("length_scale"), r.lengthScale},
                                {QStringLiteral("selection"), r.selection},
                                {QStringLiteral("seconds"), r.seconds}});
    }
    QJsonArray methods;
    for (const MethodSummary& s : summary) {
        methods.append(QJsonObject{{QStringLiteral("method"), s.method},
                                   {QStringLiteral("datasets"), s.datasets},
                                   {QStringLiteral("mean_auc_roc"), s.meanAucRoc},
                                   {QStringLiteral("median_auc_roc"), s.medianAucRoc},
                                   {QStringLiteral("mean_auc_pr"), s.meanAucPr},
                                   {QStringLiteral("median_auc_pr"), s.medianAucPr},
                                   {QStringLiteral("average_rank"), s.averageRank}});
    }
    return QJsonObject{{QStringLiteral("runs"), runs}, {QStringLiteral("methods"), methods}};
}

} // namespace sosrep::cli
