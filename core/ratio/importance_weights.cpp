// SPDX-License-Identifier: MIT
// Importance weights from a ratio: post-processing and summaries.
#include "core/ratio/importance_weights.h"

#include "core/errors.h"
#include "core/util/text.h"

#include <Eigen/QR>

#include <cmath>
#include <limits>

namespace sosrep {

std::string toString(WeightForm form)
{
    switch (form) {
    case WeightForm::Raw:
        return "raw";
    case WeightForm::Clipped:
        return "clipped";
    case WeightForm::Renormalized:
        return "renormalized";
    }
    return "raw";
}

WeightForm weightFormFromString(const std::string& text)
{
    for (WeightForm f : {WeightForm::Raw, WeightForm::Clipped, WeightForm::Renormalized}) {
        if (toString(f) == text) {
            return f;
        }
    }
    throw ParameterError("weights", quotedText(text) + " is not one of raw, clipped, renormalized");
}

Vector postProcessWeights(const Vector& raw, WeightForm form)
{
    if (form == WeightForm::Raw) {
        return raw;
    }
    Vector w = raw.cwiseMax(0.0);
    if (form == WeightForm::Renormalized) {
        const double mean = w.mean();
        if (mean > 0.0) {
            w /= mean;
        }
    }
    return w;
}

WeightSummary summarizeWeights(const Vector& w)
{
    WeightSummary s;
    // ESS = (sum w)^2 / sum w^2 is scale-free: computed on w / max|w|, so that equal tiny
    // weights (1e-306, whose squares underflow to 0) give n, not 0.
    double top = 0.0;
    for (Eigen::Index i = 0; i < w.size(); ++i) {
        if (std::isfinite(w(i))) {
            top = std::max(top, std::abs(w(i)));
        }
    }
    const double unit = top > 0.0 ? 1.0 / top : 1.0;
    double sum = 0.0;
    double sum2 = 0.0;
    double scaledSum = 0.0;
    double scaledSum2 = 0.0;
    long long count = 0;
    long long negative = 0;
    s.minimum = std::numeric_limits<double>::infinity();
    s.maximum = -std::numeric_limits<double>::infinity();
    for (Eigen::Index i = 0; i < w.size(); ++i) {
        const double v = w(i);
        if (!std::isfinite(v)) {
            ++s.nonFinite;
            continue;
        }
        ++count;
        sum += v;
        sum2 += v * v;
        scaledSum += v * unit;
        scaledSum2 += (v * unit) * (v * unit);
        negative += v < 0.0 ? 1 : 0;
        s.minimum = std::min(s.minimum, v);
        s.maximum = std::max(s.maximum, v);
    }
    if (count == 0) {
        return s;
    }
    const double n = static_cast<double>(count);
    s.mean = sum / n;
    s.ess = scaledSum2 > 0.0 ? scaledSum * scaledSum / scaledSum2 : 0.0;
    s.essFraction = s.ess / n;
    s.negativeShare = static_cast<double>(negative) / n;
    s.chi2 = sum2 / n - 1.0;
    return s;
}

Vector weightedLeastSquares(const MatrixRef& x, const Vector& y, const Vector& w, bool intercept)
{
    Matrix design(x.rows(), x.cols() + (intercept ? 1 : 0));
    if (intercept) {
        design.col(0).setOnes();
    }
    design.rightCols(x.cols()) = x;
    const Matrix xtw = design.transpose() * w.asDiagonal();
    const Matrix gram = xtw * design;
    // The pseudo-inverse of the paper's formula, by complete orthogonal decomposition.
    return gram.completeOrthogonalDecomposition().solve(xtw * y);
}

double weightedAverage(const Vector& h, const Vector& w)
{
    return h.cwiseProduct(w).sum() / static_cast<double>(h.size());
}

std::vector<std::string> weightWarnings(const WeightSummary& s, Eigen::Index rows)
{
    std::vector<std::string> out;
    if (s.negativeShare > 0.0) {
        out.push_back(numberText(100.0 * s.negativeShare, 3) +
                      " % of the weights are negative (FIRE imposes no sign): the clipped and "
                      "renormalized form sets them to 0 and the rest to mean 1 (post-processing)");
    }
    if (rows > 0 && s.essFraction < kLowEssShare) {
        out.push_back("the weights' effective sample size is " + numberText(s.ess, 3) + " of " +
                      std::to_string(rows) + " rows (" + numberText(100.0 * s.essFraction, 3) +
                      " %, below " + numberText(100.0 * kLowEssShare, 3) + " %; mean weight " +
                      numberText(s.mean, 3) +
                      "): a few rows carry them, and every weighted average is as noisy as one "
                      "over those few; a larger t or lambda smooths the ratio");
    }
    return out;
}

} // namespace sosrep
