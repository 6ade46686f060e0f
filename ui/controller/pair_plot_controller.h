// SPDX-License-Identifier: MIT
// The pair plot of the current result (seaborn's pairplot): panels computed one at a time.
#pragma once

#include "ui/controller/pair_plot_job.h"

#include <QObject>
#include <QString>

#include <atomic>
#include <memory>
#include <vector>

namespace sosrep::ui {

class Session;

/// The Density tab's pair plot: the panels of the session's current result, computed one at a
/// time on a worker (panelReady with each, finished at the end; Esc cancels, cancelled()).
/// Owns its panels and its job; listens to the session only: another result drops them.
class PairPlotController : public QObject
{
    Q_OBJECT

public:
    static constexpr int kMaxColumns = kPairPlotMaxColumns;

    explicit PairPlotController(Session* session, QObject* parent = nullptr);

    /// Computes the panels not known yet (a cancelled run goes on where it stopped); when all
    /// are known, says finished() again and computes nothing.
    void request();
    const std::vector<PairPanel>& panels() const { return m_panels; }
    bool complete() const { return m_complete; }

signals:
    void panelReady(int index);
    void finished();
    void cancelled();
    void progressChanged(const QString& stage, int done, int total);

private:
    void drop();

    Session* m_session;
    std::vector<PairPanel> m_panels; // of the current result
    bool m_complete = false;
    bool m_running = false;
    std::shared_ptr<std::atomic<bool>> m_cancel = std::make_shared<std::atomic<bool>>(false);
};

} // namespace sosrep::ui
