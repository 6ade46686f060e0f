// SPDX-License-Identifier: MIT
// The 2-D log-density map with contours, points and hover.
#include "ui/plots/density_heatmap.h"

#include "ui/plots/map_mass.h"

#include "core/grid/contour.h"
#include "ui/plots/fitted_title.h"
#include "ui/plots/legend_placement.h"
#include "ui/plots/plot_style.h"
#include "ui/plots/raw_units_ticker.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <utility>
#include <vector>

namespace sosrep::ui {
namespace {
constexpr double kColorBandNats = 25.0; // colour scale spans [max - 25, max] in log density
constexpr int kProportionLevels = 10;   // filled iso-proportion levels, as seaborn's default

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
    m_joint.emplace(this, m_scale);
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

    m_unfitted = addGraph();
    m_unfitted->setLineStyle(QCPGraph::lsNone);
    // Rows only scored: open rings, visible on the dark and the bright end of the colour map
    // (grey dots of 2.5 px vanished on shuttle's 39 000 such rows).
    m_unfitted->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, QColor(70, 70, 70, 170),
                                                QColor(255, 255, 255, 70), 3.5));
    m_unfitted->removeFromLegend();
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
    legend->removeItem(legend->itemWithPlottable(m_map));
    axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignRight);
    selectionRect()->setPen(QPen(Qt::white, 1.5, Qt::DashLine));
    selectionRect()->setBrush(QColor(255, 255, 255, 50));
    connect(selectionRect(), &QCPSelectionRect::accepted, this,
            [this](const QRect& r, QMouseEvent*) {
                const double x0 = xAxis->pixelToCoord(r.left());
                const double x1 = xAxis->pixelToCoord(r.right());
                const double y0 = yAxis->pixelToCoord(r.bottom());
                const double y1 = yAxis->pixelToCoord(r.top());
                if (m_selectingRows) {
                    m_selectingRows = false;
                    setSelectionRectMode(QCP::srmNone);
                    emit rowsPicked(rowsIn(x0, x1, y0, y1));
                    return;
                }
                emit rectanglePicked(x0, x1, y0, y1);
                setPickMode(false);
            });
    m_highlight = addGraph();
    m_highlight->setLineStyle(QCPGraph::lsNone);
    m_highlight->setScatterStyle(
        QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(QColor(255, 0, 255), 2), QBrush(), 11));
    m_highlight->setName(QStringLiteral("selected rows"));
    m_highlight->removeFromLegend();
    setMouseTracking(true);
    connect(this, &QCustomPlot::mouseMove, this, &DensityHeatmap::onHover);
    applyPlotStyle(this);
}

void DensityHeatmap::mousePressEvent(QMouseEvent* event)
{
    // Shift-drag selects rows; a plain drag pans (pick mode keeps its own rectangle).
    if (event->modifiers().testFlag(Qt::ShiftModifier) && selectionRectMode() == QCP::srmNone &&
        m_points.rows() > 0) {
        m_selectingRows = true;
        setSelectionRectMode(QCP::srmCustom);
    }
    QCustomPlot::mousePressEvent(event);
}

void DensityHeatmap::setTickCount(int count)
{
    m_tickCount = count;
    applyTickers();
}

void DensityHeatmap::setRowInfo(RowInfo info)
{
    m_info = std::move(info);
    applyTickers();
    replot(rpQueuedReplot);
}

void DensityHeatmap::applyTickers()
{
    // Labels in the data's units only with the scaling of these rows: a scaler of other data
    // (its columns counted apart from the shown points') would put its numbers on these axes.
    const Scaler& sc = m_info.scaler;
    const bool raw = !sc.isIdentity() && sc.scale.size() == m_points.cols() &&
                     sc.scale.size() > std::max(m_xColumn, m_yColumn);
    for (auto [axis, col] : {std::pair{xAxis, m_xColumn}, std::pair{yAxis, m_yColumn}}) {
        QSharedPointer<QCPAxisTicker> t =
            raw ? QSharedPointer<QCPAxisTicker>(new RawUnitsTicker(sc, col))
                : QSharedPointer<QCPAxisTicker>(new QCPAxisTicker);
        t->setTickCount(m_tickCount);
        axis->setTicker(t);
    }
}

void DensityHeatmap::setHighlighted(const QList<qint64>& rows)
{
    QVector<double> x, y;
    for (qint64 r : rows) {
        if (r >= 0 && r < m_points.rows()) {
            x << m_points(r, m_xColumn);
            y << m_points(r, m_yColumn);
        }
    }
    m_highlight->setData(x, y);
    if (x.isEmpty()) {
        m_highlight->removeFromLegend();
    } else if (!legend->hasItemWithPlottable(m_highlight)) {
        m_highlight->addToLegend();
    }
    replot(rpQueuedReplot);
}

int DensityHeatmap::highlightedCount() const
{
    return m_highlight->dataCount();
}

QList<qint64> DensityHeatmap::rowsIn(double x0, double x1, double y0, double y1) const
{
    QList<qint64> rows;
    for (Eigen::Index r = 0; r < m_points.rows(); ++r) {
        const double px = m_points(r, m_xColumn);
        const double py = m_points(r, m_yColumn);
        if (px >= std::min(x0, x1) && px <= std::max(x0, x1) && py >= std::min(y0, y1) &&
            py <= std::max(y0, y1)) {
            rows << qint64(r);
        }
    }
    return rows;
}

int DensityHeatmap::rowNear(const QPointF& pixel) const
{
    double best = 8.0;
    int row = -1;
    for (Eigen::Index r = 0; r < m_points.rows(); ++r) {
        const double d = std::hypot(xAxis->coordToPixel(m_points(r, m_xColumn)) - pixel.x(),
                                    yAxis->coordToPixel(m_points(r, m_yColumn)) - pixel.y());
        if (d < best) {
            best = d;
            row = int(r);
        }
    }
    return row;
}

QString DensityHeatmap::readoutAt(const QPointF& pixel) const
{
    if (m_map->data()->isEmpty() || !axisRect()->rect().contains(pixel.toPoint())) {
        return {};
    }
    const Scaler& sc = m_info.scaler;
    auto both = [&](int col, double scaled) {
        if (sc.isIdentity() || sc.scale.size() <= col) {
            return QString::number(scaled, 'g', 5);
        }
        return QStringLiteral("%1 (scaled %2)")
            .arg(sc.toData(col, scaled), 0, 'g', 5)
            .arg(scaled, 0, 'g', 4);
    };
    const int row = rowNear(pixel);
    const double x = xAxis->pixelToCoord(pixel.x());
    const double y = yAxis->pixelToCoord(pixel.y());
    // The value under the pointer in the colour bar's units: the model's own there when it is
    // known (a grid cell's value is its centre's, up to half a cell away), else the cell's.
    const QString mapLine = valueLineAt(x, y);
    QStringList lines;
    if (row >= 0) {
        lines << QStringLiteral("row %1").arg(row);
        for (int col = 0; col < m_points.cols(); ++col) {
            const QString name = m_info.names.value(col, QStringLiteral("x%1").arg(col + 1));
            lines << QStringLiteral("%1 = %2").arg(name, both(col, m_points(row, col)));
        }
        if (m_info.anomalyScores.size() > row) {
            lines << QStringLiteral("%1 = %2")
                         .arg(m_info.scoreName)
                         .arg(m_info.anomalyScores(row), 0, 'g', 5);
        }
        if (!mapLine.isEmpty()) {
            lines << QStringLiteral("map here: ") + mapLine;
        }
        return lines.join(QLatin1Char('\n'));
    }
    lines << QStringLiteral("%1 = %2").arg(xAxis->label(), both(m_xColumn, x))
          << QStringLiteral("%1 = %2").arg(yAxis->label(), both(m_yColumn, y));
    if (!mapLine.isEmpty()) {
        lines << mapLine;
    }
    return lines.join(QLatin1Char('\n'));
}

QString DensityHeatmap::valueLineAt(double x, double y) const
{
    const double cell = m_map->data()->data(x, y);
    const QString label = m_scale->axis()->label();
    if (m_modelValue && m_shownScale != MapScale::Proportion) {
        try {
            const double v = m_modelValue(x, y);
            const double shown = m_shownScale == MapScale::Linear ? std::exp(v) : v;
            if (std::isfinite(shown)) {
                return tr("%1 = %2 (the model here)").arg(label).arg(shown, 0, 'g', 5);
            }
        } catch (const std::exception&) {
            // the grid's value below
        }
    }
    return std::isfinite(cell) ? tr("%1 = %2 (grid cell)").arg(label).arg(cell, 0, 'g', 5)
                               : QString();
}

void DensityHeatmap::onHover(QMouseEvent* event)
{
    showHoverText(this, event->globalPosition().toPoint(), readoutAt(event->position()));
}

bool DensityHeatmap::event(QEvent* event)
{
    // At rest the read-out stays (a static hint replaced it after 0.8 s; issue 50); off the
    // map the hint is what there is to say.
    return showReadoutAtRest(
               this, event, [this](const QPoint& at) { return readoutAt(at); },
               tr("Shift-drag to select rows (shown in the Scores table)")) ||
           QCustomPlot::event(event);
}

void DensityHeatmap::setJoint(bool on, const Edge& x, const Edge& y)
{
    if (!on) {
        if (m_joint->shown()) {
            m_joint->hide();
            replot();
        }
        return;
    }
    m_joint->show(x, y);
    replot();
    applyAspect();
}

void DensityHeatmap::setPickMode(bool on)
{
    setSelectionRectMode(on ? QCP::srmCustom : QCP::srmNone);
    setCursor(on ? Qt::CrossCursor : Qt::ArrowCursor);
    emit pickModeChanged(on);
}

void DensityHeatmap::setColormap(const QString& name)
{
    m_colormap = name;
    m_map->setGradient(gradientFor(m_shownScale));
    replot();
}

QCPColorGradient DensityHeatmap::gradientFor(MapScale scale) const
{
    QCPColorGradient gradient = colormap(m_colormap);
    if (scale == MapScale::Proportion) {
        return proportionBands(gradient, kProportionLevels);
    }
    gradient.setLevelCount(350);
    return gradient;
}

QCPRange DensityHeatmap::dataRange() const
{
    return m_map->dataRange();
}

void DensityHeatmap::clearContent(const QString& message)
{
    m_map->data()->clear();
    m_points.resize(0, 0);
    m_highlight->data()->clear();
    m_highlight->removeFromLegend();
    m_normal->data()->clear();
    m_unfitted->data()->clear();
    m_anomaly->data()->clear();
    for (auto* c : m_contours) {
        c->data()->clear();
    }
    for (QCPCurve* c : m_classCurves) {
        c->data()->clear();
        c->setVisible(false);
        c->removeFromLegend();
    }
    m_joint->clearCurves();
    // Nothing of the previous data stays: its rows, names and scaling (the axes' numbers).
    m_info = RowInfo();
    m_points = Matrix();
    m_modelValue = {};
    applyTickers();
    m_title->setFullText(message);
    showAxes(false); // no dummy 0-5 axes and colour scale before there is a map
    replot();
}

void DensityHeatmap::showContent(const Content& c)
{
    const GridSpec& s = c.grid->spec;
    m_shownSpec = s;
    showGrid(c);
    showPoints(c);
    showContours(c);
    showAxes(true);
    xAxis->setLabel(c.xLabel);
    yAxis->setLabel(c.yLabel);
    xAxis->setRange(s.xMin, s.xMax);
    yAxis->setRange(s.yMin, s.yMax);
    m_box = QRectF(s.xMin, s.yMin, s.xMax - s.xMin, s.yMax - s.yMin);
    m_points = c.points;
    m_modelValue = c.modelValue;
    m_xColumn = s.xColumn;
    m_yColumn = s.yColumn;
    applyTickers();
    setHighlighted({});
    m_title->setFullText(c.title);
    legend->setVisible(c.legend);
    replot();
    applyAspect();
    if (c.legend) {
        placeInsetLegends(this); // off the points, where a corner allows
    }
}

void DensityHeatmap::showGrid(const Content& c)
{
    const DensityGrid& g = *c.grid;
    const GridSpec& s = g.spec;
    // A normality score has no mass and no linear scale: it keeps its own colours.
    const MapScale scale = c.scoreLevels.empty() ? c.scale : MapScale::Log;
    const Matrix shown = scale == MapScale::Linear       ? Matrix(g.logDensity.array().exp())
                         : scale == MapScale::Proportion ? massBelow(g, m_info.scaler)
                                                         : g.logDensity;
    m_map->data()->setSize(s.nx, s.ny);
    m_map->data()->setRange(QCPRange(s.x(0), s.x(s.nx - 1)), QCPRange(s.y(0), s.y(s.ny - 1)));
    for (int j = 0; j < s.ny; ++j) {
        for (int i = 0; i < s.nx; ++i) {
            m_map->data()->setCell(i, j, shown(j, i));
        }
    }
    m_map->setGradient(gradientFor(scale));
    m_shownScale = scale;
    QString valueLabel = c.valueLabel;
    if (scale == MapScale::Linear) {
        // "log density per x × y" read on a linear scale: the density itself.
        valueLabel = (valueLabel.startsWith(QLatin1String("log "))
                          ? valueLabel.mid(4)
                          : QStringLiteral("exp(%1)").arg(valueLabel)) +
                     tr(" (linear)");
        m_map->setDataRange(QCPRange(0.0, shown.maxCoeff()));
        m_scale->axis()->setLabel(valueLabel);
        return;
    }
    if (scale == MapScale::Proportion) {
        m_map->setDataRange(QCPRange(0.0, 1.0));
        m_scale->axis()->setLabel(
            tr("share of the mass in less dense cells (%1 levels)").arg(kProportionLevels));
        return;
    }
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
}

void DensityHeatmap::showPoints(const Content& c)
{
    const GridSpec& s = c.grid->spec;
    QVector<double> nx, ny, ax, ay, ux, uy;
    size_t nextFit = 0; // walks the ascending fitted rows alongside r
    for (Eigen::Index r = 0; r < c.points.rows(); ++r) {
        const bool anomalous = c.labels && (*c.labels)(r) != 0;
        while (nextFit < c.fitRows.size() && c.fitRows[nextFit] < r) {
            ++nextFit;
        }
        const bool fitted =
            c.fitRows.empty() || (nextFit < c.fitRows.size() && c.fitRows[nextFit] == r);
        QVector<double>& x = anomalous ? ax : fitted ? nx : ux;
        QVector<double>& y = anomalous ? ay : fitted ? ny : uy;
        x << c.points(r, s.xColumn);
        y << c.points(r, s.yColumn);
    }
    m_normal->setData(nx, ny);
    // With labels the dots are the label-0 rows (anomalies have their crosses).
    const QString rows = c.labels ? QStringLiteral("label-0 rows") : QStringLiteral("rows");
    m_normal->setName(c.fitRows.empty()
                          ? QStringLiteral("data")
                          : QStringLiteral("%1 fitted on (%2)").arg(rows).arg(nx.size()));
    m_unfitted->setName(QStringLiteral("%1 not fitted on, scored (%2)").arg(rows).arg(ux.size()));
    m_unfitted->setData(ux, uy);
    m_unfitted->removeFromLegend();
    if (!ux.isEmpty()) {
        m_unfitted->addToLegend();
    }
    m_anomaly->setData(ax, ay);
    // Many anomalies (shuttle: 3 500) as 7-px crosses covered the rows: smaller, lighter ones.
    const bool many = ax.size() > 300;
    m_anomaly->setScatterStyle(
        QCPScatterStyle(QCPScatterStyle::ssCross,
                        QPen(many ? QColor(230, 30, 30, 190) : colors::anomaly(), many ? 1.0 : 1.6),
                        QBrush(), many ? 4.5 : 7));
    m_anomaly->removeFromLegend();
    if (!ax.isEmpty()) {
        m_anomaly->addToLegend();
    }
}

void DensityHeatmap::showContours(const Content& c)
{
    const DensityGrid& g = *c.grid;
    const GridSpec& s = g.spec;
    std::vector<double> xs(static_cast<size_t>(s.nx)), ys(static_cast<size_t>(s.ny));
    for (int i = 0; i < s.nx; ++i) {
        xs[size_t(i)] = s.x(i);
    }
    for (int j = 0; j < s.ny; ++j) {
        ys[size_t(j)] = s.y(j);
    }
    const bool score = c.scoreLevels.size() == 3;
    const Matrix logArea = cellLogAreas(s, m_info.scaler);
    const std::vector<double> levels =
        score ? c.scoreLevels
              : highestDensityLevels(g.logDensity, {0.5, 0.8, 0.95},
                                     logArea.size() ? &logArea : nullptr);
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
        m_mainContours = c.contours;
        const int share = k == 0 ? 50 : k == 1 ? 80 : 95;
        const QString hdr = score ? QStringLiteral("the %1 % most normal rows").arg(share)
                                  : QStringLiteral("%1 % HDR").arg(share);
        m_contours[k]->setName(c.slice ? hdr + QStringLiteral(" of the 2-D slice") : hdr);
    }
}

void DensityHeatmap::setClasses(const std::vector<ClassContours>& classes)
{
    const GridSpec& s = m_shownSpec;
    std::vector<double> xs(static_cast<size_t>(s.nx)), ys(static_cast<size_t>(s.ny));
    for (int i = 0; i < s.nx; ++i) {
        xs[size_t(i)] = s.x(i);
    }
    for (int j = 0; j < s.ny; ++j) {
        ys[size_t(j)] = s.y(j);
    }
    const Matrix logArea = cellLogAreas(s, m_info.scaler);
    int shown = 0;
    for (const ClassContours& c : classes) {
        const DensityGrid& g = *c.grid;
        if (g.logDensity.rows() != s.ny || g.logDensity.cols() != s.nx ||
            g.spec.xColumn != s.xColumn || g.spec.yColumn != s.yColumn) {
            continue; // of other plotted columns: the controller fits them again
        }
        while (m_classCurves.size() <= shown) {
            m_classCurves << new QCPCurve(xAxis, yAxis);
        }
        QCPCurve* curve = m_classCurves[shown++];
        QVector<double> t, x, y;
        int n = 0;
        for (double level : highestDensityLevels(g.logDensity, {0.5, 0.8, 0.95},
                                                 logArea.size() ? &logArea : nullptr)) {
            for (const ContourSegment& seg : marchingSquares(g.logDensity, xs, ys, level)) {
                t << n << n + 1 << n + 2;
                x << seg.x0 << seg.x1 << qQNaN();
                y << seg.y0 << seg.y1 << qQNaN();
                n += 3;
            }
        }
        curve->setData(t, x, y, true);
        curve->setPen(QPen(c.color, 2.0));
        curve->setName(c.name);
        curve->setVisible(true);
        curve->removeFromLegend();
        curve->addToLegend();
    }
    for (int k = shown; k < m_classCurves.size(); ++k) {
        m_classCurves[k]->data()->clear();
        m_classCurves[k]->setVisible(false);
        m_classCurves[k]->removeFromLegend();
    }
    // The classes' contours say where each class lies; the whole data's step back (seaborn
    // draws the classes alone).
    for (QCPCurve* c : m_contours) {
        c->setVisible(m_mainContours && shown == 0);
        if (shown > 0) {
            c->removeFromLegend();
        } else if (m_mainContours && !legend->hasItemWithPlottable(c)) {
            c->addToLegend();
        }
    }
    placeInsetLegends(this);
    replot();
}

QStringList DensityHeatmap::classNames() const
{
    QStringList names;
    for (QCPCurve* c : m_classCurves) {
        if (c->visible()) {
            names << c->name();
        }
    }
    return names;
}

void DensityHeatmap::showAxes(bool on)
{
    for (QCPAxis* a : axisRect()->axes()) {
        a->setVisible(on && (a == xAxis || a == yAxis));
    }
    axisRect()->setBackground(Qt::NoBrush);
    m_scale->setVisible(on && m_scale->layout() != nullptr && m_scaleShown);
    legend->setVisible(on && legend->visible());
}

void DensityHeatmap::placeColorScaleBelow(bool shown)
{
    if (!plotLayout()->take(m_scale)) {
        return;
    }
    plotLayout()->simplify();
    const int row = plotLayout()->rowCount();
    plotLayout()->addElement(row, 0, m_scale);
    plotLayout()->setRowStretchFactor(row, 0.01);
    m_scale->setType(QCPAxis::atBottom);
    m_scale->setBarWidth(9);
    // Aligned with the map's left and right edges instead of its top and bottom.
    axisRect()->setMarginGroup(QCP::msBottom | QCP::msTop, nullptr);
    m_scale->setMarginGroup(QCP::msBottom | QCP::msTop, nullptr);
    auto* group = new QCPMarginGroup(this);
    axisRect()->setMarginGroup(QCP::msLeft | QCP::msRight, group);
    m_scale->setMarginGroup(QCP::msLeft | QCP::msRight, group);
    m_scaleShown = shown;
    m_scale->setVisible(shown);
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

void DensityHeatmap::resetZoom()
{
    if (m_box.isEmpty()) {
        return;
    }
    if (m_equalAspect) {
        applyAspect();
    } else {
        xAxis->setRange(m_box.left(), m_box.right());
        yAxis->setRange(m_box.top(), m_box.bottom());
    }
    replot();
}

void DensityHeatmap::mouseDoubleClickEvent(QMouseEvent* event)
{
    resetZoom();
    event->accept();
}

void DensityHeatmap::resizeEvent(QResizeEvent* event)
{
    QCustomPlot::resizeEvent(event);
    applyAspect();
    if (legend->visible() && !m_map->data()->isEmpty()) {
        // The corner that covered the fewest rows at the old size may cover the anomalies at
        // this one (issue 50: after a resize to 1280x720).
        plotLayout()->update(QCPLayoutElement::upLayout);
        placeInsetLegends(this);
        replot(rpQueuedReplot);
    }
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
