// SPDX-License-Identifier: MIT
// The 1-D view's overlays: this model at other length scales and other estimators.
#pragma once

#include "core/estimators/estimator.h"
#include "core/grid/density_curve.h"

#include "ui/controller/result_controller.h"

#include <QObject>
#include <QString>
#include <QStringList>

#include <atomic>
#include <memory>
#include <vector>

namespace sosrep::ui {

/// Other curves on the 1-D view's axis (one feature column; seaborn's several kdeplots on one
/// ax): "l*F" is the session's model refitted at F times the fitted ℓ, an estimator's name
/// that estimator fitted with these settings where it has them (its ℓ tuned as on its own).
/// Fitted and evaluated along the view's curve on a worker after each fit (ready(); Esc
/// cancels, failed() says why). Owns its choice, its curves and its job.
class OverlayController : public ResultController
{
    Q_OBJECT

public:
    struct Overlay
    {
        QString spec;
        QString name; // for the legend: "ℓ × 0.5 (ℓ = 0.026)", "kde (ℓ = 0.052)"
        DensityCurve curve;
        DensityKind kind = DensityKind::Normalized;
    };

    explicit OverlayController(Session* session, QObject* parent = nullptr);

    /// Takes the curves to overlay and fits them for the current result (the old ones go).
    void setSpecs(const QStringList& specs);
    QStringList specs() const { return m_specs; }
    const std::vector<Overlay>& overlays() const { return m_overlays; }

private:
    void drop() override;
    void start() override;

    QStringList m_specs;
    std::vector<Overlay> m_overlays;
};

} // namespace sosrep::ui
