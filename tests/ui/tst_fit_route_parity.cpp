// SPDX-License-Identifier: MIT
// Issue 8: the app fits through the same core route as the command line. The same data and
// settings through the app's controller and through `sosrep fit` give byte-identical scores.
#include "support/cli_run.h"
#include "ui/controller/fit_controller.h"
#include "ui/controller/session.h"
#include "ui/controller/threshold_controller.h"
#include "ui/exporter.h"
#include "ui/main_window.h"

#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QtTest>

#include <random>

using namespace sosrep::ui;

class TstFitRouteParity : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString m_data;
    QString m_rings; // rings: the anomaly rule's neighbourhood reach lies above the density's l
    /// Columns that are mostly 0 with a sparse tail (as ReLU features): scale=auto's anomaly
    /// purpose scales them by rank, the density keeps min-max.
    QString m_spikes;

    QString dataFile(const QString& name) const
    {
        return name == QLatin1String("rings")    ? m_rings
               : name == QLatin1String("spikes") ? m_spikes
                                                 : m_data;
    }

    /// Options as name=value pairs, set by name as the app's panel sets them.
    static bool setOptions(Session* c, const QStringList& options)
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
        m_spikes = m_dir.filePath(QStringLiteral("spikes.csv"));
        QFile f(m_spikes);
        QVERIFY(f.open(QIODevice::WriteOnly));
        QByteArray text = "a,b,c,label\n";
        std::mt19937_64 random(7);
        std::uniform_real_distribution<double> u(0.0, 1.0);
        for (int i = 0; i < 300; ++i) {
            const bool anomaly = i % 25 == 0;
            for (int j = 0; j < 3; ++j) {
                // 70 % exactly 0, else a heavy tail; an anomaly is active in every column.
                const double v = anomaly || u(random) > 0.7 ? -std::log(u(random) + 1e-9) : 0.0;
                text += QByteArray::number(anomaly ? 3.0 + v : v, 'g', 17) + ',';
            }
            text += anomaly ? "1\n" : "0\n";
        }
        f.write(text);
    }

    void sameSettingsSameScores_data()
    {
        // Options as the command line spells them; the app sets the same options by name.
        // The app's Scores view ranks rows with the model tuned for anomaly ranking (purpose
        // auto): `sosrep fit --purpose anomaly` fits that model.
        QTest::addColumn<QStringList>("flags");
        QTest::addColumn<QStringList>("options"); // name=value pairs for the controller
        QTest::addColumn<QString>("data");
        QTest::newRow("defaults (sosrep, newton, automatic l)")
            << QStringList{"--purpose", "anomaly"} << QStringList{} << QStringLiteral("moons");
        QTest::newRow("defaults on rings: two scales for the scores")
            << QStringList{"--purpose", "anomaly"} << QStringList{} << QStringLiteral("rings");
        QTest::newRow("purpose density for both views")
            << QStringList{} << QStringList{"purpose=density"} << QStringLiteral("rings");
        QTest::newRow("kde, automatic l")
            << QStringList{"--estimator", "kde", "--purpose", "anomaly"}
            << QStringList{"estimator=kde"} << QStringLiteral("moons");
        QTest::newRow("laplace, fixed l")
            << QStringList{"--kernel", "laplace", "--length-scale", "0.07"}
            << QStringList{"kernel=laplace", "length_scale=0.07"} << QStringLiteral("moons");
        QTest::newRow("sdo by random features, natural gradient")
            << QStringList{"--kernel", "sdo", "--features", "300", "--solver",  "natural",
                           "--lr",     "0.2", "--seed",     "11",  "--purpose", "anomaly"}
            << QStringList{"kernel=sdo", "features=300", "solver=natural", "learning_rate=0.2",
                           "seed=11"}
            << QStringLiteral("moons");
        QTest::newRow("z-score, silverman rule of thumb")
            << QStringList{"--scale", "zscore", "--length-scale", "silverman"}
            << QStringList{"scale=zscore", "length_scale=silverman"} << QStringLiteral("moons");
        // scale=auto: the Scores view's model is the anomaly purpose's in its own (rank)
        // scaling, with its own sweep, while the density view keeps min-max.
        QTest::newRow("spike-and-tail columns: the Scores view in rank scaling")
            << QStringList{"--purpose", "anomaly"} << QStringList{} << QStringLiteral("spikes");
        QTest::newRow("spike-and-tail columns, kde at a fixed l")
            << QStringList{"--estimator", "kde", "--length-scale", "0.1", "--purpose", "anomaly"}
            << QStringList{"estimator=kde", "length_scale=0.1"} << QStringLiteral("spikes");
        QTest::newRow("spike-and-tail columns, purpose density: min-max for both views")
            << QStringList{} << QStringList{"purpose=density"} << QStringLiteral("spikes");
    }

    void sameSettingsSameScores()
    {
        QFETCH(QStringList, flags);
        QFETCH(QStringList, options);
        QFETCH(QString, data);
        const QString file = dataFile(data);
        const QString cliScores = m_dir.filePath(QStringLiteral("cli.csv"));
        const QString appScores = m_dir.filePath(QStringLiteral("app.csv"));
        const CliRun r = runSosrep(QStringList{"fit", "--train", file, "--label-column", "label",
                                               "--scores-out", cliScores} +
                                   flags);
        QVERIFY2(r.code == 0, qPrintable(r.err));

        MainWindow w;
        Session* c = w.session();
        w.openFile(file); // the 0/1 column named label gets the label role
        QVERIFY(c->data().labels().has_value());
        QVERIFY(setOptions(c, options));
        QSignalSpy finished(c, &Session::fitFinished);
        w.fits()->fit();
        QVERIFY(finished.wait(60000));
        QCOMPARE(w.exporter()->exportScores(appScores), QString());
        const QByteArray app = bytesOf(appScores);
        QVERIFY(app.size() > 1000);
        QCOMPARE(app, bytesOf(cliScores));
        // The summary and the app agree on the length scale, too (a model of two scales
        // reports the density's).
        QCOMPARE(c->result()->scoresOutcome().lengthScale,
                 r.summary()[QStringLiteral("length_scale")].toDouble());
        const bool anomalyAuto = flags.contains(QStringLiteral("anomaly"));
        QCOMPARE(r.summary()[QStringLiteral("scaling")].toString(),
                 QString::fromStdString(toString(c->result()->scoresScaler
                                                     ? c->result()->scoresScaler->kind
                                                     : c->data().scaler().kind)));
        if (data == QLatin1String("spikes")) {
            // The density view's scaling is min-max whatever the Scores view's is.
            QCOMPARE(toString(c->data().scaler().kind), std::string("minmax"));
            QCOMPARE(c->result()->scoresScaler.has_value(), anomalyAuto);
            QCOMPARE(r.summary()[QStringLiteral("scaling")].toString(),
                     anomalyAuto ? QStringLiteral("rank") : QStringLiteral("minmax"));
        }
        if (data == QLatin1String("rings") && anomalyAuto) {
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
        QTest::addColumn<QString>("data");
        QTest::addColumn<double>("contamination");
        QTest::newRow("defaults: a 5-fold cross-fit at the tuned l")
            << QStringList{"--purpose", "anomaly"} << QStringList{} << QStringLiteral("moons")
            << 0.1;
        QTest::newRow("rings: the anomaly rule's validation rows")
            << QStringList{"--purpose", "anomaly"} << QStringList{} << QStringLiteral("rings")
            << 0.05;
        QTest::newRow("kde at a fixed l")
            << QStringList{"--estimator", "kde", "--length-scale", "0.05"}
            << QStringList{"estimator=kde", "length_scale=0.05"} << QStringLiteral("moons") << 0.2;
        QTest::newRow("spike-and-tail columns: the anomaly rule's own rows, rank-scaled")
            << QStringList{"--purpose", "anomaly"} << QStringList{} << QStringLiteral("spikes")
            << 0.05;
    }

    void outlierFlagsAreTheCommandLines()
    {
        QFETCH(QStringList, flags);
        QFETCH(QStringList, options);
        QFETCH(QString, data);
        QFETCH(double, contamination);
        const QString file = dataFile(data);
        const QString cliScores = m_dir.filePath(QStringLiteral("cli_flags.csv"));
        const QString appScores = m_dir.filePath(QStringLiteral("app_flags.csv"));
        const CliRun r = runSosrep(QStringList{"fit", "--train", file, "--label-column", "label",
                                               "--contamination", QString::number(contamination),
                                               "--scores-out", cliScores} +
                                   flags);
        QVERIFY2(r.code == 0, qPrintable(r.err));

        MainWindow w;
        Session* c = w.session();
        w.openFile(file);
        QVERIFY(setOptions(c, options));
        // The user's path: the share in the Scores view's box, then "Flag" (before the fit:
        // the threshold follows it).
        auto* percent = w.findChild<QDoubleSpinBox*>(QStringLiteral("contaminationPercent"));
        auto* flag = w.findChild<QCheckBox*>(QStringLiteral("flagOutliers"));
        QVERIFY(percent && flag);
        flag->setChecked(true);
        percent->setValue(100.0 * contamination);
        QCOMPARE(w.controllers().thresholds->contamination(), contamination);
        QSignalSpy ready(w.controllers().thresholds, &ThresholdController::ready);
        QSignalSpy finished(c, &Session::fitFinished);
        w.fits()->fit();
        QVERIFY(finished.wait(60000));
        QVERIFY(w.controllers().thresholds->threshold() || ready.wait(60000));
        QVERIFY(w.controllers().thresholds->threshold());
        QCOMPARE(
            w.controllers().thresholds->threshold()->offset,
            r.summary()[QStringLiteral("outlier_threshold")][QStringLiteral("offset")].toDouble());
        QCOMPARE(w.exporter()->exportScores(appScores), QString());
        QCOMPARE(bytesOf(appScores), bytesOf(cliScores));
        const QString state = w.findChild<QLabel*>(QStringLiteral("outlierState"))->text();
        QVERIFY2(state.contains(QStringLiteral("rows flagged")) &&
                     state.contains(QStringLiteral("did not fit")),
                 qPrintable(state));
        // Off again: no outlier column, no threshold.
        flag->setChecked(false);
        QVERIFY(!w.controllers().thresholds->threshold());
        QCOMPARE(w.exporter()->exportScores(appScores), QString());
        QVERIFY(!bytesOf(appScores).startsWith("row,log_density,anomaly_score,label,outlier"));
        QVERIFY(!readLines(appScores).front().contains(QStringLiteral("outlier")));
    }
};

QTEST_MAIN(TstFitRouteParity)
#include "tst_fit_route_parity.moc"
