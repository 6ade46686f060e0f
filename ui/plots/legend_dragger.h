// SPDX-License-Identifier: MIT
// Dragging a plot's legend with the mouse.
#pragma once

#include <QObject>
#include <QPointF>

class QCPLegend;
class QCustomPlot;
class QMouseEvent;

namespace sosrep::ui {

/// Lets the user drag an inset legend anywhere in its axis rectangle (off the data it covers);
/// the plot pans as usual when the press is not on the legend.
class LegendDragger : public QObject
{
    Q_OBJECT

public:
    LegendDragger(QCustomPlot* plot, QCPLegend* legend);
    /// Moves the legend's top-left corner to a pixel position (as a drag would).
    void moveTo(const QPointF& topLeft);

private:
    void onPress(QMouseEvent* event);
    void onMove(QMouseEvent* event);
    void onRelease(QMouseEvent* event);

    QCustomPlot* m_plot;
    QCPLegend* m_legend;
    bool m_dragging = false;
    QPointF m_grab; // press position relative to the legend's corner
};

} // namespace sosrep::ui
