// SPDX-License-Identifier: MIT
// The density maps' controller: the result's grids for the current plot columns, on a worker.
#include "ui/controller/grid_controller.h"

#include "ui/controller/session.h"
#include "ui/controller/view_scaling.h"
#include "ui/controller/worker.h"

namespace sosrep::ui {

GridController::GridController(Session* session, QObject* parent)
    : QObject(parent), m_session(session)
{
    connect(session, &Session::plotColumnsChanged, this, &GridController::regrid);
    // A fit or its compare stage that ran while the columns changed drew the old ones.
    const auto catchUp = [this] {
        if (gridsAreStale()) {
            regrid();
        }
    };
    connect(session, &Session::resultReady, this, catchUp);
    connect(session, &Session::comparisonReady, this, catchUp);
}

GridController::~GridController()
{
    if (m_watcher) {
        m_cancel = true;
        m_watcher->waitForFinished();
    }
}

bool GridController::gridsAreStale() const
{
    const FitJobResult* r = m_session->result();
    if (!r || r->grid.logDensity.size() == 0) {
        return false;
    }
    const SessionData& data = m_session->data();
    const bool comparisonStale = r->comparisonGrid.logDensity.size() > 0 &&
                                 (r->comparisonGrid.spec.xColumn != r->grid.spec.xColumn ||
                                  r->comparisonGrid.spec.yColumn != r->grid.spec.yColumn);
    return r->grid.spec.xColumn != data.plotX() || r->grid.spec.yColumn != data.plotY() ||
           comparisonStale;
}

void GridController::regrid()
{
    // Only on the features the model was fitted in: after a change of scaling the result is
    // stale (the banner says so) and its grids stay as they were.
    const FitJobResult* result = m_session->result();
    const SessionData& data = m_session->data();
    if (!result || m_session->isBusy() || data.features().cols() < 2 ||
        viewScaling(result->settings, "density") != viewScaling(m_session->settings(), "density")) {
        return;
    }
    if (m_watcher) {
        m_cancel = true; // the finished handler starts again with the current columns
        return;
    }
    m_cancel = false;
    const std::shared_ptr<const FittedModel> model = result->fit.model;
    const std::shared_ptr<const FittedModel> comparison = result->comparison;
    const GridSpec spec =
        gridAroundData(data.features(), data.plotX(), data.plotY(), result->grid.spec.nx);
    const quint64 forResult = m_session->resultGeneration();
    m_watcher = new QFutureWatcher<Grids>(this);
    connect(m_watcher, &QFutureWatcher<Grids>::finished, this, [this, forResult, spec] {
        Grids g = m_watcher->result();
        m_watcher->deleteLater();
        m_watcher = nullptr;
        emit progressChanged(QString(), 0, 0);
        // Applied only to the result it was computed for and only if the columns are still
        // these ones; otherwise evaluated again for the current columns.
        if (forResult != m_session->resultGeneration()) {
            return;
        }
        if (!m_cancel && !g.model.cancelled && spec.xColumn == m_session->data().plotX() &&
            spec.yColumn == m_session->data().plotY()) {
            m_session->updateResult(forResult, ResultPart::Grids, [&g](FitJobResult& r) {
                r.grid = std::move(g.model);
                r.comparisonGrid = std::move(g.comparison);
            });
            return;
        }
        regrid();
    });
    const auto progress = [this](int done, int total) {
        QMetaObject::invokeMethod(
            this, [this, done, total] { emit progressChanged(tr("density grid"), done, total); },
            Qt::QueuedConnection);
        return !m_cancel.load();
    };
    m_watcher->setFuture(runInWorker([model, comparison, spec, progress] {
        Grids g;
        g.model = evaluateGrid(*model, spec, progress);
        if (comparison && !g.model.cancelled) {
            g.comparison = evaluateGrid(*comparison, spec, progress);
        }
        return g;
    }));
}

} // namespace sosrep::ui
