// SPDX-License-Identifier: MIT
// The Optimizer view: natural against standard gradient, live.
#include "ui/plots/optimizer_view.h"

#include "core/estimators/registry.h"
#include "core/experiments/negativity.h"
#include "ui/controller/fit_controller.h"
#include "ui/controller/session.h"
#include "ui/plots/trace_plot.h"

#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QVBoxLayout>

namespace sosrep::ui {

OptimizerView::OptimizerView(FitController* fits, QWidget* parent)
    : QWidget(parent), m_fits(fits), m_controller(fits->session()), m_plot(new TracePlot)
{
    auto* bar = new QHBoxLayout;
    bar->addWidget(new QLabel(tr("Natural vs standard: λ")));
    m_rate = new QDoubleSpinBox;
    m_rate->setDecimals(4);
    m_rate->setRange(1e-4, 100.0);
    m_rate->setStepType(QAbstractSpinBox::AdaptiveDecimalStepType);
    m_rate->setToolTip(tr("λ of both updates (paper eqs. 7 and 8)"));
    bar->addWidget(m_rate);
    bar->addWidget(new QLabel(tr("iter.")));
    m_iterations = new QSpinBox;
    m_iterations->setRange(1, 100000);
    bar->addWidget(m_iterations);
    m_run = new QPushButton(tr("Run"));
    m_run->setToolTip(tr("Run both from the same start on the fitted kernel (no refit)"));
    bar->addWidget(m_run);
    const NegativitySettings paper;
    m_paper = new QPushButton(tr("Fig. 3 setting"));
    m_paper->setToolTip(
        tr("The Fig. 3 experiment's setting, one start: the paper's %2 iterations at λ = %1 "
           "(the paper gives no step; ours, as in the negativity experiment); the many-start "
           "experiment is under Many starts")
            .arg(paper.learningRate)
            .arg(paper.iterations));
    bar->addWidget(m_paper);
    m_newton = new QCheckBox(tr("Newton"));
    m_newton->setChecked(true);
    m_newton->setToolTip(tr("Show the path of the fit's own solver, when it is Newton"));
    bar->addWidget(m_newton);
    m_many = new QPushButton(tr("Many starts…"));
    m_many->setToolTip(tr("The negativity experiment: many starts, worst-k share (paper Fig. 3)"));
    bar->addWidget(m_many);
    bar->addStretch();
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 0);
    layout->addLayout(bar);
    m_deferredNote = new QLabel;
    m_deferredNote->setObjectName(QStringLiteral("deferredNote"));
    m_deferredNote->setWordWrap(true);
    m_deferredNote->setVisible(false);
    layout->addWidget(m_deferredNote);
    m_kindNote = new QLabel;
    m_kindNote->setObjectName(QStringLiteral("kindNote"));
    m_kindNote->setWordWrap(true);
    m_kindNote->setVisible(false);
    layout->addWidget(m_kindNote);
    layout->addWidget(m_plot, 1);

    connect(m_rate, &QDoubleSpinBox::editingFinished, this, &OptimizerView::apply);
    connect(m_iterations, &QSpinBox::editingFinished, this, &OptimizerView::apply);
    connect(m_run, &QPushButton::clicked, this, [this] {
        apply();
        m_fits->rerunSolverComparison();
    });
    connect(m_paper, &QPushButton::clicked, this, &OptimizerView::runPaperSetting);
    connect(m_newton, &QCheckBox::toggled, this,
            [this](bool on) { m_plot->setRunVisible("newton", on); });
    connect(m_many, &QPushButton::clicked, this, &OptimizerView::negativityRequested);
    connect(m_controller, &Session::settingsChanged, this, &OptimizerView::refresh);
    connect(m_controller, &Session::busyChanged, this, &OptimizerView::refresh);
    connect(m_controller, &Session::fitFinished, this, [this] {
        refresh();
        startDeferredIfShown();
    });
    connect(m_fits, &FitController::solverComparisonFinished, this, &OptimizerView::refresh);
    connect(m_controller, &Session::dataChanged, this, &OptimizerView::refresh);
    refresh();
}

void OptimizerView::refresh()
{
    const SolverComparisonSettings& s = m_controller->solverComparison();
    const QSignalBlocker a(m_rate);
    const QSignalBlocker b(m_iterations);
    m_rate->setValue(s.learningRate);
    m_iterations->setValue(s.iterations);
    const FitJobResult* r = m_controller->result();
    const bool runnable = r && r->model().kernelField() && !m_controller->isBusy();
    m_run->setEnabled(runnable);
    m_paper->setEnabled(runnable);
    m_rate->setEnabled(runnable);
    m_iterations->setEnabled(runnable);
    // Say what this view shows for the estimator at hand (it showed empty SOSREP axes for the
    // detectors, and SOSREP's runs for KDE without a word).
    const std::string& name = m_controller->settings().estimator;
    const Capabilities caps = EstimatorRegistry::instance().get(name).capabilities();
    const QString estimator = QString::fromStdString(name);
    QString why;
    if (!caps.usesKernel) {
        why = tr("%1 is not fitted by an optimizer (no kernel, no solver): this view has "
                 "nothing to show for it. Choose SOSREP to watch its solver.")
                  .arg(estimator);
    } else if (!caps.liveTrace) {
        why = tr("%1 is a closed form (no solver). The runs below, when shown, are SOSREP's "
                 "natural and standard gradients on the same kernel, started from %1's "
                 "weights: they show how SOSREP's optimizers behave there, not how %1 was "
                 "fitted.")
                  .arg(estimator);
    }
    m_kindNote->setText(why);
    m_kindNote->setVisible(!why.isEmpty());
    m_plot->setVisible(caps.usesKernel);
    // The fit's own Newton path exists only for an estimator with a solver; the many-start
    // experiment needs a kernel (both stayed enabled for IForest).
    m_newton->setEnabled(caps.liveTrace);
    m_many->setEnabled(caps.usesKernel && !m_controller->isBusy());
    const bool deferred = m_fits->solverComparisonDeferred();
    if (deferred) {
        const Eigen::Index centres = r->model().kernel()->size();
        m_deferredNote->setText(
            m_fits->solverComparisonAsks()
                ? tr("This fit has %1 kernel centres: the natural-vs-standard runs (2 × %2 "
                     "kernel products, about %3 s) were left out of the fit. Press Run to start "
                     "them (Esc cancels).")
                      .arg(centres)
                      .arg(s.iterations)
                      .arg(QString::number(s.entries(centres) / 4e9, 'f', 0))
                : tr("This fit has %1 kernel centres, so the natural-vs-standard runs (up to "
                     "2 × %2 kernel products) were left out of the fit: they start when this "
                     "view is shown (Esc cancels; Run starts them again).")
                      .arg(centres)
                      .arg(s.iterations));
    }
    m_deferredNote->setVisible(deferred);
}

void OptimizerView::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    startDeferredIfShown();
}

void OptimizerView::startDeferredIfShown()
{
    if (isVisible() && m_fits->startDeferredSolverComparison()) {
        refresh();
    }
}

void OptimizerView::apply()
{
    SolverComparisonSettings s = m_controller->solverComparison();
    if (s.learningRate == m_rate->value() && s.iterations == m_iterations->value()) {
        return;
    }
    s.learningRate = m_rate->value();
    s.iterations = m_iterations->value();
    m_controller->setSolverComparison(s);
}

void OptimizerView::runPaperSetting()
{
    const NegativitySettings paper;
    SolverComparisonSettings s = m_controller->solverComparison();
    s.enabled = true;
    s.learningRate = paper.learningRate;
    s.iterations = paper.iterations;
    m_controller->setSolverComparison(s);
    m_fits->rerunSolverComparison();
}

} // namespace sosrep::ui
