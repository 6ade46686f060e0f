// SPDX-License-Identifier: MIT
// The Density tab's 1-D views: the density along the only column and the marginals.
#pragma once

#include "core/grid/density_curve.h"

#include <QObject>
#include <QString>

#include <atomic>
#include <map>
#include <memory>
#include <set>

namespace sosrep::ui {

class Session;

/// The 1-D views of the session's current result: with one feature column the density itself
/// (computed in the fit), else the closed-form marginal of a plotted column, computed on a
/// worker when asked for (started, ready or cancelled by column; failed() says why there is
/// none). Owns the marginals and their jobs; another result drops them.
class MarginalController : public QObject
{
    Q_OBJECT

public:
    explicit MarginalController(Session* session, QObject* parent = nullptr);

    /// The 1-D view of `column`, or null until it is known.
    const DensityCurve* curve(int column) const;
    /// Starts the closed-form marginal of `column` on a worker (ready when done); nothing when
    /// it is known, under way, or the model has none.
    void request(int column);
    /// Why the current model has no closed-form marginal (empty: it has one).
    QString unavailable() const;

signals:
    void started(int column);
    void ready(int column);
    /// A marginal's computation was cancelled (Esc).
    void cancelled(int column);
    void failed(const QString& why);

private:
    void drop();

    Session* m_session;
    std::map<int, DensityCurve> m_marginals; // of the current result, by column
    std::set<int> m_running;
    /// Polled by the workers (shared: a worker may outlive a result, not the flag).
    std::shared_ptr<std::atomic<bool>> m_cancel = std::make_shared<std::atomic<bool>>(false);
};

} // namespace sosrep::ui
