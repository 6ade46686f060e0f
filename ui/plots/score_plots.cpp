// SPDX-License-Identifier: MIT
#include "ui/plots/score_plots.h"

#include "core/estimators/cluster_comparison.h"
#include "core/metrics/auc.h"
#include "ui/plots/plot_style.h"

namespace sosrep::ui {

ScorePlots::ScorePlots(QWidget* parent) : QCustomPlot(parent)
{
    plotLayout()->clear();
    m_histRect = new QCPAxisRect(this);
    m_rocRect = new QCPAxisRect(this);
    m_rocTitle = new QCPTextElement(this, QString(), QFont(font().family(), 9, QFont::Bold));
    plotLayout()->addElement(0, 1, m_rocTitle);
    m_histTitle = new QCPTextElement(this, tr("Anomaly scores (−log p)"),
                                     QFont(font().family(), 9, QFont::Bold));
    plotLayout()->addElement(0, 0, m_histTitle);
    plotLayout()->addElement(1, 0, m_histRect);
    plotLayout()->addElement(1, 1, m_rocRect);
    m_histRect->axis(QCPAxis::atBottom)->setLabel(tr("anomaly score"));
    m_histRect->axis(QCPAxis::atLeft)->setLabel(tr("rows"));
    m_rocRect->axis(QCPAxis::atBottom)->setLabel(tr("false positive rate"));
    m_rocRect->axis(QCPAxis::atLeft)->setLabel(tr("true positive rate"));
    m_rocRect->axis(QCPAxis::atBottom)->setRange(0, 1);
    m_rocRect->axis(QCPAxis::atLeft)->setRange(0, 1.02);

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
    m_roc = addGraph(m_rocRect->axis(QCPAxis::atBottom), m_rocRect->axis(QCPAxis::atLeft));
    m_roc->setPen(QPen(colors::natural(), 2));
    m_roc->setName(tr("ROC"));
    m_chance = addGraph(m_rocRect->axis(QCPAxis::atBottom), m_rocRect->axis(QCPAxis::atLeft));
    m_chance->setPen(QPen(Qt::gray, 1, Qt::DashLine));
    m_chance->setData(QVector<double>{0, 1}, QVector<double>{0, 1});
    m_chance->setName(tr("chance"));
    auto* legend = new QCPLegend;
    m_histRect->insetLayout()->addElement(legend, Qt::AlignTop | Qt::AlignRight);
    legend->setLayer(QStringLiteral("legend"));
    legend->setFont(QFont(font().family(), 8));
    legend->addItem(new QCPPlottableLegendItem(legend, m_histAll));
    legend->addItem(new QCPPlottableLegendItem(legend, m_histAnomalies));
}

void ScorePlots::setScores(const Vector& scores, const std::optional<Eigen::VectorXi>& labels,
                           bool normality)
{
    m_histTitle->setText(normality ? tr("Anomaly scores (−normality score)")
                                   : tr("Anomaly scores (−log p)"));
    std::vector<double> normal, anomalous;
    for (Eigen::Index i = 0; i < scores.size(); ++i) {
        (labels && (*labels)(i) != 0 ? anomalous : normal).push_back(scores(i));
    }
    const double lo = scores.minCoeff();
    const double hi = scores.maxCoeff();
    const int bins = 50;
    const double width = hi > lo ? (hi - lo) / bins : 1.0;
    QVector<double> centres(bins);
    for (int b = 0; b < bins; ++b) {
        centres[b] = lo + (b + 0.5) * width;
    }
    auto q = [](const std::vector<double>& v) { return QVector<double>(v.begin(), v.end()); };
    m_histAll->setData(centres, q(histogram(normal, lo, hi, bins)), true);
    m_histAnomalies->setData(centres, q(histogram(anomalous, lo, hi, bins)), true);
    m_histAnomalies->setVisible(!anomalous.empty());
    m_histAll->rescaleAxes(false);
    m_histAnomalies->rescaleAxes(true);
    m_histRect->axis(QCPAxis::atLeft)
        ->setRange(0, m_histRect->axis(QCPAxis::atLeft)->range().upper * 1.08);

    if (!normal.empty() && !anomalous.empty()) {
        const RocCurve roc = rocCurve(scores, *labels);
        m_roc->setData(q(roc.fpr), q(roc.tpr), true);
        m_rocTitle->setText(tr("ROC: AUC-ROC %1, AUC-PR %2")
                                .arg(aucRoc(scores, *labels), 0, 'f', 4)
                                .arg(aucPr(scores, *labels), 0, 'f', 4));
        m_rocRect->setVisible(true);
    } else {
        m_roc->data()->clear();
        m_rocTitle->setText(tr("ROC: needs labels of both classes"));
    }
    replot();
}

} // namespace sosrep::ui
