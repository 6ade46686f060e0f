// SPDX-License-Identifier: MIT
// The app's estimation controller: fits, sweeps and scores on worker threads.
#include "ui/controller/estimation_controller.h"

#include "ui/controller/ratio_controller.h"
#include "ui/controller/view_scaling.h"

#include "core/data/csv_reader.h"
#include "core/data/npz_reader.h"
#include "core/data/preparation.h"
#include "core/errors.h"
#include "core/estimators/common_options.h"
#include "core/estimators/registry.h"
#include "core/kernels/kernel_operator.h"
#include "ui/controller/option_labels.h"
#include "ui/controller/worker.h"

#include <QFileInfo>

#include <algorithm>
#include <utility>
#include <vector>

namespace sosrep::ui {
namespace {

bool looksLikeLabel(const std::string& name, const Eigen::VectorXd& col)
{
    // The names ADBench, PyOD, ODDS and scikit-learn users give a 0/1 ground truth.
    static const char* names[] = {
        "label",      "y",         "class",  "outlier",      "is_outlier",   "anomaly",
        "is_anomaly", "anomalous", "target", "ground_truth", "outlier_label"};
    bool named = false;
    for (const char* n : names) {
        named = named ||
                QString::fromStdString(name).compare(QLatin1String(n), Qt::CaseInsensitive) == 0;
    }
    return named && ((col.array() == 0.0) || (col.array() == 1.0)).all();
}

/// A numeric column named as pandas, R and spreadsheets name a row's id: its values name the
/// rows rather than measure them.
bool looksLikeRowName(const std::string& name)
{
    for (const char* n : {"id", "index", "row", "row_id", "rowid", "row_name", "unnamed: 0"}) {
        if (QString::fromStdString(name).compare(QLatin1String(n), Qt::CaseInsensitive) == 0) {
            return true;
        }
    }
    return false;
}

/// The first two feature columns that vary: a constant column (mnist has 22) makes a map with
/// one flat axis. Falls back to the first columns when fewer than two vary.
std::pair<int, int> defaultPlotColumns(const Eigen::MatrixXd& x)
{
    std::vector<int> varying;
    for (Eigen::Index j = 0; j < x.cols() && varying.size() < 2; ++j) {
        if (x.rows() > 0 && x.col(j).maxCoeff() > x.col(j).minCoeff()) {
            varying.push_back(int(j));
        }
    }
    const int first = varying.empty() ? 0 : varying[0];
    int second = varying.size() > 1 ? varying[1] : (first == 0 ? 1 : 0);
    if (second >= x.cols()) {
        second = first;
    }
    return {first, second};
}

} // namespace

EstimationController::EstimationController(QObject* parent)
    : QObject(parent), m_ratio(new RatioController(this, this))
{
    m_settings.values.set("max_fit_rows", std::to_string(kAppMaxFitRows));
}

EstimationController::~EstimationController()
{
    if (m_watcher) {
        m_cancel = true;
        m_watcher->waitForFinished();
    }
    if (m_gridWatcher) {
        m_gridCancel = true;
        m_gridWatcher->waitForFinished();
    }
    if (m_solverWatcher) {
        m_cancel = true;
        m_solverWatcher->waitForFinished();
    }
    for (QFutureWatcherBase* stage : {static_cast<QFutureWatcherBase*>(m_scoresWatcher),
                                      static_cast<QFutureWatcherBase*>(m_comparisonWatcher)}) {
        if (stage) {
            m_scoresCancel = m_comparisonCancel = true;
            stage->waitForFinished();
        }
    }
}

bool EstimationController::loadFile(const QString& path)
{
    try {
        CsvReadOptions options;
        options.dropTextColumns = true;
        CsvReadReport report;
        Dataset ds;
        if (path.endsWith(QLatin1String(".npz"), Qt::CaseInsensitive)) {
            ds = readNpzDataset(path.toStdString());
        } else {
            try {
                ds = readCsvFile(path.toStdString(), options, &report);
            } catch (const DataError& e) {
                const QString message = QString::fromStdString(e.what());
                if (!message.contains(QLatin1String("missing value")) || !askDropIncompleteRows ||
                    !askDropIncompleteRows(message)) {
                    throw;
                }
                options.dropIncompleteRows = true;
                report = CsvReadReport();
                ds = readCsvFile(path.toStdString(), options, &report);
            }
        }
        QStringList notes;
        if (!report.rowNameColumn.empty()) {
            notes << tr("column '%1' holds text: kept as the row names")
                         .arg(QString::fromStdString(report.rowNameColumn));
        }
        for (const std::string& c : report.textColumns) {
            notes << tr("column '%1' holds text: left out").arg(QString::fromStdString(c));
        }
        if (report.droppedRows > 0) {
            notes << tr("%1 rows with a missing value left out").arg(report.droppedRows);
        }
        m_toy.reset(); // before dataChanged: its listeners read what made the data
        setDataset(std::move(ds), QFileInfo(path).absoluteFilePath());
        m_loadNotes = notes;
        return true;
    } catch (const std::exception& e) {
        emit errorOccurred(QString::fromStdString(e.what()));
        return false;
    }
}

void EstimationController::generateToy(ToyKind kind, int n, uint64_t seed)
{
    ToyConfig c;
    c.kind = kind;
    c.n = n;
    c.seed = seed;
    c.anomalyFraction = 0.05;
    Dataset ds = generateToyData(c);
    // Keep the label as a column so the roles table shows it (role: label).
    Dataset withLabel = ds;
    withLabel.x.conservativeResize(Eigen::NoChange, ds.dim() + 1);
    withLabel.x.col(ds.dim()) = ds.labels->cast<double>();
    withLabel.columns.push_back("label");
    withLabel.labels.reset();
    m_toy = c; // before dataChanged: the generator's widgets show it (a project's toy too)
    setDataset(std::move(withLabel), QStringLiteral("toy:%1 (n=%2, seed=%3)")
                                         .arg(QString::fromStdString(toString(kind)))
                                         .arg(n)
                                         .arg(seed));
}

void EstimationController::setDataset(Dataset raw, const QString& source)
{
    if (isBusy()) {
        cancel();
        for (QFutureWatcherBase* w : {static_cast<QFutureWatcherBase*>(m_watcher),
                                      static_cast<QFutureWatcherBase*>(m_solverWatcher)}) {
            if (w) {
                w->waitForFinished();
            }
        }
    }
    QVector<ColumnRole> roles;
    bool named = !raw.rowNames.empty(); // a text id column, read as the row names
    for (Eigen::Index j = 0; j < raw.dim(); ++j) {
        const std::string& name = raw.columns[size_t(j)];
        const bool rowName = !named && raw.dim() > 1 && looksLikeRowName(name);
        named = named || rowName;
        roles << (looksLikeLabel(name, raw.x.col(j)) ? ColumnRole::Label
                  : rowName                          ? ColumnRole::RowName
                                                     : ColumnRole::Feature);
    }
    // Data that cannot be prepared (e.g. a column whose range overflows) leaves the loaded data
    // as it was.
    std::swap(m_raw, raw);
    std::swap(m_roles, roles);
    try {
        rebuildFeatures();
    } catch (...) {
        std::swap(m_raw, raw);
        std::swap(m_roles, roles);
        if (hasData()) {
            rebuildFeatures();
        }
        throw;
    }
    m_source = source;
    clearResults();
    // An l fixed for the old data (typed, or a click on its FD curve) says nothing about these
    // rows: the next fit tunes again instead of reusing it silently.
    m_lengthScaleReset =
        m_settings.values.has("length_scale") && !m_settings.values.isChoice("length_scale");
    if (m_lengthScaleReset) {
        m_settings.values.set("length_scale", "auto");
        emit settingsChanged();
    }
    const auto [px, py] = defaultPlotColumns(m_features);
    m_plotX = px;
    m_plotY = py;
    emit dataChanged();
    emit plotColumnsChanged();
}

bool EstimationController::setColumnRoles(const QVector<ColumnRole>& roles)
{
    if (roles.size() != m_roles.size()) {
        return false;
    }
    const QVector<ColumnRole> previous = m_roles;
    m_roles = roles;
    try {
        rebuildFeatures();
    } catch (const std::exception& e) {
        m_roles = previous;
        rebuildFeatures();
        emit errorOccurred(QString::fromStdString(e.what()));
        return false;
    }
    m_plotX = std::min<int>(m_plotX, int(m_features.cols()) - 1);
    m_plotY = std::min<int>(m_plotY, int(m_features.cols()) - 1);
    if (m_plotX == m_plotY && m_features.cols() >= 2) {
        // Clamped onto one column (a role change, or its undo): a map of a against a says
        // nothing, so y moves to the next column.
        m_plotY = (m_plotX + 1) % int(m_features.cols());
    }
    clearResults();
    emit dataChanged();
    emit plotColumnsChanged();
    return true;
}

void EstimationController::rebuildFeatures()
{
    Dataset ds = m_raw;
    std::vector<std::string> keep;
    int labelCols = 0;
    int nameCols = 0;
    for (int j = 0; j < m_roles.size(); ++j) {
        if (m_roles[j] == ColumnRole::Label) {
            if (++labelCols > 1) {
                throw ParameterError("column roles", "at most one label column");
            }
            ds = ds.withLabelColumn(m_raw.columns[size_t(j)]);
        } else if (m_roles[j] == ColumnRole::RowName) {
            if (++nameCols > 1) {
                throw ParameterError("column roles", "at most one row-name column");
            }
            // A numeric id names the rows in its shortest exact form ("17", "2.5"); it stands
            // in for a text id column the file may also have.
            ds.rowNameColumn = m_raw.columns[size_t(j)];
            ds.rowNames.clear();
            for (Eigen::Index i = 0; i < m_raw.rows(); ++i) {
                ds.rowNames.push_back(formatReal(m_raw.x(i, j)));
            }
        }
    }
    for (int j = 0; j < m_roles.size(); ++j) {
        if (m_roles[j] == ColumnRole::Feature) {
            keep.push_back(m_raw.columns[size_t(j)]);
        }
    }
    if (keep.empty()) {
        throw ParameterError("column roles", "at least one feature column is needed");
    }
    ds = ds.selectColumns(keep);
    m_featureNames.clear();
    for (const auto& c : keep) {
        m_featureNames << QString::fromStdString(c);
    }
    m_featureData = ds;
    // The density view's scaling (purpose=auto is the density there, as for `sosrep fit`),
    // and the Scores view's where the anomaly purpose's comes to another kind on these rows.
    const ScalingKind density = viewScaling(m_settings, "density");
    PreparedTraining prepared = prepareTraining(ds, density);
    m_scoresFeatures = Matrix();
    m_scoresScaler = Scaler();
    const ScalingKind anomaly = viewScaling(m_settings, "anomaly");
    if (purposeIsAuto(m_settings) && anomaly != density) {
        const ScalingKind kind = resolvedScaling(anomaly, ds.x); // the columns' shape, once
        if (kind != prepared.scaler.kind) {
            PreparedTraining own = prepareTraining(ds, kind);
            m_scoresFeatures = std::move(own.x);
            m_scoresScaler = std::move(own.scaler);
        }
    }
    m_features = std::move(prepared.x);
    m_scaler = std::move(prepared.scaler);
    m_dataWarnings = std::move(prepared.warnings);
    m_labels = ds.labels;
}

QStringList EstimationController::featureNames() const
{
    return m_featureNames;
}

void EstimationController::setPlotColumns(int x, int y)
{
    if (x == m_plotX && y == m_plotY) {
        return;
    }
    if (x == y && m_features.cols() >= 2) {
        // One axis set to the other's column: the two swap (a map of a against a says nothing).
        if (x != m_plotX) {
            y = m_plotX;
        } else {
            x = m_plotY;
        }
    }
    m_plotX = x;
    m_plotY = y;
    emit plotColumnsChanged();
    regrid();
}

void EstimationController::regrid()
{
    // Only on the features the model was fitted in: after a change of scaling the result is
    // stale (the banner says so) and its grids stay as they were.
    if (!m_result || isBusy() || m_features.cols() < 2 ||
        viewScaling(m_result->settings, "density") != viewScaling(m_settings, "density")) {
        return;
    }
    if (m_gridWatcher) {
        m_gridCancel = true; // the finished handler starts again with the current columns
        return;
    }
    m_gridCancel = false;
    const std::shared_ptr<const FittedModel> model = m_result->fit.model;
    const std::shared_ptr<const FittedModel> comparison = m_result->comparison;
    const GridSpec spec = gridAroundData(m_features, m_plotX, m_plotY, m_result->grid.spec.nx);
    const quint64 forResult = m_resultGeneration;
    m_gridWatcher = new QFutureWatcher<Grids>(this);
    connect(m_gridWatcher, &QFutureWatcher<Grids>::finished, this, [this, forResult, spec] {
        Grids g = m_gridWatcher->result();
        m_gridWatcher->deleteLater();
        m_gridWatcher = nullptr;
        emit progressChanged(QString(), 0, 0);
        // Applied only to the result it was computed for and only if the columns are still
        // these ones; otherwise evaluated again for the current columns.
        if (m_resultGeneration != forResult) {
            return;
        }
        if (!m_gridCancel && !g.model.cancelled && spec.xColumn == m_plotX &&
            spec.yColumn == m_plotY) {
            m_result->grid = std::move(g.model);
            m_result->comparisonGrid = std::move(g.comparison);
            emit gridsUpdated(); // the hue's classes are fitted again for these columns
            return;
        }
        regrid();
    });
    const auto progress = [this](int done, int total) {
        QMetaObject::invokeMethod(
            this, [this, done, total] { emit progressChanged(tr("density grid"), done, total); },
            Qt::QueuedConnection);
        return !m_gridCancel.load();
    };
    m_gridWatcher->setFuture(runInWorker([model, comparison, spec, progress] {
        Grids g;
        g.model = evaluateGrid(*model, spec, progress);
        if (comparison && !g.model.cancelled) {
            g.comparison = evaluateGrid(*comparison, spec, progress);
        }
        return g;
    }));
}

void EstimationController::setSettings(const FitSettings& s)
{
    if (s == m_settings) {
        return;
    }
    // The scalings follow the scale option and the purpose (scale=auto is the purpose's), and
    // an estimator without a purpose scales as the density does.
    const bool rescale = scalingSignature(s) != scalingSignature(m_settings);
    const FitSettings previous = m_settings;
    m_settings = s;
    if (rescale && hasData()) {
        const ScalingKind shown = m_scaler.kind;
        try {
            rebuildFeatures();
        } catch (const std::exception& e) {
            m_settings = previous;
            rebuildFeatures();
            emit errorOccurred(QString::fromStdString(e.what()));
            emit settingsChanged();
            return;
        }
        if (m_scaler.kind != shown) {
            // The views' rows moved; a change of the Scores view's own rows alone (a purpose
            // or an estimator without one) keeps the Show box, the experiment and the maps.
            emit dataChanged();
        }
    }
    emit settingsChanged();
}

bool EstimationController::setOption(const std::string& name, const std::string& value)
{
    FitSettings s = m_settings;
    try {
        s.values.set(name, value);
    } catch (const ParameterError& e) {
        emit errorOccurred(QString::fromStdString(describe(e)));
        emit settingsChanged(); // the panel shows the value kept
        return false;
    }
    setSettings(s);
    return true;
}

void EstimationController::setEstimator(const std::string& name)
{
    FitSettings s = m_settings;
    s.setEstimator(name);
    setSettings(s);
}

void EstimationController::setMaxFitRows(int rows)
{
    setOption("max_fit_rows", std::to_string(rows));
}

std::string EstimationController::compareEstimator() const
{
    if (!m_compareWith.empty() && EstimatorRegistry::instance().find(m_compareWith)) {
        return m_compareWith;
    }
    return m_settings.estimator == "sosrep" ? "kde" : "sosrep";
}

void EstimationController::setCompareEstimator(const std::string& name)
{
    m_compareWith = name;
    emit settingsChanged();
}

void EstimationController::setSolverComparison(const SolverComparisonSettings& s)
{
    m_solverComparison = s;
    emit settingsChanged();
}

QString EstimationController::labelColumn() const
{
    for (int j = 0; j < m_roles.size(); ++j) {
        if (m_roles[j] == ColumnRole::Label) {
            return QString::fromStdString(m_raw.columns[size_t(j)]);
        }
    }
    return {};
}

bool EstimationController::sweepFits(const FitSettings& s) const
{
    // (The fit-row cap is one of the settings compared below: other rows, another sweep.)
    if (!m_sweep || s.estimator != m_sweepSettings.estimator) {
        return false;
    }
    for (const auto& [name, value] : s.values.all()) {
        if (name != "length_scale" &&
            (!m_sweepSettings.values.has(name) || m_sweepSettings.values.text(name) != value)) {
            return false;
        }
    }
    return true;
}

void EstimationController::clearResults()
{
    ++m_resultGeneration;
    m_sweep.reset();
    m_result.reset();
    m_traces.clear();
    m_fdPoints.clear();
    emit resultDropped();
}

void EstimationController::appendTrace(const std::string& run, const std::vector<TraceRow>& rows)
{
    for (NamedTrace& t : m_traces) {
        if (t.run == run) {
            t.rows.insert(t.rows.end(), rows.begin(), rows.end());
            return;
        }
    }
    m_traces.push_back({run, SolverStatus::Running, rows});
}

void EstimationController::fit()
{
    if (isBusy() || !hasData()) {
        return;
    }
    m_cancel = false;
    m_traces.clear();
    // A fit at a fixed ℓ keeps the sweep it was picked from (the FD view compares them).
    if (m_settings.autoLengthScale() || !sweepFits(m_settings)) {
        m_fdPoints.clear();
    }
    emit traceUpdated();
    emit fdCurveUpdated();

    FitJobInput in;
    in.x = m_features;
    in.scaler = m_scaler;
    in.scoresX = m_scoresFeatures;
    in.scoresScaler = m_scoresScaler;
    in.settings = m_settings;
    in.compareWith = compareEstimator();
    in.solverComparison = m_solverComparison;
    in.plotX = m_plotX;
    in.plotY = m_plotY;
    in.eagerStagesMaxRows = m_eagerStagesMaxRows;
    m_scoresCancel = m_comparisonCancel = true; // the previous fit's late stages are of no use
    m_lastInput = in;
    const FitJobSink sink = workerSink();
    m_watcher = new QFutureWatcher<FitJobResult>(this);
    connect(m_watcher, &QFutureWatcher<FitJobResult>::finished, this,
            &EstimationController::onJobFinished);
    m_watcher->setFuture(runInWorker([in, sink, this] { return runFitJob(in, sink, m_cancel); }));
    emit busyChanged(true);
}

FitJobSink EstimationController::workerSink()
{
    // Sinks run on the worker; hop to this object's thread with queued calls.
    FitJobSink sink;
    sink.progress = [this](const std::string& stage, int done, int total) {
        QMetaObject::invokeMethod(
            this,
            [this, stage, done, total] {
                emit progressChanged(QString::fromStdString(stage), done, total);
            },
            Qt::QueuedConnection);
    };
    sink.fdPoint = [this](const FdPoint& p) {
        QMetaObject::invokeMethod(
            this,
            [this, p] {
                m_fdPoints.push_back(p);
                emit fdCurveUpdated();
            },
            Qt::QueuedConnection);
    };
    sink.traceRows = [this](const std::string& run, const std::vector<TraceRow>& rows) {
        QMetaObject::invokeMethod(
            this,
            [this, run, rows] {
                appendTrace(run, rows);
                emit traceUpdated();
            },
            Qt::QueuedConnection);
    };
    return sink;
}

void EstimationController::fitAtLengthScale(double lengthScale)
{
    FitSettings s = m_settings;
    s.fixLengthScale(lengthScale); // the clicked l is the one fitted: no multiplier on it
    setSettings(s);
    fit();
}

void EstimationController::cancel()
{
    m_cancel = true;
    emit cancelRequested(); // Esc stops the per-class fits too
    if (m_scoresWatcher) {
        m_scoresCancel = true; // and the rows' scores after a large fit (the compare stage
                               // that follows them is not started then)
    }
}

void EstimationController::onJobFinished()
{
    FitJobResult r = m_watcher->result();
    m_watcher->deleteLater();
    m_watcher = nullptr;
    emit busyChanged(false);
    if (r.cancelled) {
        emit fitCancelled();
        return;
    }
    if (!r.error.empty()) {
        emit errorOccurred(QString::fromStdString(r.error));
        return;
    }
    if (r.fit.search) {
        m_fdPoints = r.fit.search->curve; // the authoritative curve (the streamed one may lag)
        m_sweep = *r.fit.search;
        m_sweepSettings = r.settings;
    } else if (!sweepFits(r.settings)) {
        m_sweep.reset();
        m_fdPoints.clear();
    }
    // The authoritative traces, with their final statuses (the streamed rows may lag).
    m_traces = r.fit.model->report().traces;
    m_traces.insert(m_traces.end(), r.solverRuns.begin(), r.solverRuns.end());
    m_result = std::make_unique<FitJobResult>(std::move(r));
    ++m_resultGeneration;
    emit resultDropped();
    emit fdCurveUpdated();
    emit traceUpdated();
    emit fitFinished();
    emit resultReady(); // the classes of a hue chosen before, for this result
    // Plot columns changed while the fit ran: its grids show the old ones.
    if (m_result->grid.logDensity.size() > 0 &&
        (m_result->grid.spec.xColumn != m_plotX || m_result->grid.spec.yColumn != m_plotY)) {
        regrid();
    }
    // With labels of both classes, compare normal rows (cluster 1) with anomalies (cluster 2)
    // until the user picks clusters of their own.
    if (m_result->scoresDeferred) {
        startScoresStage(); // the comparison and the label clusters follow it
    } else {
        startStagesAfterScores(); // the threshold (ThresholdController) once scored
    }
}

} // namespace sosrep::ui
