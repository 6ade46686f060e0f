// SPDX-License-Identifier: MIT
// The negativity experiment run on a worker thread.
#pragma once

#include "core/experiments/negativity.h"

#include <QFutureWatcher>
#include <QObject>
#include <QString>

#include <atomic>
#include <memory>

namespace sosrep::ui {

/// The paper's negativity experiment (Fig. 3) on the app's data, off the GUI thread: progress per
/// iteration, cancel answered within one iteration (a few ms at 1500 rows), the last finished
/// run kept for the optimizer view. The run is the same code as `sosrep experiment negativity`.
class NegativityJob : public QObject
{
    Q_OBJECT

public:
    explicit NegativityJob(QObject* parent = nullptr);
    ~NegativityJob() override;

    bool isBusy() const { return m_watcher != nullptr; }
    /// Starts on a copy of the (scaled) rows; refuses (errorOccurred) while one is running or
    /// when the settings are invalid.
    void start(const Matrix& x, const QString& name, const NegativitySettings& settings);
    void cancel() { m_cancel = true; }

    /// The last finished run (nullptr before any); a cancelled run is not kept.
    const NegativityRun* result() const { return m_result.get(); }
    const NegativitySettings& settings() const { return m_settings; }
    /// Drops the result (the data it was computed on changed).
    void clear();

signals:
    void busyChanged(bool busy);
    void progressChanged(const QString& stage, int done, int total);
    void finished();
    void cancelled();
    void errorOccurred(const QString& message);

private:
    struct Outcome
    {
        NegativityRun run;
        std::string error;
    };

    std::atomic<bool> m_cancel{false};
    QFutureWatcher<Outcome>* m_watcher = nullptr;
    std::unique_ptr<NegativityRun> m_result;
    NegativitySettings m_settings;
};

} // namespace sosrep::ui
