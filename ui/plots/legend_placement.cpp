// SPDX-License-Identifier: MIT
// Placing inset legends where they cover the fewest points.
#include "ui/plots/legend_placement.h"

#include <qcustomplot.h>

#include <array>
#include <cmath>
#include <limits>
#include <utility>
#include <vector>

namespace sosrep::ui {

namespace {

/// How much the rectangle's visible graphs' points inside `box` (pixels) would be hidden. A
/// point counts when its marker touches the box (a cross at the legend's edge was half under
/// it), and each graph's points weigh total / its count, so every series weighs alike: the 25
/// anomalies of a toy count as much as its 500 rows, and the legend does not sit on one of
/// them to spare a few ordinary rows (issue 38: the demo and rings).
double coverageOf(QCPAxisRect* rect, const QRect& box)
{
    std::vector<std::pair<QCPGraph*, int>> graphs;
    int total = 0;
    for (QCPGraph* g : rect->graphs()) {
        if (g->visible() && g->data()->size() > 0) {
            graphs.emplace_back(g, g->data()->size());
            total += g->data()->size();
        }
    }
    double covered = 0.0;
    for (const auto& [g, n] : graphs) {
        // Its marker and a few pixels of air: a cross right at the legend's edge reads as under it.
        const int reach = int(std::ceil(g->scatterStyle().size() / 2.0)) + 4;
        const QRect touched = box.adjusted(-reach, -reach, reach, reach);
        int inside = 0;
        for (auto it = g->data()->constBegin(); it != g->data()->constEnd(); ++it) {
            if (std::isfinite(it->key) && std::isfinite(it->value) &&
                touched.contains(g->coordsToPixels(it->key, it->value).toPoint())) {
                ++inside;
            }
        }
        covered += double(inside) * double(total) / double(n);
    }
    return covered;
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
    // The four corners first (a tie keeps the corner it has, then prefers a corner), then the
    // middles of the edges, where a ring or a cloud leaves room no corner has.
    const std::array<Qt::Alignment, 8> places{
        Qt::AlignTop | Qt::AlignRight,    Qt::AlignTop | Qt::AlignLeft,
        Qt::AlignBottom | Qt::AlignRight, Qt::AlignBottom | Qt::AlignLeft,
        Qt::AlignTop | Qt::AlignHCenter,  Qt::AlignBottom | Qt::AlignHCenter,
        Qt::AlignVCenter | Qt::AlignLeft, Qt::AlignVCenter | Qt::AlignRight};
    const Qt::Alignment current = inset->insetAlignment(index);
    Qt::Alignment best = current;
    double fewest = std::numeric_limits<double>::infinity();
    for (const Qt::Alignment place : places) {
        const int x = place & Qt::AlignLeft    ? area.left()
                      : place & Qt::AlignRight ? area.right() - size.width()
                                               : area.center().x() - size.width() / 2;
        const int y = place & Qt::AlignTop      ? area.top()
                      : place & Qt::AlignBottom ? area.bottom() - size.height()
                                                : area.center().y() - size.height() / 2;
        const double n = coverageOf(rect, QRect(QPoint(x, y), size));
        if (n < fewest || (n == fewest && place == current)) {
            fewest = n;
            best = place;
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
