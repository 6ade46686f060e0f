// SPDX-License-Identifier: MIT
// Dragging a plot's legend with the mouse.
#include "ui/plots/legend_dragger.h"

#include <qcustomplot.h>

#include <algorithm>

namespace sosrep::ui {

LegendDragger::LegendDragger(QCustomPlot* plot, QCPLegend* legend)
    : QObject(plot), m_plot(plot), m_legend(legend)
{
    connect(plot, &QCustomPlot::mousePress, this, &LegendDragger::onPress);
    connect(plot, &QCustomPlot::mouseMove, this, &LegendDragger::onMove);
    connect(plot, &QCustomPlot::mouseRelease, this, &LegendDragger::onRelease);
}

void LegendDragger::onPress(QMouseEvent* event)
{
    if (!m_legend->visible() || event->button() != Qt::LeftButton ||
        !m_legend->outerRect().contains(event->position().toPoint())) {
        return;
    }
    m_dragging = true;
    m_grab = event->position() - QPointF(m_legend->outerRect().topLeft());
    // The plot must not pan while the legend moves.
    m_plot->setInteraction(QCP::iRangeDrag, false);
}

void LegendDragger::onMove(QMouseEvent* event)
{
    if (m_dragging) {
        moveTo(event->position() - m_grab);
    }
}

void LegendDragger::onRelease(QMouseEvent*)
{
    if (m_dragging) {
        m_dragging = false;
        m_plot->setInteraction(QCP::iRangeDrag, true);
    }
}

void LegendDragger::moveTo(const QPointF& topLeft)
{
    // The axis rectangle whose inset layout holds the legend (plots may have several).
    QCPAxisRect* rect = nullptr;
    for (QCPAxisRect* r : m_plot->axisRects()) {
        rect = r->insetLayout() == m_legend->layout() ? r : rect;
    }
    if (!rect) {
        return;
    }
    QCPLayoutInset* inset = rect->insetLayout();
    const int index = [&] {
        for (int i = 0; i < inset->elementCount(); ++i) {
            if (inset->elementAt(i) == m_legend) {
                return i;
            }
        }
        return -1;
    }();
    if (index < 0) {
        return;
    }
    const QRect area = rect->rect();
    const QSize size = m_legend->outerRect().size();
    // Kept inside the axis rectangle, as a fraction of it (so it stays put on resize).
    const double x =
        std::clamp(topLeft.x(), double(area.left()), double(area.right() - size.width()));
    const double y =
        std::clamp(topLeft.y(), double(area.top()), double(area.bottom() - size.height()));
    inset->setInsetPlacement(index, QCPLayoutInset::ipFree);
    inset->setInsetRect(
        index, QRectF((x - area.left()) / area.width(), (y - area.top()) / area.height(),
                      double(size.width()) / area.width(), double(size.height()) / area.height()));
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

} // namespace sosrep::ui
