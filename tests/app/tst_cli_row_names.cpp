// SPDX-License-Identifier: MIT
// What `sosrep`'s outputs name: the rows (`fit/score --id-column`: a column naming the rows,
// text allowed, written after `row` in the scores, quoted where it must be, not a feature) and
// the scaling fitted (the summary's `scaling`: what scale=auto resolved to).
#include "app/cli/cli_runner.h"
#include "support/cli_run.h"

#include <QFile>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

using Run = CliRun;

class TstCliRowNames : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString path(const char* name) const { return m_dir.filePath(QString::fromLatin1(name)); }

private slots:
    // Issue 38: --id-column names the rows of the scores (text, quoted where it must be),
    // in fit (of the test rows) and in score; the scores themselves do not move.
    void idColumn_namesTheScoredRows()
    {
        auto write = [&](const char* name, const char* text) {
            QFile f(path(name));
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(text);
        };
        write("id_train.csv", "who,a,b\nu1,0,0\nu2,0.2,0.7\nu3,0.5,0.5\nu4,0.9,0.1\nu5,1,1\n");
        write("id_test.csv", "a,who,b\n0.1,\"Smith, J\",0.9\n0.4,,0.2\n");
        write("plain_test.csv", "a,b\n0.1,0.9\n0.4,0.2\n");
        const Run named =
            runSosrep({"fit", "--train", path("id_train.csv"), "--id-column", "who", "--test",
                       path("id_test.csv"), "--length-scale", "0.3", "--scores-out",
                       path("id_s.csv"), "--model-out", path("id_m.json")});
        QVERIFY2(named.code == 0, qPrintable(named.err));
        const QStringList lines = readLines(path("id_s.csv"));
        QCOMPARE(lines.size(), 3);
        QCOMPARE(lines[0], QStringLiteral("row,who,log_density,anomaly_score"));
        QVERIFY2(lines[1].startsWith(QStringLiteral("0,\"Smith, J\",")), qPrintable(lines[1]));
        QVERIFY2(lines[2].startsWith(QStringLiteral("1,,")), qPrintable(lines[2]));
        const Run score =
            runSosrep({"score", "--model", path("id_m.json"), "--data", path("id_test.csv"),
                       "--id-column", "who", "--scores-out", path("id_s2.csv")});
        QVERIFY2(score.code == 0, qPrintable(score.err));
        QCOMPARE(readLines(path("id_s2.csv")), lines);
        const Run plain = runSosrep({"score", "--model", path("id_m.json"), "--data",
                                     path("plain_test.csv"), "--scores-out", path("id_s3.csv")});
        QVERIFY2(plain.code == 0, qPrintable(plain.err));
        const QStringList values = readLines(path("id_s3.csv"));
        for (int i = 1; i < 3; ++i) { // the same log values without the name column
            QCOMPARE(values[i].section(QLatin1Char(','), 1),
                     lines[i].section(QLatin1Char(','), -2));
        }
        const Run missing =
            runSosrep({"score", "--model", path("id_m.json"), "--data", path("plain_test.csv"),
                       "--id-column", "who", "--scores-out", path("id_s4.csv")});
        QCOMPARE(missing.code, 3);
        QVERIFY2(missing.err.contains(QStringLiteral("no id column named 'who'")),
                 qPrintable(missing.err));
        QVERIFY(!QFile::exists(path("id_s4.csv")));
    }

    void summaryNamesTheScalingAutoResolvedTo()
    {
        auto write = [&](const char* name, const QByteArray& text) {
            QFile f(path(name));
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(text);
        };
        QByteArray spikes = "a,b\n";
        QByteArray smooth = "a,b\n";
        for (int i = 0; i < 60; ++i) {
            spikes += QByteArray::number(i % 3 == 0 ? i * 0.1 : 0.0) + ',' +
                      QByteArray::number(i % 4 == 0 ? i * 0.2 : 0.0) + '\n';
            smooth += QByteArray::number(std::sin(i * 0.7)) + ',' +
                      QByteArray::number(std::cos(i * 1.3)) + '\n';
        }
        write("spikes.csv", spikes);
        write("smooth.csv", smooth);
        // scale=auto is the purpose's: for anomaly ranking rank on spike-and-tail columns,
        // min-max otherwise; for the density (fit's own purpose) min-max on both.
        const struct
        {
            const char* file;
            const char* purpose;
            const char* want;
        } cases[] = {{"spikes.csv", "anomaly", "rank"},
                     {"smooth.csv", "anomaly", "minmax"},
                     {"spikes.csv", "density", "minmax"},
                     {"spikes.csv", nullptr, "minmax"}};
        for (const auto& c : cases) {
            QStringList args{"fit",
                             "--train",
                             path(c.file),
                             "--estimator",
                             "kde",
                             "--scale",
                             "auto",
                             "--length-scale",
                             "0.2",
                             "--model-out",
                             path("auto_m.json")};
            if (c.purpose) {
                args << "--purpose" << c.purpose;
            }
            const Run fit = runSosrep(args);
            QVERIFY2(fit.code == 0, qPrintable(fit.err));
            // The length scale is a number, but the purpose still chooses the scaling.
            QVERIFY2(!fit.err.contains(QStringLiteral("--purpose is ignored")),
                     qPrintable(fit.err));
            QCOMPARE(fit.summary()[QStringLiteral("scaling")].toString(),
                     QString::fromLatin1(c.want));
            const Run score = runSosrep({"score", "--model", path("auto_m.json"), "--data",
                                         path(c.file), "--scores-out", path("auto_s.csv")});
            QVERIFY2(score.code == 0, qPrintable(score.err));
            QCOMPARE(score.summary()[QStringLiteral("scaling")].toString(),
                     QString::fromLatin1(c.want));
        }
    }
};

QTEST_GUILESS_MAIN(TstCliRowNames)
#include "tst_cli_row_names.moc"
