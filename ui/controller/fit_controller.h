// SPDX-License-Identifier: MIT
// The fit's controller: the fit on a worker, its FD curve and traces, the optimizer's runs and the
// stages a large fit runs after it.
#pragma once

#include "core/estimators/fit_settings.h"
#include "ui/controller/fit_job.h"

#include <QFutureWatcher>
#include <QObject>
#include <QString>

#include <atomic>
#include <optional>
#include <vector>

namespace sosrep::ui {

class Session;

/// Runs what F5 asks for on a worker, with progress and cancel, and puts its result into the
/// session: the fit (its FD curve and solver traces stream in live for the FD and Optimizer
/// views), then, for a large fit, the Scores view's and the compare view's stages; and the
/// Optimizer view's natural-vs-standard runs on the fitted kernel. Listens to the session only.
class FitController : public QObject
{
    Q_OBJECT

public:
    FitController(Session* session, QObject* parent);
    ~FitController() override;

    Session* session() const { return m_session; }

    void fit();
    /// Refits with a fixed length scale (e.g. a point clicked on the FD curve).
    void fitAtLengthScale(double lengthScale);
    /// Fits above this many rows run the Scores view's and the compare view's stages after the
    /// fit (FitJobInput::eagerStagesMaxRows).
    void setEagerStagesMaxRows(int rows) { m_eagerStagesMaxRows = rows; }

    /// Solver traces of the last fit, by run ("newton", "natural", "standard"), live.
    const std::vector<NamedTrace>& traces() const { return m_traces; }
    const std::vector<FdPoint>& fdCurve() const { return m_fdPoints; }
    /// The last length-scale sweep on this data, kept through fits at a fixed ℓ (a point
    /// clicked on the curve) as long as nothing else changed; null otherwise.
    const SearchResult* sweep() const { return m_sweep ? &*m_sweep : nullptr; }
    /// The settings the sweep ran with (its rule).
    const FitSettings& sweepSettings() const { return m_sweepSettings; }

    /// Whether the Scores view's stage of a large fit still runs (scoresReady follows).
    bool scoresPending() const { return m_scoresWatcher != nullptr; }
    /// Whether the compare view's stage of a large fit is still to come (comparisonReady
    /// follows): it runs after the scores stage.
    bool comparisonPending() const;

    /// Runs the optimizer view's natural-vs-standard comparison again on the fitted kernel with
    /// the session's solverComparison() settings (no refit); the traces stream in as in a fit.
    /// Returns false (and says why) when there is no fitted kernel-field model.
    bool rerunSolverComparison();
    /// Whether the last fit left its comparison for later (a large kernel) and it has not been
    /// started since.
    bool solverComparisonDeferred() const;
    /// Starts a deferred comparison once (the Optimizer view calls it when shown); false when
    /// none is waiting or a job runs. A cancelled one is not restarted by this (Run is).
    bool startDeferredSolverComparison();
    /// The deferred comparison is too large to start by itself (autoStartMaxEntries): the
    /// Optimizer view asks for Run instead.
    bool solverComparisonAsks() const;

signals:
    void progressChanged(const QString& stage, int done, int total);
    void traceUpdated();
    void fdCurveUpdated();
    void fitCancelled();
    /// A natural-vs-standard run started by rerunSolverComparison() ended (done or cancelled).
    void solverComparisonFinished();
    /// The natural-vs-standard runs were cancelled; the fit and its views stay.
    void solverComparisonCancelled();

private:
    void onFitFinished();
    void onSolverRunsFinished(quint64 generation);
    /// Esc, or the result dropped for new data: the jobs stop (and are waited for when the
    /// data changes, so that none outlives the rows it was started on).
    void stop(bool wait);
    /// Callbacks for a worker job that forward to this object's thread.
    FitJobSink workerSink();
    void appendTrace(const std::string& run, const std::vector<TraceRow>& rows);
    /// Whether the kept sweep describes a fit with these settings (equal but for ℓ).
    bool sweepFits(const FitSettings& s) const;
    /// The stages of a large fit (fit_controller_stages.cpp): the Scores view's, then the
    /// compare view's or, when none is due, the label clusters.
    void startScoresStage();
    void startStagesAfterScores();
    void startComparisonStage();

    Session* m_session;
    std::atomic<bool> m_cancel{false};
    QFutureWatcher<FitJobResult>* m_watcher = nullptr;
    QFutureWatcher<std::vector<NamedTrace>>* m_solverWatcher = nullptr;
    FitJobInput m_input; // the running fit's
    std::vector<NamedTrace> m_traces;
    std::vector<FdPoint> m_fdPoints;
    std::optional<SearchResult> m_sweep;
    FitSettings m_sweepSettings;
    int m_eagerStagesMaxRows = FitJobInput().eagerStagesMaxRows;
    QFutureWatcher<ScoresStage>* m_scoresWatcher = nullptr;
    std::atomic<bool> m_scoresCancel{false};
    QFutureWatcher<ComparisonStage>* m_comparisonWatcher = nullptr;
    std::atomic<bool> m_comparisonCancel{false};
};

} // namespace sosrep::ui
