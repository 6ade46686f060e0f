// SPDX-License-Identifier: MIT
// Where a map's mass lies: its cells' areas in data units and the share of mass below each cell.
#include "ui/plots/map_mass.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <utility>
#include <vector>

namespace sosrep::ui {

Matrix cellLogAreas(const GridSpec& s, const Scaler& sc)
{
    // Under a rank scaling the grid's cells span unequal lengths of the data's columns: each
    // cell's mass is its density (per data unit) times its area in data units. Empty: equal.
    Matrix logArea;
    if (!sc.isAffine() && sc.scale.size() > std::max(s.xColumn, s.yColumn)) {
        logArea.resize(s.ny, s.nx);
        for (int j = 0; j < s.ny; ++j) {
            for (int i = 0; i < s.nx; ++i) {
                logArea(j, i) =
                    -sc.logDerivative(s.xColumn, s.x(i)) - sc.logDerivative(s.yColumn, s.y(j));
            }
        }
    }
    return logArea;
}

Matrix massBelow(const DensityGrid& g, const Scaler& scaler)
{
    // Each cell: the share of the grid's mass in cells less dense than it (seaborn's filled
    // iso-proportion levels read the other way: 1 at the peak, 0 far out).
    const Matrix logArea = cellLogAreas(g.spec, scaler);
    const double top = g.logDensity.maxCoeff();
    std::vector<std::pair<double, double>> cells; // (log density, mass)
    cells.reserve(size_t(g.logDensity.size()));
    double total = 0.0;
    for (Eigen::Index k = 0; k < g.logDensity.size(); ++k) {
        const double area = logArea.size() ? std::exp(logArea.data()[k]) : 1.0;
        const double mass = std::isfinite(g.logDensity.data()[k])
                                ? std::exp(g.logDensity.data()[k] - top) * area
                                : 0.0;
        cells.emplace_back(g.logDensity.data()[k], mass);
        total += mass;
    }
    std::vector<size_t> order(cells.size());
    std::iota(order.begin(), order.end(), size_t(0));
    std::sort(order.begin(), order.end(),
              [&cells](size_t a, size_t b) { return cells[a].first < cells[b].first; });
    Matrix below(g.logDensity.rows(), g.logDensity.cols());
    double running = 0.0;
    for (size_t k = 0; k < order.size(); ++k) {
        below.data()[order[k]] = total > 0.0 ? running / total : 0.0;
        running += cells[order[k]].second;
    }
    return below;
}

} // namespace sosrep::ui
