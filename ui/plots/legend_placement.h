// SPDX-License-Identifier: MIT
// Placing inset legends where they cover the fewest points.
#pragma once

class QCustomPlot;

namespace sosrep::ui {

/// Puts each inset legend of `plot` that still sits in a corner (one the user has not dragged)
/// in the corner of its axis rectangle where it covers the fewest data points of that
/// rectangle's visible graphs; a tie keeps the corner it is in. Call once the data and the
/// ranges are set: a fixed corner covered the running means and histograms of real data.
void placeInsetLegends(QCustomPlot* plot);

} // namespace sosrep::ui
