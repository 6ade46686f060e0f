// SPDX-License-Identifier: MIT
// Column scalings (none, z-score, min-max, robust, quantile, rank) and the log-Jacobian that
// keeps densities in data units.
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
    case ScalingKind::Quantile:
        return "quantile";
    case ScalingKind::Rank:
        return "rank";
    case ScalingKind::Auto:
        return "auto";
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
    if (text == "quantile") {
        return ScalingKind::Quantile;
    }
    if (text == "rank") {
        return ScalingKind::Rank;
    }
    if (text == "auto") {
        return ScalingKind::Auto;
    }
    throw ParameterError("scale",
                         "unknown scaling " + quotedText(text) +
                             " (use none, zscore, minmax, robust, quantile, rank or auto)");
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

/// The empirical CDF of one column's sorted values as knots: each distinct value at its mid-rank
/// (i + j) / 2 / (n - 1) over the positions i..j it holds; with more than kMaxKnots distinct
/// values, kMaxKnots evenly spaced quantiles, equal quantiles (ties) merged at their mean
/// level, which is the mid-rank again.
void rankKnots(const std::vector<double>& v, Vector& knotX, Vector& knotU)
{
    const size_t n = v.size();
    std::vector<double> xs;
    std::vector<double> us;
    std::vector<int> counts;
    const auto add = [&](double x, double u) {
        if (!xs.empty() && xs.back() == x) {
            us.back() += u;
            ++counts.back();
        } else {
            xs.push_back(x);
            us.push_back(u);
            counts.push_back(1);
        }
    };
    size_t unique = 1;
    for (size_t i = 1; i < n; ++i) {
        unique += v[i] != v[i - 1] ? 1 : 0;
    }
    if (n == 1) {
        add(v[0], 0.5);
    } else if (unique <= size_t(Scaler::kMaxKnots)) {
        for (size_t i = 0; i < n; ++i) {
            add(v[i], double(i) / double(n - 1));
        }
    } else {
        const int k = Scaler::kMaxKnots;
        for (int i = 0; i < k; ++i) {
            const double p = double(i) / double(k - 1);
            add(quantileOfSorted(v, p), p);
        }
    }
    knotX.resize(Eigen::Index(xs.size()));
    knotU.resize(Eigen::Index(xs.size()));
    for (size_t i = 0; i < xs.size(); ++i) {
        knotX(Eigen::Index(i)) = xs[i];
        knotU(Eigen::Index(i)) = us[i] / double(counts[i]);
    }
}

/// The piece of a knot vector that holds t: the index k of the piece [t_k, t_k+1), the last
/// piece for t at the last knot; -1 below the first knot, the knot count beyond the last.
Eigen::Index pieceOf(const Vector& knots, double t)
{
    const Eigen::Index m = knots.size();
    if (t < knots(0)) {
        return -1;
    }
    if (t > knots(m - 1)) {
        return m;
    }
    const double* at = std::upper_bound(knots.data(), knots.data() + m, t);
    return std::min<Eigen::Index>(Eigen::Index(at - knots.data()) - 1, m - 2);
}

/// Maps t from the knots `from` to the knots `to` (piecewise linear), continued beyond the ends
/// with the slope `beyond` (d to / d from).
double mapThrough(const Vector& from, const Vector& to, double beyond, double t)
{
    const Eigen::Index m = from.size();
    const Eigen::Index k = pieceOf(from, t);
    if (k < 0 || m == 1) {
        return to(0) + (t - from(0)) * beyond;
    }
    if (k >= m) {
        return to(m - 1) + (t - from(m - 1)) * beyond;
    }
    const double w = (t - from(k)) / (from(k + 1) - from(k));
    return to(k) + w * (to(k + 1) - to(k));
}

} // namespace

ScalingKind autoScalingOf(const MatrixRef& x)
{
    if (x.rows() == 0 || x.cols() == 0) {
        return ScalingKind::MinMax;
    }
    std::vector<double> shares;
    std::vector<double> v(static_cast<size_t>(x.rows()));
    for (Eigen::Index j = 0; j < x.cols(); ++j) {
        std::copy(x.col(j).data(), x.col(j).data() + x.rows(), v.begin());
        std::sort(v.begin(), v.end());
        size_t best = 0;
        for (size_t i = 0; i < v.size();) {
            size_t k = i;
            while (k < v.size() && v[k] == v[i]) {
                ++k;
            }
            best = std::max(best, k - i);
            i = k;
        }
        shares.push_back(double(best) / double(v.size()));
    }
    // The median column (the upper middle one for an even count: half the columns at least).
    std::nth_element(shares.begin(), shares.begin() + shares.size() / 2, shares.end());
    return shares[shares.size() / 2] >= kAutoRankModeShare ? ScalingKind::Rank
                                                           : ScalingKind::MinMax;
}

ScalingKind resolvedScaling(ScalingKind kind, const MatrixRef& x)
{
    return kind == ScalingKind::Auto ? autoScalingOf(x) : kind;
}

Scaler Scaler::fit(ScalingKind kind, const MatrixRef& x)
{
    if (kind == ScalingKind::Auto) {
        return fit(autoScalingOf(x), x);
    }
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
        } else if (kind == ScalingKind::Robust || kind == ScalingKind::Quantile ||
                   kind == ScalingKind::Rank) {
            std::vector<double> v(x.col(j).data(), x.col(j).data() + x.rows());
            std::sort(v.begin(), v.end());
            const double range = v.back() - v.front();
            if (kind == ScalingKind::Rank) {
                s.shift(j) = v.front();
                s.scale(j) = range > 0.0 ? range : 1.0;
                s.knotX.emplace_back();
                s.knotU.emplace_back();
                rankKnots(v, s.knotX.back(), s.knotU.back());
                continue;
            }
            const double tail = kind == ScalingKind::Robust ? 0.25 : 0.10;
            const double spread = quantileOfSorted(v, 1.0 - tail) - quantileOfSorted(v, tail);
            s.shift(j) = quantileOfSorted(v, 0.5);
            // A column whose middle is one value (a mostly constant flag) has no such spread:
            // its range scales it instead, and a constant column keeps scale 1.
            s.scale(j) = spread > 0.0 ? spread : range > 0.0 ? range : 1.0;
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
    if (isAffine()) {
        return (x.rowwise() - shift.transpose()).array().rowwise() / scale.transpose().array();
    }
    Matrix out(x.rows(), x.cols());
    for (Eigen::Index j = 0; j < x.cols(); ++j) {
        for (Eigen::Index r = 0; r < x.rows(); ++r) {
            out(r, j) = toScaled(j, x(r, j));
        }
    }
    return out;
}

double Scaler::toScaled(Eigen::Index column, double x) const
{
    if (kind == ScalingKind::None) {
        return x;
    }
    if (isAffine()) {
        return (x - shift(column)) / scale(column);
    }
    const size_t j = size_t(column);
    return mapThrough(knotX[j], knotU[j], 1.0 / scale(column), x);
}

double Scaler::toData(Eigen::Index column, double u) const
{
    if (kind == ScalingKind::None) {
        return u;
    }
    if (isAffine()) {
        return shift(column) + scale(column) * u;
    }
    const size_t j = size_t(column);
    return mapThrough(knotU[j], knotX[j], scale(column), u);
}

double Scaler::logDerivative(Eigen::Index column, double u) const
{
    if (kind == ScalingKind::None) {
        return 0.0;
    }
    if (isAffine()) {
        return -std::log(scale(column));
    }
    const Vector& us = knotU[size_t(column)];
    const Vector& xs = knotX[size_t(column)];
    const Eigen::Index k = pieceOf(us, u);
    if (k < 0 || k >= us.size() || us.size() == 1) {
        return -std::log(scale(column));
    }
    return std::log(us(k + 1) - us(k)) - std::log(xs(k + 1) - xs(k));
}

Vector Scaler::densityFactorRows(const MatrixRef& y) const
{
    if (isAffine()) {
        return Vector::Constant(y.rows(), std::exp(logJacobian()));
    }
    return (-logDerivativeRows(y).array()).exp().matrix();
}

Vector Scaler::logDerivativeRows(const MatrixRef& y) const
{
    Vector out = Vector::Zero(y.rows());
    if (kind == ScalingKind::None) {
        return out;
    }
    for (Eigen::Index j = 0; j < y.cols(); ++j) {
        for (Eigen::Index r = 0; r < y.rows(); ++r) {
            out(r) += logDerivative(j, y(r, j));
        }
    }
    return out;
}

} // namespace sosrep
