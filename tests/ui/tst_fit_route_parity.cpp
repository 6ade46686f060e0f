// SPDX-License-Identifier: MIT
// Issue 8: the app fits through the same core route as the command line. The same data and
// settings through the app's controller and through `sosrep fit` give byte-identical scores.
#include "support/cli_run.h"
#include "ui/controller/estimation_controller.h"
#include "ui/main_window.h"

#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QtTest>

using namespace sosrep::ui;

class TstFitRouteParity : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString m_data;
    QString m_rings; // rings: the anomaly rule's neighbourhood reach lies above the density's l

    /// Options as name=value pairs, set by name as the app's panel sets them.
    static bool setOptions(EstimationController* c, const QStringList& options)
    {
        for (const QString& o : options) {
            const QString name = o.section(QLatin1Char('='), 0, 0);
            const QString value = o.section(QLatin1Char('='), 1);
            if (name == QLatin1String("estimator")) {
                c->setEstimator(value.toStdString());
            } else if (!c->setOption(name.toStdString(), value.toStdString())) {
                return false;
            }
        }
        return true;
    }

private slots:
    void initTestCase()
    {
        QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope,
                           m_dir.filePath(QStringLiteral("settings")));
        m_data = m_dir.filePath(QStringLiteral("moons.csv"));
        const CliRun g = runSosrep({"generate", "--kind", "moons", "--n", "400", "--seed", "3",
                                    "--anomalies", "0.05", "--out", m_data});
        QVERIFY2(g.code == 0, qPrintable(g.err));
        m_rings = m_dir.filePath(QStringLiteral("rings.csv"));
        const CliRun h = runSosrep({"generate", "--kind", "rings", "--n", "400", "--seed", "21",
                                    "--anomalies", "0.05", "--out", m_rings});
        QVERIFY2(h.code == 0, qPrintable(h.err));
    }

    void sameSettingsSameScores_data()
    {
        // Options as the command line spells them; the app sets the same options by name.
        // The app's Scores view ranks rows with the model tuned for anomaly ranking (purpose
        // auto): `sosrep fit --purpose anomaly` fits that model.
        QTest::addColumn<QStringList>("flags");
        QTest::addColumn<QStringList>("options"); // name=value pairs for the controller
        QTest::addColumn<bool>("rings");
        QTest::newRow("defaults (sosrep, newton, automatic l)")
            << QStringList{"--purpose", "anomaly"} << QStringList{} << false;
        QTest::newRow("defaults on rings: two scales for the scores")
            << QStringList{"--purpose", "anomaly"} << QStringList{} << true;
        QTest::newRow("purpose density for both views")
            << QStringList{} << QStringList{"purpose=density"} << true;
        QTest::newRow("kde, automatic l")
            << QStringList{"--estimator", "kde", "--purpose", "anomaly"}
            << QStringList{"estimator=kde"} << false;
        QTest::newRow("laplace, fixed l")
            << QStringList{"--kernel", "laplace", "--length-scale", "0.07"}
            << QStringList{"kernel=laplace", "length_scale=0.07"} << false;
        QTest::newRow("sdo by random features, natural gradient")
            << QStringList{"--kernel", "sdo", "--features", "300", "--solver",  "natural",
                           "--lr",     "0.2", "--seed",     "11",  "--purpose", "anomaly"}
            << QStringList{"kernel=sdo", "features=300", "solver=natural", "learning_rate=0.2",
                           "seed=11"}
            << false;
        QTest::newRow("z-score, silverman rule of thumb")
            << QStringList{"--scale", "zscore", "--length-scale", "silverman"}
            << QStringList{"scale=zscore", "length_scale=silverman"} << false;
    }

    void sameSettingsSameScores()
    {
        QFETCH(QStringList, flags);
        QFETCH(QStringList, options);
        QFETCH(bool, rings);
        const QString data = rings ? m_rings : m_data;
        const QString cliScores = m_dir.filePath(QStringLiteral("cli.csv"));
        const QString appScores = m_dir.filePath(QStringLiteral("app.csv"));
        const CliRun r = runSosrep(QStringList{"fit", "--train", data, "--label-column", "label",
                                               "--scores-out", cliScores} +
                                   flags);
        QVERIFY2(r.code == 0, qPrintable(r.err));

        MainWindow w;
        EstimationController* c = w.controller();
        w.openFile(data); // the 0/1 column named label gets the label role
        QVERIFY(c->labels().has_value());
        QVERIFY(setOptions(c, options));
        QSignalSpy finished(c, &EstimationController::fitFinished);
        c->fit();
        QVERIFY(finished.wait(60000));
        QCOMPARE(w.exportScores(appScores), QString());
        const QByteArray app = bytesOf(appScores);
        QVERIFY(app.size() > 1000);
        QCOMPARE(app, bytesOf(cliScores));
        // The summary and the app agree on the length scale, too (a model of two scales
        // reports the density's).
        QCOMPARE(c->result()->scoresOutcome().lengthScale,
                 r.summary()[QStringLiteral("length_scale")].toDouble());
        if (rings && flags.contains(QStringLiteral("anomaly"))) {
            QVERIFY(c->result()->scoresFit.has_value()); // the case this row is for
            QCOMPARE(r.summary()[QStringLiteral("ensemble_members")].toInt(), 2);
        }
    }

    // Issue 33: the Scores view's outlier flags come from rows the model did not fit, as
    // `sosrep fit --contamination` computes them: the exported table, outlier column included,
    // is the command line's byte for byte.
    void outlierFlagsAreTheCommandLines_data()
    {
        QTest::addColumn<QStringList>("flags");
        QTest::addColumn<QStringList>("options");
        QTest::addColumn<bool>("rings");
        QTest::addColumn<double>("contamination");
        QTest::newRow("defaults: a 5-fold cross-fit at the tuned l")
            << QStringList{"--purpose", "anomaly"} << QStringList{} << false << 0.1;
        QTest::newRow("rings: the anomaly rule's validation rows")
            << QStringList{"--purpose", "anomaly"} << QStringList{} << true << 0.05;
        QTest::newRow("kde at a fixed l")
            << QStringList{"--estimator", "kde", "--length-scale", "0.05"}
            << QStringList{"estimator=kde", "length_scale=0.05"} << false << 0.2;
    }

    void outlierFlagsAreTheCommandLines()
    {
        QFETCH(QStringList, flags);
        QFETCH(QStringList, options);
        QFETCH(bool, rings);
        QFETCH(double, contamination);
        const QString data = rings ? m_rings : m_data;
        const QString cliScores = m_dir.filePath(QStringLiteral("cli_flags.csv"));
        const QString appScores = m_dir.filePath(QStringLiteral("app_flags.csv"));
        const CliRun r = runSosrep(QStringList{"fit", "--train", data, "--label-column", "label",
                                               "--contamination", QString::number(contamination),
                                               "--scores-out", cliScores} +
                                   flags);
        QVERIFY2(r.code == 0, qPrintable(r.err));

        MainWindow w;
        EstimationController* c = w.controller();
        w.openFile(data);
        QVERIFY(setOptions(c, options));
        // The user's path: the share in the Scores view's box, then "Flag" (before the fit:
        // the threshold follows it).
        auto* percent = w.findChild<QDoubleSpinBox*>(QStringLiteral("contaminationPercent"));
        auto* flag = w.findChild<QCheckBox*>(QStringLiteral("flagOutliers"));
        QVERIFY(percent && flag);
        flag->setChecked(true);
        percent->setValue(100.0 * contamination);
        QCOMPARE(c->contamination(), contamination);
        QSignalSpy ready(c, &EstimationController::thresholdReady);
        QSignalSpy finished(c, &EstimationController::fitFinished);
        c->fit();
        QVERIFY(finished.wait(60000));
        QVERIFY(c->threshold() || ready.wait(60000));
        QVERIFY(c->threshold());
        QCOMPARE(
            c->threshold()->offset,
            r.summary()[QStringLiteral("outlier_threshold")][QStringLiteral("offset")].toDouble());
        QCOMPARE(w.exportScores(appScores), QString());
        QCOMPARE(bytesOf(appScores), bytesOf(cliScores));
        const QString state = w.findChild<QLabel*>(QStringLiteral("outlierState"))->text();
        QVERIFY2(state.contains(QStringLiteral("rows flagged")) &&
                     state.contains(QStringLiteral("did not fit")),
                 qPrintable(state));
        // Off again: no outlier column, no threshold.
        flag->setChecked(false);
        QVERIFY(!c->threshold());
        QCOMPARE(w.exportScores(appScores), QString());
        QVERIFY(!bytesOf(appScores).startsWith("row,log_density,anomaly_score,label,outlier"));
        QVERIFY(!readLines(appScores).front().contains(QStringLiteral("outlier")));
    }
};

QTEST_MAIN(TstFitRouteParity)
#include "tst_fit_route_parity.moc"
