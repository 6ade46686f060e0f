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
        // A usage error, as a missing --label-column is (it was exit 3).
        QCOMPARE(missing.code, 2);
        QVERIFY2(missing.err.contains(QStringLiteral("--id-column: no column named 'who' in ") +
                                      path("plain_test.csv")),
                 qPrintable(missing.err));
        QVERIFY(!QFile::exists(path("id_s4.csv")));
    }

    // Issue 52: --id-column was required in the training file when only --test rows are
    // written, took the label's column silently, and '' was ignored.
    void idColumn_onlyWhereItsRowsAreWrittenAndNeverTheLabel()
    {
        auto write = [&](const char* name, const char* text) {
            QFile f(path(name));
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(text);
        };
        write("plain_train.csv", "a,b\n0,0\n0.2,0.7\n0.5,0.5\n0.9,0.1\n1,1\n0.3,0.6\n");
        write("named_test.csv", "who,a,b,y\nann,0.1,0.9,0\nbob,0.4,0.2,1\ncy,5,5,1\n");
        const QStringList fit{"fit", "--length-scale", "0.3", "--scores-out", path("o_s.csv")};
        // Names and labels only in the test file, whose rows are the ones written.
        const Run testOnly = runSosrep(
            fit + QStringList{"--train", path("plain_train.csv"), "--test", path("named_test.csv"),
                              "--id-column", "who", "--label-column", "y"});
        QVERIFY2(testOnly.code == 0, qPrintable(testOnly.err));
        const QStringList lines = readLines(path("o_s.csv"));
        QCOMPARE(lines.size(), 4);
        QCOMPARE(lines[0], QStringLiteral("row,who,log_density,anomaly_score,label"));
        QVERIFY(lines[2].startsWith(QStringLiteral("1,bob,")));
        QCOMPARE(testOnly.summary()[QStringLiteral("dim")].toInt(), 2);
        // The training file's own rows are the ones written: there the column must be.
        const Run trainOnly =
            runSosrep(fit + QStringList{"--train", path("plain_train.csv"), "--id-column", "who"});
        QCOMPARE(trainOnly.code, 2);
        QVERIFY2(trainOnly.err.contains(QStringLiteral("--id-column: no column named 'who'")),
                 qPrintable(trainOnly.err));
        const struct
        {
            QStringList args;
            const char* words;
        } refused[] = {
            {{"--train", path("named_test.csv"), "--columns", "a,b", "--label-column", "y",
              "--id-column", "y"},
             "--id-column: 'y' is the --label-column too"},
            {{"--train", path("named_test.csv"), "--columns", "a,who", "--id-column", "who"},
             "--id-column: 'who' is in --columns too"},
            {{"--train", path("plain_train.csv"), "--id-column", ""}, "--id-column: is empty"},
            {{"--train", path("plain_train.csv"), "--label-column", ""},
             "--label-column: is empty"},
            {{"--train", path("plain_train.csv"), "--columns", ""}, "--columns: is empty"},
        };
        for (const auto& r : refused) {
            QFile::remove(path("o_s.csv"));
            const Run run = runSosrep(fit + r.args);
            QVERIFY2(run.code == 2 && run.err.contains(QLatin1String(r.words)),
                     qPrintable(r.args.join(' ') + ": " + run.err));
            QVERIFY(!QFile::exists(path("o_s.csv")));
        }
        const Run scoreBoth =
            runSosrep({"score", "--model", path("id_m.json"), "--data", path("named_test.csv"),
                       "--label-column", "y", "--id-column", "y", "--scores-out", path("o_s.csv")});
        QVERIFY2(scoreBoth.code == 2 &&
                     scoreBoth.err.contains(QStringLiteral("--label-column too")),
                 qPrintable(scoreBoth.err));
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
