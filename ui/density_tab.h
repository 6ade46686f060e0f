// SPDX-License-Identifier: MIT
// The Density tab's binding: the map, the 1-D curves, the hue, the joint edges and the pair plot
// drawn from the session and their controllers.
#pragma once

#include "ui/plots/density_heatmap.h"

#include <QObject>
#include <QString>

namespace sosrep::ui {

class DensityPage;
class HueController;
class MarginalController;
class OverlayController;
class PairPlotController;
class Session;
struct ClassDensity;

/// Draws the Density tab (a DensityPage) from the session's result and from the controllers of
/// its parts: the hue's classes, the marginals (the 1-D view and the joint plot's edges), the
/// overlaid curves and the pair plot. It owns how the map is coloured and whether it is a joint
/// plot; it asks for what is missing and draws it when it comes.
class DensityTab : public QObject
{
    Q_OBJECT

public:
    struct Controllers
    {
        Session* session;
        HueController* hue;
        MarginalController* marginals;
        OverlayController* overlays;
        PairPlotController* pairs;
    };
    DensityTab(const Controllers& controllers, DensityPage* page, QObject* parent);

    DensityPage* page() const { return m_page; }
    /// The result's map (and its hue and edges) and the 1-D view.
    void showMaps();
    /// Empties the map and the curve (new data), saying `message`.
    void clear(const QString& message);
    /// The Density tab on the 1-D marginal of a feature column (computed on a worker when it
    /// is not known yet: MarginalController::ready says when).
    void showMarginal(int column);
    /// Shows the pair plot (sosrep-studio --pairplot), starting it if needed.
    void showPairPlotView();
    /// How the map is coloured (View > Map colours; sosrep-studio --color-scale).
    void setMapScale(MapScale scale);
    MapScale mapScale() const { return m_mapScale; }
    /// The map as a joint plot: the plotted columns' marginals on its edges (View > Joint plot;
    /// sosrep-studio --joint).
    void setJoint(bool on);
    bool joint() const { return m_joint; }
    /// "label = 1 (25 rows)": a hue class as the legends name it.
    QString hueClassName(const ClassDensity& c) const;

signals:
    /// The tab wants to be the current one (a marginal or the pair plot was asked for).
    void raiseRequested();
    void message(const QString& text, int milliseconds);
    void jointChanged(bool on);
    void mapScaleChanged(MapScale scale);

private:
    void connectControllers();
    /// The Hue box and the hue's controller (its classes, its notes).
    void connectHue();
    QString densityTitle() const;
    void showHue();
    /// The 1-D view (one column, or the chosen marginal), asking for a marginal not computed.
    void showDensityCurve();
    void showPairPlot();
    /// Puts the marginals on the map's edges (asking for the missing ones).
    void showJointEdges();

    Controllers m_c;
    DensityPage* m_page;
    MapScale m_mapScale = MapScale::Log;
    bool m_joint = false;
};

} // namespace sosrep::ui
