// SPDX-License-Identifier: MIT
// ROC curve, AUC-ROC and AUC-PR with ties handled.
#pragma once

#include "core/types.h"

#include <vector>

namespace sosrep {

/// Area under the ROC curve for scores where higher = more anomalous and labels 1 = anomaly,
/// by the Mann-Whitney statistic with mid-ranks for ties (a tie counts one half).
/// Returns NaN-free results: throws ParameterError when either class is empty.
double aucRoc(const VectorRef& scores, const Eigen::VectorXi& labels);

/// Area under the precision-recall curve as average precision (the step-wise sum used by
/// scikit-learn's average_precision_score); tied scores enter as one threshold.
double aucPr(const VectorRef& scores, const Eigen::VectorXi& labels);

/// The ROC curve as (false positive rate, true positive rate) points from (0,0) to (1,1), one per
/// distinct score threshold (ties form one step).
struct RocCurve
{
    std::vector<double> fpr;
    std::vector<double> tpr;
};
RocCurve rocCurve(const VectorRef& scores, const Eigen::VectorXi& labels);

} // namespace sosrep
