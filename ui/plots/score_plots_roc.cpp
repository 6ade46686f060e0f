// SPDX-License-Identifier: MIT
// The Scores view's ROC panel beyond this model's curve: other models' curves with their
// AUCs (Orange's ROC Analysis), and a cut-off chosen by a click on the curve.
#include "core/metrics/auc.h"
#include "ui/plots/plot_style.h"
#include "ui/plots/score_plots.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace sosrep::ui {

namespace {

bool twoClasses(const std::optional<Eigen::VectorXi>& labels)
{
    return labels && labels->size() > 0 && labels->sum() > 0 && labels->sum() < labels->size();
}

} // namespace

void ScorePlots::setOtherRocs(const std::vector<std::pair<QString, Vector>>& anomalyScores,
                              const QString& modelName)
{
    for (QCPGraph* g : m_otherRocs) {
        removeGraph(g);
    }
    m_otherRocs.clear();
    m_rocLegend->clearItems();
    const bool drawn = twoClasses(m_labels) && m_roc->visible();
    if (!drawn || anomalyScores.empty()) {
        m_rocLegend->setVisible(false);
        replot(rpQueuedReplot);
        return;
    }
    auto q = [](const std::vector<double>& v) { return QVector<double>(v.begin(), v.end()); };
    m_roc->setName(tr("%1: AUC-ROC %2").arg(modelName).arg(aucRoc(m_scores, *m_labels), 0, 'f', 4));
    m_rocLegend->addItem(new QCPPlottableLegendItem(m_rocLegend, m_roc));
    int k = 0;
    for (const auto& [name, scores] : anomalyScores) {
        if (scores.size() != m_scores.size()) {
            continue;
        }
        QCPGraph* g =
            addGraph(m_rocRect->axis(QCPAxis::atBottom), m_rocRect->axis(QCPAxis::atLeft));
        g->removeFromLegend(m_histLegend); // the ROC panel's own legend below
        const RocCurve roc = rocCurve(scores, *m_labels);
        g->setData(q(roc.fpr), q(roc.tpr), true);
        // Dashed in the hue palette (skipping its blue, this model's): told apart without colour.
        g->setPen(
            QPen(colors::hueClass(k == 4 ? 5 : k), 2, k % 2 == 0 ? Qt::DashLine : Qt::DashDotLine));
        g->setName(tr("%1: AUC-ROC %2").arg(name).arg(aucRoc(scores, *m_labels), 0, 'f', 4));
        m_rocLegend->addItem(new QCPPlottableLegendItem(m_rocLegend, g));
        m_otherRocs.push_back(g);
        ++k;
    }
    m_rocLegend->setVisible(true);
    replot(rpQueuedReplot);
}

QStringList ScorePlots::rocLegendNames() const
{
    QStringList names;
    for (int i = 0; m_rocLegend->visible() && i < m_rocLegend->itemCount(); ++i) {
        if (auto* item = qobject_cast<QCPPlottableLegendItem*>(m_rocLegend->item(i))) {
            names << item->plottable()->name();
        }
    }
    return names;
}

int ScorePlots::rocCurveCount() const
{
    return (m_roc->visible() ? 1 : 0) + int(m_otherRocs.size());
}

std::optional<QPointF> ScorePlots::rocPointOf(double anomalyScore) const
{
    if (!twoClasses(m_labels) || m_scores.size() != m_labels->size()) {
        return std::nullopt;
    }
    double tp = 0.0;
    double fp = 0.0;
    for (Eigen::Index i = 0; i < m_scores.size(); ++i) {
        if (m_scores(i) > anomalyScore) {
            ((*m_labels)(i) != 0 ? tp : fp) += 1.0;
        }
    }
    const double positives = double(m_labels->sum());
    return QPointF(fp / (double(m_labels->size()) - positives), tp / positives);
}

std::optional<double> ScorePlots::cutoffNear(double fpr, double tpr) const
{
    if (!twoClasses(m_labels) || m_scores.size() != m_labels->size()) {
        return std::nullopt;
    }
    std::vector<Eigen::Index> order(size_t(m_scores.size()));
    std::iota(order.begin(), order.end(), Eigen::Index(0));
    std::sort(order.begin(), order.end(),
              [this](Eigen::Index a, Eigen::Index b) { return m_scores(a) > m_scores(b); });
    const double positives = double(m_labels->sum());
    const double negatives = double(m_labels->size()) - positives;
    // Flagging nothing: a cut-off above the highest score.
    double best = std::hypot(fpr, tpr);
    double cutoff = m_scores(order.front()) + 1.0;
    double tp = 0.0;
    double fp = 0.0;
    for (size_t k = 0; k < order.size(); ++k) {
        ((*m_labels)(order[k]) != 0 ? tp : fp) += 1.0;
        const double here = m_scores(order[k]);
        if (k + 1 < order.size() && m_scores(order[k + 1]) == here) {
            continue; // ties are flagged together
        }
        const double d = std::hypot(fp / negatives - fpr, tp / positives - tpr);
        if (d < best) {
            best = d;
            // Halfway to the next lower score; below the lowest when every row is flagged.
            cutoff = k + 1 < order.size() ? 0.5 * (here + m_scores(order[k + 1])) : here - 1.0;
        }
    }
    return cutoff;
}

void ScorePlots::rocClicked(QMouseEvent* event)
{
    if (!m_roc->visible() || !m_rocRect->rect().contains(event->pos()) ||
        event->button() != Qt::LeftButton) {
        return;
    }
    const double fpr = m_rocRect->axis(QCPAxis::atBottom)->pixelToCoord(event->pos().x());
    const double tpr = m_rocRect->axis(QCPAxis::atLeft)->pixelToCoord(event->pos().y());
    if (const std::optional<double> c = cutoffNear(fpr, tpr)) {
        emit rocCutoffChosen(*c);
    }
}

void ScorePlots::showRocPoint()
{
    const std::optional<QPointF> p =
        m_thresholdValue && m_roc->visible() ? rocPointOf(*m_thresholdValue) : std::nullopt;
    m_rocPoint->setVisible(p.has_value());
    if (p) {
        m_rocPoint->setData(QVector<double>{p->x()}, QVector<double>{p->y()});
    }
}

} // namespace sosrep::ui
