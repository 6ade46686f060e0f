// SPDX-License-Identifier: MIT
// Outlier thresholds from held-out rows, and contamination parsing.
#pragma once

#include "core/pipeline/fit_route.h"

#include <string>

namespace sosrep {

/// The share of rows a detector is told to flag: "auto" (PyOD's default, 0.1) or a number in
/// (0, 0.5]. Anything else throws ParameterError("contamination") before a fit starts.
double parseContamination(const std::string& text);
void checkContamination(double contamination);
constexpr double kAutoContamination = 0.1;

/// The outlier threshold of predict / decision_function and of `sosrep fit --contamination`:
/// the `contamination` quantile of log values that models gave rows they did not fit.
///
/// The training rows' own values are the wrong reference: each sits on its own kernel bump, so
/// its value is higher than a new row's from the same distribution, and a threshold from them
/// flagged 96-100 % of new inliers on Cardiotocography and landsat with contamination 0.1.
struct OutlierThreshold
{
    double contamination = kAutoContamination;
    double offset = 0.0; // log value below which a row is an outlier (the model's log units)
    int heldOutRows = 0; // how many held-out values the quantile was taken over
    std::string method;  // "5-fold cross-fit" or "validation rows" (the anomaly rule's)
};

/// Log values of rows that the model giving them did not fit, in the final model's units
/// (data.scaler applied): for the multi-scale anomaly rule the ensemble's values at its own
/// validation rows (fit.heldOutLogValues), otherwise every training row's value from a
/// `folds`-fold cross-fit at the fitted length scale (seeded by the settings' seed; copies of
/// a row in one fold; at most one fold per distinct row). `method` says which. Empty when
/// cancelled. With row weights (data.weights), the cross-fit's *weights gets each held-out
/// row's and rows of weight 0 are left out; the anomaly rule's validation rows come
/// unweighted, as its ranks count them (*weights emptied).
Vector heldOutLogValues(const FitData& data, const FitSettings& settings, const FitOutcome& fit,
                        int folds, const FitObserver& observer, std::string* method,
                        Vector* weights = nullptr);

/// Every training row's value from a model that did not fit it, rows in the input's order (PyOD's
/// decision_scores_ on a cross-fitted footing): a `folds`-fold cross-fit of the fit's own model.
/// One model: the estimator at the fitted length scale, seeded as heldOutLogValues, whose
/// values these equal when there are no row weights. The multi-scale anomaly rule: its members
/// at their length scales, each row ranked among all rows' held-out values (outlier_threshold.cpp,
/// pooledRanks). Rows of weight 0 take the fit's model's values.
/// Empty when cancelled. `method` (optional) gets heldOutLogValues' word for the cross-fit.
Vector crossFittedLogValues(const FitData& data, const FitSettings& settings, const FitOutcome& fit,
                            int folds, const FitObserver& observer, std::string* method = nullptr);

/// The `contamination` quantile of `heldOut` (linear interpolation between order statistics,
/// NumPy's default). With row weights, the weighted quantile that reduces to it for equal
/// weights: the k-th smallest of the rows of positive weight sits at (C_k - w_k) / (W - w_n),
/// C_k the cumulative weight, W the total and w_n the largest value's weight: it does not
/// change when every weight is multiplied by one number, and a row of weight 0 counts as none.
OutlierThreshold outlierThreshold(const Vector& heldOut, double contamination,
                                  const std::string& method, const Vector& weights = Vector());

constexpr int kThresholdFolds = 5;

} // namespace sosrep
