// SPDX-License-Identifier: MIT
// `sosrep adbench`: the per-dataset result table, its summaries, ranks and --resume.
#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace sosrep::cli {

/// One method on one dataset and seed of `sosrep adbench`.
struct AdbenchRow
{
    QString dataset;
    uint64_t seed = 0;
    QString method;
    double aucRoc = 0.0;
    double aucPr = 0.0;
    double lengthScale = 0.0; // 0: the method has none
    QString selection;        // the rule's reason, "fixed", or "" without a length scale
    double seconds = 0.0;
    /// --hindsight: the best test AUC-ROC over the tuning's grid (NaN: not measured, or the
    /// method tunes no length scale). Labels pick nothing; they only measure the choice.
    double bestGridAuc = std::numeric_limits<double>::quiet_NaN();
    int line = 0; // the line of a table read back (0: computed in this run)
};

/// A method over the datasets: per-dataset AUCs are means over seeds first.
struct MethodSummary
{
    QString method;
    int datasets = 0;
    double meanAucRoc = 0.0;
    double medianAucRoc = 0.0;
    double meanAucPr = 0.0;
    double medianAucPr = 0.0;
    double averageRank = 0.0; // rank of the mean AUC-ROC among the methods on each dataset
};

/// The table as CSV (one line per row; a header first) and back. readAdbenchCsv throws
/// DataError naming the file, line and column of a malformed cell.
QByteArray adbenchCsv(const std::vector<AdbenchRow>& rows);
std::vector<AdbenchRow> readAdbenchCsv(const QString& path);

/// What a run covers, to check the partial table that --resume reads back against.
struct AdbenchRunScope
{
    QStringList datasets;
    std::vector<uint64_t> seeds;
    QStringList methods;
    bool otherMethods = false; // --external-scores adds methods known only as files are read
    /// What a row outside the run says to do about it.
    std::string hint = "the partial table of another run? delete it or run without --resume";
};

/// The rows of an interrupted run's partial table, each checked as readAdbenchCsv does and
/// against the run: its dataset, seed and method must be this run's, and no run may appear
/// twice. Throws DataError naming the line of the first row that fails: a row copied from
/// another run, or edited by hand, must not reach the final table and its means.
std::vector<AdbenchRow> readResumedRows(const QString& path, const AdbenchRunScope& scope);

/// Per-dataset means over seeds, indexed [method][dataset] in the orders given; NaN where a
/// method has no row for a dataset.
std::vector<std::vector<double>> datasetMeans(const std::vector<AdbenchRow>& rows,
                                              const QStringList& methods,
                                              const QStringList& datasets, bool pr = false);

/// Ranks of the methods on each dataset every method has (1 = best, ties share the mean rank),
/// indexed like `means`; NaN on the other datasets.
std::vector<std::vector<double>> datasetRanks(const std::vector<std::vector<double>>& means);

/// Mean, median and average rank (1 = best, ties share the mean rank) of each method over the
/// datasets every method has.
std::vector<MethodSummary> summarize(const std::vector<AdbenchRow>& rows,
                                     const QStringList& methods, const QStringList& datasets);

QJsonObject adbenchJson(const std::vector<AdbenchRow>& rows,
                        const std::vector<MethodSummary>& summary);

/// Per-dataset means over seeds of the hindsight gap (best grid AUC-ROC minus the chosen
/// l's) of `method`, in the order of `datasets`; NaN where no row of it has one.
std::vector<double> hindsightGaps(const std::vector<AdbenchRow>& rows, const QString& method,
                                  const QStringList& datasets);

/// The median of the values (NaN when there are none).
double medianOf(std::vector<double> v);

} // namespace sosrep::cli
