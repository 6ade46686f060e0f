// SPDX-License-Identifier: MIT
// The density tab: chooser between 2-D maps and 1-D curves.
#pragma once

#include "ui/controller/class_densities.h"

#include <QStringList>
#include <QWidget>

class QAction;
class QComboBox;
class QToolButton;
class QLabel;
class QStackedWidget;

namespace sosrep::ui {

class DensityCurvePlot;
class DensityHeatmap;
class PairPlot;

/// The Density tab: the 2-D map (for more than two columns a slice through the other columns'
/// medians) or the 1-D marginal of a plotted column, chosen in a "Show" box that says which is
/// shown; with one feature column, the 1-D density alone.
class DensityPage : public QWidget
{
    Q_OBJECT

public:
    explicit DensityPage(QWidget* parent = nullptr);

    DensityHeatmap* map() const { return m_map; }
    DensityCurvePlot* curve() const { return m_curve; }
    PairPlot* pairs() const { return m_pairs; }
    /// The Show box's value for the pair plot (beside -1, the map, and a column's marginal).
    static constexpr int kPairPlot = -2;
    /// The plot on show (what exports and copies take).
    QWidget* currentPlot() const;

    /// The choices for the feature columns `names` with x and y plotted: the 2-D map and the
    /// 1-D marginal of every column (the plotted ones first); marginals the model has none of
    /// are listed disabled with `marginalReason` as their tooltip. Keeps the choice when it is
    /// still offered. One column: the curve alone, no choice.
    void setChoices(const QStringList& names, int xColumn, int yColumn,
                    const QString& marginalReason);
    /// New data: with other feature columns than the choices were made for (another file, a
    /// 1-column file) the choices go and the next ones start at the map; the same columns keep
    /// them (a refit, a new length scale).
    void setColumns(const QStringList& names);
    /// The column whose 1-D view is chosen, or -1 for the 2-D map.
    int chosenColumn() const;
    /// Shows the map (column -1) or the curve.
    void showView(int column);
    QComboBox* chooser() const { return m_show; }
    /// A line under the chooser: "computing the marginal of x…", or why one is not offered.
    void setNote(const QString& text);
    QString note() const;
    /// The hue choices: "(none)" and the columns of a few values; `current` selected.
    void setHueChoices(const QStringList& columns, const QString& current);
    QComboBox* hueChooser() const { return m_hue; }
    /// The hue's options menu (per-class ℓ, common_norm), shown with a hue; checked as given.
    void setHueOptions(const HueOptions& options);
    QToolButton* hueOptionsButton() const { return m_hueOptions; }
    /// The 1-D view's overlays (one feature column): the fitted ℓ times ½, 2 and 4, and the
    /// other density estimators (`estimators`); `chosen` checked. Hidden with 2 or more columns.
    void setOverlayChoices(const QStringList& estimators, const QStringList& chosen);
    QToolButton* overlayButton() const { return m_overlay; }

signals:
    /// The user chose the map (-1) or the 1-D view of a column.
    void viewChosen(int column);
    /// The user chose a hue column ("" for none).
    void hueChosen(const QString& column);
    /// The user changed the hue's options.
    void hueOptionsChosen(const HueOptions& options);
    /// The user checked or unchecked an overlay: every checked one ("l*0.5", "kde", ...).
    void overlaysChosen(const QStringList& specs);

private:
    QStringList m_names; // the feature columns the choices are for
    QComboBox* m_show = nullptr;
    QLabel* m_showLabel = nullptr;
    QComboBox* m_hue = nullptr;
    QToolButton* m_hueOptions = nullptr;
    QAction* m_perClass = nullptr;
    QAction* m_commonNorm = nullptr;
    QToolButton* m_overlay = nullptr;
    QLabel* m_note = nullptr;
    QWidget* m_bar = nullptr;
    QStackedWidget* m_stack = nullptr;
    DensityHeatmap* m_map = nullptr;
    DensityCurvePlot* m_curve = nullptr;
    PairPlot* m_pairs = nullptr;
};

} // namespace sosrep::ui
