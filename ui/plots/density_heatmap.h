// SPDX-License-Identifier: MIT
// The 2-D log-density map with contours, points and hover.
#pragma once

#include "ui/plots/joint_edges.h"

#include "core/data/scaler.h"
#include "core/grid/density_grid.h"

#include <qcustomplot.h>

#include <functional>
#include <optional>

namespace sosrep::ui {

class FittedTitle;

/// How a density map is coloured: log density (default: the tails stay readable), density on
/// a linear scale (where the mass is: seaborn's kdeplot), or filled iso-proportion levels (each
/// cell by the share of the mass in less dense cells, in 10 steps: seaborn's fill=True).
enum class MapScale
{
    Log,
    Linear,
    Proportion
};

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
        bool slice = false; // more than two columns: the contours are the slice's
        /// The rows the model was fitted on, ascending (empty = all): the others are drawn
        /// as small grey dots, scored but not fitted.
        std::vector<Eigen::Index> fitRows;
        bool legend = true;
        /// A normality score is not a density: no highest-density region exists. When set,
        /// the three contours are these score levels (the quantiles of the rows' scores that
        /// hold 50/80/95 % of the rows above them: each encloses the 50/80/95 % most normal
        /// rows, and is named so), instead of HDR levels.
        std::vector<double> scoreLevels;
        /// The colouring; a normality score (scoreLevels) is always drawn as it is.
        MapScale scale = MapScale::Log;
        /// The model's value at a point of the map (scaled coordinates), in the grid's log
        /// units (sliceLogValue), for the hover's read-out; unset (a map normalized on its
        /// grid, a difference), the read-out gives the grid cell's value and says so.
        std::function<double(double x, double y)> modelValue;
    };
    void showContent(const Content& content);

    /// Per-class densities over the map (seaborn's hue): each class's 50/80/95 % HDR contours
    /// in its colour, named in the legend ("label = 1 (25 rows)"); the map's own contours step
    /// back while they are shown. Grids on another spec than the map's are not drawn. Empty:
    /// none.
    struct ClassContours
    {
        QString name;
        QColor color;
        const DensityGrid* grid = nullptr;
    };
    void setClasses(const std::vector<ClassContours>& classes);
    /// The classes' legend names, in order (for tests).
    QStringList classNames() const;

    /// What the view knows about the rows beyond their scaled coordinates: raw values and
    /// names (hover read-out, ticks in the data's own units) and anomaly scores.
    struct RowInfo
    {
        Matrix raw; // the feature columns as read; rows = the data's rows
        QStringList names;
        Vector anomalyScores; // empty = none
        QString scoreName;
        Scaler scaler; // raw = shift + scale * scaled
    };
    void setRowInfo(RowInfo info);
    /// Rows drawn with a ring (linked to the scores table's selection).
    void setHighlighted(const QList<qint64>& rows);
    int highlightedCount() const;
    /// The hover read-out at a pixel: the nearest row within 8 pixels (row, raw values with the
    /// scaled ones, score), else the position in raw and scaled units and the map's value.
    QString readoutAt(const QPointF& pixel) const;
    /// Rows whose plotted columns lie in a rectangle (scaled units).
    QList<qint64> rowsIn(double x0, double x1, double y0, double y1) const;
    void clearContent(const QString& message);
    void setColormap(const QString& name);
    QCPRange dataRange() const;
    QString title() const;
    /// The colouring the map has now (Log for a normality score whatever was asked).
    MapScale shownScale() const { return m_shownScale; }
    /// The gradient the map is coloured with at `scale`: the colour map, or for iso-proportions
    /// its kProportionLevels flat bands of equal width.
    QCPColorGradient gradientFor(MapScale scale) const;
    /// The colour scale (its caption must fit its length: tests read both).
    QCPColorScale* colorScale() const { return m_scale; }
    /// While on, dragging draws a rectangle (instead of panning) and emits rectanglePicked.
    void setPickMode(bool on);
    /// One unit on x as long as one on y (the compare maps, so shapes read alike side by side):
    /// the grid's box is kept whole and the shorter side's range is widened.
    void setEqualAspect(bool on);

    /// A joint plot (seaborn's jointplot): the map with the 1-D marginal densities of its two
    /// columns on its top and right edges, sharing the map's axes. Off: the map alone.
    using Edge = JointEdges::Edge;
    void setJoint(bool on, const Edge& x = {}, const Edge& y = {});
    const JointEdges& joint() const { return *m_joint; }
    /// Tick count of both axes (narrow maps use fewer).
    void setTickCount(int count);
    /// Back to the whole map after a zoom or a drag (View ▸ Reset zoom, Home, double-click).
    void resetZoom();
    /// Data units per pixel on x and on y (equal with the equal aspect).
    QPointF unitsPerPixel() const;
    /// The colour scale as a horizontal bar under the map (side-by-side maps: the width goes
    /// to the map). `shown` false keeps its room but draws nothing (a neighbour shows the
    /// shared scale), so maps side by side stay the same height.
    void placeColorScaleBelow(bool shown);

protected:
    /// A pointer at rest: the read-out stays (the widget's own tooltip would replace it).
    bool event(QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;

signals:
    void rectanglePicked(double x0, double x1, double y0, double y1);
    /// Shift-drag: the rows inside the rectangle (the scores table selects them).
    void rowsPicked(const QList<qint64>& rows);
    void pickModeChanged(bool on);

private:
    void applyAspect();
    void showAxes(bool on);
    void applyTickers();
    /// The parts of showContent: the colour map and its scale, the rows (normal, fitted or
    /// not, anomalies), the three contour levels.
    void showGrid(const Content& c);
    void showPoints(const Content& c);
    void showContours(const Content& c);
    void onHover(QMouseEvent* event);
    /// The read-out's value line at (x, y): the model's value, or the grid cell's, named so.
    QString valueLineAt(double x, double y) const;
    int rowNear(const QPointF& pixel) const;

    QCPColorMap* m_map = nullptr;
    bool m_equalAspect = false;
    QRectF m_box;      // the grid's extent (x, y, width, height in data units)
    Matrix m_points;   // scaled features of every row
    int m_xColumn = 0; // the plotted columns
    int m_yColumn = 1;
    RowInfo m_info;
    std::function<double(double, double)> m_modelValue; // Content::modelValue
    QCPGraph* m_highlight = nullptr;
    bool m_selectingRows = false; // the current drag selects rows (shift held)
    int m_tickCount = 5;
    QCPColorScale* m_scale = nullptr;
    QVector<QCPCurve*> m_classCurves;  // one per hue class, made on first use
    GridSpec m_shownSpec;              // the grid the map shows
    std::optional<JointEdges> m_joint; // the joint plot's edges (made with the colour scale)
    bool m_mainContours = true;        // what the content asked for the map's own contours
    MapScale m_shownScale = MapScale::Log;
    QString m_colormap = QStringLiteral("viridis"); // the colour map's name (colormap())
    bool m_scaleShown = true;                       // false: its room is kept, nothing drawn
    FittedTitle* m_title = nullptr;
    QCPGraph* m_normal = nullptr;
    QCPGraph* m_unfitted = nullptr; // rows outside the fit subsample
    QCPGraph* m_anomaly = nullptr;
    QVector<QCPCurve*> m_contours;
};

} // namespace sosrep::ui
