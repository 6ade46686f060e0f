// SPDX-License-Identifier: MIT
// 1-D density curves and marginals of a 2-D density, in data units.
#pragma once

#include "core/estimators/estimator.h"
#include "core/types.h"

#include <string>

namespace sosrep {

/// Points along one data column (scaled units) where a 1-D view evaluates a model.
struct CurveSpec
{
    int column = 0;
    double min = 0.0;
    double max = 1.0;
    int n = 256;
    /// A full-dimensional point supplying the other columns (a slice); unused by marginals.
    Vector fixedValues;

    double t(int i) const { return min + (max - min) * i / std::max(1, n - 1); }
};

/// The data's range in `column` widened by `margin` of its span, medians elsewhere.
CurveSpec curveAroundData(const MatrixRef& data, int column, int points = 256,
                          double margin = 0.15);

struct DensityCurve
{
    CurveSpec spec;
    Vector logValues; // log p (or log pre-density, or the normality score) at spec.t(i)
    /// True: the 1-D marginal density of the column (the other columns integrated out, and
    /// normalized); false: the model along the column with the others held at fixedValues (for
    /// one column, the model itself).
    bool marginal = false;
    int floored = 0; // values floored at 1e-300 before the log (counted)
    bool cancelled = false;
};

/// The model along the column, the other columns held at spec.fixedValues.
DensityCurve evaluateCurve(const FittedModel& model, const CurveSpec& spec);

/// Why the model has no closed-form marginal, or empty when it has one: Gaussian KDE and
/// Gaussian SOSREP (dense or Nystroem) and the kernel sums-of-squares density are signed
/// mixtures of isotropic Gaussians, whose marginals are closed form.
std::string marginalUnavailableReason(const FittedModel& model);

/// The 1-D marginal density of spec.column in closed form (normalized to integrate to 1).
///   KDE (p = c f):        sum_p c_p exp(-(t - x_pj)^2 / 2l^2) / (sqrt(2 pi) l sum_p c_p).
///   SOSREP (p = e^o f^2): k_p k_q is a Gaussian in x centred at (x_p + x_q)/2; integrating the
///                         other d - 1 columns leaves (pi l^2)^((d-1)/2) E_pq with
///                         E_pq = exp(-|x_p - x_q|_{-j}^2 / 4l^2), so p_j(t) = e^o (pi
///                         l^2)^((d-1)/2) k(t)^T (c c^T o E) k(t), k_p(t) = exp(-(t - x_pj)^2 /
///                         2l^2), o the model's log offset (it is normalized, so this integrates
///                         to 1). Blocked over the upper triangle: m^2 (T + d) / 2
///                         multiply-adds, memory O(m * block).
///   kernel SoS:           its Gaussian mixture's components, each N(t; mu_kj, v_k).
/// Throws std::invalid_argument with marginalUnavailableReason when there is none.
/// progress(done, total) returning false cancels (the curve comes back cancelled).
DensityCurve marginalCurve(const FittedModel& model, const CurveSpec& spec,
                           const ProgressFn& progress = {});

} // namespace sosrep
