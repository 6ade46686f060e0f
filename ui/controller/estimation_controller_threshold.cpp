// SPDX-License-Identifier: MIT
// The Scores view's outlier threshold: the contamination quantile of log values at rows the
// Scores view's model did not fit (runThresholdStage), computed on a worker after the rows are
// scored and again after every fit while a contamination is set.
#include "ui/controller/estimation_controller.h"
#include "ui/controller/option_labels.h"
#include "ui/controller/worker.h"

namespace sosrep::ui {

void EstimationController::setContamination(double contamination)
{
    if (contamination != 0.0) {
        try {
            checkContamination(contamination);
        } catch (const ParameterError& e) {
            emit errorOccurred(QString::fromStdString(describe(e)));
            return;
        }
    }
    if (contamination == m_contamination) {
        return;
    }
    m_contamination = contamination;
    dropThreshold();
    requestThreshold();
    emit thresholdReady(); // cleared (and maybe computing): the views drop the old flags at once
}

void EstimationController::dropThreshold()
{
    *m_thresholdCancel = true; // a running one stops; a new one gets a fresh flag
    m_thresholdCancel = std::make_shared<std::atomic<bool>>(false);
    m_threshold.reset();
    m_thresholdRunning = false;
}

void EstimationController::requestThreshold()
{
    if (m_contamination <= 0.0 || !m_result || !m_result->scoresReady() || m_thresholdRunning ||
        m_threshold) {
        return;
    }
    // The worker's own copies: a new fit replaces m_result while it runs.
    const FitJobInput in = m_lastInput;
    const FitOutcome scores = m_result->scoresOutcome();
    const bool anomalyModel = m_result->scoresFit.has_value();
    const double contamination = m_contamination;
    const quint64 generation = m_resultGeneration;
    if (*m_thresholdCancel) {
        m_thresholdCancel = std::make_shared<std::atomic<bool>>(false); // after an Esc
    }
    const std::shared_ptr<std::atomic<bool>> cancel = m_thresholdCancel;
    FitJobSink sink;
    sink.progress = workerSink().progress;
    m_thresholdRunning = true;
    auto* watcher = new QFutureWatcher<ThresholdStage>(this);
    connect(watcher, &QFutureWatcher<ThresholdStage>::finished, this,
            [this, watcher, generation, cancel] {
                watcher->deleteLater();
                if (generation != m_resultGeneration || cancel != m_thresholdCancel) {
                    return; // a new fit, new data or another share since: asked anew
                }
                m_thresholdRunning = false;
                emit progressChanged(QString(), 0, 0);
                ThresholdStage stage = watcher->result();
                if (stage.cancelled || *cancel) {
                    return; // Esc: the table stays without flags until the next fit or share
                }
                if (!stage.error.empty()) {
                    emit errorOccurred(
                        tr("Outlier threshold: %1").arg(QString::fromStdString(stage.error)));
                    return;
                }
                m_threshold = stage.threshold;
                emit thresholdReady();
            });
    watcher->setFuture(runInWorker([in, scores, anomalyModel, contamination, sink, cancel] {
        return runThresholdStage(in, scores, anomalyModel, contamination, sink, *cancel);
    }));
}

} // namespace sosrep::ui
