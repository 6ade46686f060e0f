// SPDX-License-Identifier: MIT
#include "app/cli/fit_summary.h"

#include "core/metrics/auc.h"
#include "ui/io/table_text.h"

#include <QJsonArray>

#include <cmath>

namespace sosrep::cli {

QString finiteCell(double v)
{
    return std::isfinite(v) ? io::formatNumber(v) : QString();
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

void warnFloored(CommandContext& ctx, const LogDensity& ld)
{
    if (ld.floored > 0) {
        ctx.warn(std::to_string(ld.floored) + " of " + std::to_string(ld.values.size()) +
                 " scores were floored at log p = -690.8 (p below 1e-300): they tie, and their "
                 "order among themselves is lost");
    }
}

namespace {

void addSearch(QJsonObject& s, const FitOutcome& f, const FitRequest& req)
{
    s[QStringLiteral("selection")] = QString::fromStdString(f.search->selection.reason);
    s[QStringLiteral("selection_rule")] = QString::fromStdString(toString(req.search.rule));
    s[QStringLiteral("fd_validation")] = QString::fromStdString(f.validation);
    s[QStringLiteral("fd_excluded_duplicates")] = f.search->excludedDuplicates;
    int sweepProducts = 0;
    for (const FdPoint& pt : f.search->curve) {
        sweepProducts += pt.kernelProducts;
    }
    s[QStringLiteral("sweep_kernel_products")] = sweepProducts;
}

void addSolver(QJsonObject& s, const FitOutcome& f, const FitRequest& req)
{
    const bool hasTrace = !f.model.trace.empty();
    const TraceRow last = hasTrace ? f.model.trace.back() : TraceRow{};
    s[QStringLiteral("solver")] =
        hasTrace ? QString::fromStdString(toString(req.fit.solver.solver)) : QStringLiteral("none");
    s[QStringLiteral("status")] = QString::fromStdString(toString(f.model.status));
    s[QStringLiteral("iterations")] = last.iteration;
    s[QStringLiteral("loss")] = last.loss;
    s[QStringLiteral("sq_norm")] = last.sqNorm;
    s[QStringLiteral("negative_fraction")] = last.negativeFraction;
    s[QStringLiteral("residual")] = last.residual;
    s[QStringLiteral("clamped")] = static_cast<double>(f.model.clamped);
    s[QStringLiteral("kernel_products")] = f.model.kernelProducts;
    if (req.fit.solver.solver == SolverKind::Newton) {
        s[QStringLiteral("fallback_steps")] = f.model.fallbackSteps;
        s[QStringLiteral("solver_path")] = QString::fromStdString(f.model.solverNote);
    }
    if (f.companion) {
        // The companion run may diverge (standard GD at a natural-GD step size): say so instead
        // of printing a non-finite loss.
        const TraceRow& c = f.companion->trace.back();
        s[QStringLiteral("standard_status")] =
            QString::fromStdString(toString(f.companion->status));
        s[QStringLiteral("standard_iterations")] = c.iteration;
        if (std::isfinite(c.loss)) {
            s[QStringLiteral("standard_loss")] = c.loss;
            s[QStringLiteral("standard_negative_fraction")] = c.negativeFraction;
        }
    }
}

} // namespace

QJsonObject fitSummary(const FitOutcome& f, const FitRequest& req, const Dataset& train,
                       const Dataset& scored, const LogDensity& ld)
{
    const KernelSpec& spec = f.model.model.kernel->spec();
    QJsonObject s;
    s[QStringLiteral("estimator")] = QString::fromStdString(toString(req.fit.estimator));
    s[QStringLiteral("kernel")] = QString::fromStdString(toString(spec.type));
    s[QStringLiteral("backend")] = QString::fromStdString(f.model.model.kernel->backendName());
    if (f.model.model.kernel->rank() > 0) {
        s[QStringLiteral("rank")] = f.model.model.kernel->rank();
    }
    s[QStringLiteral("length_scale")] = spec.lengthScale;
    if (!req.lengthScaleRule.empty()) {
        s[QStringLiteral("length_scale_rule")] = QString::fromStdString(req.lengthScaleRule);
    }
    if (f.search) {
        addSearch(s, f, req);
    }
    s[QStringLiteral("n_train")] = static_cast<int>(train.rows());
    s[QStringLiteral("dim")] = static_cast<int>(train.dim());
    addSolver(s, f, req);
    s[QStringLiteral("floored_scores")] = ld.floored;
    s[QStringLiteral("seed")] = QString::number(req.seed);
    s[QStringLiteral("n_scored")] = static_cast<int>(scored.rows());
    s[QStringLiteral("seconds")] = std::round(f.seconds * 1000.0) / 1000.0;
    return s;
}

QByteArray traceText(const QString& path, const FitOutcome& f, SolverKind primary)
{
    std::vector<std::pair<QString, const TraceRow*>> rows;
    auto add = [&](const QString& name, const FitResult& fit) {
        for (const TraceRow& t : fit.trace) {
            rows.emplace_back(name, &t);
        }
    };
    add(QString::fromStdString(toString(primary)), f.model);
    if (f.companion) {
        add(QStringLiteral("standard"), *f.companion);
    }
    return io::tableText(
        path,
        {QStringLiteral("solver"), QStringLiteral("iteration"), QStringLiteral("loss"),
         QStringLiteral("sq_norm"), QStringLiteral("negative_fraction"),
         QStringLiteral("residual")},
        [&](int i, QStringList& c) {
            const TraceRow& t = *rows[size_t(i)].second;
            c << rows[size_t(i)].first << QString::number(t.iteration) << finiteCell(t.loss)
              << finiteCell(t.sqNorm) << finiteCell(t.negativeFraction) << finiteCell(t.residual);
        },
        static_cast<int>(rows.size()));
}

QByteArray fdText(const QString& path, const SearchResult& s)
{
    return io::tableText(
        path,
        {QStringLiteral("length_scale"), QStringLiteral("fisher_divergence"),
         QStringLiteral("selected"), QStringLiteral("status"), QStringLiteral("invalid_points")},
        [&](int i, QStringList& c) {
            const FdPoint& p = s.curve[size_t(i)];
            c << io::formatNumber(p.lengthScale) << finiteCell(p.value)
              << QString::number(i == s.selection.index ? 1 : 0)
              << QString::fromStdString(toString(p.status)) << QString::number(p.invalidPoints);
        },
        static_cast<int>(s.curve.size()));
}

} // namespace sosrep::cli
