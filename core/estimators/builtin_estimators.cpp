// SPDX-License-Identifier: MIT
// The estimators that ship with the product. Adding one is a folder under core/estimators/ with
// its Estimator subclass and a make function, plus one line here.
#include "core/estimators/detectors/detector_estimators.h"
#include "core/estimators/fire/fire_estimator.h"
#include "core/estimators/kde/kde_estimator.h"
#include "core/estimators/ratio_baselines/ratio_baselines.h"
#include "core/estimators/registry.h"
#include "core/estimators/sos_mmd/sos_mmd_estimator.h"
#include "core/estimators/sosrep/sosrep_estimator.h"

namespace sosrep {

void registerBuiltinEstimators(EstimatorRegistry& registry)
{
    registry.add(makeSosrepEstimator());
    registry.add(makeKdeEstimator());
    registry.add(makeSosMmdEstimator());
    registry.add(makeIsolationForestEstimator());
    registry.add(makeKnnEstimator());
    registry.add(makeLofEstimator());
    registry.add(makeEcodEstimator());
    registry.add(makeFireEstimator());
    registry.add(makeUlsifEstimator());
    registry.add(makeTikdeEstimator());
    registry.add(makeSosrepRatioEstimator());
}

} // namespace sosrep
