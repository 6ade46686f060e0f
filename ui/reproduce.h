// SPDX-License-Identifier: MIT
// The command and the Python that reproduce a view's fit (View > Copy as command / Python).
#pragma once

#include <QString>
#include <QStringList>

namespace sosrep::ui {

class RatioController;
class Session;

/// Whose numbers are reproduced: the density fit (every view but Scores) or the Scores view's
/// model (purpose auto: the anomaly purpose's).
enum class ReproducedView
{
    Density,
    Scores
};

/// The `sosrep fit` run and the Python lines that give the same fit and the same numbers as the
/// app: the data file, its feature columns and roles, the estimator with every option that is
/// not its default, the seed and the row cap (the app's 10 000 is not the command line's
/// default), the purpose the view tunes for, and the Scores view's outlier share. The scores
/// go to scores.csv (the command) or `scores` (Python): the log density per row (the density
/// view) or the normality score (the Scores view), equal to the app's bit for bit.
struct Reproduction
{
    QStringList generate;  // `sosrep generate` arguments first, for the toy data; else empty
    QStringList arguments; // `sosrep fit` arguments (without "sosrep")
    QString command;       // the shell lines: comments, then the command(s)
    QString python;        // a Python script that leaves the numbers in `scores`
};

/// Throws std::runtime_error when there is nothing to reproduce (no data).
Reproduction reproduce(const Session& session, ReproducedView view, double contamination);

/// The Ratio view's fit: `sosrep ratio` with the same p and q (a second file; the loaded data
/// split by a column's value or by a rectangle, with p all rows or the others; q's density or
/// function), the ratio estimator with every option that is not its default, and the seed. The
/// weights go to weights.csv (the command, as the view's Save weights writes them) or `weights`
/// (Python), equal to the view's bit for bit. Throws std::runtime_error when there is no data
/// or no q.
Reproduction reproduceRatio(const Session& session, const RatioController& ratio);

/// `text` quoted for a POSIX shell where it needs to be.
QString shellQuoted(const QString& text);

} // namespace sosrep::ui
