// SPDX-License-Identifier: MIT
// The Optimizer view's natural-vs-standard runs on the fitted kernel, after or apart from a fit.
#include "ui/controller/estimation_controller.h"

#include "core/kernels/kernel_operator.h"
#include "ui/controller/worker.h"

namespace sosrep::ui {

bool EstimationController::rerunSolverComparison()
{
    if (isBusy()) {
        return false;
    }
    const KernelOperator* kernel =
        m_result && m_result->model().kernelField() ? m_result->model().kernel() : nullptr;
    if (!kernel || kernel->uncoveredRows() != 0) {
        emit errorOccurred(tr("The natural-vs-standard comparison runs on a fitted SOSREP or KDE "
                              "kernel: fit one first (F5)"));
        return false;
    }
    m_result->solverRunsDeferred = false; // started now: nothing waits any more
    m_cancel = false;
    // The fit's own runs stay; the comparison's are replaced as they stream in.
    m_traces = m_result->fit.model->report().traces;
    emit traceUpdated();
    // The model (and its kernel) is shared read-only with the worker.
    const std::shared_ptr<const FittedModel> model = m_result->fit.model;
    const SolverComparisonSettings settings = m_solverComparison;
    const uint64_t seed = m_result->settings.values.seed("seed");
    const quint64 generation = m_resultGeneration;
    const FitJobSink sink = workerSink();
    m_solverWatcher = new QFutureWatcher<std::vector<NamedTrace>>(this);
    connect(m_solverWatcher, &QFutureWatcher<std::vector<NamedTrace>>::finished, this,
            [this, generation] {
                std::vector<NamedTrace> runs = m_solverWatcher->result();
                m_solverWatcher->deleteLater();
                m_solverWatcher = nullptr;
                emit busyChanged(false);
                if (generation != m_resultGeneration || !m_result) {
                    emit solverComparisonFinished();
                    return;
                }
                if (runs.empty()) {
                    // Cancelled: the fit itself stands, with what the runs streamed before
                    // the cancel (at the new lambda); the previous lambda's runs are not put
                    // back under the new toolbar values (issue 38).
                    m_result->solverRuns.clear();
                    emit traceUpdated();
                    emit solverComparisonCancelled();
                    emit solverComparisonFinished();
                    return;
                }
                m_result->solverRuns = std::move(runs);
                // The authoritative traces (the streamed rows may lag).
                m_traces = m_result->fit.model->report().traces;
                m_traces.insert(m_traces.end(), m_result->solverRuns.begin(),
                                m_result->solverRuns.end());
                emit traceUpdated();
                emit solverComparisonFinished();
            });
    m_solverWatcher->setFuture(runInWorker([this, model, settings, seed, sink] {
        return runSolverComparison(*model, settings, seed, sink, m_cancel);
    }));
    emit busyChanged(true);
    return true;
}

bool EstimationController::startDeferredSolverComparison()
{
    return solverComparisonDeferred() && !isBusy() && !solverComparisonAsks() &&
           rerunSolverComparison();
}

bool EstimationController::solverComparisonAsks() const
{
    const KernelOperator* kernel =
        m_result && m_result->model().kernelField() ? m_result->model().kernel() : nullptr;
    return kernel &&
           m_solverComparison.entries(kernel->size()) > m_solverComparison.autoStartMaxEntries;
}

} // namespace sosrep::ui
