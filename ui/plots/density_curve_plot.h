// SPDX-License-Identifier: MIT
// The 1-D density plot with rug and readout.
#pragma once

#include "core/estimators/estimator.h"
#include "core/grid/density_curve.h"

#include <qcustomplot.h>

#include <functional>
#include <optional>
#include <vector>

namespace sosrep::ui {

class FittedTitle;

/// The levels of a normality score that 50, 80 and 95 % of the rows reach (a score's analogue of
/// HDR levels: the region above a level holds that share of the rows). Non-finite scores are
/// left out.
std::vector<double> rowScoreLevels(const Vector& scores);

/// A 1-D density as seaborn's kdeplot draws one: the curve in the column's own units, its
/// 50/80/95 % highest-density intervals shaded under it, and a rug of the rows below (fitted
/// rows dark, rows only scored light, labelled anomalies red and taller). A normality score
/// (Isolation Forest, kNN) is drawn as the score it is: its shaded intervals are where the
/// score is above the level 50/80/95 % of the rows reach, named so.
class DensityCurvePlot : public QCustomPlot
{
    Q_OBJECT

public:
    explicit DensityCurvePlot(QWidget* parent = nullptr);

    struct Content
    {
        const DensityCurve* curve = nullptr;
        DensityKind kind = DensityKind::Normalized;
        Vector rows; // the column's scaled value at every row
        std::optional<Eigen::VectorXi> labels;
        std::vector<Eigen::Index> fitRows; // ascending; empty = every row was fitted
        /// The column's data value at a scaled value, and log d scaled / d data there (the
        /// scaling's, Scaler::toData and logDerivative): identity and 0 when unscaled.
        std::function<double(double)> toData = [](double t) { return t; };
        std::function<double(double)> logDerivative = [](double) { return 0.0; };
        QString title;
        QString xLabel;
        std::vector<double> scoreLevels; // Score kind: the levels 50/80/95 % of rows reach
        /// Per-class densities (seaborn's hue=, common_norm): each class's curve times its
        /// share of the rows, so the classes add up to the whole; the whole data's curve is
        /// then drawn thin and grey, without its shaded intervals. Empty: none.
        struct ClassCurve
        {
            QString name;
            QColor color;
            const DensityCurve* curve = nullptr;
            double share = 1.0;
        };
        std::vector<ClassCurve> classes;
        /// Other curves on the same axis (this model at other ℓ, other estimators), drawn
        /// whole (share 1) in dashes beside the model's curve, which keeps its intervals.
        std::vector<ClassCurve> overlays;
        QString curveName; // the model's curve in the legend ("" = what it is: density...)
    };
    void showContent(const Content& content);
    void clearContent(const QString& message);
    QString title() const;
    /// What the y axis shows (density in the column's units, or the score).
    QString valueLabel() const { return yAxis->label(); }
    /// The shaded intervals' legend names, in order (for tests and the legend).
    QStringList intervalNames() const;
    /// The intervals [start, end] (raw units) of the shaded region `level` (0 = 50 %).
    QVector<QCPRange> intervals(int level) const;
    /// The hover read-out at a pixel: the column's value there and the curve's value (and
    /// which shaded interval holds it); "" off the curve's range.
    QString readoutAt(const QPointF& pixel) const;
    int rugCount() const;
    /// The classes' curves drawn (name and their area in the column's units, for tests).
    QList<QPair<QString, double>> classAreas() const;
    /// The legend's names in order (for tests).
    QStringList legendNames() const;
    int anomalyRugCount() const;
    void resetZoom();

protected:
    void mouseDoubleClickEvent(QMouseEvent* event) override;

private:
    /// The rows as ticks at `rugAt` (fitted dark, only scored light) and the labelled
    /// anomalies in their own lane at `anomalyAt`, so many of them hide no rows.
    void drawRug(const Content& c, double rugAt, double anomalyAt);
    /// The hue's class curves and the overlays (Content::classes, ::overlays); returns their
    /// highest value.
    double drawClasses(const Content& c);
    FittedTitle* m_title = nullptr;
    QCPGraph* m_curve = nullptr;
    QCPGraph* m_floor = nullptr; // the fills' lower edge (0, or the lowest score)
    QVector<QCPGraph*> m_levels;
    QVector<QCPGraph*> m_classGraphs; // one per hue class, made on first use
    QPen m_curvePen;                  // the whole data's curve alone
    QCPGraph* m_rug = nullptr;
    QCPGraph* m_unfittedRug = nullptr;
    QCPGraph* m_anomalyRug = nullptr;
    QCPRange m_xRange;
    QCPRange m_yRange;
};

} // namespace sosrep::ui
