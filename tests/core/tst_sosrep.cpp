// SPDX-License-Identifier: MIT
// Tests of SOSREP's gradient solvers against the paper's results.
#include "core/data/toy_data.h"
#include "core/errors.h"
#include "core/estimators/sosrep/gradient_solver.h"

#include <QtTest>

#include <cmath>

using namespace sosrep;

namespace {

/// The paper's two-block kernel (eq. 67): unit diagonal, gamma^2 inside S1, gamma'^2 inside S2,
/// beta gamma gamma' between.
Matrix blockKernel(int n, int m, double g, double gp, double beta)
{
    Matrix k(n + m, n + m);
    for (int i = 0; i < n + m; ++i) {
        for (int j = 0; j < n + m; ++j) {
            const bool a = i < n;
            const bool b = j < n;
            k(i, j) = i == j ? 1.0 : a && b ? g * g : !a && !b ? gp * gp : beta * g * gp;
        }
    }
    return k;
}

} // namespace

class TstSosrep : public QObject
{
    Q_OBJECT

private slots:
    void natural_convergesToLemma4Optimum()
    {
        ToyConfig tc;
        tc.kind = ToyKind::GaussianMixture;
        tc.n = 300;
        tc.seed = 1;
        const Matrix x = generateToyData(tc).x;
        KernelSpec spec;
        spec.lengthScale = 0.4;
        KernelOperator op(x, spec);
        GradientConfig cfg;
        cfg.learningRate = 0.2;
        cfg.iterations = 5000;
        cfg.tolerance = 1e-9;
        GradientSolver solver(op, cfg);
        QCOMPARE(toString(solver.run()), toString(SolverStatus::Converged));
        QVERIFY(solver.last().residual < 1e-9);
        QVERIFY(std::abs(solver.last().sqNorm - 1.0) < 1e-8);      // Lemma 4: |f|^2_H = 1
        QVERIFY(solver.trace().front().loss > solver.last().loss); // it descended
        QCOMPARE(solver.totalClamped(), 0L);
    }

    void blockModel_reproducesPaperProposition()
    {
        const int n = 200;
        const double g = 0.9;
        const double gp = 0.3;
        const double beta = 0.5;
        const KernelOperator op = KernelOperator::fromMatrix(blockKernel(n, n, g, gp, beta));
        GradientConfig cfg;
        cfg.learningRate = 0.25;
        cfg.iterations = 20000;
        cfg.tolerance = 1e-11;
        GradientSolver solver(op, cfg);
        QCOMPARE(toString(solver.run()), toString(SolverStatus::Converged));
        const Vector f = op.apply(solver.alpha());
        const double sosrepRatio = std::pow(f.head(n).mean() / f.tail(n).mean(), 2.0);

        // Independent solution of eq. (70/72): a = H11/a + H12/b, b = H21/a + H22/b, by Newton.
        const double h11 = 1 + (n - 1) * g * g, h12 = n * beta * g * gp;
        const double h21 = h12, h22 = 1 + (n - 1) * gp * gp;
        double a = 10, b = 5;
        for (int it = 0; it < 100; ++it) {
            const double r1 = a - h11 / a - h12 / b;
            const double r2 = b - h21 / a - h22 / b;
            const double j11 = 1 + h11 / (a * a), j12 = h12 / (b * b);
            const double j21 = h21 / (a * a), j22 = 1 + h22 / (b * b);
            const double det = j11 * j22 - j12 * j21;
            a -= (j22 * r1 - j12 * r2) / det;
            b -= (-j21 * r1 + j11 * r2) / det;
        }
        const double fixedPointRatio = (a / b) * (a / b);
        QVERIFY2(std::abs(sosrepRatio - fixedPointRatio) < 1e-6 * fixedPointRatio,
                 qPrintable(QStringLiteral("%1 vs %2").arg(sosrepRatio).arg(fixedPointRatio)));
        QVERIFY(std::abs(fixedPointRatio - 8.58) < 0.01); // the digest's value, -> 9 as N grows
        // KDE: eq. (68) exactly, with the same kernel.
        const Vector kde = op.apply(Vector::Constant(2 * n, 1.0 / (2 * n)));
        const double kdeRatio = kde(0) / kde(n);
        QVERIFY(std::abs(kdeRatio - (h11 + h12) / (h21 + h22)) < 1e-12);
        QVERIFY(std::abs(kdeRatio - 4.12) < 0.01);
    }

    void blockModel_ratioTendsToGammaRatio()
    {
        // Prop. 9: for M = N the ratio tends to gamma^2 / gamma'^2 = 9 as N grows.
        const KernelOperator op =
            KernelOperator::fromMatrix(blockKernel(1000, 1000, 0.9, 0.3, 0.5));
        GradientConfig cfg;
        cfg.learningRate = 0.25;
        cfg.iterations = 20000;
        cfg.tolerance = 1e-10;
        GradientSolver solver(op, cfg);
        solver.run();
        const Vector f = op.apply(solver.alpha());
        const double ratio = std::pow(f(0) / f(1500), 2.0);
        QVERIFY2(ratio > 8.9 && ratio < 9.0, qPrintable(QString::number(ratio)));
    }

    void prop11_naturalStepsKeepNonNegativeKernelFieldPositive()
    {
        ToyConfig tc;
        tc.kind = ToyKind::Rings;
        tc.n = 400;
        const Matrix x = generateToyData(tc).x;
        KernelSpec spec;
        spec.lengthScale = 0.05; // sharp kernel: many near-zero off-diagonal entries
        KernelOperator op(x, spec);
        for (double lr : {0.05, 0.3, 0.49}) {
            GradientConfig cfg;
            cfg.learningRate = lr;
            cfg.iterations = 300;
            cfg.tolerance = 0;
            GradientSolver solver(op, cfg);
            while (solver.step()) {
                QVERIFY(solver.alpha().minCoeff() >= 0.0);
                QCOMPARE(solver.last().negativeFraction, 0.0);
            }
        }
    }

    void standardAndNatural_shareInitialisation()
    {
        const Matrix x = Matrix::Random(50, 2);
        KernelSpec spec;
        KernelOperator op(x, spec);
        GradientConfig nat;
        GradientConfig std_ = nat;
        std_.solver = SolverKind::Standard;
        GradientSolver a(op, nat);
        GradientSolver b(op, std_);
        QCOMPARE(a.trace().front().loss, b.trace().front().loss);
        QVERIFY(std::abs(a.trace().front().sqNorm - 1.0) < 1e-12);
    }

    void divergence_isReportedNotNaN()
    {
        const Matrix x = Matrix::Random(40, 2);
        KernelSpec spec;
        KernelOperator op(x, spec);
        GradientConfig cfg;
        cfg.solver = SolverKind::Standard;
        cfg.learningRate = 1e6; // absurd step: must end as Diverged with the iteration recorded
        cfg.iterations = 1000;
        GradientSolver solver(op, cfg);
        const SolverStatus s = solver.run();
        QVERIFY(s == SolverStatus::Diverged);
        QVERIFY(solver.iteration() < 1000);
    }

    void divergence_detectedWhileValuesAreStillFinite()
    {
        // Regression: standard GD at lr 0.1 on two moons grows alpha^T K alpha geometrically to
        // 1e302 without overflowing; it used to run on as "running" with absurd values.
        ToyConfig tc;
        tc.kind = ToyKind::TwoMoons;
        tc.n = 500;
        const Matrix x = generateToyData(tc).x * 0.25;
        KernelSpec spec;
        spec.lengthScale = 0.0714;
        KernelOperator op(x, spec);
        GradientConfig cfg;
        cfg.solver = SolverKind::Standard;
        cfg.iterations = 1000;
        GradientSolver solver(op, cfg);
        QVERIFY(solver.run() == SolverStatus::Diverged);
        QVERIFY(solver.iteration() < 60);
        QVERIFY(std::isfinite(solver.last().loss));
        QVERIFY(solver.last().sqNorm > 1e12);
    }

    void cancel_stopsAtOnce()
    {
        const Matrix x = Matrix::Random(40, 2);
        KernelSpec spec;
        KernelOperator op(x, spec);
        GradientConfig cfg;
        cfg.tolerance = 0;
        GradientSolver solver(op, cfg);
        QVERIFY(solver.run([](int done, int) { return done < 7; }) == SolverStatus::Cancelled);
        QCOMPARE(solver.iteration(), 7);
    }

    void config_rejectsBadValues()
    {
        GradientConfig cfg;
        cfg.learningRate = -1;
        QVERIFY_THROWS_EXCEPTION(ParameterError, cfg.validate());
        QVERIFY_THROWS_EXCEPTION(ParameterError, solverKindFromString("adam"));
    }
};

QTEST_APPLESS_MAIN(TstSosrep)
#include "tst_sosrep.moc"
