// SPDX-License-Identifier: MIT
// A paint device that writes SVG for plot exports.
#pragma once

#include <QByteArray>
#include <QPaintDevice>
#include <QString>

#include <memory>

namespace sosrep::ui {

class SvgPaintEngine;

/// A paint device that writes SVG 1.1, made because Qt 6.4's QSvgGenerator drops the
/// painter's clipping (a zoomed heatmap covered the whole canvas, points outside the zoom
/// were drawn outside the axes) and writes each text run separately in a generic font (runs of
/// one label collided in viewers). This device writes:
/// - every clip the painter sets as a <clipPath> around what it clips, in device coordinates;
/// - each label as one <text> whose length is pinned to the width Qt laid it out at
///   (textLength), with the resolved font family first and a generic family after it, so
///   adjacent labels cannot collide whatever font the viewer substitutes;
/// - paths in device coordinates, images as embedded PNG (pixelated unless the painter
///   smooths pixmaps), pens with their width, dashes, caps and joins.
/// Gradients are written as their first colour; the plots use none.
class SvgDevice : public QPaintDevice
{
public:
    /// `width` x `height` logical pixels; fonts given in points are laid out at `dpi`.
    SvgDevice(int width, int height, int dpi, QString title);
    ~SvgDevice() override;

    QPaintEngine* paintEngine() const override;

    /// The finished document (after the painter has ended).
    QByteArray document() const;

protected:
    int metric(PaintDeviceMetric metric) const override;

private:
    int m_width;
    int m_height;
    int m_dpi;
    QString m_title;
    std::unique_ptr<SvgPaintEngine> m_engine;
};

} // namespace sosrep::ui
