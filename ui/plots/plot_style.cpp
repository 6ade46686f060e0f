// SPDX-License-Identifier: MIT
// The plots' shared colours, colour maps and styling.
#include "ui/plots/plot_style.h"

#include "ui/plots/legend_dragger.h"

#include <qcustomplot.h>

#include <QHelpEvent>
#include <QMenu>
#include <QMouseEvent>
#include <QStyle>
#include <QToolButton>
#include <QToolTip>

namespace sosrep::ui {
namespace {
#include "ui/plots/colormap_tables.inc"

QCPColorGradient fromTable(const unsigned char (*table)[3])
{
    QCPColorGradient g;
    g.clearColorStops();
    for (int i = 0; i < 33; ++i) {
        g.setColorStopAt(i / 32.0, QColor(table[i][0], table[i][1], table[i][2]));
    }
    g.setColorInterpolation(QCPColorGradient::ciRGB);
    g.setLevelCount(256);
    return g;
}

} // namespace

void setAxisRectEmpty(QCPAxisRect* rect, bool empty)
{
    for (QCPAxis* axis : rect->axes()) {
        // Only the axes the rectangle uses (bottom and left) come back.
        const bool used =
            axis->axisType() == QCPAxis::atBottom || axis->axisType() == QCPAxis::atLeft;
        axis->setVisible(!empty && used);
        axis->grid()->setVisible(!empty && used);
    }
    for (int i = 0; i < rect->insetLayout()->elementCount(); ++i) {
        if (auto* legend = qobject_cast<QCPLegend*>(rect->insetLayout()->elementAt(i))) {
            legend->setVisible(!empty);
        }
    }
}

void applyPlotStyle(QCustomPlot* plot)
{
    QList<QCPLegend*> legends;
    if (plot->legend) {
        legends << plot->legend;
    }
    for (QCPAxisRect* rect : plot->axisRects()) {
        for (int i = 0; i < rect->insetLayout()->elementCount(); ++i) {
            auto* legend = qobject_cast<QCPLegend*>(rect->insetLayout()->elementAt(i));
            if (legend && !legends.contains(legend)) {
                legends << legend;
            }
        }
    }
    for (QCPLegend* legend : legends) {
        legend->setFont(QFont(plot->font().family(), 8));
        legend->setBrush(QColor(255, 255, 255, 215));
        new LegendDragger(plot, legend);
    }
}

void makeMenuButton(QToolButton* button, QMenu* menu)
{
    button->setPopupMode(QToolButton::InstantPopup);
    button->setMenu(menu);
    const int arrow = button->style()->pixelMetric(QStyle::PM_MenuButtonIndicator, nullptr, button);
    button->setMinimumWidth(button->fontMetrics().horizontalAdvance(button->text()) + arrow + 18);
}

void showHoverText(QWidget* plot, const QPoint& globalPos, const QString& text)
{
    if (text.isEmpty()) {
        QToolTip::hideText();
    } else {
        // Qt's default hides a tip after 10 s plus 40 ms a character, while the value is
        // still being read.
        QToolTip::showText(globalPos, text, plot, QRect(), 60000);
    }
}

bool showReadoutAtRest(QWidget* plot, QEvent* event,
                       const std::function<QString(const QPoint& at)>& readout, const QString& hint)
{
    if (event->type() != QEvent::ToolTip) {
        return false;
    }
    const auto* help = static_cast<QHelpEvent*>(event);
    const QString text = readout(help->pos());
    showHoverText(plot, help->globalPos(), text.isEmpty() ? hint : text);
    return true;
}

QStringList colormapNames()
{
    return {QStringLiteral("viridis"), QStringLiteral("magma"), QStringLiteral("inferno"),
            QStringLiteral("plasma"), QStringLiteral("RdBu (diverging)")};
}

QCPColorGradient colormap(const QString& name)
{
    if (name == QLatin1String("magma")) {
        return fromTable(k_magma);
    }
    if (name == QLatin1String("inferno")) {
        return fromTable(k_inferno);
    }
    if (name == QLatin1String("plasma")) {
        return fromTable(k_plasma);
    }
    if (name.startsWith(QLatin1String("RdBu"))) {
        return fromTable(k_RdBuR);
    }
    return fromTable(k_viridis);
}

QCPColorGradient proportionBands(QCPColorGradient base, int levels)
{
    base.setLevelCount(350);
    QCPColorGradient bands;
    bands.clearColorStops();
    for (int k = 0; k < levels; ++k) {
        const QRgb c = base.color((k + 0.5) / levels, QCPRange(0.0, 1.0));
        bands.setColorStopAt(k / double(levels), QColor::fromRgb(c));
        if (k + 1 == levels) {
            bands.setColorStopAt(1.0, QColor::fromRgb(c));
        }
    }
    bands.setLevelCount(levels + 1);
    return bands;
}

} // namespace sosrep::ui
