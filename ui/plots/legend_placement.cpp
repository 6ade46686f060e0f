// SPDX-License-Identifier: MIT
// Placing inset legends where they cover the fewest points.
#include "ui/plots/legend_placement.h"

#include <qcustomplot.h>

#include <array>
#include <limits>

namespace sosrep::ui {

namespace {

/// Data points of the rectangle's visible graphs that fall inside `box` (pixels).
int pointsInside(QCPAxisRect* rect, const QRect& box)
{
    int count = 0;
    for (QCPGraph* g : rect->graphs()) {
        if (!g->visible()) {
            continue;
        }
        for (auto it = g->data()->constBegin(); it != g->data()->constEnd(); ++it) {
            if (std::isfinite(it->key) && std::isfinite(it->value) &&
                box.contains(g->coordsToPixels(it->key, it->value).toPoint())) {
                ++count;
            }
        }
    }
    return count;
}

void placeLegend(QCPAxisRect* rect, int index, QCPLegend* legend)
{
    QCPLayoutInset* inset = rect->insetLayout();
    if (inset->insetPlacement(index) != QCPLayoutInset::ipBorderAligned) {
        return; // dragged by the user: theirs
    }
    const QRect area = rect->rect();
    const QSize size = legend->outerRect().isValid() && !legend->outerRect().isEmpty()
                           ? legend->outerRect().size()
                           : legend->minimumOuterSizeHint();
    if (area.isEmpty() || size.isEmpty()) {
        return;
    }
    const std::array<Qt::Alignment, 4> corners{
        Qt::AlignTop | Qt::AlignRight, Qt::AlignTop | Qt::AlignLeft,
        Qt::AlignBottom | Qt::AlignRight, Qt::AlignBottom | Qt::AlignLeft};
    const Qt::Alignment current = inset->insetAlignment(index);
    Qt::Alignment best = current;
    int fewest = std::numeric_limits<int>::max();
    for (const Qt::Alignment corner : corners) {
        const int x = corner & Qt::AlignLeft ? area.left() : area.right() - size.width();
        const int y = corner & Qt::AlignTop ? area.top() : area.bottom() - size.height();
        const int n = pointsInside(rect, QRect(QPoint(x, y), size));
        if (n < fewest || (n == fewest && corner == current)) {
            fewest = n;
            best = corner;
        }
    }
    inset->setInsetAlignment(index, best);
}

} // namespace

void placeInsetLegends(QCustomPlot* plot)
{
    // Pixel positions need the current layout (ranges, margins and sizes).
    plot->replot(QCustomPlot::rpImmediateRefresh);
    bool moved = false;
    for (QCPAxisRect* rect : plot->axisRects()) {
        QCPLayoutInset* inset = rect->insetLayout();
        for (int i = 0; i < inset->elementCount(); ++i) {
            if (auto* legend = qobject_cast<QCPLegend*>(inset->elementAt(i))) {
                const Qt::Alignment before = inset->insetAlignment(i);
                placeLegend(rect, i, legend);
                moved = moved || inset->insetAlignment(i) != before;
            }
        }
    }
    if (moved) {
        plot->replot(QCustomPlot::rpQueuedReplot);
    }
}

} // namespace sosrep::ui
