// SPDX-License-Identifier: MIT
// The app's density-ratio fits on a worker thread.
#pragma once

#include "core/data/dataset.h"
#include "core/data/scaler.h"
#include "core/estimators/fit_settings.h"
#include "core/estimators/ratio_model.h"
#include "core/ratio/importance_weights.h"
#include "ui/controller/option_host.h"

#include <QFutureWatcher>
#include <QJsonObject>
#include <QObject>
#include <QString>
#include <QStringList>

#include <atomic>
#include <memory>

namespace sosrep::ui {

class Session;

/// Where the Ratio view's q sample comes from; p is the loaded data (minus q's rows for a split).
struct RatioSource
{
    enum Kind
    {
        None,
        File,   // a second file, its columns matched by name to the loaded features
        Column, // rows of the loaded data whose column `column` equals `value`
        Rect    // rows inside a rectangle of two feature columns (raw units)
    } kind = None;
    QString path;
    QString column;
    double value = 1.0;
    int xColumn = 0, yColumn = 1;
    double x0 = 0, x1 = 0, y0 = 0, y1 = 0;
    /// Column and Rect: p = every row (q's rows too) instead of the other rows. A rectangle
    /// starts with it on: p = the rows outside it has no mass where q has all of it (disjoint
    /// supports, an unbounded ratio: 47 % negative weights was what FIRE made of that).
    bool pAll = false;
};

/// What q is to the fit: the q rows as a sample (Type I), or q as a function known at the p rows
/// (Type II): the density of a density estimator fitted to the q rows, an expression of x1..xd
/// (raw units), or 1 (the inverse density).
struct RatioQMode
{
    enum Kind
    {
        Sample,
        Density,
        Expression,
        Inverse
    } kind = Sample;
    std::string densityEstimator = "kde"; // Density: any density estimator, at its defaults
    QString expression;                   // Expression
    bool typeTwo() const { return kind != Sample; }
    bool needsQRows() const { return kind == Sample || kind == Density; }
};

/// A finished ratio fit with what the view draws, all in raw units.
struct RatioResult
{
    std::shared_ptr<const RatioModel> model; // at the fitted lambda
    std::shared_ptr<const RatioModel> shown; // at the slider's lambda (the same without a path)
    Vector weights;                          // the shown ratio at the p rows
    WeightSummary summary;
    // The map over two feature columns (raw units), the others at their p means.
    int xColumn = 0, yColumn = 1;
    double xMin = 0, xMax = 1, yMin = 0, yMax = 1;
    Matrix grid;                         // ny x nx ratio values
    Vector pMean, qMean, reweightedMean; // per feature, raw units
    Scaler scaler;                       // p's, as the fit used it
    double seconds = 0.0;
    /// What the fit warned (the tuning's choice at the edge of its grid...), as `sosrep ratio`
    /// prints it.
    QStringList warnings;
    /// What the shown model's weights warn (a low effective sample size...), renewed with them.
    QStringList weightWarnings;
};

/// The Ratio view's state (issue 10): the two samples, the ratio settings (the same FitSettings
/// and option tables as `sosrep ratio`, through core's one fit route), the fit on a worker
/// thread with progress and cancel, and the lambda slider over FIRE's path.
class RatioController : public QObject, public OptionHost
{
    Q_OBJECT

public:
    RatioController(Session* data, QObject* parent = nullptr);
    ~RatioController() override;

    // --- the samples ----------------------------------------------------------------------
    /// Sets q's source and rebuilds p and q (a problem emits errorOccurred and keeps the old
    /// source). Drops the result.
    bool setSource(const RatioSource& source);
    const RatioSource& source() const { return m_source; }
    QString sourceDescription() const;
    const Matrix& pRaw() const { return m_pRaw; }
    const Matrix& qRaw() const { return m_qRaw; }
    bool ready() const { return m_pRaw.rows() > 1 && (!m_qMode.needsQRows() || m_qRaw.rows() > 0); }
    /// Sets what q is (an expression is parsed now: a syntax error is reported with its
    /// column and the old mode kept). Drops the result.
    bool setQMode(const RatioQMode& mode);
    const RatioQMode& qMode() const { return m_qMode; }

    // --- settings ---------------------------------------------------------------------------
    const FitSettings& settings() const { return m_settings; }
    const FitSettings& optionSettings() const override { return m_settings; }
    bool setOption(const std::string& name, const std::string& value) override;
    Eigen::Index optionRows() const override { return m_pRaw.rows(); }
    void setEstimator(const std::string& name);
    /// The estimator and every option at once (undo and redo). Drops the result.
    void setSettings(const FitSettings& settings);
    void setPlotColumns(int x, int y);

    // --- jobs -------------------------------------------------------------------------------
    bool isBusy() const { return m_watcher != nullptr; }
    void fit();
    void cancel();

    // --- results ----------------------------------------------------------------------------
    const RatioResult* result() const { return m_result.get(); }
    /// Moves along the fitted path without refitting (FIRE); false when there is no path.
    bool setLambda(double lambda);
    double shownLambda() const;

    /// The view's state for project files, and back (the fit is redone on open when it was
    /// there). Problems throw DataError naming the field.
    QJsonObject toJson() const;
    void restore(const QJsonObject& json, bool refit);

signals:
    void samplesChanged();
    void settingsChanged();
    void busyChanged(bool busy);
    void progressChanged(int done, int total);
    void resultChanged();
    void errorOccurred(const QString& message);

private:
    void rebuildSamples(const RatioSource& source);
    void clearResult();
    void onFinished();

    Session* m_data;
    RatioSource m_source;
    RatioQMode m_qMode;
    Matrix m_pRaw;
    Matrix m_qRaw;
    std::vector<std::string> m_columns;
    FitSettings m_settings = FitSettings::defaults("fire");
    int m_plotX = 0, m_plotY = 1;
    std::atomic<bool> m_cancel{false};
    QFutureWatcher<std::shared_ptr<RatioResult>>* m_watcher = nullptr;
    QString m_jobError;
    std::unique_ptr<RatioResult> m_result;
};

/// The map, weights and means of `model` on p and q (raw), at the plot columns: used after a
/// fit and after each move of the lambda slider.
void describeRatio(RatioResult& r, const Matrix& pRaw, const Matrix& qRaw, int xColumn, int yColumn,
                   int resolution = 100);

} // namespace sosrep::ui
