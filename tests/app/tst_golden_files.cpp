// SPDX-License-Identifier: MIT
// The file formats pinned byte for byte (tests/data/golden): model files of every kind, as
// `sosrep fit` and `sosrep ratio` wrote them, read and written again give the same bytes, and
// score 50 rows as they did when written; a project file and a scores table written from fixed
// contents are the committed bytes. What this holds fixed is the serialization, not the fits
// (a fit's last bits depend on the CPU), so it passes on any x86-64 machine.
// SOSREP_UPDATE_GOLDEN=1 rewrites the project and table files (only for a deliberate format
// change, said in the commit).
#include "core/io/model_file.h"
#include "core/io/project_format.h"
#include "core/io/table_text.h"
#include "support/cli_run.h"

#include <QDir>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

using namespace sosrep;

namespace {

const QString kGolden = QStringLiteral(SOSREP_TEST_DATA_DIR "/golden/");

/// Compares `bytes` with the committed file, or rewrites it under SOSREP_UPDATE_GOLDEN=1.
bool matchesGolden(const QString& name, const std::string& bytes)
{
    if (qEnvironmentVariableIsSet("SOSREP_UPDATE_GOLDEN")) {
        return writeText(kGolden + name, QString::fromStdString(bytes));
    }
    return bytesOf(kGolden + name) == QByteArray::fromStdString(bytes);
}

io::ProjectData fixedProject()
{
    io::ProjectData p;
    ToyConfig toy;
    toy.kind = ToyKind::TwoMoons;
    toy.n = 400;
    toy.seed = 18446744073709551557ULL; // every digit of a 64-bit seed
    toy.anomalyFraction = 0.05;
    p.toy = toy;
    p.roles = {"feature", "feature", "label"};
    p.plotX = 1;
    p.plotY = 0;
    p.settings = FitSettings::defaults("sosrep");
    p.settings.values.set("kernel", "laplace");
    p.settings.values.set("length_scale", "0.0123");
    p.settings.values.set("scale", "zscore");
    p.settings.values.set("iterations", "4321");
    p.maxFitRows = 5000;
    p.compareWith = "kde";
    p.optimizerStep = 0.0123;
    p.optimizerIterations = 1234;
    p.contamination = 0.07;
    p.ratio["estimator"] = "fire";
    p.ratio["t"] = 1e-05;
    p.ratio["rows"] = io::Json::array({1, 2.5, -3e+20});
    p.tuning["density_view"] = {{"length_scale", 0.123456789012345}, {"rule", "density"}};
    return p;
}

} // namespace

class TstGoldenFiles : public QObject
{
    Q_OBJECT

private slots:
    void modelFilesReadAndWriteTheSameBytes_data()
    {
        QTest::addColumn<QString>("name");
        for (const char* n : {"sosrep", "sosrep_sdo", "sosrep_anomaly", "sosrep_warned",
                              "kde_laplace", "sos_mmd", "iforest", "knn", "fire"}) {
            QTest::newRow(n) << QString::fromLatin1(n);
        }
    }

    void modelFilesReadAndWriteTheSameBytes()
    {
        QFETCH(QString, name);
        const QString path = kGolden + name + QStringLiteral(".json");
        const QByteArray bytes = bytesOf(path);
        QVERIFY2(bytes.size() > 100, qPrintable(path));
        const io::SavedModel saved = io::parseModel(bytes.toStdString(), path.toStdString());
        const QByteArray again = QByteArray::fromStdString(io::modelJson(saved));
        QVERIFY2(again == bytes,
                 qPrintable(path + QStringLiteral(": written again it differs (%1 vs %2 bytes)")
                                       .arg(again.size())
                                       .arg(bytes.size())));
    }

    void modelFilesScoreAsWhenTheyWereWritten_data() { modelFilesReadAndWriteTheSameBytes_data(); }

    void modelFilesScoreAsWhenTheyWereWritten()
    {
        QFETCH(QString, name);
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("s.csv"));
        const CliRun r =
            runSosrep({"score", "--model", kGolden + name + ".json", "--data", kGolden + "rows.csv",
                       "--label-column", "label", "--scores-out", out});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const QStringList now = readLines(out);
        const QStringList then = readLines(kGolden + QStringLiteral("scores_") + name + ".csv");
        QCOMPARE(now.size(), 51);
        QCOMPARE(now.front(), then.front()); // the same columns
        for (int i = 1; i < now.size(); ++i) {
            const QStringList a = now[i].split(QLatin1Char(','));
            const QStringList b = then[i].split(QLatin1Char(','));
            QCOMPARE(a.size(), b.size());
            for (int j = 0; j < a.size(); ++j) {
                const double x = a[j].toDouble();
                const double y = b[j].toDouble();
                // The arithmetic's last bits depend on the CPU the tests run on.
                QVERIFY2(std::abs(x - y) <= 1e-9 * std::max(1.0, std::abs(y)),
                         qPrintable(QStringLiteral("row %1, column %2: %3 vs %4")
                                        .arg(i)
                                        .arg(j)
                                        .arg(a[j], b[j])));
            }
        }
    }

    void aProjectFileIsTheCommittedBytes()
    {
        QVERIFY(
            matchesGolden(QStringLiteral("project.sosrep.json"), io::projectJson(fixedProject())));
        const QString path = kGolden + QStringLiteral("project.sosrep.json");
        const std::string again =
            io::projectJson(io::parseProject(bytesOf(path).toStdString(), path.toStdString()));
        QCOMPARE(QByteArray::fromStdString(again), bytesOf(path));
    }

    void aScoresTableIsTheCommittedBytes()
    {
        Vector values(5);
        values << -1.5, 0.1, -1234.5678901234567, 3e-20, -7.25;
        Eigen::VectorXi labels(5);
        labels << 0, 1, 0, 0, 1;
        const std::string table =
            io::scoresText("t.csv", values, DensityKind::Normalized, labels, -2.0);
        QVERIFY(matchesGolden(QStringLiteral("scores_table.csv"), table));
        const std::string plain = io::scoresText("t.csv", values, DensityKind::Score, std::nullopt);
        QVERIFY(matchesGolden(QStringLiteral("scores_table_score.csv"), plain));
    }
};

QTEST_GUILESS_MAIN(TstGoldenFiles)
#include "tst_golden_files.moc"
