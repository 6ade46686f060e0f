// SPDX-License-Identifier: MIT
// Inset legends off the points that matter (issue 38: the legend still covered anomalies on the
// demo and on rings): a rare series weighs as much as the bulk, a marker at the legend's edge
// counts as covered, and the middles of the edges are tried when every corner holds something.
#include "ui/plots/legend_placement.h"

#include <QtTest>
#include <qcustomplot.h>

using namespace sosrep::ui;

namespace {

struct Fixture
{
    QCustomPlot plot;
    QCPLegend* legend = new QCPLegend;
    QCPGraph* rows = nullptr;
    QCPGraph* anomalies = nullptr;

    Fixture()
    {
        plot.resize(500, 400);
        plot.axisRect()->insetLayout()->addElement(legend, Qt::AlignTop | Qt::AlignRight);
        rows = plot.addGraph();
        rows->setName(QStringLiteral("data"));
        rows->setLineStyle(QCPGraph::lsNone);
        rows->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, 4));
        anomalies = plot.addGraph();
        anomalies->setName(QStringLiteral("label = 1 (anomaly)"));
        anomalies->setLineStyle(QCPGraph::lsNone);
        anomalies->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCross, 7));
        for (QCPGraph* g : {rows, anomalies}) {
            legend->addItem(new QCPPlottableLegendItem(legend, g));
        }
        plot.xAxis->setRange(0, 10);
        plot.yAxis->setRange(0, 10);
    }

    /// Which of the graph's points the placed legend's box (with a marker's reach) covers.
    int covered(QCPGraph* g)
    {
        plot.replot();
        const QRect box = legend->outerRect().adjusted(-3, -3, 3, 3);
        int n = 0;
        for (auto it = g->data()->constBegin(); it != g->data()->constEnd(); ++it) {
            n += box.contains(g->coordsToPixels(it->key, it->value).toPoint()) ? 1 : 0;
        }
        return n;
    }
};

} // namespace

class TstLegendPlacement : public QObject
{
    Q_OBJECT

private slots:
    void anAnomalyWeighsMoreThanAFewRows()
    {
        // Rows in the middle and a few in the bottom-left corner; one anomaly in each of the
        // other corners. Counting points alike put the legend on an anomaly (1 < 6 rows).
        Fixture f;
        QVector<double> x, y;
        for (int i = 0; i < 200; ++i) {
            x << 3.0 + 4.0 * (i % 20) / 19.0;
            y << 3.0 + 4.0 * (i / 20) / 9.0;
        }
        for (int i = 0; i < 6; ++i) {
            x << 0.4 + 0.3 * i;
            y << 0.4 + 0.2 * (i % 2);
        }
        f.rows->setData(x, y);
        f.anomalies->setData({9.6, 0.5, 9.6, 5.0, 5.0, 0.4, 9.5},
                             {9.6, 9.5, 0.5, 9.6, 0.4, 5.0, 5.0});
        placeInsetLegends(&f.plot);
        QCOMPARE(f.covered(f.anomalies), 0);
        QCOMPARE(f.plot.axisRect()->insetLayout()->insetAlignment(0),
                 Qt::AlignBottom | Qt::AlignLeft);
    }

    void aMarkerAtTheEdgeCountsAndTheEdgesMiddlesAreTried()
    {
        // Every corner holds an anomaly, the top edge's middle holds nothing.
        Fixture f;
        f.rows->setData({5.0, 5.2, 4.8}, {5.0, 4.9, 5.1});
        f.anomalies->setData({0.3, 9.7, 0.3, 9.7, 2.2, 7.8}, {9.7, 9.7, 0.3, 0.3, 9.0, 9.0});
        placeInsetLegends(&f.plot);
        QCOMPARE(f.covered(f.anomalies), 0);
        QCOMPARE(f.plot.axisRect()->insetLayout()->insetAlignment(0) & Qt::AlignHCenter,
                 Qt::AlignHCenter);
    }
};

QTEST_MAIN(TstLegendPlacement)
#include "tst_legend_placement.moc"
