// SPDX-License-Identifier: MIT
// The Density tab's 1-D views: the density along the only column (from the fit) and the
// closed-form marginals of a plotted column, computed on a worker when asked for.
#include "ui/controller/marginal_controller.h"

#include "ui/controller/session.h"
#include "ui/controller/worker.h"

#include <QFutureWatcher>

#include <stdexcept>
#include <string>
#include <utility>

namespace sosrep::ui {

MarginalController::MarginalController(Session* session, QObject* parent)
    : QObject(parent), m_session(session)
{
    connect(session, &Session::resultDropped, this, &MarginalController::drop);
    // Esc answers a marginal's computation too.
    connect(session, &Session::cancelRequested, this, [this] { *m_cancel = true; });
}

const DensityCurve* MarginalController::curve(int column) const
{
    const FitJobResult* result = m_session->result();
    if (!result) {
        return nullptr;
    }
    if (result->curve.logValues.size() > 0 && result->curve.spec.column == column) {
        return &result->curve;
    }
    const auto it = m_marginals.find(column);
    return it == m_marginals.end() ? nullptr : &it->second;
}

QString MarginalController::unavailable() const
{
    const FitJobResult* result = m_session->result();
    return result ? QString::fromStdString(marginalUnavailableReason(result->model()))
                  : tr("nothing is fitted yet");
}

void MarginalController::drop()
{
    *m_cancel = true; // the running ones stop; new ones get a fresh flag
    m_cancel = std::make_shared<std::atomic<bool>>(false);
    m_marginals.clear();
    m_running.clear();
}

void MarginalController::request(int column)
{
    const FitJobResult* result = m_session->result();
    const Matrix& features = m_session->data().features();
    if (!result || column < 0 || column >= features.cols() || curve(column) ||
        m_running.count(column) || !unavailable().isEmpty()) {
        return;
    }
    // The model is shared (immutable) with the worker; the spec is made here from the rows.
    const std::shared_ptr<const FittedModel> model = result->fit.model;
    const CurveSpec spec = curveAroundData(features, column);
    const quint64 generation = m_session->resultGeneration();
    if (*m_cancel) {
        m_cancel = std::make_shared<std::atomic<bool>>(false); // after an Esc
    }
    const std::shared_ptr<std::atomic<bool>> cancel = m_cancel;
    m_running.insert(column);
    // The curve, or why there is none (the worker's exception, said as it was thrown).
    using Outcome = std::pair<DensityCurve, std::string>;
    auto* watcher = new QFutureWatcher<Outcome>(this);
    connect(watcher, &QFutureWatcher<Outcome>::finished, this, [this, watcher, column, generation] {
        watcher->deleteLater();
        if (generation != m_session->resultGeneration()) {
            return; // a new fit (or new data) since: its own marginals are asked anew
        }
        m_running.erase(column);
        Outcome o = watcher->result();
        if (o.first.cancelled) {
            emit cancelled(column);
            return;
        }
        if (!o.second.empty()) {
            emit failed(tr("No marginal of this column: %1").arg(QString::fromStdString(o.second)));
            return;
        }
        m_marginals[column] = std::move(o.first);
        emit ready(column);
    });
    watcher->setFuture(runInWorker([model, spec, cancel] {
        try {
            return Outcome{marginalCurve(*model, spec, [cancel](int, int) { return !*cancel; }),
                           {}};
        } catch (const std::exception& e) {
            return Outcome{DensityCurve{}, e.what()};
        }
    }));
    emit started(column);
}

} // namespace sosrep::ui
