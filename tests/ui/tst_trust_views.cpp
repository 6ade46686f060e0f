// SPDX-License-Identifier: MIT
// What the app says about the trust in its numbers: a degenerate fit warns in the banner above
// the views or is refused keeping the last result, and the Scores view's outlier threshold is
// cross-fitted on a worker that Esc stops.
#include "ui/controller/session.h"
#include "ui/controller/threshold_controller.h"
#include "ui/main_window.h"

#include "support/gui_fixtures.h"
#include "support/temp_files.h"

#include <QElapsedTimer>
#include <QLabel>
#include <QtTest>

using namespace sosrep::ui;

class TstTrustViews : public QObject
{
    Q_OBJECT

private:
    ScratchDir m_dir;

private slots:
    void initTestCase()
    {
        m_dir.isolateSettings(); // not the user's own window state and recent files
    }

    // Issue 33: a degenerate fit is kept with a warning in the banner above the views (the
    // command line prints it, Python raises FitWarning: tst_degenerate_fits, test_trust.py), or
    // refused with the message naming the option while the last result stays.
    void degenerateFitsWarnInTheBannerOrAreRefused_data()
    {
        QTest::addColumn<QString>("estimator");
        QTest::addColumn<QString>("option");
        QTest::addColumn<double>("value");
        QTest::addColumn<QString>("expected");
        QTest::newRow("l beyond the diameter")
            << "kde"
            << "length_scale" << 1e5 << "times the data's diameter";
        QTest::newRow("l below the spacing")
            << "kde"
            << "length_scale" << 1e-6 << "nearest-neighbour spacing";
        QTest::newRow("kernel SoS not converged")
            << "sos-mmd"
            << "iterations" << 3.0 << "stopped before converging";
    }

    void degenerateFitsWarnInTheBannerOrAreRefused()
    {
        QFETCH(QString, estimator);
        QFETCH(QString, option);
        QFETCH(double, value);
        QFETCH(QString, expected);
        MainWindow w;
        w.resize(1200, 800);
        w.show();
        auto* c = w.session();
        w.openFile(m_dir.write("clusters.csv", clusterCsv(200)));
        auto* banner = w.findChild<QLabel*>(QStringLiteral("warningBanner"));
        QVERIFY(banner);
        sosrep::FitSettings s = sosrep::FitSettings::defaults(estimator.toStdString());
        s.values.set("scale", "none");
        if (option == QLatin1String("iterations")) {
            s.values.setInteger("iterations", int(value));
            s.values.setReal("length_scale", 0.3);
        } else {
            s.values.setReal(option.toStdString(), value);
        }
        c->setSettings(s);
        QVERIFY(fitAndWait(w.fits()));
        QVERIFY(c->result() && c->result()->error.empty());
        QVERIFY2(c->warnings().join(QLatin1Char('\n')).contains(expected),
                 qPrintable(c->warnings().join(QLatin1Char('\n'))));
        QVERIFY(banner->isVisible());
        QVERIFY2(banner->text().contains(expected) ||
                     banner->text().contains(QStringLiteral("more")),
                 qPrintable(banner->text()));
    }

    void aKernelSosThatIgnoresTheDataIsRefusedAndTheLastResultStays()
    {
        MainWindow w;
        auto* c = w.session();
        w.openFile(m_dir.write("clusters.csv", clusterCsv(200)));
        sosrep::FitSettings s = sosrep::FitSettings::defaults("kde");
        s.values.setReal("length_scale", 0.1);
        c->setSettings(s);
        QVERIFY(fitAndWait(w.fits()));
        QVERIFY(c->result() && c->result()->error.empty());
        const double before = c->result()->rowLogDensity(0);
        sosrep::FitSettings sos = sosrep::FitSettings::defaults("sos-mmd");
        // The regularizer outweighs the data a billion times over: lambda is too large.
        sos.values.setReal("length_scale", 0.3);
        sos.values.setReal("lambda", 1e12);
        c->setSettings(sos);
        QSignalSpy errors(c, &Session::errorOccurred);
        w.fits()->fit();
        QVERIFY(errors.wait(60000));
        QVERIFY2(w.lastError().contains(QStringLiteral("lambda")), qPrintable(w.lastError()));
        QVERIFY(c->result());
        QCOMPARE(c->result()->rowLogDensity(0), before); // the KDE result is still shown
    }

    // The outlier threshold's cross-fit (five fits) runs on a worker: the GUI answers, Esc
    // stops it within the cancel budget, and a new share asks again.
    void outlierThresholdRunsOffTheGuiThreadAndCancels()
    {
        MainWindow w;
        auto* c = w.session();
        c->generateToy(sosrep::ToyKind::Rings, 3000, 1);
        sosrep::FitSettings s = c->settings();
        s.values.set("length_scale", "0.05");
        s.values.set("solver", "natural");
        s.values.set("tolerance", "0");
        s.values.set("iterations", "400"); // each of the five fold fits takes a while
        c->setSettings(s);
        QSignalSpy scored(c, &Session::scoresReady);
        QVERIFY(fitAndWait(w.fits()));
        QVERIFY(c->result()->scoresReady() || scored.wait(60000)); // 3000 rows: after the fit
        QVERIFY(c->result()->scoresReady());
        w.controllers().thresholds->setContamination(0.1);
        QVERIFY(w.controllers().thresholds->pending());
        QVERIFY(!w.controllers().thresholds->threshold());
        QTest::qWait(150); // inside the first fold fits
        QElapsedTimer t;
        t.start();
        c->cancel();
        QTRY_VERIFY_WITH_TIMEOUT(!w.controllers().thresholds->pending(), 5000);
        qInfo("threshold cancel answered in %lld ms", static_cast<long long>(t.elapsed()));
        QVERIFY2(t.elapsed() < 1000, qPrintable(QString::number(t.elapsed())));
        QVERIFY(!w.controllers().thresholds->threshold());
        // Another share computes it to the end.
        QSignalSpy ready(w.controllers().thresholds, &ThresholdController::ready);
        w.controllers().thresholds->setContamination(0.05);
        QTRY_VERIFY_WITH_TIMEOUT(w.controllers().thresholds->threshold().has_value(), 60000);
        QCOMPARE(w.controllers().thresholds->threshold()->contamination, 0.05);
        QCOMPARE(w.controllers().thresholds->threshold()->method, std::string("5-fold cross-fit"));
        QCOMPARE(w.controllers().thresholds->threshold()->heldOutRows, 3000);
        // A bad share is refused, the last one kept.
        QSignalSpy errors(w.controllers().thresholds, &ThresholdController::failed);
        w.controllers().thresholds->setContamination(0.9);
        QCOMPARE(errors.count(), 1);
        QCOMPARE(w.controllers().thresholds->contamination(), 0.05);
    }
};

QTEST_MAIN(TstTrustViews)
#include "tst_trust_views.moc"
