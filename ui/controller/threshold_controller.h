// SPDX-License-Identifier: MIT
// The Scores view's outlier threshold: a share of rows to flag, or a cut-off from the ROC.
#pragma once

#include "core/pipeline/outlier_threshold.h"

#include "ui/controller/result_controller.h"

#include <QObject>
#include <QString>

#include <atomic>
#include <memory>
#include <optional>

namespace sosrep::ui {

/// Which rows the Scores view flags as outliers: a share (contamination) whose threshold is
/// the quantile of log values at rows the Scores view's model did not fit, computed on a worker
/// once the rows are scored and again after every fit, as `sosrep fit --contamination` and
/// Python's `offset_`; or a cut-off chosen on the ROC curve. Owns the share, the threshold and
/// its job; listens to the session only.
class ThresholdController : public ResultController
{
    Q_OBJECT

public:
    explicit ThresholdController(Session* session, QObject* parent = nullptr);

    /// The share of rows to flag (0: none, the default). A share in (0, 0.5] computes the
    /// threshold (ready() follows); a bad share says why in failed() and changes nothing.
    void setContamination(double contamination);
    double contamination() const { return m_contamination; }
    /// A cut-off chosen on the ROC curve: rows scoring above `anomalyScore` are flagged (no
    /// share: the contamination goes to 0) until a fit or a share replaces it.
    void chooseCutoff(double anomalyScore);
    /// The current result's threshold, once computed (none while it runs or when off).
    const std::optional<OutlierThreshold>& threshold() const { return m_threshold; }
    bool pending() const { return m_running; }

private:
    void drop() override;
    /// Starts the threshold of the current result once its rows are scored.
    void start() override;

    double m_contamination = 0.0;
    std::optional<OutlierThreshold> m_threshold;
    bool m_running = false;
};

} // namespace sosrep::ui
