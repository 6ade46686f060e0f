// SPDX-License-Identifier: MIT
// The rows scaled as a fit's settings scale them, for fits beside the two views' own.
#include "ui/controller/estimation_controller.h"

#include "core/data/preparation.h"
#include "core/estimators/common_options.h"

namespace sosrep::ui {

std::pair<Matrix, Scaler> EstimationController::rowsScaledFor(const FitSettings& s) const
{
    const ScalingKind kind = resolvedScaling(scalingOf(s.values), m_featureData.x);
    if (kind == m_scaler.kind) {
        return {m_features, m_scaler};
    }
    if (m_scoresFeatures.size() > 0 && kind == m_scoresScaler.kind) {
        return {m_scoresFeatures, m_scoresScaler};
    }
    PreparedTraining p = prepareTraining(m_featureData, kind);
    return {std::move(p.x), std::move(p.scaler)};
}

} // namespace sosrep::ui
