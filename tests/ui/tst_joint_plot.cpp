// SPDX-License-Identifier: MIT
// The joint plot (issue 38, seaborn's jointplot): the map with the plotted columns' closed-form
// marginals on its edges, sharing its axes; without a closed form the edges say why.
#include "ui/controller/marginal_controller.h"
#include "ui/controller/session.h"
#include "ui/density_tab.h"
#include "ui/main_window.h"
#include "ui/plots/density_heatmap.h"

#include "support/gui_fixtures.h"

#include <QtTest>

using namespace sosrep::ui;

class TstJointPlot : public QObject
{
    Q_OBJECT

private slots:
    void theMarginalsSitOnTheMapsEdges()
    {
        MainWindow w;
        w.resize(1280, 720);
        w.show();
        auto* c = w.session();
        c->generateToy(sosrep::ToyKind::TwoMoons, 300, 0);
        QVERIFY(fitAndWait(w.fits()));
        DensityHeatmap* map = w.views().density;
        QVERIFY(!map->joint().shown());
        const int panelsBefore = map->axisRectCount();
        QSignalSpy ready(w.controllers().marginals, &MarginalController::ready);
        w.views().densityTab->setJoint(true);
        QVERIFY(map->joint().shown());
        QTRY_VERIFY_WITH_TIMEOUT(
            w.controllers().marginals->curve(0) && w.controllers().marginals->curve(1), 30000);
        const auto [top, right] = map->joint().points();
        // The edges hold the controller's closed-form marginals, every point of them.
        QCOMPARE(top, w.controllers().marginals->curve(0)->spec.n);
        QCOMPARE(right, w.controllers().marginals->curve(1)->spec.n);
        QCOMPARE(map->axisRectCount(), panelsBefore + 2);
        // The edges follow the map's axes: a zoom of the map zooms them.
        map->xAxis->setRange(0.2, 0.5);
        QCOMPARE(map->joint().top()->axis(QCPAxis::atBottom)->range(), QCPRange(0.2, 0.5));
        // Per unit of the column (issue 50: "density of x" said no unit).
        QCOMPARE(map->joint().labels().first, QStringLiteral("density per x"));
        QCOMPARE(map->joint().labels().second, QStringLiteral("density per y"));
        // Off again: the map alone, as it was.
        w.views().densityTab->setJoint(false);
        QVERIFY(!map->joint().shown());
        QCOMPARE(map->axisRectCount(), panelsBefore);
    }

    void withoutAClosedFormTheEdgesSaySo()
    {
        MainWindow w;
        auto* c = w.session();
        c->generateToy(sosrep::ToyKind::TwoMoons, 300, 0);
        c->setEstimator("iforest");
        QVERIFY(fitAndWait(w.fits()));
        w.views().densityTab->setJoint(true);
        DensityHeatmap* map = w.views().density;
        QVERIFY(map->joint().shown());
        QCOMPARE(map->joint().points(), std::make_pair(0, 0));
        QCOMPARE(map->joint().labels().first, QStringLiteral("no closed-form marginal"));
        QCOMPARE(map->joint().labels().second, QStringLiteral("no closed-form marginal"));
    }
};

QTEST_MAIN(TstJointPlot)
#include "tst_joint_plot.moc"
