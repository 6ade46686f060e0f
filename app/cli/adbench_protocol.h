// SPDX-License-Identifier: MIT
// `sosrep adbench`: leave-one-dataset-out and leave-one-family-out choice of a rule.
#pragma once

// The selection protocol of `sosrep adbench`: a candidate rule (a method of the run) is chosen
// on some datasets and scored on others it did not see, by leave-one-dataset-out and
// leave-one-family-out, with the per-seed spread; and per-family summaries against a reference
// method. The choice a rule's author makes by looking at every dataset flatters it; these do
// not.

#include "app/cli/adbench_stats.h"
#include "app/cli/adbench_table.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <cstdint>
#include <vector>

namespace sosrep::cli {

/// The datasets of a run and the family (the folder) each came from, in run order.
struct DatasetFamilies
{
    QStringList datasets;
    QStringList families; // families[i] is the family of datasets[i]
    QStringList familyNames() const;
    QStringList datasetsOf(const QString& family) const;
};

/// One method on one family of datasets.
struct FamilySummary
{
    QString family;
    QString method;
    int datasets = 0;
    double meanAucRoc = 0.0;
    double medianAucRoc = 0.0;
    /// Datasets where the method's mean AUC-ROC is more than `margin` below the reference's
    /// (-1 without a reference).
    int farBelowReference = -1;
    /// Against the reference on the same datasets: mean difference, its paired bootstrap 95 %
    /// interval, sets won and lost by more than 0.05 (datasets 0 without a reference).
    PairedComparison vsReference;
    /// Mean rank among the run's methods on the family's datasets where all have a value
    /// (1 = best; NaN when there is none).
    double averageRank = 0.0;
    /// --hindsight: the mean over the family's datasets of the best grid AUC-ROC minus the
    /// chosen l's (NaN when not measured).
    double hindsightGap = 0.0;
};

/// Per family and method: mean and median AUC-ROC over the datasets (per-dataset means over
/// seeds first), and how many datasets fall more than `margin` below `reference` (a method of
/// the run, or empty).
std::vector<FamilySummary> summarizeFamilies(const std::vector<AdbenchRow>& rows,
                                             const QStringList& methods,
                                             const DatasetFamilies& data, const QString& reference,
                                             double margin = 0.10);

/// What a candidate family of rules gives on data its choice did not see.
struct ProtocolReport
{
    QStringList candidates;
    /// Leave-one-dataset-out: for each dataset (run order), the candidate with the best mean
    /// AUC-ROC over the other datasets, and its AUC-ROC on the held-out one (mean over seeds).
    QStringList lodoPicks;
    std::vector<double> lodoAuc;
    double lodoMean = 0.0;
    /// The same per seed (the choice made and scored on that seed's rows alone).
    std::vector<uint64_t> seeds;
    std::vector<double> lodoPerSeed;
    /// Leave-one-family-out: for each family, the candidate with the best mean AUC-ROC over
    /// the datasets of the other families, and its mean and median on this family.
    struct FamilyOut
    {
        QString family;
        QString pick; // empty when there is no other family to choose on
        double mean = 0.0;
        double median = 0.0;
        int datasets = 0;
    };
    std::vector<FamilyOut> lofo;
    /// Leave-one-dataset-out means restricted to each family's datasets (the same picks).
    std::vector<std::pair<QString, double>> lodoByFamily;
};

/// Runs the protocol over `candidates` (methods of the run). Datasets where some candidate has
/// no row are left out. Throws ParameterError("--lodo") with fewer than two datasets.
ProtocolReport selectionProtocol(const std::vector<AdbenchRow>& rows, const QStringList& candidates,
                                 const DatasetFamilies& data, const std::vector<uint64_t>& seeds);

/// The report as text (for the terminal) and as JSON (for --json-out).
QString protocolText(const ProtocolReport& report);
QJsonObject protocolJson(const ProtocolReport& report);
QString familySummaryText(const std::vector<FamilySummary>& summary, const QString& reference,
                          double margin = 0.10);
QJsonObject familySummaryJson(const std::vector<FamilySummary>& summary, const QString& reference);

/// A dataset where a method's mean AUC-ROC is more than `margin` below the reference's.
struct ReferenceLoss
{
    QString family, dataset, method;
    double aucRoc = 0.0, reference = 0.0;
    double bestGridAuc = 0.0; // NaN when not measured
};

/// Every such loss of every method but the reference, by family, dataset and method.
std::vector<ReferenceLoss> referenceLosses(const std::vector<AdbenchRow>& rows,
                                           const QStringList& methods, const DatasetFamilies& data,
                                           const QString& reference, double margin = 0.05);
QString referenceLossText(const std::vector<ReferenceLoss>& losses, const QString& reference,
                          double margin = 0.05);
QJsonArray referenceLossJson(const std::vector<ReferenceLoss>& losses);

} // namespace sosrep::cli
