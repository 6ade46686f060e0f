// SPDX-License-Identifier: MIT
// The stages of a large fit, run on a worker after it so the density view shows first: the Scores
// view's (the anomaly rule's model, every row's score), then the compare view's (the second
// model, its map, the MMDs, the scatter).
#include "ui/controller/fit_controller.h"

#include "ui/controller/session.h"
#include "ui/controller/worker.h"

namespace sosrep::ui {

bool FitController::comparisonPending() const
{
    const FitJobResult* result = m_session->result();
    return m_comparisonWatcher != nullptr ||
           (m_scoresWatcher != nullptr && result && result->comparisonDeferred);
}

void FitController::startScoresStage()
{
    const FitJobResult* result = m_session->result();
    if (!result || !result->scoresDeferred || m_scoresWatcher) {
        return;
    }
    m_scoresCancel = false;
    const FitOutcome fit = result->fit; // the worker's own copy: a new fit replaces the result
    const FitJobInput in = m_session->resultInput();
    const quint64 generation = m_session->resultGeneration();
    FitJobSink sink; // progress only: the stage adds no FD points or traces
    sink.progress = workerSink().progress;
    m_scoresWatcher = new QFutureWatcher<ScoresStage>(this);
    connect(m_scoresWatcher, &QFutureWatcher<ScoresStage>::finished, this, [this, generation] {
        ScoresStage stage = m_scoresWatcher->result();
        m_scoresWatcher->deleteLater();
        m_scoresWatcher = nullptr;
        emit progressChanged(QString(), 0, 0);
        // (A new fit, or new data, since: nothing to show.)
        m_session->updateResult(generation, ResultPart::Scores, [&](FitJobResult& result) {
            result.scoresDeferred = false;
            if (stage.cancelled) {
                // Esc: the views say the rows were not scored (they waited for scores before).
                result.scoresCancelled = true;
                return;
            }
            if (!stage.error.empty()) { // no row scores: the views say so
                emit m_session->errorOccurred(
                    tr("Scores view: %1").arg(QString::fromStdString(stage.error)));
            } else {
                mergeScoresStage(std::move(stage), result);
            }
            startStagesAfterScores(); // first, so that comparisonPending() holds at scoresReady
        });
    });
    m_scoresWatcher->setFuture(runInWorker(
        [this, in, fit, sink] { return runScoresStage(in, fit, sink, m_scoresCancel); }));
}

void FitController::startStagesAfterScores()
{
    if (m_session->result()->comparisonDeferred) {
        startComparisonStage(); // the label clusters follow it
    } else {
        m_session->updateResult(m_session->resultGeneration(), ResultPart::ComparisonModel);
    }
}

void FitController::startComparisonStage()
{
    const FitJobResult* result = m_session->result();
    if (!result || !result->comparisonDeferred || m_comparisonWatcher) {
        return;
    }
    m_comparisonCancel = false;
    const std::shared_ptr<const FittedModel> model = result->fit.model;
    const double lengthScale = result->fit.lengthScale;
    const std::optional<GridSpec> grid = result->grid.logDensity.size() > 0
                                             ? std::optional<GridSpec>(result->grid.spec)
                                             : std::nullopt;
    const FitJobInput in = m_session->resultInput();
    const quint64 generation = m_session->resultGeneration();
    FitJobSink sink; // progress only: the stage adds no FD points or traces
    sink.progress = workerSink().progress;
    m_comparisonWatcher = new QFutureWatcher<ComparisonStage>(this);
    connect(m_comparisonWatcher, &QFutureWatcher<ComparisonStage>::finished, this,
            [this, generation] {
                ComparisonStage stage = m_comparisonWatcher->result();
                m_comparisonWatcher->deleteLater();
                m_comparisonWatcher = nullptr;
                emit progressChanged(QString(), 0, 0);
                if (stage.cancelled) {
                    return; // cancelled: nothing to show
                }
                // (A new fit, or new data, since: nothing to show.)
                const std::string error = stage.error;
                m_session->updateResult(
                    generation, error.empty() ? ResultPart::Comparison : ResultPart::Unannounced,
                    [&](FitJobResult& result) {
                        if (!error.empty()) {
                            result.comparisonDeferred = false;
                        } else {
                            mergeComparisonStage(std::move(stage), result);
                        }
                    });
                if (!error.empty() && generation == m_session->resultGeneration()) {
                    emit m_session->errorOccurred(
                        tr("Compare view: %1").arg(QString::fromStdString(error)));
                }
                // (Plot columns changed meanwhile: GridController evaluates the maps again.)
            });
    m_comparisonWatcher->setFuture(runInWorker([this, in, model, lengthScale, grid, sink] {
        return runComparisonStage(in, *model, lengthScale, grid ? &*grid : nullptr, sink,
                                  m_comparisonCancel);
    }));
}

} // namespace sosrep::ui
