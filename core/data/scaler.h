// SPDX-License-Identifier: MIT
// Column scalings (none, z-score, min-max, robust, quantile, rank) and the log-Jacobian that
// keeps densities in data units.
#pragma once

#include "core/types.h"

#include <string>
#include <vector>

namespace sosrep {

enum class ScalingKind
{
    None,
    ZScore,
    MinMax,
    Robust, // median and interquartile range: one extreme value cannot squeeze a column
    /// Median and the central 80 % range (q90 - q10): like robust, one extreme value cannot
    /// squeeze a column's bulk; unlike it, a column whose middle half is nearly one value (a
    /// count, a flag with a few percent set) is not blown up by a tiny IQR.
    Quantile,
    Rank, // the empirical CDF (a quantile transform): every column spread evenly over [0, 1]
    /// The anomaly purpose's scale=auto (common_options.h, scalingOf), resolved by Scaler::fit
    /// from the training rows (autoScalingOf): rank when most columns are a spike plus a sparse
    /// tail, min-max otherwise. Never the kind of a fitted scaler.
    Auto
};

/// What scale=auto resolves to for these training rows: rank when the median column's most
/// frequent value holds at least kAutoRankModeShare of the rows (ReLU features, word counts,
/// one-hot columns: a spike at one value and a sparse tail), min-max otherwise.
ScalingKind autoScalingOf(const MatrixRef& x);
constexpr double kAutoRankModeShare = 0.5;
/// The kind a scaler fitted on these training rows has: `kind`, or for Auto what it resolves to.
ScalingKind resolvedScaling(ScalingKind kind, const MatrixRef& x);

std::string toString(ScalingKind kind);
ScalingKind scalingKindFromString(const std::string& text); // throws ParameterError("scale")

/// Per-column scaling, fitted on training data and then applied unchanged to any other data
/// (the ADBench protocol fits min-max on the training part only).
///
/// The affine kinds map x' = (x - shift) / scale; a constant column gets scale 1 so it maps to
/// 0 instead of dividing by zero. Rank maps each column through its training rows' empirical
/// CDF, linear between knots (at most kMaxKnots quantiles, as scikit-learn's
/// QuantileTransformer) and continued beyond the training range with min-max's slope, so a
/// value far beyond every training row stays far (a clipped CDF would map it onto the
/// largest row). For rank, shift and scale hold that min-max map (x_min and x_max - x_min).
struct Scaler
{
    static constexpr int kMaxKnots = 1000;

    ScalingKind kind = ScalingKind::None;
    Vector shift;
    Vector scale;
    /// Rank only: per column, the knots of the piecewise-linear CDF, x strictly increasing and
    /// u strictly increasing in [0, 1] (a single knot for a constant column).
    std::vector<Vector> knotX;
    std::vector<Vector> knotU;

    static Scaler fit(ScalingKind kind, const MatrixRef& x);
    Matrix apply(const MatrixRef& x) const;
    bool isIdentity() const { return kind == ScalingKind::None; }
    /// True when the map is x' = (x - shift) / scale (every kind but rank).
    bool isAffine() const { return kind != ScalingKind::Rank; }

    /// Affine kinds: log of the Jacobian prod_j scale_j; a density in raw units times
    /// exp(this) is the same density in scaled units. Rank: 0 (its Jacobian depends on the
    /// row: logDerivative).
    double logJacobian() const
    {
        return isAffine() && scale.size() ? scale.array().log().sum() : 0.0;
    }
    /// log dx'_j/dx_j of column j at the scaled value u: -log scale_j for the affine kinds,
    /// the slope of the CDF's piece that holds u for rank. A density in scaled units p'(x')
    /// is p(x) = p'(x') prod_j dx'_j/dx_j in data units.
    double logDerivative(Eigen::Index column, double u) const;
    /// sum_j logDerivative(j, y(r, j)) for each scaled row of y.
    Vector logDerivativeRows(const MatrixRef& y) const;
    /// Per scaled row, what a density in the data's units is multiplied by to be one in the
    /// scaled units: exp(logJacobian()) for the affine kinds, prod_j dx_j/dx'_j for rank.
    Vector densityFactorRows(const MatrixRef& y) const;
    /// The data value of column j at the scaled value u (the inverse map; axis labels).
    double toData(Eigen::Index column, double u) const;
    /// The scaled value of column j at the data value x.
    double toScaled(Eigen::Index column, double x) const;
};

} // namespace sosrep
