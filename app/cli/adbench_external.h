// SPDX-License-Identifier: MIT
// `sosrep adbench`: exported splits, external score files and the AUC chart.
#pragma once

#include "app/cli/adbench_table.h"
#include "core/report/chart.h"
#include "core/types.h"

#include <QString>
#include <QStringList>

namespace sosrep::cli {

/// The name of one dataset and seed's files in --export-splits and --external-scores:
/// "<file stem>_seed<seed>", e.g. 32_shuttle_seed42.
QString splitStem(const QString& npzFile, uint64_t seed);

/// Scores from other tools (PyOD...) for one dataset and seed: DIR/<stem>.csv with one column per
/// method, one row per test row in the order of --export-splits' <stem>_test.csv, higher = more
/// anomalous (PyOD's decision_function). Each column becomes a row of the table (selection
/// "external"). The file must exist (the plan checks it first). A file whose row count differs,
/// or with a non-finite score, is a DataError naming it.
std::vector<AdbenchRow> externalScoreRows(const QString& dir, const QString& npzFile, uint64_t seed,
                                          const Eigen::VectorXi& testLabels);

/// Box plots over the datasets of each method's AUC-ROC (the mean over seeds per dataset) and of
/// its rank among the methods (paper Figs. 1 and 5 of arXiv, 4 and 5 of ICML).
Chart adbenchChart(const std::vector<AdbenchRow>& rows, const QStringList& methods,
                   const QStringList& datasets, int seeds, double duplicate);

} // namespace sosrep::cli
