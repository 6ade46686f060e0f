// SPDX-License-Identifier: MIT
// Importance weights from a ratio: post-processing and summaries.
#pragma once

#include "core/types.h"

#include <string>
#include <vector>

namespace sosrep {

/// How the estimated ratio becomes importance weights. FIRE imposes neither sign nor mean
/// (digest 1.9), so clipping and renormalizing are post-processing, labelled as such.
enum class WeightForm
{
    Raw,         // f(x_i) as estimated (may be negative)
    Clipped,     // max(f, 0)
    Renormalized // max(f, 0) scaled to mean 1
};
std::string toString(WeightForm form);
WeightForm weightFormFromString(const std::string& text); // ParameterError("weights")

Vector postProcessWeights(const Vector& raw, WeightForm form);

/// Summaries of weights on the p sample (digest 5.1; none is in the paper).
struct WeightSummary
{
    double mean = 0.0;        // should be near 1: E_p[q/p] = 1
    double ess = 0.0;         // (sum w)^2 / sum w^2
    double essFraction = 0.0; // ess / n
    double negativeShare = 0.0;
    double chi2 = 0.0; // plug-in chi^2(q || p) = mean w^2 - 1
    double minimum = 0.0;
    double maximum = 0.0;
    long long nonFinite = 0; // counted; they are left out of the sums
};
WeightSummary summarizeWeights(const Vector& w);

/// Below this share of the rows, an effective sample size says the weights rest on a handful
/// of rows: every average they give is as noisy as one over that handful.
constexpr double kLowEssShare = 0.05;

/// What every front end says about a ratio's weights: the negative share (FIRE imposes no sign)
/// and an effective sample size below kLowEssShare of the rows, whatever the fit's t or lambda.
std::vector<std::string> weightWarnings(const WeightSummary& s, Eigen::Index rows);

/// Weighted least squares beta = (X^T W X)^+ X^T W y (paper section 6.4.1), with an intercept
/// column first when asked; negative weights are used as given.
Vector weightedLeastSquares(const MatrixRef& x, const Vector& y, const Vector& w,
                            bool intercept = true);
/// The importance-weighted average (1/n) sum_i w_i h(x_i), an estimate of E_q[h].
double weightedAverage(const Vector& h, const Vector& w);

} // namespace sosrep
