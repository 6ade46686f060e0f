// SPDX-License-Identifier: MIT
// The paper's natural-vs-standard negativity effect (arXiv section 6.3, Fig. 3) on real data.
#include "core/data/npz_reader.h"
#include "core/data/scaler.h"
#include "core/data/split.h"
#include "core/estimators/sosrep/gradient_solver.h"
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
        // 1500-point subsample of shuttle, min-max scaled, SDO kernel (RFF) at
        // l = 0.1 x median pairwise distance, unit diagonal, lr 0.01, 1000 iterations, 20 seeds;
        // the worst 5 seeds' average negative fraction per solver (the paper's aggregation).
        const Dataset full = readNpzDataset(adbenchPath("32_shuttle.npz"));
        const Dataset sub = full.selectRows(subsampleRows(full.rows(), 1500, 42));
        const Matrix x = Scaler::fit(ScalingKind::MinMax, sub.x).apply(sub.x);
        KernelSpec spec;
        spec.type = KernelType::Sdo;
        spec.lengthScale = 0.1 * medianPairwiseDistance(x);
        spec.features = 4000;
        spec.seed = 1;
        KernelOperator op(x, spec);
        std::vector<double> natural;
        std::vector<double> standard;
        double initial = 0.0;
        for (uint64_t seed = 0; seed < 20; ++seed) {
            GradientConfig cfg;
            cfg.learningRate = 0.01;
            cfg.iterations = 1000;
            cfg.tolerance = 0;
            cfg.seed = seed;
            const Vector a0 = initialAlpha(op, seed);
            GradientSolver nat(op, cfg, a0);
            cfg.solver = SolverKind::Standard;
            GradientSolver std_(op, cfg, a0);
            nat.run();
            std_.run();
            QVERIFY(nat.status() != SolverStatus::Diverged);
            natural.push_back(nat.last().negativeFraction);
            standard.push_back(std_.last().negativeFraction);
            initial = std::max(initial, nat.trace().front().negativeFraction);
        }
        auto worst5 = [](std::vector<double> v) {
            std::sort(v.rbegin(), v.rend());
            return (v[0] + v[1] + v[2] + v[3] + v[4]) / 5.0;
        };
        const double nat5 = worst5(natural);
        const double std5 = worst5(standard);
        qInfo("worst-5 negative fraction: standard %.3f, natural %.3f, initial max %.3f", std5,
              nat5, initial);
        QVERIFY2(std5 > 0.5, qPrintable(QString::number(std5)));
        QVERIFY2(nat5 < 0.05, qPrintable(QString::number(nat5)));
        QVERIFY(nat5 < initial + 0.05); // stays near its initial fraction
    }
};

QTEST_APPLESS_MAIN(TstNegativity)
#include "tst_negativity.moc"
