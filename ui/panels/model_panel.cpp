// SPDX-License-Identifier: MIT
#include "ui/panels/model_panel.h"

#include "core/estimators/kde.h"
#include "ui/controller/estimation_controller.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QPushButton>
#include <QSlider>
#include <QSpinBox>

#include <cmath>

namespace sosrep::ui {
namespace {

// The slider covers l in [1e-3, 1e2] logarithmically in 1000 steps.
constexpr double kLogMin = -3.0;
constexpr double kLogMax = 2.0;
int sliderFromLength(double l)
{
    return int(std::lround((std::log10(l) - kLogMin) / (kLogMax - kLogMin) * 1000.0));
}
double lengthFromSlider(int v)
{
    return std::pow(10.0, kLogMin + (kLogMax - kLogMin) * v / 1000.0);
}

} // namespace

ModelPanel::ModelPanel(EstimationController* controller, QWidget* parent)
    : QWidget(parent), m_controller(controller)
{
    auto* form = new QFormLayout(this);
    form->setContentsMargins(0, 0, 0, 0);
    m_estimator = new QComboBox(this);
    m_estimator->addItems({QStringLiteral("sosrep"), QStringLiteral("kde")});
    form->addRow(tr("Estimator"), m_estimator);
    m_kernel = new QComboBox(this);
    m_kernel->addItems(
        {QStringLiteral("gaussian"), QStringLiteral("laplace"), QStringLiteral("sdo")});
    form->addRow(tr("Kernel"), m_kernel);
    m_order = new QSpinBox(this);
    m_order->setRange(0, 2000);
    m_order->setSpecialValueText(tr("auto (⌊d/2⌋+1)"));
    form->addRow(tr("SDO order m"), m_order);
    m_sdoMethod = new QComboBox(this);
    m_sdoMethod->addItems({QStringLiteral("rff"), QStringLiteral("exact")});
    m_sdoMethod->setToolTip(tr("rff: random Fourier features (the paper's eq. 12); exact: the "
                               "radial kernel computed by quadrature (no sampling noise)"));
    form->addRow(tr("SDO method"), m_sdoMethod);
    m_features = new QSpinBox(this);
    m_features->setRange(10, 100000);
    m_features->setSingleStep(500);
    form->addRow(tr("SDO features T"), m_features);

    auto* lengthRow = new QHBoxLayout;
    m_lengthSlider = new QSlider(Qt::Horizontal, this);
    m_lengthSlider->setRange(0, 1000);
    m_length = new QDoubleSpinBox(this);
    m_length->setDecimals(5);
    m_length->setRange(1e-5, 1e4);
    m_length->setStepType(QAbstractSpinBox::AdaptiveDecimalStepType);
    lengthRow->addWidget(m_lengthSlider, 1);
    lengthRow->addWidget(m_length);
    form->addRow(tr("Length scale ℓ"), lengthRow);
    // Rules of thumb as numbers (design.md section 3), computed on the scaled data; a click uses
    // one.
    auto* rules = new QHBoxLayout;
    m_scott = new QPushButton(this);
    m_silverman = new QPushButton(this);
    m_scott->setToolTip(
        tr("Scott: σ̄ n^(−1/(d+4)), σ̄ = mean column standard deviation of the scaled data"));
    m_silverman->setToolTip(tr("Silverman: σ̄ (4/(d+2))^(1/(d+4)) n^(−1/(d+4))"));
    rules->addWidget(m_scott);
    rules->addWidget(m_silverman);
    form->addRow(tr("Rules of thumb"), rules);
    auto useRule = [this](double l) {
        ModelSettings s = m_controller->settings();
        s.autoLengthScale = false;
        s.lengthScale = l;
        m_controller->setSettings(s);
    };
    connect(m_scott, &QPushButton::clicked, this, [this, useRule] { useRule(m_scottValue); });
    connect(m_silverman, &QPushButton::clicked, this,
            [this, useRule] { useRule(m_silvermanValue); });
    connect(m_controller, &EstimationController::dataChanged, this, &ModelPanel::updateRules);
    m_auto = new QCheckBox(tr("auto by Fisher divergence"), this);
    form->addRow(QString(), m_auto);
    m_selection = new QComboBox(this);
    m_selection->addItems(
        {QStringLiteral("above-spacing"), QStringLiteral("paper"), QStringLiteral("first-local")});
    form->addRow(tr("Selection rule"), m_selection);

    m_solver = new QComboBox(this);
    m_solver->addItems({QStringLiteral("natural"), QStringLiteral("standard")});
    m_solver->setToolTip(tr("Both run live side by side; this one is plotted and scored"));
    form->addRow(tr("Solver shown"), m_solver);
    m_lr = new QDoubleSpinBox(this);
    m_lr->setDecimals(4);
    m_lr->setRange(1e-4, 10.0);
    m_lr->setSingleStep(0.01);
    form->addRow(tr("Learning rate λ"), m_lr);
    m_iterations = new QSpinBox(this);
    m_iterations->setRange(1, 1000000);
    m_iterations->setSingleStep(100);
    form->addRow(tr("Iterations"), m_iterations);
    m_seed = new QSpinBox(this);
    m_seed->setRange(0, 1000000000);
    form->addRow(tr("Seed"), m_seed);

    // Fit and Cancel in a bar of their own, which the main window pins below the scrolling
    // panels so that it stays visible in short windows.
    m_actions = new QWidget(this);
    auto* buttons = new QHBoxLayout(m_actions);
    buttons->setContentsMargins(0, 0, 0, 0);
    m_fit = new QPushButton(tr("Fit (F5)"), m_actions);
    m_cancel = new QPushButton(tr("Cancel (Esc)"), m_actions);
    buttons->addWidget(m_fit);
    buttons->addWidget(m_cancel);
    form->addRow(m_actions);
    connect(m_fit, &QPushButton::clicked, m_controller, &EstimationController::fit);
    connect(m_cancel, &QPushButton::clicked, m_controller, &EstimationController::cancel);

    connect(m_lengthSlider, &QSlider::valueChanged, this, [this](int v) {
        if (!m_refreshing) {
            m_length->setValue(lengthFromSlider(v));
        }
    });
    for (auto* c : {m_estimator, m_kernel, m_sdoMethod, m_selection, m_solver}) {
        connect(c, &QComboBox::currentIndexChanged, this, &ModelPanel::push);
    }
    for (auto* s : {m_order, m_features, m_iterations, m_seed}) {
        connect(s, &QSpinBox::valueChanged, this, &ModelPanel::push);
    }
    for (auto* s : {m_length, m_lr}) {
        connect(s, &QDoubleSpinBox::valueChanged, this, &ModelPanel::push);
    }
    connect(m_auto, &QCheckBox::toggled, this, &ModelPanel::push);
    connect(m_controller, &EstimationController::settingsChanged, this, &ModelPanel::refresh);
    connect(m_controller, &EstimationController::busyChanged, this, [this](bool busy) {
        m_fit->setEnabled(!busy);
        m_cancel->setEnabled(busy);
    });
    connect(m_controller, &EstimationController::fitFinished, this, [this] {
        // Show the length scale actually used (auto may have picked it).
        if (const FitJobResult* r = m_controller->result()) {
            m_refreshing = true;
            m_length->setValue(r->lengthScale);
            m_lengthSlider->setValue(sliderFromLength(r->lengthScale));
            m_refreshing = false;
        }
    });
    m_cancel->setEnabled(false);
    refresh();
    updateRules();
}

void ModelPanel::updateRules()
{
    const Matrix& x = m_controller->features();
    const bool ok = x.rows() > 1;
    m_scottValue = ok ? scottBandwidth(x) : 0.0;
    m_silvermanValue = ok ? silvermanBandwidth(x) : 0.0;
    m_scott->setText(ok ? tr("Scott %1").arg(m_scottValue, 0, 'g', 3) : tr("Scott"));
    m_silverman->setText(ok ? tr("Silverman %1").arg(m_silvermanValue, 0, 'g', 3)
                            : tr("Silverman"));
    m_scott->setEnabled(ok);
    m_silverman->setEnabled(ok);
}

void ModelPanel::refresh()
{
    m_refreshing = true;
    const ModelSettings& s = m_controller->settings();
    m_estimator->setCurrentText(QString::fromStdString(toString(s.estimator)));
    m_kernel->setCurrentText(QString::fromStdString(toString(s.kernel)));
    m_order->setValue(s.sdoOrder);
    m_features->setValue(s.features);
    m_sdoMethod->setCurrentText(QString::fromStdString(toString(s.sdoMethod)));
    m_length->setValue(s.lengthScale);
    m_lengthSlider->setValue(sliderFromLength(s.lengthScale));
    m_auto->setChecked(s.autoLengthScale);
    m_selection->setCurrentText(QString::fromStdString(toString(s.selection)));
    m_solver->setCurrentText(QString::fromStdString(toString(s.solver)));
    m_lr->setValue(s.learningRate);
    m_iterations->setValue(s.iterations);
    m_seed->setValue(int(s.seed));
    const bool sdo = s.kernel == KernelType::Sdo;
    m_order->setEnabled(sdo);
    m_sdoMethod->setEnabled(sdo);
    m_features->setEnabled(sdo && s.sdoMethod == SdoMethod::Rff);
    m_lengthSlider->setEnabled(!s.autoLengthScale);
    m_length->setEnabled(!s.autoLengthScale);
    m_selection->setEnabled(s.autoLengthScale);
    m_refreshing = false;
}

void ModelPanel::push()
{
    if (m_refreshing) {
        return;
    }
    ModelSettings s = m_controller->settings();
    s.estimator = estimatorKindFromString(m_estimator->currentText().toStdString());
    s.kernel = kernelTypeFromString(m_kernel->currentText().toStdString());
    s.sdoOrder = m_order->value();
    s.features = m_features->value();
    s.sdoMethod = sdoMethodFromString(m_sdoMethod->currentText().toStdString());
    s.lengthScale = m_length->value();
    s.autoLengthScale = m_auto->isChecked();
    s.selection = selectionRuleFromString(m_selection->currentText().toStdString());
    s.solver = solverKindFromString(m_solver->currentText().toStdString());
    s.learningRate = m_lr->value();
    s.iterations = m_iterations->value();
    s.seed = static_cast<uint64_t>(m_seed->value());
    m_controller->setSettings(s);
}

} // namespace sosrep::ui
