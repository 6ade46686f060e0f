// SPDX-License-Identifier: MIT
// The Scores view's part of the main window: the table, histogram, ROC and AUC of every row's
// score, how its length scale was tuned, and the maps' row tooltips. A large fit's rows are
// scored after the density view shows (FitJobResult::scoresDeferred): the view says so until
// the controller's scoresReady.
#include "ui/main_window.h"

#include "core/metrics/auc.h"
#include "ui/controller/estimation_controller.h"
#include "ui/density_units.h"
#include "ui/panels/outlier_bar.h"
#include "ui/plots/compare_view.h"
#include "ui/plots/density_heatmap.h"
#include "ui/plots/score_plots.h"
#include "ui/scores_model.h"

#include <QLabel>

namespace sosrep::ui {

void MainWindow::showScores()
{
    const FitJobResult* r = m_controller->result();
    const DensityKind kind = r->scoresModel().kind();
    m_scores->setColumns(m_controller->featureNames());
    m_scores->setScores(r->rowLogDensity, m_controller->labels(), kind, r->fitRowIndices);
    m_scoresTuning->setText(scoresTuningText(*r));
    showThreshold();
    if (!r->scoresReady()) {
        const QString why =
            r->scoresDeferred
                ? tr("Scoring every row after the density view (%1 rows; Esc cancels)…")
                      .arg(m_controller->features().rows())
            : r->scoresCancelled ? tr("Row scoring cancelled (Esc): fit again (F5) to score them")
                                 : tr("No row scores: the Scores view's stage failed");
        m_scorePlots->clearScores(why);
        m_aucLabel->setText(why);
        return;
    }
    m_scorePlots->setScores(-r->rowLogDensity, m_controller->labels(), kind == DensityKind::Score,
                            r->fitRowIndices);
    showThreshold(); // the histogram's line, on the new scores
    const auto& labels = m_controller->labels();
    if (labels && labels->sum() > 0 && labels->sum() < labels->size()) {
        const Vector score = -r->rowLogDensity;
        m_aucLabel->setText(tr("AUC-ROC %1   AUC-PR %2   (labels used only for these numbers)")
                                .arg(aucRoc(score, *labels), 0, 'f', 4)
                                .arg(aucPr(score, *labels), 0, 'f', 4));
    } else {
        m_aucLabel->setText(tr("No labels with both classes: no AUC."));
    }
}

void MainWindow::showThreshold()
{
    m_outlierBar->setContamination(m_controller->contamination()); // set by a project or option
    const FitJobResult* r = m_controller->result();
    const bool scored = r && r->scoresReady();
    const std::optional<OutlierThreshold> t =
        scored ? m_controller->threshold() : std::optional<OutlierThreshold>();
    m_scores->setThreshold(t ? std::optional<double>(t->offset) : std::nullopt);
    m_scorePlots->setThreshold(t ? std::optional<double>(-t->offset) : std::nullopt);
    const QString unit =
        scored ? logValueLabel(m_controller->featureNames(), r->scoresModel().kind()) : QString();
    m_outlierBar->showState(m_controller->contamination(), m_controller->thresholdPending(), t,
                            scored ? r->rowLogDensity : Vector(), unit);
}

QString MainWindow::aucText() const
{
    return m_aucLabel->text();
}

void MainWindow::showRowInfo()
{
    const FitJobResult* r = m_controller->result();
    DensityHeatmap::RowInfo info;
    info.raw = m_controller->featureData().x;
    info.names = m_controller->featureNames();
    if (r->scoresReady()) {
        info.anomalyScores = -r->rowLogDensity;
    }
    info.scoreName = r->scoresModel().kind() == DensityKind::Score
                         ? tr("anomaly score (−normality)")
                         : tr("anomaly score (−log p)");
    info.scaler = m_controller->scaler();
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
    const FitOutcome& f = r.scoresOutcome();
    if (!f.search) {
        return r.lengthScale() > 0
                   ? tr("Scores: the model at ℓ = %1 (not tuned).").arg(r.lengthScale(), 0, 'g', 4)
                   : QString();
    }
    const std::vector<double>& m = f.search->selection.memberScales;
    const int k = f.search->reachNeighbours;
    if (r.scoresFit && m.size() > 1) {
        return tr("Scores, tuned for anomaly ranking: a row's larger anomaly rank at the "
                  "density's ℓ = %1 and at the reach of its %2 nearest neighbours, ℓ_%2 = %3 "
                  "(a clump of fewer than %2 near-copies cannot look dense there); each model "
                  "fitted on 80 % of the rows and ranked against the other 20 %.")
            .arg(m.front(), 0, 'g', 4)
            .arg(k)
            .arg(m.back(), 0, 'g', 4);
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
        .arg(r.lengthScale(), 0, 'g', 4);
}

} // namespace sosrep::ui
