// SPDX-License-Identifier: MIT
// The JSON summary of a fit: settings, units, AUCs, threshold, warnings.
#include "app/cli/fit_summary.h"

#include "core/io/model_file.h"
#include "core/io/table_text.h"
#include "core/kernels/kernel_operator.h"
#include "core/metrics/auc.h"

#include <QJsonArray>
#include <QJsonDocument>

#include <cmath>

namespace sosrep::cli {

std::string finiteCell(double v)
{
    return std::isfinite(v) ? io::formatNumber(v) : std::string();
}

QString qtNumber(double v)
{
    return QString::fromStdString(io::formatNumber(v));
}

QString qtFiniteCell(double v)
{
    return QString::fromStdString(finiteCell(v));
}

QJsonObject qtObject(const io::Json& object)
{
    return QJsonDocument::fromJson(QByteArray::fromStdString(io::jsonCompact(object))).object();
}

void addAucs(QJsonObject& summary, const LogDensity& ld, const Dataset& data)
{
    if (!data.hasLabels()) {
        return;
    }
    const long pos = (data.labels->array() != 0).count();
    if (pos == 0 || pos == data.rows()) {
        summary[QStringLiteral("auc_note")] = QStringLiteral("labels hold one class only: no AUC");
        return;
    }
    const Vector score = -ld.values;
    summary[QStringLiteral("auc_roc")] = aucRoc(score, *data.labels);
    summary[QStringLiteral("auc_pr")] = aucPr(score, *data.labels);
}

void warnFloored(CommandContext& ctx, const LogDensity& ld, DensityKind kind)
{
    if (ld.floored > 0 && kind == DensityKind::Ratio) {
        ctx.warn(std::to_string(ld.floored) + " of " + std::to_string(ld.values.size()) +
                 " rows have an estimated ratio <= 0 or below 1e-300 (the estimator imposes no "
                 "sign): their log_ratio is floored at -690.8");
        return;
    }
    if (ld.floored > 0) {
        ctx.warn(std::to_string(ld.floored) + " of " + std::to_string(ld.values.size()) +
                 " scores were floored at log p = -690.8 (p below 1e-300): they tie, and their "
                 "order among themselves is lost");
    }
}

namespace {

void addSearch(QJsonObject& s, const FitOutcome& f, const FitSettings& settings)
{
    s[QStringLiteral("purpose")] = QString::fromStdString(f.purpose);
    s[QStringLiteral("selection")] = QString::fromStdString(f.search->selection.reason);
    s[QStringLiteral("selection_rule")] = QString::fromStdString(f.rule);
    s[QStringLiteral("selection_setting")] =
        QString::fromStdString(settings.values.text("selection"));
    s[QStringLiteral("fd_validation")] = QString::fromStdString(f.validation);
    s[QStringLiteral("fd_folds")] = f.search->folds;
    s[QStringLiteral("fd_excluded_duplicates")] = f.search->excludedDuplicates;
    if (f.search->extendedBelow > 0) {
        s[QStringLiteral("fd_grid_extended_below")] = f.search->extendedBelow;
    }
    if (f.search->reach > 0.0) {
        s[QStringLiteral("neighbourhood_reach")] = f.search->reach;
        s[QStringLiteral("neighbourhood_k")] = f.search->reachNeighbours;
    }
    if (!f.search->selection.memberScales.empty()) {
        QJsonArray scales;
        for (double l : f.search->selection.memberScales) {
            scales.append(l);
        }
        s[QStringLiteral("member_length_scales")] = scales;
    }
    int sweepProducts = 0;
    QJsonArray backends; // Auto's choice per length scale (issue 48)
    for (const FdPoint& pt : f.search->curve) {
        sweepProducts += pt.kernelProducts;
        if (!pt.backend.empty()) {
            backends.append(
                QJsonObject{{QStringLiteral("length_scale"), pt.lengthScale},
                            {QStringLiteral("backend"), QString::fromStdString(pt.backend)}});
        }
    }
    s[QStringLiteral("sweep_kernel_products")] = sweepProducts;
    if (!backends.isEmpty()) {
        s[QStringLiteral("sweep_backends")] = backends;
    }
}

QJsonValue jsonOf(const SummaryValue& v)
{
    if (const double* d = std::get_if<double>(&v)) {
        return std::isfinite(*d) ? QJsonValue(*d) : QJsonValue(QStringLiteral("not finite"));
    }
    if (const long long* i = std::get_if<long long>(&v)) {
        return QJsonValue(static_cast<qint64>(*i));
    }
    return QJsonValue(QString::fromStdString(std::get<std::string>(v)));
}

} // namespace

void addModelFields(QJsonObject& summary, const FittedModel& model)
{
    for (const auto& [key, value] : model.summary()) {
        summary[QString::fromStdString(key)] = jsonOf(value);
    }
    for (const auto& [key, value] : model.report().fields) {
        summary[QString::fromStdString(key)] = jsonOf(value);
    }
}

void addUnits(QJsonObject& summary, const FittedModel& model, const Scaler& scaler,
              const std::vector<std::string>& columns)
{
    if (model.kind() == DensityKind::Normalized || model.kind() == DensityKind::PreDensity) {
        QStringList names;
        for (const std::string& c : columns) {
            names << QString::fromStdString(c);
        }
        // As the app says it (ui/controller/density_units.h): the product's unit past three
        // columns.
        summary[QStringLiteral("log_value_unit")] =
            names.size() > 3
                ? QStringLiteral("per unit of the %1 columns' product").arg(names.size())
                : QStringLiteral("per ") + names.join(QStringLiteral(" × "));
    }
    // The scaling fitted (scale=auto says here what it resolved to).
    summary[QStringLiteral("scaling")] = QString::fromStdString(toString(scaler.kind));
    const KernelOperator* k = model.kernel();
    if (k && k->spec().lengthScale > 0.0) {
        QJsonArray perColumn;
        for (Eigen::Index j = 0; j < Eigen::Index(columns.size()); ++j) {
            const double scale = scaler.scale.size() > j ? scaler.scale(j) : 1.0;
            perColumn.append(k->spec().lengthScale * scale);
        }
        summary[QStringLiteral("length_scale_data_units")] = perColumn;
    }
}

void addThreshold(QJsonObject& summary, const OutlierThreshold& threshold, const LogDensity& ld)
{
    summary[QStringLiteral("outlier_threshold")] = qtObject(io::outlierThresholdJson(threshold));
    const auto flagged = (ld.values.array() < threshold.offset).count();
    summary[QStringLiteral("n_flagged")] = static_cast<int>(flagged);
    summary[QStringLiteral("flagged_fraction")] =
        ld.values.size() ? double(flagged) / double(ld.values.size()) : 0.0;
}

QJsonObject fitSummary(const FitOutcome& f, const FitSettings& settings, const Dataset& train,
                       const Dataset& scored, const LogDensity& ld)
{
    const FittedModel& model = *f.model;
    QJsonObject s;
    s[QStringLiteral("estimator")] = QString::fromStdString(settings.estimator);
    if (const KernelOperator* k = model.kernel()) {
        s[QStringLiteral("kernel")] = QString::fromStdString(toString(k->spec().type));
        s[QStringLiteral("length_scale")] = k->spec().lengthScale;
    }
    if (f.bwAdjust != 1.0) { // the fitted l = the chosen one x the multiplier
        s[QStringLiteral("bw_adjust")] = f.bwAdjust;
        s[QStringLiteral("length_scale_chosen")] = f.lengthScaleChosen;
    }
    if (!f.lengthScaleRule.empty() && f.lengthScaleRule != "auto") {
        s[QStringLiteral("length_scale_rule")] = QString::fromStdString(f.lengthScaleRule);
    }
    if (f.search) {
        addSearch(s, f, settings);
    }
    s[QStringLiteral("n_train")] = static_cast<int>(train.rows());
    if (!f.fitRows.empty()) { // max_fit_rows took a subsample: the rows the model holds
        s[QStringLiteral("n_fitted")] = static_cast<int>(f.fitRows.size());
    }
    s[QStringLiteral("dim")] = static_cast<int>(train.dim());
    s[QStringLiteral("status")] = QString::fromStdString(toString(model.report().status));
    addModelFields(s, model);
    s[QStringLiteral("floored_scores")] = ld.floored;
    s[QStringLiteral("seed")] = QString::fromStdString(settings.values.text("seed"));
    s[QStringLiteral("n_scored")] = static_cast<int>(scored.rows());
    s[QStringLiteral("seconds")] = std::round(f.seconds * 1000.0) / 1000.0;
    return s;
}

std::string traceText(const std::string& path, const FitReport& report)
{
    std::vector<std::pair<std::string, const TraceRow*>> rows;
    bool fista = !report.traces.empty();
    for (const NamedTrace& t : report.traces) {
        fista = fista && t.run == "fista";
        for (const TraceRow& r : t.rows) {
            rows.emplace_back(t.run, &r);
        }
    }
    const std::vector<std::string> header =
        fista // kernel SoS: the objective, its MMD^2 part and the relative change that stops it
            ? std::vector<std::string>{"solver", "iteration", "loss", "mmd2", "relative_change"}
            : std::vector<std::string>{"solver",  "iteration",         "loss",
                                       "sq_norm", "negative_fraction", "residual"};
    return io::tableText(
        path, header,
        [&](int i, std::vector<std::string>& c) {
            const TraceRow& t = *rows[size_t(i)].second;
            c = {rows[size_t(i)].first, std::to_string(t.iteration), finiteCell(t.loss)};
            if (fista) {
                c.insert(c.end(), {finiteCell(t.mmd), finiteCell(t.residual)});
            } else {
                c.insert(c.end(), {finiteCell(t.sqNorm), finiteCell(t.negativeFraction),
                                   finiteCell(t.residual)});
            }
        },
        static_cast<int>(rows.size()));
}

std::string fdText(const std::string& path, const SearchResult& s)
{
    // Which points the density rule added: the first `extendedBelow` grid points lie below the
    // grid's lower edge, refinement midpoints are off the log grid.
    std::vector<std::string> kind;
    int below = s.extendedBelow;
    for (const FdPoint& p : s.curve) {
        kind.emplace_back(p.refinement ? "refinement" : below-- > 0 ? "below-grid" : "grid");
    }
    return io::tableText(
        path,
        {"length_scale", "fisher_divergence", "selected", "status", "invalid_points", "point"},
        [&](int i, std::vector<std::string>& c) {
            const FdPoint& p = s.curve[size_t(i)];
            c = {io::formatNumber(p.lengthScale),    finiteCell(p.value),
                 i == s.selection.index ? "1" : "0", toString(p.status),
                 std::to_string(p.invalidPoints),    kind[size_t(i)]};
        },
        static_cast<int>(s.curve.size()));
}

} // namespace sosrep::cli
