// SPDX-License-Identifier: MIT
// An exception on a pool thread of an OpenMP region reaches the caller instead of aborting the
// process (issue 52, item 1): out of memory inside a region was SIGABRT ("terminate called
// after throwing std::bad_alloc") in the CLI, the app and the Python interpreter.
//
// This executable replaces malloc so that a test can refuse the large allocations made on the
// pool threads of a region (thread number > 0): the failure then happens where the reports saw
// it, deterministically and without limiting the whole process's memory.
#include "core/data/toy_data.h"
#include "core/kernels/kernel_operator.h"
#include "core/numerics/nearest_neighbours.h"
#include "core/pipeline/fit_route.h"
#include "core/util/parallel_failure.h"

#include "support/cli_run.h"

#include <QTemporaryDir>
#include <QtTest>

#include <omp.h>

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <functional>
#include <new>
#include <stdexcept>

using namespace sosrep;

namespace {

std::atomic<bool> g_refusePool{false};
std::atomic<long> g_refused{0};
constexpr std::size_t kRefusedFrom = 64 * 1024; // larger than the OpenMP runtime's own blocks

} // namespace

#ifndef SOSREP_SANITIZED
extern "C" void* __libc_malloc(std::size_t size);

/// glibc's malloc, except that large blocks asked for on a pool thread inside a parallel region
/// are refused while g_refusePool is set (calloc, realloc and free stay glibc's, which accept
/// these blocks).
extern "C" void* malloc(std::size_t size)
{
    if (g_refusePool.load(std::memory_order_relaxed) && size >= kRefusedFrom && omp_in_parallel() &&
        omp_get_thread_num() != 0) {
        g_refused.fetch_add(1, std::memory_order_relaxed);
        errno = ENOMEM;
        return nullptr;
    }
    return __libc_malloc(size);
}
#endif

namespace {

/// Refuses the pool threads' large allocations for its lifetime.
struct PoolOutOfMemory
{
    PoolOutOfMemory()
    {
        g_refused = 0;
        g_refusePool = true;
    }
    ~PoolOutOfMemory() { g_refusePool = false; }
};

Matrix toyRows(int n, ToyKind kind = ToyKind::TwoMoons)
{
    ToyConfig toy;
    toy.kind = kind;
    toy.n = n;
    toy.seed = 11;
    return generateToyData(toy).x;
}

std::shared_ptr<const FittedModel> fitAt(const std::string& estimator, const Matrix& x)
{
    FitSettings settings = FitSettings::defaults(estimator);
    if (estimator == "kde" || estimator == "sosrep") {
        settings.fixLengthScale(0.2);
    }
    return fitModel(FitData{x, Matrix(), "toy", nullptr}, settings, FitObserver()).model;
}

} // namespace

class TestParallelFailure : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        // A team of four whatever the machine: pool threads exist even on one core.
        omp_set_dynamic(0);
        omp_set_num_threads(4);
    }

    void firstExceptionIsKept_laterBodiesSkipped()
    {
        ParallelFailure failure;
        std::atomic<int> ran{0};
#pragma omp parallel for schedule(static, 1)
        for (int i = 0; i < 4000; ++i) {
            failure.run([&] {
                ++ran;
                if (i == 0) {
                    throw std::out_of_range("zero");
                }
            });
        }
        QVERIFY(failure.failed());
        QVERIFY_THROWS_EXCEPTION(std::out_of_range, failure.rethrow());
        // Each thread stops at its first body after the flag is seen; the team of four ran at
        // most a few bodies each past the first, not all 4000.
        QVERIFY(ran < 4000);
    }

    void noException_rethrowIsSilent()
    {
        ParallelFailure failure;
        double sum = 0.0;
#pragma omp parallel for reduction(+ : sum)
        for (int i = 1; i <= 100; ++i) {
            failure.run([&] { sum += i; });
        }
        QVERIFY(!failure.failed());
        failure.rethrow();
        QCOMPARE(sum, 5050.0);
    }

    void outOfMemoryOnAPoolThread_reachesTheCaller_data()
    {
        QTest::addColumn<QString>("operation");
        for (const char* name : {"cross kernel", "kernel products", "cross distances",
                                 "k nearest neighbours", "kde fit", "sosrep fit", "kde scores"}) {
            QTest::newRow(name) << QString::fromLatin1(name);
        }
    }

    void outOfMemoryOnAPoolThread_reachesTheCaller()
    {
#ifdef SOSREP_SANITIZED
        QSKIP("the sanitizers own malloc here; the release build runs this case");
#endif
        // Before: std::terminate (the test binary aborted). Now: std::bad_alloc on the caller,
        // and the same call afterwards gives the same numbers as one made before the failure
        // (no thread left a half-written buffer or a stale scratch behind).
        QFETCH(QString, operation);
        const Matrix x = toyRows(3000);
        const Matrix queries = toyRows(2000, ToyKind::GaussianMixture);
        KernelSpec spec;
        spec.type = KernelType::Gaussian;
        spec.lengthScale = 0.3;
        std::function<Matrix()> call;
        if (operation == "cross kernel") {
            call = [&] { return KernelOperator(x, spec).crossKernel(queries, x); };
        } else if (operation == "kernel products") {
            KernelSpec dense = spec;
            dense.backend = BackendChoice::Dense;
            const Matrix rhs = Matrix::Ones(x.rows(), 16);
            // The kernel's build and its product (whose per-thread scratch outlives a call).
            call = [&x, dense, rhs] { return KernelOperator(x, dense).applyMany(rhs); };
        } else if (operation == "cross distances") {
            call = [&] { return KernelOperator::crossDistances(queries, x); };
        } else if (operation == "k nearest neighbours") {
            call = [&] { return Matrix(kthNeighbourDistances(x, queries, 5)); };
        } else if (operation == "kde fit" || operation == "sosrep fit") {
            const std::string name = operation == "kde fit" ? "kde" : "sosrep";
            call = [&x, &queries, name] {
                return Matrix(fitAt(name, x)->modelLogValues(queries).values);
            };
        } else if (operation == "kde scores") {
            const auto model = fitAt("kde", x);
            call = [model, &queries] { return Matrix(model->modelLogValues(queries).values); };
        }
        const Matrix before = call();
        {
            const PoolOutOfMemory refused;
            QVERIFY_THROWS_EXCEPTION(std::bad_alloc, call());
        }
        QVERIFY2(g_refused > 0, "no pool thread allocated: the case tests nothing");
        const Matrix after = call();
        QCOMPARE(after.rows(), before.rows());
        QVERIFY(after == before);
    }

    void outOfMemoryOnAPoolThread_isTheCommandLinesExitSix()
    {
#ifdef SOSREP_SANITIZED
        QSKIP("the sanitizers own malloc here; the release build runs this case");
#endif
        QTemporaryDir dir;
        const QString train = dir.filePath(QStringLiteral("train.csv"));
        QString text = QStringLiteral("a,b\n");
        const Matrix x = toyRows(3000);
        for (Eigen::Index i = 0; i < x.rows(); ++i) {
            text += QString::number(x(i, 0), 'g', 17) + QLatin1Char(',') +
                    QString::number(x(i, 1), 'g', 17) + QLatin1Char('\n');
        }
        QVERIFY(writeText(train, text));
        const QString scores = dir.filePath(QStringLiteral("s.csv"));
        CliRun r;
        {
            const PoolOutOfMemory refused;
            r = runSosrep({"fit", "--train", train, "--estimator", "kde", "--length-scale", "0.2",
                           "--scores-out", scores});
        }
        QCOMPARE(r.code, 6);
        QVERIFY2(r.err.contains(QStringLiteral("memory")), qPrintable(r.err));
        QVERIFY(!QFile::exists(scores));
    }
};

QTEST_APPLESS_MAIN(TestParallelFailure)
#include "tst_parallel_failure.moc"
