// SPDX-License-Identifier: MIT
// The pair plot of the current result (seaborn's pairplot): panels computed one at a time.
#include "ui/controller/pair_plot_controller.h"

#include "ui/controller/session.h"
#include "ui/controller/worker.h"

#include <QFutureWatcher>

namespace sosrep::ui {

PairPlotController::PairPlotController(Session* session, QObject* parent)
    : QObject(parent), m_session(session)
{
    connect(session, &Session::resultDropped, this, &PairPlotController::drop);
    connect(session, &Session::cancelRequested, this, [this] { *m_cancel = true; });
}

void PairPlotController::drop()
{
    *m_cancel = true; // the running panels stop; the next run gets a fresh flag
    m_cancel = std::make_shared<std::atomic<bool>>(false);
    m_panels.clear();
    m_complete = false;
    m_running = false;
}

void PairPlotController::request()
{
    const FitJobResult* result = m_session->result();
    if (!result || m_running || m_complete) {
        if (m_complete) {
            emit finished();
        }
        return;
    }
    // Panels a cancelled run computed stay: it goes on from there.
    const int skip = int(m_panels.size());
    if (*m_cancel) {
        m_cancel = std::make_shared<std::atomic<bool>>(false); // after an Esc
    }
    m_running = true;
    const std::shared_ptr<std::atomic<bool>> cancel = m_cancel;
    const std::shared_ptr<const FittedModel> model = result->fit.model;
    const Matrix x = m_session->data().features();
    const quint64 generation = m_session->resultGeneration();
    const int columns = kMaxColumns;
    const int total = std::min<int>(columns, int(x.cols()));
    const int count = total * (total + 1) / 2;
    const auto current = [this, generation, cancel] {
        return generation == m_session->resultGeneration() && cancel == m_cancel;
    };
    auto* watcher = new QFutureWatcher<bool>(this);
    connect(watcher, &QFutureWatcher<bool>::finished, this, [this, watcher, current, cancel] {
        watcher->deleteLater();
        if (!current()) {
            return; // another result since: its pair plot is asked anew
        }
        m_running = false;
        emit progressChanged(QString(), 0, 0);
        if (!watcher->result() || *cancel) {
            // Esc while the last panels were on their way counts too: they were dropped, and
            // choosing the pair plot again computes them (complete means every panel is in).
            emit cancelled();
            return;
        }
        m_complete = true;
        emit finished();
    });
    emit progressChanged(tr("pair plot"), skip, count);
    watcher->setFuture(runInWorker([=] {
        return computePairPanels(
            *model, x, columns, 64,
            [this, current, cancel, count](PairPanel p) {
                // Each panel to the GUI thread as it is done: the plot fills progressively.
                QMetaObject::invokeMethod(
                    this,
                    [this, current, cancel, count, p = std::move(p)]() mutable {
                        if (!current() || *cancel) {
                            return;
                        }
                        m_panels.push_back(std::move(p));
                        emit progressChanged(tr("pair plot"), int(m_panels.size()), count);
                        emit panelReady(int(m_panels.size()) - 1);
                    },
                    Qt::QueuedConnection);
            },
            *cancel, skip);
    }));
}

} // namespace sosrep::ui
