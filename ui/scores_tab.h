// SPDX-License-Identifier: MIT
// The Scores tab: every row's score in a table, histogram and ROC, the AUC line, how the Scores
// view's length scale was tuned, the outlier threshold and the ROC curves of other estimators.
#pragma once

#include "core/types.h"
#include "ui/controller/fit_job.h"

#include <QList>
#include <QString>
#include <QWidget>

class QLabel;
class QSortFilterProxyModel;
class QTableView;
class QToolButton;

namespace sosrep::ui {

class OtherRocController;
class OutlierBar;
class ScorePlots;
class ScoresModel;
class Session;
class ThresholdController;

/// How the Scores view's model was tuned, in words (its rule, its ℓ, its own scaling); the FD
/// view says it too. `densityScaler` is the density view's (the Scores' may be its own).
QString scoresTuningText(const FitJobResult& r, const Scaler& densityScaler);

/// The Scores tab, bound to the session's result, the threshold's controller and the other
/// estimators' ROC curves. A large fit's rows are scored after the density view shows
/// (FitJobResult::scoresDeferred): the tab says so until the session's scoresReady.
class ScoresTab : public QWidget
{
    Q_OBJECT

public:
    ScoresTab(Session* session, ThresholdController* thresholds, OtherRocController* otherRocs,
              QWidget* parent = nullptr);

    /// The table, histogram, ROC, AUC and tuning line of the result, or what they wait for.
    void showScores();
    /// Nothing scored (new data): `message` where the AUC goes.
    void clear();
    ScorePlots* plots() const { return m_plots; }
    /// The AUC line (and the confusion counts at the threshold).
    QString aucText() const;
    /// How the Scores view's model was tuned, as the tab says it.
    QString tuningText() const;
    /// The flags at the threshold `offset` read against 0/1 labels: the confusion counts,
    /// precision and recall, and the precision of the k most anomalous rows (k = the labelled
    /// anomalies' count).
    static QString confusionText(const Vector& logValues, const Eigen::VectorXi& labels,
                                 double offset);
    /// Linked views: the table's selected rows (data rows), and selecting rows there.
    QList<qint64> selectedRows() const;
    void selectRows(const QList<qint64>& rows);
    /// The selected rows as the table shows them, tab-separated (Edit > Copy).
    QString selectedRowsText() const;
    /// The outlier flags: the table's column, the histogram's line, the bar (again when a
    /// project set the share).
    void showThreshold();

signals:
    /// The table's selection changed (the maps ring the rows).
    void rowsSelected(const QList<qint64>& rows);
    void message(const QString& text, int milliseconds);

private:
    /// The "ROC of…" button: a checkable menu of the other density estimators and detectors
    /// whose ROC curves join this model's (OtherRocController::setEstimators).
    QToolButton* makeRocButton();
    void showOtherRocs();

    Session* m_session;
    ThresholdController* m_thresholds;
    OtherRocController* m_otherRocs;
    QLabel* m_aucLabel;
    QLabel* m_tuning;
    OutlierBar* m_outlierBar;
    ScorePlots* m_plots;
    ScoresModel* m_model;
    QSortFilterProxyModel* m_proxy;
    QTableView* m_table;
};

} // namespace sosrep::ui
