// SPDX-License-Identifier: MIT
// The cluster comparison (paper App. F.1): two fitted models' log densities on two groups of
// rows, computed on a worker (split from estimation_controller.cpp).
#include "core/data/csv_reader.h"
#include "core/data/npz_reader.h"
#include "core/data/preparation.h"
#include "core/errors.h"
#include "core/estimators/registry.h"
#include "core/kernels/kernel_operator.h"
#include "ui/controller/estimation_controller.h"
#include "ui/controller/option_labels.h"
#include "ui/controller/ratio_controller.h"
#include "ui/controller/worker.h"
#include <QFileInfo>
#include <algorithm>
#include <utility>
#include <vector>

namespace sosrep::ui {

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
    if (!m_result->comparison) {
        return;
    }
    // Models are shared (immutable) with the worker; the features are copied.
    const std::shared_ptr<const FittedModel> first = m_result->fit.model;
    const std::shared_ptr<const FittedModel> second = m_result->comparison;
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
    watcher->setFuture(runInWorker([first, second, x, clusters, window] {
        return sosrep::compareClusters(*first, *second, x, clusters, window);
    }));
    emit clusterComparisonStarted(description);
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
