// SPDX-License-Identifier: MIT
// The common part of a view's controller: the session it listens to and its one job.
#include "ui/controller/result_controller.h"

#include "ui/controller/session.h"

namespace sosrep::ui {

ResultController::ResultController(Session* session, QObject* parent)
    : QObject(parent), m_session(session)
{
    // Lambdas, not the members themselves: drop() and start() are the subclass's.
    connect(session, &Session::resultDropped, this, [this] { drop(); });
    connect(session, &Session::resultReady, this, [this] { start(); });
    connect(session, &Session::cancelRequested, this, [this] { *m_cancel = true; });
}

void ResultController::stopJob()
{
    *m_cancel = true;
    m_cancel = std::make_shared<std::atomic<bool>>(false);
}

std::shared_ptr<std::atomic<bool>> ResultController::jobFlag()
{
    if (*m_cancel) {
        m_cancel = std::make_shared<std::atomic<bool>>(false); // after an Esc
    }
    return m_cancel;
}

bool ResultController::isCurrent(const std::shared_ptr<std::atomic<bool>>& flag,
                                 quint64 generation) const
{
    return flag == m_cancel && generation == m_session->resultGeneration();
}

} // namespace sosrep::ui
