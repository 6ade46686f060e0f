// SPDX-License-Identifier: MIT
// The JSON summary of a fit: settings, units, AUCs, threshold, warnings.
#pragma once

#include "app/cli/command_context.h"
#include "core/data/dataset.h"
#include "core/data/scaler.h"
#include "core/io/json.h"
#include "core/pipeline/fit_route.h"
#include "core/pipeline/outlier_threshold.h"

#include <QByteArray>
#include <QJsonObject>

namespace sosrep::cli {

/// AUC-ROC and AUC-PR of the anomaly scores -log p when the rows have labels of both classes.
void addAucs(QJsonObject& summary, const LogDensity& ld, const Dataset& data);

/// Warns when scores were floored (p below 1e-300: their order among themselves is lost; for a
/// density ratio, also where the estimate is <= 0).
void warnFloored(CommandContext& ctx, const LogDensity& ld,
                 DensityKind kind = DensityKind::Normalized);

/// The model's summary fields (its own, then what its fit reported) into a JSON object.
void addModelFields(QJsonObject& summary, const FittedModel& model);

/// What the log values are per ("log_value_unit": "per minute × hour", every column's own unit;
/// absent for ratios and normality scores) and the kernel's length scale in each column's own
/// units ("length_scale_data_units": l * scale_j, one per column; the kernel works in the
/// scaled coordinates, where "length_scale" is given).
void addUnits(QJsonObject& summary, const FittedModel& model, const Scaler& scaler,
              const std::vector<std::string>& columns);

/// The outlier threshold ("outlier_threshold") and how many of the scored rows fall below it
/// ("n_flagged", "flagged_fraction").
void addThreshold(QJsonObject& summary, const OutlierThreshold& threshold, const LogDensity& ld);

/// The fit's one-line JSON summary (without AUCs and warnings).
QJsonObject fitSummary(const FitOutcome& f, const FitSettings& settings, const Dataset& train,
                       const Dataset& scored, const LogDensity& ld);

/// The optimizer traces as CSV: solver,iteration,loss,sq_norm,negative_fraction,residual.
/// A non-finite value (a diverged run's last row) is an empty cell, never "nan" or "inf".
std::string traceText(const std::string& path, const FitReport& report);

/// The Fisher-divergence curve: length_scale,fisher_divergence,selected,status,invalid_points.
/// A grid point without a finite value (a fit that diverged or was refused, or validation
/// points where the term is not finite) has an empty fisher_divergence cell; status and
/// invalid_points say why.
std::string fdText(const std::string& path, const SearchResult& s);

/// A number for a CSV cell, empty when not finite.
std::string finiteCell(double v);
/// formatNumber and finiteCell for the cells built as Qt strings.
QString qtNumber(double v);
QString qtFiniteCell(double v);
/// A core/io JSON object as Qt's, for the summaries the command line prints.
QJsonObject qtObject(const io::Json& object);

} // namespace sosrep::cli
