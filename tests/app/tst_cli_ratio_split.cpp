// SPDX-License-Identifier: MIT
// `sosrep ratio`'s q taken from the --p file itself (issue 50: the Ratio view's split has a
// command that reproduces it): --q-where COLUMN=VALUE, --q-inside X=A:B,Y=C:D, --p-all, and
// q's density of q's rows (--q-density). Each is checked against the run on two files that
// hold the same rows, which is what the split means.
#include "app/cli/cli_runner.h"
#include "support/cli_run.h"

#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

using Run = CliRun;

class TstCliRatioSplit : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString path(const QString& name) const { return m_dir.filePath(name); }

    /// The lines of `all` (header first) whose `keep` holds, written to `name`.
    bool writeRows(const QString& name, const QStringList& all,
                   const std::function<bool(const QStringList& cells)>& keep)
    {
        QString text = all.first() + QLatin1Char('\n');
        for (int i = 1; i < all.size(); ++i) {
            if (keep(all[i].split(QLatin1Char(',')))) {
                text += all[i] + QLatin1Char('\n');
            }
        }
        return writeText(path(name), text);
    }

    /// The weights the run wrote, as bytes; the run must succeed.
    QByteArray weightsOf(QStringList args, const QString& out)
    {
        args << QStringLiteral("--weights-out") << path(out);
        const Run r = runSosrep(args);
        if (r.code != 0) {
            qWarning().noquote() << args.join(QLatin1Char(' ')) << r.err;
            return {};
        }
        return bytesOf(path(out));
    }

private slots:
    void initTestCase()
    {
        const Run g = runSosrep({"generate", "--kind", "moons", "--n", "240", "--seed", "8",
                                 "--anomalies", "0.1", "--out", path("all.csv")});
        QVERIFY2(g.code == 0, qPrintable(g.err));
        const QStringList all = readLines(path("all.csv"));
        QCOMPARE(all.first(), QStringLiteral("x,y,label"));
        QVERIFY(writeRows("p.csv", all, [](const QStringList& c) { return c[2] == "0"; }));
        QVERIFY(writeRows("q.csv", all, [](const QStringList& c) { return c[2] == "1"; }));
        const auto inside = [](const QStringList& c) {
            const double x = c[0].toDouble(), y = c[1].toDouble();
            return x >= -0.5 && x <= 1.0 && y >= -0.25 && y <= 0.75;
        };
        QVERIFY(writeRows("inside.csv", all, inside));
        QVERIFY(writeRows("outside.csv", all, [&](const QStringList& c) { return !inside(c); }));
    }

    void qWhereIsTheSplitIntoTwoFiles()
    {
        const QByteArray split = weightsOf({"ratio", "--p", path("all.csv"), "--label-column",
                                            "label", "--q-where", "label=1", "--seed", "3"},
                                           QStringLiteral("where.csv"));
        const QByteArray files = weightsOf({"ratio", "--p", path("p.csv"), "--q", path("q.csv"),
                                            "--label-column", "label", "--seed", "3"},
                                           QStringLiteral("files.csv"));
        QVERIFY(!split.isEmpty());
        QCOMPARE(split, files);
        // --p-all: p is every row, q's too; and the column need not be the label.
        const QByteArray all = weightsOf({"ratio", "--p", path("all.csv"), "--columns", "x,y",
                                          "--q-where", "label=1", "--p-all", "--seed", "3"},
                                         QStringLiteral("where_all.csv"));
        const QByteArray allFiles = weightsOf({"ratio", "--p", path("all.csv"), "--columns", "x,y",
                                               "--q", path("q.csv"), "--seed", "3"},
                                              QStringLiteral("files_all.csv"));
        QVERIFY(!all.isEmpty());
        QCOMPARE(all, allFiles);
        const Run r = runSosrep(
            {"ratio", "--p", path("all.csv"), "--label-column", "label", "--q-where", "label=1"});
        QCOMPARE(r.summary()[QStringLiteral("n_q")].toInt() +
                     r.summary()[QStringLiteral("n_p")].toInt(),
                 240);
        QCOMPARE(r.summary()[QStringLiteral("q")].toString(), QStringLiteral("--q-where label=1"));
    }

    void qInsideIsTheRectangleWithItsEdgesInEitherOrder()
    {
        const QStringList base{"ratio", "--p", path("all.csv"), "--label-column", "label"};
        const QByteArray rect = weightsOf(QStringList(base) << "--q-inside"
                                                            << "x=1:-0.5,y=-0.25:0.75",
                                          QStringLiteral("rect.csv"));
        const QByteArray files = weightsOf({"ratio", "--p", path("outside.csv"), "--q",
                                            path("inside.csv"), "--label-column", "label"},
                                           QStringLiteral("rect_files.csv"));
        QVERIFY(!rect.isEmpty());
        QCOMPARE(rect, files);
    }

    void qDensityIsTheDensityOfQsRowsAsAModelFileGivesIt()
    {
        // Without scaling, q's density fitted by --q-density is `sosrep fit`'s model of q's
        // rows at the estimator's defaults, evaluated at p's rows (--q-model).
        const Run fit =
            runSosrep({"fit", "--train", path("q.csv"), "--label-column", "label", "--estimator",
                       "kde", "--scale", "none", "--seed", "2", "--model-out", path("q_kde.json")});
        QVERIFY2(fit.code == 0, qPrintable(fit.err));
        const QByteArray density =
            weightsOf({"ratio", "--p", path("p.csv"), "--q", path("q.csv"), "--q-density", "kde",
                       "--label-column", "label", "--scale", "none", "--seed", "2"},
                      QStringLiteral("density.csv"));
        const QByteArray model =
            weightsOf({"ratio", "--p", path("p.csv"), "--q-model", path("q_kde.json"),
                       "--label-column", "label", "--scale", "none", "--seed", "2"},
                      QStringLiteral("model.csv"));
        QVERIFY(!density.isEmpty());
        QCOMPARE(density, model);
        // From a split, with its own name in the summary.
        const Run r = runSosrep({"ratio", "--p", path("all.csv"), "--label-column", "label",
                                 "--q-where", "label=1", "--q-density", "kde"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QCOMPARE(r.summary()[QStringLiteral("ratio_type")].toInt(), 2);
        QCOMPARE(r.summary()[QStringLiteral("q")].toString(),
                 QStringLiteral("--q-density kde of --q-where label=1"));
    }

    void misuseIsRefusedBeforeAnyFitNamingTheFlag()
    {
        const QStringList base{"ratio", "--p", path("all.csv"), "--label-column", "label"};
        const struct
        {
            QStringList extra;
            const char* says;
        } cases[] = {
            {{"--q-where", "label=1", "--q-inside", "x=0:1,y=0:1"}, "--q-where"},
            {{"--q-where", "label=1", "--q", path("q.csv")}, "give only one of"},
            {{"--p-all", "--q", path("q.csv")}, "--p-all"},
            {{"--q-density", "kde", "--inverse"}, "--q-density: needs q's rows"},
            {{"--q-where", "label=1", "--q-density", "iforest"}, "not a density estimator"},
            {{"--q-where", "label=1", "--q-density", "fire"}, "not a density estimator"},
            {{"--q-where", "label=7"}, "leaves 0 rows for q"},
            {{"--q-where", "label"}, "is not COLUMN=VALUE"},
            {{"--q-where", "label=one"}, "is not a finite number"},
            {{"--q-where", "size=1"}, "--q-where: no column named 'size'"},
            {{"--q-inside", "x=0:1"}, "is not X=A:B,Y=C:D"},
            {{"--q-inside", "x=0:1,label=0:1"}, "--q-inside: no column named 'label'"},
            {{"--q-where", "label=1", "--type", "2"}, "--type"},
        };
        for (const auto& c : cases) {
            const Run r = runSosrep(QStringList(base) << c.extra);
            QVERIFY2(r.code == 2 && r.err.contains(QLatin1String(c.says)),
                     qPrintable(c.extra.join(QLatin1Char(' ')) + QStringLiteral(": ") +
                                QString::number(r.code) + QStringLiteral(" ") + r.err));
        }
    }
};

QTEST_MAIN(TstCliRatioSplit)
#include "tst_cli_ratio_split.moc"
