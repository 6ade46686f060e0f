// SPDX-License-Identifier: MIT
// Issue 11: every bad input (file or parameter) ends in one clear line with its documented exit
// code, and writes nothing: the output folder holds exactly what it held before.
#include "support/bad_input_args.h"
#include "support/cli_run.h"
#include "support/german_locale.h"
#include "support/shared_data.h"

#include <QtTest>

using bad_inputs::expand;
using bad_inputs::snapshot;

class TstBadInputs : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_data;
    QString m_train;
    QString m_test;

private slots:
    void initTestCase()
    {
        QVERIFY(m_data.isValid());
        m_train = m_data.filePath(QStringLiteral("train.csv"));
        m_test = m_data.filePath(QStringLiteral("test.csv"));
        QFile train(m_train);
        QFile test(m_test);
        QVERIFY(train.open(QIODevice::WriteOnly) && test.open(QIODevice::WriteOnly));
        train.write("a,b,label\n");
        test.write("a,b,label\n");
        for (int i = 0; i < 60; ++i) {
            const double t = i / 60.0;
            train.write(QStringLiteral("%1,%2,0\n").arg(t).arg(t * t + 0.1 * (i % 7)).toUtf8());
            test.write(QStringLiteral("%1,%2,%3\n")
                           .arg(1 - t)
                           .arg(t + 0.05 * (i % 5))
                           .arg(i % 10 == 0)
                           .toUtf8());
        }
    }

    void badInput_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("code");
        QTest::addColumn<QStringList>("words"); // each must appear in the message

        const QStringList outs{"--scores-out", "OUT/s.csv", "--model-out", "OUT/m.json"};
        auto fit = [&](const QString& train, const QStringList& more = {}) {
            return QStringList{"fit", "--train", train} + more + outs;
        };
        // Crafted .npz archives (each once crashed or misled the reader).
        QTest::newRow("npz shape product overflows")
            << fit("BAD/npz_shape_overflow.npz") << 3
            << QStringList{"npz_shape_overflow.npz", "truncated"};
        QTest::newRow("npz stored member larger than it holds")
            << fit("BAD/npz_stored_size_larger.npz") << 3 << QStringList{"stored member declares"};
        QTest::newRow("npz stored member smaller than it holds")
            << fit("BAD/npz_stored_size_smaller.npz") << 3 << QStringList{"holds 160"};
        QTest::newRow("npz file-name length past the end")
            << fit("BAD/npz_name_length_overflow.npz") << 3
            << QStringList{"file name", "beyond the end"};
        QTest::newRow("npz zip64 extra field past its end")
            << fit("BAD/npz_zip64_extra_truncated.npz") << 3 << QStringList{"zip64 extra field"};
        QTest::newRow("npz zero-size member")
            << fit("BAD/npz_zero_size_member.npz") << 3 << QStringList{"not a .npy array"};
        QTest::newRow("npz declared size 2^60")
            << fit("BAD/npz_huge_declared_size.npz") << 3 << QStringList{"limit"};
        QTest::newRow("npz shape beyond its data")
            << fit("BAD/npz_huge_shape.npz") << 3 << QStringList{"(100000000000, 100)"};
        QTest::newRow("npz not a zip")
            << fit("BAD/npz_not_a_zip.npz") << 3 << QStringList{"not a .npz"};
        QTest::newRow("npz labels not 0/1") << fit("BAD/npz_labels_not_binary.npz") << 3
                                            << QStringList{"[y]:2:1", "labels must be"};
        QTest::newRow("npz X with zero columns")
            << fit("BAD/npz_zero_columns.npz") << 3 << QStringList{"'X' is empty", "0 columns"};
        QTest::newRow("npz without X")
            << fit("BAD/npz_no_X.npz") << 3 << QStringList{"no array named 'X'"};
        QTest::newRow("npz duplicate member")
            << fit("BAD/npz_duplicate_member.npz") << 3 << QStringList{"two members"};
        // Text tables.
        QTest::newRow("csv duplicate header") << fit("BAD/csv_duplicate_header.csv") << 3
                                              << QStringList{":1:3:", "'a' appears twice"};
        QTest::newRow("csv missing value")
            << fit("BAD/csv_missing_value.csv") << 3 << QStringList{":3:2:", "missing value"};
        QTest::newRow("csv not a number")
            << fit("BAD/csv_not_a_number.csv") << 3 << QStringList{":3:2:", "'x4'"};
        QTest::newRow("csv ragged row")
            << fit("BAD/csv_ragged_row.csv") << 3 << QStringList{":3:", "fields"};
        QTest::newRow("csv header only")
            << fit("BAD/csv_header_only.csv") << 3 << QStringList{"no data rows"};
        QTest::newRow("csv empty file")
            << fit("BAD/csv_empty.csv") << 3 << QStringList{"file is empty"};
        QTest::newRow("csv unterminated quote") << fit("BAD/csv_unterminated_quote.csv") << 3
                                                << QStringList{"unterminated quoted field"};
        QTest::newRow("two rows with automatic l")
            << fit("BAD/csv_two_rows.csv") << 3
            << QStringList{"csv_two_rows.csv", "has 2 data rows"};
        QTest::newRow("range overflows (min-max)")
            << fit("BAD/csv_huge_range.csv") << 3 << QStringList{"'a'", "range overflows"};
        QTest::newRow("range overflows (no scaling)")
            << fit("BAD/csv_huge_range.csv", {"--scale", "none"}) << 3
            << QStringList{"csv_huge_range.csv", "range overflows"};
        QTest::newRow("NUL byte in a field")
            << fit("BAD/csv_nul_byte.csv") << 3 << QStringList{"'x\\x00hidden'"};
        QTest::newRow("1 MB field")
            << fit("BAD/csv_megabyte_field.csv") << 3 << QStringList{"not a number: 'zzzz", "...'"};
        QTest::newRow("label column not 0/1")
            << fit("BAD/csv_label_not_binary.csv", {"--label-column", "label"}) << 3
            << QStringList{":3:3:", "must hold 0"};
        QTest::newRow("a folder as --train") << fit("DIR") << 3 << QStringList{"is a directory"};
        QTest::newRow("missing --train file")
            << fit("OUT/none.csv") << 3 << QStringList{"none.csv", "no such file"};
        QTest::newRow("test columns named otherwise")
            << fit("TRAIN", {"--label-column", "label", "--test", "BAD/csv_other_columns.csv"}) << 3
            << QStringList{"lacks the columns 'a', 'b'", "'x', 'y' instead"};
        // Model files.
        auto score = [](const QString& model) {
            return QStringList{"score",          "--model", model,          "--data",   "TEST",
                               "--label-column", "label",   "--scores-out", "OUT/s.csv"};
        };
        QTest::newRow("model not JSON") << score("BAD/model_not_json.json") << 3
                                        << QStringList{"model_not_json.json:2:", "invalid JSON"};
        QTest::newRow("model of another format")
            << score("BAD/model_wrong_format.json") << 3 << QStringList{"not a sosrep model"};
        QTest::newRow("model scaler with zero scale")
            << score("BAD/model_zero_scale.json") << 3 << QStringList{"scaler.scale", "positive"};
        QTest::newRow("model scaler of kind auto")
            << score("BAD/model_auto_scaler.json") << 3 << QStringList{"scaler.kind", "'auto'"};
        QTest::newRow("model with 2e9 features") << score("BAD/model_huge_features.json") << 3
                                                 << QStringList{"kernel.features", "100000"};
        // Issue 23: each of these was replaced by a default, and score disagreed with fit.
        QTest::newRow("model feature_seed 'abc'") << score("BAD/model_seed_text.json") << 3
                                                  << QStringList{"kernel.feature_seed", "'abc'"};
        QTest::newRow("model feature_seed '-5'") << score("BAD/model_seed_negative.json") << 3
                                                 << QStringList{"kernel.feature_seed", "'-5'"};
        QTest::newRow("model features 1e12") << score("BAD/model_features_1e12.json") << 3
                                             << QStringList{"kernel.features", "an integer"};
        QTest::newRow("model features 2.5") << score("BAD/model_features_fraction.json") << 3
                                            << QStringList{"kernel.features", "got 2.5"};
        QTest::newRow("model features '500'") << score("BAD/model_features_text.json") << 3
                                              << QStringList{"kernel.features", "the text '500'"};
        QTest::newRow("model rank 1e12")
            << score("BAD/model_rank_1e12.json") << 3 << QStringList{"kernel.rank", "an integer"};
        QTest::newRow("model length_scale '0.5'")
            << score("BAD/model_length_scale_text.json") << 3
            << QStringList{"kernel.length_scale", "finite number"};
        QTest::newRow("model iforest subsample_used disagrees")
            << score("BAD/model_iforest_subsample.json") << 3
            << QStringList{"parameters.nodes", "subsample_used is 1"};
        QTest::newRow("model kernel type with a NUL")
            << score("BAD/model_nul_in_kernel_type.json") << 3
            << QStringList{"kernel.type", "'gaus\\x00sian'"};
        QTest::newRow("model columns x, x") << score("BAD/model_duplicate_columns.json") << 3
                                            << QStringList{"columns", "'x' twice"};
        QTest::newRow("model of an unknown estimator")
            << score("BAD/model_unknown_estimator.json") << 3 << QStringList{"magic"};
        // Parameters.
        QTest::newRow("--grid 1000000")
            << fit("TRAIN", {"--grid", "1000000"}) << 2 << QStringList{"--grid", "at most 200"};
        QTest::newRow("--features 2000000000")
            << fit("TRAIN", {"--kernel", "sdo", "--features", "2000000000"}) << 2
            << QStringList{"--features", "at most 100000"};
        QTest::newRow("--rank 10^6")
            << fit("TRAIN", {"--rank", "1000000"}) << 2 << QStringList{"--rank", "at most 20000"};
        QTest::newRow("--iterations 10^8") << fit("TRAIN", {"--iterations", "100000000"}) << 2
                                           << QStringList{"--iterations", "at most"};
        QTest::newRow("--length-scale 1e-300")
            << fit("TRAIN", {"--length-scale", "1e-300"}) << 2
            << QStringList{"--length-scale", "below 1e-8", "underflow"};
        QTest::newRow("--length-scale -1") << fit("TRAIN", {"--length-scale", "-1"}) << 2
                                           << QStringList{"--length-scale", "positive"};
        QTest::newRow("--lr nan") << fit("TRAIN", {"--solver", "natural", "--lr", "nan"}) << 2
                                  << QStringList{"--lr", "expected a number"};
        QTest::newRow("--columns a,a")
            << fit("TRAIN", {"--columns", "a,a"}) << 2 << QStringList{"--columns", "'a' twice"};
        QTest::newRow("--label-column unknown") << fit("TRAIN", {"--label-column", "nope"}) << 2
                                                << QStringList{"--label-column", "'nope'"};
        QTest::newRow("--kernel unknown")
            << fit("TRAIN", {"--kernel", "cosine"}) << 2 << QStringList{"--kernel", "'cosine'"};
        QTest::newRow("--purpose another word")
            << fit("TRAIN", {"--purpose", "ranking"}) << 2
            << QStringList{"--purpose", "'ranking'", "density or anomaly"};
        QTest::newRow("--purpose with an estimator without l")
            << fit("TRAIN", {"--estimator", "iforest", "--purpose", "anomaly"}) << 2
            << QStringList{"--purpose", "iforest", "no length scale"};
        QTest::newRow("adbench --purpose with no method that has l")
            << QStringList{"adbench",      "--data-dir",  "ADBENCH",   "--only", "wine",
                           "--estimators", "iforest,knn", "--purpose", "density"}
            << 2 << QStringList{"--purpose", "none of the methods"};
        QTest::newRow("--validation test without test rows")
            << fit("TRAIN", {"--validation", "test"}) << 2 << QStringList{"--validation", "--test"};
        QTest::newRow("--selection unknown")
            << fit("TRAIN", {"--selection", "best"}) << 2 << QStringList{"--selection", "'best'"};
        QTest::newRow("--fd-out with a fixed l")
            << fit("TRAIN", {"--length-scale", "0.2", "--fd-out", "OUT/fd.csv"}) << 2
            << QStringList{"--fd-out", "--length-scale auto"};
        QTest::newRow("diverged solver")
            << fit("TRAIN", {"--label-column", "label", "--solver", "standard", "--lr", "1e6",
                             "--length-scale", "0.5"})
            << 4 << QStringList{"diverged at iteration"};
        // Kernel SoS and MMD (issue 9).
        QTest::newRow("sos-mmd: more support points than rows")
            << fit("TRAIN", {"--estimator", "sos-mmd", "--support", "100"}) << 2
            << QStringList{"--support", "is 100", "training rows", "at most N"};
        QTest::newRow("sos-mmd: --lambda 0")
            << fit("TRAIN", {"--estimator", "sos-mmd", "--lambda", "0"}) << 2
            << QStringList{"--lambda", "positive"};
        QTest::newRow("sos-mmd: --lambda 1e10 (B fitted to zero)")
            << fit("TRAIN", {"--estimator", "sos-mmd", "--support", "20", "--lambda", "1e10"}) << 4
            << QStringList{"numerical failure", "fitted B is unusable", "--lambda"};
        QTest::newRow("sos-mmd: --length-scale 0 (sigma 0)")
            << fit("TRAIN", {"--estimator", "sos-mmd", "--length-scale", "0"}) << 2
            << QStringList{"--length-scale", "positive"};
        QTest::newRow("sos-mmd: a kernel it has no closed forms for")
            << fit("TRAIN", {"--estimator", "sos-mmd", "--kernel", "laplace"}) << 2
            << QStringList{"--kernel", "'laplace'"};
        QTest::newRow("model: sos-mmd fields that do not match")
            << score("BAD/model_sos_mmd_mismatched.json") << 3
            << QStringList{"model_sos_mmd_mismatched.json", "b_eigenvectors", "support point"};
        QTest::newRow("model: sos-mmd with a KDE's fields")
            << score("BAD/model_sos_mmd_kde_fields.json") << 3
            << QStringList{"model_sos_mmd_kde_fields.json", "parameters.support", "missing"};
        QTest::newRow("mmd: second sample with other columns")
            << QStringList{"mmd",
                           "--data",
                           "TRAIN",
                           "--label-column",
                           "label",
                           "--data2",
                           "BAD/csv_other_columns.csv"}
            << 3 << QStringList{"csv_other_columns.csv", "lacks the columns 'a', 'b'"};
        QTest::newRow("mmd: --bandwidth 0")
            << QStringList{"mmd", "--data", "TRAIN", "--data2", "TEST", "--bandwidth", "0"} << 2
            << QStringList{"--bandwidth"};
        QTest::newRow("mmd: neither a model nor a second sample")
            << QStringList{"mmd", "--data", "TRAIN"} << 2 << QStringList{"--model", "--data2"};
        QTest::newRow("mmd: models of different columns")
            << QStringList{"mmd", "--data", "TEST", "--model", "BAD/model_zero_scale.json"} << 3
            << QStringList{"scaler.scale"};
        // Output paths: checked before any work, so a typo costs nothing and replaces nothing.
        QTest::newRow("output folder missing")
            << QStringList{"fit", "--train",     "TRAIN",       "--scores-out",
                           "OLD", "--model-out", "NODIR/m.json"}
            << 2 << QStringList{"--model-out", "does not exist"};
        QTest::newRow("same path for two outputs")
            << QStringList{"fit",       "--train",     "TRAIN",    "--scores-out",
                           "OUT/x.csv", "--trace-out", "OUT/x.csv"}
            << 2 << QStringList{"--trace-out", "also given for --scores-out"};
        QTest::newRow("output is the input")
            << QStringList{"fit", "--train", "TRAIN", "--scores-out", "TRAIN"} << 2
            << QStringList{"--scores-out", "would be overwritten"};
        QTest::newRow("output is a folder")
            << QStringList{"fit", "--train", "TRAIN", "--scores-out", "DIR"} << 2
            << QStringList{"--scores-out", "is a folder"};
        QTest::newRow("split with a bad --test-out")
            << QStringList{"split",      "--data",     "TRAIN",       "--train-out",
                           "OUT/tr.csv", "--test-out", "NODIR/te.csv"}
            << 2 << QStringList{"--test-out", "does not exist"};
        QTest::newRow("split --test-fraction 1.5")
            << QStringList{"split",       "--data",     "TRAIN",      "--test-fraction", "1.5",
                           "--train-out", "OUT/tr.csv", "--test-out", "OUT/te.csv"}
            << 2 << QStringList{"--test-fraction"};
        QTest::newRow("generate --n 0")
            << QStringList{"generate", "--kind", "moons", "--n", "0", "--out", "OUT/g.csv"} << 2
            << QStringList{"--n", "at least 1"};
        QTest::newRow("adbench on a folder without .npz")
            << QStringList{"adbench", "--data-dir", "DIR", "--curves-out", "OUT/c.csv"} << 2
            << QStringList{"--data-dir", "no .npz files"};
        QTest::newRow("score: data lacks a model column")
            << QStringList{"score",
                           "--model",
                           "BAD/model_zero_scale.json",
                           "--data",
                           "BAD/csv_other_columns.csv",
                           "--scores-out",
                           "OUT/s.csv"}
            << 3 << QStringList{"scaler.scale"};

        // Density ratios (issue 10).
        auto ratio = [](const QStringList& more) {
            return QStringList{"ratio", "--p", "TRAIN", "--label-column", "label"} + more +
                   QStringList{"--weights-out", "OUT/w.csv", "--ratio-model-out",
                               "OUT/r.json",    "--j-out",   "OUT/j.csv"};
        };
        QTest::newRow("ratio: q with other columns")
            << ratio({"--q", "BAD/csv_other_columns.csv"}) << 3
            << QStringList{"csv_other_columns.csv", "b"};
        QTest::newRow("ratio: empty q sample")
            << ratio({"--q", "BAD/csv_header_only.csv"}) << 3 << QStringList{"no data rows"};
        QTest::newRow("ratio: q-function negative at a row")
            << ratio({"--q-function", "x1 - 0.5"}) << 2
            << QStringList{"--q-function", "row 1", "non-negative"};
        QTest::newRow("ratio: q-function NaN at a row")
            << ratio({"--q-function", "log(x1 - 2)"}) << 2
            << QStringList{"--q-function", "finite and non-negative"};
        // Finite at the rows, beyond a double per unit of the scaled columns: it was reported
        // against --q and "row 1 of p".
        QTest::newRow("ratio: q-function overflows once scaled")
            << ratio({"--q-function", "1.7e308"}) << 2
            << QStringList{"--q-function", "beyond a double", "divide q by a constant"};
        QTest::newRow("ratio: q-function syntax")
            << ratio({"--q-function", "exp(x1"}) << 2
            << QStringList{"--q-function", "column 7", "expected ')'"};
        QTest::newRow("ratio: q-function column beyond the data")
            << ratio({"--q-function", "x3"}) << 2
            << QStringList{"'x3' is not a column", "2 columns"};
        // Issue 23: the parser recursed once per level (SIGSEGV at ~11000 '(') and read
        // x4294967297 as x1.
        QTest::newRow("ratio: q-function nested 11000 deep")
            << ratio({"--q-function",
                      QString(11000, QLatin1Char('(')) + "x1" + QString(11000, QLatin1Char(')'))})
            << 2 << QStringList{"--q-function", "column 201", "nested more than 200 levels"};
        QTest::newRow("ratio: q-function of 70000 minus signs")
            << ratio({"--q-function", QString(70000, QLatin1Char('-')) + "x1"}) << 2
            << QStringList{"--q-function", "nested more than 200 levels"};
        QTest::newRow("ratio: q-function column 2^32 + 1")
            << ratio({"--q-function", "x4294967297"}) << 2
            << QStringList{"--q-function", "'x4294967297' is not a column"};
        QTest::newRow("ratio: q-function non-ASCII")
            << ratio({"--q-function", QStringLiteral("x1 * \u00e9")}) << 2
            << QStringList{"column 6", QStringLiteral("unexpected '\u00e9'")};
        QTest::newRow("ratio: --regress names a column that does not exist")
            << ratio({"--q", "TEST", "--regress", "zzz"}) << 2
            << QStringList{"sosrep ratio: --regress: no column named 'zzz'"};
        QTest::newRow("ratio: q is zero everywhere")
            << ratio({"--q-function", "0 * x1"}) << 2
            << QStringList{"--q-function", "q is zero at every row"};
        QTest::newRow("fit: an unknown flag")
            << fit("TRAIN", {"--bogus"}) << 2
            << QStringList{"sosrep fit: Unknown option 'bogus'", "see 'sosrep fit --help'"};
        QTest::newRow("ratio: q-model is a normality score")
            << ratio({"--q-model", "BAD/model_iforest_score.json"}) << 2
            << QStringList{"--q-model", "normality score (iforest), not a density"};
        QTest::newRow("mmd: model is a normality score")
            << QStringList{"mmd",
                           "--data",
                           "TEST",
                           "--label-column",
                           "label",
                           "--model",
                           "BAD/model_iforest_score.json"}
            << 2 << QStringList{"--model", "normality score (iforest), not a density"};
        QTest::newRow("ratio: t 1e-300 (uLSIF)")
            << ratio({"--q", "TEST", "--estimator", "ulsif", "--t", "1e-300"}) << 2
            << QStringList{"--t", "below 1e-8", "underflow"};
        QTest::newRow("ratio: t 1e-300 (TIKDE)")
            << ratio({"--q", "TEST", "--estimator", "tikde", "--t", "1e-300"}) << 2
            << QStringList{"--t", "below 1e-8", "underflow"};
        QTest::newRow("ratio: t 1e-300 and lambda given (FIRE)")
            << QStringList{"ratio", "--p",           "TRAIN",    "--label-column", "label",
                           "--q",   "TEST",          "--t",      "1e-300",         "--lambda",
                           "0.001", "--weights-out", "OUT/w.csv"}
            << 2 << QStringList{"--t", "below 1e-8", "underflow"};
        QTest::newRow("ratio: t 0")
            << ratio({"--q", "TEST", "--t", "0"}) << 2 << QStringList{"--t"};
        QTest::newRow("ratio: lambda -1")
            << ratio({"--q", "TEST", "--lambda", "-1"}) << 2 << QStringList{"--lambda"};
        QTest::newRow("ratio: folds beyond the rows")
            << ratio({"--q", "TEST", "--folds", "100"}) << 2
            << QStringList{"--folds", "100 folds exceed the 60 rows"};
        QTest::newRow("ratio: no q") << ratio({}) << 2 << QStringList{"--q", "give a sample"};
        QTest::newRow("ratio: two q sources")
            << ratio({"--q", "TEST", "--inverse"}) << 2 << QStringList{"only one of"};
        QTest::newRow("ratio: --type 1 with a function")
            << ratio({"--q-function", "1", "--type", "1"}) << 2
            << QStringList{"--type", "sample of q"};
        QTest::newRow("ratio: mixed loss without a q sample")
            << ratio({"--q-function", "1", "--loss", "mixed"}) << 2
            << QStringList{"--loss", "Type I"};
        QTest::newRow("ratio: a density estimator")
            << ratio({"--q", "TEST", "--estimator", "kde"}) << 2
            << QStringList{"--estimator", "estimates a density"};
        QTest::newRow("fit: a ratio estimator") << fit("TRAIN", {"--estimator", "fire"}) << 2
                                                << QStringList{"--estimator", "sosrep ratio"};
        QTest::newRow("ratio: --j-out without tuning")
            << ratio({"--q", "TEST", "--estimator", "sosrep-ratio"}) << 2
            << QStringList{"--j-out", "tunes nothing"};
        // sosrep adbench's method list, families and outputs (issue 13): refused before any run.
        auto adbench = [](const QStringList& more) {
            return QStringList{"adbench", "--data-dir",  "ADBENCH",  "--only",
                               "wine",    "--table-out", "OUT/t.csv"} +
                   more;
        };
        QTest::newRow("adbench: option without a value")
            << adbench({"--estimators", "sosrep:paper"}) << 2
            << QStringList{"--estimators", "'paper'", "OPTION=VALUE"};
        QTest::newRow("adbench: unknown option of a method")
            << adbench({"--estimators", "knn:depth=3"}) << 2 << QStringList{"--estimators", "knn"};
        QTest::newRow("adbench: unknown estimator")
            << adbench({"--estimators", "sosrep,loff"}) << 2 << QStringList{"loff"};
        QTest::newRow("adbench: a method named twice")
            << adbench({"--estimators", "knn,knn"}) << 2 << QStringList{"twice"};
        // Issue 52: --lodo '' was ignored; bw_adjust 1e308 fitted nothing and exited 0 in
        // adbench, and fit blamed --length-scale.
        QTest::newRow("adbench: --lodo ''") << adbench({"--estimators", "sosrep,knn", "--lodo", ""})
                                            << 2 << QStringList{"--lodo", "is empty"};
        QTest::newRow("adbench: bw_adjust 1e308")
            << adbench({"--estimators", "sosrep:bw_adjust=1e308"}) << 2
            << QStringList{"--bw-adjust", "1e+308 times the length scale", "is refused"};
        QTest::newRow("fit: --bw-adjust 1e308")
            << QStringList{"fit",         "--train", "TRAIN",        "--label-column", "label",
                           "--bw-adjust", "1e308",   "--scores-out", "OUT/s.csv"}
            << 2 << QStringList{"--bw-adjust", "times the length scale"};
        QTest::newRow("adbench: --lodo names no method")
            << adbench({"--estimators", "sosrep,knn", "--lodo", "sosrep;kde"}) << 2
            << QStringList{"--lodo", "'kde'"};
        QTest::newRow("adbench: --lodo with one candidate")
            << adbench({"--estimators", "sosrep,knn", "--lodo", "sosrep"}) << 2
            << QStringList{"--lodo", "two candidate"};
        QTest::newRow("adbench: --lodo names a method twice")
            << adbench({"--estimators", "sosrep,knn", "--lodo", "sosrep;knn;sosrep"}) << 2
            << QStringList{"--lodo", "'sosrep' twice"};
        QTest::newRow("adbench: --lodo over one dataset")
            << adbench({"--estimators", "sosrep,knn", "--lodo", "sosrep;knn"}) << 2
            << QStringList{"--lodo", "two datasets", "select 1"};
        QTest::newRow("adbench: a fit option no method has")
            << adbench({"--estimators", "knn,kde", "--trees", "50"}) << 2
            << QStringList{"--trees", "none of the --estimators methods"};
        QTest::newRow("adbench: --estimator beside --estimators")
            << adbench({"--estimators", "knn", "--estimator", "kde"}) << 2
            << QStringList{"--estimator", "not both"};
        QTest::newRow("adbench: --external-scores names a file")
            << adbench({"--estimators", "knn", "--external-scores", "TRAIN"}) << 2
            << QStringList{"--external-scores", "is a file", "folder"};
        QTest::newRow("adbench: --external-scores without a dataset's file")
            << adbench({"--estimators", "knn", "--external-scores", "OUT/"}) << 2
            << QStringList{"--external-scores", "has no 45_wine_seed42.csv"};
        QTest::newRow("adbench: --resume without a table")
            << QStringList{"adbench", "--data-dir", "ADBENCH", "--resume"} << 2
            << QStringList{"--resume", "--table-out"};
        QTest::newRow("adbench: duplicated anomalies below 1")
            << adbench({"--duplicate-anomalies", "0.5"}) << 2
            << QStringList{"--duplicate-anomalies"};
        QTest::newRow("adbench: figure of an unknown type")
            << adbench({"--plot-out", "OUT/f.bmp"}) << 2
            << QStringList{"--plot-out", "unknown figure type"};
        QTest::newRow("adbench: figure without a renderer")
            << adbench({"--plot-out", "OUT/f.png"}) << 2
            << QStringList{"--plot-out", "without Qt Widgets"};
        QTest::newRow("adbench: --export-splits folder missing")
            << adbench({"--export-splits", "NODIR/x"}) << 2
            << QStringList{"--export-splits", "no such folder"};
        QTest::newRow("adbench: --external-scores folder missing")
            << adbench({"--external-scores", "NODIR/x"}) << 2
            << QStringList{"--external-scores", "no such folder"};
        // sosrep experiment negativity.
        auto negativity = [](const QStringList& more) {
            return QStringList{"experiment", "negativity", "--data",
                               "TRAIN",      "--csv-out",  "OUT/n.csv"} +
                   more;
        };
        QTest::newRow("experiment: no name")
            << QStringList{"experiment"} << 2 << QStringList{"name the experiment"};
        QTest::newRow("experiment: unknown name")
            << QStringList{"experiment", "negativty"} << 2 << QStringList{"'negativty'"};
        QTest::newRow("experiment: no data")
            << QStringList{"experiment", "negativity"} << 2 << QStringList{"--data"};
        QTest::newRow("experiment: worst beyond the initialisations")
            << negativity({"--initializations", "4", "--worst", "5"}) << 2
            << QStringList{"--worst", "must be at most 4 (at most --initializations)"};
        QTest::newRow("experiment: length scale 0")
            << negativity({"--length-scale", "0"}) << 2
            << QStringList{"--length-scale", "must be positive"};
        QTest::newRow("experiment: length scale and factor")
            << negativity({"--length-scale", "0.2", "--length-scale-factor", "0.5"}) << 2
            << QStringList{"--length-scale", "not both"};
        QTest::newRow("experiment: learning rate 0")
            << negativity({"--learning-rate", "0"}) << 2 << QStringList{"--learning-rate"};
        QTest::newRow("experiment: unknown kernel")
            << negativity({"--kernel", "cauchy"}) << 2 << QStringList{"kernel", "cauchy"};
        QTest::newRow("experiment: one row")
            << negativity({"--max-rows", "1"}) << 2 << QStringList{"--max-rows"};
        QTest::newRow("experiment: missing data file")
            << QStringList{"experiment", "negativity", "--data", "NODIR/x.csv"} << 3
            << QStringList{"x.csv"};
    }

    void expandReadsEachTokenOnce()
    {
        // Regression: the placeholders were replaced one after the other, so an output folder
        // whose random name held "OLD" (tst_bad_inputs-UyOLDo) was rewritten by the next one.
        const QString dir = QStringLiteral("/tmp/x-UyOLDoTESTBAD/");
        const QStringList got = expand({QStringLiteral("OUT/s.csv"), QStringLiteral("OLD"),
                                        QStringLiteral("DIR"), QStringLiteral("--a=TRAIN,TEST")},
                                       QStringLiteral("tr.csv"), QStringLiteral("te.csv"), dir);
        QCOMPARE(got, (QStringList{dir + QStringLiteral("/s.csv"), dir + QStringLiteral("/old.csv"),
                                   dir, QStringLiteral("--a=tr.csv,te.csv")}));
    }

    void badInput()
    {
        QFETCH(QStringList, args);
        QFETCH(int, code);
        QFETCH(QStringList, words);
        QTemporaryDir out;
        QVERIFY(out.isValid());
        {
            QFile old(out.filePath(QStringLiteral("old.csv")));
            QVERIFY(old.open(QIODevice::WriteOnly));
            old.write("OLD\n");
        }
        const QMap<QString, QByteArray> before = snapshot(out.path());
        const CliRun r = runSosrep(expand(args, m_train, m_test, out.path()));
        QVERIFY2(r.code == code, qPrintable(QStringLiteral("exit %1: %2").arg(r.code).arg(r.err)));
        const QString message = r.err.trimmed().split(QLatin1Char('\n')).last();
        for (const QString& w : words) {
            QVERIFY2(message.contains(w),
                     qPrintable(QStringLiteral("'%1' not in: %2").arg(w, message)));
        }
        QVERIFY2(message.size() < 700, "the message is one short line");
        QVERIFY(!message.contains(QChar(0)));
        QCOMPARE(snapshot(out.path()), before); // nothing written, nothing replaced, no temp file
    }

    // Issue 23: under a German session `0.5` in an expression was refused and `0,5` read as a
    // half (strtod follows LC_NUMERIC), and messages printed "-2,000000".
    void numbersAreCLocaleUnderAGermanSession()
    {
        GermanNumbers german;
        QVERIFY2(german.error().empty(), german.error().c_str());
        QTemporaryDir out;
        const QString weights = out.filePath(QStringLiteral("w.csv"));
        const QStringList ratio{"ratio", "--p",      m_train, "--label-column", "label", "--t",
                                "0.05",  "--lambda", "0.001", "--weights-out",  weights};
        const CliRun half = runSosrep(ratio + QStringList{"--q-function", "0.5 + x1"});
        QVERIFY2(half.code == 0, qPrintable(half.err));
        QVERIFY(german.activate());
        const CliRun comma = runSosrep(ratio + QStringList{"--q-function", "0,5 + x1"});
        QCOMPARE(comma.code, 2);
        QVERIFY2(comma.err.contains(QStringLiteral("column 2: unexpected ','")),
                 qPrintable(comma.err));
        QVERIFY(german.activate());
        const CliRun tiny = runSosrep(
            {"fit", "--train", m_train, "--label-column", "label", "--length-scale", "1e-300"});
        QCOMPARE(tiny.code, 2);
        QVERIFY2(tiny.err.contains(QStringLiteral("use at least ")), qPrintable(tiny.err));
        QVERIFY2(!tiny.err.contains(QRegularExpression(QStringLiteral("\\d,\\d"))),
                 qPrintable(tiny.err));
    }

    // Issue 23: with --t given only lambda is tuned, yet the warning said "the tuned t is at
    // the edge of its grid" (a one-point grid is all edge).
    void aGivenTIsNotCalledTuned()
    {
        QTemporaryDir out;
        const CliRun r =
            runSosrep({"ratio", "--p", m_train, "--label-column", "label", "--q", m_test, "--t",
                       "0.05", "--weights-out", out.filePath(QStringLiteral("w.csv"))});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY2(!r.err.contains(QStringLiteral("tuned t")), qPrintable(r.err));
    }

    // Issue 52: uLSIF at t = 1e-7 gave an ESS of 1 of 300 rows and a mean weight of 6e-34
    // with exit 0 and no word; at an ordinary t the weights carry no such warning.
    void aLowEffectiveSampleSizeIsSaid()
    {
        QTemporaryDir out;
        const QStringList ratio{"ratio",
                                "--p",
                                m_train,
                                "--label-column",
                                "label",
                                "--q",
                                m_test,
                                "--estimator",
                                "ulsif",
                                "--weights-out",
                                out.filePath(QStringLiteral("w.csv"))};
        for (const char* t : {"1e-7", "0.05"}) {
            const CliRun r = runSosrep(ratio + QStringList{"--t", QLatin1String(t)});
            QVERIFY2(r.code == 0, qPrintable(r.err));
            const QJsonObject summary = r.summary();
            const bool low = summary[QStringLiteral("weight_ess_fraction")].toDouble() < 0.05;
            QCOMPARE(low, QLatin1String(t) == QLatin1String("1e-7"));
            const bool said = r.err.contains(QStringLiteral("effective sample size"));
            QVERIFY2(said == low, qPrintable(r.err));
            const bool listed = summary[QStringLiteral("warnings")]
                                    .toVariant()
                                    .toStringList()
                                    .join(QLatin1Char('\n'))
                                    .contains(QStringLiteral("below 5 %"));
            QCOMPARE(listed, low);
        }
    }

    // Issue 23: an exported _test.csv given as a score file had its label column ranked as a
    // method (AUC 1).
    void anExportedSplitIsNotAScoreFile()
    {
        QTemporaryDir out;
        const QString splits = out.filePath(QStringLiteral("splits"));
        const QString external = out.filePath(QStringLiteral("external"));
        QVERIFY(QDir().mkpath(splits) && QDir().mkpath(external));
        const QStringList run = expand({"adbench", "--data-dir", "ADBENCH", "--only", "wine",
                                        "--seeds", "42", "--estimators", "knn"},
                                       m_train, m_test, out.path());
        const CliRun exported = runSosrep(run + QStringList{"--export-splits", splits});
        QVERIFY2(exported.code == 0, qPrintable(exported.err));
        QVERIFY(QFile::copy(splits + QStringLiteral("/45_wine_seed42_test.csv"),
                            external + QStringLiteral("/45_wine_seed42.csv")));
        const CliRun r = runSosrep(run + QStringList{"--external-scores", external});
        QCOMPARE(r.code, 3);
        QVERIFY2(r.err.contains(QStringLiteral("holds the test labels")), qPrintable(r.err));
    }

    // A failure after the computation (here: an output that cannot be created at commit time)
    // also leaves every old file as it was.
    void failedCommitReplacesNothing()
    {
        QTemporaryDir out;
        const QString scores = out.filePath(QStringLiteral("s.csv"));
        const QString lockedDir = out.filePath(QStringLiteral("locked"));
        QVERIFY(QDir(out.path()).mkdir(QStringLiteral("locked")));
        {
            QFile f(scores);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("OLD\n");
        }
        // A read-only folder is refused up front (root may write anyway: then it succeeds).
        QFile::setPermissions(lockedDir, QFile::ReadOwner | QFile::ExeOwner);
        const CliRun r =
            runSosrep({"fit", "--train", m_train, "--length-scale", "0.2", "--scores-out", scores,
                       "--model-out", lockedDir + QStringLiteral("/m.json")});
        QFile::setPermissions(lockedDir, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        if (r.code != 0) {
            QCOMPARE(r.code, 2);
            QVERIFY(r.err.contains(QStringLiteral("--model-out")));
            QCOMPARE(readLines(scores), QStringList{QStringLiteral("OLD")});
        }
    }

    // No command that succeeds writes NaN or infinity anywhere: scores, traces, curves, models
    // and the summary, over kernels, estimators and extreme but valid settings.
    void successfulRuns_writeNoNanOrInf_data()
    {
        QTest::addColumn<QStringList>("args");
        const QStringList all{"--scores-out", "OUT/s.csv",   "--trace-out",
                              "OUT/t.csv",    "--model-out", "OUT/m.json"};
        QTest::newRow("defaults with curve")
            << QStringList{"fit",   "--train",  "TRAIN",     "--test", "TEST", "--label-column",
                           "label", "--fd-out", "OUT/fd.csv"} +
                   all;
        QTest::newRow("natural vs standard, standard diverging")
            << QStringList{"fit",   "--train",  "TRAIN", "--test", "TEST", "--label-column",
                           "label", "--solver", "both",  "--lr",   "0.45", "--length-scale",
                           "0.01"} +
                   all;
        QTest::newRow("tiny length scale")
            << QStringList{"fit",   "--train",        "TRAIN", "--test", "TEST", "--label-column",
                           "label", "--length-scale", "1e-6"} +
                   all;
        QTest::newRow("huge length scale")
            << QStringList{"fit",   "--train",        "TRAIN", "--test", "TEST", "--label-column",
                           "label", "--length-scale", "1e6"} +
                   all;
        QTest::newRow("sdo random features")
            << QStringList{"fit",       "--train",  "TRAIN", "--test",     "TEST", "--label-column",
                           "label",     "--kernel", "sdo",   "--features", "300",  "--fd-out",
                           "OUT/fd.csv"} +
                   all;
        QTest::newRow("laplace kde")
            << QStringList{"fit",       "--train",        "TRAIN", "--test",
                           "TEST",      "--label-column", "label", "--kernel",
                           "laplace",   "--estimator",    "kde",   "--fd-out",
                           "OUT/fd.csv"} +
                   all;
    }

    void successfulRuns_writeNoNanOrInf()
    {
        QFETCH(QStringList, args);
        QTemporaryDir out;
        const CliRun r = runSosrep(expand(args, m_train, m_test, out.path()));
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const QRegularExpression nonFinite(QStringLiteral("\\b(nan|inf|infinity)\\b"),
                                           QRegularExpression::CaseInsensitiveOption);
        QVERIFY2(!nonFinite.match(r.out).hasMatch(), qPrintable(r.out));
        QVERIFY(!r.out.contains(QStringLiteral("null")));
        const QDir d(out.path());
        const QStringList files = d.entryList(QDir::Files);
        QVERIFY(files.size() >= 3);
        for (const QString& name : files) {
            QFile f(d.filePath(name));
            QVERIFY(f.open(QIODevice::ReadOnly));
            const QString text = QString::fromUtf8(f.readAll());
            const auto m = nonFinite.match(text);
            QVERIFY2(!m.hasMatch(), qPrintable(name + QStringLiteral(": ") + m.captured(0)));
            QVERIFY2(!text.contains(QStringLiteral("null")), qPrintable(name));
        }
    }
};

QTEST_GUILESS_MAIN(TstBadInputs)
#include "tst_bad_inputs.moc"
