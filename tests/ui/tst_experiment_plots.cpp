// SPDX-License-Identifier: MIT
// Issue 13: the figures of `sosrep experiment negativity` and `sosrep adbench --plot-out`, the
// split export and the external score files that join the ranks.
#include "app/cli/command_context.h"
#include "support/cli_run.h"
#include "support/shared_data.h"
#include "ui/plots/chart_render.h"

#include <QImage>
#include <QTemporaryDir>
#include <QtTest>

using namespace sosrep;

class TstExperimentPlots : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString path(const char* name) const { return m_dir.filePath(QString::fromLatin1(name)); }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        cli::setChartRenderer(&ui::renderChart);
    }

    void boxStats_tukeyWhiskersAndType7Quartiles()
    {
        // 1..9 and 30: q1 = 3.25, median 5.5, q3 = 7.75 (linear interpolation), IQR 4.5, so the
        // upper fence is 14.5: 30 is an outlier and the whisker ends at 9.
        const ui::BoxStats b = ui::boxStats({30, 1, 2, 3, 4, 5, 6, 7, 8, 9});
        QCOMPARE(b.q1, 3.25);
        QCOMPARE(b.median, 5.5);
        QCOMPARE(b.q3, 7.75);
        QCOMPARE(b.lowerWhisker, 1.0);
        QCOMPARE(b.upperWhisker, 9.0);
        QCOMPARE(b.outliers, std::vector<double>{30.0});
        QCOMPARE(b.mean, 7.5);
    }

    void renderChart_formats()
    {
        Chart chart;
        chart.title = "t";
        ChartPanel boxes;
        boxes.kind = ChartPanel::Kind::Boxes;
        boxes.series = {{"a", {}, {0.1, 0.5, 0.9}}, {"b", {}, {0.2, 0.3}}};
        chart.panels = {boxes, boxes};
        chart.columns = 2;
        chart.width = 800;
        chart.height = 400;
        QImage png;
        QVERIFY(png.loadFromData(ui::renderChart(chart, QStringLiteral("png")), "PNG"));
        QCOMPARE(png.width(), 800 * 150 / 96); // exported at 150 dpi
        QVERIFY(ui::renderChart(chart, QStringLiteral("pdf")).startsWith("%PDF"));
        QVERIFY(ui::renderChart(chart, QStringLiteral("svg")).contains("<svg"));
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, ui::renderChart(chart, QStringLiteral("bmp")));
    }

    void negativity_tableCsvAndFigure()
    {
        QVERIFY(runSosrep({"generate", "--kind", "moons", "--n", "120", "--out", path("moons.csv")})
                    .code == 0);
        const CliRun r = runSosrep({"experiment",
                                    "negativity",
                                    "--data",
                                    path("moons.csv"),
                                    "--initializations",
                                    "6",
                                    "--worst",
                                    "2",
                                    "--iterations",
                                    "50",
                                    "--every",
                                    "10",
                                    "--learning-rate",
                                    "0.05",
                                    "--length-scale",
                                    "0.08",
                                    "--features",
                                    "300",
                                    "--csv-out",
                                    path("neg.csv"),
                                    "--plot-out",
                                    path("neg.svg")});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const QStringList csv = readLines(path("neg.csv"));
        QCOMPARE(csv.first(), QStringLiteral("dataset,method,iteration,worst_mean,mean,max,"
                                             "diverged"));
        QCOMPARE(csv.size(), 1 + 2 * 6); // iterations 0, 10, ..., 50 for each method
        // Both methods start from the same initialisations.
        QCOMPARE(csv[1].section(',', 3, 5), csv[7].section(',', 3, 5));
        const QJsonObject s = r.summary();
        QCOMPARE(s[QStringLiteral("initializations")].toInt(), 6);
        const QJsonObject res = s[QStringLiteral("results")].toArray()[0].toObject();
        QCOMPARE(res[QStringLiteral("rows")].toInt(), 120);
        QVERIFY(res[QStringLiteral("standard")].toDouble() >= 0.0);
        QVERIFY(res[QStringLiteral("standard")].toDouble() <= 1.0);
        QVERIFY(r.err.contains(QStringLiteral("sosrep experiment: [1/1] moons")));
        const QByteArray svg = bytesOf(path("neg.svg"));
        QVERIFY(svg.contains("<svg"));
        QVERIFY(svg.contains("natural gradient"));
    }

    void adbench_exportSplitsExternalScoresAndFigure()
    {
        const QString data = QFileInfo(QString::fromStdString(adbenchPath("45_wine.npz"))).path();
        QDir(m_dir.path()).mkdir(QStringLiteral("splits"));
        QDir(m_dir.path()).mkdir(QStringLiteral("ext"));
        const CliRun first = runSosrep({"adbench", "--data-dir", data, "--only", "wine",
                                        "--estimators", "knn", "--export-splits", path("splits")});
        QVERIFY2(first.code == 0, qPrintable(first.err));
        const QStringList test = readLines(path("splits/45_wine_seed42_test.csv"));
        QVERIFY(test.first().endsWith(QStringLiteral(",label")));
        QCOMPARE(readLines(path("splits/45_wine_seed42_train.csv")).size() - 1 + test.size() - 1,
                 129);
        // Another tool's scores for the exported test rows: the label itself (AUC 1) and its
        // negation (AUC 0).
        QString ext = QStringLiteral("oracle,contrarian\n");
        for (int i = 1; i < test.size(); ++i) {
            const QString label = test[i].section(',', -1);
            ext += label + QLatin1Char(',') + QString::number(-label.toInt()) + QLatin1Char('\n');
        }
        QVERIFY(writeText(path("ext/45_wine_seed42.csv"), ext));
        const CliRun r = runSosrep({"adbench", "--data-dir", data, "--only", "wine", "--estimators",
                                    "knn", "--external-scores", path("ext"), "--json-out",
                                    path("ab.json"), "--plot-out", path("ab.png")});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const QJsonObject json = QJsonDocument::fromJson(bytesOf(path("ab.json"))).object();
        QMap<QString, QJsonObject> methods;
        for (const QJsonValue& m : json[QStringLiteral("methods")].toArray()) {
            methods[m.toObject()[QStringLiteral("method")].toString()] = m.toObject();
        }
        QCOMPARE(methods.size(), 3);
        QCOMPARE(methods[QStringLiteral("oracle")][QStringLiteral("mean_auc_roc")].toDouble(), 1.0);
        QCOMPARE(methods[QStringLiteral("oracle")][QStringLiteral("average_rank")].toDouble(), 1.0);
        QCOMPARE(methods[QStringLiteral("contrarian")][QStringLiteral("average_rank")].toDouble(),
                 3.0);
        QImage png;
        QVERIFY(png.load(path("ab.png")));
        // External methods are methods of the run: --lodo chooses between them and --reference
        // may be one (both were refused as "not one of --estimators"). A second set, glass,
        // gives the choice a set to leave out.
        const CliRun glass = runSosrep({"adbench", "--data-dir", data, "--only", "glass",
                                        "--estimators", "knn", "--export-splits", path("splits")});
        QVERIFY2(glass.code == 0, qPrintable(glass.err));
        const QStringList glassTest = readLines(path("splits/14_glass_seed42_test.csv"));
        QString glassExt = QStringLiteral("oracle,contrarian\n");
        for (int i = 1; i < glassTest.size(); ++i) {
            const QString label = glassTest[i].section(',', -1);
            glassExt +=
                label + QLatin1Char(',') + QString::number(-label.toInt()) + QLatin1Char('\n');
        }
        QVERIFY(writeText(path("ext/14_glass_seed42.csv"), glassExt));
        const CliRun lodo = runSosrep({"adbench", "--data-dir", data, "--only", "wine,glass",
                                       "--estimators", "knn", "--external-scores", path("ext"),
                                       "--lodo", "contrarian;oracle", "--reference", "oracle"});
        QVERIFY2(lodo.code == 0, qPrintable(lodo.err));
        QVERIFY2(lodo.out.contains(QStringLiteral("chosen: oracle ×2")), qPrintable(lodo.out));
        QVERIFY2(lodo.out.contains(QStringLiteral("below_oracle_by_0.1")), qPrintable(lodo.out));
        const CliRun unknown =
            runSosrep({"adbench", "--data-dir", data, "--only", "wine,glass", "--estimators", "knn",
                       "--external-scores", path("ext"), "--lodo", "oracle;psychic"});
        QCOMPARE(unknown.code, 2);
        QVERIFY2(unknown.err.contains(QStringLiteral("'psychic' is not one of")),
                 qPrintable(unknown.err));
        // Files naming their methods differently (issue 52, item 12): every dataset lacked a
        // method, the summary had 0 datasets and null means, exit 0. Now refused, naming both.
        QString renamed = ext;
        renamed.replace(QStringLiteral("contrarian"), QStringLiteral("reverse"));
        QVERIFY(writeText(path("ext/45_wine_seed43.csv"), renamed));
        const CliRun differ =
            runSosrep({"adbench", "--data-dir", data, "--only", "wine", "--estimators", "knn",
                       "--seeds", "42,43", "--external-scores", path("ext")});
        QCOMPARE(differ.code, 3);
        QVERIFY2(
            differ.err.contains(QStringLiteral("45_wine_seed43.csv")) &&
                differ.err.contains(QStringLiteral("oracle, reverse")) &&
                differ.err.contains(QStringLiteral("45_wine_seed42.csv has oracle, contrarian")),
            qPrintable(differ.err));
        // A score file with the wrong number of rows names itself.
        QVERIFY(writeText(path("ext/45_wine_seed42.csv"), QStringLiteral("x\n1\n2\n")));
        const CliRun bad = runSosrep({"adbench", "--data-dir", data, "--only", "wine",
                                      "--estimators", "knn", "--external-scores", path("ext")});
        QCOMPARE(bad.code, 3);
        QVERIFY2(bad.err.contains(QStringLiteral("45_wine_seed42.csv")), qPrintable(bad.err));
        QVERIFY(bad.err.contains(QStringLiteral("has 2 rows")));
    }
};

QTEST_MAIN(TstExperimentPlots)
#include "tst_experiment_plots.moc"
