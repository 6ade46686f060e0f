// SPDX-License-Identifier: MIT
#include "ui/plots/ratio_view.h"

#include "core/estimators/common_options.h"
#include "core/estimators/registry.h"
#include "core/grid/contour.h"
#include "ui/controller/estimation_controller.h"
#include "ui/controller/ratio_controller.h"
#include "ui/panels/option_editor.h"
#include "ui/plots/plot_style.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QSlider>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include <algorithm>
#include <cmath>

namespace sosrep::ui {
namespace {

constexpr double kMaxLogRatio = 6.907755; // log 1000: the colour scale stops at ratios 1e+-3
constexpr int kSliderSteps = 110;         // log10 lambda from -12 to -1 in steps of 0.1
constexpr int kMaxPoints = 3000;          // points drawn per sample (evenly strided beyond)

/// ColorBrewer's RdBu, reversed: blue where q < p, white at q = p, red where q > p.
QCPColorGradient diverging()
{
    QCPColorGradient g;
    g.clearColorStops();
    g.setColorStopAt(0.0, QColor(33, 102, 172));
    g.setColorStopAt(0.25, QColor(103, 169, 207));
    g.setColorStopAt(0.5, QColor(247, 247, 247));
    g.setColorStopAt(0.75, QColor(239, 138, 98));
    g.setColorStopAt(1.0, QColor(178, 24, 43));
    g.setColorInterpolation(QCPColorGradient::ciRGB);
    return g;
}

double sliderLambda(int v)
{
    return std::pow(10.0, -12.0 + v / 10.0);
}

int sliderPosition(double lambda)
{
    return std::clamp(int(std::lround((std::log10(lambda) + 12.0) * 10.0)), 0, kSliderSteps);
}

void setPoints(QCPGraph* g, const Matrix& x, int xc, int yc, double fixedY)
{
    QVector<double> a, b;
    const Eigen::Index stride = std::max<Eigen::Index>(1, x.rows() / kMaxPoints);
    for (Eigen::Index i = 0; i < x.rows(); i += stride) {
        a << x(i, xc);
        b << (x.cols() > 1 ? x(i, yc) : fixedY);
    }
    g->setData(a, b);
}

QString columnName(const EstimationController* data, int c)
{
    const QStringList names = data->featureNames();
    return c >= 0 && c < names.size() ? names[c] : QStringLiteral("x%1").arg(c + 1);
}

} // namespace

RatioView::RatioView(RatioController* ratio, EstimationController* data, QWidget* parent)
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
    buildPlot();
    layout->addWidget(m_plot, 1);

    connect(m_ratio, &RatioController::samplesChanged, this, &RatioView::refreshSamples);
    connect(m_ratio, &RatioController::settingsChanged, this, &RatioView::rebuildOptions);
    connect(m_ratio, &RatioController::busyChanged, this, &RatioView::refreshBusy);
    connect(m_ratio, &RatioController::resultChanged, this, &RatioView::redraw);
    connect(m_ratio, &RatioController::progressChanged, this, [this](int done, int total) {
        m_progress->setRange(0, total);
        m_progress->setValue(done);
    });
    connect(m_data, &EstimationController::dataChanged, this, &RatioView::refreshSamples);
    connect(m_data, &EstimationController::settingsChanged, this, [this] {
        m_ratio->setPlotColumns(m_data->plotX(), m_data->plotY());
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
    auto* splitRow = new QHBoxLayout;
    splitRow->addWidget(new QLabel(tr("q = rows with"), samples));
    m_splitColumn = new QComboBox(samples);
    splitRow->addWidget(m_splitColumn, 1);
    splitRow->addWidget(new QLabel(QStringLiteral("="), samples));
    m_splitValue = new QDoubleSpinBox(samples);
    m_splitValue->setRange(-1e12, 1e12);
    m_splitValue->setDecimals(4);
    m_splitValue->setValue(1.0);
    splitRow->addWidget(m_splitValue);
    sl->addLayout(splitRow);
    auto* split = new QPushButton(tr("Split the loaded data"), samples);
    connect(split, &QPushButton::clicked, this, [this] {
        RatioSource s;
        s.kind = RatioSource::Column;
        s.column = m_splitColumn->currentText();
        s.value = m_splitValue->value();
        m_ratio->setSource(s);
    });
    sl->addWidget(split);
    m_rectButton = new QPushButton(tr("q = rows in a rectangle: drag it on the map"), samples);
    m_rectButton->setCheckable(true);
    connect(m_rectButton, &QPushButton::toggled, this, &RatioView::setPickMode);
    sl->addWidget(m_rectButton);
    auto* modeRow = new QHBoxLayout;
    modeRow->addWidget(new QLabel(tr("q is"), samples));
    m_qMode = new QComboBox(samples);
    m_qMode->addItem(tr("the q rows, a sample (Type I)"));
    m_qMode->addItem(tr("a density fitted to the q rows (Type II)"));
    m_qMode->addItem(tr("an expression q(x1, …, xd) (Type II)"));
    m_qMode->addItem(tr("1: the inverse density 1/p (Type II)"));
    m_qMode->setToolTip(tr("Type II solves the Fredholm equation with q known at the p rows "
                           "(paper eq. 16): FIRE with the L2,p or cut-off loss"));
    modeRow->addWidget(m_qMode, 1);
    sl->addLayout(modeRow);
    m_qDensity = new QComboBox(samples);
    for (const Estimator* e : EstimatorRegistry::instance().family(false)) {
        m_qDensity->addItem(QString::fromStdString(e->name()));
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
    layout->addWidget(samples);

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
    layout->addWidget(model);

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
    layout->addWidget(path);

    auto* reweight = new QGroupBox(tr("Reweighting p toward q"), column);
    auto* rl = new QVBoxLayout(reweight);
    m_readout = new QLabel(reweight);
    m_readout->setWordWrap(true);
    m_readout->setTextInteractionFlags(Qt::TextSelectableByMouse);
    rl->addWidget(m_readout);
    layout->addWidget(reweight);
    layout->addStretch(1);
}

void RatioView::buildPlot()
{
    m_plot = new QCustomPlot(this);
    m_plot->setAutoAddPlottableToLegend(false);
    m_plot->plotLayout()->clear();
    m_title = new QCPTextElement(m_plot, QString(), QFont(font().family(), 10, QFont::Bold));
    m_plot->plotLayout()->addElement(0, 0, m_title);
    m_body = new QCPLayoutGrid;
    m_plot->plotLayout()->addElement(1, 0, m_body);
    // Three blocks, arranged side by side or stacked by arrange() as the plot's width allows.
    m_mapBlock = new QCPLayoutGrid;
    m_mapRect = new QCPAxisRect(m_plot);
    m_mapBlock->addElement(0, 0, m_mapRect);
    m_mapScale = new QCPColorScale(m_plot);
    m_mapBlock->addElement(0, 1, m_mapScale);
    m_mapBlock->setColumnStretchFactors({1.0, 0.01});
    m_surfaceBlock = new QCPLayoutGrid;
    m_surfaceRect = new QCPAxisRect(m_plot);
    m_surfaceBlock->addElement(0, 0, m_surfaceRect);
    m_surfaceScale = new QCPColorScale(m_plot);
    m_surfaceBlock->addElement(0, 1, m_surfaceScale);
    m_surfaceBlock->setColumnStretchFactors({1.0, 0.01});
    m_histRect = new QCPAxisRect(m_plot);
    arrange(true);
    m_plot->installEventFilter(this);
    auto* mapGroup = new QCPMarginGroup(m_plot);
    m_mapRect->setMarginGroup(QCP::msTop | QCP::msBottom, mapGroup);
    m_mapScale->setMarginGroup(QCP::msTop | QCP::msBottom, mapGroup);
    auto* surfaceGroup = new QCPMarginGroup(m_plot);
    m_surfaceRect->setMarginGroup(QCP::msTop | QCP::msBottom, surfaceGroup);
    m_surfaceScale->setMarginGroup(QCP::msTop | QCP::msBottom, surfaceGroup);

    QCPAxis* mx = m_mapRect->axis(QCPAxis::atBottom);
    QCPAxis* my = m_mapRect->axis(QCPAxis::atLeft);
    m_map = new QCPColorMap(mx, my);
    m_map->setColorScale(m_mapScale);
    m_map->setGradient(diverging());
    m_map->setInterpolate(true);
    m_mapScale->setType(QCPAxis::atRight);
    m_zero = new QCPCurve(mx, my);
    m_zero->setPen(QPen(QColor(20, 20, 20), 1.6));
    m_zero->setName(tr("log ratio = 0 (q = p)"));
    m_pPoints = m_plot->addGraph(mx, my);
    m_pPoints->setLineStyle(QCPGraph::lsNone);
    m_pPoints->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, QColor(0, 0, 0, 170),
                                               QColor(255, 255, 255, 120), 4));
    m_qPoints = m_plot->addGraph(mx, my);
    m_qPoints->setLineStyle(QCPGraph::lsNone);
    m_qPoints->setScatterStyle(
        QCPScatterStyle(QCPScatterStyle::ssTriangle, QPen(QColor(0, 90, 50), 1.2), QBrush(), 5));
    auto* legend = new QCPLegend;
    m_mapRect->insetLayout()->addElement(legend, Qt::AlignTop | Qt::AlignRight);
    legend->setLayer(QStringLiteral("legend"));
    legend->setBrush(QColor(255, 255, 255, 210));
    legend->setFont(QFont(font().family(), 8));
    m_pPoints->addToLegend(legend);
    m_qPoints->addToLegend(legend);
    m_zero->addToLegend(legend);

    QCPAxis* sx = m_surfaceRect->axis(QCPAxis::atBottom);
    QCPAxis* sy = m_surfaceRect->axis(QCPAxis::atLeft);
    m_surface = new QCPColorMap(sx, sy);
    m_surface->setColorScale(m_surfaceScale);
    m_surface->setGradient(colormap(QStringLiteral("viridis")));
    m_surface->setInterpolate(false);
    m_surfaceScale->setType(QCPAxis::atRight);
    m_choice = m_plot->addGraph(sx, sy);
    m_choice->setLineStyle(QCPGraph::lsNone);
    m_choice->setScatterStyle(
        QCPScatterStyle(QCPScatterStyle::ssStar, QPen(Qt::white, 2.0), QBrush(), 14));
    m_shownLambda = m_plot->addGraph(sx, sy);
    m_shownLambda->setLineStyle(QCPGraph::lsNone);
    m_shownLambda->setScatterStyle(
        QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(QColor(255, 80, 80), 2.0), QBrush(), 11));

    QCPAxis* hx = m_histRect->axis(QCPAxis::atBottom);
    QCPAxis* hy = m_histRect->axis(QCPAxis::atLeft);
    m_bars = new QCPBars(hx, hy);
    m_bars->setPen(Qt::NoPen);
    m_bars->setBrush(colors::natural());
    m_bars->setWidthType(QCPBars::wtPlotCoords);
    m_one = new QCPItemStraightLine(m_plot);
    m_one->setClipAxisRect(m_histRect);
    m_one->point1->setAxes(hx, hy);
    m_one->point2->setAxes(hx, hy);
    m_one->setPen(QPen(QColor(60, 60, 60), 1.2, Qt::DashLine));
    m_plot->setNoAntialiasingOnDrag(true);

    connect(m_plot->selectionRect(), &QCPSelectionRect::accepted, this,
            [this](const QRect& r, QMouseEvent*) {
                const RatioResult* res = m_ratio->result();
                const QCPAxis* x = m_mapRect->axis(QCPAxis::atBottom);
                const QCPAxis* y = m_mapRect->axis(QCPAxis::atLeft);
                RatioSource s;
                s.kind = RatioSource::Rect;
                s.xColumn = res ? res->xColumn : m_data->plotX();
                s.yColumn = res ? res->yColumn : m_data->plotY();
                s.x0 = x->pixelToCoord(r.left());
                s.x1 = x->pixelToCoord(r.right());
                s.y0 = y->pixelToCoord(r.bottom());
                s.y1 = y->pixelToCoord(r.top());
                m_rectButton->setChecked(false);
                m_ratio->setSource(s);
            });
}

void RatioView::arrange(bool wide)
{
    if (m_arranged && m_wide == wide) {
        return;
    }
    m_arranged = true;
    m_wide = wide;
    for (QCPLayoutElement* e : {static_cast<QCPLayoutElement*>(m_mapBlock),
                                static_cast<QCPLayoutElement*>(m_surfaceBlock),
                                static_cast<QCPLayoutElement*>(m_histRect)}) {
        if (e->layout()) {
            e->layout()->take(e);
        }
    }
    m_body->clear(); // deletes the emptied container of the previous arrangement
    m_body->simplify();
    m_body->addElement(0, 0, m_mapBlock);
    auto* rest = new QCPLayoutGrid;
    if (wide) {
        // Map on the left, tuning surface over the histogram on the right.
        m_body->addElement(0, 1, rest);
        rest->addElement(0, 0, m_surfaceBlock);
        rest->addElement(1, 0, m_histRect);
        m_body->setColumnStretchFactors({3.0, 2.4});
    } else {
        // Narrow windows: the map on top, the two small panels side by side beneath.
        m_body->addElement(1, 0, rest);
        rest->addElement(0, 0, m_surfaceBlock);
        rest->addElement(0, 1, m_histRect);
        rest->setColumnStretchFactors({1.3, 1.0});
        m_body->setRowStretchFactors({3.0, 2.0});
    }
}

bool RatioView::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_plot && event->type() == QEvent::Resize) {
        const bool wide = m_plot->width() >= 820;
        if (!m_arranged || wide != m_wide) {
            arrange(wide);
            m_plot->replot(QCustomPlot::rpQueuedReplot);
        }
    }
    return QWidget::eventFilter(watched, event);
}

void RatioView::setPickMode(bool on)
{
    m_plot->setSelectionRectMode(on ? QCP::srmCustom : QCP::srmNone);
    m_plot->setCursor(on ? Qt::CrossCursor : Qt::ArrowCursor);
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
        m_syncing = false;
    }
    const QString current = m_splitColumn->currentText();
    m_splitColumn->clear();
    for (const std::string& c : m_data->rawData().columns) {
        m_splitColumn->addItem(QString::fromStdString(c));
    }
    const int keep = m_splitColumn->findText(current);
    if (keep >= 0) {
        m_splitColumn->setCurrentIndex(keep);
    } else if (m_data->rawData().labelName.empty()) {
        m_splitColumn->setCurrentIndex(m_splitColumn->count() - 1);
    }
    for (OptionEditor* e : m_editors) {
        e->refresh();
    }
    refreshBusy(m_ratio->isBusy());
    redraw();
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
    if (!r) {
        m_map->data()->clear();
        m_zero->data()->clear();
        m_surface->data()->clear();
        m_choice->data()->clear();
        m_shownLambda->data()->clear();
        m_bars->data()->clear();
        // The samples alone, so a rectangle can be dragged before any fit.
        const Matrix& p = m_ratio->pRaw();
        const Matrix& q = m_ratio->qRaw();
        const int xc = std::min<int>(m_data->plotX(), int(std::max<Eigen::Index>(p.cols(), 1)) - 1);
        const int yc = std::min<int>(m_data->plotY(), int(std::max<Eigen::Index>(p.cols(), 1)) - 1);
        if (p.rows() > 0) {
            setPoints(m_pPoints, p, xc, yc, 0.0);
            setPoints(m_qPoints, q, xc, yc, 0.0);
            m_pPoints->setName(tr("p sample (%1 rows)").arg(p.rows()));
            m_qPoints->setName(tr("q sample (%1 rows)").arg(q.rows()));
            m_pPoints->rescaleAxes();
            m_qPoints->rescaleAxes(true);
            m_mapRect->axis(QCPAxis::atBottom)->setLabel(columnName(m_data, xc));
            m_mapRect->axis(QCPAxis::atLeft)->setLabel(columnName(m_data, yc));
        } else {
            m_pPoints->data()->clear();
            m_qPoints->data()->clear();
        }
        m_title->setText(m_ratio->ready() ? tr("Density ratio q/p: press Fit ratio")
                                          : tr("Density ratio q/p: choose a q sample first"));
        m_surfaceRect->axis(QCPAxis::atBottom)->setLabel(tr("kernel variance t"));
        m_histRect->axis(QCPAxis::atBottom)->setLabel(tr("importance weights"));
        m_plot->replot();
        return;
    }
    drawMap();
    drawSurface();
    drawHistogram();
    const RatioModel& m = *r->shown;
    QString title = tr("Density ratio q/p by %1").arg(QString::fromStdString(m.estimator()));
    if (m.t() > 0.0) {
        title += tr(": t = %1").arg(QString::number(m.t(), 'g', 3));
    }
    if (m.estimator() == "fire" || m.estimator() == "ulsif") {
        title += tr(", λ = %1").arg(QString::number(m.lambda(), 'g', 3));
    }
    if (r->grid.rows() > 1 && m_ratio->pRaw().cols() > 2) {
        title += tr(" (map: a slice, other columns at their p means)");
    }
    m_title->setText(title);
    m_plot->replot();
}

void RatioView::drawMap()
{
    const RatioResult& r = *m_ratio->result();
    const int ny = int(r.grid.rows()), nx = int(r.grid.cols());
    QCPAxis* x = m_mapRect->axis(QCPAxis::atBottom);
    QCPAxis* y = m_mapRect->axis(QCPAxis::atLeft);
    x->setLabel(columnName(m_data, r.xColumn));
    setPoints(m_pPoints, m_ratio->pRaw(), r.xColumn, r.yColumn, 0.0);
    setPoints(m_qPoints, m_ratio->qRaw(), r.xColumn, r.yColumn, 0.0);
    m_pPoints->setName(tr("p sample (%1 rows)").arg(m_ratio->pRaw().rows()));
    m_qPoints->setName(tr("q sample (%1 rows)").arg(m_ratio->qRaw().rows()));
    if (ny == 1) {
        // One column: the ratio as a curve, the samples as rugs at 0.
        m_map->data()->clear();
        m_map->setVisible(false);
        m_mapScale->setVisible(false);
        QVector<double> t, a, b;
        for (int i = 0; i < nx; ++i) {
            t << i;
            a << r.xMin + (r.xMax - r.xMin) * (i + 0.5) / nx;
            b << r.grid(0, i);
        }
        m_zero->setData(t, a, b, true);
        m_zero->setName(tr("estimated ratio f(x)"));
        y->setLabel(tr("ratio q/p"));
        x->setRange(r.xMin, r.xMax);
        y->setRange(std::min(0.0, r.grid.minCoeff()) - 0.1, r.grid.maxCoeff() * 1.1 + 0.1);
        return;
    }
    m_map->setVisible(true);
    m_mapScale->setVisible(true);
    y->setLabel(columnName(m_data, r.yColumn));
    Matrix logRatio(ny, nx);
    int nonPositive = 0;
    double extent;
    for (int j = 0; j < ny; ++j) {
        for (int i = 0; i < nx; ++i) {
            const double v = r.grid(j, i);
            if (v > 0.0 && std::isfinite(v)) {
                logRatio(j, i) = std::log(v);
            } else {
                logRatio(j, i) = -kMaxLogRatio;
                ++nonPositive;
            }
        }
    }
    // Symmetric about 0 and set by the largest ratio, so where q > p reads at once; lower
    // values (f near 0, or f <= 0) run into the lowest colour, as the label says.
    const double top = logRatio.maxCoeff();
    extent = std::clamp(top, std::log(2.0), kMaxLogRatio);
    const bool clipped = logRatio.minCoeff() < -extent || top > extent;
    m_map->data()->setSize(nx, ny);
    m_map->data()->setRange(
        QCPRange(r.xMin + (r.xMax - r.xMin) * 0.5 / nx, r.xMax - (r.xMax - r.xMin) * 0.5 / nx),
        QCPRange(r.yMin + (r.yMax - r.yMin) * 0.5 / ny, r.yMax - (r.yMax - r.yMin) * 0.5 / ny));
    std::vector<double> xs(static_cast<size_t>(nx)), ys(static_cast<size_t>(ny));
    for (int i = 0; i < nx; ++i) {
        xs[size_t(i)] = r.xMin + (r.xMax - r.xMin) * (i + 0.5) / nx;
    }
    for (int j = 0; j < ny; ++j) {
        ys[size_t(j)] = r.yMin + (r.yMax - r.yMin) * (j + 0.5) / ny;
    }
    for (int j = 0; j < ny; ++j) {
        for (int i = 0; i < nx; ++i) {
            m_map->data()->setCell(i, j, logRatio(j, i));
        }
    }
    m_map->setDataRange(QCPRange(-extent, extent));
    QString label = tr("log ratio log(q/p)");
    if (nonPositive > 0) {
        label += tr(" (clipped at ±%1; f ≤ 0 in %2 % of cells)")
                     .arg(QString::number(extent, 'f', 1))
                     .arg(QString::number(100.0 * nonPositive / (nx * ny), 'f', 1));
    } else if (clipped) {
        label += tr(" (clipped at ±%1)").arg(QString::number(extent, 'f', 1));
    }
    m_mapScale->axis()->setLabel(label);
    QVector<double> t, a, b;
    int k = 0;
    for (const ContourSegment& s : marchingSquares(logRatio, xs, ys, 0.0)) {
        t << k << k + 1 << k + 2;
        a << s.x0 << s.x1 << qQNaN();
        b << s.y0 << s.y1 << qQNaN();
        k += 3;
    }
    m_zero->setData(t, a, b, true);
    m_zero->setName(tr("log ratio = 0 (q = p)"));
    x->setRange(r.xMin, r.xMax);
    y->setRange(r.yMin, r.yMax);
}

void RatioView::drawSurface()
{
    const RatioResult& r = *m_ratio->result();
    QCPAxis* x = m_surfaceRect->axis(QCPAxis::atBottom);
    QCPAxis* y = m_surfaceRect->axis(QCPAxis::atLeft);
    m_choice->data()->clear();
    m_shownLambda->data()->clear();
    if (!r.model->surface()) {
        m_surface->data()->clear();
        x->setLabel(tr("no tuning: the parameters were given"));
        m_surfaceScale->axis()->setLabel(QString());
        return;
    }
    const JSurface& s = *r.model->surface();
    const int nt = int(s.t.size()), nl = int(s.lambda.size());
    bool positive = true;
    for (Eigen::Index a = 0; a < s.j.rows(); ++a) {
        for (Eigen::Index b = 0; b < s.j.cols(); ++b) {
            positive = positive && (!std::isfinite(s.j(a, b)) || s.j(a, b) > 0.0);
        }
    }
    m_surface->data()->setSize(nt, nl);
    m_surface->data()->setRange(QCPRange(0, nt - 1), QCPRange(0, nl - 1));
    for (int a = 0; a < nt; ++a) {
        for (int b = 0; b < nl; ++b) {
            const double v = s.j(a, b);
            m_surface->data()->setCell(a, b,
                                       std::isfinite(v) ? (positive ? std::log10(v) : v) : qQNaN());
        }
    }
    m_surface->rescaleDataRange(true);
    auto tTicks = QSharedPointer<QCPAxisTickerText>::create();
    for (int a : {0, (nt - 1) / 2, nt - 1}) { // three labels: the cells are narrow
        tTicks->addTick(a, QString::number(s.t[size_t(a)], 'g', 2));
    }
    x->setTicker(tTicks);
    auto lTicks = QSharedPointer<QCPAxisTickerText>::create();
    for (int b = 0; b < nl; ++b) {
        lTicks->addTick(b, QString::number(s.lambda[size_t(b)], 'g', 2));
    }
    y->setTicker(lTicks);
    const bool threshold = r.model->estimator() == "tikde";
    x->setLabel(tr("kernel variance t"));
    y->setLabel(threshold ? tr("threshold τ") : tr("λ"));
    x->setRange(-0.5, nt - 0.5);
    y->setRange(-0.5, nl - 0.5);
    m_surfaceScale->axis()->setLabel((positive ? tr("log10 ") : QString()) +
                                     QString::fromStdString(s.criterion) +
                                     (s.criterion == "J" ? tr(" (held-out folds)") : QString()));
    m_choice->setData({double(s.bestT)}, {double(s.bestLambda)});
    m_choice->setName(tr("choice"));
    // The slider's lambda between the grid's (log-spaced, decreasing) values.
    const double shown = r.shown->lambda();
    if (r.model->hasPath() && shown != r.model->lambda() && nl > 1 && s.lambda.front() > 0.0) {
        const double step = std::log10(s.lambda[1] / s.lambda[0]);
        const double pos = std::log10(shown / s.lambda[0]) / step;
        m_shownLambda->setData({double(s.bestT)}, {pos});
    }
}

void RatioView::drawHistogram()
{
    const RatioResult& r = *m_ratio->result();
    std::vector<double> w(r.weights.data(), r.weights.data() + r.weights.size());
    w.erase(std::remove_if(w.begin(), w.end(), [](double v) { return !std::isfinite(v); }),
            w.end());
    QCPAxis* x = m_histRect->axis(QCPAxis::atBottom);
    QCPAxis* y = m_histRect->axis(QCPAxis::atLeft);
    if (w.empty()) {
        m_bars->data()->clear();
        return;
    }
    std::vector<double> sorted = w;
    std::sort(sorted.begin(), sorted.end());
    const double lo = std::min(0.0, sorted.front());
    // The top 0.5 % are left out of the bins (said in the label): one huge weight would squeeze
    // every other bar into the first bin.
    const double hi = std::max(sorted[size_t(0.995 * (sorted.size() - 1))], 1.0) * 1.05;
    const int bins = 40;
    const double width = (hi - lo) / bins;
    QVector<double> centers(bins), counts(bins, 0.0);
    int above = 0;
    for (int b = 0; b < bins; ++b) {
        centers[b] = lo + (b + 0.5) * width;
    }
    for (double v : w) {
        if (v > hi) {
            ++above;
            continue;
        }
        counts[std::clamp(int((v - lo) / width), 0, bins - 1)] += 1.0;
    }
    m_bars->setData(centers, counts, true);
    m_bars->setWidth(width * 0.92);
    const WeightSummary& s = r.summary;
    QString label = tr("weights: ESS %1 / %2 (%3 %)")
                        .arg(QString::number(s.ess, 'f', 0))
                        .arg(w.size())
                        .arg(QString::number(100.0 * s.essFraction, 'f', 0));
    if (s.negativeShare > 0.0) {
        label += tr(", %1 % < 0").arg(QString::number(100.0 * s.negativeShare, 'f', 1));
    }
    if (above > 0) {
        label += tr("; %1 above %2 not drawn").arg(above).arg(QString::number(hi, 'g', 3));
    }
    x->setLabel(label);
    y->setLabel(tr("rows"));
    x->setRange(lo - width, hi + width);
    x->ticker()->setTickCount(4);
    y->setRange(0.0, *std::max_element(counts.begin(), counts.end()) * 1.1 + 1.0);
    y->ticker()->setTickCount(4);
    m_one->point1->setCoords(1.0, 0.0);
    m_one->point2->setCoords(1.0, 1.0);
}

void RatioView::updateReadout()
{
    const RatioResult* r = m_ratio->result();
    if (!r) {
        m_readout->setText(tr("Fit a ratio to see the importance weights."));
        return;
    }
    const WeightSummary& s = r->summary;
    QString html = tr("<b>Weights on the %1 rows of p</b> (raw, as estimated):<br>"
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
    html += tr("<br><br><b>Column means</b>: p, q, p reweighted by (1/n) Σ wᵢ xᵢ"
               "<table cellspacing='4'>");
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

} // namespace sosrep::ui
