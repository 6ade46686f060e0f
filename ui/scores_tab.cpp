// SPDX-License-Identifier: MIT
// The Scores tab: the table, histogram, ROC and AUC of every row's score, how its length scale was
// tuned, the outlier threshold and the ROC curves of other estimators.
#include "ui/scores_tab.h"

#include "core/estimators/registry.h"
#include "core/metrics/auc.h"
#include "ui/controller/density_units.h"
#include "ui/controller/other_roc_controller.h"
#include "ui/controller/session.h"
#include "ui/controller/threshold_controller.h"
#include "ui/controller/view_scaling.h"
#include "ui/panels/outlier_bar.h"
#include "ui/plots/plot_style.h"
#include "ui/plots/score_plots.h"
#include "ui/scores_model.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <numeric>
#include <vector>

namespace sosrep::ui {

ScoresTab::ScoresTab(Session* session, ThresholdController* thresholds,
                     OtherRocController* otherRocs, QWidget* parent)
    : QWidget(parent), m_session(session), m_thresholds(thresholds), m_otherRocs(otherRocs)
{
    auto* layout = new QVBoxLayout(this);
    m_aucLabel = new QLabel(tr("Fit a model to score the rows."));
    m_tuning = new QLabel;
    m_tuning->setWordWrap(true);
    m_model = new ScoresModel(this);
    m_proxy = new QSortFilterProxyModel(this);
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(Qt::EditRole);
    m_table = new QTableView;
    m_table->setObjectName(QStringLiteral("scoresTable"));
    m_table->setModel(m_proxy);
    m_table->setSortingEnabled(true);
    m_table->verticalHeader()->hide();
    m_table->sortByColumn(2, Qt::DescendingOrder); // most anomalous rows first
    // Columns as wide as their headers and values (stretched equally, the anomaly-score header
    // was cut at 1280x720 once the outlier column came); measured on the first 200 rows only,
    // so shuttle's 49 097 rows cost nothing. The last column takes the rest.
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setResizeContentsPrecision(200);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    // Linked views: rows selected here are ringed in the density and compare maps.
    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            [this] { emit rowsSelected(selectedRows()); });
    m_plots = new ScorePlots;
    m_plots->setMinimumHeight(260);
    layout->addWidget(m_aucLabel);
    layout->addWidget(m_tuning);
    m_outlierBar = new OutlierBar;
    auto* barRow = new QHBoxLayout;
    barRow->addWidget(m_outlierBar, 1);
    barRow->addWidget(makeRocButton());
    layout->addLayout(barRow);
    connect(m_outlierBar, &OutlierBar::contaminationChanged, m_thresholds,
            &ThresholdController::setContamination);
    connect(m_thresholds, &ThresholdController::ready, this, &ScoresTab::showThreshold);
    layout->addWidget(m_plots, 1);
    layout->addWidget(m_table, 1);
}

void ScoresTab::clear()
{
    // The headers name the loaded data's units, not the last fit's (a 2-column file's table
    // said "per unit of the 512 columns' product" while it was fitted; issue 50).
    m_model->setColumns(m_session->data().featureNames());
    m_model->setRowNames({}, QString());
    m_model->setFeatures(Matrix());
    m_model->setScores(Vector(), std::nullopt, DensityKind::Normalized);
    m_model->setThreshold(std::nullopt);
    m_plots->clearScores();
    m_outlierBar->showState(m_thresholds->contamination(), false, std::nullopt, Vector(), {});
    m_aucLabel->setText(tr("Fit a model to score the rows."));
    m_tuning->clear();
}

QString ScoresTab::selectedRowsText() const
{
    QStringList lines;
    for (const QModelIndex& r : m_table->selectionModel()->selectedRows()) {
        QStringList cells;
        for (int c = 0; c < m_proxy->columnCount(); ++c) {
            cells << m_proxy->index(r.row(), c).data().toString();
        }
        lines << cells.join(QLatin1Char('\t'));
    }
    return lines.join(QLatin1Char('\n'));
}

QString ScoresTab::tuningText() const
{
    return m_tuning->text();
}

QList<qint64> ScoresTab::selectedRows() const
{
    QList<qint64> rows;
    for (const QModelIndex& i : m_table->selectionModel()->selectedRows()) {
        rows << m_proxy->mapToSource(i).row();
    }
    return rows;
}

void ScoresTab::selectRows(const QList<qint64>& rows)
{
    QItemSelection selection;
    for (qint64 r : rows) {
        const QModelIndex i = m_proxy->mapFromSource(m_model->index(int(r), 0));
        if (i.isValid()) {
            selection.select(i, i);
        }
    }
    m_table->selectionModel()->select(selection, QItemSelectionModel::ClearAndSelect |
                                                     QItemSelectionModel::Rows);
    if (!selection.isEmpty()) {
        m_table->scrollTo(selection.indexes().first());
    }
}

void ScoresTab::showScores()
{
    const FitJobResult* r = m_session->result();
    const DensityKind kind = r->scoresModel().kind();
    // The table keeps the column it is sorted by across fits (the columns may move: a name
    // column comes and goes); at first, and when that column is gone, the most anomalous
    // rows come first.
    const int sortedColumn = m_proxy->sortColumn();
    const QString sortedBy =
        sortedColumn >= 0 && sortedColumn < m_model->columnCount()
            ? m_model->headerData(sortedColumn, Qt::Horizontal, Qt::DisplayRole).toString()
            : QString();
    const Qt::SortOrder order = m_proxy->sortOrder();
    m_model->setColumns(m_session->data().featureNames());
    const Dataset& data = m_session->data().featureData();
    m_model->setRowNames(data.rowNames, QString::fromStdString(data.rowNameColumn));
    m_model->setFeatures(data.x);
    m_model->setScores(r->rowLogDensity, m_session->data().labels(), kind, r->fitRowIndices);
    int sortBy = -1;
    for (int c = 0; c < m_model->columnCount() && !sortedBy.isEmpty(); ++c) {
        sortBy = m_model->headerData(c, Qt::Horizontal, Qt::DisplayRole).toString() == sortedBy
                     ? c
                     : sortBy;
    }
    m_table->sortByColumn(sortBy >= 0 ? sortBy : m_model->scoreColumn(),
                          sortBy >= 0 ? order : Qt::DescendingOrder);
    m_tuning->setText(scoresTuningText(*r, m_session->data().scaler()));
    showThreshold();
    if (!r->scoresReady()) {
        const QString why =
            r->scoresDeferred
                ? tr("Scoring every row after the density view (%1 rows; Esc cancels)…")
                      .arg(m_session->data().features().rows())
            : r->scoresCancelled ? tr("Row scoring cancelled (Esc): fit again (F5) to score them")
                                 : tr("No row scores: the Scores view's stage failed");
        m_plots->clearScores(why);
        m_aucLabel->setText(why);
        return;
    }
    m_plots->setScores(-r->rowLogDensity, m_session->data().labels(), kind == DensityKind::Score,
                       r->fitRowIndices);
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

QToolButton* ScoresTab::makeRocButton()
{
    auto* button = new QToolButton;
    button->setObjectName(QStringLiteral("rocWith"));
    button->setText(tr("ROC of…"));
    button->setToolTip(tr("Draw other estimators' ROC curves beside this model's: each is fitted "
                          "on the same rows (for the anomaly purpose) after every fit"));
    auto* menu = new QMenu(button);
    for (const Estimator* e : EstimatorRegistry::instance().family(false)) {
        QAction* a = menu->addAction(QString::fromStdString(e->name()));
        a->setCheckable(true);
    }
    makeMenuButton(button, menu);
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
    connect(m_otherRocs, &OtherRocController::ready, this, &ScoresTab::showOtherRocs);
    connect(m_otherRocs, &OtherRocController::choiceCleared, this, [this](const QStringList& was) {
        emit message(tr("ROC of… %1: cleared for the new data (choose again to fit them)")
                         .arg(was.join(QStringLiteral(", "))),
                     10000);
    });
    connect(m_otherRocs, &OtherRocController::failed, this,
            [this](const QString& why) { emit message(why, 10000); });
    connect(m_plots, &ScorePlots::rocCutoffChosen, m_thresholds,
            &ThresholdController::chooseCutoff);
    return button;
}

void ScoresTab::showOtherRocs()
{
    const FitJobResult* r = m_session->result();
    std::vector<std::pair<QString, Vector>> curves;
    for (const OtherRocController::OtherRoc& o : m_otherRocs->curves()) {
        curves.emplace_back(o.estimator, o.anomalyScores);
    }
    m_plots->setOtherRocs(curves, r ? QString::fromStdString(r->settings.estimator) : QString());
}

void ScoresTab::showThreshold()
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
    m_model->setThreshold(t ? std::optional<double>(t->offset) : std::nullopt);
    m_plots->setThreshold(t ? std::optional<double>(-t->offset) : std::nullopt);
    const QString unit =
        scored ? logValueLabel(m_session->data().featureNames(), r->scoresModel().kind())
               : QString();
    m_outlierBar->showState(m_thresholds->contamination(), m_thresholds->pending(), t,
                            scored ? r->rowLogDensity : Vector(), unit);
}

QString ScoresTab::confusionText(const Vector& logValues, const Eigen::VectorXi& labels,
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

QString ScoresTab::aucText() const
{
    return m_aucLabel->text();
}

QString scoresTuningText(const FitJobResult& r, const Scaler& densityScaler)
{
    if (r.scoresDeferred) {
        return ScoresTab::tr(
            "Scores: after the density view, the anomaly rule's model is fitted and every "
            "row scored (large data)…");
    }
    // purpose=auto on spike-and-tail columns: the Scores view's model has its own scaling.
    const QString scaling =
        r.scoresScaler
            ? ScoresTab::tr(
                  " Its columns are %1-scaled, the anomaly purpose's scaling where most columns "
                  "are a spike and a sparse tail (the density view's are %2-scaled), so its ℓ "
                  "are in those units.")
                  .arg(QString::fromStdString(toString(r.scoresScaler->kind)))
                  .arg(QString::fromStdString(toString(densityScaler.kind)))
            : QString();
    const FitOutcome& f = r.scoresOutcome();
    if (!f.search) {
        return f.lengthScale > 0 ? ScoresTab::tr("Scores: the model at ℓ = %1 (not tuned).")
                                           .arg(f.lengthScale, 0, 'g', 4) +
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
                          ? ScoresTab::tr(
                                "at the reach of its %1 nearest neighbours, ℓ_%1 = %2 (a clump of "
                                "fewer than %1 near-copies cannot look dense there)")
                                .arg(k)
                                .arg(m[i], 0, 'g', 4)
                          : ScoresTab::tr(
                                "at the median pairwise distance, ℓ = %1 (the columns are "
                                "heavy-tailed: rows far from the bulk in a few columns stand out "
                                "there)")
                                .arg(m[i], 0, 'g', 4));
        }
        return ScoresTab::tr(
                   "Scores, tuned for anomaly ranking: a row's largest anomaly rank at %1 = %2 "
                   "and %3; each model fitted on 80 % of the rows and ranked against the other "
                   "20 %.")
                   .arg(r.scoresScaler ? ScoresTab::tr("the Fisher-divergence minimum ℓ")
                                       : ScoresTab::tr("the density's ℓ"))
                   .arg(m.front(), 0, 'g', 4)
                   .arg(views.join(ScoresTab::tr(" and "))) +
               (f.bwAdjust != 1.0 ? ScoresTab::tr(" All fitted at %1 × these (ℓ multiplier).")
                                        .arg(f.bwAdjust, 0, 'g', 4)
                                  : QString()) +
               scaling;
    }
    const QString purpose = QString::fromStdString(f.purpose);
    if (purpose == QLatin1String("density") && purposeAndRuleAreAuto(r.settings.values) &&
        f.search->reach > 0.0) {
        return ScoresTab::tr(
                   "Scores: the density's model (ℓ = %1): the reach of %2 neighbours (%3) is no "
                   "larger, so the anomaly rule keeps this one scale.")
            .arg(r.lengthScale(), 0, 'g', 4)
            .arg(k)
            .arg(f.search->reach, 0, 'g', 4);
    }
    return ScoresTab::tr("Scores: the model tuned for %1 by the %2 rule (ℓ = %3).")
               .arg(purpose == QLatin1String("anomaly") ? ScoresTab::tr("anomaly ranking")
                                                        : ScoresTab::tr("the density"))
               .arg(QString::fromStdString(f.rule))
               .arg(f.lengthScale, 0, 'g', 4) +
           scaling;
}

} // namespace sosrep::ui
