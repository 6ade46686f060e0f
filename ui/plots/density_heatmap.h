// SPDX-License-Identifier: MIT
#pragma once

#include "core/grid/density_grid.h"

#include <qcustomplot.h>

#include <optional>

namespace sosrep::ui {

/// Log-density heatmap with colour scale, data points (coloured by label when known) and
/// highest-density-region contours at 50/80/95 % of the grid-normalized mass, with a legend.
class DensityHeatmap : public QCustomPlot
{
    Q_OBJECT

public:
    explicit DensityHeatmap(QWidget* parent = nullptr);

    struct Content
    {
        const DensityGrid* grid = nullptr;
        Matrix points; // all feature columns (rows = samples)
        std::optional<Eigen::VectorXi> labels;
        QString title;
        QString valueLabel; // colour-scale label
        QString xLabel;
        QString yLabel;
        std::optional<QCPRange> colorRange; // shared scale for side-by-side comparison
        bool contours = true;
        bool legend = true;
    };
    void showContent(const Content& content);
    void clearContent(const QString& message);
    void setColormap(const QString& name);
    QCPRange dataRange() const;
    /// While on, dragging draws a rectangle (instead of panning) and emits rectanglePicked.
    void setPickMode(bool on);

signals:
    void rectanglePicked(double x0, double x1, double y0, double y1);
    void pickModeChanged(bool on);

private:
    QCPColorMap* m_map = nullptr;
    QCPColorScale* m_scale = nullptr;
    QCPTextElement* m_title = nullptr;
    QCPGraph* m_normal = nullptr;
    QCPGraph* m_anomaly = nullptr;
    QVector<QCPCurve*> m_contours;
};

} // namespace sosrep::ui
