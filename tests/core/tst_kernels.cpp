// SPDX-License-Identifier: MIT
// Tests of the kernels and kernel operators (dense, Nystrom, features).
#include "core/errors.h"
#include "core/kernels/kernel_operator.h"
#include "core/kernels/sdo_spectrum.h"

#include <QtTest>

#include <cmath>

using namespace sosrep;

namespace {

/// Max error over r in [0, 3 l] of the RFF SDO kernel (true units) against a reference g(r).
template <typename F> double rffError(int m, double l, int features, uint64_t seed, F reference)
{
    KernelSpec spec;
    spec.type = KernelType::Sdo;
    spec.sdoOrder = m;
    spec.lengthScale = l;
    spec.features = features;
    spec.seed = seed;
    Matrix origin = Matrix::Zero(1, 1);
    KernelOperator op(origin, spec);
    Matrix pts(61, 1);
    for (int i = 0; i < 61; ++i) {
        pts(i, 0) = 3.0 * l * i / 60.0;
    }
    const Matrix k = op.crossKernel(origin, pts) * std::exp(op.logDiagonal());
    double err = 0.0;
    for (int i = 0; i < 61; ++i) {
        err = std::max(err, std::abs(k(0, i) - reference(pts(i, 0))));
    }
    return err;
}

double sdoM1(double r, double l)
{
    return std::exp(-r / l) / (2.0 * l);
}

double sdoM2(double r, double l)
{
    // arXiv digest section 2.3 with a = l^4: c = 1/l, u = c r / sqrt 2.
    const double c = 1.0 / l;
    const double u = c * r / std::sqrt(2.0);
    return c / (2.0 * std::sqrt(2.0)) * std::exp(-u) * (std::cos(u) + std::sin(u));
}

} // namespace

class TstKernels : public QObject
{
    Q_OBJECT

private slots:
    void sdoG0_matchesReferenceTable_data()
    {
        QTest::addColumn<int>("d");
        QTest::addColumn<int>("m");
        QTest::addColumn<double>("g0");
        // shared/notes/sdo-kernel-reference-values.md, r = 0.
        QTest::newRow("d1m1") << 1 << 1 << 0.5;
        QTest::newRow("d1m2") << 1 << 2 << 0.353553390593;
        QTest::newRow("d2m2") << 2 << 2 << 0.125;
        QTest::newRow("d3m2") << 3 << 2 << 0.0562697697598;
        QTest::newRow("d4m3") << 4 << 3 << 0.00765734576975;
        QTest::newRow("d5m3") << 5 << 3 << 0.0028144773234;
        QTest::newRow("d10m6") << 10 << 6 << 1.39241295772e-07;
    }

    void sdoG0_matchesReferenceTable()
    {
        QFETCH(int, d);
        QFETCH(int, m);
        QFETCH(double, g0);
        QVERIFY(std::abs(std::exp(sdoLogG0(d, m)) / g0 - 1.0) < 1e-10);
    }

    void sdoRff_d1_matchesClosedForms()
    {
        // Error ~ g(0) sqrt(2/T): for T = 20000 about 1% of g(0); allow 3 sigma-ish.
        for (double l : {0.5, 2.0}) {
            const double e1 = rffError(1, l, 20000, 1, [l](double r) { return sdoM1(r, l); });
            const double e2 = rffError(2, l, 20000, 1, [l](double r) { return sdoM2(r, l); });
            QVERIFY2(e1 < 0.03 * sdoM1(0, l), qPrintable(QString::number(e1)));
            QVERIFY2(e2 < 0.03 * sdoM2(0, l), qPrintable(QString::number(e2)));
        }
    }

    void sdoRff_errorShrinksLikeInverseSqrtT()
    {
        // Mean over seeds of the max error at T and 16 T: the ratio should be near 4 (1/sqrt T).
        auto meanError = [](int t) {
            double s = 0.0;
            for (uint64_t seed = 0; seed < 8; ++seed) {
                s += rffError(2, 1.0, t, seed, [](double r) { return sdoM2(r, 1.0); });
            }
            return s / 8.0;
        };
        const double ratio = meanError(500) / meanError(8000);
        QVERIFY2(ratio > 2.8 && ratio < 5.7, qPrintable(QString::number(ratio)));
    }

    void sdoRff_d2d3_matchReferenceValues()
    {
        // Reference g^1 values for (d, m) = (2, 2) and (3, 2) at r = 0.2, 0.5, 1 (l = 1).
        const double ref[2][3] = {{0.120659330573, 0.106885546464, 0.0787808432059},
                                  {0.0486864387936, 0.0386939484417, 0.0254899083645}};
        const double rs[3] = {0.2, 0.5, 1.0};
        for (int di = 0; di < 2; ++di) {
            const int d = 2 + di;
            KernelSpec spec;
            spec.type = KernelType::Sdo;
            spec.sdoOrder = 2;
            spec.features = 40000;
            spec.seed = 3;
            const Matrix origin = Matrix::Zero(1, d);
            KernelOperator op(origin, spec);
            for (int k = 0; k < 3; ++k) {
                Matrix p = Matrix::Zero(1, d);
                p(0, 0) = rs[k];
                const double v = op.crossKernel(origin, p)(0, 0) * std::exp(op.logDiagonal());
                const double g0 = std::exp(op.logDiagonal());
                QVERIFY2(std::abs(v - ref[di][k]) < 0.03 * g0,
                         qPrintable(QStringLiteral("d=%1 r=%2: %3 vs %4")
                                        .arg(d)
                                        .arg(rs[k])
                                        .arg(v)
                                        .arg(ref[di][k])));
            }
        }
    }

    void prop7_scalingIdentity()
    {
        // K^b(x, y) = b^(-d/(2m)) K^1(b^(-1/(2m)) x, b^(-1/(2m)) y) holds exactly for the
        // sampled kernel because radii are drawn once for a = 1 and rescaled.
        const int d = 3;
        KernelSpec s1;
        s1.type = KernelType::Sdo;
        s1.features = 500;
        s1.seed = 11;
        KernelSpec s2 = s1;
        s2.lengthScale = 0.3;
        Matrix x = Matrix::Random(5, d);
        Matrix y = Matrix::Random(4, d);
        KernelOperator k2(x, s2);
        KernelOperator k1(x / s2.lengthScale, s1);
        const Matrix lhs = k2.crossKernel(x, y) * std::exp(k2.logDiagonal());
        const Matrix rhs = k1.crossKernel(x / s2.lengthScale, y / s2.lengthScale) *
                           std::exp(k1.logDiagonal()) * std::pow(s2.lengthScale, -d);
        QVERIFY((lhs - rhs).cwiseAbs().maxCoeff() < 1e-12 * rhs.cwiseAbs().maxCoeff());
    }

    void derivatives_matchFiniteDifferences_data()
    {
        QTest::addColumn<int>("type");
        QTest::addColumn<bool>("exact");
        QTest::newRow("gaussian") << int(KernelType::Gaussian) << false;
        QTest::newRow("laplace") << int(KernelType::Laplace) << false;
        QTest::newRow("sdo") << int(KernelType::Sdo) << false;
        QTest::newRow("sdo-exact") << int(KernelType::Sdo) << true;
    }

    void derivatives_matchFiniteDifferences()
    {
        QFETCH(int, type);
        QFETCH(bool, exact);
        KernelSpec spec;
        spec.type = static_cast<KernelType>(type);
        spec.sdoMethod = exact ? SdoMethod::Exact : SdoMethod::Rff;
        spec.lengthScale = 0.7;
        spec.features = 300;
        const int d = 3;
        std::srand(1);
        const Matrix x = Matrix::Random(20, d);
        const Vector w = Vector::Random(20);
        const Matrix y = Matrix::Random(6, d) * 1.5;
        KernelOperator op(x, spec);
        const FieldValues f = op.evaluate(y, w, true);
        const double h = 1e-5;
        for (Eigen::Index i = 0; i < y.rows(); ++i) {
            double lap = 0.0;
            for (int j = 0; j < d; ++j) {
                Matrix yp = y.row(i);
                Matrix ym = y.row(i);
                yp(0, j) += h;
                ym(0, j) -= h;
                const FieldValues fp = op.evaluate(yp, w, false);
                const FieldValues fm = op.evaluate(ym, w, false);
                const double vp = fp.value(0) * std::exp(fp.logShift(0) - f.logShift(i));
                const double vm = fm.value(0) * std::exp(fm.logShift(0) - f.logShift(i));
                const double grad = (vp - vm) / (2 * h);
                QVERIFY2(std::abs(grad - f.gradient(i, j)) < 1e-6 * (1 + std::abs(grad)),
                         qPrintable(QStringLiteral("%1 vs %2").arg(grad).arg(f.gradient(i, j))));
                lap += (vp - 2 * f.value(i) + vm) / (h * h);
            }
            QVERIFY2(std::abs(lap - f.laplacian(i)) < 1e-3 * (1 + std::abs(lap)),
                     qPrintable(QStringLiteral("%1 vs %2").arg(lap).arg(f.laplacian(i))));
        }
    }

    void lowRankApply_matchesDenseProduct()
    {
        KernelSpec spec;
        spec.type = KernelType::Sdo;
        spec.features = 50; // T < N: applied as Phi (Phi^T a)
        const Matrix x = Matrix::Random(80, 2);
        KernelOperator op(x, spec);
        QCOMPARE(op.backendName(), std::string("rff-lowrank"));
        const Vector a = Vector::Random(80);
        const Matrix k = op.crossKernel(x, x);
        QVERIFY((op.apply(a) - k * a).norm() < 1e-10 * (k * a).norm());
    }

    void denseKernel_refusesWhatMemoryCannotHold()
    {
        // 49097 rows (all of shuttle) would need 9.6 GB as a dense kernel (its packed lower
        // triangle of doubles): asked for dense, it is refused up front with a message that says
        // what to do, instead of exhausting memory.
        const Matrix x = Matrix::Zero(49097, 1);
        KernelSpec spec;
        spec.backend = BackendChoice::Dense;
        try {
            KernelOperator op(x, spec);
            QFAIL("expected a ParameterError");
        } catch (const ParameterError& e) {
            QVERIFY2(QString::fromLatin1(e.what()).contains(
                         QStringLiteral("would need 9.64 GB (limit 4 GB per matrix")),
                     e.what());
        }
        spec.backend = BackendChoice::Auto; // picks the low-rank back-end instead
        spec.rank = 50;
        QCOMPARE(KernelOperator(x, spec).backendName(), std::string("nystrom"));
        spec.type = KernelType::Sdo;
        spec.features = 100; // low rank: fine at this size
        KernelOperator lowRank(x, spec);
        QCOMPARE(lowRank.backendName(), std::string("rff-lowrank"));
    }

    void nystrom_withEveryRowAsLandmarkIsTheDenseKernel()
    {
        std::srand(2);
        const Matrix x = Matrix::Random(120, 2);
        KernelSpec spec;
        spec.lengthScale = 0.5;
        const KernelOperator dense(x, spec);
        spec.backend = BackendChoice::LowRank;
        spec.rank = 120;
        const KernelOperator low(x, spec);
        QCOMPARE(low.backendName(), std::string("nystrom"));
        QCOMPARE(low.rank(), 120);
        const Vector a = Vector::Random(120);
        const Vector ka = dense.apply(a);
        QVERIFY2((low.apply(a) - ka).norm() < 1e-6 * ka.norm(),
                 qPrintable(QString::number((low.apply(a) - ka).norm() / ka.norm())));
        const Matrix y = Matrix::Random(7, 2);
        const FieldValues fd = dense.evaluate(y, a, true);
        const FieldValues fl = low.evaluate(y, a, true);
        for (Eigen::Index i = 0; i < y.rows(); ++i) {
            const double vd = fd.value(i) * std::exp(fd.logShift(i));
            const double vl = fl.value(i) * std::exp(fl.logShift(i));
            QVERIFY(std::abs(vd - vl) < 1e-6 * (1.0 + std::abs(vd)));
            const double ld = fd.laplacian(i) * std::exp(fd.logShift(i));
            const double ll = fl.laplacian(i) * std::exp(fl.logShift(i));
            QVERIFY(std::abs(ld - ll) < 1e-5 * (1.0 + std::abs(ld)));
        }
    }

    void nystrom_isConsistentAndReportsUncoveredRows()
    {
        // M < N: apply, crossKernel and evaluate describe the same low-rank kernel.
        std::srand(3);
        const Matrix x = Matrix::Random(300, 3);
        KernelSpec spec;
        spec.type = KernelType::Laplace;
        spec.lengthScale = 0.8;
        spec.backend = BackendChoice::LowRank;
        spec.rank = 40;
        const KernelOperator op(x, spec);
        QCOMPARE(op.uncoveredRows(), Eigen::Index(0));
        const Vector a = Vector::Random(300);
        const Matrix k = op.crossKernel(x, x);
        QVERIFY((op.apply(a) - k * a).norm() < 1e-9 * (k * a).norm());
        const FieldValues f = op.evaluate(x, a, false);
        const Vector v = f.value.array() * f.logShift.array().exp();
        QVERIFY((v - k * a).norm() < 1e-9 * (k * a).norm());
        // Far finer than 40 landmarks can resolve: most rows see no landmark at all.
        spec.type = KernelType::Gaussian;
        spec.lengthScale = 0.001;
        const KernelOperator fine(x, spec);
        QCOMPARE(fine.uncoveredRows(), Eigen::Index(300 - 40));
    }

    void diagonal_isTheDiagonalApplyUses()
    {
        // Oracle: the diagonal of the matrix apply() multiplies by, column by column.
        std::srand(5);
        const Matrix x = Matrix::Random(150, 2);
        // The largest difference from the oracle, and the diagonal.
        const auto diagonalOf = [&x](const KernelSpec& spec, double* error) {
            const KernelOperator op(x, spec);
            Matrix k(x.rows(), x.rows());
            for (Eigen::Index j = 0; j < x.rows(); ++j) {
                k.col(j) = op.apply(Vector::Unit(x.rows(), j));
            }
            const Vector d = op.diagonal();
            *error = (d - k.diagonal()).cwiseAbs().maxCoeff();
            return d;
        };
        double error = 0.0;
        KernelSpec spec;
        spec.lengthScale = 0.3;
        QVERIFY(diagonalOf(spec, &error) == Vector::Ones(x.rows()));
        QVERIFY(error < 1e-12);
        spec.backend = BackendChoice::LowRank;
        spec.rank = 20;
        const Vector coarse = diagonalOf(spec, &error);
        QVERIFY2(error < 1e-12, qPrintable(QString::number(error)));
        QVERIFY(coarse.maxCoeff() <= 1.0 + 1e-12);
        spec.lengthScale = 0.08; // 20 landmarks cover these rows poorly
        const Vector fine = diagonalOf(spec, &error);
        QVERIFY2(error < 1e-12, qPrintable(QString::number(error)));
        QVERIFY(fine.minCoeff() < 0.1);
        // K_mm numerically of low rank: eigenvalues below 1e-8 of the largest are dropped and
        // those just above are inverted, so the two routes' rounding (1e-16) grows by up to 1e8.
        spec.lengthScale = 30.0;
        diagonalOf(spec, &error);
        QVERIFY2(error < 1e-8, qPrintable(QString::number(error)));
        spec.type = KernelType::Sdo;
        spec.lengthScale = 0.3;
        spec.features = 64;
        const Vector features = diagonalOf(spec, &error);
        QVERIFY2(error < 1e-12, qPrintable(QString::number(error)));
        QVERIFY(features != Vector::Ones(x.rows()));
    }

    void autoBackend_switchesToLowRankForLargeN()
    {
        const Matrix x = Matrix::Random(KernelSpec::kAutoDenseRows + 1, 1);
        KernelSpec spec;
        spec.rank = 50;
        const KernelOperator op(x, spec);
        QCOMPARE(op.backendName(), std::string("nystrom"));
        spec.backend = BackendChoice::Dense;
        const Matrix small = Matrix::Random(100, 1);
        QCOMPARE(KernelOperator(small, spec).backendName(), std::string("dense"));
    }

    void order_mustExceedHalfDimension()
    {
        KernelSpec spec;
        spec.type = KernelType::Sdo;
        spec.sdoOrder = 2;
        QVERIFY_THROWS_EXCEPTION(ParameterError, spec.validate(4));
        QCOMPARE(spec.effectiveOrder(3), 2);
        spec.sdoOrder = 0;
        QCOMPARE(spec.effectiveOrder(4), 3); // floor(d/2) + 1
    }
};

QTEST_APPLESS_MAIN(TstKernels)
#include "tst_kernels.moc"
