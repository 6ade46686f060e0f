// SPDX-License-Identifier: MIT
// Undo and redo of the app's settings.
#pragma once

#include "ui/controller/session.h"

#include <QObject>

class QUndoStack;

namespace sosrep::ui {

class RatioController;

/// Undo and redo of the model settings, the column roles and the Ratio view's settings: every
/// change the controllers report becomes one step on a QUndoStack, named after what changed
/// ("length_scale auto → 0.3", "ratio: Half-spaces 200 → 190"). Undoing applies the earlier
/// state through the controllers, like any other change. New data (other columns) starts a
/// fresh history.
class SettingsHistory : public QObject
{
    Q_OBJECT

public:
    SettingsHistory(Session* controller, RatioController* ratio, QObject* parent = nullptr);
    QUndoStack* stack() const { return m_stack; }

    struct State
    {
        FitSettings settings;
        QVector<ColumnRole> roles; // (the fit-row cap is in the settings: max_fit_rows)
        std::string compareWith;
        FitSettings ratio; // the Ratio view's estimator and options
        bool operator==(const State& o) const
        {
            return settings == o.settings && roles == o.roles && compareWith == o.compareWith &&
                   ratio == o.ratio;
        }
    };
    /// Puts a state into the controller (the undo commands' action).
    void apply(const State& s);

private:
    State current() const;
    void record();

    Session* m_controller;
    RatioController* m_ratio;
    QUndoStack* m_stack;
    State m_last;
    QString m_source; // the data the history belongs to
    bool m_applying = false;
};

} // namespace sosrep::ui
