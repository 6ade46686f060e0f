// SPDX-License-Identifier: MIT
// The negativity experiment run on a worker thread.
#include "ui/controller/negativity_job.h"

#include "core/errors.h"
#include "ui/controller/worker.h"

#include <QMetaObject>

#include <chrono>

namespace sosrep::ui {

NegativityJob::NegativityJob(QObject* parent) : QObject(parent) {}

NegativityJob::~NegativityJob()
{
    if (m_watcher) {
        m_cancel = true;
        m_watcher->waitForFinished();
    }
}

void NegativityJob::clear()
{
    m_result.reset();
}

void NegativityJob::start(const Matrix& x, const QString& name, const NegativitySettings& s)
{
    if (m_watcher) {
        emit errorOccurred(tr("The negativity experiment is already running"));
        return;
    }
    try {
        s.validate();
    } catch (const ParameterError& e) {
        emit errorOccurred(QString::fromStdString(e.what()));
        return;
    }
    m_settings = s;
    m_cancel = false;
    m_watcher = new QFutureWatcher<Outcome>(this);
    connect(m_watcher, &QFutureWatcher<Outcome>::finished, this, [this] {
        Outcome o = m_watcher->result();
        m_watcher->deleteLater();
        m_watcher = nullptr;
        emit busyChanged(false);
        if (!o.error.empty()) {
            emit errorOccurred(QString::fromStdString(o.error));
        } else if (o.run.cancelled) {
            emit cancelled();
        } else {
            m_result = std::make_unique<NegativityRun>(std::move(o.run));
            emit finished();
        }
    });
    emit busyChanged(true);
    const std::string label = name.toStdString();
    m_watcher->setFuture(runInWorker([this, x, label, s]() {
        Outcome o;
        try {
            using Clock = std::chrono::steady_clock;
            Clock::time_point last{};
            o.run = runNegativity(x, label, s, [this, &last](long done, long total) {
                // Queued to the GUI thread, at most ten updates a second.
                const Clock::time_point now = Clock::now();
                if (now - last > std::chrono::milliseconds(100) || done == total) {
                    last = now;
                    QMetaObject::invokeMethod(this, [this, done, total] {
                        emit progressChanged(tr("negativity experiment"), int(done), int(total));
                    });
                }
                return !m_cancel.load();
            });
        } catch (const std::exception& e) {
            o.error = e.what();
        }
        return o;
    }));
}

} // namespace sosrep::ui
