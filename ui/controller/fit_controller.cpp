// SPDX-License-Identifier: MIT
// The fit's controller: the fit and the optimizer's runs on workers, streamed into the views.
#include "ui/controller/fit_controller.h"

#include "ui/controller/session.h"

#include "core/kernels/kernel_operator.h"
#include "ui/controller/worker.h"

#include <utility>

namespace sosrep::ui {

FitController::FitController(Session* session, QObject* parent)
    : QObject(parent), m_session(session)
{
    connect(session, &Session::cancelRequested, this, [this] { stop(false); });
    connect(session, &Session::resultDropped, this, [this] {
        if (m_session->result()) {
            return; // replaced by this controller's own new result: its traces are shown
        }
        // New data or roles: what ran on the old rows stops, and nothing of it stays.
        stop(true);
        m_sweep.reset();
        m_traces.clear();
        m_fdPoints.clear();
    });
}

FitController::~FitController()
{
    stop(true);
}

void FitController::stop(bool wait)
{
    m_cancel = true;
    // The rows' scores after a large fit stop too (the compare stage that follows them is
    // not started then).
    m_scoresCancel = true;
    if (!wait) {
        return;
    }
    m_comparisonCancel = true;
    for (QFutureWatcherBase* w : {static_cast<QFutureWatcherBase*>(m_watcher),
                                  static_cast<QFutureWatcherBase*>(m_solverWatcher),
                                  static_cast<QFutureWatcherBase*>(m_scoresWatcher),
                                  static_cast<QFutureWatcherBase*>(m_comparisonWatcher)}) {
        if (w) {
            w->waitForFinished();
        }
    }
}

bool FitController::sweepFits(const FitSettings& s) const
{
    // (The fit-row cap is one of the settings compared below: other rows, another sweep.)
    if (!m_sweep || s.estimator != m_sweepSettings.estimator) {
        return false;
    }
    for (const auto& [name, value] : s.values.all()) {
        if (name != "length_scale" &&
            (!m_sweepSettings.values.has(name) || m_sweepSettings.values.text(name) != value)) {
            return false;
        }
    }
    return true;
}

void FitController::appendTrace(const std::string& run, const std::vector<TraceRow>& rows)
{
    for (NamedTrace& t : m_traces) {
        if (t.run == run) {
            t.rows.insert(t.rows.end(), rows.begin(), rows.end());
            return;
        }
    }
    m_traces.push_back({run, SolverStatus::Running, rows});
}

void FitController::fit()
{
    const SessionData& data = m_session->data();
    if (m_session->isBusy() || !data.hasData()) {
        return;
    }
    const FitSettings& settings = m_session->settings();
    m_cancel = false;
    m_traces.clear();
    // A fit at a fixed ℓ keeps the sweep it was picked from (the FD view compares them).
    if (settings.autoLengthScale() || !sweepFits(settings)) {
        m_fdPoints.clear();
    }
    emit traceUpdated();
    emit fdCurveUpdated();

    FitJobInput in;
    in.x = data.features();
    in.scaler = data.scaler();
    in.scoresX = data.scoresFeatures();
    in.scoresScaler = data.scoresScaler();
    in.settings = settings;
    in.compareWith = compareEstimatorFor(settings, m_session->compareChoice());
    in.solverComparison = m_session->solverComparison();
    in.plotX = data.plotX();
    in.plotY = data.plotY();
    in.eagerStagesMaxRows = m_eagerStagesMaxRows;
    m_scoresCancel = m_comparisonCancel = true; // the previous fit's late stages are of no use
    m_input = in;
    const FitJobSink sink = workerSink();
    m_watcher = new QFutureWatcher<FitJobResult>(this);
    connect(m_watcher, &QFutureWatcher<FitJobResult>::finished, this,
            &FitController::onFitFinished);
    m_watcher->setFuture(runInWorker([in, sink, this] { return runFitJob(in, sink, m_cancel); }));
    m_session->setBusy(true);
}

FitJobSink FitController::workerSink()
{
    // Sinks run on the worker; hop to this object's thread with queued calls.
    FitJobSink sink;
    sink.progress = [this](const std::string& stage, int done, int total) {
        QMetaObject::invokeMethod(
            this,
            [this, stage, done, total] {
                emit progressChanged(QString::fromStdString(stage), done, total);
            },
            Qt::QueuedConnection);
    };
    sink.fdPoint = [this](const FdPoint& p) {
        QMetaObject::invokeMethod(
            this,
            [this, p] {
                m_fdPoints.push_back(p);
                emit fdCurveUpdated();
            },
            Qt::QueuedConnection);
    };
    sink.traceRows = [this](const std::string& run, const std::vector<TraceRow>& rows) {
        QMetaObject::invokeMethod(
            this,
            [this, run, rows] {
                appendTrace(run, rows);
                emit traceUpdated();
            },
            Qt::QueuedConnection);
    };
    return sink;
}

void FitController::fitAtLengthScale(double lengthScale)
{
    FitSettings s = m_session->settings();
    s.fixLengthScale(lengthScale); // the clicked l is the one fitted: no multiplier on it
    m_session->setSettings(s);
    fit();
}

void FitController::onFitFinished()
{
    FitJobResult r = m_watcher->result();
    m_watcher->deleteLater();
    m_watcher = nullptr;
    m_session->setBusy(false);
    if (r.cancelled) {
        emit fitCancelled();
        return;
    }
    if (!r.error.empty()) {
        emit m_session->errorOccurred(QString::fromStdString(r.error));
        return;
    }
    if (r.fit.search) {
        m_fdPoints = r.fit.search->curve; // the authoritative curve (the streamed one may lag)
        m_sweep = *r.fit.search;
        m_sweepSettings = r.settings;
    } else if (!sweepFits(r.settings)) {
        m_sweep.reset();
        m_fdPoints.clear();
    }
    // The authoritative traces, with their final statuses (the streamed rows may lag).
    m_traces = r.fit.model->report().traces;
    m_traces.insert(m_traces.end(), r.solverRuns.begin(), r.solverRuns.end());
    m_session->setResult(std::move(r), m_input); // the views show it, then its controllers start
    emit fdCurveUpdated();                       // (the FD view's words read the result's choice)
    emit traceUpdated();
    if (m_session->result()->scoresDeferred) {
        startScoresStage(); // the comparison and the label clusters follow it
    } else {
        startStagesAfterScores(); // the threshold (ThresholdController) once scored
    }
}

bool FitController::rerunSolverComparison()
{
    if (m_session->isBusy()) {
        return false;
    }
    const FitJobResult* result = m_session->result();
    const KernelOperator* kernel =
        result && result->model().kernelField() ? result->model().kernel() : nullptr;
    if (!kernel || kernel->uncoveredRows() != 0) {
        emit m_session->errorOccurred(
            tr("The natural-vs-standard comparison runs on a fitted SOSREP or KDE kernel: fit "
               "one first (F5)"));
        return false;
    }
    const quint64 generation = m_session->resultGeneration();
    m_session->updateResult(generation, ResultPart::Unannounced,
                            [](FitJobResult& r) { r.solverRunsDeferred = false; }); // started
    m_cancel = false;
    // The fit's own runs stay; the comparison's are replaced as they stream in.
    m_traces = result->fit.model->report().traces;
    emit traceUpdated();
    // The model (and its kernel) is shared read-only with the worker.
    const std::shared_ptr<const FittedModel> model = result->fit.model;
    const SolverComparisonSettings settings = m_session->solverComparison();
    const uint64_t seed = result->settings.values.seed("seed");
    const FitJobSink sink = workerSink();
    m_solverWatcher = new QFutureWatcher<std::vector<NamedTrace>>(this);
    connect(m_solverWatcher, &QFutureWatcher<std::vector<NamedTrace>>::finished, this,
            [this, generation] { onSolverRunsFinished(generation); });
    m_solverWatcher->setFuture(runInWorker([this, model, settings, seed, sink] {
        return runSolverComparison(*model, settings, seed, sink, m_cancel);
    }));
    m_session->setBusy(true);
    return true;
}

void FitController::onSolverRunsFinished(quint64 generation)
{
    std::vector<NamedTrace> runs = m_solverWatcher->result();
    m_solverWatcher->deleteLater();
    m_solverWatcher = nullptr;
    m_session->setBusy(false);
    const bool cancelled = runs.empty();
    const bool current =
        m_session->updateResult(generation, ResultPart::Unannounced, [&](FitJobResult& r) {
            // Cancelled: the fit itself stands, with what the runs streamed before the cancel
            // (at the new lambda); the previous lambda's runs are not put back under the new
            // toolbar values (issue 38).
            r.solverRuns = std::move(runs);
            if (!cancelled) {
                // The authoritative traces (the streamed rows may lag).
                m_traces = r.fit.model->report().traces;
                m_traces.insert(m_traces.end(), r.solverRuns.begin(), r.solverRuns.end());
            }
        });
    if (current) {
        emit traceUpdated();
        if (cancelled) {
            emit solverComparisonCancelled();
        }
    }
    emit solverComparisonFinished();
}

bool FitController::solverComparisonDeferred() const
{
    return m_session->result() && m_session->result()->solverRunsDeferred;
}

bool FitController::startDeferredSolverComparison()
{
    return solverComparisonDeferred() && !m_session->isBusy() && !solverComparisonAsks() &&
           rerunSolverComparison();
}

bool FitController::solverComparisonAsks() const
{
    const FitJobResult* result = m_session->result();
    const KernelOperator* kernel =
        result && result->model().kernelField() ? result->model().kernel() : nullptr;
    return kernel && m_session->solverComparison().entries(kernel->size()) >
                         m_session->solverComparison().autoStartMaxEntries;
}

} // namespace sosrep::ui
