// SPDX-License-Identifier: MIT
// Where a map's mass lies: its cells' areas in data units and the share of mass below each cell.
#pragma once

#include "core/data/scaler.h"
#include "core/grid/density_grid.h"

namespace sosrep::ui {

/// Each cell's log area in the data's own units (rows ny, columns nx): under a rank scaling the
/// grid's cells span unequal lengths of the data's columns, so a cell's mass is its density
/// per data unit times this area. Empty when the scaling is affine (every cell alike).
Matrix cellLogAreas(const GridSpec& spec, const Scaler& scaler);

/// Each cell's share of the grid's mass in cells less dense than it (0 far out, near 1 at the
/// peak): the iso-proportion levels of seaborn's filled KDE plot.
Matrix massBelow(const DensityGrid& grid, const Scaler& scaler);

} // namespace sosrep::ui
