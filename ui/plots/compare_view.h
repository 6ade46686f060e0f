// SPDX-License-Identifier: MIT
#pragma once

#include "core/estimators/cluster_comparison.h"
#include "ui/controller/fit_job.h"

#include <QWidget>

class QCustomPlot;
class QLabel;

namespace sosrep::ui {

class DensityHeatmap;

/// SOSREP and KDE side by side on one colour scale (each normalized on the grid, so the
/// pre-density and the density are comparable), their difference, and the paper's two-cluster
/// comparison (App. F.1, Fig. 4).
class CompareView : public QWidget
{
    Q_OBJECT

public:
    explicit CompareView(QWidget* parent = nullptr);
    void showResult(const FitJobResult& result, const Matrix& features,
                    const std::optional<Eigen::VectorXi>& labels, const QStringList& names);
    void showClusters(const ClusterComparison& c, const QString& description);
    void clear(const QString& message);

    DensityHeatmap* sosrepView() const { return m_sosrep; }
    DensityHeatmap* kdeView() const { return m_kde; }
    DensityHeatmap* differenceView() const { return m_diff; }
    QCustomPlot* clusterPlot() const { return m_clusters; }

private:
    DensityHeatmap* m_sosrep;
    DensityHeatmap* m_kde;
    DensityHeatmap* m_diff;
    QCustomPlot* m_clusters;
    QLabel* m_clusterInfo;
    DensityGrid m_normSosrep;
    DensityGrid m_normKde;
    DensityGrid m_difference;
};

} // namespace sosrep::ui
