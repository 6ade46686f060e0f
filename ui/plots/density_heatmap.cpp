// SPDX-License-Identifier: MIT
#include "ui/plots/density_heatmap.h"

#include "core/grid/contour.h"
#include "ui/plots/fitted_title.h"
#include "ui/plots/plot_style.h"

namespace sosrep::ui {
namespace {
constexpr double kColorBandNats = 25.0; // colour scale spans [max - 25, max] in log density
} // namespace

DensityHeatmap::DensityHeatmap(QWidget* parent) : QCustomPlot(parent)
{
    setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    plotLayout()->insertRow(0);
    m_title = new FittedTitle(this, QFont(font().family(), 10, QFont::Bold));
    plotLayout()->addElement(0, 0, m_title);
    m_map = new QCPColorMap(xAxis, yAxis);
    m_map->setInterpolate(true);
    m_scale = new QCPColorScale(this);
    plotLayout()->addElement(1, 1, m_scale);
    m_scale->setType(QCPAxis::atRight);
    m_map->setColorScale(m_scale);
    m_map->setGradient(colormap(QStringLiteral("viridis")));
    // The colour scale takes only the width its labels need; the map gets the rest.
    plotLayout()->setColumnStretchFactor(1, 0.01);
    // Keep the colour scale as tall as the plot.
    auto* group = new QCPMarginGroup(this);
    axisRect()->setMarginGroup(QCP::msBottom | QCP::msTop, group);
    m_scale->setMarginGroup(QCP::msBottom | QCP::msTop, group);

    m_normal = addGraph();
    m_normal->setLineStyle(QCPGraph::lsNone);
    m_normal->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, QColor(0, 0, 0, 160),
                                              QColor(255, 255, 255, 150), 4));
    m_normal->setName(QStringLiteral("data"));
    m_anomaly = addGraph();
    m_anomaly->setLineStyle(QCPGraph::lsNone);
    m_anomaly->setScatterStyle(
        QCPScatterStyle(QCPScatterStyle::ssCross, QPen(colors::anomaly(), 1.6), QBrush(), 7));
    m_anomaly->setName(QStringLiteral("label = 1 (anomaly)"));
    // Dark lines: viridis is brightest where the density is highest, where the contours are.
    const QColor contourColors[3] = {QColor(20, 20, 20), QColor(50, 50, 50), QColor(80, 80, 80)};
    const Qt::PenStyle contourStyles[3] = {Qt::SolidLine, Qt::DashLine, Qt::DotLine};
    const char* names[3] = {"50 % HDR", "80 % HDR", "95 % HDR"};
    for (int k = 0; k < 3; ++k) {
        auto* c = new QCPCurve(xAxis, yAxis);
        c->setPen(QPen(contourColors[k], 1.6, contourStyles[k]));
        c->setName(QString::fromLatin1(names[k]));
        m_contours << c;
    }
    legend->setVisible(true);
    legend->setBrush(QColor(255, 255, 255, 200));
    legend->setFont(QFont(font().family(), 8));
    legend->removeItem(legend->itemWithPlottable(m_map));
    axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignRight);
    selectionRect()->setPen(QPen(Qt::white, 1.5, Qt::DashLine));
    selectionRect()->setBrush(QColor(255, 255, 255, 50));
    connect(selectionRect(), &QCPSelectionRect::accepted, this,
            [this](const QRect& r, QMouseEvent*) {
                emit rectanglePicked(xAxis->pixelToCoord(r.left()), xAxis->pixelToCoord(r.right()),
                                     yAxis->pixelToCoord(r.bottom()), yAxis->pixelToCoord(r.top()));
                setPickMode(false);
            });
}

void DensityHeatmap::setPickMode(bool on)
{
    setSelectionRectMode(on ? QCP::srmCustom : QCP::srmNone);
    setCursor(on ? Qt::CrossCursor : Qt::ArrowCursor);
    emit pickModeChanged(on);
}

void DensityHeatmap::setColormap(const QString& name)
{
    m_map->setGradient(colormap(name));
    replot();
}

QCPRange DensityHeatmap::dataRange() const
{
    return m_map->dataRange();
}

void DensityHeatmap::clearContent(const QString& message)
{
    m_map->data()->clear();
    m_normal->data()->clear();
    m_anomaly->data()->clear();
    for (auto* c : m_contours) {
        c->data()->clear();
    }
    m_title->setFullText(message);
    replot();
}

void DensityHeatmap::showContent(const Content& c)
{
    const DensityGrid& g = *c.grid;
    const GridSpec& s = g.spec;
    m_map->data()->setSize(s.nx, s.ny);
    m_map->data()->setRange(QCPRange(s.x(0), s.x(s.nx - 1)), QCPRange(s.y(0), s.y(s.ny - 1)));
    for (int j = 0; j < s.ny; ++j) {
        for (int i = 0; i < s.nx; ++i) {
            m_map->data()->setCell(i, j, g.logDensity(j, i));
        }
    }
    QString valueLabel = c.valueLabel;
    if (c.colorRange) {
        m_map->setDataRange(*c.colorRange);
    } else {
        // A fixed band below the peak: log densities of a sliced or sharp model reach -1e4, which
        // would spend the whole colour map on empty corners.
        const double hi = g.logDensity.maxCoeff();
        const double lo = std::max(g.logDensity.minCoeff(), hi - kColorBandNats);
        m_map->setDataRange(QCPRange(lo, hi));
        if (g.logDensity.minCoeff() < lo) {
            valueLabel += tr(" (lower values clipped)");
        }
    }
    m_scale->axis()->setLabel(valueLabel);

    QVector<double> nx, ny, ax, ay;
    for (Eigen::Index r = 0; r < c.points.rows(); ++r) {
        const bool anomalous = c.labels && (*c.labels)(r) != 0;
        (anomalous ? ax : nx) << c.points(r, s.xColumn);
        (anomalous ? ay : ny) << c.points(r, s.yColumn);
    }
    m_normal->setData(nx, ny);
    m_anomaly->setData(ax, ay);
    m_anomaly->removeFromLegend();
    if (!ax.isEmpty()) {
        m_anomaly->addToLegend();
    }

    std::vector<double> xs(static_cast<size_t>(s.nx)), ys(static_cast<size_t>(s.ny));
    for (int i = 0; i < s.nx; ++i) {
        xs[size_t(i)] = s.x(i);
    }
    for (int j = 0; j < s.ny; ++j) {
        ys[size_t(j)] = s.y(j);
    }
    const std::vector<double> levels = highestDensityLevels(g.logDensity, {0.5, 0.8, 0.95});
    for (int k = 0; k < 3; ++k) {
        QVector<double> t, x, y;
        if (c.contours) {
            // One curve per level; NaN points break it between segments.
            int n = 0;
            for (const ContourSegment& seg :
                 marchingSquares(g.logDensity, xs, ys, levels[size_t(k)])) {
                t << n << n + 1 << n + 2;
                x << seg.x0 << seg.x1 << qQNaN();
                y << seg.y0 << seg.y1 << qQNaN();
                n += 3;
            }
        }
        m_contours[k]->setData(t, x, y, true);
        m_contours[k]->setVisible(c.contours);
    }
    xAxis->setLabel(c.xLabel);
    yAxis->setLabel(c.yLabel);
    xAxis->setRange(s.xMin, s.xMax);
    yAxis->setRange(s.yMin, s.yMax);
    m_box = QRectF(s.xMin, s.yMin, s.xMax - s.xMin, s.yMax - s.yMin);
    m_title->setFullText(c.title);
    legend->setVisible(c.legend);
    replot();
    applyAspect();
}

void DensityHeatmap::hideColorScale()
{
    if (plotLayout()->take(m_scale)) {
        plotLayout()->simplify();
        m_scale->setVisible(false);
    }
}

void DensityHeatmap::setEqualAspect(bool on)
{
    m_equalAspect = on;
    applyAspect();
}

QString DensityHeatmap::title() const
{
    return m_title->fullText();
}

QPointF DensityHeatmap::unitsPerPixel() const
{
    const QRect r = axisRect()->rect();
    return {xAxis->range().size() / std::max(1, r.width()),
            yAxis->range().size() / std::max(1, r.height())};
}

void DensityHeatmap::resizeEvent(QResizeEvent* event)
{
    QCustomPlot::resizeEvent(event);
    applyAspect();
}

void DensityHeatmap::applyAspect()
{
    if (!m_equalAspect || m_box.isEmpty()) {
        return;
    }
    // The layout must be current to know the axis rectangle's pixels.
    plotLayout()->update(QCPLayoutElement::upLayout);
    const QRect r = axisRect()->rect();
    if (r.width() < 10 || r.height() < 10) {
        return;
    }
    const double perPixel = std::max(m_box.width() / r.width(), m_box.height() / r.height());
    const QPointF c = m_box.center();
    xAxis->setRange(c.x() - perPixel * r.width() / 2, c.x() + perPixel * r.width() / 2);
    yAxis->setRange(c.y() - perPixel * r.height() / 2, c.y() + perPixel * r.height() / 2);
    replot(rpQueuedReplot);
}

} // namespace sosrep::ui
