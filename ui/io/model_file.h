// SPDX-License-Identifier: MIT
#pragma once

#include "core/data/scaler.h"
#include "core/estimators/density_model.h"

#include <QByteArray>
#include <QJsonObject>
#include <QString>

#include <string>
#include <vector>

namespace sosrep::io {

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

/// The model as JSON ("format": "sosrep-model", "version": 1).
QByteArray modelJson(const SavedModel& model);
/// Parses and validates a model file's bytes; throws DataError naming `source` (with line and
/// column for malformed JSON) on anything malformed or out of range: unknown names, sizes that
/// disagree, non-finite numbers, a scaler with a zero or negative scale, kernel parameters
/// beyond their limits.
SavedModel parseModel(const QByteArray& bytes, const QString& source);
/// Reads and parses a model file.
SavedModel loadModel(const QString& path);
/// The density model ready to evaluate (rebuilds the kernel operator on the stored points);
/// a kernel the stored points cannot support throws DataError naming `source`.
DensityModel toDensityModel(const SavedModel& model, const QString& source = {});

} // namespace sosrep::io
