// SPDX-License-Identifier: MIT
// The Compare view's cluster comparison (paper App. F.1): two models on two groups of rows.
#pragma once

#include "core/estimators/cluster_comparison.h"

#include <QObject>
#include <QString>

#include <memory>

namespace sosrep::ui {

class Session;

/// The Compare view's clusters: the fitted model's and the comparison model's log densities on
/// two groups of rows (paper App. F.1), computed on a worker. With labels of both classes the
/// groups are normal rows and anomalies, as soon as the session's comparison model is in, until
/// the user picks rows of their own. Owns the comparison; another result drops it.
class ClusterController : public QObject
{
    Q_OBJECT

public:
    explicit ClusterController(Session* session, QObject* parent = nullptr);

    /// Compares cluster 1 (rows at 0) with cluster 2 (rows at 1), described for the view.
    void compare(const Eigen::VectorXi& clusters, const QString& description);
    /// Cluster 2 = the rows inside the rectangle of the two plotted columns (scaled units).
    void compareInRect(double x0, double x1, double y0, double y1);
    const ClusterComparison* comparison() const { return m_clusters.get(); }
    QString description() const { return m_description; }

signals:
    /// A comparison started on a worker (it fills the Compare view when ready).
    void started(const QString& description);
    void ready();
    void failed(const QString& why);

private:
    /// The label column's clusters (0 vs 1), when the data have both classes.
    void compareLabels();

    Session* m_session;
    std::unique_ptr<ClusterComparison> m_clusters;
    QString m_description;
};

} // namespace sosrep::ui
