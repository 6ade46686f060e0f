// SPDX-License-Identifier: MIT
// The banded solves behind FIRE's exact L2,p and RKHS paths against dense solves of the same
// matrices, on random tridiagonal matrices whose eigenvalues span many decades (as a Gram
// matrix's do), and their refusal of matrices that are not positive definite.
#include "core/errors.h"
#include "core/numerics/banded_solvers.h"
#include "support/random_arrays.h"

#include <Eigen/Eigenvalues>
#include <Eigen/LU>

#include <QtTest>

#include <cmath>

using namespace sosrep;

namespace {

/// A symmetric tridiagonal matrix similar to a Gram matrix: Q diag(sigma) Q^T with sigma from 1
/// down to 1e-14, reduced to tridiagonal form.
SymmetricTridiagonal gramLike(Eigen::Index n, uint64_t seed)
{
    const Matrix z = test::normalMatrix(n, n, seed);
    const Matrix q = z.householderQr().householderQ();
    Vector sigma(n);
    for (Eigen::Index i = 0; i < n; ++i) {
        sigma(i) = std::pow(10.0, -14.0 * double(i) / double(std::max<Eigen::Index>(n - 1, 1)));
    }
    const Matrix a = q * sigma.asDiagonal() * q.transpose();
    const Eigen::Tridiagonalization<Matrix> tri(0.5 * (a + a.transpose()));
    return {tri.diagonal(), tri.subDiagonal()};
}

double relative(const Vector& a, const Vector& b)
{
    return (a - b).norm() / b.norm();
}

} // namespace

class TstBandedSolvers : public QObject
{
    Q_OBJECT

private slots:
    void tridiagonalProduct_equalsTheDenseProduct()
    {
        for (Eigen::Index n : {1, 2, 3, 40}) {
            const SymmetricTridiagonal t = gramLike(n, 1 + uint64_t(n));
            const Vector x = test::normalVector(n, 7);
            QVERIFY(relative(t.times(x), t.dense() * x) < 1e-14);
        }
    }

    void shiftedSolve_equalsTheDenseSolve_data()
    {
        QTest::addColumn<int>("n");
        QTest::addColumn<double>("shift");
        for (int n : {1, 2, 5, 200}) {
            for (double shift : {1e-2, 4.6e-4}) {
                QTest::addRow("n %d shift %g", n, shift) << n << shift;
            }
        }
    }

    void shiftedSolve_equalsTheDenseSolve()
    {
        QFETCH(int, n);
        QFETCH(double, shift);
        const SymmetricTridiagonal t = gramLike(n, 3 + uint64_t(n));
        const Vector rhs = test::normalVector(n, 11);
        Matrix m = t.dense();
        m.diagonal().array() += shift;
        const Vector want = m.partialPivLu().solve(rhs);
        const double err = relative(solveShiftedTridiagonal(t, shift, rhs), want);
        QVERIFY2(err < 1e-12, qPrintable(QString::number(err)));
    }

    void quadraticSolve_equalsTheDenseSolve_data()
    {
        QTest::addColumn<int>("n");
        QTest::addColumn<double>("a");
        QTest::addColumn<double>("b");
        for (int n : {1, 2, 3, 5, 200}) {
            // FIRE's L2,p factor T^2 - cT + c^2 (c = lambda^(1/3), lambda 1e-5 and 1e-10) and
            // its RKHS matrix T^2 + lambda.
            for (double lambda : {1e-5, 1e-10}) {
                const double c = std::cbrt(lambda);
                QTest::addRow("n %d L2,p factor lambda %g", n, lambda) << n << -c << c * c;
            }
            QTest::addRow("n %d T^2 + 1e-6", n) << n << 0.0 << 1e-6;
        }
    }

    void quadraticSolve_equalsTheDenseSolve()
    {
        // Condition numbers reach 1e7 (L2,p factor) and 1e6; the dense LU of the same matrix
        // is the oracle, so the tolerance allows for both solves' rounding at that conditioning.
        QFETCH(int, n);
        QFETCH(double, a);
        QFETCH(double, b);
        const SymmetricTridiagonal t = gramLike(n, 5 + uint64_t(n));
        const Vector rhs = test::normalVector(n, 13);
        const Matrix d = t.dense();
        Matrix m = d * d + a * d;
        m.diagonal().array() += b;
        const Vector want = m.partialPivLu().solve(rhs);
        const double err = relative(solveTridiagonalQuadratic(t, a, b, rhs), want);
        QVERIFY2(err < 1e-8, qPrintable(QString::number(err)));
    }

    void cubicFactorisation_solvesTheL2pSystem()
    {
        // (T + c)(T^2 - cT + c^2) = T^3 + lambda with c = lambda^(1/3): FIRE's L2,p filter.
        const SymmetricTridiagonal t = gramLike(150, 17);
        const Vector rhs = test::normalVector(150, 19);
        const Matrix d = t.dense();
        for (double lambda : {1e-5, 1e-7, 1e-10}) {
            const double c = std::cbrt(lambda);
            const Vector got =
                solveTridiagonalQuadratic(t, -c, c * c, solveShiftedTridiagonal(t, c, rhs));
            Matrix m = d * d * d;
            m.diagonal().array() += lambda;
            const Vector want = m.partialPivLu().solve(rhs);
            const double err = relative(got, want);
            QVERIFY2(err < 1e-6, qPrintable(QString::number(lambda) + ": " + QString::number(err)));
        }
    }

    void indefiniteMatrices_areRefused()
    {
        SymmetricTridiagonal t{Vector::Constant(4, -1.0), Vector::Zero(3)};
        const Vector rhs = Vector::Ones(4);
        QVERIFY_THROWS_EXCEPTION(NumericalError, solveShiftedTridiagonal(t, 0.5, rhs));
        QVERIFY_THROWS_EXCEPTION(NumericalError, solveTridiagonalQuadratic(t, 3.0, 1.0, rhs));
        try {
            solveShiftedTridiagonal(t, 0.5, rhs);
        } catch (const NumericalError& e) {
            QVERIFY(std::string(e.what()).find("row 1") != std::string::npos);
        }
    }
};

QTEST_GUILESS_MAIN(TstBandedSolvers)
#include "tst_banded_solvers.moc"
