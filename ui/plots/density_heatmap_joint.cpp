// SPDX-License-Identifier: MIT
// The density map as a joint plot: the plotted columns' marginals on its top and right edges.
#include "ui/plots/density_heatmap.h"

#include <algorithm>

namespace sosrep::ui {

void DensityHeatmap::buildJoint()
{
    // Row 1 above the map gets the x marginal, column 1 beside it the y marginal (the colour
    // scale moves one column right); their shared sides follow the map's margins and ranges.
    QCPLayoutGrid* grid = plotLayout();
    const bool scaleBelow = m_scale->type() == QCPAxis::atBottom;
    grid->insertRow(1);
    grid->insertColumn(1);
    m_top = new QCPAxisRect(this);
    m_right = new QCPAxisRect(this);
    grid->addElement(1, 0, m_top);
    grid->addElement(2, 1, m_right);
    grid->setRowStretchFactor(1, 0.22);
    grid->setColumnStretchFactor(1, 0.22);
    if (!scaleBelow) {
        grid->setColumnStretchFactor(2, 0.01);
    }
    auto* columns = new QCPMarginGroup(this);
    axisRect()->setMarginGroup(QCP::msLeft | QCP::msRight, columns);
    m_top->setMarginGroup(QCP::msLeft | QCP::msRight, columns);
    auto* rows = new QCPMarginGroup(this);
    axisRect()->setMarginGroup(QCP::msTop | QCP::msBottom, rows);
    m_right->setMarginGroup(QCP::msTop | QCP::msBottom, rows);
    if (!scaleBelow) {
        m_scale->setMarginGroup(QCP::msTop | QCP::msBottom, rows);
    }
    for (QCPAxisRect* r : {m_top, m_right}) {
        r->setupFullAxesBox(false);
        for (QCPAxis* a : r->axes()) {
            a->setTickLabels(false);
            a->grid()->setVisible(false);
        }
    }
    m_top->axis(QCPAxis::atLeft)->setTickLabels(true);
    m_right->axis(QCPAxis::atBottom)->setTickLabels(true);
    // Flush against the map: only the shared sides follow the map's margins.
    m_top->setAutoMargins(QCP::msLeft | QCP::msRight);
    m_top->setMargins(QMargins(0, 4, 0, 2));
    m_right->setAutoMargins(QCP::msTop | QCP::msBottom);
    m_right->setMargins(QMargins(2, 0, 8, 0));
    m_top->axis(QCPAxis::atLeft)->ticker()->setTickCount(3);
    m_right->axis(QCPAxis::atBottom)->ticker()->setTickCount(3);
    m_topCurve = addGraph(m_top->axis(QCPAxis::atBottom), m_top->axis(QCPAxis::atLeft));
    m_rightCurve = addGraph(m_right->axis(QCPAxis::atLeft), m_right->axis(QCPAxis::atBottom));
    for (QCPGraph* g : {m_topCurve, m_rightCurve}) {
        g->setPen(QPen(QColor(20, 20, 20), 1.6));
        g->setBrush(QColor(0, 114, 178, 60));
        g->removeFromLegend();
    }
    connect(xAxis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged),
            m_top->axis(QCPAxis::atBottom), qOverload<const QCPRange&>(&QCPAxis::setRange));
    connect(yAxis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged),
            m_right->axis(QCPAxis::atLeft), qOverload<const QCPRange&>(&QCPAxis::setRange));
}

void DensityHeatmap::removeJoint()
{
    removeGraph(m_topCurve);
    removeGraph(m_rightCurve);
    plotLayout()->remove(m_top);
    plotLayout()->remove(m_right);
    m_top = m_right = nullptr;
    m_topCurve = m_rightCurve = nullptr;
    plotLayout()->simplify();
    plotLayout()->setColumnStretchFactor(1, 0.01);
    auto* rows = new QCPMarginGroup(this);
    axisRect()->setMarginGroup(QCP::msLeft | QCP::msRight, nullptr);
    if (m_scale->type() != QCPAxis::atBottom) {
        axisRect()->setMarginGroup(QCP::msTop | QCP::msBottom, rows);
        m_scale->setMarginGroup(QCP::msTop | QCP::msBottom, rows);
    }
}

void DensityHeatmap::setJoint(bool on, const Edge& x, const Edge& y)
{
    if (!on) {
        if (m_top) {
            removeJoint();
            replot();
        }
        return;
    }
    if (!m_top) {
        buildJoint();
    }
    const auto fill = [](QCPGraph* g, QCPAxis* valueAxis, const Edge& e) {
        g->setData(e.key, e.value, true);
        double top = 0.0;
        for (double v : e.value) {
            top = std::max(top, v);
        }
        valueAxis->setRange(0.0, top > 0.0 ? top * 1.08 : 1.0);
        valueAxis->setLabel(e.key.isEmpty() ? e.why : e.name);
    };
    fill(m_topCurve, m_top->axis(QCPAxis::atLeft), x);
    fill(m_rightCurve, m_right->axis(QCPAxis::atBottom), y);
    m_top->axis(QCPAxis::atBottom)->setRange(xAxis->range());
    m_right->axis(QCPAxis::atLeft)->setRange(yAxis->range());
    replot();
    applyAspect();
}

std::pair<int, int> DensityHeatmap::jointPoints() const
{
    if (!m_top) {
        return {0, 0};
    }
    return {m_topCurve->data()->size(), m_rightCurve->data()->size()};
}

std::pair<QString, QString> DensityHeatmap::jointLabels() const
{
    if (!m_top) {
        return {};
    }
    return {m_top->axis(QCPAxis::atLeft)->label(), m_right->axis(QCPAxis::atBottom)->label()};
}

} // namespace sosrep::ui
