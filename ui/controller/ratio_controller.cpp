// SPDX-License-Identifier: MIT
// The app's density-ratio fits on a worker thread.
#include "ui/controller/ratio_controller.h"

#include "core/data/csv_reader.h"
#include "core/data/npz_reader.h"
#include "core/data/preparation.h"
#include "core/data/split.h"
#include "core/errors.h"
#include "core/estimators/common_options.h"
#include "core/estimators/registry.h"
#include "core/io/settings_json.h"
#include "core/pipeline/fit_route.h"
#include "core/pipeline/q_density.h"
#include "core/ratio/expression.h"
#include "ui/controller/json_bridge.h"
#include "ui/controller/option_labels.h"
#include "ui/controller/session.h"
#include "ui/controller/worker.h"

#include <QFileInfo>
#include <QJsonArray>

#include <chrono>
#include <cmath>
#include <limits>

namespace sosrep::ui {
namespace {

DataError fieldError(const QString& field, const std::string& what)
{
    return DataError("project", 0, 0, "ratio." + field.toStdString() + ": " + what);
}

/// Type II's q at the p rows, in the units of p's scaled coordinates (where the fit runs).
Vector typeTwoValues(const RatioQMode& mode, const Matrix& pRaw, const PreparedTraining& prepared,
                     const Matrix& qx, const FitSettings& settings)
{
    // A density in raw units becomes one in scaled units by the scaler's Jacobian.
    const Vector jacobian = prepared.scaler.densityFactorRows(prepared.x);
    Vector q;
    switch (mode.kind) {
    case RatioQMode::Density:
        q = fittedQDensity(mode.densityEstimator, settings.values.text("seed"), qx, prepared.x);
        break;
    case RatioQMode::Expression:
        q = Expression::parse(mode.expression.toStdString(), int(pRaw.cols()), "q_function")
                .evaluate(pRaw)
                .cwiseProduct(jacobian);
        break;
    case RatioQMode::Inverse:
        q = jacobian;
        break;
    case RatioQMode::Sample:
        break;
    }
    return q; // checked by the estimator (finite, non-negative, one per p row)
}

} // namespace

RatioController::RatioController(Session* data, QObject* parent) : QObject(parent), m_data(data)
{
    // The samples belong to the loaded data: new data or roles rebuild them (a split of the
    // old data is dropped) and the result, which described the old samples, goes.
    connect(m_data, &Session::dataChanged, this, [this] {
        RatioSource keep = m_source;
        if (keep.kind == RatioSource::Column || keep.kind == RatioSource::Rect) {
            keep = RatioSource{};
        }
        try {
            rebuildSamples(keep);
            m_source = keep;
        } catch (const std::exception& e) {
            m_source = RatioSource{};
            rebuildSamples(m_source);
            emit errorOccurred(QString::fromStdString(e.what()));
        }
        clearResult();
        emit samplesChanged();
    });
}

RatioController::~RatioController()
{
    cancel();
    if (m_watcher) {
        m_watcher->waitForFinished();
    }
}

void RatioController::rebuildSamples(const RatioSource& source)
{
    const Dataset& features = m_data->data().featureData();
    m_columns = features.columns;
    Matrix p = features.x;
    Matrix q(0, p.cols());
    switch (source.kind) {
    case RatioSource::None:
        break;
    case RatioSource::File: {
        const std::string path = source.path.toStdString();
        const Dataset other = source.path.endsWith(QLatin1String(".npz"), Qt::CaseInsensitive)
                                  ? readNpzDataset(path)
                                  : readCsvFile(path);
        std::vector<std::string> unused;
        q = other.matchColumns(m_columns, &unused).x;
        if (q.rows() == 0) {
            throw DataError(path, 0, 0, "has no data rows: a sample of q is needed");
        }
        break;
    }
    case RatioSource::Column: {
        const Dataset& raw = m_data->data().rawData();
        const int c = raw.columnIndex(source.column.toStdString());
        std::vector<Eigen::Index> in, out;
        for (Eigen::Index i = 0; i < raw.rows(); ++i) {
            (raw.x(i, c) == source.value ? in : out).push_back(i);
        }
        if (in.empty() || out.size() < 2) {
            throw ParameterError("q", "splitting by " + source.column.toStdString() + " = " +
                                          formatReal(source.value) + " leaves " +
                                          std::to_string(in.size()) + " rows for q and " +
                                          std::to_string(out.size()) + " for p");
        }
        q = rowsOf(features.x, in);
        p = source.pAll ? features.x : rowsOf(features.x, out);
        break;
    }
    case RatioSource::Rect: {
        std::vector<Eigen::Index> in, out;
        const Matrix& x = features.x;
        if (source.xColumn >= x.cols() || source.yColumn >= x.cols()) {
            throw ParameterError("q", "the rectangle's columns are not features any more");
        }
        for (Eigen::Index i = 0; i < x.rows(); ++i) {
            const double a = x(i, source.xColumn), b = x(i, source.yColumn);
            const bool inside =
                a >= std::min(source.x0, source.x1) && a <= std::max(source.x0, source.x1) &&
                b >= std::min(source.y0, source.y1) && b <= std::max(source.y0, source.y1);
            (inside ? in : out).push_back(i);
        }
        if (in.empty() || out.size() < 2) {
            throw ParameterError("q", "the rectangle holds " + std::to_string(in.size()) +
                                          " rows and leaves " + std::to_string(out.size()) +
                                          " for p: drag a rectangle around some of the points");
        }
        q = rowsOf(x, in);
        p = source.pAll ? x : rowsOf(x, out);
        break;
    }
    }
    m_pRaw = std::move(p);
    m_qRaw = std::move(q);
}

bool RatioController::setSource(const RatioSource& source)
{
    if (isBusy()) {
        emit errorOccurred(tr("A ratio fit is running: cancel it first."));
        return false;
    }
    try {
        rebuildSamples(source);
    } catch (const std::exception& e) {
        rebuildSamples(m_source);
        emit errorOccurred(QString::fromStdString(e.what()));
        return false;
    }
    m_source = source;
    clearResult();
    emit samplesChanged();
    return true;
}

QString RatioController::sourceDescription() const
{
    const QString counts = tr("p: %1 rows, q: %2 rows").arg(m_pRaw.rows()).arg(m_qRaw.rows());
    if (m_qMode.kind == RatioQMode::Expression) {
        return tr("Type II: q(x) = %1 at the %2 rows of p.")
            .arg(m_qMode.expression)
            .arg(m_pRaw.rows());
    }
    if (m_qMode.kind == RatioQMode::Inverse) {
        return tr("Type II: q = 1, the inverse density 1/p at the %1 rows of p (meaningful on "
                  "a bounded support only).")
            .arg(m_pRaw.rows());
    }
    const QString density = m_qMode.kind == RatioQMode::Density
                                ? tr(" Type II: q is the density %1 fits to the q rows.")
                                      .arg(QString::fromStdString(m_qMode.densityEstimator))
                                : QString();
    if (m_source.kind == RatioSource::None && m_qMode.kind == RatioQMode::Density) {
        return tr("No q rows yet: load a second file, or split the data.");
    }
    switch (m_source.kind) {
    case RatioSource::None:
        return tr("No q sample yet: load a second file, or split the data by a column or a "
                  "rectangle.");
    case RatioSource::File:
        return tr("q = %1; p = the loaded data. %2")
                   .arg(QFileInfo(m_source.path).fileName(), counts) +
               density;
    case RatioSource::Column:
        return tr("q = rows with %1 = %2; p = %3. %4")
                   .arg(m_source.column, QString::number(m_source.value),
                        m_source.pAll ? tr("all rows") : tr("the other rows"), counts) +
               density;
    case RatioSource::Rect:
        return tr("q = rows inside the rectangle; p = %1. %2")
                   .arg(m_source.pAll ? tr("all rows") : tr("the rows outside it"), counts) +
               density;
    }
    return counts;
}

bool RatioController::setQMode(const RatioQMode& mode)
{
    if (isBusy()) {
        emit errorOccurred(tr("A ratio fit is running: cancel it first."));
        return false;
    }
    try {
        if (mode.kind == RatioQMode::Expression) {
            Expression::parse(mode.expression.toStdString(), int(m_pRaw.cols()), "q_function");
        }
        if (mode.kind == RatioQMode::Density) {
            checkQDensityEstimator(mode.densityEstimator); // a density, not a score
        }
    } catch (const ParameterError& e) {
        emit errorOccurred(tr("q: %1").arg(QString::fromStdString(e.what())));
        emit samplesChanged();
        return false;
    }
    m_qMode = mode;
    clearResult();
    emit samplesChanged();
    return true;
}

bool RatioController::setOption(const std::string& name, const std::string& value)
{
    try {
        m_settings.values.set(name, value);
    } catch (const ParameterError& e) {
        emit errorOccurred(QString::fromStdString(describe(e)));
        emit settingsChanged();
        return false;
    }
    clearResult();
    emit settingsChanged();
    return true;
}

void RatioController::setEstimator(const std::string& name)
{
    if (name == m_settings.estimator) {
        return;
    }
    m_settings.setEstimator(name);
    clearResult();
    emit settingsChanged();
}

void RatioController::setSettings(const FitSettings& settings)
{
    if (settings == m_settings) {
        return;
    }
    m_settings = settings;
    clearResult();
    emit settingsChanged();
}

void RatioController::setPlotColumns(int x, int y)
{
    m_plotX = x;
    m_plotY = y;
    if (m_result) {
        describeRatio(*m_result, m_pRaw, m_qRaw, x, y);
        emit resultChanged();
    }
}

void RatioController::clearResult()
{
    if (m_result) {
        m_result.reset();
        emit resultChanged();
    }
}

void RatioController::fit()
{
    if (isBusy()) {
        return;
    }
    if (!ready()) {
        emit errorOccurred(tr("Ratio: %1").arg(sourceDescription()));
        return;
    }
    m_cancel = false;
    m_jobError.clear();
    const Matrix p = m_pRaw;
    const Matrix q = m_qRaw;
    const RatioQMode qMode = m_qMode;
    const FitSettings settings = m_settings;
    const std::vector<std::string> columns = m_columns;
    const int x = m_plotX, y = m_plotY;
    m_watcher = new QFutureWatcher<std::shared_ptr<RatioResult>>(this);
    connect(m_watcher, &QFutureWatcher<std::shared_ptr<RatioResult>>::finished, this,
            &RatioController::onFinished);
    emit busyChanged(true);
    m_watcher->setFuture(runInWorker([=]() -> std::shared_ptr<RatioResult> {
        try {
            const auto start = std::chrono::steady_clock::now();
            Dataset pds;
            pds.x = p;
            pds.columns = columns;
            pds.source = "p";
            // The same scaling and route as `sosrep ratio`: p's scaler for both samples.
            const PreparedTraining prepared = prepareTraining(pds, scalingOf(settings.values));
            const Matrix qx = prepared.scaler.apply(q);
            FitData data;
            data.train = prepared.x;
            data.source = "p";
            Vector qValues;
            if (qMode.typeTwo()) {
                qValues = typeTwoValues(qMode, p, prepared, qx, settings);
                data.secondValues = &qValues;
            } else {
                data.second = &qx;
            }
            FitObserver observer;
            observer.progress = [this](const std::string&, int done, int total) {
                QMetaObject::invokeMethod(
                    this, [this, done, total] { emit progressChanged(done, total); },
                    Qt::QueuedConnection);
            };
            observer.cancelled = [this] { return m_cancel.load(); };
            const FitOutcome f = fitModel(data, settings, observer);
            if (f.cancelled) {
                return nullptr;
            }
            auto r = std::make_shared<RatioResult>();
            r->model = std::dynamic_pointer_cast<const RatioModel>(f.model);
            r->shown = r->model;
            r->scaler = prepared.scaler;
            describeRatio(*r, p, q, x, y);
            for (const std::string& w : f.warnings) {
                r->warnings << QString::fromStdString(w);
            }
            if (!f.model->report().note.empty()) {
                // The tuning's edge note: `sosrep ratio` prints it as a warning; the app says
                // it in its own words (an option of the view, not a flag).
                r->warnings << QString::fromStdString(f.model->report().note)
                                   .replace(QStringLiteral("give --"), QStringLiteral("set "))
                                   .replace(QStringLiteral(" or --"), QStringLiteral(" or "));
            }
            r->seconds =
                std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            return r;
        } catch (const std::exception& e) {
            m_jobError = QString::fromStdString(e.what());
            return nullptr;
        }
    }));
}

void RatioController::cancel()
{
    m_cancel = true;
}

void RatioController::onFinished()
{
    const std::shared_ptr<RatioResult> r = m_watcher->result();
    m_watcher->deleteLater();
    m_watcher = nullptr;
    emit busyChanged(false);
    if (!m_jobError.isEmpty()) {
        emit errorOccurred(tr("Ratio fit: %1").arg(m_jobError));
        return;
    }
    if (!r || m_cancel.load()) {
        // Cancelled: the previous result (if any) stays. Esc pressed while the finished fit
        // was still being described (its map and weights) counts too: a cancelled fit never
        // shows (tst_ratio_view's cancel test failed 1 run in 4 on this).
        return;
    }
    m_result = std::make_unique<RatioResult>(*r);
    emit resultChanged();
}

bool RatioController::setLambda(double lambda)
{
    if (!m_result) {
        return false;
    }
    auto moved = m_result->model->atLambda(lambda);
    if (!moved) {
        return false;
    }
    m_result->shown = std::shared_ptr<const RatioModel>(std::move(moved));
    describeRatio(*m_result, m_pRaw, m_qRaw, m_plotX, m_plotY);
    emit resultChanged();
    return true;
}

double RatioController::shownLambda() const
{
    return m_result ? m_result->shown->lambda() : 0.0;
}

QJsonObject RatioController::toJson() const
{
    QJsonObject o;
    o[QStringLiteral("model")] = toQt(io::settingsToJson(m_settings));
    QJsonObject src;
    const char* kinds[] = {"none", "file", "column", "rect"};
    src[QStringLiteral("kind")] = QString::fromLatin1(kinds[m_source.kind]);
    if (m_source.kind == RatioSource::File) {
        src[QStringLiteral("path")] = m_source.path;
    } else if (m_source.kind == RatioSource::Column) {
        src[QStringLiteral("column")] = m_source.column;
        src[QStringLiteral("value")] = m_source.value;
    } else if (m_source.kind == RatioSource::Rect) {
        src[QStringLiteral("x_column")] = m_source.xColumn;
        src[QStringLiteral("y_column")] = m_source.yColumn;
        src[QStringLiteral("rect")] =
            QJsonArray{m_source.x0, m_source.x1, m_source.y0, m_source.y1};
    }
    if (m_source.kind == RatioSource::Column || m_source.kind == RatioSource::Rect) {
        src[QStringLiteral("p_all")] = m_source.pAll;
    }
    o[QStringLiteral("q")] = src;
    const char* modes[] = {"sample", "density", "expression", "inverse"};
    o[QStringLiteral("q_mode")] = QString::fromLatin1(modes[m_qMode.kind]);
    o[QStringLiteral("q_density_estimator")] = QString::fromStdString(m_qMode.densityEstimator);
    o[QStringLiteral("q_expression")] = m_qMode.expression;
    o[QStringLiteral("fitted")] = m_result != nullptr;
    if (m_result) {
        o[QStringLiteral("lambda_shown")] = m_result->shown->lambda();
    }
    return o;
}

void RatioController::restore(const QJsonObject& json, bool refit)
{
    if (json.isEmpty()) {
        return;
    }
    m_settings = io::settingsFromJson(fromQt(json[QStringLiteral("model")].toObject()), "project",
                                      "ratio.model");
    if (EstimatorRegistry::instance().get(m_settings.estimator).capabilities().kind !=
        DensityKind::Ratio) {
        throw fieldError(QStringLiteral("model.estimator"), "is not a density-ratio estimator");
    }
    const QJsonObject src = json[QStringLiteral("q")].toObject();
    const QString kind = src[QStringLiteral("kind")].toString(QStringLiteral("none"));
    RatioSource s;
    if (kind == QLatin1String("file")) {
        s.kind = RatioSource::File;
        s.path = src[QStringLiteral("path")].toString();
    } else if (kind == QLatin1String("column")) {
        s.kind = RatioSource::Column;
        s.column = src[QStringLiteral("column")].toString();
        s.value = src[QStringLiteral("value")].toDouble();
        s.pAll = src[QStringLiteral("p_all")].toBool(false);
    } else if (kind == QLatin1String("rect")) {
        s.kind = RatioSource::Rect;
        s.xColumn = src[QStringLiteral("x_column")].toInt();
        s.yColumn = src[QStringLiteral("y_column")].toInt();
        const QJsonArray r = src[QStringLiteral("rect")].toArray();
        if (r.size() != 4) {
            throw fieldError(QStringLiteral("q.rect"), "must hold 4 numbers");
        }
        s.x0 = r[0].toDouble();
        s.x1 = r[1].toDouble();
        s.y0 = r[2].toDouble();
        s.y1 = r[3].toDouble();
        s.pAll = src[QStringLiteral("p_all")].toBool(false); // older projects: the others
    } else if (kind != QLatin1String("none")) {
        throw fieldError(QStringLiteral("q.kind"), "'" + kind.toStdString() +
                                                       "' is not none, "
                                                       "file, column or rect");
    }
    RatioQMode mode;
    const QString m = json[QStringLiteral("q_mode")].toString(QStringLiteral("sample"));
    const QStringList modes{QStringLiteral("sample"), QStringLiteral("density"),
                            QStringLiteral("expression"), QStringLiteral("inverse")};
    if (!modes.contains(m)) {
        throw fieldError(QStringLiteral("q_mode"), "'" + m.toStdString() +
                                                       "' is not sample, density, expression "
                                                       "or inverse");
    }
    mode.kind = RatioQMode::Kind(modes.indexOf(m));
    mode.densityEstimator =
        json[QStringLiteral("q_density_estimator")].toString(QStringLiteral("kde")).toStdString();
    mode.expression = json[QStringLiteral("q_expression")].toString();
    emit settingsChanged();
    if (!setSource(s)) {
        return;
    }
    if (!setQMode(mode)) {
        return;
    }
    if (refit && json[QStringLiteral("fitted")].toBool()) {
        const double lambda = json[QStringLiteral("lambda_shown")].toDouble(0.0);
        fit();
        if (m_watcher && lambda > 0.0) {
            connect(m_watcher, &QFutureWatcher<std::shared_ptr<RatioResult>>::finished, this,
                    [this, lambda] {
                        if (m_result && m_result->model->lambda() != lambda) {
                            setLambda(lambda);
                        }
                    });
        }
    }
}

void describeRatio(RatioResult& r, const Matrix& pRaw, const Matrix& qRaw, int xColumn, int yColumn,
                   int resolution)
{
    const RatioModel& m = *r.shown;
    const Eigen::Index d = pRaw.cols();
    xColumn = std::min<int>(xColumn, int(d) - 1);
    yColumn = d > 1 ? std::min<int>(yColumn, int(d) - 1) : xColumn;
    r.weights = m.ratio(r.scaler.apply(pRaw));
    r.summary = summarizeWeights(r.weights);
    r.weightWarnings.clear();
    for (const std::string& w : weightWarnings(r.summary, r.weights.size())) {
        r.weightWarnings << QString::fromStdString(w);
    }
    r.pMean = pRaw.colwise().mean().transpose();
    r.qMean = qRaw.rows() > 0 ? Vector(qRaw.colwise().mean().transpose())
                              : Vector::Constant(d, std::numeric_limits<double>::quiet_NaN());
    r.reweightedMean.resize(d);
    for (Eigen::Index j = 0; j < d; ++j) {
        r.reweightedMean(j) = weightedAverage(pRaw.col(j), r.weights);
    }
    auto range = [&](int c, double* lo, double* hi) {
        *lo = pRaw.col(c).minCoeff();
        *hi = pRaw.col(c).maxCoeff();
        if (qRaw.rows() > 0) { // Type II by an expression has no q rows
            *lo = std::min(*lo, qRaw.col(c).minCoeff());
            *hi = std::max(*hi, qRaw.col(c).maxCoeff());
        }
        const double pad = 0.08 * std::max(*hi - *lo, 1e-12);
        *lo -= pad;
        *hi += pad;
    };
    r.xColumn = xColumn;
    r.yColumn = yColumn;
    range(xColumn, &r.xMin, &r.xMax);
    range(yColumn, &r.yMin, &r.yMax);
    const int nx = resolution, ny = d > 1 ? resolution : 1;
    Matrix points(Eigen::Index(nx) * ny, d);
    for (int j = 0; j < ny; ++j) {
        for (int i = 0; i < nx; ++i) {
            const Eigen::Index k = Eigen::Index(j) * nx + i;
            points.row(k) = r.pMean.transpose();
            points(k, xColumn) = r.xMin + (r.xMax - r.xMin) * (i + 0.5) / nx;
            if (d > 1) {
                points(k, yColumn) = r.yMin + (r.yMax - r.yMin) * (j + 0.5) / ny;
            }
        }
    }
    const Vector values = m.ratio(r.scaler.apply(points));
    r.grid =
        Eigen::Map<const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>(
            values.data(), ny, nx);
}

} // namespace sosrep::ui
