// SPDX-License-Identifier: MIT
// Keeps the mouse wheel from changing controls it only passes over.
#include "ui/panels/wheel_guard.h"

#include <QAbstractScrollArea>
#include <QAbstractSlider>
#include <QAbstractSpinBox>
#include <QApplication>
#include <QComboBox>
#include <QEvent>
#include <QScrollBar>

namespace sosrep::ui {

bool WheelGuard::eventFilter(QObject* watched, QEvent* event)
{
    if (event->type() != QEvent::Wheel) {
        return false;
    }
    auto* w = qobject_cast<QWidget*>(watched);
    const bool setting = qobject_cast<QAbstractSpinBox*>(w) || qobject_cast<QComboBox*>(w) ||
                         (qobject_cast<QAbstractSlider*>(w) && !qobject_cast<QScrollBar*>(w));
    if (!setting || w->hasFocus()) {
        return false;
    }
    // The panel that would scroll, if any, gets the wheel instead of the field.
    for (QWidget* p = w->parentWidget(); p; p = p->parentWidget()) {
        if (auto* area = qobject_cast<QAbstractScrollArea*>(p)) {
            QCoreApplication::sendEvent(area->viewport(), event);
            break;
        }
    }
    return true;
}

} // namespace sosrep::ui
