// SPDX-License-Identifier: MIT
// The Scores view's ROC panel: other estimators' curves over the same rows, fitted on a
// worker after each fit.
#include "ui/controller/other_roc_controller.h"

#include "core/data/split.h"
#include "core/pipeline/fit_route.h"
#include "ui/controller/extra_fits.h"
#include "ui/controller/session.h"
#include "ui/controller/worker.h"

#include <QFutureWatcher>

namespace sosrep::ui {

OtherRocController::OtherRocController(Session* session, QObject* parent)
    : ResultController(session, parent)
{
    connect(session, &Session::dataChanged, this, [this] {
        const QString source = this->session()->data().dataSource();
        if (source == m_source) {
            return; // new roles or scaling of the same data: the choice stands
        }
        m_source = source;
        if (m_estimators.isEmpty()) {
            return;
        }
        const QStringList was = m_estimators;
        drop();
        m_estimators.clear();
        emit ready(); // the menu unchecks, the panel drops the curves
        emit choiceCleared(was);
    });
}

void OtherRocController::setEstimators(const QStringList& estimators)
{
    if (estimators == m_estimators) {
        return;
    }
    drop();
    m_estimators = estimators;
    emit ready(); // the panel drops the old curves at once
    start();
}

void OtherRocController::drop()
{
    stopJob();
    m_curves.clear();
}

void OtherRocController::start()
{
    const FitJobResult* result = session()->result();
    const auto& labels = session()->data().labels();
    const bool labelled = labels && labels->sum() > 0 && labels->sum() < labels->size();
    if (m_estimators.isEmpty() || !result || !labelled) {
        return;
    }
    const std::shared_ptr<std::atomic<bool>> cancel = jobFlag();
    const QStringList names = m_estimators;
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
            Job job{result->settings, FitData{}, Matrix()};
            // The options both estimators have keep their values.
            job.settings.setEstimator(name.toStdString());
            if (job.settings.values.has("purpose")) {
                job.settings.values.set("purpose", "anomaly");
            }
            auto [rows, scaler] = session()->data().rowsScaledFor(job.settings);
            job.data.train =
                result->fitRowIndices.empty() ? rows : rowsOf(rows, result->fitRowIndices);
            job.data.scaler = std::move(scaler);
            job.data.source = "data";
            job.rows = std::move(rows);
            jobs.push_back(std::move(job));
        }
    } catch (const std::exception& e) { // another scaling of these rows refused (scaler.h)
        emit failed(tr("ROC: %1").arg(QString::fromStdString(e.what())));
        return;
    }
    const quint64 generation = session()->resultGeneration();
    auto* watcher = new QFutureWatcher<ExtraFits<OtherRoc>>(this);
    connect(watcher, &QFutureWatcher<ExtraFits<OtherRoc>>::finished, this,
            [this, watcher, generation, cancel] {
                watcher->deleteLater();
                if (!isCurrent(cancel, generation)) {
                    return; // another result or list since: that one runs anew
                }
                emit progressChanged(QString(), 0, 0);
                ExtraFits<OtherRoc> job = watcher->result();
                m_curves = std::move(job.items);
                if (job.cancelled) {
                    emit failed(tr("Other ROC curves cancelled (Esc): fit again to draw them"));
                } else if (!job.failed.isEmpty()) {
                    emit failed(tr("ROC: %1").arg(job.failed.join(QStringLiteral("; "))));
                }
                emit ready();
            });
    emit progressChanged(tr("fitting the other ROC curves' estimators"), 0, int(names.size()));
    const FitJobSink sink =
        progressSink<ResultController>(this, &ResultController::progressChanged);
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
