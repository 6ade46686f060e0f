// SPDX-License-Identifier: MIT
// The density maps' controller: the result's grids evaluated again when the plot columns change.
#pragma once

#include "core/grid/density_grid.h"

#include <QFutureWatcher>
#include <QObject>
#include <QString>

#include <atomic>

namespace sosrep::ui {

class Session;

/// Other plot columns need no refit: the fitted model and the comparison model are evaluated
/// on the new columns' grid on a worker, and the session announces the grids. Runs after a
/// fit or its compare stage too when the columns changed while they ran.
class GridController : public QObject
{
    Q_OBJECT

public:
    GridController(Session* session, QObject* parent);
    ~GridController() override;

    /// Whether a grid re-evaluation for new plot columns is running.
    bool isRegridding() const { return m_watcher != nullptr; }

signals:
    void progressChanged(const QString& stage, int done, int total);

private:
    struct Grids
    {
        DensityGrid model;
        DensityGrid comparison;
    };
    void regrid();
    /// Whether the result's maps show other columns than the plotted ones.
    bool gridsAreStale() const;

    Session* m_session;
    QFutureWatcher<Grids>* m_watcher = nullptr;
    std::atomic<bool> m_cancel{false};
};

} // namespace sosrep::ui
