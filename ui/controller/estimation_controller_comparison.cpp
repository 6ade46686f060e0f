// SPDX-License-Identifier: MIT
// The compare view's stage of a large fit (the second model, its map, the MMDs, the scatter),
// run on a worker after the fit so the other views show first.
#include "ui/controller/estimation_controller.h"
#include "ui/controller/worker.h"

namespace sosrep::ui {

void EstimationController::startComparisonStage()
{
    if (!m_result || !m_result->comparisonDeferred || m_comparisonWatcher) {
        return;
    }
    m_comparisonCancel = false;
    const std::shared_ptr<const FittedModel> model = m_result->fit.model;
    const double lengthScale = m_result->fit.lengthScale;
    const std::optional<GridSpec> grid = m_result->grid.logDensity.size() > 0
                                             ? std::optional<GridSpec>(m_result->grid.spec)
                                             : std::nullopt;
    const FitJobInput in = m_lastInput;
    const quint64 generation = m_resultGeneration;
    FitJobSink sink; // progress only: the stage adds no FD points or traces
    sink.progress = workerSink().progress;
    m_comparisonWatcher = new QFutureWatcher<ComparisonStage>(this);
    connect(
        m_comparisonWatcher, &QFutureWatcher<ComparisonStage>::finished, this, [this, generation] {
            ComparisonStage stage = m_comparisonWatcher->result();
            m_comparisonWatcher->deleteLater();
            m_comparisonWatcher = nullptr;
            emit progressChanged(QString(), 0, 0);
            if (generation != m_resultGeneration || !m_result || stage.cancelled) {
                return; // a new fit (or new data) since, or cancelled: nothing to show
            }
            if (!stage.error.empty()) {
                m_result->comparisonDeferred = false;
                emit errorOccurred(tr("Compare view: %1").arg(QString::fromStdString(stage.error)));
                return;
            }
            mergeComparisonStage(std::move(stage), *m_result);
            // Plot columns changed meanwhile: the comparison's map is of the old ones.
            if (m_result->grid.spec.xColumn != m_result->comparisonGrid.spec.xColumn ||
                m_result->grid.spec.yColumn != m_result->comparisonGrid.spec.yColumn) {
                regrid();
            }
            emit comparisonReady();
            emit comparisonModelReady(); // the label clusters
        });
    m_comparisonWatcher->setFuture(runInWorker([this, in, model, lengthScale, grid, sink] {
        return runComparisonStage(in, *model, lengthScale, grid ? &*grid : nullptr, sink,
                                  m_comparisonCancel);
    }));
}

} // namespace sosrep::ui
