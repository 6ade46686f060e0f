// SPDX-License-Identifier: MIT
// The Scores view's ROC panel: other estimators' curves over the same rows.
#pragma once

#include "core/types.h"

#include "ui/controller/result_controller.h"

#include <QObject>
#include <QString>
#include <QStringList>

#include <atomic>
#include <memory>
#include <vector>

namespace sosrep::ui {

/// Other estimators' ROC curves beside the session's model (Orange's ROC Analysis): each
/// fitted through the fit route on the same rows with the same settings where it has them,
/// for the anomaly purpose, and scored at every row, on a worker after each fit of labelled
/// data (ready(); Esc cancels, failed() says why). Owns its choice, its scores and its job.
class OtherRocController : public ResultController
{
    Q_OBJECT

public:
    struct OtherRoc
    {
        QString estimator;
        Vector anomalyScores; // at every row, higher = more anomalous
    };

    explicit OtherRocController(Session* session, QObject* parent = nullptr);

    /// Takes the estimators and fits them for the current result (the old curves go).
    void setEstimators(const QStringList& estimators);
    QStringList estimators() const { return m_estimators; }
    const std::vector<OtherRoc>& curves() const { return m_curves; }

signals:
    /// Other data came: the choice made for the previous data (`was`) is cleared, not fitted
    /// again on every later data set unasked (issue 50).
    void choiceCleared(const QStringList& was);

private:
    void drop() override;
    void start() override;

    QStringList m_estimators;
    std::vector<OtherRoc> m_curves;
    QString m_source; // the data the choice was made for
};

} // namespace sosrep::ui
