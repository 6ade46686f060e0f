// SPDX-License-Identifier: MIT
// The Fisher-divergence curve, with the chosen and clickable length scales.
#pragma once

#include "core/tuning/length_scale_search.h"

#include <qcustomplot.h>

namespace sosrep::ui {

class FittedTitle;

/// What the rule chose on a finished sweep, for the FD view: the selected grid point, the
/// Fisher divergence's own choice it started from (the ranking and ensemble rules), the ensemble's
/// members and their agreement, and the rule in words.
struct FdChoice
{
    int selected = -1; // < 0 while the sweep is still running
    int fdIndex = -1;
    std::vector<int> members;
    QString words;     // describeSelection()
    QString agreement; // ensemble: the Spearman correlations of its members' rankings
    /// The model shown when it is not the rule's choice (a point clicked on the curve: the
    /// sweep is kept and both are marked); 0 = the rule's choice is shown.
    double shownLengthScale = 0.0;
    /// The ℓ multiplier (bw_adjust) the fit applied to the selected ℓ; 1 = none.
    double bwAdjust = 1.0;
    /// The data's median nearest-neighbour distance (0 = unknown); with `spacingFloor` the rule
    /// looks only above it and the range below is shaded as excluded.
    double spacing = 0.0;
    bool spacingFloor = false;
    /// The neighbourhood reach of the sweep (0: not computed) and its k: the anomaly rule's
    /// second scale, drawn as a line.
    double reach = 0.0;
    int reachNeighbours = 0;
    /// The purpose the selected point serves ("density", "anomaly", "" for the other rules).
    QString purposeOf;
    /// With purpose=auto: the Scores view's model's length scales when they differ from the
    /// selected one, and how it was tuned, in words.
    std::vector<double> anomalyScales;
    QString anomalyWords;
    /// The Scores view's model was tuned on a curve of its own (another scaling of the
    /// columns): none of this curve's points serves it.
    bool scoresOwnCurve = false;
    /// Why there is no curve, when the fitted model has no length scale to tune (a detector such
    /// as IForest); empty otherwise.
    QString noCurveReason;
};

/// Fisher divergence against the length scale (log axis), the selected point and the rule that
/// picked it, in words. Clicking a point asks for a refit at that length scale.
class FdPlot : public QCustomPlot
{
    Q_OBJECT

public:
    explicit FdPlot(QWidget* parent = nullptr);
    void setCurve(const std::vector<FdPoint>& curve, const FdChoice& choice = {});
    /// The title's two parts as one text: the headline (bold) and the rule's words below it.
    QString title() const;
    QString headline() const;
    /// "ℓ = …, J = …" of the curve point within 12 pixels of `pos`, else "" (the hover read-out).
    QString readoutAt(const QPointF& pos) const;

    /// Pixel position of curve point i (for tests and the read-out).
    QPointF pointPosition(int i) const;
    /// Whether the clicked (shown) point is marked apart from the rule's choice.
    bool marksShown() const { return !m_shown->data()->isEmpty(); }
    /// Whether the range the rule may not choose from is shaded.
    bool shadesExcluded() const { return m_excluded->visible(); }
    /// Pixel rectangle of the spacing's (false) or the reach's (true) label, as laid out.
    QRectF markLabelRect(bool reach) const;
    /// Whether the anomaly rule's second scale (the neighbourhood reach) is drawn.
    bool marksReach() const { return m_reach->visible(); }

signals:
    void lengthScaleClicked(double lengthScale);

protected:
    /// A pointer at rest: the read-out stays (the widget's own tooltip would replace it).
    bool event(QEvent* event) override;

private:
    /// The axes' ranges and the spacing and reach lines with their labels, kept inside.
    void placeMarks(const FdChoice& choice, bool done);
    void onClick(QMouseEvent* event);
    void onHover(QMouseEvent* event);
    /// Index of the finite curve point nearest `pos` within 12 pixels, else -1.
    int pointNear(const QPointF& pos) const;

    QCPGraph* m_curve = nullptr;
    QCPGraph* m_selected = nullptr;
    QCPGraph* m_fdChoice = nullptr;    // the FD minimum the ranking/ensemble rules start from
    QCPGraph* m_members = nullptr;     // the ensemble's length scales
    QCPGraph* m_shown = nullptr;       // the clicked length scale whose model is shown
    QCPItemRect* m_excluded = nullptr; // below the spacing floor: not for the rule
    QCPItemStraightLine* m_spacing = nullptr; // the median nearest-neighbour distance
    QCPItemText* m_spacingLabel = nullptr;
    QCPItemStraightLine* m_reach = nullptr; // the anomaly rule's neighbourhood reach
    QCPItemText* m_reachLabel = nullptr;
    FittedTitle* m_title = nullptr;
    FittedTitle* m_detail = nullptr;
    std::vector<FdPoint> m_points;
};

} // namespace sosrep::ui
