// SPDX-License-Identifier: MIT
// The pair plot of the current result: panels computed one at a time on a worker.
#include "ui/controller/estimation_controller.h"
#include "ui/controller/worker.h"
#include "ui/plots/pair_plot.h"

namespace sosrep::ui {

void EstimationController::requestPairPlot()
{
    if (!m_result || m_pairRunning || m_pairComplete) {
        if (m_pairComplete) {
            emit pairPlotFinished();
        }
        return;
    }
    // Panels a cancelled run computed stay: it goes on from there.
    const int skip = int(m_pairPanels.size());
    if (*m_pairCancel) {
        m_pairCancel = std::make_shared<std::atomic<bool>>(false); // after an Esc
    }
    m_pairRunning = true;
    const std::shared_ptr<std::atomic<bool>> cancel = m_pairCancel;
    const std::shared_ptr<const FittedModel> model = m_result->fit.model;
    const Matrix x = m_features;
    const quint64 generation = m_resultGeneration;
    const int columns = PairPlot::kMaxColumns;
    const int total = std::min<int>(columns, int(x.cols()));
    const int panels = total * (total + 1) / 2;
    auto* watcher = new QFutureWatcher<bool>(this);
    connect(watcher, &QFutureWatcher<bool>::finished, this, [this, watcher, generation, cancel] {
        watcher->deleteLater();
        if (generation != m_resultGeneration || cancel != m_pairCancel) {
            return; // another result since: its pair plot is asked anew
        }
        m_pairRunning = false;
        emit progressChanged(QString(), 0, 0);
        if (!watcher->result() || *cancel) {
            // Esc while the last panels were on their way counts too: they were dropped, and
            // choosing the pair plot again computes them (complete means every panel is in).
            emit pairPlotCancelled();
            return;
        }
        m_pairComplete = true;
        emit pairPlotFinished();
    });
    emit progressChanged(tr("pair plot"), skip, panels);
    watcher->setFuture(runInWorker([=] {
        return computePairPanels(
            *model, x, columns, 64,
            [this, generation, cancel, panels](PairPanel p) {
                // Each panel to the GUI thread as it is done: the plot fills progressively.
                QMetaObject::invokeMethod(
                    this,
                    [this, generation, cancel, panels, p = std::move(p)]() mutable {
                        if (generation != m_resultGeneration || cancel != m_pairCancel || *cancel) {
                            return;
                        }
                        m_pairPanels.push_back(std::move(p));
                        emit progressChanged(tr("pair plot"), int(m_pairPanels.size()), panels);
                        emit pairPanelReady(int(m_pairPanels.size()) - 1);
                    },
                    Qt::QueuedConnection);
            },
            *cancel, skip);
    }));
}

} // namespace sosrep::ui
