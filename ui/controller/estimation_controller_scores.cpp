// SPDX-License-Identifier: MIT
// The Scores view's stage of a large fit (the anomaly rule's model, every row's score), run on
// a worker after the fit so the density view shows first; the compare view's stage follows.
#include "ui/controller/estimation_controller.h"
#include "ui/controller/worker.h"

namespace sosrep::ui {

void EstimationController::startScoresStage()
{
    if (!m_result || !m_result->scoresDeferred || m_scoresWatcher) {
        return;
    }
    m_scoresCancel = false;
    const FitOutcome fit = m_result->fit; // the worker's own copy: a new fit replaces m_result
    const FitJobInput in = m_lastInput;
    const quint64 generation = m_resultGeneration;
    FitJobSink sink; // progress only: the stage adds no FD points or traces
    sink.progress = workerSink().progress;
    m_scoresWatcher = new QFutureWatcher<ScoresStage>(this);
    connect(m_scoresWatcher, &QFutureWatcher<ScoresStage>::finished, this, [this, generation] {
        ScoresStage stage = m_scoresWatcher->result();
        m_scoresWatcher->deleteLater();
        m_scoresWatcher = nullptr;
        emit progressChanged(QString(), 0, 0);
        if (generation != m_resultGeneration || !m_result) {
            return; // a new fit (or new data) since: nothing to show
        }
        if (stage.cancelled) {
            // Esc: the views say the rows were not scored (they waited for scores before).
            m_result->scoresDeferred = false;
            m_result->scoresCancelled = true;
            emit scoresReady();
            return;
        }
        if (!stage.error.empty()) {
            m_result->scoresDeferred = false; // no row scores: the views say so
            emit errorOccurred(tr("Scores view: %1").arg(QString::fromStdString(stage.error)));
        } else {
            mergeScoresStage(std::move(stage), *m_result);
        }
        startStagesAfterScores(); // first, so that comparisonPending() holds at scoresReady
        emit scoresReady();       // the threshold (ThresholdController) follows
    });
    m_scoresWatcher->setFuture(runInWorker(
        [this, in, fit, sink] { return runScoresStage(in, fit, sink, m_scoresCancel); }));
}

void EstimationController::startStagesAfterScores()
{
    if (m_result->comparisonDeferred) {
        startComparisonStage(); // the label clusters follow it
    } else {
        emit comparisonModelReady();
    }
}

} // namespace sosrep::ui
