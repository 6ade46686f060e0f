// SPDX-License-Identifier: MIT
// Keeps the mouse wheel from changing controls it only passes over.
#pragma once

#include <QObject>

namespace sosrep::ui {

/// Keeps the mouse wheel from editing settings on its way past: a spin box, combo box or slider
/// that does not have the keyboard focus passes the wheel to the panel that scrolls it (Qt's
/// default let a scroll over the Ratio controls change Half-spaces 200 -> 190 and throw away
/// the fitted ratio). Click a field first, then the wheel steps it. Installed once on the
/// application by the main window; it also takes Qt::WheelFocus from these fields as they are
/// polished, since a real wheel event would otherwise focus them before the filter runs.
class WheelGuard : public QObject
{
    Q_OBJECT

public:
    /// Also takes Qt::WheelFocus from the fields that exist (and may be polished) already.
    explicit WheelGuard(QObject* parent = nullptr);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
};

} // namespace sosrep::ui
