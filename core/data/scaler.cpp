// SPDX-License-Identifier: MIT
// Column scalings (none, z-score, min-max, robust) and the log-Jacobian that keeps densities in
// data units.
#include "core/data/scaler.h"

#include "core/errors.h"
#include "core/util/text.h"

#include <algorithm>
#include <cmath>
#include <vector>

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
    case ScalingKind::Robust:
        return "robust";
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
    if (text == "robust") {
        return ScalingKind::Robust;
    }
    throw ParameterError("scale", "unknown scaling " + quoted(text) +
                                      " (use none, zscore, minmax or robust)");
}

namespace {

/// The q-quantile of sorted values by linear interpolation between order statistics at
/// (n - 1) q (NumPy's default, type 7 of Hyndman and Fan).
double quantileOfSorted(const std::vector<double>& v, double q)
{
    const double at = q * double(v.size() - 1);
    const auto below = static_cast<size_t>(std::floor(at));
    const size_t above = std::min(below + 1, v.size() - 1);
    return v[below] + (at - double(below)) * (v[above] - v[below]);
}

} // namespace

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
        } else if (kind == ScalingKind::Robust) {
            std::vector<double> v(x.col(j).data(), x.col(j).data() + x.rows());
            std::sort(v.begin(), v.end());
            const double iqr = quantileOfSorted(v, 0.75) - quantileOfSorted(v, 0.25);
            const double range = v.back() - v.front();
            s.shift(j) = quantileOfSorted(v, 0.5);
            // A column whose middle half is one value (a mostly constant flag) has no IQR:
            // its range scales it instead, and a constant column keeps scale 1.
            s.scale(j) = iqr > 0.0 ? iqr : range > 0.0 ? range : 1.0;
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
