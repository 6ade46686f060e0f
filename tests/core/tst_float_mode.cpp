// SPDX-License-Identifier: MIT
// Subnormal numbers flushed while core computes, in every thread, and the caller's mode given
// back (issue 48): the scope itself, core's parallel regions without one, kernel entries that
// are exact zeros, and the threads of a fit.
#include "core/data/toy_data.h"
#include "core/kernels/kernel_operator.h"
#include "core/kernels/packed_symmetric.h"
#include "core/numerics/flushed_exp.h"
#include "core/pipeline/fit_route.h"
#include "core/util/float_mode.h"

#include "support/thread_modes.h"

#include <QtTest>

#include <omp.h>

#include <cfloat>
#include <cmath>
#include <limits>
#include <thread>
#include <vector>

using namespace sosrep;
using Threads = FlushSubnormalsScope::Threads;

namespace {

/// 1e-300 * 1e-10 on the calling thread: 1e-310 (subnormal), or 0 when results are flushed.
double subnormalProduct()
{
    volatile double a = 1e-300;
    volatile double b = 1e-10;
    return a * b;
}

/// The identity plus `tiny` off the diagonal, n x n.
Matrix nearIdentity(Eigen::Index n, double tiny)
{
    Matrix k = Matrix::Constant(n, n, tiny);
    k.diagonal().setOnes();
    return k;
}

/// 1e-10 at even rows, 0 at odd ones: K x at an odd row is a sum of products 1e-310 alone.
Vector evenRows(Eigen::Index n)
{
    Vector x = Vector::Zero(n);
    for (Eigen::Index i = 0; i < n; i += 2) {
        x(i) = 1e-10;
    }
    return x;
}

} // namespace

class TestFloatMode : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        // The test's own threads start in the default mode, like a user's.
        QVERIFY(!flushesSubnormals());
        QVERIFY(subnormalProduct() > 0.0);
    }

    void scope_flushesTheCallerAndGivesItsModeBack()
    {
        {
            const FlushSubnormalsScope flushed;
            QVERIFY(flushesSubnormals());
            QCOMPARE(subnormalProduct(), 0.0);
            {
                const FlushSubnormalsScope nested;
                QVERIFY(flushesSubnormals());
                const FlushSubnormalsScope::Paused users;
                QVERIFY(!flushesSubnormals()); // a callback into the user's code
                QVERIFY(subnormalProduct() > 0.0);
            }
            QVERIFY(flushesSubnormals()); // the nested scope left the outer one in charge
        }
        QVERIFY(!flushesSubnormals());
        QVERIFY(subnormalProduct() > 0.0);
        const FlushSubnormalsScope::Paused outside; // outside any scope: nothing to pause
        QVERIFY(!flushesSubnormals());
    }

    void callerAndPool_setsEveryPoolThread_andRestoresEach()
    {
        omp_set_num_threads(4);
        QCOMPARE(poolModes(4), std::vector<int>(4, 0));
        {
            const FlushSubnormalsScope flushed(Threads::CallerAndPool);
            QVERIFY(flushesSubnormals());
            QCOMPARE(poolModes(4), std::vector<int>(4, 1));
            QCOMPARE(poolModes(2), std::vector<int>(2, 1)); // any smaller team: the same threads
        }
        QCOMPARE(poolModes(4), std::vector<int>(4, 0));
        QVERIFY(!flushesSubnormals());
    }

    void callerAndPool_newPoolThreads_keepTheCallersMode()
    {
        // A thread of its own has a pool of its own, created by the scope: its threads must not
        // inherit the scope's mode as theirs.
        std::vector<int> during, after;
        std::thread t([&] {
            omp_set_num_threads(3);
            {
                const FlushSubnormalsScope flushed(Threads::CallerAndPool);
                during = poolModes(3);
            }
            after = poolModes(3);
        });
        t.join();
        QCOMPARE(during, std::vector<int>(3, 1));
        QCOMPARE(after, std::vector<int>(3, 0));
    }

    void coreProducts_flushInEveryThread_withoutAScopeOfTheCaller()
    {
        // K x with products 1e-300 * 1e-10 at odd rows: 1e-307 in all (a normal number) when
        // each product is kept, exactly 0 when they are flushed. The panels of the packed
        // product run on every thread of the team.
        omp_set_num_threads(2);
        const Eigen::Index n = 1200;
        const KernelOperator k = KernelOperator::fromMatrix(nearIdentity(n, 1e-300));
        const Vector y = k.apply(evenRows(n));
        for (Eigen::Index i = 1; i < n; i += 2) {
            QCOMPARE(y(i), 0.0);
        }
        QCOMPARE(y(0), 1e-10);
        QVERIFY(!flushesSubnormals()); // the caller's mode is its own again
        QCOMPARE(poolModes(2), std::vector<int>(2, 0));
    }

    void singlePrecisionSubnormalEntries_readAsZero()
    {
        // A single-precision entry of 4e-39 (subnormal in float, normal once in double): with
        // denormals-are-zero the product reads it as 0.
        omp_set_num_threads(2);
        const Eigen::Index n = 1000;
        const PackedSymmetric k =
            PackedSymmetric::fromLower(nearIdentity(n, 4e-39), PackedSymmetric::Precision::Single);
        QVERIFY(std::fpclassify(static_cast<float>(4e-39)) == FP_SUBNORMAL);
        Vector x = Vector::Zero(n);
        x(0) = 1.0;
        const Vector y = k.multiply(x);
        QCOMPARE(y(0), 1.0);
        for (Eigen::Index i = 1; i < n; ++i) {
            QCOMPARE(y(i), 0.0);
        }
    }

    void flushedExp_belowTheSmallestNormal_isExactlyZero()
    {
        // Eigen's vectorized exp clamps its argument and returns a subnormal number for these.
        Eigen::ArrayXd d(5);
        d << -700.0, -709.0, -720.0, -745.0, -1e4;
        const Eigen::ArrayXd e = flushedExp(d);
        QCOMPARE(e(0), std::exp(-700.0));
        for (Eigen::Index i = 1; i < d.size(); ++i) {
            QCOMPARE(e(i), 0.0);
        }
        Eigen::ArrayXf f(3);
        f << -80.0f, -88.0f, -200.0f;
        const Eigen::ArrayXf ef = flushedExp(f);
        QVERIFY(ef(0) > 0.0f && ef(0) >= FLT_MIN);
        QCOMPARE(ef(1), 0.0f);
        QCOMPARE(ef(2), 0.0f);
        // Negative entries (the SDO kernel has them) are flushed by magnitude, not removed.
        Eigen::ArrayXd s(3);
        s << -0.25, -1e-310, 1e-320;
        flushSubnormalEntries(s);
        QCOMPARE(s(0), -0.25);
        QCOMPARE(s(1), 0.0);
        QCOMPARE(s(2), 0.0);
    }

    void kernelEntries_belowTheSmallestNormal_areExactZeros_data()
    {
        QTest::addColumn<int>("type");
        QTest::newRow("gaussian") << int(KernelType::Gaussian);
        QTest::newRow("laplace") << int(KernelType::Laplace);
    }

    void kernelEntries_belowTheSmallestNormal_areExactZeros()
    {
        QFETCH(int, type);
        // Rows 1 apart at l = 0.0263 (Gaussian: r^2 / 2l^2 = 723) or l = 1/720 (Laplace): the
        // true kernel value ~1e-314 is subnormal.
        Matrix x(3, 1);
        x << 0.0, 1.0, 2.0;
        KernelSpec spec;
        spec.type = KernelType(type);
        spec.lengthScale = spec.type == KernelType::Gaussian ? 0.0263 : 1.0 / 720.0;
        const KernelOperator k(x, spec);
        const Matrix cross = k.crossKernel(x, x);
        QCOMPARE(cross(0, 1), 0.0);
        QCOMPARE(cross(1, 2), 0.0);
        QCOMPARE(cross(0, 0), 1.0);
        // The field at a query between two rows: its values per point are shifted by the nearest
        // row, so the nearest term is 1 and the other (~1e-314 relative) exactly 0.
        Matrix y(1, 1);
        y << 0.0;
        const FieldValues f = k.evaluate(y, Vector::Ones(3), true);
        QCOMPARE(f.value(0), 1.0);
    }

    void fit_runsItsOpenMpThreadsFlushed()
    {
        // During a fit, the OpenMP threads the fit's regions use flush subnormal numbers: read
        // inside a region of the caller's pool from the fit's progress callback, which runs on
        // the calling thread between solver steps. After it every thread's mode is its own.
        omp_set_num_threads(2);
        ToyConfig toy;
        toy.kind = ToyKind::TwoMoons;
        toy.n = 300;
        toy.seed = 3;
        const Dataset d = generateToyData(toy);
        FitSettings settings = FitSettings::defaults("sosrep");
        std::vector<std::vector<int>> seen;
        bool callerFlushed = true;
        FitObserver observer;
        observer.progress = [&](const std::string&, int, int) {
            callerFlushed = callerFlushed && flushesSubnormals();
            if (seen.size() < 5) {
                seen.push_back(poolModes(2));
            }
        };
        const FitOutcome out =
            fitModel(FitData{d.x, Matrix(), "moons", nullptr}, settings, observer);
        QVERIFY(out.model);
        QVERIFY(callerFlushed);
        QVERIFY(!seen.empty());
        for (const std::vector<int>& modes : seen) {
            QCOMPARE(modes, std::vector<int>(2, 1));
        }
        QVERIFY(!flushesSubnormals());
        QCOMPARE(poolModes(2), std::vector<int>(2, 0));
    }
};

QTEST_APPLESS_MAIN(TestFloatMode)
#include "tst_float_mode.moc"
