// SPDX-License-Identifier: MIT
// The Scores view's histogram and ROC curve, with the threshold.
#pragma once

#include "core/types.h"

#include <qcustomplot.h>

#include <optional>

namespace sosrep::ui {

class FittedTitle;

/// Anomaly-score histogram (split by label when known) and, with labels, the ROC curve with
/// AUC-ROC and AUC-PR, side by side.
class ScorePlots : public QCustomPlot
{
    Q_OBJECT

public:
    explicit ScorePlots(QWidget* parent = nullptr);
    /// `normality`: the scores are minus a normality score (IForest, kNN, rank ensemble), not
    /// -log p. `fitRows` (ascending; empty = all rows fitted) get their own outline.
    ///
    /// Readable on real data: the x axis spans the 0.5-99.5 % quantiles when the tails would
    /// squeeze the rest into a few bins (rows beyond are counted in the edge bins, and the title
    /// says how many), and each class is drawn as a density (its bars sum to one) so a few
    /// anomalies show beside tens of thousands of normal rows.
    void setScores(const Vector& anomalyScores, const std::optional<Eigen::VectorXi>& labels,
                   bool normality = false, const std::vector<Eigen::Index>& fitRows = {});
    QString histogramTitle() const;
    QString rocTitle() const;
    /// The histogram's x range (for tests).
    QCPRange histogramRange() const;
    /// No scores: empty panels that say so (`note`, if given, in the histogram's title).
    void clearScores(const QString& note = QString());
    /// The outlier threshold as an anomaly score (rows above it are flagged): a dashed line on
    /// the histogram, or none.
    void setThreshold(std::optional<double> anomalyScore);
    std::optional<double> threshold() const { return m_thresholdValue; }

    /// Other models' ROC curves over the same rows and labels (Orange's ROC Analysis), one line
    /// each, named with its AUC-ROC in the ROC panel's legend; empty: none. `modelName` names
    /// this model's curve there.
    void setOtherRocs(const std::vector<std::pair<QString, Vector>>& anomalyScores,
                      const QString& modelName);
    /// The ROC panel's legend entries, and the lines drawn on it (tests).
    QStringList rocLegendNames() const;
    int rocCurveCount() const;
    /// A cut-off's point on this model's ROC curve, (FPR, TPR), rows scoring above it flagged;
    /// none without labels of both classes.
    std::optional<QPointF> rocPointOf(double anomalyScore) const;
    /// The cut-off of the point of this model's curve nearest to (FPR, TPR): halfway between
    /// the last score flagged and the next (what a click on the panel chooses).
    std::optional<double> cutoffNear(double fpr, double tpr) const;

signals:
    /// A click on the ROC panel chose a cut-off (cutoffNear): rows scoring above it are flagged.
    void rocCutoffChosen(double anomalyScore);

private:
    void rocClicked(QMouseEvent* event);
    void showRocPoint();
    Vector m_scores;
    std::optional<Eigen::VectorXi> m_labels;
    std::vector<QCPGraph*> m_otherRocs;
    QCPLegend* m_rocLegend = nullptr;
    QCPGraph* m_rocPoint = nullptr;

    /// The parts of setScores: the legend's rows and the y range of the histograms shown, and
    /// the ROC panel (or why there is none).
    void syncHistogramLegendAndRange();
    void showRoc(const Vector& scores, const std::optional<Eigen::VectorXi>& labels,
                 bool twoClasses);

    QCPAxisRect* m_histRect;
    QCPAxisRect* m_rocRect;
    QCPGraph* m_histAll;
    QCPGraph* m_histAnomalies;
    QCPGraph* m_histFitted;
    QCPLegend* m_histLegend;
    QCPGraph* m_roc;
    QCPGraph* m_chance;
    QCPItemStraightLine* m_threshold = nullptr;
    std::optional<double> m_thresholdValue;
    FittedTitle* m_histTitle = nullptr;
    FittedTitle* m_rocTitle = nullptr;
};

} // namespace sosrep::ui
