// SPDX-License-Identifier: MIT
// The 1-D density plot with rug and readout.
#include "ui/plots/density_curve_plot.h"

#include "core/grid/density_grid.h"
#include "ui/plots/fitted_title.h"
#include "ui/plots/plot_style.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace sosrep::ui {
namespace {

/// A rug tick: a vertical stroke `length` pixels tall centred on the point.
QCPScatterStyle rugTick(const QColor& colour, double length, double width)
{
    QPainterPath tick;
    tick.moveTo(0, -length / 2);
    tick.lineTo(0, length / 2);
    QCPScatterStyle s(tick, QPen(colour, width), Qt::NoBrush, length);
    return s;
}

/// The curve's log values as drawn: a pre-density normalized over the plotted range first (the
/// axis says so), anything else as it is.
Vector drawnLogValues(const DensityCurve& curve, DensityKind kind)
{
    const CurveSpec& s = curve.spec;
    if (kind == DensityKind::PreDensity && !curve.marginal) {
        return normalizeOnGrid(Matrix(curve.logValues), (s.max - s.min) / std::max(1, s.n - 1));
    }
    return curve.logValues;
}

} // namespace

/// The levels of a normality score that 50, 80 and 95 % of the rows reach (the score's own
/// analogue of HDR contours: the region above a level holds that share of the rows).
std::vector<double> rowScoreLevels(const Vector& scores)
{
    std::vector<double> v;
    for (Eigen::Index i = 0; i < scores.size(); ++i) {
        if (std::isfinite(scores(i))) {
            v.push_back(scores(i));
        }
    }
    if (v.empty()) {
        return {};
    }
    std::sort(v.begin(), v.end(), std::greater<>());
    std::vector<double> levels;
    for (const double share : {0.5, 0.8, 0.95}) {
        levels.push_back(v[std::min(v.size() - 1, size_t(share * double(v.size())))]);
    }
    return levels;
}

DensityCurvePlot::DensityCurvePlot(QWidget* parent) : QCustomPlot(parent)
{
    setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    axisRect()->setRangeDrag(Qt::Horizontal);
    axisRect()->setRangeZoom(Qt::Horizontal);
    plotLayout()->insertRow(0);
    m_title = new FittedTitle(this, QFont(font().family(), 10, QFont::Bold));
    plotLayout()->addElement(0, 0, m_title);
    m_floor = addGraph();
    m_floor->setPen(Qt::NoPen);
    m_floor->removeFromLegend();
    // Darker for the smaller, denser region, drawn last so it sits on top.
    const int alpha[3] = {150, 95, 50};
    for (int k = 2; k >= 0; --k) {
        auto* g = addGraph();
        g->setPen(Qt::NoPen);
        g->setBrush(QColor(0, 114, 178, alpha[k]));
        g->setChannelFillGraph(m_floor);
        m_levels.prepend(g);
    }
    m_curve = addGraph();
    m_curvePen = QPen(QColor(20, 20, 20), 1.8);
    m_curve->setPen(m_curvePen);
    m_unfittedRug = addGraph();
    m_unfittedRug->setLineStyle(QCPGraph::lsNone);
    m_unfittedRug->setScatterStyle(rugTick(QColor(120, 120, 120, 110), 8, 1.0));
    m_unfittedRug->setName(QStringLiteral("rows scored, not fitted"));
    m_rug = addGraph();
    m_rug->setLineStyle(QCPGraph::lsNone);
    m_rug->setScatterStyle(rugTick(QColor(40, 40, 40, 170), 8, 1.0));
    m_rug->setName(QStringLiteral("rows"));
    m_anomalyRug = addGraph();
    m_anomalyRug->setLineStyle(QCPGraph::lsNone);
    m_anomalyRug->setScatterStyle(rugTick(colors::anomaly(), 9, 1.4));
    m_anomalyRug->setName(QStringLiteral("label = 1 (anomaly)"));
    legend->setVisible(true);
    axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignRight);
    applyPlotStyle(this);
    connect(this, &QCustomPlot::mouseMove, this, [this](QMouseEvent* event) {
        showHoverText(this, event->globalPosition().toPoint(), readoutAt(event->position()));
    });
}

QString DensityCurvePlot::readoutAt(const QPointF& pixel) const
{
    const auto data = m_curve->data();
    if (data->isEmpty() || !axisRect()->rect().contains(pixel.toPoint())) {
        return {};
    }
    const double x = xAxis->pixelToCoord(pixel.x());
    if (x < data->constBegin()->key || x > (data->constEnd() - 1)->key) {
        return {};
    }
    // Linear interpolation between the two curve points around x.
    auto hi = data->findBegin(x, false);
    hi = hi == data->constBegin() ? hi + 1 : hi;
    if (hi == data->constEnd()) {
        --hi;
    }
    const auto lo = hi - 1;
    const double f = hi->key > lo->key ? (x - lo->key) / (hi->key - lo->key) : 0.0;
    const double value = lo->value + f * (hi->value - lo->value);
    QString text = QStringLiteral("%1 = %2\n%3 = %4")
                       .arg(xAxis->label())
                       .arg(x, 0, 'g', 5)
                       .arg(m_curve->name())
                       .arg(value, 0, 'g', 5);
    for (int k = 0; k < m_levels.size(); ++k) {
        const auto point = m_levels[k]->data()->findBegin(x, false);
        if (point != m_levels[k]->data()->constEnd() && std::isfinite(point->value)) {
            text += QStringLiteral("\ninside the %1").arg(m_levels[k]->name());
            break;
        }
    }
    return text;
}

void DensityCurvePlot::clearContent(const QString& message)
{
    for (QCPGraph* g : {m_curve, m_floor, m_rug, m_unfittedRug, m_anomalyRug}) {
        g->data()->clear();
    }
    for (QCPGraph* g : m_levels) {
        g->data()->clear();
        g->removeFromLegend();
    }
    for (QCPGraph* g : m_classGraphs) {
        g->data()->clear();
        g->setVisible(false);
        g->removeFromLegend();
    }
    m_title->setFullText(message);
    xAxis->setVisible(false);
    yAxis->setVisible(false);
    legend->setVisible(false);
    replot();
}

void DensityCurvePlot::showContent(const Content& c)
{
    const DensityCurve& curve = *c.curve;
    const CurveSpec& s = curve.spec;
    const bool score = c.kind == DensityKind::Score;
    // Values: a density in the column's own units (p_raw = p_scaled dt/dx); a pre-density is
    // normalized over the plotted range first (said on the axis); a score as it is.
    const Vector logValues = drawnLogValues(curve, c.kind);
    QVector<double> x(s.n), y(s.n);
    for (int i = 0; i < s.n; ++i) {
        x[i] = c.toData(s.t(i));
        y[i] = score ? logValues(i) : std::exp(logValues(i) + c.logDerivative(s.t(i)));
    }
    m_curve->setData(x, y, true);
    const auto [lowIt, highIt] = std::minmax_element(y.begin(), y.end());
    const double low = score ? *lowIt : 0.0;
    const double high = std::max(*highIt, drawClasses(c));
    const double span = high > low ? high - low : 1.0;
    m_floor->setData(x, QVector<double>(s.n, low), true);

    // The shaded intervals: HDR levels of the curve's mass, or the rows' score levels.
    std::vector<double> levels =
        score ? c.scoreLevels : highestDensityLevels(Matrix(logValues), {0.5, 0.8, 0.95});
    const char* names[3] = {"50 %", "80 %", "95 %"};
    for (int k = 0; k < 3; ++k) {
        QCPGraph* g = m_levels[k];
        if (k >= int(levels.size())) {
            g->data()->clear();
            g->removeFromLegend();
            continue;
        }
        QVector<double> v(s.n);
        for (int i = 0; i < s.n; ++i) {
            v[i] =
                logValues(i) >= levels[size_t(k)] ? y[i] : std::numeric_limits<double>::quiet_NaN();
        }
        g->setData(x, v, true);
        g->setName(score ? QStringLiteral("the %1 most normal rows").arg(QLatin1String(names[k]))
                         : QStringLiteral("%1 HDR").arg(QLatin1String(names[k])));
        g->addToLegend();
    }
    m_curve->setName(!c.curveName.isEmpty() ? c.curveName
                     : score                ? QStringLiteral("normality score")
                     : curve.marginal       ? QStringLiteral("marginal density")
                                            : QStringLiteral("density"));
    if (!c.classes.empty()) {
        // The classes say it: the whole data's curve thin and grey, no shaded intervals.
        for (QCPGraph* g : m_levels) {
            g->data()->clear();
            g->removeFromLegend();
        }
        m_curve->setPen(QPen(QColor(90, 90, 90), 1.2, Qt::DashLine));
        m_curve->setName(c.curveName.isEmpty() ? QStringLiteral("all rows") : c.curveName);
    } else {
        m_curve->setPen(m_curvePen);
    }

    drawRug(c, low - 0.085 * span, low - 0.035 * span);

    m_title->setFullText(c.title);
    xAxis->setLabel(c.xLabel);
    yAxis->setLabel(score ? QStringLiteral("normality score (higher = more typical)")
                    : c.kind == DensityKind::PreDensity && !curve.marginal
                        ? QStringLiteral("density (pre-density normalized over this range)")
                        : QStringLiteral("density (per unit of %1)").arg(c.xLabel));
    m_xRange = QCPRange(std::min(x.front(), x.back()), std::max(x.front(), x.back()));
    m_yRange = QCPRange(low - 0.12 * span, high + 0.08 * span);
    xAxis->setVisible(true);
    yAxis->setVisible(true);
    legend->setVisible(true);
    resetZoom();
}

double DensityCurvePlot::drawClasses(const Content& c)
{
    double high = 0.0;
    int k = 0;
    std::vector<std::pair<const Content::ClassCurve*, Qt::PenStyle>> drawn;
    for (const Content::ClassCurve& cc : c.classes) {
        drawn.emplace_back(&cc, Qt::SolidLine);
    }
    int o = 0;
    for (const Content::ClassCurve& cc : c.overlays) { // told apart without colour too
        drawn.emplace_back(&cc, o++ % 2 == 0 ? Qt::DashLine : Qt::DashDotLine);
    }
    for (const auto& [ccp, style] : drawn) {
        const Content::ClassCurve& cc = *ccp;
        const DensityCurve& curve = *cc.curve;
        const CurveSpec& s = curve.spec;
        if (s.n < 2 || curve.logValues.size() != s.n) {
            continue;
        }
        // As the whole data's curve, times the class's share under common_norm (1 without).
        const Vector logValues = drawnLogValues(curve, c.kind);
        QVector<double> x(s.n), y(s.n);
        for (int i = 0; i < s.n; ++i) {
            x[i] = c.toData(s.t(i));
            y[i] = cc.share * std::exp(logValues(i) + c.logDerivative(s.t(i)));
            high = std::max(high, y[i]);
        }
        while (m_classGraphs.size() <= k) {
            m_classGraphs << addGraph();
        }
        QCPGraph* g = m_classGraphs[k++];
        g->setData(x, y, true);
        g->setPen(QPen(cc.color, 2.2, style));
        g->setName(cc.name);
        g->setVisible(true);
        g->removeFromLegend();
        g->addToLegend();
    }
    for (int j = k; j < m_classGraphs.size(); ++j) {
        m_classGraphs[j]->data()->clear();
        m_classGraphs[j]->setVisible(false);
        m_classGraphs[j]->removeFromLegend();
    }
    return high;
}

QStringList DensityCurvePlot::legendNames() const
{
    QStringList names;
    for (int i = 0; i < legend->itemCount(); ++i) {
        if (auto* item = qobject_cast<QCPPlottableLegendItem*>(legend->item(i))) {
            names << item->plottable()->name();
        }
    }
    return names;
}

QList<QPair<QString, double>> DensityCurvePlot::classAreas() const
{
    QList<QPair<QString, double>> out;
    for (QCPGraph* g : m_classGraphs) {
        if (!g->visible()) {
            continue;
        }
        double area = 0.0;
        for (auto it = g->data()->constBegin(); it + 1 != g->data()->constEnd(); ++it) {
            area += 0.5 * (it->value + (it + 1)->value) * ((it + 1)->key - it->key);
        }
        out << qMakePair(g->name(), area);
    }
    return out;
}

void DensityCurvePlot::drawRug(const Content& c, double rugAt, double anomalyAt)
{
    // The rug, in the band under the curve: the rows in the lower lane, labelled anomalies in
    // a lane of their own above it, so thousands of anomalies (shuttle) do not hide the rows.
    QVector<double> fitted, unfitted, anomalies;
    size_t next = 0;
    for (Eigen::Index r = 0; r < c.rows.size(); ++r) {
        const double raw = c.toData(c.rows(r));
        const bool isFitted =
            c.fitRows.empty() || (next < c.fitRows.size() && c.fitRows[next] == r);
        if (isFitted && !c.fitRows.empty()) {
            ++next;
        }
        if (c.labels && r < c.labels->size() && (*c.labels)(r) == 1) {
            anomalies << raw;
        } else if (isFitted) {
            fitted << raw;
        } else {
            unfitted << raw;
        }
    }
    m_rug->setData(fitted, QVector<double>(fitted.size(), rugAt), true);
    m_unfittedRug->setData(unfitted, QVector<double>(unfitted.size(), rugAt), true);
    m_anomalyRug->setData(anomalies, QVector<double>(anomalies.size(), anomalyAt), true);
    // The legend lists only what is drawn.
    for (QCPGraph* g : {m_unfittedRug, m_anomalyRug}) {
        if (g->data()->isEmpty()) {
            g->removeFromLegend();
        } else {
            g->addToLegend();
        }
    }
}

void DensityCurvePlot::resetZoom()
{
    xAxis->setRange(m_xRange);
    yAxis->setRange(m_yRange);
    replot();
}

void DensityCurvePlot::mouseDoubleClickEvent(QMouseEvent* event)
{
    resetZoom();
    QCustomPlot::mouseDoubleClickEvent(event);
}

QString DensityCurvePlot::title() const
{
    return m_title->fullText();
}

QStringList DensityCurvePlot::intervalNames() const
{
    QStringList names;
    for (QCPGraph* g : m_levels) {
        if (!g->data()->isEmpty()) {
            names << g->name();
        }
    }
    return names;
}

QVector<QCPRange> DensityCurvePlot::intervals(int level) const
{
    QVector<QCPRange> out;
    if (level < 0 || level >= m_levels.size()) {
        return out;
    }
    bool open = false;
    for (auto it = m_levels[level]->data()->constBegin(); it != m_levels[level]->data()->constEnd();
         ++it) {
        const bool in = std::isfinite(it->value);
        if (in && !open) {
            out << QCPRange(it->key, it->key);
        } else if (in) {
            out.last().upper = it->key;
        }
        open = in;
    }
    return out;
}

int DensityCurvePlot::rugCount() const
{
    return m_rug->dataCount() + m_unfittedRug->dataCount() + m_anomalyRug->dataCount();
}

int DensityCurvePlot::anomalyRugCount() const
{
    return m_anomalyRug->dataCount();
}

} // namespace sosrep::ui
