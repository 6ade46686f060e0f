// SPDX-License-Identifier: MIT
// The paper's natural-vs-standard negativity effect (arXiv section 6.3, Fig. 3) on real data.
#include "core/data/npz_reader.h"
#include "core/data/scaler.h"
#include "core/data/split.h"
#include "core/data/toy_data.h"
#include "core/errors.h"
#include "core/estimators/sosrep/gradient_solver.h"
#include "core/experiments/negativity.h"
#include "core/tuning/length_scale_rules.h"
#include "support/shared_data.h"

#include <QtTest>

#include <algorithm>

using namespace sosrep;

class TstNegativity : public QObject
{
    Q_OBJECT

private slots:
    void shuttle_standardGoesNegativeNaturalDoesNot()
    {
        // 1500-point subsample of shuttle, min-max scaled, SDO kernel (4000 RFF) at
        // l = 0.1 x median pairwise distance, unit diagonal, lr 0.01, 1000 iterations, 20
        // initialisations; the worst 5 runs' average negative fraction per solver (the paper's
        // aggregation). The runner's defaults are this setting.
#ifdef SOSREP_SANITIZED
        // 100-190 s instrumented, through the solver and RFF code the other cases run.
        QSKIP("the release suite runs the shuttle experiment; the sanitizer job skips its size");
#endif
        const Dataset full = readNpzDataset(adbenchPath("32_shuttle.npz"));
        const Dataset sub = full.selectRows(subsampleRows(full.rows(), 1500, 42));
        const Matrix x = Scaler::fit(ScalingKind::MinMax, sub.x).apply(sub.x);
        NegativitySettings s;
        s.initializations = 20;
        s.seed = 1;
        const NegativityRun run = runNegativity(x, "shuttle", s);
        QCOMPARE(NegativityRun::divergedCount(run.naturalDivergedAt), 0);
        const double nat5 = NegativityRun::worstMean(run.natural, 5)(s.iterations);
        const double std5 = NegativityRun::worstMean(run.standard, 5)(s.iterations);
        const double initial = run.natural.row(0).maxCoeff();
        qInfo("worst-5 negative fraction: standard %.3f, natural %.3f, initial max %.3f", std5,
              nat5, initial);
        QVERIFY2(std5 > 0.5, qPrintable(QString::number(std5)));
        QVERIFY2(nat5 < 0.05, qPrintable(QString::number(nat5)));
        QVERIFY(nat5 < initial + 0.05); // stays near its initial fraction
    }

    void runner_matchesADirectLoopOfGradientSolvers_data()
    {
        QTest::addColumn<double>("learningRate");
        QTest::newRow("lr 0.01") << 0.01;
        QTest::newRow("lr 3 (standard diverges)") << 3.0;
    }

    void runner_matchesADirectLoopOfGradientSolvers()
    {
        // The batched runner against one GradientSolver per initialisation and method: the same
        // negative share at every iteration and the same divergence iteration.
        QFETCH(double, learningRate);
        ToyConfig toy;
        toy.kind = ToyKind::TwoMoons;
        toy.n = 150;
        toy.seed = 3;
        const Matrix x = generateToyData(toy).x;
        NegativitySettings s;
        s.lengthScale = 0.08;
        s.features = 300;
        s.learningRate = learningRate;
        s.iterations = 40;
        s.initializations = 4;
        s.worst = 2;
        s.seed = 9;
        const NegativityRun run = runNegativity(x, "moons", s);
        QCOMPARE(run.rows, Eigen::Index(150));
        QCOMPARE(run.natural.rows(), Eigen::Index(41));
        QCOMPARE(run.natural.cols(), Eigen::Index(4));

        KernelSpec spec;
        spec.type = KernelType::Sdo;
        spec.lengthScale = s.lengthScale;
        spec.features = s.features;
        spec.seed = s.seed;
        const KernelOperator op(x, spec);
        QVERIFY(op.hasNegativeEntries());
        bool sawNegative = false;
        int diverged = 0;
        for (int j = 0; j < s.initializations; ++j) {
            const Vector a0 = initialAlpha(op, s.seed + static_cast<uint64_t>(j));
            for (SolverKind kind : {SolverKind::Natural, SolverKind::Standard}) {
                GradientConfig cfg;
                cfg.solver = kind;
                cfg.learningRate = s.learningRate;
                cfg.iterations = s.iterations;
                cfg.tolerance = 0;
                GradientSolver solver(op, cfg, a0);
                solver.run();
                const Matrix& shares = kind == SolverKind::Natural ? run.natural : run.standard;
                const auto& at =
                    kind == SolverKind::Natural ? run.naturalDivergedAt : run.standardDivergedAt;
                const auto& trace = solver.trace();
                if (solver.status() == SolverStatus::Diverged) {
                    QCOMPARE(at[j], trace.back().iteration);
                    ++diverged;
                } else {
                    QCOMPARE(at[j], -1);
                    QCOMPARE(int(trace.size()), s.iterations + 1);
                }
                // Up to the divergence the shares agree exactly (rounding of the batched
                // products cannot flip a sign here); after it the runner carries the last one.
                const int last = at[j] >= 0 ? at[j] - 1 : s.iterations;
                for (int t = 0; t <= last; ++t) {
                    QCOMPARE(shares(t, j), trace[t].negativeFraction);
                    sawNegative = sawNegative || shares(t, j) > 0.0;
                }
                for (int t = last + 1; t <= s.iterations; ++t) {
                    QCOMPARE(shares(t, j), shares(last, j));
                }
            }
        }
        QVERIFY(sawNegative); // the case exercises the statistic
        const NegativityRun again = runNegativity(x, "moons", s); // seeded: reproducible
        QVERIFY(again.natural == run.natural);
        QVERIFY(again.standard == run.standard);
        if (learningRate > 1.0) {
            QVERIFY(diverged > 0);
        }
        // The statistic per iteration: the mean of the 2 largest shares of the 4 runs.
        const Vector w = NegativityRun::worstMean(run.standard, 2);
        for (Eigen::Index t = 0; t < run.standard.rows(); ++t) {
            std::vector<double> sorted;
            for (int j = 0; j < 4; ++j) {
                sorted.push_back(run.standard(t, j));
            }
            std::sort(sorted.rbegin(), sorted.rend());
            QCOMPARE(w(t), (sorted[0] + sorted[1]) / 2.0);
        }
    }

    void worstMean_handExample()
    {
        Matrix shares(2, 4);
        shares << 0.1, 0.4, 0.2, 0.3, //
            0.0, 0.0, 0.5, 0.0;
        const Vector w = NegativityRun::worstMean(shares, 2);
        QCOMPARE(w(0), 0.35);
        QCOMPARE(w(1), 0.25);
        QCOMPARE(NegativityRun::divergedCount({-1, 3, -1, 0}), 2);
    }

    void runner_cancelsAndKeepsTheIterationsDone()
    {
        ToyConfig toy;
        toy.kind = ToyKind::TwoMoons;
        toy.n = 60;
        const Matrix x = generateToyData(toy).x;
        NegativitySettings s;
        s.initializations = 3;
        s.worst = 1;
        s.iterations = 100;
        const NegativityRun run =
            runNegativity(x, "moons", s, [](long done, long) { return done < 7; });
        QVERIFY(run.cancelled);
        QCOMPARE(run.completedIterations, 7);
        QCOMPARE(run.natural.rows(), Eigen::Index(8));
    }

    void settings_refuseBadValues()
    {
        NegativitySettings s;
        s.worst = 60;
        QVERIFY_THROWS_EXCEPTION(ParameterError, s.validate());
        s = NegativitySettings{};
        s.learningRate = 0;
        QVERIFY_THROWS_EXCEPTION(ParameterError, s.validate());
        s = NegativitySettings{};
        s.iterations = 0;
        QVERIFY_THROWS_EXCEPTION(ParameterError, s.validate());
    }
};

QTEST_APPLESS_MAIN(TstNegativity)
#include "tst_negativity.moc"
