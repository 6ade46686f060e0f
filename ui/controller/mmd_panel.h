// SPDX-License-Identifier: MIT
// The MMD readout of the app's model panel.
#pragma once

#include "core/grid/density_grid.h"
#include "core/metrics/mmd.h"
#include "core/pipeline/fit_route.h"

#include <string>
#include <vector>

namespace sosrep::ui {

/// The compare view's MMD read-out: each compared estimator refitted at the chosen length scale
/// on a seeded 80 % of the fit rows and measured against the other 20 % (held out), and the
/// fitted models against the rows they were fitted on. Training rows flatter a model fitted by
/// minimizing an MMD (kernel SoS), which is why held-out rows are the default.
struct MmdReadout
{
    struct Entry
    {
        std::string estimator;
        MmdResult heldOut;
        MmdResult training;
    };
    std::vector<Entry> entries;
    double bandwidth = 0.0;
    int heldOutRows = 0;
    int trainingRows = 0;
    std::string error; // why there are no numbers (too few rows, a model that is no density)
    std::vector<std::string> skipped; // normality-score models (IForest, kNN): no density
};

/// `models` are the fitted models (fitted on x); `viewGrid` the 2-D view box used by the grid
/// quadrature when d = 2. Returns an empty readout with cancelled = true when cancelled.
MmdReadout computeMmdReadout(const Matrix& x, const FitSettings& settings,
                             const std::vector<const FittedModel*>& models, double lengthScale,
                             const GridSpec* viewGrid, const FitObserver& observer,
                             bool* cancelled);

} // namespace sosrep::ui
