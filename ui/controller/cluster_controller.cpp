// SPDX-License-Identifier: MIT
// The Compare view's cluster comparison (paper App. F.1): two fitted models' log densities on
// two groups of rows, computed on a worker.
#include "ui/controller/cluster_controller.h"

#include "ui/controller/session.h"
#include "ui/controller/worker.h"

#include <QFutureWatcher>

#include <algorithm>

namespace sosrep::ui {

ClusterController::ClusterController(Session* session, QObject* parent)
    : QObject(parent), m_session(session)
{
    connect(session, &Session::resultDropped, this, [this] { m_clusters.reset(); });
    connect(session, &Session::comparisonModelReady, this, &ClusterController::compareLabels);
}

void ClusterController::compareLabels()
{
    const auto& labels = m_session->data().labels();
    if (labels && labels->sum() > 0 && labels->sum() < labels->size()) {
        compare(*labels, tr("clusters from the label column (0 vs 1)"));
    }
}

void ClusterController::compare(const Eigen::VectorXi& clusters, const QString& description)
{
    const FitJobResult* result = m_session->result();
    if (!result) {
        return;
    }
    const int ones = clusters.sum();
    if (ones == 0 || ones == clusters.size()) {
        emit failed(tr("Cluster comparison needs rows in both clusters (%1 of %2 picked)")
                        .arg(ones)
                        .arg(clusters.size()));
        return;
    }
    if (!result->comparison) {
        return;
    }
    // Models are shared (immutable) with the worker; the features are copied.
    const std::shared_ptr<const FittedModel> first = result->fit.model;
    const std::shared_ptr<const FittedModel> second = result->comparison;
    const Matrix x = m_session->data().features();
    const int window = std::max(5, int(x.rows() / 50));
    auto* watcher = new QFutureWatcher<ClusterComparison>(this);
    connect(watcher, &QFutureWatcher<ClusterComparison>::finished, this,
            [this, watcher, description] {
                m_clusters = std::make_unique<ClusterComparison>(watcher->result());
                m_description = description;
                watcher->deleteLater();
                emit ready();
            });
    watcher->setFuture(runInWorker([first, second, x, clusters, window] {
        return sosrep::compareClusters(*first, *second, x, clusters, window);
    }));
    emit started(description);
}

void ClusterController::compareInRect(double x0, double x1, double y0, double y1)
{
    const Matrix& x = m_session->data().features();
    const int px = m_session->data().plotX();
    const int py = m_session->data().plotY();
    Eigen::VectorXi c(x.rows());
    for (Eigen::Index i = 0; i < c.size(); ++i) {
        const double u = x(i, px);
        const double v = x(i, py);
        c(i) = u >= std::min(x0, x1) && u <= std::max(x0, x1) && v >= std::min(y0, y1) &&
                       v <= std::max(y0, y1)
                   ? 1
                   : 0;
    }
    compare(c, tr("cluster 2 = %1 rows picked in the density view").arg(c.sum()));
}

} // namespace sosrep::ui
