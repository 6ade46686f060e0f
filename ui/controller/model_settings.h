// SPDX-License-Identifier: MIT
#pragma once

#include "core/data/scaler.h"
#include "core/estimators/density_model.h"
#include "core/estimators/sosrep.h"
#include "core/tuning/fisher_divergence.h"

#include <cstdint>

namespace sosrep::ui {

/// Every user-settable model parameter of the app. Changing it never refits by itself.
struct ModelSettings
{
    EstimatorKind estimator = EstimatorKind::Sosrep;
    KernelType kernel = KernelType::Gaussian;
    double lengthScale = 0.3;
    bool autoLengthScale = true;
    SelectionRule selection = SelectionRule::StableAboveSpacing;
    int sdoOrder = 0; // 0 = floor(d/2) + 1
    int features = 2000;
    SdoMethod sdoMethod = SdoMethod::Rff;
    SolverKind solver = SolverKind::Natural; // the run whose model is plotted and scored
    double learningRate = 0.1;
    int iterations = 500;
    uint64_t seed = 0;
    ScalingKind scaling = ScalingKind::MinMax;
    int maxFitRows = 10000; // larger data are fitted on a seeded subsample (the ADBench cap)

    bool operator==(const ModelSettings& o) const;
    bool operator!=(const ModelSettings& o) const { return !(*this == o); }
};

} // namespace sosrep::ui
