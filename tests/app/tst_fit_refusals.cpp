// SPDX-License-Identifier: MIT
// Fits the command line refuses instead of keeping a result that is not one (issue 52): a
// kernel SoS fit that stalled far from a fixed point, and a row that robust scaling puts out of
// double precision's reach.
#include "support/cli_run.h"

#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

class TestFitRefusals : public QObject
{
    Q_OBJECT

private slots:
    void anExtremeValueUnderRobustScalingNamesItsRow()
    {
        // Issue 52: one value of 1.8e308 (here 1.7e308, the largest the reader takes is 1.797e308)
        // under --scale robust (median and IQR: nothing bounds it) failed in the length scale's
        // rule, naming --length-scale.
        QTemporaryDir out;
        const QString data = out.filePath(QStringLiteral("x.csv"));
        QString text = QStringLiteral("a,b\n");
        for (int i = 0; i < 40; ++i) {
            text += QStringLiteral("%1,%2\n").arg(i % 7).arg(i == 17 ? QStringLiteral("1.7e308")
                                                                     : QString::number(i % 5));
        }
        QVERIFY(writeText(data, text));
        const CliRun r = runSosrep({"fit", "--train", data, "--scale", "robust"});
        QCOMPARE(r.code, 3);
        QVERIFY2(r.err.contains(QStringLiteral("row 18")) &&
                     r.err.contains(QStringLiteral("1.7e+308")) &&
                     r.err.contains(QStringLiteral("column 'b'")) &&
                     !r.err.contains(QStringLiteral("length-scale")),
                 qPrintable(r.err));
    }

    void aKernelSosFitThatStallsIsRefused()
    {
#ifdef SOSREP_SANITIZED
        // Four 5000-iteration kernel SoS runs take over 5 min instrumented: numerics that the
        // release suite checks, through code the sanitizer job's tst_sos_mmd runs.
        QSKIP("the release suite runs the large-lambda fits; the sanitizer job skips their size");
#endif
        // Issue 52, item 11: at lambda >= 0.1 FISTA's objective kept changing by 10-20 % a step
        // until the stall test stopped it; the fit was kept (AUC-ROC 0.13, Tr(BW) 1.0005) with
        // "give more --iterations", which changes nothing. Now the best iterate is the fit, and
        // a B whose mass is not 1 once normalized is refused: exit 4, naming --lambda.
        QTemporaryDir out;
        const QString data = out.filePath(QStringLiteral("g.csv"));
        QCOMPARE(runSosrep({"generate", "--kind", "gmm", "-n", "300", "--seed", "1", "--anomalies",
                            "0.05", "--out", data})
                     .code,
                 0);
        const QStringList fit{"fit",   "--train",     data,      "--label-column",
                              "label", "--estimator", "sos-mmd", "--iterations",
                              "5000"};
        // Where FISTA settles at a large lambda depends on rounding (GCC's build oscillates at
        // 0.1, clang's converges there): each run must be a fit of mass 1 that does not ask
        // for more iterations, or a refusal naming --lambda; and some must be refused.
        int refused = 0;
        for (const char* lambda : {"0.1", "1", "10"}) {
            const CliRun r = runSosrep(fit + QStringList{"--lambda", QLatin1String(lambda)});
            QVERIFY2(!r.err.contains(QStringLiteral("give more --iterations")), qPrintable(r.err));
            if (r.code == 0) {
                QVERIFY2(std::abs(r.summary()[QStringLiteral("trace_bw")].toDouble() - 1.0) < 1e-6,
                         qPrintable(r.out));
                continue;
            }
            QCOMPARE(r.code, 4);
            QVERIFY2(r.err.contains(QStringLiteral("mass Tr(BW) is")) &&
                         r.err.contains(QStringLiteral("smaller --lambda")),
                     qPrintable(r.err));
            ++refused;
        }
        QVERIFY(refused > 0);
        // The default lambda converges, and its B has mass 1.
        const CliRun fine = runSosrep(fit);
        QVERIFY2(fine.code == 0, qPrintable(fine.err));
        QCOMPARE(fine.summary()[QStringLiteral("status")].toString(), QStringLiteral("converged"));
        QVERIFY(std::abs(fine.summary()[QStringLiteral("trace_bw")].toDouble() - 1.0) < 1e-6);
        QVERIFY(fine.summary()[QStringLiteral("auc_roc")].toDouble() > 0.8);
    }
};

QTEST_GUILESS_MAIN(TestFitRefusals)
#include "tst_fit_refusals.moc"
