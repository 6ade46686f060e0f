// SPDX-License-Identifier: MIT
// The Compare view's room: its three maps and the panels below at 1400 x 900 and 1280 x 720
// (issues 24 and 50), and the cluster panel's robust range.
#include "core/estimators/cluster_comparison.h"
#include "ui/controller/session.h"
#include "ui/main_window.h"
#include "ui/plots/compare_view.h"
#include "ui/plots/density_heatmap.h"

#include "support/gui_fixtures.h"

#include <QTabWidget>
#include <QtTest>

using namespace sosrep::ui;

class TstCompareView : public QObject
{
    Q_OBJECT

private slots:
    // Issue 24: at 1400 x 900 the compare maps were under 200 px wide (two vertical colour
    // scales beside them), and a few rows at -5000 (shuttle) squeezed the cluster panel.
    void compareMapsHaveRoomAndClusterPanelsARobustRange()
    {
        MainWindow w;
        w.resize(1400, 900);
        w.show();
        auto* c = w.session();
        c->generateToy(sosrep::ToyKind::TwoMoons, 300, 1);
        QVERIFY(fitAndWait(w.fits()));
        w.views().tabs->setCurrentWidget(w.views().compare);
        QCoreApplication::processEvents();
        CompareView* view = w.views().compare;
        int height = -1;
        for (DensityHeatmap* map : {view->firstView(), view->secondView()}) {
            map->replot();
            const QRect r = map->axisRect()->rect();
            QVERIFY2(r.width() >= 200 && r.height() >= 200,
                     qPrintable(QStringLiteral("%1 x %2").arg(r.width()).arg(r.height())));
            height = height < 0 ? r.height() : height;
            QVERIFY(std::abs(r.height() - height) <= 2); // the pair at one height
        }
        const QRect diff = view->differenceView()->axisRect()->rect();
        QVERIFY(diff.width() >= 200 && diff.height() >= 200);
        sosrep::ClusterComparison cc;
        cc.firstEstimator = "sosrep";
        cc.secondEstimator = "kde";
        for (int i = 0; i < 400; ++i) {
            const double y = std::sin(i * 0.3) - (i >= 300 ? 2.0 : 0.0);
            cc.first.push_back(i == 350 ? -5000.0 : y);
            cc.second.push_back(i == 360 ? -4000.0 : 0.9 * y);
        }
        cc.firstSmoothed = sosrep::runningMean(cc.first, 9);
        cc.secondSmoothed = sosrep::runningMean(cc.second, 9);
        cc.cluster1Size = 300;
        cc.within1 = cc.within2 = cc.between = {0.1, 0.5, 0.9};
        view->showClusters(cc, QStringLiteral("a test"));
        QCPAxis* y = view->clusterPlot()->axisRect(0)->axis(QCPAxis::atLeft);
        QVERIFY2(y->range().lower > -1000.0, qPrintable(QString::number(y->range().lower)));
        QVERIFY(y->label().contains(QStringLiteral("clipped")));
    }

    // Issue 50 (minor): at 1280 x 720 the Compare maps were 155 px squares (the difference
    // map, under a title of two lines, 115 px); the panels below keep labels that fit.
    void compareMapsHaveRoomAtTheSmallSize()
    {
        MainWindow w;
        w.resize(1280, 720);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        auto* c = w.session();
        c->generateToy(sosrep::ToyKind::TwoMoons, 500, 0);
        QVERIFY(fitAndWait(w.fits()));
        w.views().tabs->setCurrentWidget(w.views().compare);
        QCoreApplication::processEvents();
        CompareView* view = w.views().compare;
        for (DensityHeatmap* map : {view->firstView(), view->secondView()}) {
            map->replot();
            const QRect r = map->axisRect()->rect();
            QVERIFY2(r.width() >= 175 && r.height() >= 175,
                     qPrintable(QStringLiteral("%1 x %2").arg(r.width()).arg(r.height())));
        }
        view->differenceView()->replot();
        const QRect diff = view->differenceView()->axisRect()->rect();
        QVERIFY2(diff.width() >= 140 && diff.height() >= 140,
                 qPrintable(QStringLiteral("%1 x %2").arg(diff.width()).arg(diff.height())));
        QCustomPlot* panels = view->clusterPlot();
        panels->replot();
        for (QCPAxisRect* rect : panels->axisRects()) {
            QCPAxis* y = rect->axis(QCPAxis::atLeft);
            const QFontMetrics fm(y->labelFont());
            for (const QString& line : y->label().split(QLatin1Char('\n'))) {
                QVERIFY2(fm.horizontalAdvance(line) <= rect->height(),
                         qPrintable(QStringLiteral("'%1': %2 px beside %3 px")
                                        .arg(line)
                                        .arg(fm.horizontalAdvance(line))
                                        .arg(rect->height())));
            }
        }
    }
};

QTEST_MAIN(TstCompareView)
#include "tst_compare_view.moc"
