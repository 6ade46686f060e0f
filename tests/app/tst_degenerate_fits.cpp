// SPDX-License-Identifier: MIT
// Issue 33: a degenerate fit on the command line. Kept fits warn on stderr and in the summary's
// "warnings", their model file records the warnings and `sosrep score` repeats them each time the
// file is used; refused fits exit with the numerical or usage code naming the option to change.
// The same cases in the app: tst_main_window (the banner); in Python: test_trust.py.
#include "support/cli_run.h"
#include "support/random_arrays.h"
#include "support/temp_files.h"

#include <QJsonArray>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

namespace {

/// n seeded standard-normal rows in d columns c0..c(d-1), as CSV.
QByteArray normalCsv(int n, int d, uint64_t seed)
{
    const sosrep::Matrix x = sosrep::test::normalMatrix(n, d, seed);
    QByteArray csv;
    for (int j = 0; j < d; ++j) {
        csv += (j ? ",c" : "c") + QByteArray::number(j);
    }
    csv += '\n';
    for (int i = 0; i < n; ++i) {
        for (int j = 0; j < d; ++j) {
            csv += (j ? "," : "") + QByteArray::number(x(i, j), 'g', 17);
        }
        csv += '\n';
    }
    return csv;
}

bool anyContains(const QJsonArray& list, const QString& text)
{
    for (const QJsonValue& v : list) {
        if (v.toString().contains(text)) {
            return true;
        }
    }
    return false;
}

} // namespace

class TstDegenerateFits : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_blob;  // 300 rows in 2 columns
    QString m_wide;  // 300 rows in 40 columns: neighbours ~8 apart
    QString m_other; // 200 other rows in the blob's columns (a ratio's q)

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_blob = writeTempFile(m_dir, QStringLiteral("blob.csv"), normalCsv(300, 2, 6));
        m_wide = writeTempFile(m_dir, QStringLiteral("wide.csv"), normalCsv(300, 40, 7));
        m_other = writeTempFile(m_dir, QStringLiteral("other.csv"), normalCsv(200, 2, 8));
    }

    void keptFitsWarnEverywhereAndTheirFilesRepeatIt_data()
    {
        QTest::addColumn<QString>("train");
        QTest::addColumn<QStringList>("options");
        QTest::addColumn<QString>("expected");
        QTest::newRow("l below the nearest-neighbour spacing")
            << "wide" << QStringList{"--estimator", "kde", "--length-scale", "0.5"}
            << "nearest-neighbour spacing";
        QTest::newRow("l beyond the diameter")
            << "blob" << QStringList{"--estimator", "kde", "--length-scale", "1e5"}
            << "times the data's diameter";
        QTest::newRow("kernel SoS not converged")
            << "blob"
            << QStringList{"--estimator", "sos-mmd", "--length-scale", "0.3", "--iterations", "3"}
            << "stopped before converging";
        QTest::newRow("more neighbours than rows (clamped before, without a word)")
            << "blob" << QStringList{"--purpose", "anomaly", "--reach-neighbours", "1000"}
            << "is more than the rows the tuning fits on";
        QTest::newRow("no stable minimum of the curve")
            << "blob" << QStringList{"--grid", "3"} << "no stable local minimum";
    }

    void keptFitsWarnEverywhereAndTheirFilesRepeatIt()
    {
        QFETCH(QString, train);
        QFETCH(QStringList, options);
        QFETCH(QString, expected);
        const QString data = train == QLatin1String("wide") ? m_wide : m_blob;
        const QString model = m_dir.filePath(QStringLiteral("m.json"));
        QFile::remove(model);
        const CliRun fit = runSosrep(
            QStringList{"fit", "--train", data, "--scale", "none", "--model-out", model} + options);
        QVERIFY2(fit.code == 0, qPrintable(fit.err));
        QVERIFY2(fit.err.contains(QStringLiteral("warning: ")) && fit.err.contains(expected),
                 qPrintable(fit.err));
        QVERIFY(anyContains(fit.summary()[QStringLiteral("warnings")].toArray(), expected));
        const QJsonObject file = QJsonDocument::fromJson(bytesOf(model)).object();
        QVERIFY(anyContains(
            file[QStringLiteral("provenance")][QStringLiteral("fit_warnings")].toArray(),
            expected));
        const CliRun score = runSosrep({"score", "--model", model, "--data", data, "--scores-out",
                                        m_dir.filePath(QStringLiteral("s.csv"))});
        QVERIFY2(score.code == 0, qPrintable(score.err));
        QVERIFY2(score.err.contains(QStringLiteral("the model's fit warned: ")) &&
                     score.err.contains(expected),
                 qPrintable(score.err));
        QVERIFY(anyContains(score.summary()[QStringLiteral("warnings")].toArray(), expected));
    }

    void aCleanFitRecordsNoWarnings()
    {
        const QString model = m_dir.filePath(QStringLiteral("clean.json"));
        const CliRun fit =
            runSosrep({"fit", "--train", m_blob, "--estimator", "kde", "--model-out", model});
        QVERIFY2(fit.code == 0 && !fit.err.contains(QStringLiteral("warning")),
                 qPrintable(fit.err));
        const QJsonObject file = QJsonDocument::fromJson(bytesOf(model)).object();
        QVERIFY(!file[QStringLiteral("provenance")].toObject().contains(
            QStringLiteral("fit_warnings")));
    }

    // One training row 1e14 out in c0 makes min-max's unit 1e14: the test rows' c0 values
    // (spread ~6) are then 6e-14 apart once scaled, too close for the model to tell apart
    // beside training rows 1 apart. The fit says so, naming the column (issue 52).
    void testRowsTheScalingCannotResolveAreNamed()
    {
        QByteArray csv = normalCsv(300, 2, 6);
        csv += "1e14,0\n";
        const QString train = writeTempFile(m_dir, QStringLiteral("far.csv"), csv);
        const CliRun fit = runSosrep({"fit", "--train", train, "--test", m_other, "--estimator",
                                      "kde", "--length-scale", "0.1", "--scores-out",
                                      m_dir.filePath(QStringLiteral("far_scores.csv"))});
        QVERIFY2(fit.code == 0, qPrintable(fit.err));
        const QString expected = QStringLiteral("in 1 column ('c0' spans");
        QVERIFY2(fit.err.contains(expected), qPrintable(fit.err));
        QVERIFY(anyContains(fit.summary()[QStringLiteral("warnings")].toArray(), expected));
        const CliRun plain = runSosrep({"fit", "--train", m_blob, "--test", m_other, "--estimator",
                                        "kde", "--length-scale", "0.1", "--scores-out",
                                        m_dir.filePath(QStringLiteral("plain_scores.csv"))});
        QVERIFY2(plain.code == 0 && !plain.err.contains(QStringLiteral("tell them apart")),
                 qPrintable(plain.err));
    }

    // Reliability round 4: l had no upper bound (an SDO model at l = 1e307 gave MMD^2 = nan,
    // exit 0). Now a fit refuses l beyond 1e8 x the data's diameter, and a model file one
    // beyond 1e100, naming the field.
    void aLengthScaleBeyondAnyKernelIsRefused()
    {
        const CliRun fit =
            runSosrep({"fit", "--train", m_blob, "--estimator", "kde", "--length-scale", "1e12"});
        QCOMPARE(fit.code, 2);
        QVERIFY2(fit.err.contains(QStringLiteral("--length-scale")) &&
                     fit.err.contains(QStringLiteral("above 1e8")),
                 qPrintable(fit.err));
        QByteArray model = bytesOf(QStringLiteral(SOSREP_TEST_DATA_DIR "/golden/sosrep_sdo.json"));
        const QRegularExpression l(QStringLiteral("\"length_scale\":[0-9.e+-]+,\"rank\""));
        QString text = QString::fromUtf8(model);
        QVERIFY(text.contains(l));
        text.replace(l, QStringLiteral("\"length_scale\":1e+307,\"rank\""));
        const QString path = writeTempFile(m_dir, QStringLiteral("huge_l.json"), text.toUtf8());
        const CliRun score = runSosrep({"score", "--model", path, "--data",
                                        QStringLiteral(SOSREP_TEST_DATA_DIR "/golden/rows.csv"),
                                        "--scores-out", m_dir.filePath(QStringLiteral("x.csv"))});
        QCOMPARE(score.code, 3);
        QVERIFY2(score.err.contains(QStringLiteral("kernel.length_scale")), qPrintable(score.err));
    }

    void refusedFitsNameTheOptionAndWriteNothing_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("code");
        QTest::addColumn<QString>("option");
        // The regularizer outweighs the data: because the kernel's mass (pi l^2)^(d/2) is
        // tiny at this l (no lambda helps), or because lambda is too large.
        QTest::newRow("kernel SoS ignoring the data at a tiny l")
            << QStringList{"fit", "--estimator", "sos-mmd", "--length-scale", "1e-4"} << 2
            << "--length-scale";
        QTest::newRow("kernel SoS ignoring the data with a huge lambda")
            << QStringList{"fit", "--estimator", "sos-mmd", "--length-scale",
                           "0.3", "--lambda",    "1e12"}
            << 4 << "--lambda";
        QTest::newRow("ratio weights underflow")
            << QStringList{"ratio", "--q", "OTHER", "--estimator", "ulsif", "--t", "1e-10"} << 2
            << "--t";
    }

    void refusedFitsNameTheOptionAndWriteNothing()
    {
        QFETCH(QStringList, args);
        QFETCH(int, code);
        QFETCH(QString, option);
        const QString out = m_dir.filePath(QStringLiteral("refused.json"));
        QStringList full = args;
        full.replaceInStrings(QStringLiteral("OTHER"), m_other);
        const bool fit = args.front() == QLatin1String("fit");
        full << (fit ? "--train" : "--p") << m_blob << (fit ? "--model-out" : "--weights-out")
             << out;
        const CliRun r = runSosrep(full);
        QVERIFY2(r.code == code, qPrintable(QString::number(r.code) + ": " + r.err));
        QVERIFY2(r.err.contains(option), qPrintable(r.err));
        QVERIFY(!QFile::exists(out));
    }
};

QTEST_GUILESS_MAIN(TstDegenerateFits)
#include "tst_degenerate_fits.moc"
