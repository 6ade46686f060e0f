// SPDX-License-Identifier: MIT
// A map's joint-plot edges: the plotted columns' 1-D marginals above and beside it.
#pragma once

#include <QString>
#include <QVector>

#include <utility>

class QCPAxisRect;
class QCPColorScale;
class QCPGraph;
class QCustomPlot;

namespace sosrep::ui {

/// seaborn's jointplot edges on a QCustomPlot map: an axis rect above the map with the x
/// column's marginal and one beside it with the y column's, sharing the map's axes (their
/// ranges follow its zoom). Built on first show, taken down on hide.
class JointEdges
{
public:
    /// One edge's curve: scaled coordinates on the key, density per unit of the column on the
    /// value; or, when empty, `why` is said on that edge.
    struct Edge
    {
        QVector<double> key;   // the column's scaled values
        QVector<double> value; // the marginal density per unit of the column
        QString why;           // why there is none (no closed form...), when key is empty
        QString name;          // the value axis's label ("density of x")
    };

    /// Edges of `plot`'s main axis rect; `scale` is the map's colour scale (laid out beside).
    JointEdges(QCustomPlot* plot, QCPColorScale* scale) : m_plot(plot), m_scale(scale) {}

    bool shown() const { return m_top != nullptr; }
    /// Shows the edges with these curves (the caller replots).
    void show(const Edge& x, const Edge& y);
    /// Takes the edges down (the caller replots).
    void hide();
    /// Empties both curves (the map has no content).
    void clearCurves();
    /// The edges' curves (for tests): the top's and the right's point counts.
    std::pair<int, int> points() const;
    /// The edges' value-axis labels (top, right).
    std::pair<QString, QString> labels() const;
    QCPAxisRect* top() const { return m_top; }

private:
    void build();

    QCustomPlot* m_plot;
    QCPColorScale* m_scale;
    QCPAxisRect* m_top = nullptr;   // the x column's marginal above the map
    QCPAxisRect* m_right = nullptr; // and the y column's beside it
    QCPGraph* m_topCurve = nullptr;
    QCPGraph* m_rightCurve = nullptr;
};

} // namespace sosrep::ui
