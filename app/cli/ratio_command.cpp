// SPDX-License-Identifier: MIT
// `sosrep ratio`: the density ratio q/p with FIRE or a baseline, the importance weights on the
// p sample and their summaries (issue 10).
#include "app/cli/cli_flags.h"
#include "app/cli/cli_runner.h"
#include "app/cli/commands.h"
#include "app/cli/data_loader.h"
#include "app/cli/fit_options.h"
#include "app/cli/fit_summary.h"
#include "app/cli/ratio_samples.h"
#include "core/data/preparation.h"
#include "core/errors.h"
#include "core/estimators/common_options.h"
#include "core/estimators/ratio_model.h"
#include "core/estimators/registry.h"
#include "core/io/model_file.h"
#include "core/io/table_text.h"
#include "core/pipeline/fit_route.h"
#include "core/pipeline/q_density.h"
#include "core/ratio/expression.h"
#include "core/ratio/importance_weights.h"
#include "core/util/text.h"

#include <QJsonArray>

#include <algorithm>
#include <cmath>

namespace sosrep::cli {
namespace {

struct RatioFiles
{
    QString weights;
    QString model;
    QString j;
};

/// Which q the command was given, checked for conflicts.
struct QSource
{
    QString sample;                // --q
    std::optional<RowSplit> split; // --q-where or --q-inside: q's rows from --p itself
    QString density;               // --q-density: q is this estimator's density of q's rows
    QString function;              // --q-function
    QString model;                 // --q-model
    bool inverse = false;
    int type = 1;
    const char* flag = "--q";
    bool hasRows() const { return !sample.isEmpty() || split.has_value(); }
};

QSource qSourceOf(const Options& o)
{
    QSource s;
    s.sample = o.text(QStringLiteral("q"));
    s.split = rowSplitOf(o);
    s.density = o.text(QStringLiteral("q-density"));
    s.function = o.text(QStringLiteral("q-function"));
    s.model = o.text(QStringLiteral("q-model"));
    s.inverse = o.has(QStringLiteral("inverse"));
    const int given = (s.sample.isEmpty() ? 0 : 1) + (s.split ? 1 : 0) +
                      (s.function.isEmpty() ? 0 : 1) + (s.model.isEmpty() ? 0 : 1) +
                      (s.inverse ? 1 : 0);
    if (given != 1) {
        throw ParameterError("--q", given == 0 ? "give a sample of q (--q FILE, or --q-where / "
                                                 "--q-inside for rows of --p), or q as a function "
                                                 "(--q-function EXPR, --q-model FILE or --inverse)"
                                               : "give only one of --q, --q-where, --q-inside, "
                                                 "--q-function, --q-model, --inverse");
    }
    if (!s.density.isEmpty() && !s.hasRows()) {
        throw ParameterError("--q-density", "needs q's rows (--q, --q-where or --q-inside) to "
                                            "fit the density to");
    }
    if (!s.density.isEmpty()) {
        try { // before any data is read
            checkQDensityEstimator(s.density.toStdString());
        } catch (const ParameterError& e) {
            throw ParameterError("--q-density", e.message());
        }
    }
    s.type = s.hasRows() && s.density.isEmpty() ? 1 : 2;
    s.flag = !s.density.isEmpty()    ? "--q-density"
             : s.split               ? s.split->flag
             : !s.function.isEmpty() ? "--q-function"
             : !s.model.isEmpty()    ? "--q-model"
             : s.inverse             ? "--inverse"
                                     : "--q";
    if (o.has(QStringLiteral("type"))) {
        const QString t = o.text(QStringLiteral("type"));
        if (t != QLatin1String("1") && t != QLatin1String("2")) {
            throw ParameterError("--type", "must be 1 or 2, not '" + t.toStdString() + "'");
        }
        if (t.toInt() != s.type) {
            throw ParameterError("--type", s.type == 1
                                               ? "2 needs q as a function (--q-density, "
                                                 "--q-function, --q-model or --inverse)"
                                               : "1 needs a sample of q (--q FILE, --q-where or "
                                                 "--q-inside) without --q-density");
        }
    }
    return s;
}

/// What q is, for the summary and the model file's provenance.
std::string qDescription(const QSource& src)
{
    std::string rows = src.split
                           ? std::string(src.split->flag) + " " + src.split->text.toStdString() +
                                 (src.split->pAll ? " --p-all" : "")
                           : src.sample.toStdString();
    if (!src.density.isEmpty()) {
        return "--q-density " + src.density.toStdString() + " of " + rows;
    }
    return src.hasRows() ? rows : std::string(src.flag);
}

/// --q-density: q's density fitted to q's rows (both in p's scaled coordinates), at p's rows.
Vector qDensityValues(const QSource& src, const Matrix& qx, const PreparedTraining& prepared,
                      const FitSettings& settings, CommandContext& ctx)
{
    const std::string name = src.density.toStdString();
    const Estimator& e = EstimatorRegistry::instance().get(name);
    if (e.kindFor(FitSettings::defaults(name).values) == DensityKind::PreDensity) {
        ctx.warn("the --q-density density (" + name +
                 ") is unnormalized (a pre-density): the "
                 "ratio is q/p up to the same unknown constant");
    }
    try {
        return fittedQDensity(name, settings.values.text("seed"), qx, prepared.x);
    } catch (const ParameterError& err) {
        throw ParameterError("--q-density", err.message());
    }
}

/// q at the raw p rows (raw units), then in the p scaler's units.
Vector typeTwoValues(const QSource& src, const Dataset& p, const Scaler& pScaler,
                     const Matrix& pScaled, CommandContext& ctx)
{
    Vector raw;
    if (!src.function.isEmpty()) {
        const Expression e = Expression::parse(src.function.toStdString(),
                                               static_cast<int>(p.dim()), "--q-function");
        raw = e.evaluate(p.x);
    } else if (!src.model.isEmpty()) {
        const io::SavedModel saved = io::loadModel(src.model.toStdString());
        const auto model = io::toDensityModel(saved, src.model.toStdString(), "--q-model");
        if (saved.columns != p.columns) {
            throw ParameterError("--q-model", "'" + src.model.toStdString() +
                                                  "' was fitted on other columns than --p");
        }
        if (model->kind() == DensityKind::PreDensity) {
            ctx.warn("the --q-model density is unnormalized (a pre-density): the ratio is q/p "
                     "up to the same unknown constant");
        }
        // Per unit of the data's columns (the model file's scaler applied in the model).
        raw = model->logValues(saved.scaler.apply(p.x)).values.array().exp().matrix();
    } else {
        raw = Vector::Ones(p.rows());
        ctx.warn("--inverse estimates 1/p: it is in L2(p) only on a bounded support or a "
                 "manifold; for Gaussian-tailed data it grows without bound (digest 5.1)");
    }
    for (Eigen::Index i = 0; i < raw.size(); ++i) {
        if (!std::isfinite(raw(i)) || raw(i) < 0.0) {
            throw ParameterError(src.flag, "is " + numberText(raw(i)) + " at row " +
                                               std::to_string(i + 1) + " of '" + p.source +
                                               "': q must be finite and non-negative there");
        }
    }
    if ((raw.array() == 0.0).all()) {
        // Not a tuning failure (the grid's non-finite J was all it said before): q/p is 0.
        throw ParameterError(src.flag, "q is zero at every row of " + sosrep::quotedText(p.source) +
                                           ": the ratio q/p is 0 there and has nothing to fit");
    }
    // q in the scaled coordinates: per unit of those, q grows by the scaling's Jacobian. A q
    // near the largest double overflows there, which is this option's value, not p's rows.
    const Vector factor = pScaler.densityFactorRows(pScaled);
    const Vector scaled = raw.cwiseProduct(factor);
    for (Eigen::Index i = 0; i < scaled.size(); ++i) {
        if (!std::isfinite(scaled(i))) {
            throw ParameterError(src.flag, "is " + numberText(raw(i)) + " at row " +
                                               std::to_string(i + 1) + " of '" + p.source +
                                               "', beyond a double once per unit of the scaled "
                                               "columns (x " +
                                               numberText(factor(i)) + "): divide q by a constant");
        }
    }
    return scaled;
}

std::string surfaceText(const JSurface& j)
{
    std::string s = "t,lambda,criterion,value,selected\n";
    for (size_t a = 0; a < j.t.size(); ++a) {
        for (size_t b = 0; b < j.lambda.size(); ++b) {
            const bool chosen = int(a) == j.bestT && int(b) == j.bestLambda;
            s += io::formatNumber(j.t[a]) + ',' + io::formatNumber(j.lambda[b]) + ',' +
                 j.criterion + ',' + finiteCell(j.j(Eigen::Index(a), Eigen::Index(b))) + ',' +
                 (chosen ? "1" : "0") + '\n';
        }
    }
    return s;
}

/// Whether the fit will tune (t, lambda) or (t, threshold) and so have a surface to write.
bool tunes(const FitSettings& s)
{
    if (!s.values.has("t")) {
        return false;
    }
    const char* partner = s.values.has("threshold") ? "threshold" : "lambda";
    return s.values.isChoice("t") || s.values.isChoice(partner);
}

void addWeights(QJsonObject& s, const WeightSummary& w)
{
    s[QStringLiteral("weight_mean")] = w.mean;
    s[QStringLiteral("weight_ess")] = w.ess;
    s[QStringLiteral("weight_ess_fraction")] = w.essFraction;
    s[QStringLiteral("weight_negative_share")] = w.negativeShare;
    s[QStringLiteral("weight_min")] = w.minimum;
    s[QStringLiteral("weight_max")] = w.maximum;
    s[QStringLiteral("chi2_plugin")] = w.chi2;
    if (w.nonFinite > 0) {
        s[QStringLiteral("weight_non_finite")] = static_cast<qint64>(w.nonFinite);
    }
}

QJsonArray jsonArray(const Vector& v)
{
    QJsonArray a;
    for (Eigen::Index i = 0; i < v.size(); ++i) {
        a.append(v(i));
    }
    return a;
}

/// Covariate shift (paper section 6.4.1): least squares of the response on the p rows, plain
/// and importance-weighted (raw weights, as the paper; clipped ones beside), with an intercept;
/// the mean squared error on q's rows when q has the response.
void addRegression(QJsonObject& s, CommandContext& ctx, const std::string& response,
                   const Matrix& xp, const Vector& yp, const Vector& weights, const Matrix* xq,
                   const Vector* yq)
{
    const Vector ones = Vector::Ones(yp.size());
    const Vector ols = weightedLeastSquares(xp, yp, ones, true);
    const Vector wls = weightedLeastSquares(xp, yp, weights, true);
    const Vector clipped =
        weightedLeastSquares(xp, yp, postProcessWeights(weights, WeightForm::Clipped), true);
    s[QStringLiteral("regress")] = QString::fromStdString(response);
    s[QStringLiteral("ols_coefficients")] = jsonArray(ols);
    s[QStringLiteral("wls_coefficients")] = jsonArray(wls);
    s[QStringLiteral("wls_clipped_coefficients")] = jsonArray(clipped);
    if (xq && yq) {
        auto mse = [&](const Vector& beta) {
            const Vector pred = (*xq * beta.tail(beta.size() - 1)).array() + beta(0);
            return (pred - *yq).squaredNorm() / static_cast<double>(yq->size());
        };
        s[QStringLiteral("q_mse_ols")] = mse(ols);
        s[QStringLiteral("q_mse_wls")] = mse(wls);
        s[QStringLiteral("q_mse_wls_clipped")] = mse(clipped);
        ctx.out() << "  mean squared error on q: plain " << QString::number(mse(ols), 'g', 4)
                  << ", importance-weighted " << QString::number(mse(wls), 'g', 4)
                  << " (clipped weights " << QString::number(mse(clipped), 'g', 4) << ")\n";
    } else {
        ctx.warn("--regress: q has no column '" + response +
                 "', so the regressions are not measured on q");
    }
}

/// --regress: takes the response column out of p's features into *y.
Dataset withoutResponse(Dataset p, const std::string& response, Vector* y)
{
    if (response.empty()) {
        return p;
    }
    int c = 0;
    try {
        c = p.columnIndex(response);
    } catch (const ParameterError& e) {
        throw ParameterError("--regress", e.message()); // not the generic "--column"
    }
    *y = p.x.col(c);
    std::vector<std::string> keep;
    for (const std::string& name : p.columns) {
        if (name != response) {
            keep.push_back(name);
        }
    }
    if (keep.empty()) {
        throw ParameterError("--regress", "'" + response + "' is the only column of --p");
    }
    return p.selectColumns(keep);
}

/// Type I's sample of q, its columns matched to p's, and its response when it has one.
struct QSample
{
    Dataset rows;
    std::optional<Vector> response;
};

QSample loadQSample(const QSource& src, const QString& label, const Dataset& p,
                    const std::string& response, CommandContext& ctx)
{
    QSample q;
    std::vector<std::string> w;
    if (!response.empty()) {
        // q's response, when it has one, measures the regression on q (not a feature).
        const Dataset full = loadDataset(src.sample, label, {});
        const auto it = std::find(full.columns.begin(), full.columns.end(), response);
        if (it != full.columns.end()) {
            q.response = full.x.col(it - full.columns.begin());
        }
        std::vector<std::string> unused;
        q.rows = full.matchColumns(p.columns, &unused);
    } else {
        q.rows = loadMatching(src.sample, label, p.columns, &w);
    }
    ctx.warn(w);
    if (q.rows.rows() == 0) {
        throw DataError(q.rows.source, 0, 0, "has no data rows: a sample of q is needed");
    }
    return q;
}

/// p's rows (with the --regress response) and q's when q has rows (a file or a split).
struct RatioSamples
{
    Dataset p;
    Vector pResponse;
    std::optional<QSample> q;
};

RatioSamples loadSamples(const Options& o, const QString& pPath, const QSource& src,
                         const std::string& response, CommandContext& ctx)
{
    const QString label = o.text(QStringLiteral("label-column"));
    // Every column first: --q-where may name the label or a column --columns leaves out.
    const Dataset every = loadDataset(pPath, label, {}, o.text(QStringLiteral("id-column")));
    const QStringList columns =
        o.text(QStringLiteral("columns")).split(QLatin1Char(','), Qt::SkipEmptyParts);
    RatioSamples out;
    out.p = withoutResponse(selectFeatures(every, columns, pPath), response, &out.pResponse);
    if (src.split) {
        SplitSamples parts =
            splitSamples(*src.split, rowsOfQ(*src.split, every, out.p), out.p, out.pResponse);
        out.p = std::move(parts.p);
        out.pResponse = std::move(parts.pResponse);
        out.q = QSample{std::move(parts.q), std::nullopt};
        if (!response.empty()) {
            out.q->response = std::move(parts.qResponse);
        }
    } else if (!src.sample.isEmpty()) {
        out.q = loadQSample(src, label, out.p, response, ctx);
    }
    return out;
}

/// The weights' summary, refused when not finite, with the fit's notes as warnings.
WeightSummary checkedWeights(const RatioModel& model, const Vector& weights, CommandContext& ctx)
{
    const WeightSummary ws = summarizeWeights(weights);
    if (ws.nonFinite > 0) {
        throw NumericalError(std::to_string(ws.nonFinite) +
                             " importance weights are not finite; try a larger --lambda");
    }
    if (!model.report().note.empty()) {
        ctx.warn(model.report().note);
    }
    ctx.warn(weightWarnings(ws, weights.size()));
    return ws;
}

void stageRatioOutputs(const RatioFiles& files, const RatioModel& model, const Vector& weights,
                       const FitSettings& settings, const PreparedTraining& prepared,
                       const Dataset& p, const QSource& src, CommandContext& ctx)
{
    if (!files.weights.isEmpty()) {
        ctx.stage(files.weights, io::weightsText(weights));
    }
    if (!files.j.isEmpty()) {
        ctx.stage(files.j, surfaceText(*model.surface()));
    }
    if (!files.model.isEmpty()) {
        io::Json prov = io::Json::object();
        prov["seed"] = settings.values.text("seed");
        prov["p_file"] = p.source;
        prov["q"] = qDescription(src);
        ctx.stage(files.model, io::modelJson(io::savedModelOf(model, settings, prepared.scaler,
                                                              p.columns, prov)));
    }
}

void printWeights(QTextStream& out, const RatioModel& model, Eigen::Index rows,
                  const WeightSummary& ws)
{
    out << QString::fromStdString(model.estimator()) << ": "
        << QString::fromStdString(EstimatorRegistry::instance().get(model.estimator()).title())
        << "\n  weights on " << rows << " rows of p: mean " << QString::number(ws.mean, 'g', 4)
        << ", ESS " << QString::number(ws.ess, 'f', 1) << " ("
        << QString::number(100.0 * ws.essFraction, 'f', 1) << " %), negative "
        << QString::number(100.0 * ws.negativeShare, 'f', 1) << " %, chi2 plug-in "
        << QString::number(ws.chi2, 'g', 4) << '\n';
}

/// The command's inputs and outputs, declared and checked before any data is read.
RatioFiles planRatioFiles(const Options& o, const QString& pPath, const QSource& src,
                          CommandContext& ctx)
{
    ctx.input(pPath, "--p");
    if (!src.sample.isEmpty()) {
        ctx.input(src.sample, "--q");
    }
    if (!src.model.isEmpty()) {
        ctx.input(src.model, "--q-model");
    }
    RatioFiles files;
    files.weights = ctx.plannedOutput(o, "--weights-out");
    files.model = ctx.plannedOutput(o, "--ratio-model-out");
    files.j = ctx.plannedOutput(o, "--j-out");
    return files;
}

/// The summary's description of the fit: what was estimated from what (`qRows` -1 for a
/// Type II ratio, which has no q rows), and the model's own fields.
QJsonObject ratioSummary(const RatioModel& model, const QSource& src, Eigen::Index pRows,
                         Eigen::Index qRows, const FitSettings& settings)
{
    QJsonObject s;
    s[QStringLiteral("command")] = QStringLiteral("ratio");
    s[QStringLiteral("estimator")] = QString::fromStdString(model.estimator());
    s[QStringLiteral("ratio_type")] = src.type;
    s[QStringLiteral("q_source")] = QString::fromLatin1(src.flag);
    s[QStringLiteral("q")] = QString::fromStdString(qDescription(src));
    s[QStringLiteral("n_p")] = static_cast<qint64>(pRows);
    if (qRows >= 0) {
        s[QStringLiteral("n_q")] = static_cast<qint64>(qRows);
    }
    s[QStringLiteral("scale")] = QString::fromStdString(settings.values.text("scale"));
    s[QStringLiteral("seed")] = QString::fromStdString(settings.values.text("seed"));
    addModelFields(s, model);
    return s;
}

} // namespace

int commandRatio(const QStringList& args, CommandContext& ctx)
{
    QCommandLineParser parser;
    addFlags(parser,
             {QStringLiteral("p"), QStringLiteral("q"), QStringLiteral("q-where"),
              QStringLiteral("q-inside"), QStringLiteral("p-all"), QStringLiteral("q-density"),
              QStringLiteral("type"), QStringLiteral("q-function"), QStringLiteral("q-model"),
              QStringLiteral("inverse"), QStringLiteral("columns"), QStringLiteral("label-column"),
              QStringLiteral("id-column"), QStringLiteral("weights-out"),
              QStringLiteral("ratio-model-out"), QStringLiteral("j-out"),
              QStringLiteral("regress")});
    addEstimatorOptions(parser, true);
    if (!ctx.parse(parser, args)) {
        return ExitOk;
    }
    const Options o(parser);
    const QString pPath = o.required(QStringLiteral("p"));
    const QSource src = qSourceOf(o);
    const RatioFiles files = planRatioFiles(o, pPath, src, ctx);
    std::vector<std::string> warnings;
    settingsFromOptions(o, 0, &warnings, true); // every flag checked before any data is read

    // --regress: a response column of --p (and of --q, when it has one) that is not a feature.
    const std::string response = o.text(QStringLiteral("regress")).toStdString();
    RatioSamples samples = loadSamples(o, pPath, src, response, ctx);
    const Dataset& p = samples.p;
    const Vector& yP = samples.pResponse;
    std::optional<QSample>& q = samples.q;
    warnings.clear();
    const FitSettings settings = settingsFromOptions(o, p.rows(), &warnings, true);
    ctx.warn(warnings);
    if (!files.j.isEmpty() && !tunes(settings)) {
        throw ParameterError("--j-out", "there is no tuning surface: " +
                                            (settings.values.has("t")
                                                 ? std::string("t and its partner were both given")
                                                 : settings.estimator + " tunes nothing itself"));
    }
    const PreparedTraining prepared = prepareTraining(p, scalingOf(settings.values));
    ctx.warn(prepared.warnings);

    FitData data;
    data.train = prepared.x;
    data.source = p.source;
    Matrix qx;
    Vector qValues;
    if (q) {
        qx = applyToOther(prepared.scaler, q->rows);
    }
    if (src.type == 1) {
        data.second = &qx;
    } else {
        qValues = src.density.isEmpty() ? typeTwoValues(src, p, prepared.scaler, prepared.x, ctx)
                                        : qDensityValues(src, qx, prepared, settings, ctx);
        data.secondValues = &qValues;
    }
    const FitOutcome f = fitModel(data, settings);
    const auto& model = dynamic_cast<const RatioModel&>(*f.model);
    const Vector weights = model.ratio(prepared.x);
    const WeightSummary ws = checkedWeights(model, weights, ctx);
    stageRatioOutputs(files, model, weights, settings, prepared, p, src, ctx);
    printWeights(ctx.out(), model, p.rows(), ws);
    QJsonObject s = ratioSummary(model, src, p.rows(), q ? q->rows.rows() : -1, settings);
    addWeights(s, ws);
    if (!response.empty()) {
        addRegression(s, ctx, response, p.x, yP, weights, q ? &q->rows.x : nullptr,
                      q && q->response ? &*q->response : nullptr);
    }
    s[QStringLiteral("seconds")] = f.seconds;
    ctx.finish(s);
    return ExitOk;
}

} // namespace sosrep::cli
