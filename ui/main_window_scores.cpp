// SPDX-License-Identifier: MIT
// The Scores view's part of the main window: the table, histogram, ROC and AUC of every row's
// score, how its length scale was tuned, and the maps' row tooltips. A large fit's rows are
// scored after the density view shows (FitJobResult::scoresDeferred): the view says so until
// the controller's scoresReady.
#include "ui/main_window.h"

#include "core/estimators/registry.h"
#include "core/metrics/auc.h"
#include "ui/controller/density_units.h"
#include "ui/controller/other_roc_controller.h"
#include "ui/controller/session.h"
#include "ui/controller/threshold_controller.h"
#include "ui/panels/outlier_bar.h"
#include "ui/plots/compare_view.h"
#include "ui/plots/density_heatmap.h"
#include "ui/plots/score_plots.h"
#include "ui/scores_model.h"

#include <QLabel>
#include <QMenu>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QToolButton>

#include <algorithm>
#include <numeric>
#include <vector>

namespace sosrep::ui {

void MainWindow::showScores()
{
    const FitJobResult* r = m_session->result();
    const DensityKind kind = r->scoresModel().kind();
    // The table keeps the column it is sorted by across fits (the columns may move: a name
    // column comes and goes); at first, and when that column is gone, the most anomalous
    // rows come first.
    const int sortedColumn = m_scoresProxy->sortColumn();
    const QString sortedBy =
        sortedColumn >= 0 && sortedColumn < m_scores->columnCount()
            ? m_scores->headerData(sortedColumn, Qt::Horizontal, Qt::DisplayRole).toString()
            : QString();
    const Qt::SortOrder order = m_scoresProxy->sortOrder();
    m_scores->setColumns(m_session->data().featureNames());
    const Dataset& data = m_session->data().featureData();
    m_scores->setRowNames(data.rowNames, QString::fromStdString(data.rowNameColumn));
    m_scores->setFeatures(data.x);
    m_scores->setScores(r->rowLogDensity, m_session->data().labels(), kind, r->fitRowIndices);
    int sortBy = -1;
    for (int c = 0; c < m_scores->columnCount() && !sortedBy.isEmpty(); ++c) {
        sortBy = m_scores->headerData(c, Qt::Horizontal, Qt::DisplayRole).toString() == sortedBy
                     ? c
                     : sortBy;
    }
    m_scoresView->sortByColumn(sortBy >= 0 ? sortBy : m_scores->scoreColumn(),
                               sortBy >= 0 ? order : Qt::DescendingOrder);
    m_scoresTuning->setText(scoresTuningText(*r));
    showThreshold();
    if (!r->scoresReady()) {
        const QString why =
            r->scoresDeferred
                ? tr("Scoring every row after the density view (%1 rows; Esc cancels)…")
                      .arg(m_session->data().features().rows())
            : r->scoresCancelled ? tr("Row scoring cancelled (Esc): fit again (F5) to score them")
                                 : tr("No row scores: the Scores view's stage failed");
        m_scorePlots->clearScores(why);
        m_aucLabel->setText(why);
        return;
    }
    m_scorePlots->setScores(-r->rowLogDensity, m_session->data().labels(),
                            kind == DensityKind::Score, r->fitRowIndices);
    showOtherRocs(); // the other estimators' curves may have come first
    const auto& labels = m_session->data().labels();
    if (labels && labels->sum() > 0 && labels->sum() < labels->size()) {
        const Vector score = -r->rowLogDensity;
        m_aucLabel->setText(tr("AUC-ROC %1   AUC-PR %2   (labels used only for these numbers)")
                                .arg(aucRoc(score, *labels), 0, 'f', 4)
                                .arg(aucPr(score, *labels), 0, 'f', 4));
    } else {
        m_aucLabel->setText(tr("No labels with both classes: no AUC."));
    }
    showThreshold(); // the histogram's line and the flags against the labels, on the new scores
}

QToolButton* MainWindow::makeRocButton()
{
    auto* button = new QToolButton;
    button->setObjectName(QStringLiteral("rocWith"));
    button->setText(tr("ROC of…"));
    button->setToolTip(tr("Draw other estimators' ROC curves beside this model's: each is fitted "
                          "on the same rows (for the anomaly purpose) after every fit"));
    button->setPopupMode(QToolButton::InstantPopup);
    auto* menu = new QMenu(button);
    for (const Estimator* e : EstimatorRegistry::instance().family(false)) {
        QAction* a = menu->addAction(QString::fromStdString(e->name()));
        a->setCheckable(true);
    }
    button->setMenu(menu);
    connect(menu, &QMenu::triggered, this, [this, menu] {
        QStringList chosen;
        for (const QAction* a : menu->actions()) {
            if (a->isChecked()) {
                chosen << a->text();
            }
        }
        m_otherRocs->setEstimators(chosen);
    });
    // Set elsewhere too (--roc-with): the menu follows.
    connect(m_otherRocs, &OtherRocController::ready, menu, [this, menu] {
        for (QAction* a : menu->actions()) {
            a->setChecked(m_otherRocs->estimators().contains(a->text()));
        }
    });
    connect(m_otherRocs, &OtherRocController::ready, this, &MainWindow::showOtherRocs);
    connect(m_otherRocs, &OtherRocController::failed, this,
            [this](const QString& why) { statusBar()->showMessage(why, 10000); });
    connect(m_scorePlots, &ScorePlots::rocCutoffChosen, m_thresholds,
            &ThresholdController::chooseCutoff);
    return button;
}

void MainWindow::showOtherRocs()
{
    const FitJobResult* r = m_session->result();
    std::vector<std::pair<QString, Vector>> curves;
    for (const OtherRocController::OtherRoc& o : m_otherRocs->curves()) {
        curves.emplace_back(o.estimator, o.anomalyScores);
    }
    m_scorePlots->setOtherRocs(curves,
                               r ? QString::fromStdString(r->settings.estimator) : QString());
}

void MainWindow::showThreshold()
{
    m_outlierBar->setContamination(m_thresholds->contamination()); // set by a project or option
    const FitJobResult* r = m_session->result();
    const bool scored = r && r->scoresReady();
    const std::optional<OutlierThreshold> t =
        scored ? m_thresholds->threshold() : std::optional<OutlierThreshold>();
    // With labels of both classes, the flags read against them (Orange's confusion matrix): the
    // AUC line gains the counts at the threshold and the precision of the top k rows, k the
    // labelled anomalies' count.
    const auto& labels = m_session->data().labels();
    QString text = m_aucLabel->text().section(QStringLiteral("\n"), 0, 0);
    if (scored && t && labels && labels->sum() > 0 && labels->sum() < labels->size()) {
        text += QLatin1Char('\n') + confusionText(r->rowLogDensity, *labels, t->offset);
    }
    m_aucLabel->setText(text);
    m_scores->setThreshold(t ? std::optional<double>(t->offset) : std::nullopt);
    m_scorePlots->setThreshold(t ? std::optional<double>(-t->offset) : std::nullopt);
    const QString unit =
        scored ? logValueLabel(m_session->data().featureNames(), r->scoresModel().kind())
               : QString();
    m_outlierBar->showState(m_thresholds->contamination(), m_thresholds->pending(), t,
                            scored ? r->rowLogDensity : Vector(), unit);
}

QString MainWindow::confusionText(const Vector& logValues, const Eigen::VectorXi& labels,
                                  double offset)
{
    long long tp = 0, fp = 0, fn = 0, tn = 0;
    for (Eigen::Index i = 0; i < logValues.size(); ++i) {
        const bool flagged = logValues(i) < offset; // below the threshold: an outlier
        const bool anomaly = labels(i) != 0;
        (flagged ? (anomaly ? tp : fp) : (anomaly ? fn : tn)) += 1;
    }
    // Precision at k: the share of labelled anomalies among the k most anomalous rows.
    const Eigen::Index k = labels.sum();
    std::vector<Eigen::Index> order(size_t(logValues.size()));
    std::iota(order.begin(), order.end(), Eigen::Index(0));
    std::stable_sort(order.begin(), order.end(), [&logValues](Eigen::Index a, Eigen::Index b) {
        return logValues(a) < logValues(b);
    });
    long long hits = 0;
    for (Eigen::Index j = 0; j < k; ++j) {
        hits += labels(order[size_t(j)]) != 0 ? 1 : 0;
    }
    const auto share = [](long long a, long long b) {
        return b > 0 ? QString::number(double(a) / double(b), 'f', 3) : QStringLiteral("–");
    };
    return tr("At the threshold: %1 flagged; TP %2, FP %3, FN %4, TN %5 (precision %6, recall "
              "%7); precision@%8 (the labelled anomalies' count) %9")
        .arg(tp + fp)
        .arg(tp)
        .arg(fp)
        .arg(fn)
        .arg(tn)
        .arg(share(tp, tp + fp))
        .arg(share(tp, tp + fn))
        .arg(k)
        .arg(share(hits, k));
}

QString MainWindow::aucText() const
{
    return m_aucLabel->text();
}

void MainWindow::showRowInfo()
{
    const FitJobResult* r = m_session->result();
    DensityHeatmap::RowInfo info;
    info.raw = m_session->data().featureData().x;
    info.names = m_session->data().featureNames();
    if (r->scoresReady()) {
        info.anomalyScores = -r->rowLogDensity;
    }
    info.scoreName = r->scoresModel().kind() == DensityKind::Score
                         ? tr("anomaly score (−normality)")
                         : tr("anomaly score (−log p)");
    info.scaler = m_session->data().scaler();
    for (DensityHeatmap* map : {m_density, m_compare->firstView(), m_compare->secondView(),
                                m_compare->differenceView()}) {
        map->setRowInfo(info);
    }
}

QString MainWindow::scoresTuningText(const FitJobResult& r) const
{
    if (r.scoresDeferred) {
        return tr("Scores: after the density view, the anomaly rule's model is fitted and every "
                  "row scored (large data)…");
    }
    // purpose=auto on spike-and-tail columns: the Scores view's model has its own scaling.
    const QString scaling =
        r.scoresScaler
            ? tr(" Its columns are %1-scaled, the anomaly purpose's scaling where most columns "
                 "are a spike and a sparse tail (the density view's are %2-scaled), so its ℓ "
                 "are in those units.")
                  .arg(QString::fromStdString(toString(r.scoresScaler->kind)))
                  .arg(QString::fromStdString(toString(m_session->data().scaler().kind)))
            : QString();
    const FitOutcome& f = r.scoresOutcome();
    if (!f.search) {
        return f.lengthScale > 0
                   ? tr("Scores: the model at ℓ = %1 (not tuned).").arg(f.lengthScale, 0, 'g', 4) +
                         scaling
                   : QString();
    }
    const std::vector<double>& m = f.search->selection.memberScales;
    const int k = f.search->reachNeighbours;
    if (r.scoresFit && m.size() > 1) {
        // The members after the density rule's ℓ: the neighbourhood reach (when larger) and the
        // median pairwise distance (wide_scale, heavy-tailed columns).
        QStringList views;
        for (size_t i = 1; i < m.size(); ++i) {
            views << (m[i] == f.search->reach
                          ? tr("at the reach of its %1 nearest neighbours, ℓ_%1 = %2 (a clump of "
                               "fewer than %1 near-copies cannot look dense there)")
                                .arg(k)
                                .arg(m[i], 0, 'g', 4)
                          : tr("at the median pairwise distance, ℓ = %1 (the columns are "
                               "heavy-tailed: rows far from the bulk in a few columns stand out "
                               "there)")
                                .arg(m[i], 0, 'g', 4));
        }
        return tr("Scores, tuned for anomaly ranking: a row's largest anomaly rank at %1 = %2 "
                  "and %3; each model fitted on 80 % of the rows and ranked against the other "
                  "20 %.")
                   .arg(r.scoresScaler ? tr("the Fisher-divergence minimum ℓ")
                                       : tr("the density's ℓ"))
                   .arg(m.front(), 0, 'g', 4)
                   .arg(views.join(tr(" and "))) +
               (f.bwAdjust != 1.0
                    ? tr(" All fitted at %1 × these (ℓ multiplier).").arg(f.bwAdjust, 0, 'g', 4)
                    : QString()) +
               scaling;
    }
    const QString purpose = QString::fromStdString(f.purpose);
    if (purpose == QLatin1String("density") && settingsPurposeIsAuto() && f.search->reach > 0.0) {
        return tr("Scores: the density's model (ℓ = %1): the reach of %2 neighbours (%3) is no "
                  "larger, so the anomaly rule keeps this one scale.")
            .arg(r.lengthScale(), 0, 'g', 4)
            .arg(k)
            .arg(f.search->reach, 0, 'g', 4);
    }
    return tr("Scores: the model tuned for %1 by the %2 rule (ℓ = %3).")
               .arg(purpose == QLatin1String("anomaly") ? tr("anomaly ranking") : tr("the density"))
               .arg(QString::fromStdString(f.rule))
               .arg(f.lengthScale, 0, 'g', 4) +
           scaling;
}

} // namespace sosrep::ui
