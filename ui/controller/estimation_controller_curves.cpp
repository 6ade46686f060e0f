// SPDX-License-Identifier: MIT
// The Density tab's 1-D views: the density along the only column (from the fit) and the
// closed-form marginals of a plotted column, computed on a worker when asked for.
#include "ui/controller/estimation_controller.h"
#include "ui/controller/worker.h"

#include <stdexcept>
#include <string>
#include <utility>

namespace sosrep::ui {

const DensityCurve* EstimationController::curve(int column) const
{
    if (!m_result) {
        return nullptr;
    }
    if (m_result->curve.logValues.size() > 0 && m_result->curve.spec.column == column) {
        return &m_result->curve;
    }
    const auto it = m_marginals.find(column);
    return it == m_marginals.end() ? nullptr : &it->second;
}

QString EstimationController::marginalUnavailable() const
{
    return m_result ? QString::fromStdString(marginalUnavailableReason(m_result->model()))
                    : tr("nothing is fitted yet");
}

void EstimationController::dropMarginals()
{
    *m_marginalCancel = true; // the running ones stop; new ones get a fresh flag
    m_marginalCancel = std::make_shared<std::atomic<bool>>(false);
    m_marginals.clear();
    m_marginalsRunning.clear();
    *m_pairCancel = true; // and the pair plot's panels
    m_pairCancel = std::make_shared<std::atomic<bool>>(false);
    m_pairPanels.clear();
    m_pairComplete = false;
    m_pairRunning = false;
    *m_hueCancel = true; // the classes belong to the result too
    m_hueCancel = std::make_shared<std::atomic<bool>>(false);
    m_hue.reset();
}

void EstimationController::requestMarginal(int column)
{
    if (!m_result || column < 0 || column >= m_features.cols() || curve(column) ||
        m_marginalsRunning.count(column) || !marginalUnavailable().isEmpty()) {
        return;
    }
    // The model is shared (immutable) with the worker; the spec is made here from the rows.
    const std::shared_ptr<const FittedModel> model = m_result->fit.model;
    const CurveSpec spec = curveAroundData(m_features, column);
    const quint64 generation = m_resultGeneration;
    if (*m_marginalCancel) {
        m_marginalCancel = std::make_shared<std::atomic<bool>>(false); // after an Esc
    }
    const std::shared_ptr<std::atomic<bool>> cancel = m_marginalCancel;
    m_marginalsRunning.insert(column);
    // The curve, or why there is none (the worker's exception, said as it was thrown).
    using Outcome = std::pair<DensityCurve, std::string>;
    auto* watcher = new QFutureWatcher<Outcome>(this);
    connect(watcher, &QFutureWatcher<Outcome>::finished, this, [this, watcher, column, generation] {
        watcher->deleteLater();
        if (generation != m_resultGeneration) {
            return; // a new fit (or new data) since: its own marginals are asked anew
        }
        m_marginalsRunning.erase(column);
        Outcome o = watcher->result();
        if (o.first.cancelled) {
            emit curveCancelled(column);
            return;
        }
        if (!o.second.empty()) {
            emit errorOccurred(
                tr("No marginal of this column: %1").arg(QString::fromStdString(o.second)));
            return;
        }
        m_marginals[column] = std::move(o.first);
        emit curveReady(column);
    });
    watcher->setFuture(runInWorker([model, spec, cancel] {
        try {
            return Outcome{marginalCurve(*model, spec, [cancel](int, int) { return !*cancel; }),
                           {}};
        } catch (const std::exception& e) {
            return Outcome{DensityCurve{}, e.what()};
        }
    }));
    emit curveStarted(column);
}

} // namespace sosrep::ui
