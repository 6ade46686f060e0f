// SPDX-License-Identifier: MIT
// The common part of a view's controller: the session it listens to and its one job.
#pragma once

#include <QObject>
#include <QString>

#include <atomic>
#include <memory>

namespace sosrep::ui {

class Session;

/// What every controller of a view that computes something for the session's current result
/// shares (Tiled's AbstractTool, for results): the session it listens to, and never another
/// controller; the cancel flag of its one job; and the three signals its view reads. The
/// session's dropped result calls drop(), its new one start(), and Esc stops the job.
/// A new controller is one subclass: its state, drop(), start(), and its view's slots.
class ResultController : public QObject
{
    Q_OBJECT

public:
    Session* session() const { return m_session; }

signals:
    /// The controller's answer is in (or cleared: its accessors say).
    void ready();
    void failed(const QString& why);
    void progressChanged(const QString& stage, int done, int total);

protected:
    ResultController(Session* session, QObject* parent);

    /// Forgets what was computed for the result and stops the running job.
    virtual void drop() = 0;
    /// Starts the job for the session's current result, when there is something to do.
    virtual void start() = 0;

    /// Stops the running job (its answer will be dropped): the next one gets a fresh flag.
    void stopJob();
    /// The flag a new job polls (a fresh one after an Esc).
    std::shared_ptr<std::atomic<bool>> jobFlag();
    /// Whether a job started with `flag` for result `generation` is still the one wanted.
    bool isCurrent(const std::shared_ptr<std::atomic<bool>>& flag, quint64 generation) const;

private:
    Session* m_session;
    std::shared_ptr<std::atomic<bool>> m_cancel = std::make_shared<std::atomic<bool>>(false);
};

} // namespace sosrep::ui
