// SPDX-License-Identifier: MIT
#include "ui/controller/estimation_controller.h"

#include "core/data/csv_reader.h"
#include "core/data/npz_reader.h"
#include "core/errors.h"

#include <QFileInfo>
#include <QtConcurrent/QtConcurrentRun>

namespace sosrep::ui {
namespace {

bool looksLikeLabel(const std::string& name, const Eigen::VectorXd& col)
{
    static const char* names[] = {"label", "y", "class", "outlier", "anomaly", "target"};
    bool named = false;
    for (const char* n : names) {
        named = named ||
                QString::fromStdString(name).compare(QLatin1String(n), Qt::CaseInsensitive) == 0;
    }
    return named && ((col.array() == 0.0) || (col.array() == 1.0)).all();
}

} // namespace

EstimationController::EstimationController(QObject* parent) : QObject(parent) {}

EstimationController::~EstimationController()
{
    if (m_watcher) {
        m_cancel = true;
        m_watcher->waitForFinished();
    }
}

bool EstimationController::loadFile(const QString& path)
{
    try {
        Dataset ds = path.endsWith(QLatin1String(".npz"), Qt::CaseInsensitive)
                         ? readNpzDataset(path.toStdString())
                         : readCsvFile(path.toStdString());
        setDataset(std::move(ds), QFileInfo(path).absoluteFilePath());
        m_toy.reset();
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
    setDataset(std::move(withLabel), QStringLiteral("toy:%1 (n=%2, seed=%3)")
                                         .arg(QString::fromStdString(toString(kind)))
                                         .arg(n)
                                         .arg(seed));
    m_toy = c;
}

void EstimationController::setDataset(Dataset raw, const QString& source)
{
    if (isBusy()) {
        cancel();
        m_watcher->waitForFinished();
    }
    m_raw = std::move(raw);
    m_source = source;
    m_roles.clear();
    for (Eigen::Index j = 0; j < m_raw.dim(); ++j) {
        m_roles << (looksLikeLabel(m_raw.columns[size_t(j)], m_raw.x.col(j)) ? ColumnRole::Label
                                                                             : ColumnRole::Feature);
    }
    m_result.reset();
    m_natural.clear();
    m_standard.clear();
    m_fdPoints.clear();
    rebuildFeatures();
    m_plotX = 0;
    m_plotY = m_features.cols() > 1 ? 1 : 0;
    emit dataChanged();
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
    m_result.reset();
    emit dataChanged();
    return true;
}

void EstimationController::rebuildFeatures()
{
    Dataset ds = m_raw;
    std::vector<std::string> keep;
    int labelCols = 0;
    for (int j = 0; j < m_roles.size(); ++j) {
        if (m_roles[j] == ColumnRole::Label) {
            if (++labelCols > 1) {
                throw ParameterError("column roles", "at most one label column");
            }
            ds = ds.withLabelColumn(m_raw.columns[size_t(j)]);
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
    m_features = Scaler::fit(m_settings.scaling, ds.x).apply(ds.x);
    m_labels = ds.labels;
}

QStringList EstimationController::featureNames() const
{
    return m_featureNames;
}

void EstimationController::setPlotColumns(int x, int y)
{
    m_plotX = x;
    m_plotY = y;
    emit dataChanged();
}

void EstimationController::setSettings(const ModelSettings& s)
{
    if (s == m_settings) {
        return;
    }
    const bool rescale = s.scaling != m_settings.scaling;
    m_settings = s;
    if (rescale && hasData()) {
        rebuildFeatures();
        emit dataChanged();
    }
    emit settingsChanged();
}

void EstimationController::fit()
{
    if (isBusy() || !hasData()) {
        return;
    }
    m_cancel = false;
    m_natural.clear();
    m_standard.clear();
    m_fdPoints.clear();
    emit traceUpdated();
    emit fdCurveUpdated();

    FitJobInput in;
    in.x = m_features;
    in.settings = m_settings;
    in.plotX = m_plotX;
    in.plotY = m_plotY;
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
    sink.traceRows = [this](const std::vector<TraceRow>& a, const std::vector<TraceRow>& b) {
        QMetaObject::invokeMethod(
            this,
            [this, a, b] {
                m_natural.insert(m_natural.end(), a.begin(), a.end());
                m_standard.insert(m_standard.end(), b.begin(), b.end());
                emit traceUpdated();
            },
            Qt::QueuedConnection);
    };
    m_watcher = new QFutureWatcher<FitJobResult>(this);
    connect(m_watcher, &QFutureWatcher<FitJobResult>::finished, this,
            &EstimationController::onJobFinished);
    m_watcher->setFuture(
        QtConcurrent::run([in, sink, this] { return runFitJob(in, sink, m_cancel); }));
    emit busyChanged(true);
}

void EstimationController::fitAtLengthScale(double lengthScale)
{
    ModelSettings s = m_settings;
    s.autoLengthScale = false;
    s.lengthScale = lengthScale;
    setSettings(s);
    fit();
}

void EstimationController::cancel()
{
    m_cancel = true;
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
    if (r.search) {
        m_fdPoints = r.search->curve; // the authoritative curve (the streamed one may lag)
    }
    m_result = std::make_unique<FitJobResult>(std::move(r));
    m_clusters.reset();
    emit fdCurveUpdated();
    emit fitFinished();
    // With labels of both classes, compare normal rows (cluster 1) with anomalies (cluster 2)
    // until the user picks clusters of their own.
    if (m_labels && m_labels->sum() > 0 && m_labels->sum() < m_labels->size()) {
        compareClusters(*m_labels, tr("clusters from the label column (0 vs 1)"));
    }
}

void EstimationController::compareClusters(const Eigen::VectorXi& clusters,
                                           const QString& description)
{
    if (!m_result) {
        return;
    }
    const int ones = clusters.sum();
    if (ones == 0 || ones == clusters.size()) {
        emit errorOccurred(tr("Cluster comparison needs rows in both clusters (%1 of %2 picked)")
                               .arg(ones)
                               .arg(clusters.size()));
        return;
    }
    // Models are shared (immutable) with the worker; the features are copied.
    const DensityModel sosrep = m_result->sosrepNatural;
    const DensityModel kde = m_result->kde;
    const Matrix x = m_features;
    const int window = std::max(5, int(x.rows() / 50));
    auto* watcher = new QFutureWatcher<ClusterComparison>(this);
    connect(watcher, &QFutureWatcher<ClusterComparison>::finished, this,
            [this, watcher, description] {
                m_clusters = std::make_unique<ClusterComparison>(watcher->result());
                m_clusterDescription = description;
                watcher->deleteLater();
                emit clusterComparisonReady();
            });
    watcher->setFuture(QtConcurrent::run([sosrep, kde, x, clusters, window] {
        return sosrep::compareClusters(sosrep, kde, x, clusters, window);
    }));
}

void EstimationController::compareClustersInRect(double x0, double x1, double y0, double y1)
{
    Eigen::VectorXi c(m_features.rows());
    for (Eigen::Index i = 0; i < c.size(); ++i) {
        const double px = m_features(i, m_plotX);
        const double py = m_features(i, m_plotY);
        c(i) = px >= std::min(x0, x1) && px <= std::max(x0, x1) && py >= std::min(y0, y1) &&
                       py <= std::max(y0, y1)
                   ? 1
                   : 0;
    }
    compareClusters(c, tr("cluster 2 = %1 rows picked in the density view").arg(c.sum()));
}

} // namespace sosrep::ui
