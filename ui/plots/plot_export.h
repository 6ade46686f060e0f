// SPDX-License-Identifier: MIT
#pragma once

#include <QString>

class QCustomPlot;

namespace sosrep::ui {

struct ExportOptions
{
    int width = 0; // logical pixels; 0 = the widget's current size
    int height = 0;
    int dpi = 150; // PNG only: pixels are width * dpi / 96, and the file records the DPI
};

/// Saves a plot as PNG, PDF or SVG, chosen by the file's extension, atomically (a temporary file
/// renamed on success). Returns an empty string on success, else a one-line message naming the
/// file.
QString exportPlot(QCustomPlot* plot, const QString& path, const ExportOptions& options = {});

/// Puts the plot on the clipboard as an image.
void copyPlotToClipboard(QCustomPlot* plot);

} // namespace sosrep::ui
