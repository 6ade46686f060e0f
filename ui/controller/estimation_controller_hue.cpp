// SPDX-License-Identifier: MIT
// Per-class densities by a column (seaborn's hue), fitted on a worker for the current result.
#include "ui/controller/estimation_controller.h"
#include "ui/controller/worker.h"

#include <set>

namespace sosrep::ui {

QStringList EstimationController::hueCandidates() const
{
    QStringList out;
    for (Eigen::Index j = 0; j < m_raw.x.cols(); ++j) {
        std::set<double> values;
        for (Eigen::Index i = 0; i < m_raw.x.rows() && int(values.size()) <= kMaxHueClasses; ++i) {
            values.insert(m_raw.x(i, j));
        }
        if (values.size() >= 2 && int(values.size()) <= kMaxHueClasses) {
            out << QString::fromStdString(m_raw.columns[size_t(j)]);
        }
    }
    return out;
}

void EstimationController::setHue(const QString& column)
{
    if (column == m_hueColumn) {
        return;
    }
    *m_hueCancel = true;
    m_hueCancel = std::make_shared<std::atomic<bool>>(false);
    m_hue.reset();
    m_hueColumn = column;
    emit hueColumnChanged();
    if (column.isEmpty()) {
        emit hueReady(); // the views drop the classes
        return;
    }
    startHue();
}

void EstimationController::startHue()
{
    if (m_hueColumn.isEmpty() || !m_result || m_hue) {
        return;
    }
    int c = -1;
    for (size_t j = 0; j < m_raw.columns.size(); ++j) {
        c = QString::fromStdString(m_raw.columns[j]) == m_hueColumn ? int(j) : c;
    }
    if (c < 0) {
        emit hueFailed(tr("Hue: '%1' is not a column of these data").arg(m_hueColumn));
        return;
    }
    if (*m_hueCancel) {
        m_hueCancel = std::make_shared<std::atomic<bool>>(false); // after an Esc
    }
    const std::shared_ptr<std::atomic<bool>> cancel = m_hueCancel;
    const Vector hue = m_raw.x.col(c);
    const Matrix x = m_features;
    const FitSettings settings = m_result->settings;
    const double lengthScale = m_result->lengthScale();
    const Scaler scaler = m_scaler;
    const bool map = m_result->grid.logDensity.size() > 0;
    const GridSpec grid = m_result->grid.spec;
    const CurveSpec curve = curveAroundData(m_features, 0);
    const std::string column = m_hueColumn.toStdString();
    const quint64 generation = m_resultGeneration;
    auto* watcher = new QFutureWatcher<ClassDensities>(this);
    connect(watcher, &QFutureWatcher<ClassDensities>::finished, this,
            [this, watcher, generation, cancel] {
                watcher->deleteLater();
                ClassDensities d = watcher->result();
                if (generation != m_resultGeneration || cancel != m_hueCancel) {
                    return; // another result or hue since: that one asks anew
                }
                if (d.cancelled) {
                    emit hueFailed(tr("Hue cancelled (Esc): choose it again to fit the classes"));
                    return;
                }
                if (!d.error.empty()) {
                    emit hueFailed(tr("Hue: %1").arg(QString::fromStdString(d.error)));
                    return;
                }
                emit progressChanged(QString(), 0, 0);
                m_hue = std::make_shared<const ClassDensities>(std::move(d));
                emit hueReady();
            });
    emit progressChanged(tr("fitting the hue's classes"), 0, 0);
    watcher->setFuture(runInWorker([=] {
        return fitClassDensities(x, hue, column, settings, lengthScale, scaler,
                                 map ? &grid : nullptr, map ? nullptr : &curve, *cancel);
    }));
}

} // namespace sosrep::ui
