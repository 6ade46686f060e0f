// SPDX-License-Identifier: MIT
// Exporting a plot to PNG, PDF or SVG, or to the clipboard.
#pragma once

#include <QString>

class QCustomPlot;
class QWidget;

namespace sosrep::ui {

struct ExportOptions
{
    int width = 0; // logical pixels; 0 = the widget's current size
    int height = 0;
    int dpi = 150; // PNG only: pixels are width * dpi / 96, and the file records the DPI
};

/// Saves a plot as PNG, PDF or SVG, chosen by the file's extension, atomically (written in
/// full, then renamed into place with the user's default permissions). Returns an empty string
/// on success, else a one-line message naming the file.
///
/// `source` is one QCustomPlot (laid out again at the export size) or a view made of several
/// (the compare view): then every visible plot and text label in it is drawn where it sits,
/// scaled to the export size, plots as vectors in PDF and SVG.
QString exportPlot(QWidget* source, const QString& path, const ExportOptions& options = {});

/// Puts the plot (or every plot of a view) on the clipboard as an image.
void copyPlotToClipboard(QWidget* source);

} // namespace sosrep::ui
