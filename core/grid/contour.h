// SPDX-License-Identifier: MIT
// Marching squares: contour segments of a grid at a level.
#pragma once

#include "core/types.h"

#include <vector>

namespace sosrep {

/// One straight piece of a contour line, in grid coordinates mapped to data coordinates.
struct ContourSegment
{
    double x0, y0, x1, y1;
};

/// Marching squares on a field sampled at (xs[i], ys[j]) = values(j, i): the segments of the
/// level set {value = level}, with linear interpolation along cell edges. Saddle cells are
/// resolved by the cell-centre average (the usual disambiguation).
std::vector<ContourSegment> marchingSquares(const Matrix& values, const std::vector<double>& xs,
                                            const std::vector<double>& ys, double level);

} // namespace sosrep
