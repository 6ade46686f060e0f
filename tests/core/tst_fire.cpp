// SPDX-License-Identifier: MIT
// FIRE density ratios (issue 10): the fixtures of fire-digest.md section 5.3, the lambda path
// against direct solves, the feature form against the representer solution of its own kernel,
// uLSIF's closed-form leave-one-out against refits, and the J criterion.
#include "core/errors.h"
#include "core/estimators/fit_settings.h"
#include "core/estimators/ratio_model.h"
#include "core/estimators/registry.h"
#include "core/random.h"
#include "core/ratio/expression.h"
#include "core/ratio/fire_system.h"
#include "core/ratio/importance_weights.h"
#include "core/ratio/known_shifts.h"
#include "core/ratio/ratio_gaussian.h"
#include "core/ratio/ratio_tuning.h"
#include "core/ratio/ulsif.h"
#include "support/sanitized.h"

#include <Eigen/Eigenvalues>
#include <Eigen/LU>

#include <QtTest>

#include <cmath>

using namespace sosrep;

namespace {

constexpr double kPi = 3.14159265358979323846;

/// The unit-peak lambda of a lambda stated for the normalized kernel (digest T5: c^3).
double unitLambda(double normalizedLambda, double t, double dim)
{
    const double c = deltaNormalizer(t, dim);
    return normalizedLambda / (c * c * c);
}

double relativeDifference(const Vector& a, const Vector& b)
{
    return (a - b).norm() / std::max(b.norm(), 1e-300);
}

double rms(const Vector& a, const Vector& b)
{
    return std::sqrt((a - b).squaredNorm() / static_cast<double>(a.size()));
}

Matrix normalRows(Eigen::Index n, int d, uint64_t seed, double scale = 1.0)
{
    Rng rng(seed);
    Matrix x(n, d);
    for (Eigen::Index i = 0; i < n; ++i) {
        for (int j = 0; j < d; ++j) {
            x(i, j) = scale * rng.normal();
        }
    }
    return x;
}

std::unique_ptr<FittedModel> fitRatio(const std::string& estimator, const Matrix& p,
                                      const Matrix* q, const Vector* qValues,
                                      const std::vector<std::pair<std::string, std::string>>& set)
{
    FitSettings s = FitSettings::defaults(estimator);
    for (const auto& [k, v] : set) {
        s.values.set(k, v);
    }
    FitInput in{p, q, KernelSpec{}, s.values, qValues};
    return EstimatorRegistry::instance().get(estimator).fit(in, FitControl{});
}

const RatioModel& asRatio(const std::unique_ptr<FittedModel>& m)
{
    return dynamic_cast<const RatioModel&>(*m);
}

} // namespace

class TstFire : public QObject
{
    Q_OBJECT

private slots:
    // T1: z_q = z_p gives f(Xp) = Q diag(s^3/(s^3+l)) Q^T 1, which tends to 1 as l -> 0.
    void sameSampleShrinksTowardOne()
    {
        const Matrix x = normalRows(30, 2, 1);
        const double t = 0.5;
        const Matrix kpp = gaussianGram(x, x, t) / 30.0;
        Eigen::SelfAdjointEigenSolver<Matrix> eig(kpp);
        const RatioTarget target{&x};
        const auto fit = FireFit::build(x, target, t, FireSetup{});
        double previous = 1e300;
        for (double lambda : {1e-3, 1e-6, 1e-9, 1e-12}) {
            const Vector s3 = eig.eigenvalues().array().cube();
            const Vector expected =
                eig.eigenvectors() *
                (s3.array() / (s3.array() + lambda))
                    .matrix()
                    .cwiseProduct(eig.eigenvectors().transpose() * Vector::Ones(30));
            QVERIFY2(relativeDifference(fit->sampleValues(lambda), expected) < 1e-9,
                     qPrintable(QString::number(lambda)));
            const double distance = (fit->sampleValues(lambda) - Vector::Ones(30)).norm();
            QVERIFY(distance < previous);
            previous = distance;
        }
        QVERIFY((fit->sampleValues(1e-12).array() - 1.0).abs().maxCoeff() < 0.05);
    }

    // The eigen path equals a direct solve of each closed form at every lambda (1e-10).
    void eigenPathEqualsDirectSolves()
    {
        const Matrix p = normalRows(60, 2, 2);
        const Matrix q = normalRows(40, 2, 3, 0.7);
        const double t = 0.8;
        const double n = 60.0;
        const Matrix kpp = gaussianGram(p, p, t) / n;
        const Vector b = gaussianGram(p, q, t).rowwise().mean();
        const Matrix g = gaussianGram(p, p, t);
        for (FireLoss loss : {FireLoss::L2p, FireLoss::Rkhs}) {
            FireSetup setup;
            setup.loss = loss;
            const auto fit = FireFit::build(p, RatioTarget{&q}, t, setup);
            for (double lambda : {1e-2, 1e-3, 1e-4}) {
                Matrix a = loss == FireLoss::L2p ? Matrix(kpp * kpp * kpp) : Matrix(kpp * kpp);
                a.diagonal().array() += lambda;
                const Vector rhs = loss == FireLoss::L2p ? Vector(kpp * b) : b;
                const Vector v = a.partialPivLu().solve(rhs);
                const Vector direct = g * v / n; // f(x) = (1/n) sum_i g(x_i, x) v_i
                const double diff = relativeDifference(fit->values(p, lambda), direct);
                QVERIFY2(diff < 1e-10, qPrintable(QString::fromStdString(toString(loss)) + " " +
                                                  QString::number(diff)));
            }
        }
    }

    // The tuning grid's lambdas (1e-5 .. 1e-10) on a 400-row sample: the banded solves after
    // the tridiagonal reduction against the eigendecomposition form Q F(sigma) Q^T b (the
    // path before issue 25), for values, sample values, held-out evaluation and the rank.
    // Measured: at most 5e-12 apart (RKHS at 1e-10); the bound is 1e-10.
    void tridiagonalPathEqualsTheEigenForm()
    {
        const Matrix p = normalRows(400, 3, 21);
        const Matrix q = normalRows(300, 3, 22, 0.8);
        const Matrix held = normalRows(50, 3, 23);
        const double t = 0.3;
        const double n = 400.0;
        const Matrix kpp = gaussianGram(p, p, t) / n;
        const Vector b = gaussianGram(p, q, t).rowwise().mean();
        const Eigen::SelfAdjointEigenSolver<Matrix> eig(kpp);
        const Vector& s = eig.eigenvalues();
        const Vector qtb = eig.eigenvectors().transpose() * b;
        for (FireLoss loss : {FireLoss::L2p, FireLoss::Rkhs}) {
            FireSetup setup;
            setup.loss = loss;
            const auto fit = FireFit::build(p, RatioTarget{&q}, t, setup);
            const auto evaluator = fit->evaluator(held);
            QCOMPARE(fit->cutoffRank(1e-7), 400);
            for (int e = 5; e <= 10; ++e) {
                const double lambda = std::pow(10.0, -e);
                const Vector f = loss == FireLoss::L2p
                                     ? Vector(s.array() / (s.array().cube() + lambda))
                                     : Vector((s.array().square() + lambda).inverse());
                const Vector v = eig.eigenvectors() * f.cwiseProduct(qtb);
                const QString what = QString::fromStdString(toString(loss)) + " lambda " +
                                     QString::number(lambda) + ": ";
                const double dv = relativeDifference(fit->coefficients(lambda), v);
                QVERIFY2(dv < 1e-10, qPrintable(what + QString::number(dv)));
                const Vector atP = kpp * v;
                const double ds = relativeDifference(fit->sampleValues(lambda), atP);
                QVERIFY2(ds < 1e-10, qPrintable(what + QString::number(ds)));
                const Vector atHeld = gaussianGram(held, p, t) * v / n;
                const double dh = relativeDifference(evaluator.at(lambda), atHeld);
                QVERIFY2(dh < 1e-10, qPrintable(what + QString::number(dh)));
            }
        }
    }

    // The tuning's fold fits (issue 25): a Lanczos basis of Kpp's Krylov space from b instead
    // of the reduction, on the three known shifts at the tuning grid's widths and lambdas,
    // against the exact path; and the fallback to the reduction when it cannot converge.
    void krylovPathEqualsTheExactPath_data()
    {
        QTest::addColumn<int>("dim");
        QTest::addColumn<int>("loss");
        for (int dim : {1, 2, 10}) {
            for (FireLoss loss : {FireLoss::L2p, FireLoss::Rkhs}) {
                QTest::addRow("%d-D %s", dim, toString(loss).c_str()) << dim << int(loss);
            }
        }
    }

    void krylovPathEqualsTheExactPath()
    {
        QFETCH(int, dim);
        QFETCH(int, loss);
        GaussianShift shift;
        shift.dim = dim;
        shift.shifted = std::min(dim, 2);
        const Matrix p = shift.sampleP(400, 31);
        const Matrix q = shift.sampleQ(400, 32);
        const Matrix held = shift.sampleP(100, 33);
        const RatioGrid grid = defaultRatioGrid(p, false);
        FireSetup exact;
        exact.loss = FireLoss(loss);
        FireSetup krylov = exact;
        krylov.krylovTolerance = 1e-10;
        krylov.krylovLambdas = grid.lambda;
        double worst = 0.0;
        for (double t : {grid.t.front(), grid.t[4], grid.t.back()}) {
            const auto a = FireFit::build(p, RatioTarget{&q}, t, exact);
            const auto b = FireFit::build(p, RatioTarget{&q}, t, krylov);
            const auto ea = a->evaluator(held);
            const auto eb = b->evaluator(held);
            for (double lambda : grid.lambda) {
                worst = std::max(worst, relativeDifference(eb.at(lambda), ea.at(lambda)));
                worst =
                    std::max(worst, relativeDifference(b->values(p, lambda), a->values(p, lambda)));
            }
        }
        QVERIFY2(worst < 1e-8, qPrintable(QString::number(worst)));
        // A tolerance no basis meets: the reduction takes over, and the path is the exact one.
        // (In 1-D and 2-D the Krylov space turns invariant within n/4 steps at these widths, and
        // an invariant space is exact: the fallback is only reached in 10-D.)
        if (dim != 10) {
            return;
        }
        FireSetup never = krylov;
        never.krylovTolerance = 1e-300;
        const auto c = FireFit::build(p, RatioTarget{&q}, grid.t[4], never);
        const auto a = FireFit::build(p, RatioTarget{&q}, grid.t[4], exact);
        QVERIFY(c->values(held, 1e-7) == a->values(held, 1e-7));
    }

    // The tuned FIRE (Lanczos in the folds) chooses what the exact folds choose, on the known
    // shifts at n = 600, with J within 1e-8 (relative) at every grid point.
    void tuningWithKrylovFoldsChoosesAsTheExactFolds()
    {
        for (int dim : {1, 2, 10}) {
            GaussianShift shift;
            shift.dim = dim;
            shift.shifted = std::min(dim, 2);
            // 300 rows in the sanitizer job: the same paths, a quarter of the kernel work.
            const int rows = test::kSanitized ? 300 : 600;
            const Matrix p = shift.sampleP(rows, 41 + uint64_t(dim));
            const Matrix q = shift.sampleQ(rows, 51 + uint64_t(dim));
            const RatioGrid grid = defaultRatioGrid(p, false);
            const RatioTarget target{&q};
            JSurface surfaces[2];
            for (int k = 0; k < 2; ++k) {
                FireSetup setup;
                if (k == 1) {
                    setup.krylovTolerance = 1e-10;
                    setup.krylovLambdas = grid.lambda;
                }
                const FoldFitter fitter = [&](const FoldInput& fold, double width) -> FoldPath {
                    auto path = FireFit::build(fold.trainP, target, width, setup);
                    auto heldOut =
                        std::make_shared<FireFit::Evaluator>(path->evaluator(fold.heldP));
                    return [path, heldOut](double l) { return FoldValues{heldOut->at(l)}; };
                };
                surfaces[k] = tuneRatio(p, target, grid, RatioTuningConfig{}, fitter, {});
            }
            QCOMPARE(surfaces[1].bestT, surfaces[0].bestT);
            QCOMPARE(surfaces[1].bestLambda, surfaces[0].bestLambda);
            const double diff = (surfaces[1].j - surfaces[0].j).cwiseAbs().maxCoeff() /
                                surfaces[0].j.cwiseAbs().maxCoeff();
            QVERIFY2(diff < 1e-8, qPrintable(QString::number(dim) + ": " + QString::number(diff)));
        }
    }

    // Eq. 13 with lambda I is the stationary point of the empirical mixed objective; gamma = 1
    // reproduces Eq. 12; the printed n lambda I leaves a gradient (digest 1.4, T2).
    void mixedNormIsStationaryAndReducesToL2p()
    {
        const Matrix p = normalRows(40, 2, 4);
        const Matrix q = normalRows(30, 2, 5, 0.6);
        const double t = 0.6, lambda = 1e-3, n = 40.0, m = 30.0, gamma = 0.4;
        const Matrix g = gaussianGram(p, p, t);
        const Matrix kpp = g / n;
        const Matrix kqp = gaussianGram(q, p, t) / n;
        const Vector b = gaussianGram(p, q, t).rowwise().mean();
        const Vector c = gaussianGram(q, q, t).rowwise().mean();
        FireSetup setup;
        setup.loss = FireLoss::Mixed;
        setup.gamma = gamma;
        const auto fit = FireFit::build(p, RatioTarget{&q}, t, setup);
        const Vector v = fit->coefficients(lambda) / n; // f = sum_i v_i g(x_i, .)
        auto gradient = [&](const Vector& w) {
            // d/dw of (g/n)|Kpp G w - b|^2 + ((1-g)/m)|Kqp G w - c|^2 + lambda w^T G w, over 2G.
            return Vector((gamma / n) * kpp * (kpp * g * w - b) +
                          ((1.0 - gamma) / m) * kqp.transpose() * (kqp * g * w - c) + lambda * w);
        };
        QVERIFY2(gradient(v).norm() < 1e-12 * std::max(1.0, b.norm()),
                 qPrintable(QString::number(gradient(v).norm())));
        // The paper's printed n lambda I.
        const Matrix a = (gamma / n) * kpp * kpp + ((1.0 - gamma) / m) * kqp.transpose() * kqp;
        Matrix paper = a * g;
        paper.diagonal().array() += n * lambda;
        const Vector k1 = (gamma / n) * kpp * b + ((1.0 - gamma) / m) * kqp.transpose() * c;
        QVERIFY(gradient(paper.partialPivLu().solve(k1)).norm() > 1e3 * gradient(v).norm());
        setup.gamma = 1.0;
        const auto one = FireFit::build(p, RatioTarget{&q}, t, setup);
        const auto l2p = FireFit::build(p, RatioTarget{&q}, t, FireSetup{});
        QVERIFY(relativeDifference(one->values(q, lambda), l2p->values(q, lambda)) < 1e-8);
    }

    // Digest 5.2: the feature form equals the representer solution for the kernel phi^T phi.
    void featureFormEqualsRepresenterOfItsKernel()
    {
        const Matrix p = normalRows(80, 2, 6);
        const Matrix q = normalRows(50, 2, 7, 0.7);
        const Matrix y = normalRows(20, 2, 8);
        const double t = 0.7, lambda = 1e-3;
        FireSetup setup;
        setup.form = FireForm::Features;
        setup.features = 40;
        setup.seed = 11;
        const FourierFeatures phi = FourierFeatures::draw(2, 40, t, 11);
        const Matrix fp = phi.map(p), fq = phi.map(q), fy = phi.map(y);
        const double n = 80.0;
        const Matrix kpp = fp * fp.transpose() / n;
        const Vector b = fp * fq.colwise().mean().transpose();
        for (FireLoss loss : {FireLoss::L2p, FireLoss::Rkhs}) {
            setup.loss = loss;
            const auto fit = FireFit::build(p, RatioTarget{&q}, t, setup);
            Matrix a = loss == FireLoss::L2p ? Matrix(kpp * kpp * kpp) : Matrix(kpp * kpp);
            a.diagonal().array() += lambda;
            const Vector v = a.partialPivLu().solve(loss == FireLoss::L2p ? Vector(kpp * b) : b);
            const Vector representer = fy * (fp.transpose() * v) / n;
            const double diff = relativeDifference(fit->values(y, lambda), representer);
            QVERIFY2(diff < 1e-10, qPrintable(QString::number(diff)));
        }
        // Type II: b = q / c.
        const Vector qv = (p.col(0).array().square() * -0.5).exp().matrix();
        setup.loss = FireLoss::L2p;
        RatioTarget two;
        two.values = &qv;
        const auto fit = FireFit::build(p, two, t, setup);
        Matrix a = kpp * kpp * kpp;
        a.diagonal().array() += lambda;
        const Vector v = a.partialPivLu().solve(kpp * qv / deltaNormalizer(t, 2));
        QVERIFY(relativeDifference(fit->values(y, lambda), fy * (fp.transpose() * v) / n) < 1e-10);
    }

    // T3: with every eigenvalue kept, the cut-off is the inverse: f(Xp) = Kpp^-1 b; with
    // fewer, least squares on the kept eigenvectors' span.
    void spectralCutoffIsATruncatedInverse()
    {
        Matrix p(15, 1);
        for (int i = 0; i < 15; ++i) {
            p(i, 0) = 0.5 * i; // spaced: Kpp is well conditioned and its eigenvalues distinct
        }
        const Matrix q = normalRows(25, 1, 10, 2.0);
        const double t = 0.1;
        const Matrix kpp = gaussianGram(p, p, t) / 15.0;
        const Vector b = gaussianGram(p, q, t).rowwise().mean();
        FireSetup setup;
        setup.loss = FireLoss::Cutoff;
        const auto fit = FireFit::build(p, RatioTarget{&q}, t, setup);
        QCOMPARE(fit->cutoffRank(0.0), 15);
        QVERIFY(relativeDifference(fit->sampleValues(0.0), kpp.partialPivLu().solve(b)) < 1e-9);
        Eigen::SelfAdjointEigenSolver<Matrix> eig(kpp);
        const Vector s3 = eig.eigenvalues().array().cube();
        const double lambda = 0.5 * (s3(7) + s3(8)); // keeps the 7 largest
        QCOMPARE(fit->cutoffRank(lambda), 7);
        const Matrix qk = eig.eigenvectors().rightCols(7);
        const Vector expected = qk * (qk.transpose() * b).cwiseQuotient(eig.eigenvalues().tail(7));
        QVERIFY(relativeDifference(fit->sampleValues(lambda), expected) < 1e-9);
    }

    // T4: Type II is linear in q.
    void typeTwoIsLinearInQ()
    {
        const Matrix p = normalRows(50, 2, 12);
        const Vector q1 = (p.col(0).array().square() * -0.5).exp().matrix();
        const Vector q2 = (p.col(1).array() * 0.3).exp().matrix();
        const Vector sum = q1 + 2.5 * q2;
        RatioTarget a, b, c;
        a.values = &q1;
        b.values = &q2;
        c.values = &sum;
        const double t = 0.4, lambda = 1e-4;
        const Vector fa = FireFit::build(p, a, t, FireSetup{})->values(p, lambda);
        const Vector fb = FireFit::build(p, b, t, FireSetup{})->values(p, lambda);
        const Vector fc = FireFit::build(p, c, t, FireSetup{})->values(p, lambda);
        QVERIFY(relativeDifference(fc, fa + 2.5 * fb) < 1e-10);
    }

    // T5/T6: p = N(0,1), q = N(0.5, 0.6^2). Type I at the digest's t = 0.5, lambda = 1e-4
    // (normalized) errs by ~0.107 RMS; Type II with the density q known has mean weight ~1,
    // which it would miss by c = 0.564 without the delta normalizer.
    void gaussianShiftInOneDimension()
    {
        const GaussianShift shift; // 1-D, mean 0.5, sd 0.6
        QVERIFY(std::abs(shift.ratioSecondMoment() - 1.51576) < 1e-4);
        double errors = 0.0, means = 0.0;
        for (uint64_t run = 0; run < 5; ++run) {
            const Matrix p = shift.sampleP(500, 100 + run);
            const Matrix q = shift.sampleQ(500, 200 + run);
            const double lambda = unitLambda(1e-4, 0.5, 1);
            const Vector f =
                FireFit::build(p, RatioTarget{&q}, 0.5, FireSetup{})->values(p, lambda);
            errors += rms(f, shift.ratio(p)) / 5.0;
            means += f.mean() / 5.0;
        }
        QVERIFY2(errors < 0.2, qPrintable(QString::number(errors)));
        QVERIFY2(std::abs(means - 1.0) < 0.05, qPrintable(QString::number(means)));
        // Type II: q known as the N(0.5, 0.36) density.
        const Matrix p = shift.sampleP(500, 300);
        const Vector qv =
            (shift.ratio(p).array() * (-0.5 * p.col(0).array().square()).exp() / std::sqrt(2 * kPi))
                .matrix();
        RatioTarget two;
        two.values = &qv;
        const Vector f =
            FireFit::build(p, two, 0.1, FireSetup{})->values(p, unitLambda(1e-5, 0.1, 1));
        QVERIFY2(std::abs(f.mean() - 1.0) < 0.1, qPrintable(QString::number(f.mean())));
        QVERIFY2(rms(f, shift.ratio(p)) < 0.35,
                 qPrintable(QString::number(rms(f, shift.ratio(p)))));
    }

    // T8: p = N(0, 0.5^2), q = U[-1, 1], t = 0.03, lambda = 1e-5: Type I errs ~0.44 RMS;
    // Type II overshoots and goes negative beyond the support (digest: -3.2 at x = 1.2).
    void paperSimulationTwo()
    {
        double typeOne = 0.0;
        const int runs = 5;
        double negativeBeyond = 0.0;
        for (int run = 0; run < runs; ++run) {
            const Matrix p = normalRows(500, 1, 400 + run, 0.5);
            Rng rng(500 + run);
            Matrix q(500, 1);
            for (int i = 0; i < 500; ++i) {
                q(i, 0) = 2.0 * rng.uniform() - 1.0;
            }
            Vector truth(500);
            for (int i = 0; i < 500; ++i) {
                const double x = p(i, 0);
                truth(i) = std::abs(x) <= 1.0
                               ? 0.5 / (std::exp(-2.0 * x * x) / (0.5 * std::sqrt(2 * kPi)))
                               : 0.0;
            }
            const double lambda = unitLambda(1e-5, 0.03, 1);
            typeOne += rms(FireFit::build(p, RatioTarget{&q}, 0.03, FireSetup{})->values(p, lambda),
                           truth) /
                       runs;
            Vector qv(500);
            for (int i = 0; i < 500; ++i) {
                qv(i) = std::abs(p(i, 0)) <= 1.0 ? 0.5 : 0.0;
            }
            RatioTarget two;
            two.values = &qv;
            Matrix beyond(1, 1);
            beyond << 1.2;
            negativeBeyond += FireFit::build(p, two, 0.03, FireSetup{})->values(beyond, lambda)(0);
        }
        QVERIFY2(typeOne < 0.7, qPrintable(QString::number(typeOne)));
        QVERIFY2(negativeBeyond / runs < -0.5, qPrintable(QString::number(negativeBeyond / runs)));
    }

    // T9: the circle, p(theta) = (1 + 0.5 cos theta)/(2 pi), q uniform: Type II with the
    // intrinsic dimension 1 (digest: RMS ~0.091 at t = 0.2, lambda = 1e-5), Type I ~0.098.
    void inverseDensityOnACircle()
    {
        Rng rng(77);
        Matrix p(1000, 2);
        Vector truth(1000);
        for (int i = 0; i < 1000; ++i) {
            double theta;
            for (;;) { // rejection from the uniform: accept with (1 + 0.5 cos)/1.5
                theta = 2 * kPi * rng.uniform();
                if (rng.uniform() * 1.5 <= 1.0 + 0.5 * std::cos(theta)) {
                    break;
                }
            }
            p(i, 0) = std::cos(theta);
            p(i, 1) = std::sin(theta);
            truth(i) = 1.0 / (1.0 + 0.5 * std::cos(theta));
        }
        const Vector qv = Vector::Constant(1000, 1.0 / (2 * kPi));
        RatioTarget two;
        two.values = &qv;
        two.intrinsicDim = 1.0;
        const Vector f2 =
            FireFit::build(p, two, 0.2, FireSetup{})->values(p, unitLambda(1e-5, 0.2, 1));
        QVERIFY2(rms(f2, truth) < 0.2, qPrintable(QString::number(rms(f2, truth))));
        // With the ambient dimension 2 the scale is off by (2 pi t)^(-1/2).
        two.intrinsicDim = 0.0;
        const Vector wrong =
            FireFit::build(p, two, 0.2, FireSetup{})->values(p, unitLambda(1e-5, 0.2, 1));
        QVERIFY(rms(wrong, truth) > 2.0 * rms(f2, truth));
        Matrix q(1000, 2);
        for (int i = 0; i < 1000; ++i) {
            const double theta = 2 * kPi * rng.uniform();
            q(i, 0) = std::cos(theta);
            q(i, 1) = std::sin(theta);
        }
        const Vector f1 = FireFit::build(p, RatioTarget{&q}, 0.4, FireSetup{})
                              ->values(p, unitLambda(1e-5, 0.4, 2));
        QVERIFY2(rms(f1, truth) < 0.2, qPrintable(QString::number(rms(f1, truth))));
    }

    // T10: 2-D, J-tuned over the paper's grid. The digest's 0.4 ||r|| (its errors 0.34, 0.18,
    // 0.43 came from a grid with t <= 2) is not met on the paper's grid t0 2^j: J prefers wide
    // kernels at this n (our errors 0.73, 0.41, 0.55, ||r|| = 1.40), so the bound is 0.6 ||r||
    // and the oracle's error on the same grid (< 0.2 ||r||) is checked beside it.
    void unsupervisedTuningFindsAUsableRatio()
    {
        GaussianShift shift;
        shift.dim = 2;
        shift.shifted = 2;
        const double norm = std::sqrt(shift.ratioSecondMoment());
        // One run in the sanitizer job (each is the same code on other draws).
        for (uint64_t run = 0; run < (test::kSanitized ? 1u : 3u); ++run) {
            const Matrix p = shift.sampleP(600, 600 + run);
            const Matrix q = shift.sampleQ(600, 700 + run);
            const auto m = fitRatio("fire", p, &q, nullptr, {{"seed", std::to_string(run)}});
            const double error = rms(asRatio(m).ratio(p), shift.ratio(p));
            QVERIFY2(error < 0.6 * norm, qPrintable(QString::number(error)));
            QVERIFY(asRatio(m).surface().has_value());
            QCOMPARE(asRatio(m).surface()->criterion, std::string("J"));
            QCOMPARE(asRatio(m).surface()->j.rows(), Eigen::Index(10));
            QCOMPARE(asRatio(m).surface()->j.cols(), Eigen::Index(6));
            double oracle = 1e300;
            const JSurface& s = *asRatio(m).surface();
            for (double t : s.t) {
                const auto path = FireFit::build(p, RatioTarget{&q}, t, FireSetup{});
                for (double lambda : s.lambda) {
                    oracle = std::min(oracle, rms(path->values(p, lambda), shift.ratio(p)));
                }
            }
            QVERIFY2(oracle < 0.2 * norm, qPrintable(QString::number(oracle)));
            // The path of the fitted model: another lambda without a refit.
            const auto other = asRatio(m).atLambda(1e-3);
            QVERIFY(other && other->lambda() == 1e-3 && other->t() == asRatio(m).t());
        }
    }

    // Type II tuned without a q sample: the held-out residual of the Fredholm equation over the
    // shifted-down grid with one smoothing width (ratio_tuning.h). 2-D shift, q known as the
    // density: NMSE below 0.5 (the in-sample residual on the Type I grid gave 9390, the
    // held-out one with s = t 0.535 on average).
    void typeTwoTunedByHeldOutResidual()
    {
        GaussianShift shift;
        shift.dim = 2;
        shift.shifted = 2;
        for (uint64_t run = 0; run < 2; ++run) {
            const Matrix p = shift.sampleP(600, 1200 + run);
            const Vector qv = (shift.ratio(p).array() *
                               (-0.5 * p.rowwise().squaredNorm().array()).exp() / (2 * kPi))
                                  .matrix();
            const auto m = fitRatio("fire", p, nullptr, &qv, {{"seed", std::to_string(run)}});
            const double e = normalizedSquaredError(asRatio(m).ratio(p), shift.ratio(p));
            QCOMPARE(asRatio(m).surface()->criterion, std::string("residual"));
            QVERIFY(asRatio(m).t() < asRatio(m).surface()->t0 * 8.5);
            qInfo("Type II, run %d: NMSE %.3f at t = %.4g, lambda = %.0e", int(run), e,
                  asRatio(m).t(), asRatio(m).lambda());
            QVERIFY2(e < 0.5, qPrintable(QString::number(e)));
        }
    }

    // J of Eq. 36 with means, by hand; folds beyond the rows are refused.
    void jCriterionUsesMeans()
    {
        Matrix up(4, 2);
        up << 1, 0, 1, 1, 0, 1, 1, 0;
        const Vector f = (Vector(4) << 2, 1, 0, 1).finished();
        const Vector uq = (Vector(2) << 0.5, 0.25).finished();
        // p side: (2+1+0+1)/4 = 1 and (0+1+0+0)/4 = 0.25 -> ((1-0.5)^2 + 0)/2.
        QCOMPARE(jCriterion(up, f, uq), 0.125);
        const Matrix p = normalRows(4, 1, 1);
        const Matrix q = normalRows(4, 1, 2);
        bool thrown = false;
        try {
            fitRatio("fire", p, &q, nullptr, {{"folds", "5"}});
        } catch (const ParameterError& e) {
            thrown = e.parameter() == "folds";
        }
        QVERIFY(thrown);
    }

    // uLSIF's closed-form leave-one-out equals refitting once per left-out pair.
    void ulsifLeaveOneOutMatchesRefits()
    {
        const Matrix p = normalRows(40, 2, 20);
        const Matrix q = normalRows(30, 2, 21, 0.7);
        const Matrix centres = q.topRows(12);
        for (double t : {0.3, 1.0}) {
            const UlsifSystem s{gaussianGram(p, centres, t), gaussianGram(q, centres, t)};
            for (double lambda : {1e-3, 0.1, 1.0}) {
                const double a = ulsifLeaveOneOut(s, lambda);
                const double b = ulsifLeaveOneOutBruteForce(s, lambda);
                QVERIFY2(std::abs(a - b) < 1e-10 * std::max(1.0, std::abs(b)),
                         qPrintable(QString("%1 vs %2").arg(a).arg(b)));
            }
        }
    }

    // The paper's claim (Tables 1-2): on a shift, FIRE's held-out J is below TIKDE's when
    // both are tuned by the same J criterion.
    void fireBeatsTikdeOnHeldOutJ()
    {
        GaussianShift shift;
        shift.dim = 2;
        shift.shifted = 2;
        double fire = 0.0, tikde = 0.0;
        for (uint64_t run = 0; run < 3; ++run) {
            const Matrix p = shift.sampleP(400, 800 + run), q = shift.sampleQ(400, 900 + run);
            const Matrix pe = shift.sampleP(2000, 1000 + run), qe = shift.sampleQ(2000, 1100 + run);
            const auto f = fitRatio("fire", p, &q, nullptr, {});
            const auto k = fitRatio("tikde", p, &q, nullptr, {});
            fire += heldOutJ(asRatio(f), pe, qe, TestFamily::Both, 200, 5000 + run);
            tikde += heldOutJ(asRatio(k), pe, qe, TestFamily::Both, 200, 5000 + run);
        }
        qInfo("held-out J over 3 runs: FIRE %.3g, TIKDE %.3g", fire / 3, tikde / 3);
        QVERIFY(fire < tikde);
    }

    void weightSummariesAndWeightedLeastSquares()
    {
        const Vector w = (Vector(4) << 2.0, -1.0, 1.0, 2.0).finished();
        const WeightSummary s = summarizeWeights(w);
        QCOMPARE(s.mean, 1.0);
        QCOMPARE(s.ess, 16.0 / 10.0);
        QCOMPARE(s.negativeShare, 0.25);
        QCOMPARE(s.chi2, 10.0 / 4.0 - 1.0);
        const Vector r = postProcessWeights(w, WeightForm::Renormalized);
        QCOMPARE(r.mean(), 1.0);
        QCOMPARE(r(1), 0.0);
        // Weighted least squares recovers an exact line whatever the weights.
        Matrix x(5, 1);
        x << 0, 1, 2, 3, 4;
        const Vector y = (1.5 + 2.0 * x.col(0).array()).matrix();
        const Vector beta =
            weightedLeastSquares(x, y, (Vector(5) << 1, 2, 0.5, 3, 1).finished(), true);
        QVERIFY(std::abs(beta(0) - 1.5) < 1e-12 && std::abs(beta(1) - 2.0) < 1e-12);
        QCOMPARE(weightedAverage(Vector::Ones(4), w), 1.0);
    }

    // Every ratio estimator's model reads back to the same values.
    void modelsRoundTrip()
    {
        GaussianShift shift;
        shift.dim = 2;
        shift.shifted = 1;
        const Matrix p = shift.sampleP(150, 31), q = shift.sampleQ(120, 32);
        const Matrix y = shift.sampleP(30, 33);
        const std::vector<std::pair<std::string, std::vector<std::pair<std::string, std::string>>>>
            cases{{"fire", {}},
                  {"fire", {{"form", "features"}, {"rff_features", "60"}, {"loss", "mixed"}}},
                  {"fire", {{"loss", "cutoff"}, {"t", "0.5"}, {"lambda", "1e-6"}}},
                  {"ulsif", {}},
                  {"tikde", {}},
                  {"sosrep-ratio", {}}};
        for (const auto& [name, options] : cases) {
            const auto m = fitRatio(name, p, &q, nullptr, options);
            ParameterMap saved;
            m->save(saved);
            const auto back = EstimatorRegistry::instance().get(name).load(saved, nullptr);
            const Vector a = asRatio(m).ratio(y);
            const Vector b = dynamic_cast<const RatioModel&>(*back).ratio(y);
            QVERIFY2(a.allFinite() && a == b, name.c_str());
        }
    }
};

QTEST_GUILESS_MAIN(TstFire)
#include "tst_fire.moc"
