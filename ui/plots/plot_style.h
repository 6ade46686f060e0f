// SPDX-License-Identifier: MIT
// The plots' shared colours, colour maps and styling.
#pragma once

#include <QColor>
#include <QPoint>
#include <QString>
#include <QStringList>

#include <functional>

class QCPAxisRect;
class QCPColorGradient;
class QCustomPlot;
class QMenu;
class QMouseEvent;
class QToolButton;
class QWidget;

namespace sosrep::ui {

/// Series colours shared by every plot (Okabe-Ito palette: distinguishable by colour-blind users).
namespace colors {
inline QColor natural()
{
    return QColor(0, 114, 178);
} // blue
inline QColor standard()
{
    return QColor(213, 94, 0);
} // vermillion
inline QColor kde()
{
    return QColor(0, 158, 115);
} // bluish green
inline QColor anomaly()
{
    return QColor(230, 30, 30);
}
inline QColor normalPoint()
{
    return QColor(255, 255, 255);
}
/// The k-th class of a hue (Okabe-Ito, then repeated darker): seaborn's per-class colours.
inline QColor hueClass(int k)
{
    static const QColor palette[] = {
        QColor(230, 159, 0), QColor(86, 180, 233), QColor(0, 158, 115),   QColor(240, 228, 66),
        QColor(0, 114, 178), QColor(213, 94, 0),   QColor(204, 121, 167), QColor(255, 255, 255)};
    const QColor c = palette[k % 8];
    return k < 8 ? c : c.darker(140);
}
} // namespace colors

/// The look every view shares, applied once after a plot is built: small legend text on a
/// translucent box, and every legend (the plot's own and those inset in its axis rectangles)
/// movable with the mouse, so none has to cover data.
void applyPlotStyle(QCustomPlot* plot);

/// An axis rectangle with nothing to show draws no axes, grid or legend (an emptied view kept
/// the last data's ranges and legend entries); `empty` false shows them again.
void setAxisRectEmpty(QCPAxisRect* rect, bool empty);

/// The hover read-out of a plot: `text` as a tooltip at `globalPos` (the pointer), or none when
/// it is empty. It stays while the pointer rests (a minute; moving it shows the next one).
void showHoverText(QWidget* plot, const QPoint& globalPos, const QString& text);

/// A tool button that opens a menu, wide enough for its text and the menu's arrow (the
/// style drew the arrow over the end of "Overlay…" and "Hue ℓ…").
void makeMenuButton(QToolButton* button, QMenu* menu);

/// When `event` is Qt asking for `plot`'s tooltip (the pointer at rest), shows `readout` at
/// the pointer, or `hint` where it is empty, and returns true: a widget's static tooltip would
/// replace the read-out while it is being read.
bool showReadoutAtRest(QWidget* plot, QEvent* event,
                       const std::function<QString(const QPoint& at)>& readout,
                       const QString& hint);

/// Perceptually uniform colour maps; "viridis" is the default.
QStringList colormapNames();
QCPColorGradient colormap(const QString& name);

/// `base` as `levels` flat bands of equal width, band k = [k/L, (k+1)/L) in the
/// colour of its middle. QCPColorGradient colours v in [0, 1] by its buffer entry
/// floor(v (n - 1)) of n levels, each entry the gradient at position i/(n - 1): with n = L the
/// bands were ninths and the top one was reached by v = 1 alone, which no share of the mass
/// below a cell attains (issue 50: the densest decile was drawn one band down and no cell had
/// the top colour). With n = L + 1 entry k sits exactly on band k's stop (no interpolation),
/// and the last entry, for v = 1, repeats the top band.
QCPColorGradient proportionBands(QCPColorGradient base, int levels);

} // namespace sosrep::ui
