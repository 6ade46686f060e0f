// SPDX-License-Identifier: MIT
#include "app/cli/cli_runner.h"
#include "core/data/csv_reader.h"
#include "core/data/scaler.h"
#include "core/estimators/kde.h"
#include "support/shared_data.h"

#include <QtTest>

using namespace sosrep::cli;

namespace {

struct Run
{
    int code = 0;
    QString out;
    QString err;
    QJsonObject summary() const
    {
        const QStringList lines = out.trimmed().split(QLatin1Char('\n'));
        return QJsonDocument::fromJson(lines.last().toUtf8()).object();
    }
};

Run runSosrep(const QStringList& args)
{
    Run r;
    QTextStream out(&r.out);
    QTextStream err(&r.err);
    r.code = runCli(args, out, err);
    out.flush();
    err.flush();
    return r;
}

QStringList readLines(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        return {};
    }
    return QString::fromUtf8(f.readAll()).trimmed().split(QLatin1Char('\n'));
}

} // namespace

class TstCliRunner : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString path(const char* name) const { return m_dir.filePath(QString::fromLatin1(name)); }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        QCOMPARE(runSosrep({"generate", "--kind", "gmm", "--n", "300", "--seed", "1", "--out",
                            path("train.csv")})
                     .code,
                 0);
        QCOMPARE(runSosrep({"generate", "--kind", "gmm", "--n", "200", "--seed", "2", "--anomalies",
                            "0.1", "--out", path("test.csv")})
                     .code,
                 0);
    }

    void generate_writesHeaderAndRows()
    {
        const QStringList lines = readLines(path("test.csv"));
        QCOMPARE(lines.first(), QStringLiteral("x,y,label"));
        QCOMPARE(lines.size(), 201);
    }

    void fit_endToEndWithAllOutputs()
    {
        const Run r = runSosrep({"fit", "--train", path("train.csv"), "--test", path("test.csv"),
                                 "--label-column", "label", "--solver", "both", "--scores-out",
                                 path("scores.csv"), "--trace-out", path("trace.csv"), "--fd-out",
                                 path("fd.csv"), "--model-out", path("model.json")});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const QJsonObject s = r.summary();
        for (const char* key :
             {"estimator", "kernel", "length_scale", "n_train", "dim", "iterations", "loss",
              "sq_norm", "negative_fraction", "residual", "seconds", "auc_roc", "auc_pr"}) {
            QVERIFY2(s.contains(QLatin1String(key)), key);
        }
        QCOMPARE(s[QStringLiteral("n_train")].toInt(), 300);
        QVERIFY(s[QStringLiteral("auc_roc")].toDouble() > 0.9); // uniform anomalies around a GMM
        QVERIFY(std::abs(s[QStringLiteral("sq_norm")].toDouble() - 1.0) < 1e-4);
        QCOMPARE(readLines(path("scores.csv")).first(),
                 QStringLiteral("row,log_density,anomaly_score,label"));
        QCOMPARE(readLines(path("scores.csv")).size(), 201);
        const QStringList trace = readLines(path("trace.csv"));
        QCOMPARE(trace.first(),
                 QStringLiteral("solver,iteration,loss,sq_norm,negative_fraction,residual"));
        QVERIFY(trace.filter(QStringLiteral("standard,")).size() > 0);
        QVERIFY(trace.filter(QStringLiteral("natural,")).size() > 0);
        const QStringList fd = readLines(path("fd.csv"));
        QCOMPARE(fd.first(), QStringLiteral("length_scale,fisher_divergence,selected"));
        QCOMPARE(fd.size(), 16);
        QCOMPARE(fd.filter(QRegularExpression(QStringLiteral(",1$"))).size(), 1);

        // The saved model scores the same rows to the same values.
        const Run sc =
            runSosrep({"score", "--model", path("model.json"), "--data", path("test.csv"),
                       "--label-column", "label", "--scores-out", path("scores2.csv")});
        QVERIFY2(sc.code == 0, qPrintable(sc.err));
        QCOMPARE(readLines(path("scores2.csv")), readLines(path("scores.csv")));
        QCOMPARE(sc.summary()[QStringLiteral("auc_roc")].toDouble(),
                 s[QStringLiteral("auc_roc")].toDouble());
    }

    void fit_kdeAndSdoWithFixedLengthScale()
    {
        const Run kde = runSosrep({"fit", "--train", path("train.csv"), "--label-column", "label",
                                   "--estimator", "kde", "--length-scale", "0.1"});
        QVERIFY2(kde.code == 0, qPrintable(kde.err));
        QCOMPARE(kde.summary()[QStringLiteral("length_scale")].toDouble(), 0.1);
        const Run sdo =
            runSosrep({"fit", "--train", path("train.csv"), "--label-column", "label", "--kernel",
                       "sdo", "--features", "200", "--length-scale", "0.1"});
        QVERIFY2(sdo.code == 0, qPrintable(sdo.err));
        QCOMPARE(sdo.summary()[QStringLiteral("backend")].toString(),
                 QStringLiteral("rff-lowrank"));

        // The exact SDO kernel, with automatic l; its model file scores to the same values.
        const Run exact = runSosrep({"fit", "--train", path("train.csv"), "--test",
                                     path("test.csv"), "--label-column", "label", "--kernel", "sdo",
                                     "--sdo-method", "exact", "--model-out", path("exact.json"),
                                     "--scores-out", path("exact_scores.csv")});
        QVERIFY2(exact.code == 0, qPrintable(exact.err));
        QCOMPARE(exact.summary()[QStringLiteral("backend")].toString(),
                 QStringLiteral("exact-dense"));
        QVERIFY(exact.summary()[QStringLiteral("auc_roc")].toDouble() > 0.8);
        // The default solver is the safeguarded Newton solver, and it says what it did.
        QCOMPARE(exact.summary()[QStringLiteral("solver")].toString(), QStringLiteral("newton"));
        QVERIFY(exact.summary()[QStringLiteral("solver_path")].toString().startsWith(
            QStringLiteral("newton: ")));
        QVERIFY(exact.summary()[QStringLiteral("residual")].toDouble() <= 1e-8);
        const Run rescore =
            runSosrep({"score", "--model", path("exact.json"), "--data", path("test.csv"),
                       "--label-column", "label", "--scores-out", path("exact_scores2.csv")});
        QVERIFY2(rescore.code == 0, qPrintable(rescore.err));
        QCOMPARE(readLines(path("exact_scores2.csv")), readLines(path("exact_scores.csv")));
    }

    void fit_lowRankModelScoresTheSameAfterReload()
    {
        // Nystroem landmarks are drawn from the recorded seed: the saved model rebuilds the same
        // low-rank kernel and scores the test rows to the same values.
        const Run fit =
            runSosrep({"fit", "--train", path("train.csv"), "--test", path("test.csv"),
                       "--label-column", "label", "--backend", "lowrank", "--rank", "80",
                       "--model-out", path("ny.json"), "--scores-out", path("ny1.csv")});
        QVERIFY2(fit.code == 0, qPrintable(fit.err));
        QCOMPARE(fit.summary()[QStringLiteral("backend")].toString(), QStringLiteral("nystrom"));
        QCOMPARE(fit.summary()[QStringLiteral("rank")].toInt(), 80);
        QVERIFY(fit.summary()[QStringLiteral("residual")].toDouble() <= 1e-8);
        const Run sc = runSosrep({"score", "--model", path("ny.json"), "--data", path("test.csv"),
                                  "--label-column", "label", "--scores-out", path("ny2.csv")});
        QVERIFY2(sc.code == 0, qPrintable(sc.err));
        QCOMPARE(readLines(path("ny2.csv")), readLines(path("ny1.csv")));
    }

    void fit_ruleOfThumbBandwidthsAreTheStatedFormulas()
    {
        const sosrep::Dataset raw =
            sosrep::readCsvFile(path("train.csv").toStdString()).withLabelColumn("label");
        const sosrep::Matrix scaled =
            sosrep::Scaler::fit(sosrep::ScalingKind::MinMax, raw.x).apply(raw.x);
        const Run scott = runSosrep({"fit", "--train", path("train.csv"), "--label-column", "label",
                                     "--estimator", "kde", "--length-scale", "scott"});
        QVERIFY2(scott.code == 0, qPrintable(scott.err));
        QCOMPARE(scott.summary()[QStringLiteral("length_scale")].toDouble(),
                 sosrep::scottBandwidth(scaled));
        QCOMPARE(scott.summary()[QStringLiteral("length_scale_rule")].toString(),
                 QStringLiteral("scott"));
        const Run silverman = runSosrep({"fit", "--train", path("train.csv"), "--label-column",
                                         "label", "--length-scale", "silverman"});
        QCOMPARE(silverman.summary()[QStringLiteral("length_scale")].toDouble(),
                 sosrep::silvermanBandwidth(scaled));
        const Run refused = runSosrep({"fit", "--train", path("train.csv"), "--label-column",
                                       "label", "--selection", "likelihood"});
        QCOMPARE(refused.code, 2);
        QVERIFY(refused.err.contains(
            QStringLiteral("--selection: likelihood needs a normalized density")));
    }

    void fit_onSharedNpzWithDefaults()
    {
        const QString npz = QString::fromStdString(adbenchPath("45_wine.npz"));
        QVERIFY2(runSosrep({"split", "--data", npz, "--stratify", "--seed", "42", "--train-out",
                            path("wine_train.csv"), "--test-out", path("wine_test.csv")})
                         .code == 0,
                 "split");
        QCOMPARE(readLines(path("wine_test.csv")).size(),
                 1 + 39); // round(0.3 * 119) + round(0.3 * 10)
        const Run r = runSosrep({"fit", "--train", npz, "--test", npz});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QCOMPARE(r.summary()[QStringLiteral("dim")].toInt(), 13);
        QVERIFY(r.summary().contains(QStringLiteral("auc_roc")));
    }

    void exitCodes_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("code");
        QTest::addColumn<QString>("message"); // a fragment of the one-line message
        QTest::newRow("no command") << QStringList{} << 2 << "usage: sosrep";
        QTest::newRow("unknown command") << QStringList{"fitt"} << 2 << "unknown command 'fitt'";
        QTest::newRow("unknown option")
            << QStringList{"fit", "--bogus"} << 2 << "Unknown option 'bogus'";
        QTest::newRow("missing train") << QStringList{"fit"} << 2 << "--train: is required";
        QTest::newRow("bad kernel") << QStringList{"generate", "--kind", "spiral", "--out", "x.csv"}
                                    << 2 << "--kind: unknown toy data kind 'spiral'";
        QTest::newRow("missing file") << QStringList{"fit", "--train", "/nonexistent/a.csv"} << 3
                                      << "/nonexistent/a.csv: cannot open file for reading";
        QTest::newRow("sdo order")
            << QStringList{"fit", "--train",     "TRAIN", "--label-column", "label", "--kernel",
                           "sdo", "--sdo-order", "1"}
            << 2 << "--sdo-order: SDO order m = 1";
        QTest::newRow("sdo method")
            << QStringList{"fit",      "--train", "TRAIN",        "--label-column", "label",
                           "--kernel", "sdo",     "--sdo-method", "bessel"}
            << 2 << "--sdo-method: unknown SDO method 'bessel'";
        QTest::newRow("finer than the landmarks")
            << QStringList{"fit",     "--train", "TRAIN", "--label-column", "label", "--backend",
                           "lowrank", "--rank",  "20",    "--length-scale", "0.001"}
            << 2 << "--length-scale: not fitted: ";
        QTest::newRow("bad backend")
            << QStringList{"fit", "--train", "TRAIN", "--label-column", "label", "--backend", "gpu"}
            << 2 << "--backend: unknown backend 'gpu'";
        QTest::newRow("bad lr") << QStringList{"fit",   "--train", "TRAIN", "--label-column",
                                               "label", "--lr",    "fast"}
                                << 2 << "--lr: expected a number, got 'fast'";
        QTest::newRow("missing value")
            << QStringList{"fit", "--train", "BAD"} << 3 << "bad.csv:3:2: missing value 'NA'";
        QTest::newRow("unknown column")
            << QStringList{"fit", "--train", "TRAIN", "--label-column", "nope"} << 2
            << "no column named 'nope'";
        QTest::newRow("bad model")
            << QStringList{"score", "--model", "BAD", "--data", "TRAIN", "--scores-out", "OUT"} << 3
            << "invalid JSON";
        QTest::newRow("diverged") << QStringList{"fit",      "--train",
                                                 "TRAIN",    "--label-column",
                                                 "label",    "--solver",
                                                 "standard", "--lr",
                                                 "1e6",      "--length-scale",
                                                 "0.5",      "--scores-out",
                                                 "OUT"}
                                  << 4 << "diverged at iteration";
    }

    void exitCodes()
    {
        QFETCH(QStringList, args);
        QFETCH(int, code);
        QFETCH(QString, message);
        {
            QFile bad(path("bad.csv"));
            QVERIFY(bad.open(QIODevice::WriteOnly));
            bad.write("x,y\n1,2\n3,NA\n");
        }
        for (QString& a : args) {
            a.replace(QStringLiteral("TRAIN"), path("train.csv"))
                .replace(QStringLiteral("BAD"), path("bad.csv"))
                .replace(QStringLiteral("OUT"), path("never_written.csv"));
        }
        const Run r = runSosrep(args);
        QCOMPARE(r.code, code);
        QVERIFY2(r.err.contains(message), qPrintable(r.err));
        if (!args.isEmpty()) {
            QCOMPARE(r.err.trimmed().count(QLatin1Char('\n')), 0); // one line
        }
        QVERIFY(!QFile::exists(path("never_written.csv"))); // nothing half-written
    }
};

QTEST_GUILESS_MAIN(TstCliRunner)
#include "tst_cli_runner.moc"
