// SPDX-License-Identifier: MIT
#pragma once

#include "core/grid/density_grid.h"

#include <qcustomplot.h>

#include <optional>

namespace sosrep::ui {

class FittedTitle;

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
    QString title() const;
    /// While on, dragging draws a rectangle (instead of panning) and emits rectanglePicked.
    void setPickMode(bool on);
    /// One unit on x as long as one on y (the compare maps, so shapes read alike side by side):
    /// the grid's box is kept whole and the shorter side's range is widened.
    void setEqualAspect(bool on);
    /// Data units per pixel on x and on y (equal with the equal aspect).
    QPointF unitsPerPixel() const;
    /// Without its own colour scale (a neighbour shows the shared one): the map gets the width.
    void hideColorScale();

protected:
    void resizeEvent(QResizeEvent* event) override;

signals:
    void rectanglePicked(double x0, double x1, double y0, double y1);
    void pickModeChanged(bool on);

private:
    void applyAspect();

    QCPColorMap* m_map = nullptr;
    bool m_equalAspect = false;
    QRectF m_box; // the grid's extent (x, y, width, height in data units)
    QCPColorScale* m_scale = nullptr;
    FittedTitle* m_title = nullptr;
    QCPGraph* m_normal = nullptr;
    QCPGraph* m_anomaly = nullptr;
    QVector<QCPCurve*> m_contours;
};

} // namespace sosrep::ui
