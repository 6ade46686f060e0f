// SPDX-License-Identifier: MIT
// The dialog of the negativity experiment's settings.
#include "ui/panels/negativity_dialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

namespace sosrep::ui {

NegativityDialog::NegativityDialog(const NegativitySettings& s, Eigen::Index rows, QWidget* parent)
    : QDialog(parent)
{
    setWindowTitle(tr("Negativity experiment (paper Fig. 3)"));
    auto* intro = new QLabel(
        tr("Natural (eq. 8) and standard (eq. 7) gradient descent from many non-negative "
           "starts on the loaded data (%1 rows, scaled as for the fit). Plotted in the Optimizer "
           "view: "
           "at each iteration, the mean of the worst shares of training points with f(xᵢ) < 0.")
            .arg(rows));
    intro->setWordWrap(true);
    m_kernel = new QComboBox;
    m_kernel->addItems(
        {QStringLiteral("sdo"), QStringLiteral("gaussian"), QStringLiteral("laplace")});
    m_kernel->setCurrentText(QString::fromStdString(toString(s.kernel)));
    m_factor = new QDoubleSpinBox;
    m_factor->setDecimals(3);
    m_factor->setRange(0.001, 100.0);
    m_factor->setValue(s.lengthScaleFactor);
    m_factor->setToolTip(tr("l = this factor x the median pairwise distance of the rows"));
    m_rate = new QDoubleSpinBox;
    m_rate->setDecimals(4);
    m_rate->setRange(0.0001, 10.0);
    m_rate->setSingleStep(0.01);
    m_rate->setValue(s.learningRate);
    m_rate->setToolTip(tr("λ of both updates; Prop. 11: below 0.5 the natural step keeps f ≥ 0 "
                          "for a non-negative kernel"));
    m_iterations = new QSpinBox;
    m_iterations->setRange(1, 100000);
    m_iterations->setValue(s.iterations);
    m_starts = new QSpinBox;
    m_starts->setRange(1, 10000);
    m_starts->setValue(s.initializations);
    m_worst = new QSpinBox;
    m_worst->setRange(1, 10000);
    m_worst->setValue(s.worst);
    m_rows = new QSpinBox;
    m_rows->setRange(2, 20000);
    m_rows->setValue(s.maxRows);
    m_rows->setToolTip(tr("larger data are subsampled (seeded); the kernel is a dense N x N "
                          "matrix"));
    m_seed = new QSpinBox;
    m_seed->setRange(0, 1000000);
    m_seed->setValue(int(s.seed));
    auto* form = new QFormLayout;
    form->addRow(tr("Kernel"), m_kernel);
    form->addRow(tr("ℓ / median distance"), m_factor);
    form->addRow(tr("Learning rate λ"), m_rate);
    form->addRow(tr("Iterations"), m_iterations);
    form->addRow(tr("Initialisations"), m_starts);
    form->addRow(tr("Worst k (statistic)"), m_worst);
    form->addRow(tr("Rows at most"), m_rows);
    form->addRow(tr("Seed"), m_seed);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Run"));
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    // The statistic needs k <= starts.
    connect(m_starts, &QSpinBox::valueChanged, this, [this](int n) { m_worst->setMaximum(n); });
    m_worst->setMaximum(m_starts->value());
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addLayout(form);
    layout->addWidget(buttons);
}

NegativitySettings NegativityDialog::settings() const
{
    NegativitySettings s;
    s.kernel = kernelTypeFromString(m_kernel->currentText().toStdString());
    s.lengthScaleFactor = m_factor->value();
    s.learningRate = m_rate->value();
    s.iterations = m_iterations->value();
    s.initializations = m_starts->value();
    s.worst = m_worst->value();
    s.maxRows = m_rows->value();
    s.seed = uint64_t(m_seed->value());
    return s;
}

} // namespace sosrep::ui
