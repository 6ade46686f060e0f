// SPDX-License-Identifier: MIT
// The pair plot's panels (seaborn's pairplot), computed one at a time on a worker.
#pragma once

#include "core/estimators/estimator.h"
#include "core/grid/density_curve.h"
#include "core/grid/density_grid.h"
#include "core/types.h"

#include <atomic>
#include <functional>
#include <memory>

namespace sosrep {

/// One panel: the pair (row, column) of the plotted columns, row > column, as a 2-D slice map
/// of the model (the other columns at their medians, as the Density tab's map for d > 2), or
/// the diagonal (row == column) as the column's 1-D marginal (closed form when the model has
/// one, else the model along the column through the medians, said in `marginal`).
struct PairPanel
{
    int row = 0;
    int column = 0;
    DensityGrid grid;   // off the diagonal
    DensityCurve curve; // on the diagonal
};

/// At most this many feature columns (the first ones) get panels: 45 of them.
constexpr int kPairPlotMaxColumns = 9;

/// Each panel's axes span its columns' 1-99 % quantile range widened by 15 % each side.
/// The panels of the first `columns` feature columns, the pairs row by row first (a map is a
/// grid evaluation: the first one shows within seconds, where a closed-form marginal of 10 000
/// centres takes several), then the diagonals, each handed to `panel` as it is done (from
/// the worker thread). `resolution` cells per side of each map. Polls `cancel` between panels
/// and inside each; false when cancelled.
/// The first `skip` panels (of that order) are not computed again: a cancelled pair plot goes
/// on where it stopped.
bool computePairPanels(const FittedModel& model, const Matrix& x, int columns, int resolution,
                       const std::function<void(PairPanel)>& panel, const std::atomic<bool>& cancel,
                       int skip = 0);

} // namespace sosrep
