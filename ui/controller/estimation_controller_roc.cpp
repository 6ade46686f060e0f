// SPDX-License-Identifier: MIT
// The Scores view's ROC panel: other estimators' curves over the same rows (fitted on a
// worker after each fit), and a cut-off chosen on the curve.
#include "ui/controller/estimation_controller.h"

#include "core/data/split.h"
#include "core/pipeline/fit_route.h"

#include <QtConcurrent/QtConcurrentRun>

namespace sosrep::ui {

void EstimationController::chooseCutoff(double anomalyScore)
{
    if (!m_result || !m_result->scoresReady()) {
        return;
    }
    dropThreshold();
    m_contamination = 0.0; // the flags come from the cut-off, not from a share
    OutlierThreshold t;
    t.contamination = 0.0;
    t.offset = -anomalyScore; // flagged: log value below the offset, i.e. score above the cut-off
    t.heldOutRows = 0;
    t.method = "chosen on the ROC curve";
    m_threshold = t;
    emit thresholdReady();
}

void EstimationController::setRocEstimators(const QStringList& estimators)
{
    if (estimators == m_rocEstimators) {
        return;
    }
    *m_rocCancel = true;
    m_rocEstimators = estimators;
    m_otherRocs.clear();
    emit otherRocsReady(); // the panel drops the old curves at once
    startOtherRocs();
}

namespace {

struct OtherRocsJob
{
    std::vector<EstimationController::OtherRoc> curves;
    QStringList failed;
    bool cancelled = false;
};

} // namespace

void EstimationController::startOtherRocs()
{
    const bool labelled = m_labels && m_labels->sum() > 0 && m_labels->sum() < m_labels->size();
    if (m_rocEstimators.isEmpty() || !m_result || !labelled) {
        return;
    }
    m_rocCancel = std::make_shared<std::atomic<bool>>(false);
    const std::shared_ptr<std::atomic<bool>> cancel = m_rocCancel;
    const QStringList names = m_rocEstimators;
    const FitSettings base = m_result->settings;
    // Fitted on the rows the model was (large data: its seeded subsample, which a dense
    // kernel over shuttle's 49 097 rows would not fit in memory), scored at every row.
    FitData data;
    data.train =
        m_result->fitRowIndices.empty() ? m_features : rowsOf(m_features, m_result->fitRowIndices);
    data.scaler = m_scaler;
    data.source = "data";
    const Matrix rows = m_features;
    const quint64 generation = m_resultGeneration;
    auto* watcher = new QFutureWatcher<OtherRocsJob>(this);
    connect(watcher, &QFutureWatcher<OtherRocsJob>::finished, this,
            [this, watcher, generation, cancel] {
                watcher->deleteLater();
                if (generation != m_resultGeneration || cancel != m_rocCancel) {
                    return; // another result or list since: that one runs anew
                }
                emit progressChanged(QString(), 0, 0);
                OtherRocsJob job = watcher->result();
                m_otherRocs = std::move(job.curves);
                if (job.cancelled) {
                    emit otherRocsFailed(tr("Other ROC curves cancelled (Esc): fit again to draw "
                                            "them"));
                } else if (!job.failed.isEmpty()) {
                    emit otherRocsFailed(tr("ROC: %1").arg(job.failed.join(QStringLiteral("; "))));
                }
                emit otherRocsReady();
            });
    emit progressChanged(tr("fitting the other ROC curves' estimators"), 0, names.size());
    const FitJobSink sink = workerSink();
    watcher->setFuture(QtConcurrent::run([names, base, data, rows, cancel, sink] {
        OtherRocsJob job;
        for (int k = 0; k < names.size(); ++k) {
            if (*cancel) {
                job.cancelled = true;
                return job;
            }
            const std::string name = names[k].toStdString();
            try {
                FitSettings s = base;
                s.setEstimator(name); // the options both have keep their values
                if (s.values.has("purpose")) {
                    s.values.set("purpose", "anomaly");
                }
                FitObserver observer;
                observer.cancelled = [&cancel] { return cancel->load(); };
                const FitOutcome f = fitModel(data, s, observer);
                if (f.cancelled) {
                    job.cancelled = true;
                    return job;
                }
                checkUsable(*f.model);
                job.curves.push_back({names[k], -f.model->logValues(rows).values});
            } catch (const std::exception& e) {
                job.failed << QStringLiteral("%1: %2").arg(names[k], QString::fromUtf8(e.what()));
            }
            if (sink.progress) {
                sink.progress("fitting the other ROC curves' estimators", k + 1, names.size());
            }
        }
        return job;
    }));
}

} // namespace sosrep::ui
