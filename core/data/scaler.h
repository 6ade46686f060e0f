// SPDX-License-Identifier: MIT
// Column scalings (none, z-score, min-max, robust) and the log-Jacobian that keeps densities in
// data units.
#pragma once

#include "core/types.h"

#include <string>

namespace sosrep {

enum class ScalingKind
{
    None,
    ZScore,
    MinMax,
    Robust // median and interquartile range: one extreme value cannot squeeze a column
};

std::string toString(ScalingKind kind);
ScalingKind scalingKindFromString(const std::string& text); // throws ParameterError("scale")

/// Per-column affine scaling x' = (x - shift) / scale, fitted on training data and then applied
/// unchanged to any other data (the ADBench protocol fits min-max on the training part only).
/// Constant columns get scale 1 so they map to 0 instead of dividing by zero.
struct Scaler
{
    ScalingKind kind = ScalingKind::None;
    Vector shift;
    Vector scale;

    static Scaler fit(ScalingKind kind, const MatrixRef& x);
    Matrix apply(const MatrixRef& x) const;
    /// log of the Jacobian prod_j scale_j: a density in raw units times exp(this) is the same
    /// density in scaled units.
    double logJacobian() const { return scale.size() ? scale.array().log().sum() : 0.0; }
    bool isIdentity() const { return kind == ScalingKind::None; }
};

} // namespace sosrep
