// SPDX-License-Identifier: MIT
// Fast radial kernel sums on a grid by binning, used only where they are accurate.
#pragma once

#include "core/grid/density_grid.h"

namespace sosrep {

/// Fast grid for radial kernels without a separable form (Laplace, exact SDO) when the data are
/// 2-D: the weights are binned bilinearly onto the grid's own nodes together with their binning
/// variances, and the field is the FFT convolution
///     f ~ W * k - (1/2) (Vx * k_xx + Vy * k_yy),
/// whose second term removes the O(h^2) error of linear binning (the binned mass of a point at
/// t h from a node carries a variance t (1 - t) h^2 per axis). Points within two cells of a node
/// are summed exactly there instead (the kernel's cusp at 0 breaks the Taylor argument), and the
/// result is checked against exact evaluation at about 64 nodes where p >= 1e-3 of its maximum:
/// if any differs by more than 5e-4 (relative), it returns false and the caller evaluates point by
/// point. Also false when the model is not 2-D, not dense, or has data outside the grid.
bool evaluateBinnedRadial(const KernelFieldModel& model, const GridSpec& spec, DensityGrid* out);

} // namespace sosrep
