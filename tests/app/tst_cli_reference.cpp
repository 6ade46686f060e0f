// SPDX-License-Identifier: MIT
// docs/cli-reference.md is generated from the option tables (`sosrep reference`): this test
// fails when an option, a default or a help text changed without regenerating the page.
#include "support/cli_run.h"

#include <QtTest>

class TstCliReference : public QObject
{
    Q_OBJECT

private slots:
    void theCommittedReferenceIsCurrent()
    {
        const CliRun r = runSosrep({"reference"});
        QCOMPARE(r.code, 0);
        const QString page = QStringLiteral(SOSREP_SOURCE_DIR "/docs/cli-reference.md");
        const QString committed = QString::fromUtf8(bytesOf(page));
        QVERIFY2(!committed.isEmpty(), qPrintable(page + QStringLiteral(" is missing")));
        QVERIFY2(committed == r.out,
                 qPrintable(page + QStringLiteral(" is stale: regenerate it with "
                                                  "'build/app/sosrep reference > "
                                                  "docs/cli-reference.md'")));
    }

    void everyCommandAndEstimatorOptionIsInIt()
    {
        const QString out = runSosrep({"reference"}).out;
        for (const char* heading : {"## sosrep fit", "## sosrep score", "## sosrep ratio",
                                    "## sosrep adbench", "## sosrep experiment negativity"}) {
            QVERIFY2(out.contains(QLatin1String(heading)), heading);
        }
        // Estimator options come from the registry's tables.
        for (const char* flag : {"--lambda", "--trees", "--length-scale", "--contamination"}) {
            QVERIFY2(out.contains(QLatin1String(flag)), flag);
        }
    }
};

QTEST_GUILESS_MAIN(TstCliReference)
#include "tst_cli_reference.moc"
