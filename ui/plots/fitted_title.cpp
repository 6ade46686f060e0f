// SPDX-License-Identifier: MIT
// A plot title that wraps to its width.
#include "ui/plots/fitted_title.h"

#include <QFontMetrics>

#include <algorithm>

namespace sosrep::ui {

FittedTitle::FittedTitle(QCustomPlot* plot, const QFont& font, double widthShare)
    : QCPTextElement(plot, QString(), font), m_share(widthShare)
{
}

void FittedTitle::setFullText(const QString& text)
{
    m_full = text;
    rewrap();
}

void FittedTitle::update(UpdatePhase phase)
{
    QCPTextElement::update(phase);
    // Once laid out, the title knows its column's width; a different wrapping needs one more
    // layout pass (its height changes), so ask for a replot.
    if (phase == upLayout && rewrap() && parentPlot()) {
        parentPlot()->replot(QCustomPlot::rpQueuedReplot);
    }
}

QSize FittedTitle::minimumOuterSizeHint() const
{
    QSize s = QCPTextElement::minimumOuterSizeHint();
    s.setWidth(std::min(s.width(), 60)); // never what keeps the plot wide
    return s;
}

bool FittedTitle::rewrap()
{
    // The column's width from the last layout, else the plot's share before the first one.
    const int available =
        outerRect().width() > 0
            ? outerRect().width()
            : (parentPlot() ? int(parentPlot()->viewport().width() * m_share) : 0);
    // 5 % slack: SVG viewers that ignore textLength lay unhinted text out wider than Qt.
    const int width = available - 16 - available / 20;
    if (width < 80) {
        const bool changed = text() != m_full;
        setText(m_full);
        return changed;
    }
    const QFontMetrics metrics(font());
    QStringList out;
    for (const QString& paragraph : m_full.split(QLatin1Char('\n'))) {
        QString line;
        for (const QString& word : paragraph.split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
            const QString longer = line.isEmpty() ? word : line + QLatin1Char(' ') + word;
            if (!line.isEmpty() && metrics.horizontalAdvance(longer) > width) {
                out << line;
                line = word;
            } else {
                line = longer;
            }
        }
        out << line;
    }
    const QString wrapped = out.join(QLatin1Char('\n'));
    if (wrapped == text()) {
        return false;
    }
    setText(wrapped);
    return true;
}

} // namespace sosrep::ui
