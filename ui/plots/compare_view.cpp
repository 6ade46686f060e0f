// SPDX-License-Identifier: MIT
// The Compare view: estimators side by side on the same data.
#include "ui/plots/compare_view.h"

#include "ui/controller/density_units.h"

#include "core/metrics/auc.h"
#include "core/tuning/rank_ensemble.h"
#include "ui/plots/density_heatmap.h"
#include "ui/plots/legend_placement.h"
#include "ui/plots/plot_style.h"

#include <QGridLayout>
#include <QLabel>

#include <algorithm>
#include <cmath>

namespace sosrep::ui {

CompareView::CompareView(QWidget* parent) : QWidget(parent)
{
    buildLayout();
    const auto [left, right] = buildClusterPanels();
    buildScatterPanel();
    addPanelLegends(left, right);
    clear(tr("Fit a model to compare it with a second estimator"));
    applyPlotStyle(m_clusters);
}

void CompareView::buildLayout()
{
    auto* grid = new QGridLayout(this);
    m_first = new DensityHeatmap(this);
    m_second = new DensityHeatmap(this);
    m_diff = new DensityHeatmap(this);
    m_diff->setColormap(QStringLiteral("RdBu"));
    for (DensityHeatmap* map : {m_first, m_second, m_diff}) {
        map->setEqualAspect(true);
        map->setTickCount(4); // narrow maps: labels that do not collide
    }
    // Colour scales under the maps, so the three maps get the width (at 1400 x 900 they were
    // under 200 px wide beside two vertical scales). The two models share one scale: the
    // second map shows it for both; the first keeps the room, so the maps match in height.
    m_first->placeColorScaleBelow(false);
    m_second->placeColorScaleBelow(true);
    m_diff->placeColorScaleBelow(true);
    m_clusters = new QCustomPlot(this);
    m_clusterInfo = new QLabel(this);
    m_clusterInfo->setWordWrap(true);
    m_mmdInfo = new QLabel(this);
    m_mmdInfo->setWordWrap(true);
    m_mmdInfo->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_scoreInfo = new QLabel(this);
    m_scoreInfo->setWordWrap(true);
    grid->addWidget(m_first, 0, 0);
    grid->addWidget(m_second, 0, 1);
    grid->addWidget(m_diff, 0, 2);
    grid->addWidget(m_mmdInfo, 1, 0, 1, 3);
    grid->addWidget(m_clusterInfo, 2, 0, 1, 3);
    grid->addWidget(m_scoreInfo, 3, 0, 1, 3);
    grid->addWidget(m_clusters, 4, 0, 1, 3);
    grid->setColumnStretch(0, 1);
    grid->setColumnStretch(1, 1);
    grid->setColumnStretch(2, 1);
    // The maps first: at 1280 x 720 a 3 : 2 share left them 155 px squares.
    grid->setRowStretch(0, 2);
    grid->setRowStretch(4, 1);
}

std::pair<QCPAxisRect*, QCPAxisRect*> CompareView::buildClusterPanels()
{
    // Two panels: (b) log densities by cluster, (a) kernel-value histograms.
    m_clusters->plotLayout()->clear();
    auto* left = new QCPAxisRect(m_clusters);
    auto* right = new QCPAxisRect(m_clusters);
    m_clusters->plotLayout()->addElement(0, 0, left);
    m_clusters->plotLayout()->addElement(0, 1, right);
    left->axis(QCPAxis::atBottom)
        ->setLabel(tr("rows ordered by cluster (cluster 1, then cluster 2)"));
    // Two lines: one did not fit the panel's height at 1280x720.
    left->axis(QCPAxis::atLeft)->setLabel(tr("log density −\nmean on cluster 1"));
    right->axis(QCPAxis::atBottom)->setLabel(tr("kernel value k(xᵢ, xⱼ) (unit diagonal)"));
    right->axis(QCPAxis::atLeft)->setLabel(tr("density of pairs\n(log scale)"));
    // Most pairs are far apart (kernel values near 0); a log axis shows the rest, which is where
    // the clusters differ (paper Fig. 4a).
    right->axis(QCPAxis::atLeft)->setScaleType(QCPAxis::stLogarithmic);
    right->axis(QCPAxis::atLeft)->setTicker(QSharedPointer<QCPAxisTickerLog>(new QCPAxisTickerLog));
    struct Series
    {
        QCPAxisRect* rect;
        QColor color;
        const char* name;
        bool dots;
    };
    // The second model first, so that the fitted one is drawn on top of it.
    const Series series[] = {{left, colors::kde(), "second (points)", true},
                             {left, colors::natural(), "first (points)", true},
                             {left, colors::kde(), "second, running mean", false},
                             {left, colors::natural(), "first, running mean", false},
                             {right, colors::natural(), "within cluster 1", false},
                             {right, colors::standard(), "within cluster 2", false},
                             {right, QColor(90, 90, 90), "between clusters", false}};
    for (const Series& s : series) {
        QCPGraph* g =
            m_clusters->addGraph(s.rect->axis(QCPAxis::atBottom), s.rect->axis(QCPAxis::atLeft));
        g->setName(QString::fromLatin1(s.name));
        if (s.dots) {
            QColor c = s.color;
            c.setAlpha(60);
            g->setLineStyle(QCPGraph::lsNone);
            g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, c, c, 3));
        } else {
            g->setPen(QPen(s.color, 2,
                           QString::fromLatin1(s.name).startsWith(QLatin1String("second"))
                               ? Qt::DashLine
                               : Qt::SolidLine));
            if (s.rect == right) {
                g->setLineStyle(QCPGraph::lsStepCenter);
            }
        }
    }
    return {left, right};
}

void CompareView::buildScatterPanel()
{
    // (c) per-row scores of the two models against each other.
    m_scatterRect = new QCPAxisRect(m_clusters);
    m_clusters->plotLayout()->addElement(0, 2, m_scatterRect);
    QCPAxis* sx = m_scatterRect->axis(QCPAxis::atBottom);
    QCPAxis* sy = m_scatterRect->axis(QCPAxis::atLeft);
    for (QCPAxis* a : {sx, sy}) {
        a->setRange(-3, 103);
    }
    m_scatterDiagonal = m_clusters->addGraph(sx, sy);
    m_scatterDiagonal->setPen(QPen(QColor(150, 150, 150), 1, Qt::DotLine));
    m_scatterDiagonal->setName(tr("same rank"));
    m_scatterNormal = m_clusters->addGraph(sx, sy);
    m_scatterNormal->setLineStyle(QCPGraph::lsNone);
    QColor grey(80, 80, 80, 90);
    m_scatterNormal->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, grey, grey, 3));
    m_scatterNormal->setName(tr("rows"));
    m_scatterAnomaly = m_clusters->addGraph(sx, sy);
    m_scatterAnomaly->setLineStyle(QCPGraph::lsNone);
    m_scatterAnomaly->setScatterStyle(
        QCPScatterStyle(QCPScatterStyle::ssCross, QPen(colors::anomaly(), 1.5), Qt::NoBrush, 6));
    m_scatterAnomaly->setName(tr("label 1 (anomaly)"));
}

void CompareView::addPanelLegends(QCPAxisRect* left, QCPAxisRect* right)
{
    for (QCPAxisRect* r : {left, right, m_scatterRect}) {
        auto* legend = new QCPLegend;
        // The scatter's top right holds the rows both models call anomalous: keep it clear.
        r->insetLayout()->addElement(legend, r == m_scatterRect ? Qt::AlignBottom | Qt::AlignRight
                                                                : Qt::AlignTop | Qt::AlignRight);
        legend->setLayer(QStringLiteral("legend"));
        if (r == m_scatterRect) {
            m_scatterLegend = legend;
        }
        for (int i = 0; i < m_clusters->graphCount(); ++i) {
            QCPGraph* g = m_clusters->graph(i);
            if (g->keyAxis()->axisRect() == r && !(r == left && i < 2) && g != m_scatterDiagonal) {
                legend->addItem(new QCPPlottableLegendItem(legend, g));
            }
        }
    }
}

namespace {

/// The difference map's colour span: the largest |log ratio| over the cells within 1e3 of
/// either density's peak (both tails are near -inf in log and would swamp it); 1 when flat.
double differenceSpan(const Matrix& first, const Matrix& second, const Matrix& difference)
{
    const double hi = std::max(first.maxCoeff(), second.maxCoeff());
    double span = 0.0;
    for (Eigen::Index k = 0; k < difference.size(); ++k) {
        if (std::max(first.data()[k], second.data()[k]) > hi - std::log(1e3)) {
            span = std::max(span, std::abs(difference.data()[k]));
        }
    }
    return span > 0 ? span : 1.0;
}

QString estimatorTitle(const FittedModel& m)
{
    return QString::fromStdString(m.estimator()).toUpper();
}

QString mmdNumber(const MmdResult& r)
{
    const char* how = r.method == MmdMethod::ClosedForm       ? "closed form"
                      : r.method == MmdMethod::GridQuadrature ? "grid quadrature"
                                                              : "Monte Carlo";
    return QStringLiteral("%1 (%2)").arg(r.mmd2, 0, 'g', 3).arg(QString::fromLatin1(how));
}

/// The MMD read-out as one paragraph (rich text).
QString mmdParagraph(const MmdReadout& m)
{
    if (!m.error.empty()) {
        return QObject::tr("MMD: %1").arg(QString::fromStdString(m.error).toHtmlEscaped());
    }
    QString skipped;
    for (const std::string& e : m.skipped) {
        skipped += QObject::tr(" %1 gives a normality score, not a density: no MMD.")
                       .arg(QString::fromStdString(e).toUpper());
    }
    if (m.entries.empty()) {
        return skipped.trimmed();
    }
    QStringList held, train;
    bool mmdFitted = false;
    bool negative = false;
    for (const MmdReadout::Entry& e : m.entries) {
        const QString name = QString::fromStdString(e.estimator).toUpper();
        held << QStringLiteral("<b>%1</b> %2").arg(name, mmdNumber(e.heldOut));
        train << QStringLiteral("%1 %2").arg(name, mmdNumber(e.training));
        mmdFitted = mmdFitted || e.estimator == "sos-mmd";
        negative = negative || e.heldOut.mmd2 < 0.0 || e.training.mmd2 < 0.0;
    }
    QString text =
        QObject::tr("MMD² to %1 held-out rows (each model refitted on the other 80 %, same ℓ; "
                    "Gaussian kernel h = %2, the median distance): %3. On the %4 rows the maps "
                    "were fitted on: %5.")
            .arg(m.heldOutRows)
            .arg(m.bandwidth, 0, 'g', 3)
            .arg(held.join(QStringLiteral(" · ")))
            .arg(m.trainingRows)
            .arg(train.join(QStringLiteral(" · ")));
    if (mmdFitted) {
        text += QObject::tr(" Training rows flatter a model fitted by minimizing MMD (kernel SoS): "
                            "compare on held-out rows.");
    }
    if (negative) {
        text += QObject::tr(" A value below 0 is no error: the estimate is unbiased, so it "
                            "scatters around the true MMD² (≥ 0), and below 0 the model and the "
                            "rows cannot be told apart at this sample size.");
    }
    return text + skipped;
}

} // namespace

QString CompareView::mmdText() const
{
    return m_mmdInfo->text();
}

QString CompareView::mmdParagraphOf(const MmdReadout& m)
{
    return mmdParagraph(m);
}

void CompareView::showClusterPanels(bool on)
{
    // The two cluster panels (graphs 0-6) give way to the score scatter beside them.
    for (int k = 0; k < 2; ++k) {
        QCPAxisRect* rect = m_clusters->axisRect(k);
        rect->setVisible(on);
        // Hidden, a rect still kept its margins and a share of the width: none of either.
        rect->setAutoMargins(on ? QCP::msAll : QCP::msNone);
        rect->setMargins(QMargins());
        rect->setMaximumSize(on ? QWIDGETSIZE_MAX : 0, QWIDGETSIZE_MAX);
        rect->setMinimumSize(0, 0);
        m_clusters->plotLayout()->setColumnStretchFactor(k, on ? 1.0 : 0.001);
    }
}

void CompareView::showClustersPending(const QString& description)
{
    m_clusterInfo->setText(tr("Cluster comparison, %1: computing…").arg(description));
}

QString CompareView::clusterText() const
{
    return m_clusterInfo->text();
}

QString CompareView::scoreText() const
{
    return m_scoreInfo->text();
}

int CompareView::scatterPoints() const
{
    return m_scatterNormal->dataCount() + m_scatterAnomaly->dataCount();
}

void CompareView::clear(const QString& message)
{
    m_mmdInfo->clear();
    m_scoreInfo->clear();
    m_first->clearContent(message);
    m_second->clearContent(QString());
    m_diff->clearContent(QString());
    for (int i = 0; i < m_clusters->graphCount(); ++i) {
        m_clusters->graph(i)->data()->clear();
    }
    for (int k = 0; k < m_clusters->axisRectCount(); ++k) {
        setAxisRectEmpty(m_clusters->axisRect(k), true);
    }
    m_clusterInfo->setText(
        tr("Cluster comparison (paper App. F.1): needs labels of both classes, or "
           "a rectangle picked on the Density tab (Pick cluster 2)."));
    m_clusters->replot();
}

void CompareView::showResult(const FitJobResult& r, const Matrix& features,
                             const std::optional<Eigen::VectorXi>& labels, const QStringList& names)
{
    if (!r.comparison) {
        clear(r.comparisonDeferred
                  ? tr("Computing the comparison with %1 (after the fit, on %2 rows)…")
                        .arg(QString::fromStdString(r.compareWith).toUpper())
                        .arg(r.fitRows)
                  : tr("No second estimator to compare with"));
        if (r.comparisonDeferred) {
            // Not "needs labels" while the second model is on its way (issue 50).
            m_clusterInfo->setText(tr("Cluster comparison (paper App. F.1): once the second "
                                      "model is computed…"));
        }
        return;
    }
    if (r.grid.logDensity.size() == 0 || r.comparisonGrid.logDensity.size() == 0) {
        clear(tr("One feature column: no 2-D comparison"));
        showScoreScatter(r, labels); // the rows still compare
        return;
    }
    showScoreScatter(r, labels);
    const QString first = estimatorTitle(r.model());
    const QString second = estimatorTitle(*r.comparison);
    m_mmdInfo->setText(mmdParagraph(r.mmd));
    // Two true densities (KDE, Gaussian SOSREP, ...) compare as they are; a pre-density is
    // normalized on the grid first, and then so is the other model, to share one scale. A
    // normality score (IForest, kNN) has no density scale at all: both maps then show each
    // model's percentile over the grid, which only the ranking (what a detector is) decides.
    const bool scores =
        r.model().kind() == DensityKind::Score || r.comparison->kind() == DensityKind::Score;
    m_scoreModel = !scores ? QString() : r.model().kind() == DensityKind::Score ? first : second;
    showClusterPanels(!scores);
    const bool normalized = r.model().kind() == DensityKind::Normalized &&
                            r.comparison->kind() == DensityKind::Normalized;
    const double area = r.grid.spec.cellArea();
    m_normFirst = r.grid;
    m_normSecond = r.comparisonGrid;
    if (scores) {
        showPercentiles(r, features, labels, names, first, second);
        return;
    }
    if (!normalized) {
        m_normFirst.logDensity = normalizeOnGrid(r.grid.logDensity, area);
        m_normSecond.logDensity = normalizeOnGrid(r.comparisonGrid.logDensity, area);
    }
    showDensities(r, features, labels, names, normalized);
}

void CompareView::showDensities(const FitJobResult& r, const Matrix& features,
                                const std::optional<Eigen::VectorXi>& labels,
                                const QStringList& names, bool normalized)
{
    const QString first = estimatorTitle(r.model());
    const QString second = estimatorTitle(*r.comparison);
    m_difference = m_normFirst;
    m_difference.logDensity = m_normFirst.logDensity - m_normSecond.logDensity;

    // One colour scale for both densities; the difference is symmetric around 0 and scaled on
    // the cells holding the mass (both tails are near -inf in log and would swamp it).
    const double hi =
        std::max(m_normFirst.logDensity.maxCoeff(), m_normSecond.logDensity.maxCoeff());
    const QCPRange shared(hi - 12.0, hi);
    const double span =
        differenceSpan(m_normFirst.logDensity, m_normSecond.logDensity, m_difference.logDensity);
    DensityHeatmap::Content c;
    c.points = features;
    c.labels = labels;
    c.xLabel = names.value(r.grid.spec.xColumn);
    c.yLabel = names.value(r.grid.spec.yColumn);
    c.colorRange = shared;
    c.legend = false; // three small maps: the Density tab carries the legend
    c.valueLabel = normalized ? logValueLabel(names, DensityKind::Normalized)
                              : tr("log density, normalized on the grid");
    c.grid = &m_normFirst;
    c.title =
        r.lengthScale() > 0 ? tr("%1, ℓ = %2").arg(first).arg(r.lengthScale(), 0, 'g', 4) : first;
    if (r.model().estimator() == "sos-mmd" && r.lengthScale() > 0) {
        // The paper's kernel is exp(-|x-y|^2 / sigma^2): sigma = l sqrt 2.
        c.title += tr(" (σ = ℓ√2 = %1)").arg(r.lengthScale() * std::sqrt(2.0), 0, 'g', 4);
    }
    m_first->showContent(c);
    c.grid = &m_normSecond;
    c.title = tr("%1, same kernel and ℓ").arg(second);
    m_second->showContent(c);
    c.grid = &m_difference;
    c.colorRange = QCPRange(-span, span);
    c.contours = false;
    // A one-line title: two lines ("Difference: red = SOSREP higher") made this map the
    // smallest of the three at 1280 x 720. The bar's caption and signs say which way is red.
    c.valueLabel = tr("log(p_%1 / p_%2)").arg(first, second);
    c.title = tr("Difference");
    m_diff->showContent(c);
}

void CompareView::showScoreScatter(const FitJobResult& r,
                                   const std::optional<Eigen::VectorXi>& labels)
{
    const Eigen::Index n = Eigen::Index(r.scatterRows.size());
    if (n < 2 || r.scatterComparison.size() != n || !r.scoresReady()) {
        return;
    }
    // Anomaly scores (minus the log value or the normality score), as percentiles of the rows.
    Vector first(n), second = -r.scatterComparison;
    Eigen::VectorXi label(n);
    for (Eigen::Index k = 0; k < n; ++k) {
        first(k) = -r.rowLogDensity(r.scatterRows[size_t(k)]);
        label(k) = labels ? (*labels)(r.scatterRows[size_t(k)]) : 0;
    }
    const Vector p1 = 100.0 * midRanks(first);
    const Vector p2 = 100.0 * midRanks(second);
    QVector<double> nx, ny, ax, ay;
    for (Eigen::Index k = 0; k < n; ++k) {
        (label(k) == 1 ? ax : nx) << p1(k);
        (label(k) == 1 ? ay : ny) << p2(k);
    }
    setAxisRectEmpty(m_scatterRect, false);
    m_scatterNormal->setData(nx, ny);
    m_scatterAnomaly->setData(ax, ay);
    // A legend names only what is drawn: no "label 1 (anomaly)" on unlabelled data.
    m_scatterAnomaly->removeFromLegend(m_scatterLegend);
    if (!ax.isEmpty()) {
        m_scatterAnomaly->addToLegend(m_scatterLegend);
    }
    m_scatterDiagonal->setData({0.0, 100.0}, {0.0, 100.0});
    const QString a = estimatorTitle(r.model());
    const QString b = estimatorTitle(*r.comparison);
    m_scatterRect->axis(QCPAxis::atBottom)->setLabel(tr("%1 anomaly percentile").arg(a));
    m_scatterRect->axis(QCPAxis::atLeft)->setLabel(tr("%1 anomaly\npercentile").arg(b));
    QString text = tr("Per-row scores (right): Spearman ρ = %1 between %2 and %3 on %4 rows%5")
                       .arg(spearman(first, second), 0, 'f', 3)
                       .arg(a, b)
                       .arg(n)
                       .arg(n < r.rowLogDensity.size() ? tr(" (a seeded sample)") : QString());
    const int anomalies = label.sum();
    if (labels && anomalies > 0 && anomalies < n) {
        text += tr("; AUC-ROC on these rows: %1 %2, %3 %4")
                    .arg(a)
                    .arg(aucRoc(first, label), 0, 'f', 4)
                    .arg(b)
                    .arg(aucRoc(second, label), 0, 'f', 4);
    }
    m_scoreInfo->setText(text + QLatin1Char('.'));
    placeInsetLegends(m_clusters); // replots
}

void CompareView::showPercentiles(const FitJobResult& r, const Matrix& features,
                                  const std::optional<Eigen::VectorXi>& labels,
                                  const QStringList& names, const QString& first,
                                  const QString& second)
{
    // Percentile of each cell among the grid's cells (mid-ranks: ties share), 100 = most normal.
    auto percentiles = [](const Matrix& v) {
        const Vector flat = Eigen::Map<const Vector>(v.data(), v.size());
        const Vector ranks = midRanks(flat);
        Matrix out(v.rows(), v.cols());
        for (Eigen::Index k = 0; k < v.size(); ++k) {
            out.data()[k] = 100.0 * ranks(k); // midRanks() is already a share in (0, 1)
        }
        return out;
    };
    m_normFirst.logDensity = percentiles(r.grid.logDensity);
    m_normSecond.logDensity = percentiles(r.comparisonGrid.logDensity);
    m_difference = m_normFirst;
    m_difference.logDensity = m_normFirst.logDensity - m_normSecond.logDensity;
    DensityHeatmap::Content c;
    c.points = features;
    c.labels = labels;
    c.xLabel = names.value(r.grid.spec.xColumn);
    c.yLabel = names.value(r.grid.spec.yColumn);
    c.colorRange = QCPRange(0.0, 100.0);
    c.legend = false;
    c.contours = false; // HDR contours belong to densities
    // Short enough for the colour bar at 1280 x 720 ("100 = most norma" was cut); the title
    // says the ranking is over the grid's cells.
    c.valueLabel = tr("percentile (100: most normal)");
    c.grid = &m_normFirst;
    c.title = tr("%1, ranked").arg(first);
    m_first->showContent(c);
    c.grid = &m_normSecond;
    c.title = r.comparison->kernelField()
                  ? tr("%1, ranked").arg(second)
                  : tr("%1 (normality score, no kernel), ranked").arg(second);
    m_second->showContent(c);
    c.grid = &m_difference;
    c.colorRange = QCPRange(-100.0, 100.0);
    c.valueLabel = tr("%1 − %2 percentile").arg(first, second);
    c.title = tr("Rank difference");
    m_diff->showContent(c);
}

void CompareView::setClusterValueRange(const ClusterComparison& c)
{
    QCPAxis* axis = m_clusters->axisRect(0)->axis(QCPAxis::atLeft);
    // y: the running means whole and the points' 1-99 % quantiles; on shuttle a few rows at
    // -5000 squeezed every other row onto one line. Points beyond are clipped, and said so.
    std::vector<double> points;
    double smoothLo = 1e300, smoothHi = -1e300;
    for (const auto* v : {&c.first, &c.second}) {
        points.insert(points.end(), v->begin(), v->end());
    }
    for (const auto* v : {&c.firstSmoothed, &c.secondSmoothed}) {
        for (double y : *v) {
            smoothLo = std::isfinite(y) ? std::min(smoothLo, y) : smoothLo;
            smoothHi = std::isfinite(y) ? std::max(smoothHi, y) : smoothHi;
        }
    }
    points.erase(
        std::remove_if(points.begin(), points.end(), [](double y) { return !std::isfinite(y); }),
        points.end());
    if (!points.empty()) {
        std::sort(points.begin(), points.end());
        const auto quantile = [&](double q) {
            return points[std::min(points.size() - 1, size_t(q * double(points.size() - 1)))];
        };
        const double yLo = std::min(quantile(0.01), smoothLo);
        const double yHi = std::max(quantile(0.99), smoothHi);
        const double pad = 0.08 * std::max(yHi - yLo, 1e-9);
        axis->setRange(yLo - pad, yHi + pad);
        const bool clipped = points.front() < yLo - pad || points.back() > yHi + pad;
        axis->setLabel(clipped ? tr("log density −\nmean on cluster 1\n(1–99 %; beyond "
                                    "clipped)")
                               : tr("log density −\nmean on cluster 1"));
    }
}

void CompareView::showClusters(const ClusterComparison& c, const QString& description)
{
    const bool drawn = m_scoreModel.isEmpty();
    showClusterPanels(drawn);
    for (int k = 0; k < 2; ++k) {
        setAxisRectEmpty(m_clusters->axisRect(k), !drawn);
    }
    if (!drawn) {
        for (int i = 0; i < 7; ++i) {
            m_clusters->graph(i)->data()->clear();
        }
        m_clusters->replot();
        m_clusterInfo->setText(
            tr("Cluster comparison, %1: not drawn. %2 gives a normality score, not a density: "
               "a log-density gap between clusters means nothing for it (the maps above compare "
               "the two by rank).")
                .arg(description, m_scoreModel));
        return;
    }
    QVector<double> x(int(c.first.size()));
    std::iota(x.begin(), x.end(), 0.0);
    auto vec = [](const std::vector<double>& v) { return QVector<double>(v.begin(), v.end()); };
    const QString first = QString::fromStdString(c.firstEstimator).toUpper();
    const QString second = QString::fromStdString(c.secondEstimator).toUpper();
    m_clusters->graph(0)->setData(x, vec(c.second), true);
    m_clusters->graph(1)->setData(x, vec(c.first), true);
    m_clusters->graph(2)->setData(x, vec(c.secondSmoothed), true);
    m_clusters->graph(3)->setData(x, vec(c.firstSmoothed), true);
    m_clusters->graph(0)->setName(tr("%1 (points)").arg(second));
    m_clusters->graph(1)->setName(tr("%1 (points)").arg(first));
    m_clusters->graph(2)->setName(tr("%1, running mean").arg(second));
    m_clusters->graph(3)->setName(tr("%1, running mean").arg(first));
    // Histograms as densities over shared bins, so clusters of different size compare.
    double lo = 1e300, hi = -1e300;
    for (const auto* v : {&c.within1, &c.within2, &c.between}) {
        for (double k : *v) {
            lo = std::min(lo, k);
            hi = std::max(hi, k);
        }
    }
    const int bins = 40;
    const double width = hi > lo ? (hi - lo) / bins : 1.0;
    QVector<double> centres(bins);
    for (int b = 0; b < bins; ++b) {
        centres[b] = lo + (b + 0.5) * width;
    }
    int g = 4;
    for (const auto* v : {&c.within1, &c.within2, &c.between}) {
        std::vector<double> h = histogram(*v, lo, hi, bins);
        for (double& count : h) {
            count /= std::max<size_t>(1, v->size()) * width;
        }
        m_clusters->graph(g++)->setData(centres, vec(h), true);
    }
    auto* left = m_clusters->axisRect(0);
    left->axis(QCPAxis::atBottom)->setRange(0, std::max<double>(1.0, double(c.first.size())));
    setClusterValueRange(c);
    m_clusters->graph(4)->rescaleAxes(false);
    m_clusters->graph(5)->rescaleAxes(true);
    m_clusters->graph(6)->rescaleAxes(true);
    // The paper's statement (Prop. 9) is about SOSREP against KDE; other pairs get the numbers.
    const bool paperPair = (first == QLatin1String("SOSREP") && second == QLatin1String("KDE")) ||
                           (first == QLatin1String("KDE") && second == QLatin1String("SOSREP"));
    m_clusterInfo->setText(
        tr("Cluster comparison, %1: %2 rows in cluster 1, %3 in cluster 2. Mean log-density "
           "gap (cluster 2 − cluster 1): %4 %5, %6 %7.")
            .arg(description)
            .arg(c.cluster1Size)
            .arg(int(c.first.size()) - c.cluster1Size)
            .arg(first)
            .arg(c.firstGap, 0, 'f', 3)
            .arg(second)
            .arg(c.secondGap, 0, 'f', 3) +
        (paperPair ? tr(" SOSREP separates clusters more than KDE when kernels overlap between "
                        "them (paper Prop. 9).")
                   : QString()));
    placeInsetLegends(m_clusters); // replots
}

} // namespace sosrep::ui
