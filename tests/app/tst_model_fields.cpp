// SPDX-License-Identifier: MIT
// Model files read strictly: a file written now carries every field, so a missing one, a field
// nobody reads, a kernel the settings contradict or an ensemble member beyond its length scales
// is refused by `sosrep score` (exit 3, the field named); files older than a field still read.
#include "support/cli_run.h"

#include <QtTest>

namespace {

using Mutation = std::function<void(QJsonObject&)>;

/// Sets `root[object][key]` (a nested object's field) through copies, as QJsonObject asks.
void setIn(QJsonObject& root, const QString& object, const QString& key, const QJsonValue& value)
{
    QJsonObject o = root[object].toObject();
    if (value.isUndefined()) {
        o.remove(key);
    } else {
        o[key] = value;
    }
    root[object] = o;
}

} // namespace

class TstModelFields : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_data;

    QString path(const QString& name) const { return m_dir.filePath(name); }

    /// Fits `args` on the data and returns the model file's JSON.
    QJsonObject fitted(const QString& name, const QStringList& args)
    {
        const QString model = path(name);
        const CliRun r = runSosrep(
            QStringList{"fit", "--train", m_data, "--model-out", model, "--seed", "3"} + args);
        if (r.code != 0) {
            qWarning("%s", qPrintable(r.err));
        }
        return QJsonDocument::fromJson(bytesOf(model)).object();
    }

    /// Writes `root` to a file and scores the data with it.
    CliRun scoreWith(const QJsonObject& root)
    {
        const QString model = path(QStringLiteral("mutated.json"));
        writeText(model, QString::fromUtf8(QJsonDocument(root).toJson(QJsonDocument::Compact)));
        return runSosrep({"score", "--model", model, "--data", m_data, "--scores-out",
                          path(QStringLiteral("scores.csv"))});
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_data = path(QStringLiteral("moons.csv"));
        const CliRun r =
            runSosrep({"generate", "--kind", "moons", "-n", "150", "--seed", "4", "--out", m_data});
        QVERIFY2(r.code == 0, qPrintable(r.err));
    }

    void currentFilesAreReadStrictly_data()
    {
        QTest::addColumn<QStringList>("fitArgs");
        QTest::addColumn<QString>("field"); // named in the one-line message
        QTest::addColumn<QString>("words");
        QTest::addColumn<int>("mutation");
        const QStringList sdo{"--kernel", "sdo", "--length-scale", "0.3"};
        const QStringList gaussian{"--kernel", "gaussian", "--length-scale", "0.3"};
        const QStringList anomaly{"--purpose", "anomaly"};
        QTest::newRow("kernel.features missing") << sdo << "kernel.features"
                                                 << "is missing" << 0;
        QTest::newRow("kernel.feature_seed missing") << sdo << "kernel.feature_seed"
                                                     << "is missing" << 1;
        QTest::newRow("a kernel field nobody reads") << gaussian << "kernel.lenght_scale"
                                                     << "is not a field" << 2;
        QTest::newRow("a top-level field nobody reads") << gaussian << "'weights'"
                                                        << "is not a field" << 3;
        QTest::newRow("settings.kernel contradicts kernel.type")
            << gaussian << "settings.kernel"
            << "kernel.type is 'gaussian'" << 4;
        QTest::newRow("ensemble.combination missing")
            << anomaly << "parameters.ensemble.combination"
            << "is missing" << 5;
        QTest::newRow("a member block beyond the length scales")
            << anomaly << "parameters.member7"
            << "not a member of the ensemble" << 6;
        QTest::newRow("a scaler field nobody reads") << gaussian << "scaler.center"
                                                     << "is not a field" << 7;
        // Issue 52: the second member's columns were never checked (AUC 1.0 -> 0.81), and a
        // current file that lost the fields of the data-units era read as an older one.
        QTest::newRow("an ensemble member with a column fewer")
            << anomaly << "parameters.member1.train"
            << "has 2 columns, the ensemble's first member 3" << 8;
        QTest::newRow("log_value_units and kernel.feature_seed missing") << sdo << "log_value_units"
                                                                         << "is missing" << 9;
        QTest::newRow("provenance.purpose_asked bogus") << gaussian << "provenance.purpose_asked"
                                                        << "must be \"auto\"" << 10;
        // Issue 52: messages named fields the file does not have (sample_weight for weights,
        // parameters.weights for member1.weights), and a changed log_normalizer read unread.
        const QStringList kde{"--estimator", "kde", "--length-scale", "0.3"};
        QTest::newRow("a KDE weight below 0") << kde << "'parameters.weights'"
                                              << "non-negative weight per row" << 11;
        QTest::newRow("a member's weights one short") << anomaly << "parameters.member1.weights"
                                                      << "one number per training row" << 12;
        QTest::newRow("log_normalizer changed") << gaussian << "parameters.log_normalizer"
                                                << "recomputed on load" << 13;
        QTest::newRow("a member's log_normalizer changed")
            << anomaly << "parameters.member1.log_normalizer"
            << "recomputed on load" << 14;
    }

    void currentFilesAreReadStrictly()
    {
        QFETCH(QStringList, fitArgs);
        QFETCH(QString, field);
        QFETCH(QString, words);
        QFETCH(int, mutation);
        QJsonObject root = fitted(QStringLiteral("m.json"), fitArgs);
        QVERIFY(!root.isEmpty());
        QVERIFY(scoreWith(root).code == 0); // the file as written reads
        const std::vector<Mutation> mutations{
            [](QJsonObject& r) { setIn(r, "kernel", "features", QJsonValue::Undefined); },
            [](QJsonObject& r) { setIn(r, "kernel", "feature_seed", QJsonValue::Undefined); },
            [](QJsonObject& r) { setIn(r, "kernel", "lenght_scale", 0.3); },
            [](QJsonObject& r) { r["weights"] = QJsonArray{1.0}; },
            [](QJsonObject& r) { setIn(r, "settings", "kernel", "laplace"); },
            [](QJsonObject& r) {
                setIn(r, "parameters", "ensemble.combination", QJsonValue::Undefined);
            },
            [](QJsonObject& r) { setIn(r, "parameters", "member7.weights", QJsonArray{1.0}); },
            [](QJsonObject& r) {
                setIn(r, "scaler", "center", QJsonArray{0.0, 0.0});
            },
            [](QJsonObject& r) {
                QJsonArray rows = r["parameters"].toObject()["member1.train"].toArray();
                for (QJsonValueRef row : rows) {
                    QJsonArray a = row.toArray();
                    a.removeLast();
                    row = a;
                }
                setIn(r, "parameters", "member1.train", rows);
            },
            [](QJsonObject& r) {
                r.remove(QStringLiteral("log_value_units"));
                setIn(r, "kernel", "feature_seed", QJsonValue::Undefined);
            },
            [](QJsonObject& r) { setIn(r, "provenance", "purpose_asked", "bogus"); },
            [](QJsonObject& r) {
                QJsonArray w = r["parameters"].toObject()["weights"].toArray();
                w[0] = -w[0].toDouble();
                setIn(r, "parameters", "weights", w);
            },
            [](QJsonObject& r) {
                QJsonArray w = r["parameters"].toObject()["member1.weights"].toArray();
                w.removeLast();
                setIn(r, "parameters", "member1.weights", w);
            },
            [](QJsonObject& r) {
                const double v = r["parameters"].toObject()["log_normalizer"].toDouble();
                setIn(r, "parameters", "log_normalizer", v + 1.0);
            },
            [](QJsonObject& r) {
                const double v = r["parameters"].toObject()["member1.log_normalizer"].toDouble();
                setIn(r, "parameters", "member1.log_normalizer", v - 0.5);
            },
        };
        mutations[size_t(mutation)](root);
        QVERIFY(QFile::remove(path(QStringLiteral("scores.csv"))));
        const CliRun r = scoreWith(root);
        QVERIFY2(r.code == 3, qPrintable(QStringLiteral("exit %1: %2").arg(r.code).arg(r.err)));
        QVERIFY2(r.err.contains(QStringLiteral("mutated.json")), qPrintable(r.err));
        QVERIFY2(r.err.contains(field), qPrintable(r.err));
        QVERIFY2(r.err.contains(words), qPrintable(r.err));
        // One line of error (a warning about the data's label column may come before it).
        QCOMPARE(r.err.split(QLatin1Char('\n'), Qt::SkipEmptyParts)
                     .filter(QRegularExpression(QStringLiteral("^sosrep score: (?!warning: )")))
                     .size(),
                 1);
        QVERIFY(!QFileInfo::exists(path(QStringLiteral("scores.csv"))));
    }

    // A rank scaling's knots are part of the model: a file written with --scale rank scores
    // the rows exactly as the fit did, and knots that do not increase, or knots under an affine
    // scaling, are refused naming the field.
    void rankScalingKnotsRoundTrip()
    {
        const QString model = path(QStringLiteral("rank.json"));
        const QString atFit = path(QStringLiteral("rank_fit.csv"));
        const CliRun f = runSosrep({"fit", "--train", m_data, "--test", m_data, "--model-out",
                                    model, "--scores-out", atFit, "--seed", "3", "--scale", "rank",
                                    "--estimator", "kde", "--length-scale", "0.05"});
        QVERIFY2(f.code == 0, qPrintable(f.err));
        QJsonObject root = QJsonDocument::fromJson(bytesOf(model)).object();
        const QJsonObject scaler = root["scaler"].toObject();
        QCOMPARE(scaler["kind"].toString(), QStringLiteral("rank"));
        QCOMPARE(scaler["knots_x"].toArray().size(), root["columns"].toArray().size());
        QVERIFY(scoreWith(root).code == 0);
        const QStringList fitLines = readLines(atFit);
        const QStringList loadedLines = readLines(path(QStringLiteral("scores.csv")));
        QVERIFY(fitLines.size() > 100);
        QCOMPARE(loadedLines, fitLines);

        QJsonArray xs = scaler["knots_x"].toArray();
        QJsonArray first = xs[0].toArray();
        first[1] = first[0]; // not increasing
        xs[0] = first;
        setIn(root, "scaler", "knots_x", xs);
        CliRun r = scoreWith(root);
        QVERIFY2(r.code == 3 && r.err.contains(QStringLiteral("scaler.knots_x[0]")),
                 qPrintable(r.err));
        setIn(root, "scaler", "knots_x", scaler["knots_x"]);
        setIn(root, "scaler", "kind", QStringLiteral("minmax"));
        r = scoreWith(root);
        QVERIFY2(r.code == 3 && r.err.contains(QStringLiteral("belongs to a rank scaling")),
                 qPrintable(r.err));
    }

    // Numbers a fit never writes: a ratio model's support point at 1e308 gave NaN ratios, which
    // the command line floored as "ratio <= 0"; a subnormal scale makes 1/scale infinite.
    void numbersOutsideWhatAFitWritesAreRefused_data()
    {
        QTest::addColumn<QString>("golden");
        QTest::addColumn<QString>("field");
        QTest::addColumn<int>("mutation");
        QTest::newRow("a ratio model's support point at 1e308") << "fire.json"
                                                                << "parameters.support" << 0;
        QTest::newRow("a subnormal scale") << "kde_laplace.json"
                                           << "scaler.scale" << 1;
    }

    void numbersOutsideWhatAFitWritesAreRefused()
    {
        QFETCH(QString, golden);
        QFETCH(QString, field);
        QFETCH(int, mutation);
        QJsonObject root = QJsonDocument::fromJson(
                               bytesOf(QStringLiteral(SOSREP_TEST_DATA_DIR "/golden/") + golden))
                               .object();
        QVERIFY(scoreWith(root).code == 0);
        if (mutation == 0) {
            QJsonObject p = root["parameters"].toObject();
            QJsonArray support = p["support"].toArray();
            QJsonArray first = support[0].toArray();
            first[0] = 1e308;
            support[0] = first;
            p["support"] = support;
            root["parameters"] = p;
        } else {
            setIn(root, "scaler", "scale", QJsonArray{5e-324, 1.0});
        }
        const CliRun r = scoreWith(root);
        QVERIFY2(r.code == 3, qPrintable(QStringLiteral("exit %1: %2").arg(r.code).arg(r.err)));
        QVERIFY2(r.err.contains(field), qPrintable(r.err));
    }

    // A scale of 1e300 is what min-max scaling writes for a column that spans 1e300: it reads,
    // and its log densities are finite (per unit of that column). The rows scored span ~4 in
    // 'x', 4e-300 of that unit: the model cannot tell them apart in 'x', and says so (issue 52:
    // every row scored -1385.511 without a word).
    void aHugeButNormalScaleReadsWithFiniteScores()
    {
        QJsonObject root =
            QJsonDocument::fromJson(
                bytesOf(QStringLiteral(SOSREP_TEST_DATA_DIR "/golden/kde_laplace.json")))
                .object();
        setIn(root, "scaler", "scale", QJsonArray{1e300, 0.5});
        const CliRun r = scoreWith(root);
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const QStringList lines = readLines(path(QStringLiteral("scores.csv")));
        QVERIFY(lines.size() > 10);
        for (int i = 1; i < lines.size(); ++i) {
            const double logDensity = lines[i].split(QLatin1Char(','))[1].toDouble();
            QVERIFY2(std::isfinite(logDensity) && logDensity < -600, qPrintable(lines[i]));
        }
        const QString warnings = QString::fromUtf8(
            QJsonDocument(r.summary()["warnings"].toArray()).toJson(QJsonDocument::Compact));
        QVERIFY2(warnings.contains(QStringLiteral("cannot tell them apart")) &&
                     warnings.contains(QStringLiteral("in 1 column ('x' spans")),
                 qPrintable(warnings));
        QVERIFY2(r.err.contains(QStringLiteral("warning: the rows scored differ")),
                 qPrintable(r.err));
        // The file as written: no such warning.
        setIn(root, "scaler", "scale", QJsonArray{0.9035700521568755, 0.5590366274260202});
        const CliRun plain = scoreWith(root);
        QVERIFY2(plain.code == 0 && !plain.err.contains(QStringLiteral("tell them apart")),
                 qPrintable(plain.err));
    }

    // A file written before log values were in data units (version 2 without log_value_units)
    // keeps the defaults of its day (no "sdo_order": the default) and reads; a version 2 file
    // written since reads as strictly as version 3 (issue 52: a current file that lost fields
    // read as an older one, with seed 0 instead of its own).
    void olderFilesKeepTheirDefaults()
    {
        QJsonObject root =
            fitted(QStringLiteral("old.json"), {"--kernel", "sdo", "--length-scale", "0.3"});
        QCOMPARE(root["version"].toInt(), 3);
        root["version"] = 2;
        const CliRun asWritten = scoreWith(root); // version 2 since data units: read strictly
        QVERIFY2(asWritten.code == 0, qPrintable(asWritten.err));
        setIn(root, "kernel", "feature_seed", QJsonValue::Undefined);
        QCOMPARE(scoreWith(root).code, 3);
        setIn(root, "kernel", "feature_seed", QStringLiteral("3"));
        root.remove(QStringLiteral("log_value_units"));
        setIn(root, "kernel", "sdo_order", QJsonValue::Undefined);
        const CliRun r = scoreWith(root);
        QVERIFY2(r.code == 0, qPrintable(r.err));
        // Version 3 says what it must hold, whatever fields are left.
        root["version"] = 3;
        const CliRun current = scoreWith(root);
        QVERIFY2(current.code == 3 && current.err.contains(QStringLiteral("log_value_units")),
                 qPrintable(current.err));
        root["version"] = 4;
        const CliRun future = scoreWith(root);
        QVERIFY2(future.code == 3 && future.err.contains(QStringLiteral("reads 1 to 3")),
                 qPrintable(future.err));
    }
};

QTEST_GUILESS_MAIN(TstModelFields)
#include "tst_model_fields.moc"
