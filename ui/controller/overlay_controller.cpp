// SPDX-License-Identifier: MIT
// The 1-D view's overlays: this model at other length scales and other estimators, fitted on
// a worker after each fit and evaluated along the view's curve.
#include "ui/controller/overlay_controller.h"

#include "core/data/split.h"
#include "core/errors.h"
#include "core/kernels/kernel.h"
#include "ui/controller/extra_fits.h"
#include "ui/controller/session.h"
#include "ui/controller/worker.h"

#include <QFutureWatcher>

namespace sosrep::ui {

OverlayController::OverlayController(Session* session, QObject* parent)
    : ResultController(session, parent)
{
}

void OverlayController::setSpecs(const QStringList& specs)
{
    if (specs == m_specs) {
        return;
    }
    drop();
    m_specs = specs;
    emit ready(); // the view drops the old curves at once
    start();
}

void OverlayController::drop()
{
    stopJob();
    m_overlays.clear();
}

void OverlayController::start()
{
    const FitJobResult* result = session()->result();
    const Matrix& features = session()->data().features();
    if (m_specs.isEmpty() || !result || features.cols() != 1 ||
        result->curve.logValues.size() == 0) {
        return;
    }
    if (result->model().kind() == DensityKind::Score) {
        // Densities on a normality score's axis read as scores (issue 52, item 13).
        emit failed(tr("Overlays are densities: the 1-D view of %1 shows a normality score, so "
                       "none is drawn")
                        .arg(QString::fromStdString(result->model().estimator())));
        return;
    }
    const std::shared_ptr<std::atomic<bool>> cancel = jobFlag();
    const QStringList specs = m_specs;
    const FitSettings settings = result->settings;
    const double lengthScale = result->lengthScale();
    // The rows the model was fitted on (large data: its seeded subsample).
    const Matrix x =
        result->fitRowIndices.empty() ? features : rowsOf(features, result->fitRowIndices);
    const Scaler scaler = session()->data().scaler();
    const CurveSpec curve = result->curve.spec;
    const quint64 generation = session()->resultGeneration();
    auto* watcher = new QFutureWatcher<ExtraFits<Overlay>>(this);
    connect(watcher, &QFutureWatcher<ExtraFits<Overlay>>::finished, this,
            [this, watcher, generation, cancel] {
                watcher->deleteLater();
                if (!isCurrent(cancel, generation)) {
                    return; // another result or choice since: that one runs anew
                }
                emit progressChanged(QString(), 0, 0);
                ExtraFits<Overlay> job = watcher->result();
                m_overlays = std::move(job.items);
                if (job.cancelled) {
                    emit failed(tr("Overlays cancelled (Esc): fit again to draw them"));
                } else if (!job.failed.isEmpty()) {
                    emit failed(tr("Overlay: %1").arg(job.failed.join(QStringLiteral("; "))));
                }
                emit ready();
            });
    emit progressChanged(tr("fitting the overlaid curves"), 0, int(specs.size()));
    const FitJobSink sink =
        progressSink<ResultController>(this, &ResultController::progressChanged);
    watcher->setFuture(runInWorker([=] {
        return fitEach<Overlay>(
            specs, *cancel, sink, "fitting the overlaid curves",
            [&](const QString& spec, const FitObserver& observer) -> std::optional<Overlay> {
                const bool scaled = spec.startsWith(QLatin1String("l*"));
                const double factor = scaled ? spec.mid(2).toDouble() : 1.0;
                if (scaled && (!(factor > 0.0) || lengthScale <= 0.0)) {
                    throw ParameterError("overlay", spec.toStdString() +
                                                        ": needs a model with a length scale");
                }
                const std::string estimator = scaled ? settings.estimator : spec.toStdString();
                // A scaled one is this model at that l; another estimator is tuned as on its
                // own (the settings' l: auto, a rule or a number).
                const std::shared_ptr<const FittedModel> model = ui::fitAtLengthScale(
                    x, settings, estimator, scaled ? factor * lengthScale : 0.0, observer, scaler);
                if (!model) {
                    return std::nullopt;
                }
                Overlay o;
                o.spec = spec;
                o.kind = model->kind();
                o.curve = evaluateCurve(*model, curve);
                const KernelOperator* kernel = model->kernel();
                const QString l =
                    kernel ? QStringLiteral(" (ℓ = %1)").arg(kernel->spec().lengthScale, 0, 'g', 3)
                           : QString();
                o.name = scaled ? QStringLiteral("ℓ × %1%2").arg(spec.mid(2), l)
                                : QString::fromStdString(estimator) + l;
                return o;
            });
    }));
}

} // namespace sosrep::ui
