// SPDX-License-Identifier: MIT
// Log densities on a 2-D grid, normalization on the grid and highest-density levels.
#pragma once

#include "core/estimators/kernel_field_model.h"
#include "core/types.h"

#include <vector>

namespace sosrep {

/// A rectangular evaluation grid over two data columns; every other column is held fixed (at
/// its median by default, as the plot title says).
struct GridSpec
{
    int xColumn = 0;
    int yColumn = 1;
    double xMin = 0.0, xMax = 1.0, yMin = 0.0, yMax = 1.0;
    int nx = 128;
    int ny = 128;
    Vector fixedValues; // full-dimensional point supplying the non-plotted columns

    double x(int i) const { return xMin + (xMax - xMin) * (i + 0.5) / nx; }
    double y(int j) const { return yMin + (yMax - yMin) * (j + 0.5) / ny; }
    double cellArea() const { return (xMax - xMin) / nx * (yMax - yMin) / ny; }
};

/// Each column's median (the upper one for an even count): the point slices are held at.
Vector columnMedians(const MatrixRef& data);

/// The data's range in both columns widened by `margin` of its span, medians elsewhere.
GridSpec gridAroundData(const MatrixRef& data, int xColumn, int yColumn, int resolution = 128,
                        double margin = 0.15);

struct DensityGrid
{
    GridSpec spec;
    Matrix logDensity; // ny x nx (row j = y(j)), log p or log pre-density
    int floored = 0;
    bool cancelled = false;
};

/// Evaluates log p on the grid in chunks; progress(done, total) returning false cancels.
/// Dense Gaussian kernels use the exact separable form (one matrix product for the whole grid),
/// random-feature SDO the exact cos(a + c) split (two products), 2-D Laplace and exact SDO the
/// checked binned FFT convolution (binned_grid.h); everything else, and every case where that
/// check fails, is evaluated point by point.
/// Models without a kernel-field form (FittedModel::kernelField()) are evaluated point by point.
DensityGrid evaluateGrid(const FittedModel& model, const GridSpec& spec,
                         const ProgressFn& progress = {});

/// The generic path: every grid point evaluated as a query point (any model).
DensityGrid evaluateGridPointwise(const FittedModel& model, const GridSpec& spec,
                                  const ProgressFn& progress = {});

/// The model's log value at one point (x, y) of the grid's slice (the other columns held at the
/// spec's fixed values), in the units evaluateGrid gives: what a grid cell approximates there.
double sliceLogValue(const FittedModel& model, const GridSpec& spec, double x, double y);

/// log-density thresholds t_k such that the cells with log p >= t_k hold `masses[k]` of the
/// grid-normalized mass (highest-density regions; seaborn's "iso-proportion" levels). Cells are
/// of equal area, or of area exp(logCellArea) in the density's units (a grid drawn in rank
/// coordinates, whose cells span unequal lengths of the data's columns).
std::vector<double> highestDensityLevels(const Matrix& logDensity,
                                         const std::vector<double>& masses,
                                         const Matrix* logCellArea = nullptr);

/// Log density normalized so that the grid sums (times the cell area) to 1: comparable between
/// SOSREP's pre-density and KDE (design.md; AUC is unaffected).
Matrix normalizeOnGrid(const Matrix& logDensity, double cellArea);

} // namespace sosrep
