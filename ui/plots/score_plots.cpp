// SPDX-License-Identifier: MIT
// The Scores view's histogram and ROC curve, with the threshold.
#include "ui/plots/score_plots.h"

#include "core/estimators/cluster_comparison.h"
#include "core/metrics/auc.h"
#include "ui/plots/fitted_title.h"
#include "ui/plots/plot_style.h"

#include <algorithm>
#include <cmath>

namespace sosrep::ui {

ScorePlots::ScorePlots(QWidget* parent) : QCustomPlot(parent)
{
    plotLayout()->clear();
    m_histRect = new QCPAxisRect(this);
    m_rocRect = new QCPAxisRect(this);
    m_rocTitle = new FittedTitle(this, QFont(font().family(), 9, QFont::Bold), 0.5);
    plotLayout()->addElement(0, 1, m_rocTitle);
    m_histTitle = new FittedTitle(this, QFont(font().family(), 9, QFont::Bold), 0.5);
    plotLayout()->addElement(0, 0, m_histTitle);
    plotLayout()->addElement(1, 0, m_histRect);
    plotLayout()->addElement(1, 1, m_rocRect);
    m_histRect->axis(QCPAxis::atBottom)->setLabel(tr("anomaly score"));
    m_histRect->axis(QCPAxis::atLeft)->setLabel(tr("share of the class's rows per bin"));
    m_rocRect->axis(QCPAxis::atBottom)->setLabel(tr("false positive rate"));
    m_rocRect->axis(QCPAxis::atLeft)->setLabel(tr("true positive rate"));
    // Padded: a perfect ROC and the chance line would lie on the frame.
    m_rocRect->axis(QCPAxis::atBottom)->setRange(-0.02, 1.02);
    m_rocRect->axis(QCPAxis::atLeft)->setRange(-0.02, 1.02);

    m_histAll = addGraph(m_histRect->axis(QCPAxis::atBottom), m_histRect->axis(QCPAxis::atLeft));
    m_histAll->setLineStyle(QCPGraph::lsStepCenter);
    m_histAll->setPen(QPen(colors::natural(), 2));
    m_histAll->setBrush(QColor(0, 114, 178, 40));
    m_histAll->setName(tr("label 0 / all rows"));
    m_histAnomalies =
        addGraph(m_histRect->axis(QCPAxis::atBottom), m_histRect->axis(QCPAxis::atLeft));
    m_histAnomalies->setLineStyle(QCPGraph::lsStepCenter);
    m_histAnomalies->setPen(QPen(colors::anomaly(), 2));
    m_histAnomalies->setBrush(QColor(230, 30, 30, 40));
    m_histAnomalies->setName(tr("label 1 (anomaly)"));
    m_histFitted = addGraph(m_histRect->axis(QCPAxis::atBottom), m_histRect->axis(QCPAxis::atLeft));
    m_histFitted->setLineStyle(QCPGraph::lsStepCenter);
    m_histFitted->setPen(QPen(Qt::black, 1.5, Qt::DotLine));
    m_roc = addGraph(m_rocRect->axis(QCPAxis::atBottom), m_rocRect->axis(QCPAxis::atLeft));
    m_roc->setPen(QPen(colors::natural(), 2));
    m_roc->setName(tr("ROC"));
    m_chance = addGraph(m_rocRect->axis(QCPAxis::atBottom), m_rocRect->axis(QCPAxis::atLeft));
    m_chance->setPen(QPen(Qt::gray, 1, Qt::DashLine));
    m_chance->setData(QVector<double>{0, 1}, QVector<double>{0, 1});
    m_chance->setName(tr("chance"));
    m_histLegend = new QCPLegend;
    m_histRect->insetLayout()->addElement(m_histLegend, Qt::AlignTop | Qt::AlignRight);
    m_histLegend->setLayer(QStringLiteral("legend"));
    m_threshold = new QCPItemStraightLine(this);
    m_threshold->setClipAxisRect(m_histRect);
    for (QCPItemPosition* p : {m_threshold->point1, m_threshold->point2}) {
        p->setAxes(m_histRect->axis(QCPAxis::atBottom), m_histRect->axis(QCPAxis::atLeft));
    }
    m_threshold->setPen(QPen(QColor(0xc0, 0x39, 0x2b), 1.5, Qt::DashLine));
    m_threshold->setVisible(false);
    m_rocPoint = addGraph(m_rocRect->axis(QCPAxis::atBottom), m_rocRect->axis(QCPAxis::atLeft));
    m_rocPoint->setLineStyle(QCPGraph::lsNone);
    m_rocPoint->setScatterStyle(
        QCPScatterStyle(QCPScatterStyle::ssCircle, QColor(0xc0, 0x39, 0x2b), Qt::white, 9));
    m_rocPoint->setName(tr("the threshold"));
    m_rocPoint->removeFromLegend(m_histLegend); // the ROC panel's: not the histogram's legend
    m_rocLegend = new QCPLegend;
    m_rocRect->insetLayout()->addElement(m_rocLegend, Qt::AlignBottom | Qt::AlignRight);
    m_rocLegend->setLayer(QStringLiteral("legend"));
    m_rocLegend->setVisible(false);
    connect(this, &QCustomPlot::mousePress, this, &ScorePlots::rocClicked);
    clearScores();
    applyPlotStyle(this);
}

void ScorePlots::clearScores(const QString& note)
{
    for (QCPGraph* g : {m_histAll, m_histAnomalies, m_histFitted, m_roc, m_rocPoint}) {
        g->data()->clear();
        g->setVisible(false);
    }
    m_scores = Vector();
    m_labels.reset();
    setOtherRocs({}, QString());
    m_chance->setVisible(false);
    setThreshold(std::nullopt);
    setAxisRectEmpty(m_histRect, true);
    setAxisRectEmpty(m_rocRect, true);
    m_histTitle->setFullText(note.isEmpty() ? tr("Anomaly scores: fit a model first") : note);
    // No scores yet: while the rows are being scored (a note says so) the ROC waits for them;
    // it never claims the labels are missing when they were not looked at.
    m_rocTitle->setFullText(note.isEmpty() ? tr("ROC: fit a model (labels of both classes draw it)")
                                           : tr("ROC: no row scores yet"));
    replot(rpQueuedReplot);
}

void ScorePlots::setThreshold(std::optional<double> anomalyScore)
{
    m_thresholdValue = anomalyScore;
    m_threshold->setVisible(anomalyScore.has_value());
    if (anomalyScore) {
        m_threshold->point1->setCoords(*anomalyScore, 0.0);
        m_threshold->point2->setCoords(*anomalyScore, 1.0);
    }
    showRocPoint();
    replot(rpQueuedReplot);
}

QString ScorePlots::histogramTitle() const
{
    return m_histTitle->fullText();
}

QString ScorePlots::rocTitle() const
{
    return m_rocTitle->fullText();
}

QCPRange ScorePlots::histogramRange() const
{
    return m_histRect->axis(QCPAxis::atBottom)->range();
}

namespace {

/// The histogram's x range: every score, or the central 99 % when heavy tails (a few rows at
/// -log p = 2e4 on shuttle) would put every other row in one bin; `beyond` counts the rest,
/// which the edge bins hold.
struct ScoreRange
{
    double lo = 0.0;
    double hi = 0.0;
    bool clipped = false;
    int beyond = 0;
};

ScoreRange scoreRange(const Vector& scores)
{
    std::vector<double> sorted(scores.data(), scores.data() + scores.size());
    std::sort(sorted.begin(), sorted.end());
    const auto quantile = [&sorted](double q) {
        return sorted[size_t(std::lround(q * double(sorted.size() - 1)))];
    };
    ScoreRange r{sorted.front(), sorted.back(), false, 0};
    const double qlo = quantile(0.005);
    const double qhi = quantile(0.995);
    r.clipped = sorted.size() >= 200 && qhi > qlo && (r.hi - r.lo) > 1.5 * (qhi - qlo);
    if (r.clipped) {
        r.lo = qlo;
        r.hi = qhi;
        for (double v : sorted) {
            r.beyond += (v < r.lo || v > r.hi) ? 1 : 0;
        }
    }
    return r;
}

} // namespace

void ScorePlots::setScores(const Vector& scores, const std::optional<Eigen::VectorXi>& labels,
                           bool normality, const std::vector<Eigen::Index>& fitRows)
{
    if (scores.size() == 0) {
        clearScores();
        return;
    }
    m_scores = scores;
    m_labels = labels;
    setAxisRectEmpty(m_histRect, false);
    std::vector<double> normal, anomalous, fitted;
    for (Eigen::Index i = 0; i < scores.size(); ++i) {
        (labels && (*labels)(i) != 0 ? anomalous : normal).push_back(scores(i));
    }
    for (Eigen::Index i : fitRows) {
        fitted.push_back(scores(i));
    }
    const ScoreRange range = scoreRange(scores);
    const int bins = 50;
    const double width = range.hi > range.lo ? (range.hi - range.lo) / bins : 1.0;
    QVector<double> centres(bins);
    for (int b = 0; b < bins; ++b) {
        centres[b] = range.lo + (b + 0.5) * width;
    }
    // Each class as shares of its own rows, so both classes read on one axis.
    auto shares = [&](const std::vector<double>& v) {
        std::vector<double> h = histogram(v, range.lo, range.hi, bins);
        for (double& c : h) {
            c /= std::max<double>(1.0, double(v.size()));
        }
        return QVector<double>(h.begin(), h.end());
    };
    const bool twoClasses = !normal.empty() && !anomalous.empty();
    m_histAll->setData(centres, shares(normal), true);
    m_histAll->setName(twoClasses ? tr("normal rows, label 0 (%1)").arg(normal.size())
                                  : tr("all rows (%1)").arg(normal.size() + anomalous.size()));
    m_histAll->setVisible(true);
    m_histAnomalies->setData(centres, shares(anomalous), true);
    m_histAnomalies->setName(tr("anomalies, label 1 (%1)").arg(anomalous.size()));
    m_histAnomalies->setVisible(!anomalous.empty());
    m_histFitted->setData(centres, shares(fitted), true);
    m_histFitted->setName(tr("rows fitted on (seeded subsample, %1)").arg(fitted.size()));
    m_histFitted->setVisible(!fitted.empty());
    m_histRect->axis(QCPAxis::atBottom)->setRange(range.lo - width, range.hi + width);
    syncHistogramLegendAndRange();
    const QString what =
        normality ? tr("Anomaly scores (−normality score)") : tr("Anomaly scores (−log p)");
    m_histTitle->setFullText(
        range.clipped
            ? tr("%1; x clipped to the 0.5–99.5 % quantiles, %2 rows beyond counted in the edge "
                 "bins")
                  .arg(what)
                  .arg(range.beyond)
            : what);
    showRoc(scores, labels, twoClasses);
    replot();
}

void ScorePlots::syncHistogramLegendAndRange()
{
    double top = 0.0;
    for (QCPGraph* g : {m_histAll, m_histAnomalies, m_histFitted}) {
        // A hidden legend item keeps its row: add and remove instead.
        if (g->visible() && !m_histLegend->hasItemWithPlottable(g)) {
            m_histLegend->addItem(new QCPPlottableLegendItem(m_histLegend, g));
        } else if (!g->visible()) {
            g->removeFromLegend(m_histLegend);
        }
        bool found = false;
        const QCPRange r = g->visible() ? g->getValueRange(found) : QCPRange();
        top = found ? std::max(top, r.upper) : top;
    }
    // Headroom for the legend above the tallest bar.
    m_histRect->axis(QCPAxis::atLeft)->setRange(0, std::max(top, 1e-3) * 1.5);
}

void ScorePlots::showRoc(const Vector& scores, const std::optional<Eigen::VectorXi>& labels,
                         bool twoClasses)
{
    if (!twoClasses) {
        m_roc->data()->clear();
        m_chance->setVisible(false);
        setAxisRectEmpty(m_rocRect, true); // nothing to draw: no axes pretending otherwise
        m_rocTitle->setFullText(tr("ROC: needs labels of both classes"));
        return;
    }
    auto q = [](const std::vector<double>& v) { return QVector<double>(v.begin(), v.end()); };
    const RocCurve roc = rocCurve(scores, *labels);
    m_roc->setData(q(roc.fpr), q(roc.tpr), true);
    m_rocTitle->setFullText(tr("ROC: AUC-ROC %1, AUC-PR %2")
                                .arg(aucRoc(scores, *labels), 0, 'f', 4)
                                .arg(aucPr(scores, *labels), 0, 'f', 4));
    m_roc->setVisible(true);
    m_chance->setVisible(true);
    setAxisRectEmpty(m_rocRect, false);
    showRocPoint();
}

} // namespace sosrep::ui
