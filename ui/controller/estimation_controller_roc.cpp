// SPDX-License-Identifier: MIT
// The Scores view's ROC panel: other estimators' curves over the same rows (fitted on a
// worker after each fit), and a cut-off chosen on the curve.
#include "ui/controller/estimation_controller.h"

#include "core/data/split.h"
#include "core/pipeline/fit_route.h"
#include "ui/controller/extra_fits.h"
#include "ui/controller/worker.h"

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

void EstimationController::startOtherRocs()
{
    const bool labelled = m_labels && m_labels->sum() > 0 && m_labels->sum() < m_labels->size();
    if (m_rocEstimators.isEmpty() || !m_result || !labelled) {
        return;
    }
    m_rocCancel = std::make_shared<std::atomic<bool>>(false);
    const std::shared_ptr<std::atomic<bool>> cancel = m_rocCancel;
    const QStringList names = m_rocEstimators;
    // Each estimator fitted for the anomaly purpose on the rows the model was (large data: its
    // seeded subsample, which a dense kernel over shuttle's 49 097 rows would not fit in
    // memory), scaled as that purpose scales them for it (scale=auto: the anomaly purpose's for
    // the kernel densities, min-max for the detectors), and scored at every row.
    struct Job
    {
        FitSettings settings;
        FitData data;
        Matrix rows;
    };
    std::vector<Job> jobs;
    try {
        for (const QString& name : names) {
            Job job{m_result->settings, FitData{}, Matrix()};
            // The options both estimators have keep their values.
            job.settings.setEstimator(name.toStdString());
            if (job.settings.values.has("purpose")) {
                job.settings.values.set("purpose", "anomaly");
            }
            auto [rows, scaler] = rowsScaledFor(job.settings);
            job.data.train =
                m_result->fitRowIndices.empty() ? rows : rowsOf(rows, m_result->fitRowIndices);
            job.data.scaler = std::move(scaler);
            job.data.source = "data";
            job.rows = std::move(rows);
            jobs.push_back(std::move(job));
        }
    } catch (const std::exception& e) { // another scaling of these rows refused (scaler.h)
        emit otherRocsFailed(tr("ROC: %1").arg(QString::fromStdString(e.what())));
        return;
    }
    const quint64 generation = m_resultGeneration;
    auto* watcher = new QFutureWatcher<ExtraFits<OtherRoc>>(this);
    connect(watcher, &QFutureWatcher<ExtraFits<OtherRoc>>::finished, this,
            [this, watcher, generation, cancel] {
                watcher->deleteLater();
                if (generation != m_resultGeneration || cancel != m_rocCancel) {
                    return; // another result or list since: that one runs anew
                }
                emit progressChanged(QString(), 0, 0);
                ExtraFits<OtherRoc> job = watcher->result();
                m_otherRocs = std::move(job.items);
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
    watcher->setFuture(runInWorker([names, jobs, cancel, sink] {
        return fitEach<OtherRoc>(
            names, *cancel, sink, "fitting the other ROC curves' estimators",
            [&](const QString& name, const FitObserver& observer) -> std::optional<OtherRoc> {
                const Job& job = jobs[size_t(names.indexOf(name))];
                const FitOutcome f = fitModel(job.data, job.settings, observer);
                if (f.cancelled) {
                    return std::nullopt;
                }
                checkUsable(*f.model);
                return OtherRoc{name, -f.model->logValues(job.rows).values};
            });
    }));
}

} // namespace sosrep::ui
