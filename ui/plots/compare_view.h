// SPDX-License-Identifier: MIT
// The Compare view: estimators side by side on the same data.
#pragma once

#include "core/estimators/cluster_comparison.h"
#include "ui/controller/fit_job.h"

#include <QWidget>

#include <utility>

class QCPAxisRect;
class QCPGraph;
class QCPLegend;
class QCustomPlot;
class QLabel;

namespace sosrep::ui {

class DensityHeatmap;

/// The fitted model and a second estimator (by default SOSREP beside KDE) side by side on one
/// colour scale (each normalized on the grid, so a pre-density and a density are comparable),
/// their difference, and the paper's two-cluster comparison (App. F.1, Fig. 4).
class CompareView : public QWidget
{
    Q_OBJECT

public:
    explicit CompareView(QWidget* parent = nullptr);
    void showResult(const FitJobResult& result, const Matrix& features,
                    const std::optional<Eigen::VectorXi>& labels, const QStringList& names);
    void showClusters(const ClusterComparison& c, const QString& description);
    void clear(const QString& message);

    DensityHeatmap* firstView() const { return m_first; }
    DensityHeatmap* secondView() const { return m_second; }
    DensityHeatmap* differenceView() const { return m_diff; }
    QCustomPlot* clusterPlot() const { return m_clusters; }
    /// The MMD read-out under the maps (held-out and training rows, per estimator).
    QString mmdText() const;
    /// The MMD read-out's paragraph for `m` (what mmdText() shows after a fit).
    static QString mmdParagraphOf(const MmdReadout& m);
    /// The per-row score comparison's read-out (Spearman correlation, AUCs on the rows shown).
    QString scoreText() const;
    QString clusterText() const;
    /// Says that the cluster comparison is being computed (it arrives after the fit).
    void showClustersPending(const QString& description);
    /// Rows drawn in the per-row score scatter (normal and anomalous).
    int scatterPoints() const;

private:
    /// The two models' maps on one colour scale and their log ratio (both on the grid's
    /// normalization unless `normalized`: two true densities).
    void showDensities(const FitJobResult& r, const Matrix& features,
                       const std::optional<Eigen::VectorXi>& labels, const QStringList& names,
                       bool normalized);
    /// The pieces of the constructor: the three maps and the read-outs in one grid; panels (b)
    /// log densities by cluster and (a) kernel-value histograms; (c) the two models' per-row
    /// scores against each other; each panel's legend.
    void buildLayout();
    std::pair<QCPAxisRect*, QCPAxisRect*> buildClusterPanels();
    void buildScatterPanel();
    void addPanelLegends(QCPAxisRect* left, QCPAxisRect* right);
    /// The cluster panel's y range: robust to a few extreme rows, clipping said on the axis.
    void setClusterValueRange(const ClusterComparison& c);
    /// Per-row scores of the two models against each other (as percentiles: any two detectors
    /// compare, whatever their scales), anomalies marked, with the rank correlation.
    void showScoreScatter(const FitJobResult& r, const std::optional<Eigen::VectorXi>& labels);
    /// Maps of models without a common density scale (a normality score): percentiles.
    void showPercentiles(const FitJobResult& r, const Matrix& features,
                         const std::optional<Eigen::VectorXi>& labels, const QStringList& names,
                         const QString& first, const QString& second);

    DensityHeatmap* m_first;
    DensityHeatmap* m_second;
    DensityHeatmap* m_diff;
    QCustomPlot* m_clusters;
    QLabel* m_clusterInfo;
    /// A normality score (IForest, kNN, the anomaly rule) is one of the pair: no log-density
    /// gap between clusters exists, so the cluster panel is not drawn.
    QString m_scoreModel;
    QCPLegend* m_scatterLegend = nullptr;
    void showClusterPanels(bool on);
    QLabel* m_mmdInfo;
    QLabel* m_scoreInfo;
    QCPAxisRect* m_scatterRect = nullptr;
    QCPGraph* m_scatterNormal = nullptr;
    QCPGraph* m_scatterAnomaly = nullptr;
    QCPGraph* m_scatterDiagonal = nullptr;
    DensityGrid m_normFirst;
    DensityGrid m_normSecond;
    DensityGrid m_difference;
};

} // namespace sosrep::ui
