// SPDX-License-Identifier: MIT
#include "ui/plots/compare_view.h"

#include "ui/plots/density_heatmap.h"
#include "ui/plots/plot_style.h"

#include <QGridLayout>
#include <QLabel>

#include <algorithm>
#include <cmath>

namespace sosrep::ui {

CompareView::CompareView(QWidget* parent) : QWidget(parent)
{
    auto* grid = new QGridLayout(this);
    m_sosrep = new DensityHeatmap(this);
    m_kde = new DensityHeatmap(this);
    m_diff = new DensityHeatmap(this);
    m_diff->setColormap(QStringLiteral("RdBu"));
    m_clusters = new QCustomPlot(this);
    m_clusterInfo = new QLabel(this);
    m_clusterInfo->setWordWrap(true);
    grid->addWidget(m_sosrep, 0, 0);
    grid->addWidget(m_kde, 0, 1);
    grid->addWidget(m_diff, 0, 2);
    grid->addWidget(m_clusterInfo, 1, 0, 1, 3);
    grid->addWidget(m_clusters, 2, 0, 1, 3);
    grid->setRowStretch(0, 3);
    grid->setRowStretch(2, 2);

    // Two panels: (b) log densities by cluster, (a) kernel-value histograms.
    m_clusters->plotLayout()->clear();
    auto* left = new QCPAxisRect(m_clusters);
    auto* right = new QCPAxisRect(m_clusters);
    m_clusters->plotLayout()->addElement(0, 0, left);
    m_clusters->plotLayout()->addElement(0, 1, right);
    left->axis(QCPAxis::atBottom)
        ->setLabel(tr("rows ordered by cluster (cluster 1, then cluster 2)"));
    left->axis(QCPAxis::atLeft)->setLabel(tr("log density − mean on cluster 1"));
    right->axis(QCPAxis::atBottom)->setLabel(tr("kernel value k(xᵢ, xⱼ) (unit diagonal)"));
    right->axis(QCPAxis::atLeft)->setLabel(tr("density of pairs (log scale)"));
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
    // KDE first so that SOSREP is drawn on top of it.
    const Series series[] = {{left, colors::kde(), "KDE (points)", true},
                             {left, colors::natural(), "SOSREP (points)", true},
                             {left, colors::kde(), "KDE, running mean", false},
                             {left, colors::natural(), "SOSREP, running mean", false},
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
                           QString::fromLatin1(s.name).startsWith(QLatin1String("KDE"))
                               ? Qt::DashLine
                               : Qt::SolidLine));
            if (s.rect == right) {
                g->setLineStyle(QCPGraph::lsStepCenter);
            }
        }
    }
    for (QCPAxisRect* r : {left, right}) {
        auto* legend = new QCPLegend;
        r->insetLayout()->addElement(legend, Qt::AlignTop | Qt::AlignRight);
        legend->setLayer(QStringLiteral("legend"));
        legend->setFont(QFont(font().family(), 8));
        for (int i = 0; i < m_clusters->graphCount(); ++i) {
            QCPGraph* g = m_clusters->graph(i);
            if (g->keyAxis()->axisRect() == r && !(r == left && i < 2)) {
                legend->addItem(new QCPPlottableLegendItem(legend, g));
            }
        }
    }
    clear(tr("Fit a model to compare SOSREP with KDE"));
}

void CompareView::clear(const QString& message)
{
    m_sosrep->clearContent(message);
    m_kde->clearContent(QString());
    m_diff->clearContent(QString());
    for (int i = 0; i < m_clusters->graphCount(); ++i) {
        m_clusters->graph(i)->data()->clear();
    }
    m_clusterInfo->setText(
        tr("Cluster comparison (paper App. F.1): needs labels of both classes, or "
           "a rectangle picked on the Density tab (Pick cluster 2)."));
    m_clusters->replot();
}

void CompareView::showResult(const FitJobResult& r, const Matrix& features,
                             const std::optional<Eigen::VectorXi>& labels, const QStringList& names)
{
    if (r.sosrepGrid.logDensity.size() == 0) {
        clear(tr("One feature column: no 2-D comparison"));
        return;
    }
    const double area = r.sosrepGrid.spec.cellArea();
    m_normSosrep = r.sosrepGrid;
    m_normSosrep.logDensity = normalizeOnGrid(r.sosrepGrid.logDensity, area);
    m_normKde = r.kdeGrid;
    m_normKde.logDensity = normalizeOnGrid(r.kdeGrid.logDensity, area);
    m_difference = m_normSosrep;
    m_difference.logDensity = m_normSosrep.logDensity - m_normKde.logDensity;

    // One colour scale for both densities; the difference is symmetric around 0 and scaled on
    // the cells holding the mass (both tails are near -inf in log and would swamp it).
    const double hi = std::max(m_normSosrep.logDensity.maxCoeff(), m_normKde.logDensity.maxCoeff());
    const QCPRange shared(hi - 12.0, hi);
    double span = 0.0;
    for (Eigen::Index k = 0; k < m_difference.logDensity.size(); ++k) {
        if (std::max(m_normSosrep.logDensity.data()[k], m_normKde.logDensity.data()[k]) >
            hi - std::log(1e3)) {
            span = std::max(span, std::abs(m_difference.logDensity.data()[k]));
        }
    }
    span = span > 0 ? span : 1.0;
    DensityHeatmap::Content c;
    c.points = features;
    c.labels = labels;
    c.xLabel = names.value(r.sosrepGrid.spec.xColumn);
    c.yLabel = names.value(r.sosrepGrid.spec.yColumn);
    c.colorRange = shared;
    c.legend = false; // three small maps: the Density tab carries the legend
    c.valueLabel = tr("log density, normalized on the grid");
    c.grid = &m_normSosrep;
    c.title = tr("SOSREP (natural), ℓ = %1").arg(r.lengthScale, 0, 'g', 4);
    m_sosrep->showContent(c);
    c.grid = &m_normKde;
    c.title = tr("KDE, same kernel and ℓ");
    m_kde->showContent(c);
    c.grid = &m_difference;
    c.colorRange = QCPRange(-span, span);
    c.contours = false;
    c.valueLabel = tr("log(p_SOSREP / p_KDE)");
    c.title = tr("Difference: red = SOSREP higher");
    m_diff->showContent(c);
}

void CompareView::showClusters(const ClusterComparison& c, const QString& description)
{
    QVector<double> x(int(c.sosrep.size()));
    std::iota(x.begin(), x.end(), 0.0);
    auto vec = [](const std::vector<double>& v) { return QVector<double>(v.begin(), v.end()); };
    m_clusters->graph(0)->setData(x, vec(c.kde), true);
    m_clusters->graph(1)->setData(x, vec(c.sosrep), true);
    m_clusters->graph(2)->setData(x, vec(c.kdeSmoothed), true);
    m_clusters->graph(3)->setData(x, vec(c.sosrepSmoothed), true);
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
    left->axis(QCPAxis::atBottom)->setRange(0, std::max<double>(1.0, double(c.sosrep.size())));
    m_clusters->graph(0)->rescaleValueAxis(false, false);
    m_clusters->graph(1)->rescaleValueAxis(true, false);
    m_clusters->graph(4)->rescaleAxes(false);
    m_clusters->graph(5)->rescaleAxes(true);
    m_clusters->graph(6)->rescaleAxes(true);
    m_clusterInfo->setText(
        tr("Cluster comparison, %1: %2 rows in cluster 1, %3 in cluster 2. Mean log-density "
           "gap (cluster 2 − cluster 1): SOSREP %4, KDE %5. SOSREP separates clusters more "
           "when kernels overlap between them (paper Prop. 9).")
            .arg(description)
            .arg(c.cluster1Size)
            .arg(int(c.sosrep.size()) - c.cluster1Size)
            .arg(c.sosrepGap, 0, 'f', 3)
            .arg(c.kdeGap, 0, 'f', 3));
    m_clusters->replot();
}

} // namespace sosrep::ui
