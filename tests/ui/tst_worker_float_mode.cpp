// SPDX-License-Identifier: MIT
// The app's worker threads compute with subnormal numbers flushed (issue 48): a fit job
// started as the views start theirs reads flush-to-zero on its thread and in the OpenMP
// threads its regions use, while the GUI thread keeps its own mode.
#include "core/data/toy_data.h"
#include "core/util/float_mode.h"
#include "ui/controller/fit_job.h"
#include "ui/controller/worker.h"

#include "support/thread_modes.h"

#include <QtTest>

#include <omp.h>

#include <atomic>
#include <mutex>
#include <vector>

using namespace sosrep;
using namespace sosrep::ui;

class TstWorkerFloatMode : public QObject
{
    Q_OBJECT

private slots:
    void aFitJob_runsFlushedOnItsWorkerAndItsOpenMpThreads()
    {
        QVERIFY(!flushesSubnormals()); // the GUI thread of this test: the default mode
        omp_set_num_threads(2);
        FitJobInput in;
        ToyConfig toy;
        toy.kind = ToyKind::TwoMoons;
        toy.n = 400;
        toy.seed = 5;
        in.x = generateToyData(toy).x;
        in.settings = FitSettings::defaults("sosrep");
        in.solverComparison.enabled = false;
        std::mutex mutex;
        std::vector<std::vector<int>> seen; // per progress report: the worker's, then its pool's
        FitJobSink sink;
        sink.progress = [&](const std::string&, int, int) {
            const std::lock_guard<std::mutex> lock(mutex);
            if (seen.size() < 8) {
                std::vector<int> modes{flushesSubnormals() ? 1 : 0};
                for (int m : poolModes(2)) {
                    modes.push_back(m);
                }
                seen.push_back(modes);
            }
        };
        std::atomic<bool> cancel{false};
        QFuture<FitJobResult> job = runInWorker([&] { return runFitJob(in, sink, cancel); });
        job.waitForFinished();
        const FitJobResult r = job.result();
        QVERIFY2(r.error.empty(), r.error.c_str());
        QVERIFY(r.fit.model);
        QVERIFY(!seen.empty());
        for (const std::vector<int>& modes : seen) {
            QCOMPARE(modes, std::vector<int>(3, 1));
        }
        QVERIFY(!flushesSubnormals()); // the GUI thread's mode is untouched
        QCOMPARE(poolModes(2), std::vector<int>(2, 0));
    }
};

QTEST_MAIN(TstWorkerFloatMode)
#include "tst_worker_float_mode.moc"
