// SPDX-License-Identifier: MIT
// A plot title that wraps to its width.
#pragma once

#include <qcustomplot.h>

namespace sosrep::ui {

/// A plot title that wraps to the width its plot has. A plain QCPTextElement asks for the width
/// of its whole text, which makes the plot (and the window holding it) at least that wide: long
/// titles pushed 1280-pixel windows wider than the screen.
class FittedTitle : public QCPTextElement
{
public:
    /// `widthShare`: the part of the plot's width the title's column gets (0.5 for one of two
    /// side-by-side panels).
    FittedTitle(QCustomPlot* plot, const QFont& font, double widthShare = 1.0);
    /// The text before wrapping (lines break at spaces, explicit newlines stay).
    void setFullText(const QString& text);
    QString fullText() const { return m_full; }
    void update(UpdatePhase phase) override;

protected:
    QSize minimumOuterSizeHint() const override;

private:
    /// Wraps the full text to the available width; true if the shown text changed.
    bool rewrap();

    QString m_full;
    double m_share;
};

} // namespace sosrep::ui
