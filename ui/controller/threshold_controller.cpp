// SPDX-License-Identifier: MIT
// The Scores view's outlier threshold: the contamination quantile of log values at rows the
// Scores view's model did not fit (runThresholdStage), computed on a worker after the rows are
// scored and again after every fit while a contamination is set.
#include "ui/controller/threshold_controller.h"

#include "ui/controller/extra_fits.h"
#include "ui/controller/option_labels.h"
#include "ui/controller/session.h"
#include "ui/controller/worker.h"

#include <QFutureWatcher>

namespace sosrep::ui {

ThresholdController::ThresholdController(Session* session, QObject* parent)
    : ResultController(session, parent)
{
    // Once the rows are scored: in the fit, or in the Scores view's stage after a large one.
    connect(session, &Session::scoresReady, this, [this] { start(); });
}

void ThresholdController::setContamination(double contamination)
{
    if (contamination != 0.0) {
        try {
            checkContamination(contamination);
        } catch (const ParameterError& e) {
            emit failed(QString::fromStdString(describe(e)));
            return;
        }
    }
    if (contamination == m_contamination) {
        return;
    }
    m_contamination = contamination;
    drop();
    start();
    emit ready(); // cleared (and maybe computing): the views drop the old flags at once
}

void ThresholdController::chooseCutoff(double anomalyScore)
{
    const FitJobResult* result = session()->result();
    if (!result || !result->scoresReady()) {
        return;
    }
    drop();
    m_contamination = 0.0; // the flags come from the cut-off, not from a share
    OutlierThreshold t;
    t.contamination = 0.0;
    t.offset = -anomalyScore; // flagged: log value below the offset, i.e. score above the cut-off
    t.heldOutRows = 0;
    t.method = "chosen on the ROC curve";
    m_threshold = t;
    emit ready();
}

void ThresholdController::drop()
{
    stopJob(); // its answer is dropped; the next job gets a fresh flag
    m_threshold.reset();
    m_running = false;
}

void ThresholdController::start()
{
    const FitJobResult* result = session()->result();
    if (m_contamination <= 0.0 || !result || !result->scoresReady() || m_running || m_threshold) {
        return;
    }
    // The worker's own copies: a new fit replaces the result while it runs.
    const FitJobInput in = session()->resultInput();
    const FitOutcome scores = result->scoresOutcome();
    const bool anomalyModel = result->scoresFit.has_value();
    const double contamination = m_contamination;
    const quint64 generation = session()->resultGeneration();
    const std::shared_ptr<std::atomic<bool>> cancel = jobFlag(); // fresh after an Esc
    const FitJobSink sink =
        progressSink<ResultController>(this, &ResultController::progressChanged);
    m_running = true;
    auto* watcher = new QFutureWatcher<ThresholdStage>(this);
    connect(watcher, &QFutureWatcher<ThresholdStage>::finished, this,
            [this, watcher, generation, cancel] {
                watcher->deleteLater();
                if (!isCurrent(cancel, generation)) {
                    return; // a new fit, new data or another share since: asked anew
                }
                m_running = false;
                emit progressChanged(QString(), 0, 0);
                ThresholdStage stage = watcher->result();
                if (stage.cancelled || *cancel) {
                    return; // Esc: the table stays without flags until the next fit or share
                }
                if (!stage.error.empty()) {
                    emit failed(
                        tr("Outlier threshold: %1").arg(QString::fromStdString(stage.error)));
                    return;
                }
                m_threshold = stage.threshold;
                emit ready();
            });
    watcher->setFuture(runInWorker([in, scores, anomalyModel, contamination, sink, cancel] {
        return runThresholdStage(in, scores, anomalyModel, contamination, sink, *cancel);
    }));
}

} // namespace sosrep::ui
