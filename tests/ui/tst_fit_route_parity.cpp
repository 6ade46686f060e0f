// SPDX-License-Identifier: MIT
// Issue 8: the app fits through the same core route as the command line. The same data and
// settings through the app's controller and through `sosrep fit` give byte-identical scores.
#include "support/cli_run.h"
#include "ui/controller/estimation_controller.h"
#include "ui/main_window.h"

#include <QtTest>

using namespace sosrep::ui;

class TstFitRouteParity : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString m_data;

private slots:
    void initTestCase()
    {
        QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope,
                           m_dir.filePath(QStringLiteral("settings")));
        m_data = m_dir.filePath(QStringLiteral("moons.csv"));
        const CliRun g = runSosrep({"generate", "--kind", "moons", "--n", "400", "--seed", "3",
                                    "--anomalies", "0.05", "--out", m_data});
        QVERIFY2(g.code == 0, qPrintable(g.err));
    }

    void sameSettingsSameScores_data()
    {
        // Options as the command line spells them; the app sets the same options by name.
        QTest::addColumn<QStringList>("flags");
        QTest::addColumn<QStringList>("options"); // name=value pairs for the controller
        QTest::newRow("defaults (sosrep, newton, automatic l)") << QStringList{} << QStringList{};
        QTest::newRow("kde, automatic l")
            << QStringList{"--estimator", "kde"} << QStringList{"estimator=kde"};
        QTest::newRow("laplace, fixed l")
            << QStringList{"--kernel", "laplace", "--length-scale", "0.07"}
            << QStringList{"kernel=laplace", "length_scale=0.07"};
        QTest::newRow("sdo by random features, natural gradient")
            << QStringList{"--kernel", "sdo",  "--features", "300",    "--solver",
                           "natural",  "--lr", "0.2",        "--seed", "11"}
            << QStringList{"kernel=sdo", "features=300", "solver=natural", "learning_rate=0.2",
                           "seed=11"};
        QTest::newRow("z-score, silverman rule of thumb")
            << QStringList{"--scale", "zscore", "--length-scale", "silverman"}
            << QStringList{"scale=zscore", "length_scale=silverman"};
    }

    void sameSettingsSameScores()
    {
        QFETCH(QStringList, flags);
        QFETCH(QStringList, options);
        const QString cliScores = m_dir.filePath(QStringLiteral("cli.csv"));
        const QString appScores = m_dir.filePath(QStringLiteral("app.csv"));
        const CliRun r = runSosrep(QStringList{"fit", "--train", m_data, "--label-column", "label",
                                               "--scores-out", cliScores} +
                                   flags);
        QVERIFY2(r.code == 0, qPrintable(r.err));

        MainWindow w;
        EstimationController* c = w.controller();
        w.openFile(m_data); // the 0/1 column named label gets the label role
        QVERIFY(c->labels().has_value());
        for (const QString& o : options) {
            const QString name = o.section(QLatin1Char('='), 0, 0);
            const QString value = o.section(QLatin1Char('='), 1);
            if (name == QLatin1String("estimator")) {
                c->setEstimator(value.toStdString());
            } else {
                QVERIFY(c->setOption(name.toStdString(), value.toStdString()));
            }
        }
        QSignalSpy finished(c, &EstimationController::fitFinished);
        c->fit();
        QVERIFY(finished.wait(60000));
        QCOMPARE(w.exportScores(appScores), QString());
        const QByteArray app = bytesOf(appScores);
        QVERIFY(app.size() > 1000);
        QCOMPARE(app, bytesOf(cliScores));
        // The summary and the app agree on the length scale, too.
        QCOMPARE(c->result()->lengthScale(),
                 r.summary()[QStringLiteral("length_scale")].toDouble());
    }
};

QTEST_MAIN(TstFitRouteParity)
#include "tst_fit_route_parity.moc"
