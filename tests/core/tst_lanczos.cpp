// SPDX-License-Identifier: MIT
// The Lanczos basis behind FIRE's tuning folds: orthonormal, T = Q^T A Q, f(A) b recovered from
// a full basis, an invariant space found and flagged, and no basis when it cannot converge.
#include "core/numerics/lanczos.h"
#include "support/random_arrays.h"

#include <Eigen/Eigenvalues>

#include <QtTest>

#include <cmath>

using namespace sosrep;

namespace {

Matrix randomSpd(Eigen::Index n, Eigen::Index rank, uint64_t seed)
{
    const Matrix z = test::normalMatrix(n, rank, seed);
    return z * z.transpose() / double(n);
}

} // namespace

class TstLanczos : public QObject
{
    Q_OBJECT

private slots:
    void basisIsOrthonormalAndReducesA()
    {
        const Matrix a = randomSpd(60, 60, 1);
        const Vector b = test::normalVector(60, 2);
        int asked = 0;
        const auto basis = lanczos(a, b, 60, 5, [&](const SymmetricTridiagonal& t) {
            ++asked;
            return t.size() >= 20;
        });
        QVERIFY(basis.has_value());
        QCOMPARE(basis->q.cols(), Eigen::Index(20));
        QCOMPARE(asked, 4); // at 5, 10, 15 and 20 steps
        QVERIFY(!basis->invariant);
        const Matrix& q = basis->q;
        QVERIFY((q.transpose() * q - Matrix::Identity(20, 20)).norm() < 1e-12);
        QVERIFY((q.transpose() * a * q - basis->t.dense()).norm() < 1e-12 * a.norm());
        QVERIFY((q.col(0) * basis->norm - b).norm() < 1e-14 * b.norm());
    }

    void fullBasisGivesFunctionsOfAExactly()
    {
        // f(A) b = |b| Q f(T) e1 once the basis spans the space (here: all of R^n), with
        // f(s) = 1 / (s^2 + 0.01) through the banded solve.
        const Matrix a = randomSpd(40, 40, 3);
        const Vector b = test::normalVector(40, 4);
        const auto basis = lanczos(a, b, 40, 1, [](const SymmetricTridiagonal&) { return false; });
        QVERIFY(basis.has_value()); // invariant at the last step at the latest
        Vector e1 = Vector::Zero(basis->t.size());
        e1(0) = basis->norm;
        const Vector viaBasis = basis->q * solveTridiagonalQuadratic(basis->t, 0.0, 0.01, e1);
        Matrix m = a * a;
        m.diagonal().array() += 0.01;
        const Vector want = m.ldlt().solve(b);
        QVERIFY2((viaBasis - want).norm() < 1e-9 * want.norm(),
                 qPrintable(QString::number((viaBasis - want).norm() / want.norm())));
    }

    void invariantSpaceIsFlagged()
    {
        // A of rank 3: the Krylov space from any b has dimension 4 (b's part outside A's
        // range, and A's range): the process stops there without being asked (or one step
        // later: rounding leaves the 4th residual at 4e-14 here, above the 1e-13 x max|A_ii|
        // of a breakdown), and what it returns is exact.
        const Matrix a = randomSpd(50, 3, 5);
        const Vector b = test::normalVector(50, 6);
        const auto basis = lanczos(a, b, 50, 10, [](const SymmetricTridiagonal&) { return false; });
        QVERIFY(basis.has_value());
        QVERIFY(basis->invariant);
        QVERIFY2(basis->q.cols() <= 5, qPrintable(QString::number(basis->q.cols())));
        Vector e1 = Vector::Zero(basis->t.size());
        e1(0) = basis->norm;
        const Vector viaBasis = basis->q * solveTridiagonalQuadratic(basis->t, 0.0, 0.01, e1);
        Matrix m = a * a;
        m.diagonal().array() += 0.01;
        QVERIFY((viaBasis - m.ldlt().solve(b)).norm() < 1e-9 * b.norm() / 0.01);
    }

    void noBasisWithoutConvergenceOrForZero()
    {
        const Matrix a = randomSpd(50, 50, 7);
        const auto never = [](const SymmetricTridiagonal&) { return false; };
        QVERIFY(!lanczos(a, test::normalVector(50, 8), 10, 5, never).has_value());
        QVERIFY(!lanczos(a, Vector::Zero(50), 10, 5, never).has_value());
    }
};

QTEST_GUILESS_MAIN(TstLanczos)
#include "tst_lanczos.moc"
