// SPDX-License-Identifier: MIT
// A map's joint-plot edges: the plotted columns' marginals on its top and right edges.
#include "ui/plots/joint_edges.h"

#include <qcustomplot.h>

#include <algorithm>

namespace sosrep::ui {

void JointEdges::build()
{
    // Row 1 above the map gets the x marginal, column 1 beside it the y marginal (the colour
    // scale moves one column right); their shared sides follow the map's margins and ranges.
    QCPLayoutGrid* grid = m_plot->plotLayout();
    const bool scaleBelow = m_scale->type() == QCPAxis::atBottom;
    grid->insertRow(1);
    grid->insertColumn(1);
    m_top = new QCPAxisRect(m_plot);
    m_right = new QCPAxisRect(m_plot);
    grid->addElement(1, 0, m_top);
    grid->addElement(2, 1, m_right);
    grid->setRowStretchFactor(1, 0.22);
    grid->setColumnStretchFactor(1, 0.22);
    if (!scaleBelow) {
        grid->setColumnStretchFactor(2, 0.01);
    }
    auto* columns = new QCPMarginGroup(m_plot);
    m_plot->axisRect()->setMarginGroup(QCP::msLeft | QCP::msRight, columns);
    m_top->setMarginGroup(QCP::msLeft | QCP::msRight, columns);
    auto* rows = new QCPMarginGroup(m_plot);
    m_plot->axisRect()->setMarginGroup(QCP::msTop | QCP::msBottom, rows);
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
    m_topCurve = m_plot->addGraph(m_top->axis(QCPAxis::atBottom), m_top->axis(QCPAxis::atLeft));
    m_rightCurve =
        m_plot->addGraph(m_right->axis(QCPAxis::atLeft), m_right->axis(QCPAxis::atBottom));
    for (QCPGraph* g : {m_topCurve, m_rightCurve}) {
        g->setPen(QPen(QColor(20, 20, 20), 1.6));
        g->setBrush(QColor(0, 114, 178, 60));
        g->removeFromLegend();
    }
    QObject::connect(m_plot->xAxis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged),
                     m_top->axis(QCPAxis::atBottom),
                     qOverload<const QCPRange&>(&QCPAxis::setRange));
    QObject::connect(m_plot->yAxis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged),
                     m_right->axis(QCPAxis::atLeft),
                     qOverload<const QCPRange&>(&QCPAxis::setRange));
}

void JointEdges::hide()
{
    if (!m_top) {
        return;
    }
    m_plot->removeGraph(m_topCurve);
    m_plot->removeGraph(m_rightCurve);
    m_plot->plotLayout()->remove(m_top);
    m_plot->plotLayout()->remove(m_right);
    m_top = m_right = nullptr;
    m_topCurve = m_rightCurve = nullptr;
    m_plot->plotLayout()->simplify();
    m_plot->plotLayout()->setColumnStretchFactor(1, 0.01);
    auto* rows = new QCPMarginGroup(m_plot);
    m_plot->axisRect()->setMarginGroup(QCP::msLeft | QCP::msRight, nullptr);
    if (m_scale->type() != QCPAxis::atBottom) {
        m_plot->axisRect()->setMarginGroup(QCP::msTop | QCP::msBottom, rows);
        m_scale->setMarginGroup(QCP::msTop | QCP::msBottom, rows);
    }
}

void JointEdges::show(const Edge& x, const Edge& y)
{
    if (!m_top) {
        build();
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
    m_top->axis(QCPAxis::atBottom)->setRange(m_plot->xAxis->range());
    m_right->axis(QCPAxis::atLeft)->setRange(m_plot->yAxis->range());
}

void JointEdges::clearCurves()
{
    if (m_top) {
        m_topCurve->data()->clear();
        m_rightCurve->data()->clear();
    }
}

std::pair<int, int> JointEdges::points() const
{
    if (!m_top) {
        return {0, 0};
    }
    return {m_topCurve->data()->size(), m_rightCurve->data()->size()};
}

std::pair<QString, QString> JointEdges::labels() const
{
    if (!m_top) {
        return {};
    }
    return {m_top->axis(QCPAxis::atLeft)->label(), m_right->axis(QCPAxis::atBottom)->label()};
}

} // namespace sosrep::ui
