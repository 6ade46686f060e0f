// SPDX-License-Identifier: MIT
// Tests of `sosrep` end to end: commands, outputs and exit codes.
#include "app/cli/cli_runner.h"
#include "core/data/csv_reader.h"
#include "core/data/scaler.h"
#include "core/tuning/length_scale_rules.h"
#include "support/adbench_record.h"
#include "support/cli_run.h"
#include "support/shared_data.h"

#include "core/random.h"
#include <QJsonArray>

#include <QJsonArray>
#include <QtTest>

using namespace sosrep::cli;

using Run = CliRun;

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
        // Uniform anomalies around a GMM. fit tunes for the density by default, on the
        // training rows alone, and says so.
        QVERIFY(s[QStringLiteral("auc_roc")].toDouble() > 0.9);
        QCOMPARE(s[QStringLiteral("purpose")].toString(), QStringLiteral("density"));
        QCOMPARE(s[QStringLiteral("selection_rule")].toString(), QStringLiteral("density"));
        // 300 training rows: below 2000 the tuning validates on 5 folds (every row once).
        QCOMPARE(s[QStringLiteral("fd_validation")].toString(), QStringLiteral("5-fold"));
        QCOMPARE(s[QStringLiteral("fd_folds")].toInt(), 5);
        QVERIFY(s[QStringLiteral("selection")].toString().startsWith(
            QStringLiteral("stable_local_minimum")));
        // The former default (ranking) takes the grid point nearest twice the paper's choice.
        const Run paper =
            runSosrep({"fit", "--train", path("train.csv"), "--test", path("test.csv"),
                       "--label-column", "label", "--selection", "paper"});
        const Run ranking =
            runSosrep({"fit", "--train", path("train.csv"), "--test", path("test.csv"),
                       "--label-column", "label", "--selection", "ranking"});
        QVERIFY2(paper.code == 0 && ranking.code == 0, qPrintable(paper.err + ranking.err));
        QVERIFY(paper.summary()[QStringLiteral("auc_roc")].toDouble() > 0.9);
        QCOMPARE(ranking.summary()[QStringLiteral("selection")].toString(),
                 QStringLiteral("stable_local_minimum_doubled"));
        QVERIFY(std::abs(ranking.summary()[QStringLiteral("length_scale")].toDouble() /
                             paper.summary()[QStringLiteral("length_scale")].toDouble() -
                         2.0) < 0.1); // the grid point nearest 2 l_FD (grid ratio 1.93)
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
        QCOMPARE(fd.first(), QStringLiteral("length_scale,fisher_divergence,selected,status,"
                                            "invalid_points,point"));
        // The 15 grid points, the two refinement midpoints of the density rule, and any grid
        // points added below the lower edge.
        QCOMPARE(fd.filter(QStringLiteral(",grid")).size(), 15);
        QCOMPARE(fd.filter(QStringLiteral(",refinement")).size(), 2);
        QCOMPARE(fd.size(), 1 + 17 + fd.filter(QStringLiteral(",below-grid")).size());
        QCOMPARE(fd.filter(QRegularExpression(QStringLiteral(",1,[a-z_]+,\\d+,[a-z-]+$"))).size(),
                 1);

        // The saved model scores the same rows to the same values.
        const Run sc =
            runSosrep({"score", "--model", path("model.json"), "--data", path("test.csv"),
                       "--label-column", "label", "--scores-out", path("scores2.csv")});
        QVERIFY2(sc.code == 0, qPrintable(sc.err));
        QCOMPARE(readLines(path("scores2.csv")), readLines(path("scores.csv")));
        QCOMPARE(sc.summary()[QStringLiteral("auc_roc")].toDouble(),
                 s[QStringLiteral("auc_roc")].toDouble());
    }

    void fit_rankEnsembleModelScoresTheSameFromItsFile()
    {
        const Run r = runSosrep({"fit", "--train", path("train.csv"), "--test", path("test.csv"),
                                 "--label-column", "label", "--selection", "ensemble",
                                 "--validation", "test", "--scores-out", path("ens_scores.csv"),
                                 "--model-out", path("ens_model.json")});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const QJsonObject s = r.summary();
        QCOMPARE(s[QStringLiteral("selection")].toString(),
                 QStringLiteral("stable_local_minimum_ensemble"));
        QCOMPARE(s[QStringLiteral("ensemble_members")].toInt(), 3);
        QVERIFY(s[QStringLiteral("ensemble_min_spearman")].toDouble() > 0.0);
        QVERIFY(s[QStringLiteral("auc_roc")].toDouble() > 0.85);
        const QStringList scores = readLines(path("ens_scores.csv"));
        QCOMPARE(scores.first(), QStringLiteral("row,normality,anomaly_score,label"));
        // Ranked against the test rows themselves: mean rank is exactly 1/2.
        double mean = 0;
        for (int i = 1; i < scores.size(); ++i) {
            mean += scores[i].split(',')[1].toDouble() / (scores.size() - 1);
        }
        QVERIFY(std::abs(mean - 0.5) < 1e-9);
        const Run sc =
            runSosrep({"score", "--model", path("ens_model.json"), "--data", path("test.csv"),
                       "--label-column", "label", "--scores-out", path("ens_scores2.csv")});
        QVERIFY2(sc.code == 0, qPrintable(sc.err));
        QCOMPARE(readLines(path("ens_scores2.csv")), scores);
        // One row alone gets the score it got among all the rows.
        const QStringList test = readLines(path("test.csv"));
        QVERIFY(writeText(path("one_row.csv"), test[0] + '\n' + test[5] + '\n'));
        const Run one =
            runSosrep({"score", "--model", path("ens_model.json"), "--data", path("one_row.csv"),
                       "--label-column", "label", "--scores-out", path("one_score.csv")});
        QVERIFY2(one.code == 0, qPrintable(one.err));
        QCOMPARE(readLines(path("one_score.csv"))[1].section(',', 1), scores[5].section(',', 1));
    }

    void fit_comparisonDetectorsThroughTheFitRoute()
    {
        for (const char* name : {"iforest", "knn"}) {
            const Run r = runSosrep({"fit", "--train", path("train.csv"), "--test",
                                     path("test.csv"), "--label-column", "label", "--estimator",
                                     name, "--seed", "5", "--scores-out", path("det_scores.csv"),
                                     "--model-out", path("det_model.json")});
            QVERIFY2(r.code == 0, qPrintable(r.err));
            QVERIFY2(r.summary()[QStringLiteral("auc_roc")].toDouble() > 0.85, name);
            const Run sc =
                runSosrep({"score", "--model", path("det_model.json"), "--data", path("test.csv"),
                           "--label-column", "label", "--scores-out", path("det_scores2.csv")});
            QVERIFY2(sc.code == 0, qPrintable(sc.err));
            QCOMPARE(readLines(path("det_scores2.csv")), readLines(path("det_scores.csv")));
        }
    }

    void fit_kernelSosThenMmdAgainstDataAndModels()
    {
        const Run f =
            runSosrep({"fit", "--train", path("train.csv"), "--label-column", "label",
                       "--estimator", "sos-mmd", "--support", "40", "--length-scale", "0.15",
                       "--trace-out", path("sos_trace.csv"), "--model-out", path("sos.json")});
        QVERIFY2(f.code == 0, qPrintable(f.err));
        const QJsonObject s = f.summary();
        QCOMPARE(s[QStringLiteral("solver")].toString(), QStringLiteral("fista"));
        QCOMPARE(s[QStringLiteral("support_points")].toInt(), 40);
        QVERIFY(std::abs(s[QStringLiteral("trace_bw")].toDouble() - 1.0) < 1e-9);
        QVERIFY(s[QStringLiteral("rank_b")].toInt() >= 1);
        QVERIFY(s[QStringLiteral("mmd2_projected")].toDouble() > 0.0);
        QVERIFY(std::abs(s[QStringLiteral("sigma")].toDouble() - 0.15 * std::sqrt(2.0)) < 1e-12);
        const QStringList trace = readLines(path("sos_trace.csv"));
        QCOMPARE(trace.first(), QStringLiteral("solver,iteration,loss,mmd2,relative_change"));
        QVERIFY(trace.size() > 3);
        const Run k = runSosrep({"fit", "--train", path("train.csv"), "--label-column", "label",
                                 "--estimator", "kde", "--length-scale", "0.1", "--model-out",
                                 path("kde.json")});
        QVERIFY2(k.code == 0, qPrintable(k.err));

        const Run m = runSosrep({"mmd", "--data", path("test.csv"), "--label-column", "label",
                                 "--model", path("sos.json"), "--model", path("kde.json")});
        QVERIFY2(m.code == 0, qPrintable(m.err));
        const QJsonObject ms = m.summary();
        QCOMPARE(ms[QStringLiteral("bandwidth_rule")].toString(), QStringLiteral("median"));
        const QJsonArray rows = ms[QStringLiteral("results")].toArray();
        QCOMPARE(rows.size(), 3); // data-sos, data-kde, sos-kde
        for (const QJsonValue& r : rows) {
            QCOMPARE(r.toObject()[QStringLiteral("method")].toString(),
                     QStringLiteral("closed-form"));
            QVERIFY(r.toObject()[QStringLiteral("mmd2")].toDouble() > 0.0);
        }
        // The human-readable lines come first, one per pair.
        QVERIFY(m.out.contains(QStringLiteral("MMD^2(data, model 1 (sos-mmd))")));

        const Run two = runSosrep({"mmd", "--data", path("train.csv"), "--data2", path("test.csv"),
                                   "--label-column", "label", "--bandwidth", "0.2"});
        QVERIFY2(two.code == 0, qPrintable(two.err));
        const QJsonObject ts = two.summary();
        QCOMPARE(ts[QStringLiteral("bandwidth")].toDouble(), 0.2);
        QVERIFY(ts[QStringLiteral("mmd2_v")].toDouble() > ts[QStringLiteral("mmd2_u")].toDouble());
    }

    // Issue 10: `sosrep ratio` end to end, Type I and Type II, with every output.
    void ratio_writesWeightsSurfaceAndAModelThatScoresTheSame()
    {
        const Run r = runSosrep({"ratio", "--p", path("train.csv"), "--q", path("test.csv"),
                                 "--label-column", "label", "--weights-out", path("w.csv"),
                                 "--j-out", path("j.csv"), "--ratio-model-out", path("r.json")});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const QJsonObject s = r.summary();
        QCOMPARE(s[QStringLiteral("estimator")].toString(), QStringLiteral("fire"));
        QCOMPARE(s[QStringLiteral("ratio_type")].toInt(), 1);
        QCOMPARE(s[QStringLiteral("tuning_criterion")].toString(), QStringLiteral("J"));
        for (const char* key : {"t", "lambda", "weight_mean", "weight_ess", "chi2_plugin",
                                "weight_negative_share", "t0", "seconds"}) {
            QVERIFY2(s[QLatin1String(key)].isDouble(), key);
        }
        const QStringList w = readLines(path("w.csv"));
        QCOMPARE(w.first(), QStringLiteral("row,weight_raw,weight_clipped,weight_renormalized"));
        QCOMPARE(w.size(), 301);
        const QStringList j = readLines(path("j.csv"));
        QCOMPARE(j.first(), QStringLiteral("t,lambda,criterion,value,selected"));
        QCOMPARE(j.size(), 61);
        QCOMPARE(j.filter(QRegularExpression(QStringLiteral(",1$"))).size(), 1);
        // The model scores the p rows to the logs of the weights.
        const Run sc = runSosrep({"score", "--model", path("r.json"), "--data", path("train.csv"),
                                  "--label-column", "label", "--scores-out", path("rs.csv")});
        QVERIFY2(sc.code == 0, qPrintable(sc.err));
        const QStringList scores = readLines(path("rs.csv"));
        QCOMPARE(scores.first(), QStringLiteral("row,log_ratio,anomaly_score,label"));
        int compared = 0;
        for (int i = 1; i < w.size(); ++i) {
            const double weight = w[i].split(QLatin1Char(','))[1].toDouble();
            if (weight > 1e-6) {
                const double back = std::exp(scores[i].split(QLatin1Char(','))[1].toDouble());
                QVERIFY(std::abs(back - weight) < 1e-9 * weight);
                ++compared;
            }
        }
        QVERIFY(compared > 100);

        // Type II: q as an expression, and as a saved density model.
        const Run two = runSosrep({"ratio", "--p", path("train.csv"), "--label-column", "label",
                                   "--q-function", "exp(-(x1^2 + x2^2) / 2) / (2 * pi)"});
        QVERIFY2(two.code == 0, qPrintable(two.err));
        QCOMPARE(two.summary()[QStringLiteral("tuning_criterion")].toString(),
                 QStringLiteral("residual"));
        const Run kde =
            runSosrep({"fit", "--train", path("test.csv"), "--label-column", "label", "--estimator",
                       "kde", "--length-scale", "0.1", "--model-out", path("q.json")});
        QVERIFY2(kde.code == 0, qPrintable(kde.err));
        const Run model = runSosrep({"ratio", "--p", path("train.csv"), "--label-column", "label",
                                     "--q-model", path("q.json"), "--t", "0.01"});
        QVERIFY2(model.code == 0, qPrintable(model.err));
        QCOMPARE(model.summary()[QStringLiteral("q_source")].toString(),
                 QStringLiteral("--q-model"));
        const Run inverse = runSosrep({"ratio", "--p", path("train.csv"), "--label-column", "label",
                                       "--inverse", "--t", "0.01", "--lambda", "1e-6"});
        QVERIFY2(inverse.code == 0, qPrintable(inverse.err));
        QVERIFY(inverse.err.contains(QStringLiteral("bounded support")));
        // The baselines through the same command.
        for (const char* e : {"ulsif", "tikde", "sosrep-ratio"}) {
            const Run b = runSosrep({"ratio", "--p", path("train.csv"), "--q", path("test.csv"),
                                     "--label-column", "label", "--estimator", e});
            QVERIFY2(b.code == 0, qPrintable(b.err));
            QCOMPARE(b.summary()[QStringLiteral("estimator")].toString(), QLatin1String(e));
        }
    }

    // Digest T11: covariate shift. A line fitted to y = sin x on p = N(0, 1) and judged on
    // q = N(1.5, 0.5^2): importance weighting cuts the error on q (measured 0.087 -> 0.045);
    // with a well-specified line it changes nothing (0.0089 both) and keeps the slope.
    void ratio_weightedLeastSquaresUnderCovariateShift()
    {
        for (const bool linear : {false, true}) {
            sosrep::Rng rng(linear ? 11 : 5);
            auto write = [&](const char* name, int n, double mean, double sd) {
                QFile f(path(name));
                QVERIFY(f.open(QIODevice::WriteOnly));
                f.write("x,y\n");
                for (int i = 0; i < n; ++i) {
                    const double x = mean + sd * rng.normal();
                    const double y = (linear ? 2.0 * x : std::sin(x)) + 0.1 * rng.normal();
                    f.write(QByteArray::number(x, 'g', 10) + ',' + QByteArray::number(y, 'g', 10) +
                            '\n');
                }
            };
            write("rp.csv", 600, 0.0, 1.0);
            write("rq.csv", 400, 1.5, 0.5);
            const Run r = runSosrep(
                {"ratio", "--p", path("rp.csv"), "--q", path("rq.csv"), "--regress", "y"});
            QVERIFY2(r.code == 0, qPrintable(r.err));
            const QJsonObject s = r.summary();
            QCOMPARE(s[QStringLiteral("n_p")].toInt(), 600);
            QCOMPARE(s[QStringLiteral("ols_coefficients")].toArray().size(), 2); // intercept, x
            const double ols = s[QStringLiteral("q_mse_ols")].toDouble();
            const double wls = s[QStringLiteral("q_mse_wls")].toDouble();
            qInfo("%s: MSE on q, plain %.4f, weighted %.4f", linear ? "linear" : "sin", ols, wls);
            if (linear) {
                QVERIFY(wls < 1.5 * ols);
                QVERIFY(std::abs(s[QStringLiteral("wls_coefficients")].toArray()[1].toDouble() -
                                 2.0) < 0.05);
            } else {
                QVERIFY(wls < 0.6 * ols);
            }
        }
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
        // Held-out likelihood needs a normalized density: SOSREP with the Laplace kernel is a
        // pre-density (refused); with the Gaussian kernel it is normalized exactly (issue 9).
        const Run refused =
            runSosrep({"fit", "--train", path("train.csv"), "--label-column", "label", "--kernel",
                       "laplace", "--selection", "likelihood"});
        QCOMPARE(refused.code, 2);
        QVERIFY(refused.err.contains(
            QStringLiteral("--selection: likelihood needs a normalized density")));
        const Run gaussian = runSosrep({"fit", "--train", path("train.csv"), "--label-column",
                                        "label", "--selection", "likelihood"});
        QVERIFY2(gaussian.code == 0, qPrintable(gaussian.err));
        QCOMPARE(gaussian.summary()[QStringLiteral("selection")].toString(),
                 QStringLiteral("held_out_likelihood_maximum"));
    }

    // Issue 11: test columns are matched by name, as `score` does; a file headed b,a scores
    // exactly like the same rows headed a,b.
    void fit_testColumnsMatchedByName()
    {
        auto write = [&](const char* name, const char* text) {
            QFile f(path(name));
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(text);
        };
        write("ab.csv", "a,b\n0.1,0.9\n0.4,0.2\n0.8,0.5\n");
        write("ba.csv", "b,a,extra\n0.9,0.1,7\n0.2,0.4,7\n0.5,0.8,7\n");
        write("train_ab.csv", "a,b\n0,0\n0.2,0.7\n0.5,0.5\n0.9,0.1\n1,1\n0.3,0.3\n");
        const Run ab = runSosrep({"fit", "--train", path("train_ab.csv"), "--test", path("ab.csv"),
                                  "--length-scale", "0.3", "--scores-out", path("s_ab.csv")});
        const Run ba = runSosrep({"fit", "--train", path("train_ab.csv"), "--test", path("ba.csv"),
                                  "--length-scale", "0.3", "--scores-out", path("s_ba.csv")});
        QVERIFY2(ab.code == 0 && ba.code == 0, qPrintable(ab.err + ba.err));
        QCOMPARE(readLines(path("s_ba.csv")), readLines(path("s_ab.csv")));
        // The unused column is left out with a warning, on stderr and in the summary.
        QVERIFY(ba.err.contains(QStringLiteral("warning: ")));
        const QJsonArray w = ba.summary()[QStringLiteral("warnings")].toArray();
        QCOMPARE(w.size(), 1);
        QVERIFY(w[0].toString().contains(QStringLiteral("'extra' is not a feature")));
    }

    // Issue 11: soft problems are reported, not silent: a constant column, options the fit
    // does not use.
    void fit_warnsAboutConstantColumnsAndIgnoredOptions()
    {
        QFile f(path("const.csv"));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("a,c,b\n0.1,3,0.9\n0.4,3,0.2\n0.8,3,0.5\n0.3,3,0.3\n0.6,3,0.7\n");
        f.close();
        const Run r = runSosrep({"fit", "--train", path("const.csv"), "--length-scale", "0.3",
                                 "--features", "500", "--grid", "9"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const QJsonArray w = r.summary()[QStringLiteral("warnings")].toArray();
        QStringList texts;
        for (const QJsonValue& v : w) {
            texts << v.toString();
        }
        QVERIFY2(texts.filter(QStringLiteral("column 'c' is constant (3)")).size() == 1,
                 qPrintable(texts.join(QLatin1Char('|'))));
        QCOMPARE(texts.filter(QStringLiteral("--features is ignored")).size(), 1);
        QCOMPARE(texts.filter(QStringLiteral("--grid is ignored")).size(), 1);
        QCOMPARE(r.err.count(QStringLiteral("sosrep fit: warning: ")), texts.size());
    }

    // Issue 22: the anomaly rule's neighbourhood k applies only where that rule serves.
    void fit_neighbourhoodKOnlyForTheAnomalyPurpose()
    {
        const Run density = runSosrep({"fit", "--train", path("train.csv"), "--label-column",
                                       "label", "--reach-neighbours", "8"});
        QVERIFY2(density.code == 0, qPrintable(density.err));
        QVERIFY2(density.err.contains(QStringLiteral("--reach-neighbours is ignored: only with "
                                                     "the anomaly rule")),
                 qPrintable(density.err));
        const Run anomaly = runSosrep({"fit", "--train", path("train.csv"), "--label-column",
                                       "label", "--purpose", "anomaly", "--reach-neighbours", "8"});
        QVERIFY2(anomaly.code == 0, qPrintable(anomaly.err));
        QVERIFY(!anomaly.err.contains(QStringLiteral("ignored")));
        QCOMPARE(anomaly.summary()[QStringLiteral("neighbourhood_k")].toInt(), 8);
        QCOMPARE(anomaly.summary()[QStringLiteral("purpose")].toString(),
                 QStringLiteral("anomaly"));
    }

    // Issue 22: adbench's numbers are what `sosrep fit --purpose anomaly` gives on the same
    // split (the exported parts are the rows the methods saw, already min-max scaled).
    void adbench_isFitWithPurposeAnomalyOnItsSplit()
    {
        const QString dir = QFileInfo(QString::fromStdString(adbenchPath("14_glass.npz"))).path();
        QVERIFY(QDir().mkpath(path("glass_splits")));
        const Run bench =
            runSosrep({"adbench", "--data-dir", dir, "--only", "glass", "--seeds", "42",
                       "--estimators", "sosrep,sosrep:purpose=density", "--export-splits",
                       path("glass_splits"), "--table-out", path("glass.csv")});
        QVERIFY2(bench.code == 0, qPrintable(bench.err));
        const QStringList table = readLines(path("glass.csv"));
        // The training part has no label column (unsupervised protocol): give it one of zeros so
        // that --label-column names the test part's.
        QStringList train = readLines(path("glass_splits/14_glass_seed42_train.csv"));
        train[0] += QStringLiteral(",label");
        for (int i = 1; i < train.size(); ++i) {
            train[i] += QStringLiteral(",0");
        }
        QVERIFY(writeText(path("glass_train_labelled.csv"), train.join('\n') + '\n'));
        for (const char* purpose : {"anomaly", "density"}) {
            const QString method = QLatin1String(purpose) == QLatin1String("anomaly")
                                       ? QStringLiteral("sosrep")
                                       : QStringLiteral("sosrep:purpose=density");
            const Run fit =
                runSosrep({"fit", "--train", path("glass_train_labelled.csv"), "--test",
                           path("glass_splits/14_glass_seed42_test.csv"), "--label-column", "label",
                           "--seed", "42", "--purpose", purpose});
            QVERIFY2(fit.code == 0, qPrintable(fit.err));
            const QStringList row =
                table.filter(QStringLiteral("14_glass.npz,42,") + method + QLatin1Char(','))
                    .first()
                    .split(',');
            QVERIFY2(
                std::abs(row[3].toDouble() - fit.summary()[QStringLiteral("auc_roc")].toDouble()) <
                    1e-9,
                qPrintable(row.join(',') + QStringLiteral(" vs ") +
                           QString::number(fit.summary()[QStringLiteral("auc_roc")].toDouble())));
            QCOMPARE(fit.summary()[QStringLiteral("purpose")].toString(), QLatin1String(purpose));
        }
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

    void adbench_methodsRanksLodoAndResume()
    {
        const QString dir = QFileInfo(QString::fromStdString(adbenchPath("45_wine.npz"))).path();
        const QStringList args{"adbench",
                               "--data-dir",
                               dir,
                               "--only",
                               "wine,glass",
                               "--seeds",
                               "42,43",
                               "--estimators",
                               "sosrep:selection=paper,sosrep,iforest,knn",
                               "--lodo",
                               "sosrep:selection=paper;sosrep"};
        const Run full = runSosrep(
            args + QStringList{"--table-out", path("ab.csv"), "--json-out", path("ab.json")});
        QVERIFY2(full.code == 0, qPrintable(full.err));
        const QStringList table = readLines(path("ab.csv"));
        QCOMPARE(table.size(), 1 + 2 * 2 * 4); // datasets x seeds x methods
        QVERIFY(!QFile::exists(path("ab.csv.partial")));
        QVERIFY(full.out.contains(QStringLiteral("selection protocol over {")));
        QVERIFY(full.out.contains(QStringLiteral("leave-one-dataset-out: mean AUC-ROC")));
        QVERIFY(full.out.contains(QStringLiteral("per seed: 42 ")));
        QCOMPARE(full.err.count(QStringLiteral("sosrep adbench: [")), 16);
        // Average ranks over four methods sum to 1 + 2 + 3 + 4.
        const QJsonObject json = QJsonDocument::fromJson(bytesOf(path("ab.json"))).object();
        double rankSum = 0;
        for (const QJsonValue& m : json[QStringLiteral("methods")].toArray()) {
            rankSum += m.toObject()[QStringLiteral("average_rank")].toDouble();
            QCOMPARE(m.toObject()[QStringLiteral("datasets")].toInt(), 2);
        }
        QVERIFY(std::abs(rankSum - 10.0) < 1e-9);
        // Per family, each method against the reference (iforest): the mean difference with its
        // paired bootstrap interval, and sets won and lost.
        QVERIFY(full.out.contains(QStringLiteral("\tminus_iforest\tpaired_bootstrap_95\t")));
        for (const QJsonValue& m :
             json[QStringLiteral("families")].toObject()[QStringLiteral("methods")].toArray()) {
            const QJsonObject vs = m.toObject()[QStringLiteral("vs_reference")].toObject();
            QCOMPARE(vs[QStringLiteral("datasets")].toInt(), 2);
            QVERIFY(vs[QStringLiteral("paired_bootstrap_95")].toArray().size() == 2);
        }
        // The shared sweep gives the paper's rule what it gets alone.
        const Run alone = runSosrep({"adbench", "--data-dir", dir, "--only", "wine", "--seeds",
                                     "42", "--selection", "paper"});
        QVERIFY2(alone.code == 0, qPrintable(alone.err));
        const QString aloneAuc = alone.out.split('\n')[1].split('\t')[7];
        QVERIFY2(full.out.contains(QStringLiteral("45_wine.npz\t42\tsosrep:selection=paper")),
                 qPrintable(full.out));
        const double shared = table.filter(QStringLiteral("45_wine.npz,42,sosrep:selection=paper,"))
                                  .first()
                                  .split(',')[3]
                                  .toDouble();
        QVERIFY2(std::abs(shared - aloneAuc.toDouble()) < 5e-5, qPrintable(aloneAuc));
        // An interrupted run: the partial table holds the first 5 runs; --resume runs the rest
        // and ends with the same table.
        QVERIFY(writeText(path("ab2.csv.partial"), table.mid(0, 6).join('\n') + '\n'));
        QVERIFY(writeText(path("ab2.csv.partial.options"),
                          QString::fromUtf8(adbenchOptionsRecord(
                              args.mid(1) + QStringList{"--table-out", path("ab2.csv")}))));
        const Run resumed =
            runSosrep(args + QStringList{"--table-out", path("ab2.csv"), "--resume"});
        QVERIFY2(resumed.code == 0, qPrintable(resumed.err));
        QVERIFY(resumed.err.contains(QStringLiteral("resuming from")));
        QCOMPARE(resumed.err.count(QStringLiteral("sosrep adbench: [")), 11);
        QStringList a = readLines(path("ab2.csv")), b = table;
        for (QStringList* t : {&a, &b}) {
            for (QString& line : *t) {
                line = line.section(',', 0, 6); // seconds differ
            }
            t->sort();
        }
        QCOMPARE(a, b);
        QVERIFY(!QFile::exists(path("ab2.csv.partial")));
    }

    // A file named in another encoding than UTF-8 was "no such file" (Qt turns the stray byte
    // into U+FFFD before the command sees it): the argument is named, its bytes escaped.
    void argumentsThatAreNotUtf8AreNamed()
    {
        const char* bad[] = {"sosrep", "fit", "--train", "/tmp/\xff.csv"};
        const std::string problem = sosrep::cli::argumentEncodingProblem(4, bad);
        QVERIFY2(problem.find("argument 3 '/tmp/\\xFF.csv' is not valid UTF-8") == 0,
                 problem.c_str());
        const char* good[] = {"sosrep", "fit", "--train", "/tmp/caf\xc3\xa9.csv"};
        QCOMPARE(sosrep::cli::argumentEncodingProblem(4, good), std::string());
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
                                      << "/nonexistent/a.csv: no such file";
        QTest::newRow("sdo order")
            << QStringList{"fit", "--train",     "TRAIN", "--label-column", "label", "--kernel",
                           "sdo", "--sdo-order", "1"}
            << 2 << "--sdo-order: SDO order m = 1";
        QTest::newRow("sdo method")
            << QStringList{"fit",      "--train", "TRAIN",        "--label-column", "label",
                           "--kernel", "sdo",     "--sdo-method", "bessel"}
            << 2 << "--sdo-method: unknown value 'bessel' (use rff or exact)";
        QTest::newRow("finer than the landmarks")
            << QStringList{"fit",     "--train", "TRAIN", "--label-column", "label", "--backend",
                           "lowrank", "--rank",  "20",    "--length-scale", "0.001"}
            << 2 << "--length-scale: not fitted: ";
        QTest::newRow("bad backend")
            << QStringList{"fit", "--train", "TRAIN", "--label-column", "label", "--backend", "gpu"}
            << 2 << "--backend: unknown value 'gpu' (use auto, dense, sparse or lowrank)";
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
