// SPDX-License-Identifier: MIT
// Undo and redo of the app's settings.
#include "ui/controller/settings_history.h"

#include "ui/controller/ratio_controller.h"
#include "ui/controller/settings_difference.h"

#include <QUndoCommand>
#include <QUndoStack>

namespace sosrep::ui {
namespace {

/// One recorded change: both states are whole, so undo and redo need no diffing.
class StateChange : public QUndoCommand
{
public:
    StateChange(SettingsHistory* history, SettingsHistory::State before,
                SettingsHistory::State after, const QString& text)
        : QUndoCommand(text), m_history(history), m_before(std::move(before)),
          m_after(std::move(after))
    {
    }
    void undo() override { m_history->apply(m_before); }
    void redo() override
    {
        // Pushed after the change was made: the first redo has nothing to do.
        if (!m_first) {
            m_history->apply(m_after);
        }
        m_first = false;
    }

private:
    SettingsHistory* m_history;
    SettingsHistory::State m_before;
    SettingsHistory::State m_after;
    bool m_first = true;
};

QString describe(const SettingsHistory::State& was, const SettingsHistory::State& now)
{
    QStringList what = settingsDifference(was.settings, now.settings);
    if (was.roles != now.roles) {
        what << SettingsHistory::tr("column roles");
    }
    if (was.compareWith != now.compareWith) {
        what << SettingsHistory::tr("compare estimator");
    }
    if (!(was.ratio == now.ratio)) {
        what << SettingsHistory::tr("ratio: %1")
                    .arg(settingsDifference(was.ratio, now.ratio).join(QStringLiteral(", ")));
    }
    return what.join(QStringLiteral(", "));
}

} // namespace

SettingsHistory::SettingsHistory(Session* controller, RatioController* ratio, QObject* parent)
    : QObject(parent), m_controller(controller), m_ratio(ratio), m_stack(new QUndoStack(this))
{
    m_last = current();
    m_source = controller->data().dataSource();
    connect(controller, &Session::settingsChanged, this, &SettingsHistory::record);
    connect(ratio, &RatioController::settingsChanged, this, &SettingsHistory::record);
    connect(controller, &Session::dataChanged, this, [this] {
        // Other data: the roles of the old columns mean nothing here.
        if (m_controller->data().dataSource() != m_source ||
            m_controller->data().columnRoles().size() != m_last.roles.size()) {
            m_source = m_controller->data().dataSource();
            m_stack->clear();
            m_last = current();
            return;
        }
        record();
    });
}

SettingsHistory::State SettingsHistory::current() const
{
    return {m_controller->settings(), m_controller->data().columnRoles(),
            m_controller->compareChoice(), m_ratio->settings()};
}

void SettingsHistory::record()
{
    const State now = current();
    if (m_applying || now == m_last) {
        m_last = m_applying ? m_last : now;
        return;
    }
    const QString text = describe(m_last, now);
    State before = m_last;
    m_last = now;
    m_stack->push(new StateChange(this, std::move(before), now, text));
}

void SettingsHistory::apply(const State& s)
{
    m_applying = true;
    m_controller->setSettings(s.settings);
    if (s.roles != m_controller->data().columnRoles()) {
        m_controller->setColumnRoles(s.roles);
    }
    if (s.compareWith != m_controller->compareChoice()) {
        m_controller->setCompareEstimator(s.compareWith);
    }
    if (!(s.ratio == m_ratio->settings())) {
        m_ratio->setSettings(s.ratio);
    }
    m_applying = false;
    m_last = current();
}

} // namespace sosrep::ui
