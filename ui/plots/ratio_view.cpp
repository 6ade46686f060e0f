// SPDX-License-Identifier: MIT
// The Ratio view: estimator, p and q sources, and the ratio's plots.
#include "ui/plots/ratio_view.h"

#include "core/estimators/common_options.h"
#include "core/estimators/registry.h"
#include "core/io/output_set.h"
#include "core/io/table_text.h"
#include "core/pipeline/q_density.h"
#include "ui/controller/ratio_controller.h"
#include "ui/controller/session.h"
#include "ui/panels/option_editor.h"
#include "ui/plots/ratio_plot.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QSlider>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <map>

namespace sosrep::ui {
namespace {

constexpr int kSliderSteps = 110; // log10 lambda from -12 to -1 in steps of 0.1

double sliderLambda(int v)
{
    return std::pow(10.0, -12.0 + v / 10.0);
}

int sliderPosition(double lambda)
{
    return std::clamp(int(std::lround((std::log10(lambda) + 12.0) * 10.0)), 0, kSliderSteps);
}

QString columnName(const Session* data, int c)
{
    const QStringList names = data->data().featureNames();
    return c >= 0 && c < names.size() ? names[c] : QStringLiteral("x%1").arg(c + 1);
}

} // namespace

RatioView::RatioView(RatioController* ratio, Session* data, QWidget* parent)
    : QWidget(parent), m_ratio(ratio), m_data(data)
{
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setMinimumWidth(300);
    scroll->setMaximumWidth(360);
    auto* column = new QWidget(scroll);
    buildControls(column);
    scroll->setWidget(column);
    layout->addWidget(scroll);
    m_plot = new RatioPlot(this);
    layout->addWidget(m_plot, 1);
    connect(m_plot, &RatioPlot::rectanglePicked, this,
            [this](double x0, double x1, double y0, double y1) {
                const RatioResult* res = m_ratio->result();
                RatioSource s;
                s.kind = RatioSource::Rect;
                s.xColumn = res ? res->xColumn : m_data->data().plotX();
                s.yColumn = res ? res->yColumn : m_data->data().plotY();
                s.x0 = x0;
                s.x1 = x1;
                s.y0 = y0;
                s.y1 = y1;
                s.pAll = true; // nested supports: q a part of p (see RatioSource::pAll)
                m_rectButton->setChecked(false);
                m_ratio->setSource(s);
            });

    connect(m_ratio, &RatioController::samplesChanged, this, &RatioView::refreshSamples);
    connect(m_ratio, &RatioController::settingsChanged, this, &RatioView::rebuildOptions);
    connect(m_ratio, &RatioController::busyChanged, this, &RatioView::refreshBusy);
    connect(m_ratio, &RatioController::resultChanged, this, &RatioView::redraw);
    connect(m_ratio, &RatioController::progressChanged, this, [this](int done, int total) {
        m_progress->setRange(0, total);
        m_progress->setValue(done);
    });
    connect(m_data, &Session::dataChanged, this, &RatioView::refreshSamples);
    connect(m_data, &Session::plotColumnsChanged, this, [this] {
        m_ratio->setPlotColumns(m_data->data().plotX(), m_data->data().plotY());
        redraw();
    });
    rebuildOptions();
    refreshSamples();
    refreshBusy(false);
    redraw();
}

void RatioView::buildControls(QWidget* column)
{
    auto* layout = new QVBoxLayout(column);
    auto* samples = new QGroupBox(tr("Samples: p (denominator), q (numerator)"), column);
    auto* sl = new QVBoxLayout(samples);
    m_sourceLabel = new QLabel(samples);
    m_sourceLabel->setWordWrap(true);
    sl->addWidget(m_sourceLabel);
    addSourceControls(samples, sl);
    addQModeControls(samples, sl);
    layout->addWidget(samples);
    layout->addWidget(estimatorBox(column));
    layout->addWidget(pathBox(column));
    layout->addWidget(reweightBox(column));
    layout->addStretch(1);
}

void RatioView::addSourceControls(QWidget* samples, QVBoxLayout* sl)
{
    auto* load = new QPushButton(tr("Load q from a file…"), samples);
    load->setToolTip(tr("q = the rows of another CSV/TSV or .npz file (columns matched by name); "
                        "p = the loaded data"));
    connect(load, &QPushButton::clicked, this, [this] {
        const QString path =
            QFileDialog::getOpenFileName(this, tr("Sample of q"), QString(),
                                         tr("Data (*.csv *.tsv *.txt *.npz);;All files (*)"));
        if (!path.isEmpty()) {
            RatioSource s;
            s.kind = RatioSource::File;
            s.path = path;
            m_ratio->setSource(s);
        }
    });
    sl->addWidget(load);
    // Column and value on two rows: one row would need ~430 px, more than the column has at
    // 1280x720.
    auto* splitRow = new QHBoxLayout;
    splitRow->addWidget(new QLabel(tr("q = rows with"), samples));
    m_splitColumn = new QComboBox(samples);
    splitRow->addWidget(m_splitColumn, 1);
    sl->addLayout(splitRow);
    auto* valueRow = new QHBoxLayout;
    valueRow->addWidget(new QLabel(tr("equal to"), samples));
    m_splitValue = new QDoubleSpinBox(samples);
    m_splitValue->setRange(-1e12, 1e12);
    m_splitValue->setDecimals(4);
    m_splitValue->setValue(1.0);
    // Its size hint is sized for ±1e12 with four decimals; label values are short.
    m_splitValue->setMinimumWidth(90);
    valueRow->addWidget(m_splitValue, 1);
    auto* split = new QPushButton(tr("Split"), samples);
    split->setToolTip(tr("split the loaded data: q = the rows with this value, p = the others"));
    connect(split, &QPushButton::clicked, this, [this] {
        if (m_splitColumn->currentIndex() < 0) {
            return; // no column chosen (none has a few values)
        }
        RatioSource s;
        s.kind = RatioSource::Column;
        s.column = m_splitColumn->currentText();
        s.value = m_splitValue->value();
        m_ratio->setSource(s);
    });
    valueRow->addWidget(split);
    sl->addLayout(valueRow);
    m_rectButton = new QPushButton(tr("q = rows in a rectangle…"), samples);
    m_rectButton->setToolTip(tr("then drag the rectangle on the map; p = all rows (untick "
                                "'p = all rows' for the rows outside it)"));
    m_rectButton->setCheckable(true);
    connect(m_rectButton, &QPushButton::toggled, this, &RatioView::setPickMode);
    sl->addWidget(m_rectButton);
    m_pAll = new QCheckBox(tr("p = all rows (q's rows too)"), samples);
    m_pAll->setToolTip(tr("For a split or a rectangle: p is every row, so q is a part of p "
                          "(bounded ratio), instead of the other rows (disjoint supports)"));
    connect(m_pAll, &QCheckBox::toggled, this, [this](bool on) {
        RatioSource s = m_ratio->source();
        if (m_syncing || s.pAll == on ||
            (s.kind != RatioSource::Column && s.kind != RatioSource::Rect)) {
            return;
        }
        s.pAll = on;
        m_ratio->setSource(s);
    });
    sl->addWidget(m_pAll);
}

void RatioView::addQModeControls(QWidget* samples, QVBoxLayout* sl)
{
    auto* modeRow = new QHBoxLayout;
    modeRow->addWidget(new QLabel(tr("q is"), samples));
    m_qMode = new QComboBox(samples);
    m_qMode->addItem(tr("the q rows, a sample (Type I)"));
    m_qMode->addItem(tr("a density fitted to the q rows (Type II)"));
    m_qMode->addItem(tr("an expression q(x1, …, xd) (Type II)"));
    m_qMode->addItem(tr("1: the inverse density 1/p (Type II)"));
    m_qMode->setToolTip(tr("Type II solves the Fredholm equation with q known at the p rows "
                           "(paper eq. 16): FIRE with the L2,p or cut-off loss"));
    // The combos shrink to the column (the full item shows in the open list and the tooltip):
    // at 1280x720 their longest items would otherwise push the column past its width.
    for (QComboBox* box : {m_qMode, m_splitColumn}) {
        box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        box->setMinimumContentsLength(8);
    }
    modeRow->addWidget(m_qMode, 1);
    sl->addLayout(modeRow);
    m_qDensity = new QComboBox(samples);
    for (const std::string& name : qDensityEstimators()) { // densities, not detectors' scores
        m_qDensity->addItem(QString::fromStdString(name));
    }
    m_qDensity->setToolTip(tr("the density estimator fitted to the q rows, at its defaults"));
    sl->addWidget(m_qDensity);
    m_qExpression = new QLineEdit(samples);
    m_qExpression->setPlaceholderText(QStringLiteral("exp(-(x1^2 + x2^2)/2) / (2*pi)"));
    m_qExpression->setToolTip(tr("x1..xd are the feature columns in their own units; + - * / ^, "
                                 "exp, log, sqrt, sin, cos, abs, pi"));
    sl->addWidget(m_qExpression);
    connect(m_qMode, &QComboBox::currentIndexChanged, this, [this] {
        if (!m_syncing) {
            applyQMode();
        }
    });
    connect(m_qDensity, &QComboBox::currentIndexChanged, this, [this] {
        if (!m_syncing) {
            applyQMode();
        }
    });
    connect(m_qExpression, &QLineEdit::editingFinished, this, [this] {
        if (!m_syncing && m_qMode->currentIndex() == RatioQMode::Expression) {
            applyQMode();
        }
    });
}

QGroupBox* RatioView::estimatorBox(QWidget* column)
{
    auto* model = new QGroupBox(tr("Ratio estimator"), column);
    auto* ml = new QVBoxLayout(model);
    m_estimator = new QComboBox(model);
    for (const Estimator* e : EstimatorRegistry::instance().family(true)) {
        m_estimator->addItem(QString::fromStdString(e->name()), QString::fromStdString(e->name()));
        m_estimator->setItemData(m_estimator->count() - 1, QString::fromStdString(e->title()),
                                 Qt::ToolTipRole);
    }
    connect(m_estimator, &QComboBox::currentIndexChanged, this, [this] {
        if (!m_syncing) {
            m_ratio->setEstimator(m_estimator->currentData().toString().toStdString());
        }
    });
    ml->addWidget(m_estimator);
    m_options = new QFormLayout;
    ml->addLayout(m_options);
    auto* buttons = new QHBoxLayout;
    m_fitButton = new QPushButton(tr("Fit ratio"), model);
    m_cancelButton = new QPushButton(tr("Cancel"), model);
    connect(m_fitButton, &QPushButton::clicked, m_ratio, &RatioController::fit);
    connect(m_cancelButton, &QPushButton::clicked, m_ratio, &RatioController::cancel);
    buttons->addWidget(m_fitButton);
    buttons->addWidget(m_cancelButton);
    ml->addLayout(buttons);
    m_progress = new QProgressBar(model);
    m_progress->setTextVisible(false);
    m_progress->setMaximumHeight(8);
    ml->addWidget(m_progress);
    return model;
}

QGroupBox* RatioView::pathBox(QWidget* column)
{
    auto* path = new QGroupBox(tr("Regularization path"), column);
    auto* pl = new QVBoxLayout(path);
    m_lambdaLabel = new QLabel(path);
    m_lambdaLabel->setWordWrap(true);
    pl->addWidget(m_lambdaLabel);
    m_lambda = new QSlider(Qt::Horizontal, path);
    m_lambda->setRange(0, kSliderSteps);
    m_lambda->setToolTip(tr("λ from 1e-12 to 0.1: FIRE keeps its eigendecomposition, so every λ "
                            "is redrawn without refitting"));
    connect(m_lambda, &QSlider::valueChanged, this, [this](int v) {
        if (!m_syncing) {
            m_ratio->setLambda(sliderLambda(v));
        }
    });
    pl->addWidget(m_lambda);
    return path;
}

QGroupBox* RatioView::reweightBox(QWidget* column)
{
    auto* reweight = new QGroupBox(tr("Reweighting p toward q"), column);
    auto* rl = new QVBoxLayout(reweight);
    m_readout = new QLabel(reweight);
    m_readout->setWordWrap(true);
    m_readout->setTextInteractionFlags(Qt::TextSelectableByMouse);
    rl->addWidget(m_readout);
    m_saveWeights = new QPushButton(tr("Save weights…"), reweight);
    m_saveWeights->setToolTip(tr("row, raw, clipped and renormalized weights, as sosrep ratio "
                                 "--weights-out writes them"));
    m_saveWeights->setEnabled(false);
    connect(m_saveWeights, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, tr("Save weights"), QString(),
                                                          tr("CSV (*.csv);;TSV (*.tsv)"));
        if (path.isEmpty()) {
            return;
        }
        if (const QString error = saveWeights(path); !error.isEmpty()) {
            QMessageBox::warning(this, tr("Save weights"), error);
        }
    });
    rl->addWidget(m_saveWeights, 0, Qt::AlignLeft);
    return reweight;
}

void RatioView::setPickMode(bool on)
{
    m_plot->setPickMode(on);
    if (m_rectButton->isChecked() != on) {
        m_rectButton->setChecked(on);
    }
    if (on && !m_ratio->result()) {
        // Without a fit there is no map yet: draw the data so a rectangle can be dragged.
        redraw();
    }
}

void RatioView::rebuildOptions()
{
    m_syncing = true;
    const FitSettings& s = m_ratio->settings();
    m_estimator->setCurrentIndex(m_estimator->findData(QString::fromStdString(s.estimator)));
    m_syncing = false;
    if (m_builtFor == s.estimator) {
        // Same table: refresh in place (an editor may be the sender of this change).
        for (OptionEditor* e : m_editors) {
            e->refresh();
        }
        return;
    }
    m_builtFor = s.estimator;
    while (m_options->rowCount() > 0) {
        m_options->removeRow(0);
    }
    m_editors.clear();
    const Estimator& e = EstimatorRegistry::instance().get(s.estimator);
    for (const OptionSpec& spec : optionTableFor(e)) {
        auto* editor = new OptionEditor(m_ratio, spec, this);
        editor->refresh();
        m_options->addRow(QString::fromStdString(spec.label), editor);
        m_editors << editor;
    }
}

void RatioView::refreshSamples()
{
    m_sourceLabel->setText(m_ratio->sourceDescription());
    {
        const RatioQMode& mode = m_ratio->qMode();
        m_syncing = true;
        m_qMode->setCurrentIndex(int(mode.kind));
        m_qDensity->setCurrentText(QString::fromStdString(mode.densityEstimator));
        if (!mode.expression.isEmpty()) {
            m_qExpression->setText(mode.expression);
        }
        m_qDensity->setVisible(m_qMode->currentIndex() == RatioQMode::Density);
        m_qExpression->setVisible(m_qMode->currentIndex() == RatioQMode::Expression);
        const RatioSource& source = m_ratio->source();
        const bool split = source.kind == RatioSource::Column || source.kind == RatioSource::Rect;
        m_pAll->setEnabled(split);
        m_pAll->setChecked(split && source.pAll);
        m_syncing = false;
    }
    const QString current = m_splitColumn->currentText();
    m_splitColumn->clear();
    for (const std::string& c : m_data->data().rawData().columns) {
        m_splitColumn->addItem(QString::fromStdString(c));
    }
    const RatioSource& source = m_ratio->source();
    const int keep = m_splitColumn->findText(current);
    if (source.kind == RatioSource::Column && m_splitColumn->findText(source.column) >= 0) {
        // The split in use, however it was set (this box, --ratio-split, a project): the box
        // said "equal to 0.0000" beside q = rows with label = 1.
        m_splitColumn->setCurrentIndex(m_splitColumn->findText(source.column));
        m_splitValue->setValue(source.value);
    } else if (keep >= 0) {
        m_splitColumn->setCurrentIndex(keep);
    } else {
        chooseSplitColumn();
    }
    for (OptionEditor* e : m_editors) {
        e->refresh();
    }
    refreshBusy(m_ratio->isBusy());
    redraw();
}

void RatioView::chooseSplitColumn()
{
    // A split needs a column of a few values (a label, a group): the label column, else the
    // column with the fewest distinct values if it has at most kMaxSplitValues, else none (the
    // box said "q = rows with" a continuous column, whose value 1.0 no row had). The value
    // offered is the column's rarest, q being the smaller group (the anomalies of a label).
    constexpr int kMaxSplitValues = 20;
    const Dataset& raw = m_data->data().rawData();
    int best = -1;
    std::map<double, int> bestCounts;
    for (Eigen::Index j = 0; j < raw.x.cols(); ++j) {
        std::map<double, int> counts;
        for (Eigen::Index i = 0; i < raw.x.rows() && int(counts.size()) <= kMaxSplitValues; ++i) {
            ++counts[raw.x(i, j)];
        }
        const bool label = raw.columns[size_t(j)] == raw.labelName;
        if (counts.size() >= 2 && int(counts.size()) <= kMaxSplitValues &&
            (best < 0 || label || counts.size() < bestCounts.size()) &&
            !(best >= 0 && raw.columns[size_t(best)] == raw.labelName)) {
            best = int(j);
            bestCounts = std::move(counts);
        }
    }
    m_splitColumn->setPlaceholderText(tr("(no column of a few values)"));
    m_splitColumn->setCurrentIndex(best);
    if (best >= 0) {
        const auto rarest =
            std::min_element(bestCounts.begin(), bestCounts.end(),
                             [](const auto& a, const auto& b) { return a.second < b.second; });
        m_splitValue->setValue(rarest->first);
    }
}

void RatioView::applyQMode()
{
    RatioQMode mode;
    mode.kind = RatioQMode::Kind(m_qMode->currentIndex());
    mode.densityEstimator = m_qDensity->currentText().toStdString();
    mode.expression = m_qExpression->text().trimmed();
    if (mode.kind == RatioQMode::Expression && mode.expression.isEmpty()) {
        // Nothing to parse yet: show the field; the mode is set when it is edited.
        m_qDensity->setVisible(false);
        m_qExpression->setVisible(true);
        m_qExpression->setFocus();
        return;
    }
    m_ratio->setQMode(mode);
}

void RatioView::refreshBusy(bool busy)
{
    m_fitButton->setEnabled(!busy && m_ratio->ready());
    m_cancelButton->setEnabled(busy);
    if (!busy) {
        m_progress->setRange(0, 1);
        m_progress->setValue(0);
    } else {
        m_progress->setRange(0, 0);
    }
}

void RatioView::redraw()
{
    syncSlider();
    updateReadout();
    const RatioResult* r = m_ratio->result();
    const QStringList names = m_data->data().featureNames();
    if (r) {
        m_plot->showResult(*r, m_ratio->pRaw(), m_ratio->qRaw(), names);
    } else {
        const Matrix& p = m_ratio->pRaw();
        const int last = int(std::max<Eigen::Index>(p.cols(), 1)) - 1;
        m_plot->showSamples(p, m_ratio->qRaw(), std::min(m_data->data().plotX(), last),
                            std::min(m_data->data().plotY(), last), names,
                            m_ratio->ready() ? tr("Density ratio q/p: press Fit ratio")
                                             : tr("Density ratio q/p: choose a q sample first"));
    }
    // The rectangle q was picked in stays drawn, so the split can be read off the map.
    const RatioSource& s = m_ratio->source();
    m_plot->setQRectangle(s.kind == RatioSource::Rect
                              ? QRectF(QPointF(s.x0, s.y0), QPointF(s.x1, s.y1)).normalized()
                              : QRectF(),
                          s.xColumn, s.yColumn);
}

QString RatioView::saveWeights(const QString& path)
{
    const RatioResult* r = m_ratio->result();
    if (!r) {
        return tr("%1: no ratio fitted yet").arg(path);
    }
    try {
        io::OutputSet out;
        out.plan(path.toStdString(), "weights");
        out.stage(path.toStdString(), io::weightsText(r->weights));
        out.commit();
        return {};
    } catch (const std::exception& e) {
        return tr("%1: cannot write the weights (%2)").arg(path, QString::fromStdString(e.what()));
    }
}

QString RatioView::readoutText() const
{
    return m_readout->text();
}

void RatioView::updateReadout()
{
    const RatioResult* r = m_ratio->result();
    m_saveWeights->setEnabled(r != nullptr);
    if (!r) {
        m_readout->setText(tr("Fit a ratio to see the importance weights."));
        return;
    }
    const WeightSummary& s = r->summary;
    QString html;
    for (const QString& w : r->warnings + r->weightWarnings) {
        html += tr("<p style='color:#a04000'><b>Note:</b> %1</p>").arg(w.toHtmlEscaped());
    }
    html += tr("<b>Weights on the %1 rows of p</b> (raw, as estimated):<br>"
               "mean %2 (E<sub>p</sub>[q/p] = 1), ESS %3 (%4 %), negative %5 %, "
               "χ² plug-in %6, range [%7, %8]")
                .arg(r->weights.size())
                .arg(QString::number(s.mean, 'g', 4))
                .arg(QString::number(s.ess, 'f', 1))
                .arg(QString::number(100.0 * s.essFraction, 'f', 1))
                .arg(QString::number(100.0 * s.negativeShare, 'f', 1))
                .arg(QString::number(s.chi2, 'g', 4))
                .arg(QString::number(s.minimum, 'g', 3))
                .arg(QString::number(s.maximum, 'g', 3));
    html += tr("<br><br><b>Column means</b> (p reweighted: (1/n) Σ wᵢ xᵢ)"
               "<table cellspacing='4'><tr><th align='left'>column</th><th>p</th><th>q</th>"
               "<th>p reweighted</th></tr>");
    for (Eigen::Index j = 0; j < r->pMean.size() && j < 12; ++j) {
        html += QStringLiteral("<tr><td>%1</td><td>%2</td><td>%3</td><td><b>%4</b></td></tr>")
                    .arg(columnName(m_data, int(j)).toHtmlEscaped(),
                         QString::number(r->pMean(j), 'g', 4), QString::number(r->qMean(j), 'g', 4),
                         QString::number(r->reweightedMean(j), 'g', 4));
    }
    html += QStringLiteral("</table>");
    html += tr("<br>Fitted in %1 s. Clipping at 0 and renormalizing are post-processing "
               "(sosrep ratio --weights-out writes all three).")
                .arg(QString::number(r->seconds, 'f', 2));
    m_readout->setText(html);
}

void RatioView::syncSlider()
{
    const RatioResult* r = m_ratio->result();
    const bool path = r && r->model->hasPath();
    m_syncing = true;
    m_lambda->setEnabled(path);
    if (path) {
        m_lambda->setValue(sliderPosition(r->shown->lambda()));
        m_lambdaLabel->setText(
            tr("λ = %1 (fitted: %2). The whole path comes from one eigendecomposition.")
                .arg(QString::number(r->shown->lambda(), 'g', 3),
                     QString::number(r->model->lambda(), 'g', 3)));
    } else {
        m_lambdaLabel->setText(r ? tr("This estimator has no λ path.")
                                 : tr("After a FIRE fit, λ moves here without refitting."));
    }
    m_syncing = false;
}

QString RatioView::splitChoice() const
{
    return m_splitColumn->currentIndex() < 0 ? QString() : m_splitColumn->currentText();
}

double RatioView::splitValue() const
{
    return m_splitValue->value();
}

} // namespace sosrep::ui
