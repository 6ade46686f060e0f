// SPDX-License-Identifier: MIT
// The Fisher-divergence curve, with the chosen and clickable length scales.
#include "ui/plots/fd_plot.h"

#include "ui/plots/fitted_title.h"
#include "ui/plots/plot_style.h"

#include <cmath>
#include <limits>

namespace sosrep::ui {

namespace {

/// A graph of markers alone (no line), named for the legend.
QCPGraph* addMarkers(QCustomPlot* plot, const QCPScatterStyle& style, const QString& name)
{
    QCPGraph* g = plot->addGraph();
    g->setLineStyle(QCPGraph::lsNone);
    g->setScatterStyle(style);
    g->setName(name);
    return g;
}

/// The small label beside a vertical line (the spacing, the reach), at the plot's top or
/// bottom; hidden until placed.
QCPItemText* addLineLabel(QCustomPlot* plot, Qt::Alignment vertical, const QColor& colour)
{
    auto* label = new QCPItemText(plot);
    label->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
    label->setPositionAlignment(Qt::AlignLeft | vertical);
    label->setFont(QFont(plot->font().family(), 8));
    label->setColor(colour);
    label->setPadding(QMargins(4, 2, 4, 2));
    label->setVisible(false);
    return label;
}

} // namespace

FdPlot::FdPlot(QWidget* parent) : QCustomPlot(parent)
{
    plotLayout()->insertRow(0);
    m_title = new FittedTitle(this, QFont(font().family(), 10, QFont::Bold));
    m_title->setFullText(QStringLiteral("Fisher divergence (score matching) on validation rows"));
    plotLayout()->addElement(0, 0, m_title);
    // The rule's words under the title, in the body font: the whole title in bold was four
    // heavy lines above a small plot (issue 38).
    plotLayout()->insertRow(1);
    m_detail = new FittedTitle(this, QFont(font().family(), 9));
    m_detail->setTextColor(QColor(60, 60, 60));
    plotLayout()->addElement(1, 0, m_detail);
    m_detail->setVisible(false);
    xAxis->setScaleType(QCPAxis::stLogarithmic);
    xAxis->setTicker(QSharedPointer<QCPAxisTickerLog>(new QCPAxisTickerLog));
    xAxis->setLabel(QStringLiteral("length scale ℓ (log scale)"));
    // As in the paper's Fig. 2: J shifted to be positive, on a log scale. J spans many decades
    // (10^8 at tiny l, -10^3 at the minimum), which a linear axis flattens.
    yAxis->setLabel(QStringLiteral("log₁₀(J(ℓ) − min J + 1),  J = mean[tr ∇²log p + ½|∇log p|²]"));
    m_curve = addGraph();
    m_curve->setPen(QPen(colors::natural(), 2));
    m_curve->setScatterStyle(
        QCPScatterStyle(QCPScatterStyle::ssCircle, colors::natural(), Qt::white, 7));
    m_curve->setName(QStringLiteral("J(ℓ) on the validation rows"));
    m_selected = addMarkers(
        this, QCPScatterStyle(QCPScatterStyle::ssStar, QPen(colors::standard(), 2), QBrush(), 16),
        QStringLiteral("selected"));
    m_fdChoice = addMarkers(
        this, QCPScatterStyle(QCPScatterStyle::ssDiamond, QPen(Qt::black, 2), QBrush(), 13),
        QStringLiteral("Fisher-divergence choice ℓ_FD"));
    m_members = addMarkers(
        this, QCPScatterStyle(QCPScatterStyle::ssSquare, QPen(colors::kde(), 2), QBrush(), 13),
        QStringLiteral("ensemble members"));
    m_shown = addMarkers(
        this,
        QCPScatterStyle(QCPScatterStyle::ssTriangle, QPen(Qt::black, 1.5), QBrush(Qt::black), 12),
        QStringLiteral("clicked: the model shown"));
    // The range the above-spacing rule may not choose from, shaded across the full height.
    m_excluded = new QCPItemRect(this);
    m_excluded->topLeft->setTypeY(QCPItemPosition::ptAxisRectRatio);
    m_excluded->bottomRight->setTypeY(QCPItemPosition::ptAxisRectRatio);
    m_excluded->setPen(Qt::NoPen);
    m_excluded->setBrush(QColor(0, 0, 0, 28));
    m_excluded->setLayer(QStringLiteral("background"));
    m_excluded->setClipToAxisRect(true);
    m_excluded->setVisible(false);
    m_spacing = new QCPItemStraightLine(this);
    m_spacing->setPen(QPen(Qt::darkGray, 1, Qt::DashLine));
    m_spacing->setVisible(false);
    m_spacingLabel = addLineLabel(this, Qt::AlignTop, Qt::darkGray);
    m_reach = new QCPItemStraightLine(this);
    m_reach->setPen(QPen(colors::kde(), 1.5, Qt::DashDotLine));
    m_reach->setVisible(false);
    m_reachLabel = addLineLabel(this, Qt::AlignBottom, colors::kde());
    legend->setVisible(true);
    setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    connect(this, &QCustomPlot::mousePress, this, &FdPlot::onClick);
    connect(this, &QCustomPlot::mouseMove, this, &FdPlot::onHover);
    setMouseTracking(true);
    applyPlotStyle(this);
}

namespace {

/// The curve's point at length scale l (within rounding), or -1.
int indexOfScale(const std::vector<FdPoint>& curve, double l)
{
    int found = -1;
    for (size_t i = 0; i < curve.size(); ++i) {
        if (l > 0.0 && std::abs(std::log(curve[i].lengthScale / l)) < 1e-9) {
            found = int(i);
        }
    }
    return found;
}

/// The ensemble's members, or the Scores view's members that lie on the curve.
std::vector<int> memberPoints(const std::vector<FdPoint>& curve, const FdChoice& choice)
{
    std::vector<int> members = choice.members;
    if (choice.anomalyScales.size() > 1) {
        for (double l : choice.anomalyScales) {
            const int i = indexOfScale(curve, l);
            if (i >= 0 && i != choice.selected) {
                members.push_back(i);
            }
        }
    }
    return members;
}

/// Which purpose the star serves; with purpose auto and one scale for the scores, both.
QString selectedName(const FdChoice& choice)
{
    const bool alsoScores =
        choice.anomalyScales.size() < 2 && !choice.anomalyWords.isEmpty() && !choice.scoresOwnCurve;
    if (choice.purposeOf == QLatin1String("density")) {
        return alsoScores ? QStringLiteral("ℓ for the density view and the scores")
                          : QStringLiteral("ℓ for the density view");
    }
    if (choice.purposeOf == QLatin1String("anomaly")) {
        return QStringLiteral("ℓ for anomaly ranking");
    }
    return QStringLiteral("selected");
}

/// The title: the selected l (against l_FD when the rule moved away from it), a clicked l, and
/// the rule's words; or what the plot waits for.
QString curveTitle(const std::vector<FdPoint>& curve, const FdChoice& choice, int clicked,
                   bool done)
{
    if (!done) {
        if (curve.empty() && !choice.noCurveReason.isEmpty()) {
            return QStringLiteral("Fisher divergence: ") + choice.noCurveReason;
        }
        return curve.empty()
                   ? QStringLiteral("Fisher divergence: no sweep yet (ℓ fixed or not fitted)")
                   : QStringLiteral("Fisher-divergence sweep running… %1 points").arg(curve.size());
    }
    const double l = curve[size_t(choice.selected)].lengthScale;
    QString head = QStringLiteral("Selected ℓ = %1").arg(l, 0, 'g', 4);
    if (choice.fdIndex >= 0 && choice.fdIndex != choice.selected) {
        const double lfd = curve[size_t(choice.fdIndex)].lengthScale;
        head +=
            QStringLiteral(" = %1 × ℓ_FD (ℓ_FD = %2)").arg(l / lfd, 0, 'g', 3).arg(lfd, 0, 'g', 4);
    }
    if (choice.bwAdjust != 1.0 && choice.shownLengthScale <= 0.0) {
        head += QStringLiteral(", fitted at %1 × %2 = %3 (ℓ multiplier)")
                    .arg(choice.bwAdjust, 0, 'g', 4)
                    .arg(l, 0, 'g', 4)
                    .arg(l * choice.bwAdjust, 0, 'g', 4);
    }
    if (!choice.agreement.isEmpty()) {
        head += QStringLiteral("; ") + choice.agreement;
    }
    if (clicked >= 0 && clicked != choice.selected) {
        head = QStringLiteral("Shown: ℓ = %1 (clicked).  Rule: ")
                   .arg(choice.shownLengthScale, 0, 'g', 4) +
               head;
    }
    QString text = head + QLatin1Char('\n') + choice.words;
    if (!choice.anomalyWords.isEmpty()) {
        text += QLatin1Char('\n') + choice.anomalyWords;
    }
    return text;
}

} // namespace

void FdPlot::setCurve(const std::vector<FdPoint>& curve, const FdChoice& choice)
{
    m_points = curve;
    double minJ = std::numeric_limits<double>::infinity();
    for (const FdPoint& p : curve) {
        minJ = std::isfinite(p.value) ? std::min(minJ, p.value) : minJ;
    }
    auto shown = [minJ](double j) {
        return std::isfinite(j) ? std::log10(j - minJ + 1.0) : qQNaN();
    };
    QVector<double> x, y;
    for (const FdPoint& p : curve) {
        x << p.lengthScale;
        y << shown(p.value);
    }
    m_curve->setData(x, y, true);
    auto mark = [&](QCPGraph* g, const std::vector<int>& points) {
        g->data()->clear();
        for (int i : points) {
            if (i >= 0 && i < int(curve.size())) {
                g->addData(curve[size_t(i)].lengthScale, shown(curve[size_t(i)].value));
            }
        }
        // Only what the rule used is in the legend.
        if (g->data()->isEmpty()) {
            g->removeFromLegend();
        } else if (!legend->hasItemWithPlottable(g)) {
            g->addToLegend();
        }
    };
    const bool done = choice.selected >= 0 && choice.selected < int(curve.size());
    mark(m_selected, {done ? choice.selected : -1});
    mark(m_fdChoice, {done && choice.fdIndex != choice.selected ? choice.fdIndex : -1});
    m_members->setName(choice.anomalyScales.size() > 1 ? QStringLiteral("scores' other scale")
                                                       : QStringLiteral("ensemble members"));
    mark(m_members, done ? memberPoints(curve, choice) : std::vector<int>{});
    m_selected->setName(selectedName(choice));
    const int clicked = done ? indexOfScale(curve, choice.shownLengthScale) : -1;
    mark(m_shown, {clicked != choice.selected ? clicked : -1});
    const QString text = curveTitle(curve, choice, clicked, done);
    const int cut = text.indexOf(QLatin1Char('\n'));
    m_title->setFullText(cut < 0 ? text : text.left(cut));
    m_detail->setFullText(cut < 0 ? QString() : text.mid(cut + 1));
    m_detail->setVisible(cut >= 0);
    xAxis->setVisible(!curve.empty());
    yAxis->setVisible(!curve.empty());
    legend->setVisible(!curve.empty());
    rescaleAxes();
    placeMarks(choice, done);
    replot(QCustomPlot::rpQueuedReplot);
}

void FdPlot::placeMarks(const FdChoice& choice, bool done)
{
    // Symmetric log padding on x, 5 % on y; the marked scales (the nearest-neighbour spacing,
    // the reach) are inside the range too: on shuttle the spacing lay off the left edge and
    // its line and label were drawn outside the axes.
    double lower = xAxis->range().lower;
    double upper = xAxis->range().upper;
    for (const double marked : {done ? choice.spacing : 0.0, done ? choice.reach : 0.0}) {
        if (marked > 0.0 && std::isfinite(marked)) {
            lower = std::min(lower, marked);
            upper = std::max(upper, marked);
        }
    }
    xAxis->setRange(lower / 1.5, upper * 1.5);
    yAxis->scaleRange(1.1, yAxis->range().center());
    // A label beside a line in the right part of the plot goes to its left, so it stays in.
    const auto alignBeside = [this](QCPItemText* label, double at, Qt::Alignment vertical) {
        const QCPRange r = xAxis->range();
        const double share = std::log(at / r.lower) / std::log(r.upper / r.lower);
        label->setPositionAlignment((share > 0.6 ? Qt::AlignRight : Qt::AlignLeft) | vertical);
        label->setTextAlignment(share > 0.6 ? Qt::AlignRight : Qt::AlignLeft);
    };
    const bool spacing = done && choice.spacing > 0.0;
    m_spacing->setVisible(spacing);
    m_spacingLabel->setVisible(spacing);
    m_excluded->setVisible(spacing && choice.spacingFloor);
    if (spacing) {
        m_spacing->point1->setCoords(choice.spacing, 0.0);
        m_spacing->point2->setCoords(choice.spacing, 1.0);
        m_spacingLabel->position->setCoords(choice.spacing, 0.0);
        m_spacingLabel->setText(
            choice.spacingFloor
                ? QStringLiteral("nearest-neighbour spacing %1:\nthe rule "
                                 "looks only to the right")
                      .arg(choice.spacing, 0, 'g', 3)
                : QStringLiteral("nearest-neighbour spacing %1").arg(choice.spacing, 0, 'g', 3));
        alignBeside(m_spacingLabel, choice.spacing, Qt::AlignTop);
        m_excluded->topLeft->setCoords(xAxis->range().lower / 10.0, 0.0);
        m_excluded->bottomRight->setCoords(choice.spacing, 1.0);
    }
    // The anomaly rule's second scale: the reach of a row's k nearest neighbours.
    const bool reach = done && choice.reach > 0.0 && choice.anomalyScales.size() > 1;
    m_reach->setVisible(reach);
    m_reachLabel->setVisible(reach);
    if (reach) {
        m_reach->point1->setCoords(choice.reach, 0.0);
        m_reach->point2->setCoords(choice.reach, 1.0);
        m_reachLabel->position->setCoords(choice.reach, 1.0);
        m_reachLabel->setText(QStringLiteral("reach of %1 neighbours ℓ = %2:\nthe scores' second "
                                             "scale")
                                  .arg(choice.reachNeighbours)
                                  .arg(choice.reach, 0, 'g', 3));
        alignBeside(m_reachLabel, choice.reach, Qt::AlignBottom);
    }
}

QRectF FdPlot::markLabelRect(bool reach) const
{
    const QCPItemText* label = reach ? m_reachLabel : m_spacingLabel;
    return QRectF(label->topLeft->pixelPosition(), label->bottomRight->pixelPosition())
        .normalized();
}

QString FdPlot::title() const
{
    return m_detail->visible() ? m_title->fullText() + QLatin1Char('\n') + m_detail->fullText()
                               : m_title->fullText();
}

QString FdPlot::headline() const
{
    return m_title->fullText();
}

QPointF FdPlot::pointPosition(int i) const
{
    const auto it = m_curve->data()->at(i);
    return {xAxis->coordToPixel(it->key), yAxis->coordToPixel(it->value)};
}

int FdPlot::pointNear(const QPointF& pos) const
{
    double best = 12.0;
    int index = -1;
    for (size_t i = 0; i < m_points.size() && int(i) < m_curve->dataCount(); ++i) {
        if (!std::isfinite(m_points[i].value)) {
            continue;
        }
        const QPointF p = pointPosition(int(i));
        const double d = std::hypot(p.x() - pos.x(), p.y() - pos.y());
        if (d < best) {
            best = d;
            index = int(i);
        }
    }
    return index;
}

QString FdPlot::readoutAt(const QPointF& pos) const
{
    const int i = pointNear(pos);
    if (i < 0) {
        return {};
    }
    const FdPoint& p = m_points[size_t(i)];
    QString text =
        QStringLiteral("ℓ = %1\nJ(ℓ) = %2").arg(p.lengthScale, 0, 'g', 5).arg(p.value, 0, 'g', 6);
    if (p.invalidPoints > 0) {
        text += QStringLiteral("\n%1 validation rows without a finite term").arg(p.invalidPoints);
    }
    return text + QStringLiteral("\nclick to refit at this ℓ");
}

void FdPlot::onHover(QMouseEvent* event)
{
    showHoverText(this, event->globalPosition().toPoint(), readoutAt(event->position()));
}

bool FdPlot::event(QEvent* event)
{
    // At rest the point's read-out stays; away from the points, the hint.
    return showReadoutAtRest(
               this, event, [this](const QPoint& at) { return readoutAt(at); },
               QStringLiteral("Click a point to refit there; the sweep stays for comparison")) ||
           QCustomPlot::event(event);
}

void FdPlot::onClick(QMouseEvent* event)
{
    const int index = pointNear(event->position());
    if (index >= 0) {
        emit lengthScaleClicked(m_points[size_t(index)].lengthScale);
    }
}

} // namespace sosrep::ui
