// SPDX-License-Identifier: MIT
// Tests of `sosrep adbench` as a user runs it: options beside --estimators, a method's own
// purpose, splits without an AUC, methods that cannot be fitted, and --resume's checks.
#include "app/cli/adbench_kinds.h"
#include "app/cli/adbench_stats.h"
#include "support/adbench_record.h"
#include "support/bad_input_args.h"
#include "support/cli_run.h"
#include "support/shared_data.h"

#include <QtTest>

#include <cmath>
#include <random>

using bad_inputs::expand;

namespace {

/// The folder of the shared classical sets.
QString adbenchDir()
{
    return QFileInfo(QString::fromStdString(adbenchPath("45_wine.npz"))).path();
}

/// The AUC-ROC column of the rows of `method` in a run's stdout table, in row order.
QStringList aucsOf(const QString& out, const QString& method)
{
    QStringList aucs;
    for (const QString& line : out.split(QLatin1Char('\n'))) {
        const QStringList cells = line.split(QLatin1Char('\t'));
        if (cells.size() > 8 && cells[2] == method) {
            aucs << cells[7];
        }
    }
    return aucs;
}

/// The length scale and selection columns of the rows of `method` (the selection names the
/// purpose's rule), in row order.
QStringList selectionsOf(const QString& out, const QString& method)
{
    QStringList scales;
    for (const QString& line : out.split(QLatin1Char('\n'))) {
        const QStringList cells = line.split(QLatin1Char('\t'));
        if (cells.size() > 8 && cells[2] == method) {
            scales << cells[5] + QLatin1Char(' ') + cells[6];
        }
    }
    return scales;
}

} // namespace

class TstAdbench : public QObject
{
    Q_OBJECT

private slots:
    // The fit options given beside --estimators were ignored (byte-identical tables with and
    // without --trees 10). Each method takes those it has; its own NAME=VALUE wins.
    void optionsBesideEstimatorsReachTheMethods()
    {
        const QStringList base{"adbench", "--data-dir", adbenchDir(), "--only",
                               "wine",    "--seeds",    "42"};
        const CliRun given = runSosrep(
            base + QStringList{"--estimators", "iforest,knn,knn:k=3", "--trees", "10", "--k", "9"});
        QVERIFY2(given.code == 0, qPrintable(given.err));
        const CliRun own =
            runSosrep(base + QStringList{"--estimators", "iforest:trees=10,knn:k=9,knn:k=3"});
        QVERIFY2(own.code == 0, qPrintable(own.err));
        const CliRun defaults = runSosrep(base + QStringList{"--estimators", "iforest,knn"});
        QVERIFY2(defaults.code == 0, qPrintable(defaults.err));
        QCOMPARE(aucsOf(given.out, "iforest"), aucsOf(own.out, "iforest:trees=10"));
        QCOMPARE(aucsOf(given.out, "knn"), aucsOf(own.out, "knn:k=9"));
        QCOMPARE(aucsOf(given.out, "knn:k=3"), aucsOf(own.out, "knn:k=3"));
        QVERIFY(aucsOf(given.out, "iforest") != aucsOf(defaults.out, "iforest"));
        QVERIFY(aucsOf(given.out, "knn") != aucsOf(defaults.out, "knn"));
    }

    // adbench scaled every method min-max (the protocol's), whatever its scale= said: a method's
    // own scaling is fitted on the training part and applied to the test part.
    void aMethodsOwnScalingIsUsed()
    {
        const QStringList base{"adbench", "--data-dir", adbenchDir(), "--only",
                               "wine",    "--seeds",    "42"};
        const CliRun r =
            runSosrep(base + QStringList{"--estimators", "knn,knn:scale=zscore,knn:scale=robust"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const CliRun given =
            runSosrep(base + QStringList{"--estimators", "knn", "--scale", "zscore"});
        QVERIFY2(given.code == 0, qPrintable(given.err));
        QCOMPARE(aucsOf(given.out, "knn"), aucsOf(r.out, "knn:scale=zscore"));
        QVERIFY(aucsOf(r.out, "knn") != aucsOf(r.out, "knn:scale=zscore"));
        QVERIFY(aucsOf(r.out, "knn") != aucsOf(r.out, "knn:scale=robust"));
        QVERIFY(aucsOf(r.out, "knn:scale=zscore") != aucsOf(r.out, "knn:scale=robust"));
    }

    // scale=auto is the method's purpose's: on Lymphography (one-hot columns) the anomaly
    // purpose's is rank and the density's min-max, so the two do not share a sweep (the key
    // holds what the scaling came to), and each equals its scaling named outright.
    void autoScalingFollowsTheMethodsPurpose()
    {
        const QStringList base{"adbench",      "--data-dir", adbenchDir(), "--only",
                               "Lymphography", "--seeds",    "42,43"};
        const CliRun both =
            runSosrep(base + QStringList{"--estimators", "sosrep,sosrep:purpose=density,knn"});
        QVERIFY2(both.code == 0, qPrintable(both.err));
        const CliRun named = runSosrep(
            base + QStringList{"--estimators",
                               "sosrep:scale=rank,sosrep:purpose=density:scale=minmax,knn:scale="
                               "minmax"});
        QVERIFY2(named.code == 0, qPrintable(named.err));
        const CliRun alone =
            runSosrep(base + QStringList{"--estimators", "sosrep:purpose=density"});
        QVERIFY2(alone.code == 0, qPrintable(alone.err));
        QCOMPARE(aucsOf(both.out, "sosrep").size(), 2);
        QCOMPARE(aucsOf(both.out, "sosrep"), aucsOf(named.out, "sosrep:scale=rank"));
        QCOMPARE(aucsOf(both.out, "sosrep:purpose=density"),
                 aucsOf(named.out, "sosrep:purpose=density:scale=minmax"));
        QCOMPARE(selectionsOf(both.out, "sosrep:purpose=density"),
                 selectionsOf(alone.out, "sosrep:purpose=density"));
        QCOMPARE(aucsOf(both.out, "knn"), aucsOf(named.out, "knn:scale=minmax")); // no purpose
        QVERIFY(aucsOf(both.out, "sosrep") != aucsOf(both.out, "sosrep:purpose=density"));
    }

    // --purpose overrode a method's own purpose=...; the method's wins.
    void aMethodsOwnPurposeWinsOverPurpose()
    {
        const QStringList base{"adbench", "--data-dir", adbenchDir(), "--only",
                               "wine",    "--seeds",    "42"};
        const CliRun both =
            runSosrep(base + QStringList{"--estimators", "sosrep,sosrep:purpose=anomaly",
                                         "--purpose", "density"});
        QVERIFY2(both.code == 0, qPrintable(both.err));
        const CliRun anomaly = runSosrep(base + QStringList{"--estimators", "sosrep"});
        QVERIFY2(anomaly.code == 0, qPrintable(anomaly.err));
        const CliRun density =
            runSosrep(base + QStringList{"--estimators", "sosrep", "--purpose", "density"});
        QVERIFY2(density.code == 0, qPrintable(density.err));
        QCOMPARE(selectionsOf(both.out, "sosrep:purpose=anomaly"),
                 selectionsOf(anomaly.out, "sosrep"));
        QCOMPARE(selectionsOf(both.out, "sosrep"), selectionsOf(density.out, "sosrep"));
        QVERIFY(selectionsOf(both.out, "sosrep") !=
                selectionsOf(both.out, "sosrep:purpose=anomaly"));
    }

    // The paired bootstrap: a constant difference has a zero-width interval; for normal
    // differences the percentile interval matches the normal one (mean +- 1.96 s / sqrt(n))
    // within its Monte Carlo error; datasets without both values are left out.
    void pairedComparisonAgainstClosedForms()
    {
        std::vector<double> ref(30), shifted(30), noisy(30);
        std::mt19937_64 rng(5);
        std::normal_distribution<double> normal(0.02, 0.05);
        double sum = 0.0, sq = 0.0;
        std::vector<double> diff(30);
        for (size_t d = 0; d < 30; ++d) {
            ref[d] = 0.5 + 0.01 * double(d);
            shifted[d] = ref[d] + 0.1;
            diff[d] = normal(rng);
            noisy[d] = ref[d] + diff[d];
            sum += diff[d];
        }
        const double mean = sum / 30.0;
        for (double v : diff) {
            sq += (v - mean) * (v - mean);
        }
        const double se = std::sqrt(sq / 30.0) / std::sqrt(30.0); // the bootstrap's (biased) sd
        const sosrep::cli::PairedComparison same = sosrep::cli::pairedComparison(ref, ref);
        QCOMPARE(same.meanDifference, 0.0);
        QCOMPARE(same.low, 0.0);
        QCOMPARE(same.high, 0.0);
        QCOMPARE(same.won + same.lost, 0);
        const sosrep::cli::PairedComparison up = sosrep::cli::pairedComparison(shifted, ref);
        QVERIFY(std::abs(up.meanDifference - 0.1) < 1e-12);
        QVERIFY(std::abs(up.low - 0.1) < 1e-12 && std::abs(up.high - 0.1) < 1e-12);
        QCOMPARE(up.won, 30);
        const sosrep::cli::PairedComparison n = sosrep::cli::pairedComparison(noisy, ref);
        QVERIFY(std::abs(n.meanDifference - mean) < 1e-12);
        QVERIFY2(std::abs(n.low - (mean - 1.96 * se)) < 0.2 * 1.96 * se &&
                     std::abs(n.high - (mean + 1.96 * se)) < 0.2 * 1.96 * se,
                 qPrintable(QStringLiteral("[%1, %2] vs %3 +- %4")
                                .arg(n.low)
                                .arg(n.high)
                                .arg(mean)
                                .arg(1.96 * se)));
        noisy[3] = std::nan("");
        QCOMPARE(sosrep::cli::pairedComparison(noisy, ref).datasets, 29);
    }

    // A dataset whose test part holds one class stopped the whole run with exit 2, naming a
    // --labels option adbench does not have and no file, and left the partial table behind.
    // The split is left out, said on stderr and in the JSON summary; the run goes on.
    void aSplitWithoutAnAucIsLeftOutAndSaid()
    {
        QTemporaryDir dir;
        const QString data = dir.filePath(QStringLiteral("data"));
        QVERIFY(QDir().mkpath(data));
        QVERIFY(QFile::copy(QStringLiteral(SOSREP_TEST_DATA_DIR "/bad/npz_one_anomaly.npz"),
                            data + QStringLiteral("/one_anomaly.npz")));
        const QString table = dir.filePath(QStringLiteral("t.csv"));
        const QString json = dir.filePath(QStringLiteral("t.json"));
        const CliRun r =
            runSosrep({"adbench", "--data-dir", data + QStringLiteral(",") + adbenchDir(), "--only",
                       "one_anomaly,wine", "--seeds", "42", "--estimators", "knn", "--table-out",
                       table, "--json-out", json});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const QString said = QStringLiteral(
            "one_anomaly.npz seed 42: the test part holds no anomaly, so no AUC can be "
            "measured; this split is left out");
        QVERIFY2(r.err.contains(QStringLiteral("warning: ") + said), qPrintable(r.err));
        const QStringList rows = readLines(table);
        QCOMPARE(rows.size(), 2);
        QVERIFY(rows[1].startsWith(QStringLiteral("45_wine.npz,42,knn,")));
        const QJsonObject summary = QJsonDocument::fromJson(bytesOf(json)).object();
        QCOMPARE(summary[QStringLiteral("warnings")].toArray().size(), 1);
        QCOMPARE(summary[QStringLiteral("warnings")].toArray()[0].toString(), said);
        QVERIFY(!QFileInfo::exists(table + QStringLiteral(".partial")));
        QVERIFY(!QFileInfo::exists(table + QStringLiteral(".partial.options")));
    }

    // A method that cannot be fitted on a split (a length scale whose kernel mass is not a
    // double in that many columns) stopped the run with exit 2. Now it is said, the dataset
    // leaves the summaries, and the other methods' rows are kept. With no dataset where every
    // method has a value, the summary says "-" (it printed a mean of 0.0000 and a median nan).
    void aMethodThatCannotBeFittedIsSaidAndTheRunGoesOn()
    {
        QTemporaryDir dir;
        const QString table = dir.filePath(QStringLiteral("t.csv"));
        const CliRun r =
            runSosrep({"adbench", "--data-dir", adbenchDir(), "--only", "wine", "--seeds", "42",
                       "--estimators", "knn,sos-mmd:length_scale=1e-9", "--table-out", table});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY2(r.err.contains(QStringLiteral(
                     "warning: 45_wine.npz seed 42, sos-mmd:length_scale=1e-9: not fitted (")),
                 qPrintable(r.err));
        QVERIFY(r.err.contains(QStringLiteral("the dataset is left out of the summaries")));
        const QStringList rows = readLines(table);
        QCOMPARE(rows.size(), 2);
        QVERIFY(rows[1].startsWith(QStringLiteral("45_wine.npz,42,knn,")));
        QVERIFY2(r.out.contains(QStringLiteral("\nknn\t0\t-\t-\t-\t-\t-\n")), qPrintable(r.out));
        QVERIFY(!r.out.contains(QStringLiteral("nan")));
    }

    // Issue 23: --resume copied the partial table's rows unchecked (a NaN or an AUC of 7 into
    // the means, rows twice, rows of datasets not in the run). Each is refused naming its line.
    // Issue 51: --hindsight measured the first method only and was not in the table; the
    // family summary had no hindsight gap and nothing listed the sets lost to the reference.
    void hindsightGapAndLossesAgainstTheReference()
    {
        QTemporaryDir out;
        const QString table = out.filePath(QStringLiteral("t.csv"));
        const CliRun r =
            runSosrep(expand({"adbench", "--data-dir", "ADBENCH", "--only", "wine,glass,WDBC",
                              "--seeds", "1,2", "--protocol", "paper", "--estimators",
                              "sosrep,kde,iforest", "--hindsight", "--table-out", table},
                             QString(), QString(), out.path()));
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const QStringList lines = readLines(table);
        QVERIFY(lines.first().endsWith(QStringLiteral(",best_grid_auc_roc")));
        // The oracle: per method and dataset, the means over seeds of the table's cells.
        std::map<QString, std::map<QString, std::pair<double, double>>> sums; // auc, gap
        for (const QString& line : lines.mid(1)) {
            const QStringList c = line.split(QLatin1Char(','));
            QCOMPARE(c.size(), 9);
            const bool tuned = c[2] != QLatin1String("iforest");
            QCOMPARE(!c[8].isEmpty(), tuned);
            if (tuned) {
                QVERIFY(c[8].toDouble() >= c[3].toDouble()); // the best of a grid holding it
            }
            auto& cell = sums[c[2]][c[0]];
            cell.first += c[3].toDouble() / 2.0;
            cell.second += tuned ? (c[8].toDouble() - c[3].toDouble()) / 2.0 : 0.0;
        }
        QCOMPARE(sums[QStringLiteral("sosrep")].size(), size_t(3));
        for (const QString method : {QStringLiteral("sosrep"), QStringLiteral("kde")}) {
            double gap = 0.0;
            for (const auto& [set, v] : sums[method]) {
                gap += v.second / 3.0;
            }
            const QString row = QStringLiteral("adbench\t") + method + QLatin1Char('\t');
            const int at = int(r.out.indexOf(row, r.out.indexOf(QStringLiteral("hindsight_gap"))));
            QVERIFY(at > 0);
            QCOMPARE(r.out.mid(at).section(QLatin1Char('\t'), 6, 6), QString::number(gap, 'f', 4));
        }
        // Every set a method loses to iforest by more than 0.05 is listed, and no other.
        const QString losses = r.out.mid(r.out.indexOf(QStringLiteral("losses by more than")));
        for (const QString method : {QStringLiteral("sosrep"), QStringLiteral("kde")}) {
            for (const auto& [set, v] : sums[method]) {
                const double ref = sums[QStringLiteral("iforest")][set].first;
                const bool lost = v.first < ref - 0.05;
                QCOMPARE(losses.contains(set + QLatin1Char('\t') + method + QLatin1Char('\t')),
                         lost);
            }
        }
    }

    // Issue 51: families were the folders (classical vs embeddings); leave-one-family-out by
    // kind of data needs families that cut across them, defined from ADBench's categories.
    void familiesByKindOfDataOrFromAFile()
    {
        QCOMPARE(sosrep::cli::adbenchKind(QStringLiteral("2_annthyroid.npz")),
                 QStringLiteral("medical"));
        QCOMPARE(sosrep::cli::adbenchKind(QStringLiteral("22_magic.gamma.npz")),
                 QStringLiteral("measurement"));
        QCOMPARE(sosrep::cli::adbenchKind(QStringLiteral("CV_by_ResNet18__MVTec-AD_pill.npz")),
                 QStringLiteral("image"));
        QCOMPARE(sosrep::cli::adbenchKind(QStringLiteral("NLP_by_BERT__20news_3.npz")),
                 QStringLiteral("text"));
        QCOMPARE(sosrep::cli::adbenchKind(QStringLiteral("99_unheard.npz")), QString());
        QTemporaryDir out;
        const QStringList base =
            expand({"adbench", "--data-dir", "ADBENCH", "--only", "wine,glass,Hepatitis", "--seeds",
                    "42", "--estimators", "knn,iforest"},
                   QString(), QString(), out.path());
        const CliRun kind = runSosrep(base + QStringList{"--families", "kind"});
        QVERIFY2(kind.code == 0, qPrintable(kind.err));
        QVERIFY(kind.out.contains(QStringLiteral("\nmeasurement\tknn\t2\t")));
        QVERIFY(kind.out.contains(QStringLiteral("\nmedical\tknn\t1\t")));
        const QString file = out.filePath(QStringLiteral("families.csv"));
        QVERIFY(writeText(file, "dataset,family\n45_wine.npz,a\n14_glass.npz,b\n"));
        const CliRun missing = runSosrep(base + QStringList{"--families", file});
        QCOMPARE(missing.code, 2);
        QVERIFY2(missing.err.contains(QStringLiteral("--families: 15_Hepatitis.npz has no family")),
                 qPrintable(missing.err));
        QVERIFY(writeText(file, "dataset,family\n45_wine.npz,a\n14_glass.npz,b\n"
                                "15_Hepatitis.npz,a\n"));
        const CliRun given = runSosrep(base + QStringList{"--families", file});
        QVERIFY2(given.code == 0, qPrintable(given.err));
        QVERIFY(given.out.contains(QStringLiteral("\na\tknn\t2\t")));
        QVERIFY(given.out.contains(QStringLiteral("\nb\tknn\t1\t")));
    }

    // Issue 51: other families or another reference needed a rerun of every fit.
    void aFinishedTableIsSummarizedWithoutFitting()
    {
        QTemporaryDir out;
        const QString table = out.filePath(QStringLiteral("t.csv"));
        const QStringList base =
            expand({"adbench", "--data-dir", "ADBENCH", "--only", "wine,glass,Hepatitis", "--seeds",
                    "42,43", "--estimators", "knn,iforest"},
                   QString(), QString(), out.path());
        const CliRun ran = runSosrep(base + QStringList{"--table-out", table});
        QVERIFY2(ran.code == 0, qPrintable(ran.err));
        const CliRun again = runSosrep(base + QStringList{"--summarize", table});
        QVERIFY2(again.code == 0, qPrintable(again.err));
        // The same summaries, and no row fitted (the per-run lines are not printed).
        const QString summary = QStringLiteral("\nmethod\tdatasets");
        QCOMPARE(again.out.mid(again.out.indexOf(summary)), ran.out.mid(ran.out.indexOf(summary)));
        QVERIFY(!again.err.contains(QStringLiteral("AUC-ROC")));
        const CliRun kinds =
            runSosrep(base + QStringList{"--summarize", table, "--families", "kind"});
        QVERIFY(kinds.out.contains(QStringLiteral("\nmeasurement\tknn\t2\t")));
        const CliRun fewer =
            runSosrep(expand({"adbench", "--data-dir", "ADBENCH", "--only", "wine,glass,Hepatitis",
                              "--seeds", "42", "--estimators", "knn,iforest", "--summarize", table},
                             QString(), QString(), out.path()));
        QCOMPARE(fewer.code, 3);
        QVERIFY2(fewer.err.contains(QStringLiteral("the seed 43 is not among this run's (give")),
                 qPrintable(fewer.err));
        const CliRun both = runSosrep(base + QStringList{"--summarize", table, "--resume"});
        QCOMPARE(both.code, 2);
        QVERIFY(both.err.contains(QStringLiteral("--summarize: fits nothing: --resume")));
    }

    void resumedTablesAreChecked_data()
    {
        QTest::addColumn<QString>("rows");
        QTest::addColumn<QStringList>("words");
        const QString good = "45_wine.npz,42,knn,0.5,0.25,0,,0.001\n";
        QTest::newRow("AUC nan") << "45_wine.npz,42,knn,nan,0.25,0,,0.001\n"
                                 << QStringList{".partial:2:4:", "[0, 1]"};
        QTest::newRow("AUC 7") << good + "45_wine.npz,43,knn,0.5,7,0,,0.001\n"
                               << QStringList{".partial:3:5:", "[0, 1]"};
        QTest::newRow("negative seconds") << "45_wine.npz,42,knn,0.5,0.25,0,,-1\n"
                                          << QStringList{".partial:2:8:", ">= 0"};
        QTest::newRow("a row twice")
            << good + good
            << QStringList{".partial:3:1:", "repeats the run 45_wine.npz seed 42 knn"};
        QTest::newRow("a dataset not in the run")
            << "32_shuttle.npz,42,knn,0.5,0.25,0,,0.001\n"
            << QStringList{".partial:2:1:", "'32_shuttle.npz' is not among this run's"};
        QTest::newRow("a seed not in the run") << "45_wine.npz,7,knn,0.5,0.25,0,,0.001\n"
                                               << QStringList{".partial:2:2:", "seed 7"};
        QTest::newRow("a method not in the run")
            << "45_wine.npz,42,iforest,0.5,0.25,0,,0.001\n"
            << QStringList{".partial:2:3:", "'iforest' is not among this run's --estimators"};
    }

    void resumedTablesAreChecked()
    {
        QFETCH(QString, rows);
        QFETCH(QStringList, words);
        QTemporaryDir out;
        const QString table = out.filePath(QStringLiteral("t.csv"));
        QVERIFY(writeText(table + QStringLiteral(".partial"),
                          "dataset,seed,method,auc_roc,auc_pr,length_scale,selection,seconds\n" +
                              rows));
        const QStringList args =
            expand({"adbench", "--data-dir", "ADBENCH", "--only", "wine", "--seeds", "42,43",
                    "--estimators", "knn", "--table-out", table, "--resume"},
                   QString(), QString(), out.path());
        QVERIFY(writeText(table + QStringLiteral(".partial.options"),
                          QString::fromUtf8(adbenchOptionsRecord(args.mid(1)))));
        const CliRun r = runSosrep(args);
        QVERIFY2(r.code == 3, qPrintable(QStringLiteral("exit %1: %2").arg(r.code).arg(r.err)));
        for (const QString& w : words) {
            QVERIFY2(r.err.contains(w),
                     qPrintable(QStringLiteral("'%1' not in: %2").arg(w, r.err)));
        }
        QVERIFY(!QFileInfo::exists(table));
    }

    // --resume took a partial table from a run with other options (more duplicated anomalies,
    // another k) and mixed two protocols in one table; a table with no record of its options
    // cannot be checked, so it is refused too. The partial table is kept for the user to decide.
    void resumeRefusesAnotherRunsOptions_data()
    {
        QTest::addColumn<QStringList>("recordedBy"); // the options of the run that left it
        QTest::addColumn<QStringList>("words");
        QTest::newRow("duplicated anomalies")
            << QStringList{"--duplicate-anomalies", "5"}
            << QStringList{"other options", "duplicate_anomalies=5 there",
                           "duplicate_anomalies=1 here"};
        QTest::newRow("a method's option")
            << QStringList{"--k", "7"} << QStringList{"knn.k=7 there", "knn.k=5 here"};
        QTest::newRow("another protocol")
            << QStringList{"--protocol", "adbench"}
            << QStringList{"protocol=adbench there", "protocol=ours here"};
        QTest::newRow("no record") << QStringList{"NONE"} << QStringList{"no record"};
    }

    void resumeRefusesAnotherRunsOptions()
    {
        QFETCH(QStringList, recordedBy);
        QFETCH(QStringList, words);
        QTemporaryDir out;
        const QString table = out.filePath(QStringLiteral("t.csv"));
        const QString partial = table + QStringLiteral(".partial");
        const QString rows =
            QStringLiteral("dataset,seed,method,auc_roc,auc_pr,length_scale,selection,seconds\n"
                           "45_wine.npz,42,knn,0.5,0.25,0,,0.001\n");
        QVERIFY(writeText(partial, rows));
        const QStringList args =
            expand({"adbench", "--data-dir", "ADBENCH", "--only", "wine", "--seeds", "42,43",
                    "--estimators", "knn", "--table-out", table},
                   QString(), QString(), out.path());
        if (recordedBy != QStringList{"NONE"}) {
            QVERIFY(writeText(partial + QStringLiteral(".options"),
                              QString::fromUtf8(adbenchOptionsRecord(args.mid(1) + recordedBy))));
        }
        const CliRun r = runSosrep(args + QStringList{"--resume"});
        QVERIFY2(r.code == 2, qPrintable(QStringLiteral("exit %1: %2").arg(r.code).arg(r.err)));
        QVERIFY2(r.err.startsWith(QStringLiteral("sosrep adbench: --resume: ")), qPrintable(r.err));
        for (const QString& w : words) {
            QVERIFY2(r.err.contains(w),
                     qPrintable(QStringLiteral("'%1' not in: %2").arg(w, r.err)));
        }
        QVERIFY(!QFileInfo::exists(table));
        QCOMPARE(QString::fromUtf8(bytesOf(partial)), rows);
    }
};

QTEST_GUILESS_MAIN(TstAdbench)
#include "tst_adbench.moc"
