// SPDX-License-Identifier: MIT
#pragma once

#include "core/data/scaler.h"
#include "core/estimators/density_model.h"

#include <QJsonObject>
#include <QString>

#include <string>
#include <vector>

namespace sosrep::cli {

/// What a saved model holds: enough to score new rows exactly as the fit did. The SDO random
/// features are not stored: they are regenerated from the recorded seed (same seed, same
/// features on every platform; see core/random.h).
struct SavedModel
{
    EstimatorKind estimator = EstimatorKind::Sosrep;
    KernelSpec kernel;
    Scaler scaler;
    std::vector<std::string> columns;
    Matrix train;           // scaled training points
    Vector weights;         // alpha (SOSREP) or 1/N (KDE)
    QJsonObject provenance; // solver, seeds, FD selection, source files
};

/// Saves as JSON ("format": "sosrep-model", "version": 1), atomically.
void saveModel(const QString& path, const SavedModel& model);
/// Loads and validates; throws DataError naming the file on anything malformed.
SavedModel loadModel(const QString& path);
/// The density model ready to evaluate (rebuilds the kernel operator on the stored points).
DensityModel toDensityModel(const SavedModel& model);

} // namespace sosrep::cli
