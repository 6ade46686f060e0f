// SPDX-License-Identifier: MIT
// A chart as data (panels and series), drawn by the app or the CLI.
#pragma once

#include <string>
#include <vector>

namespace sosrep {

/// A figure described as data, so that core and the command line can ask for a plot without
/// knowing how it is drawn (ui/plots/chart_render.h draws it with QCustomPlot).
struct ChartSeries
{
    std::string name;
    std::vector<double> x; // Lines only
    std::vector<double> y; // Lines: the values at x; Boxes: the sample of one box; Bars: one
                           // value per category
    bool dashed = false;
    int colour = -1; // index into the shared palette; -1 = the series' position
};

struct ChartPanel
{
    enum class Kind
    {
        Lines, // y against x, one line per series
        Boxes, // one box (quartiles, 1.5 IQR whiskers, outliers, mean marked) per series
        Bars   // grouped bars: one group per category, one bar per series
    };
    Kind kind = Kind::Lines;
    std::string title;
    std::string xLabel;
    std::string yLabel;
    std::vector<std::string> categories; // Bars: the groups (x tick labels)
    std::vector<ChartSeries> series;
    bool logX = false;
    bool lowerIsBetter = false; // Boxes: said in the axis label ("lower is better")
    double yMin = 0.0;          // yMin < yMax fixes the value axis
    double yMax = 0.0;
};

struct Chart
{
    std::string title;
    std::vector<ChartPanel> panels; // stacked top to bottom, or side by side when `columns` > 1
    int columns = 1;
    int width = 1200; // logical pixels (PNG at 150 dpi scales them)
    int height = 700;
};

} // namespace sosrep
