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

namespace {

bool isSetting(const QWidget* w)
{
    return qobject_cast<const QAbstractSpinBox*>(w) || qobject_cast<const QComboBox*>(w) ||
           (qobject_cast<const QAbstractSlider*>(w) && !qobject_cast<const QScrollBar*>(w));
}

/// QApplication gives a Qt::WheelFocus field the focus from a real (spontaneous) wheel event
/// before any event filter sees it, so the guard would find every field focused. Click and Tab
/// still focus it.
void withoutWheelFocus(QWidget* w)
{
    if (isSetting(w) && (w->focusPolicy() & Qt::WheelFocus) == Qt::WheelFocus) {
        w->setFocusPolicy(Qt::StrongFocus);
    }
}

} // namespace

WheelGuard::WheelGuard(QObject* parent) : QObject(parent)
{
    for (QWidget* w : QApplication::allWidgets()) {
        withoutWheelFocus(w);
    }
}

bool WheelGuard::eventFilter(QObject* watched, QEvent* event)
{
    auto* w = qobject_cast<QWidget*>(watched);
    if (event->type() == QEvent::Polish && w) {
        withoutWheelFocus(w);
        return false;
    }
    if (event->type() != QEvent::Wheel || !w || !isSetting(w) || w->hasFocus()) {
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
