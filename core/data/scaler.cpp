// SPDX-License-Identifier: MIT
// Column scalings (none, z-score, min-max) and the log-Jacobian that keeps densities in data units.
#include "core/data/scaler.h"

#include "core/errors.h"
#include "core/util/text.h"

#include <cmath>

namespace sosrep {

std::string toString(ScalingKind kind)
{
    switch (kind) {
    case ScalingKind::None:
        return "none";
    case ScalingKind::ZScore:
        return "zscore";
    case ScalingKind::MinMax:
        return "minmax";
    }
    return "none";
}

ScalingKind scalingKindFromString(const std::string& text)
{
    if (text == "none") {
        return ScalingKind::None;
    }
    if (text == "zscore") {
        return ScalingKind::ZScore;
    }
    if (text == "minmax") {
        return ScalingKind::MinMax;
    }
    throw ParameterError("scale",
                         "unknown scaling " + quoted(text) + " (use none, zscore or minmax)");
}

Scaler Scaler::fit(ScalingKind kind, const MatrixRef& x)
{
    Scaler s;
    s.kind = kind;
    const Eigen::Index d = x.cols();
    s.shift = Vector::Zero(d);
    s.scale = Vector::Ones(d);
    if (kind == ScalingKind::None || x.rows() == 0) {
        return s;
    }
    for (Eigen::Index j = 0; j < d; ++j) {
        if (kind == ScalingKind::ZScore) {
            const double mean = x.col(j).mean();
            const double var = x.rows() > 1
                                   ? (x.col(j).array() - mean).square().sum() / double(x.rows() - 1)
                                   : 0.0;
            s.shift(j) = mean;
            s.scale(j) = var > 0.0 ? std::sqrt(var) : 1.0;
        } else {
            const double lo = x.col(j).minCoeff();
            const double hi = x.col(j).maxCoeff();
            s.shift(j) = lo;
            s.scale(j) = hi > lo ? hi - lo : 1.0;
        }
    }
    return s;
}

Matrix Scaler::apply(const MatrixRef& x) const
{
    if (kind == ScalingKind::None) {
        return x;
    }
    return (x.rowwise() - shift.transpose()).array().rowwise() / scale.transpose().array();
}

} // namespace sosrep
