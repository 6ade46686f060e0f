// SPDX-License-Identifier: MIT
// The app's session: the data and its roles, the settings and the fitted result, and their signals.
#pragma once

#include "core/estimators/fit_settings.h"
#include "ui/controller/fit_job.h"
#include "ui/controller/option_host.h"
#include "ui/controller/session_data.h"

#include <QObject>
#include <QString>
#include <QStringList>
#include <QVector>

#include <functional>
#include <memory>

namespace sosrep::ui {

/// A part of the result that a job completes after the fit (ResultControllers wait for them).
enum class ResultPart
{
    Grids,           // the maps again, for other plot columns (gridsUpdated)
    Scores,          // the Scores view's stage of a large fit (scoresReady)
    Comparison,      // the compare view's stage of a large fit (comparisonReady, then the next)
    ComparisonModel, // the second model is in, by the fit or its stage (comparisonModelReady)
    Unannounced      // no signal: the job's own controller says what changed
};

/// The app's document (Tiled's Document): the data, its column roles and scaling, the fit
/// settings and the current fitted result. It runs no job and draws nothing: the controllers
/// (FitController, HueController, ...) listen to its signals, never to each other, and put
/// what they compute into it; the views read from it. Projects save and open it.
/// The estimator of the compare view: the one chosen, else kde for sosrep and sosrep for every
/// other estimator.
std::string compareEstimatorFor(const FitSettings& settings, const std::string& choice);

class Session : public QObject, public OptionHost
{
    Q_OBJECT

public:
    explicit Session(QObject* parent = nullptr);

    // --- data -----------------------------------------------------------------------------
    const SessionData& data() const { return m_data; }
    /// Loads CSV/TSV/NPZ. A text column is left out (the command line refuses the file); rows
    /// with a missing value (or a stray word: `askDropStrayTextRows`) are left out only when
    /// `askDropIncompleteRows` says yes (it is
    /// asked with the reader's message), else the file is refused as on the command line. On
    /// failure emits errorOccurred with the reader's one-line message (file, line, column)
    /// and keeps the current data. Returns success.
    bool loadFile(const QString& path);
    std::function<bool(const QString& message)> askDropIncompleteRows;
    /// The same for rows with a word in a numeric column (a stray "oops" among numbers).
    std::function<bool(const QString& message)> askDropStrayTextRows;
    void generateToy(ToyKind kind, int n, uint64_t seed);
    /// Returns false (and emits errorOccurred) if the roles are invalid (e.g. non-0/1 labels).
    bool setColumnRoles(const QVector<ColumnRole>& roles);
    /// Other plot columns: the fitted model's grids are re-evaluated on a worker (no refit,
    /// GridController) and gridsUpdated() follows; the data, model and scores stay.
    void setPlotColumns(int x, int y);

    // --- settings -------------------------------------------------------------------------
    /// The fit settings: the same type, defaults and option tables as the command line.
    const FitSettings& settings() const { return m_settings; }
    void setSettings(const FitSettings& s); // never refits by itself
    /// Sets one option (checked; a bad value emits errorOccurred and keeps the old one).
    bool setOption(const std::string& name, const std::string& value) override;
    const FitSettings& optionSettings() const override { return m_settings; }
    Eigen::Index optionRows() const override { return m_data.features().rows(); }
    /// Switches the estimator (shared options keep their values).
    void setEstimator(const std::string& name);
    /// The app's own start for max_fit_rows (the ADBench cap): an interactive session fits
    /// in seconds; the command line and Python start at core's 100 000.
    static constexpr int kAppMaxFitRows = 10000;
    /// The compare view's estimator as chosen ("" = automatic: compareEstimatorFor).
    void setCompareEstimator(const std::string& name); // "" = automatic
    const std::string& compareChoice() const { return m_compareWith; }
    const SolverComparisonSettings& solverComparison() const { return m_solverComparison; }
    void setSolverComparison(const SolverComparisonSettings& s);

    // --- result ---------------------------------------------------------------------------
    const FitJobResult* result() const { return m_result.get(); }
    /// What the current result was fitted from (a stage after the fit starts from it).
    const FitJobInput& resultInput() const { return m_resultInput; }
    /// Counts results: a job for one applies its answer only while this has not moved on.
    quint64 resultGeneration() const { return m_resultGeneration; }
    /// A fit's result (FitController): resultDropped, fitFinished (the views show it), then
    /// resultReady (the controllers start their work for it).
    void setResult(FitJobResult result, const FitJobInput& input);
    /// Completes a part of the result of `generation` with `change` and announces it (the
    /// part's signal); false, and nothing done, when that result is gone.
    bool updateResult(quint64 generation, ResultPart part,
                      const std::function<void(FitJobResult&)>& change = {});
    /// Soft problems of the data and of the last fit (constant columns, fallbacks, clamps).
    QStringList warnings() const;
    /// Why the result no longer matches the settings ("" while it does): the estimator or the
    /// options that changed since the fit, old and new values. Data changes clear the result.
    QString staleReason() const;

    // --- jobs -----------------------------------------------------------------------------
    /// Whether a fit or an optimizer run is under way (FitController says so).
    bool isBusy() const { return m_busy; }
    void setBusy(bool busy);
    /// Esc: every controller stops its jobs (cancelRequested).
    void cancel();

signals:
    void dataChanged();
    void settingsChanged();
    void plotColumnsChanged();
    void busyChanged(bool busy);
    void errorOccurred(const QString& message);
    /// The result went (new data, new roles) or is about to be replaced by a fit's: what was
    /// computed for it is dropped. resultReady() follows once a new one is in and shown.
    void resultDropped();
    /// A fit's result is in: the views show it.
    void fitFinished();
    /// ... and now that they have, work for the result (hue classes, overlays...) starts.
    void resultReady();
    void cancelRequested();
    /// The result's grids now show the current plot columns.
    void gridsUpdated();
    /// The Scores view's stage of a large fit, run after it, is in the result now (or failed:
    /// errorOccurred came first and the result has no row scores).
    void scoresReady();
    /// The compare view's stage of a large fit, run after it, is in the result now.
    void comparisonReady();
    /// The comparison model is in the result (in the fit, or after the compare view's stage
    /// of a large one): the label clusters can be compared (ClusterController).
    void comparisonModelReady();

private:
    void setData(SessionData data);
    void clearResult();

    SessionData m_data;
    FitSettings m_settings = FitSettings::defaults();
    std::string m_compareWith;
    SolverComparisonSettings m_solverComparison;
    std::unique_ptr<FitJobResult> m_result;
    FitJobInput m_resultInput;
    quint64 m_resultGeneration = 0;
    bool m_busy = false;
};

} // namespace sosrep::ui
