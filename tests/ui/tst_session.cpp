// SPDX-License-Identifier: MIT
// Tests of the session and its controllers without a window: the order a result arrives in,
// parts completed only for their own result, maps for new columns without a refit, a fit
// stopped by new data, and a hue's classes from the session alone.
#include "ui/controller/class_densities.h"
#include "ui/controller/fit_controller.h"
#include "ui/controller/grid_controller.h"
#include "ui/controller/hue_controller.h"
#include "ui/controller/session.h"

#include "support/gui_fixtures.h"
#include "support/temp_files.h"

#include <QSignalSpy>
#include <QtTest>

using namespace sosrep::ui;

class TstSession : public QObject
{
    Q_OBJECT

private:
    ScratchDir m_dir;

private slots:
    void aFitsResultIsDroppedThenShownThenReady()
    {
        Session s;
        FitController fits(&s, nullptr);
        QVERIFY(s.loadFile(m_dir.write("rings.csv", clusterCsv(150))));
        QStringList order;
        connect(&s, &Session::resultDropped, this, [&] { order << QStringLiteral("dropped"); });
        connect(&s, &Session::fitFinished, this, [&] {
            QVERIFY(s.result()); // the views find it in
            order << QStringLiteral("finished");
        });
        connect(&s, &Session::resultReady, this, [&] { order << QStringLiteral("ready"); });
        QSignalSpy busy(&s, &Session::busyChanged);
        QVERIFY(fitAndWait(&fits));
        QCOMPARE(order.join(QLatin1Char(' ')), QStringLiteral("dropped finished ready"));
        QCOMPARE(busy.count(), 2); // on, then off before the result is shown
        QVERIFY(!s.isBusy());
        QCOMPARE(s.resultInput().x.rows(), s.data().features().rows());
        QVERIFY(!fits.fdCurve().empty()); // ℓ was tuned: the FD curve is the controller's
    }

    void aPartIsCompletedOnlyForItsOwnResult()
    {
        Session s;
        FitController fits(&s, nullptr);
        QVERIFY(s.loadFile(m_dir.write("rings.csv", clusterCsv(150))));
        QVERIFY(fitAndWait(&fits));
        const quint64 first = s.resultGeneration();
        QVERIFY(fitAndWait(&fits));
        QVERIFY(s.resultGeneration() > first);
        QSignalSpy scores(&s, &Session::scoresReady);
        bool changed = false;
        const auto change = [&changed](FitJobResult&) { changed = true; };
        // A job that finished for the first result: its answer is dropped, nothing said.
        QVERIFY(!s.updateResult(first, ResultPart::Scores, change));
        QVERIFY(!changed);
        QCOMPARE(scores.count(), 0);
        QVERIFY(s.updateResult(s.resultGeneration(), ResultPart::Scores, change));
        QVERIFY(changed);
        QCOMPARE(scores.count(), 1);
    }

    void otherPlotColumnsBringMapsWithoutARefit()
    {
        Session s;
        FitController fits(&s, nullptr);
        GridController grids(&s, nullptr);
        QVERIFY(s.loadFile(m_dir.write("rings.csv", clusterCsv(150))));
        QVERIFY(fitAndWait(&fits));
        const double ell = s.result()->lengthScale();
        QSignalSpy fitted(&s, &Session::fitFinished);
        QSignalSpy updated(&s, &Session::gridsUpdated);
        s.setPlotColumns(0, 2);
        QVERIFY(updated.wait(30000));
        QCOMPARE(s.result()->grid.spec.xColumn, 0);
        QCOMPARE(s.result()->grid.spec.yColumn, 2);
        QCOMPARE(fitted.count(), 0);
        QCOMPARE(s.result()->lengthScale(), ell);
    }

    void newDataStopsAFitAndNothingOfItArrives()
    {
        Session s;
        FitController fits(&s, nullptr);
        QVERIFY(s.loadFile(m_dir.write("big.csv", clusterCsv(3000))));
        QSignalSpy fitted(&s, &Session::fitFinished);
        QSignalSpy cancelled(&fits, &FitController::fitCancelled);
        fits.fit();
        QVERIFY(s.isBusy());
        QVERIFY(s.loadFile(m_dir.write("small.csv", clusterCsv(90, 5.0))));
        QVERIFY(cancelled.wait(10000)); // the old fit ended as cancelled
        QVERIFY(!s.isBusy());
        QCOMPARE(fitted.count(), 0);
        QVERIFY(!s.result());
        QCOMPARE(s.data().features().rows(), Eigen::Index(90));
        QVERIFY(fitAndWait(&fits)); // and the new data fit as usual
        QCOMPARE(s.resultInput().x.rows(), Eigen::Index(90));
    }

    void aHuesClassesComeFromTheSessionAlone()
    {
        Session s;
        FitController fits(&s, nullptr);
        HueController hue(&s, nullptr);
        QVERIFY(s.loadFile(m_dir.write("rings.csv", clusterCsv(150))));
        hue.setColumn(QStringLiteral("label"));
        QSignalSpy ready(&hue, &HueController::ready);
        QVERIFY(fitAndWait(&fits));
        QVERIFY(ready.count() > 0 || ready.wait(30000));
        QVERIFY(hue.classes());
        QCOMPARE(int(hue.classes()->classes.size()), 2);
    }
};

QTEST_MAIN(TstSession)
#include "tst_session.moc"
