// SPDX-License-Identifier: MIT
// The Scores view's outlier share box and what the threshold is.
#include "ui/panels/outlier_bar.h"

#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>

namespace sosrep::ui {

OutlierBar::OutlierBar(QWidget* parent) : QWidget(parent)
{
    m_on = new QCheckBox(tr("Flag"));
    m_on->setObjectName(QStringLiteral("flagOutliers"));
    m_percent = new QDoubleSpinBox;
    m_percent->setObjectName(QStringLiteral("contaminationPercent"));
    m_percent->setRange(0.1, 50.0); // contamination in (0, 0.5]
    m_percent->setDecimals(1);
    m_percent->setSingleStep(1.0);
    m_percent->setValue(100.0 * kAutoContamination);
    m_percent->setSuffix(tr(" %"));
    m_percent->setEnabled(false);
    m_percent->setToolTip(tr("The share of rows to flag (contamination): the threshold is this "
                             "quantile of log values at rows the model did not fit (a 5-fold "
                             "cross-fit at the fitted ℓ, or the anomaly rule's validation rows), "
                             "so about this share of new rows like the normal ones is flagged"));
    auto* rest = new QLabel(tr("of rows as outliers"));
    m_state = new QLabel;
    m_state->setObjectName(QStringLiteral("outlierState"));
    m_state->setWordWrap(true);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_on);
    layout->addWidget(m_percent);
    layout->addWidget(rest);
    layout->addWidget(m_state, 1);
    connect(m_on, &QCheckBox::toggled, this, [this](bool on) {
        m_percent->setEnabled(on);
        emit contaminationChanged(contamination());
    });
    // Only a finished edit asks for a threshold (each is a cross-fit): Enter or leaving the box.
    m_percent->setKeyboardTracking(false);
    connect(m_percent, qOverload<double>(&QDoubleSpinBox::valueChanged), this, [this] {
        if (m_on->isChecked()) {
            emit contaminationChanged(contamination());
        }
    });
}

double OutlierBar::contamination() const
{
    return m_on->isChecked() ? m_percent->value() / 100.0 : 0.0;
}

void OutlierBar::setContamination(double contamination)
{
    const QSignalBlocker a(m_on);
    const QSignalBlocker b(m_percent);
    m_on->setChecked(contamination > 0.0);
    m_percent->setEnabled(contamination > 0.0);
    if (contamination > 0.0) {
        m_percent->setValue(100.0 * contamination);
    }
}

void OutlierBar::showState(double contamination, bool pending,
                           const std::optional<OutlierThreshold>& threshold,
                           const Vector& logValues, const QString& unit)
{
    if (threshold && threshold->heldOutRows == 0 && contamination <= 0.0) {
        // A cut-off chosen on the ROC curve: no share, no held-out rows.
        const Eigen::Index flagged = (logValues.array() < threshold->offset).count();
        m_state->setText(
            tr("%1 of %2 rows flagged (%3 %): anomaly score above %4, a cut-off %5 (tick Flag "
               "for a share instead)")
                .arg(flagged)
                .arg(logValues.size())
                .arg(logValues.size() ? 100.0 * double(flagged) / double(logValues.size()) : 0.0, 0,
                     'f', 1)
                .arg(-threshold->offset, 0, 'g', 5)
                .arg(QString::fromStdString(threshold->method)));
        return;
    }
    if (contamination <= 0.0) {
        m_state->clear();
        return;
    }
    if (!threshold) {
        m_state->setText(pending ? tr("computing the threshold from rows the model did not fit…")
                                 : tr("(the threshold follows the next fit)"));
        return;
    }
    const Eigen::Index flagged = (logValues.array() < threshold->offset).count();
    const double share =
        logValues.size() ? 100.0 * double(flagged) / double(logValues.size()) : 0.0;
    m_state->setText(tr("%1 of %2 rows flagged (%3 %): %4 below %5, the %6 % quantile over %7 "
                        "rows the model did not fit (%8)")
                         .arg(flagged)
                         .arg(logValues.size())
                         .arg(share, 0, 'f', 1)
                         .arg(unit)
                         .arg(threshold->offset, 0, 'g', 5)
                         .arg(100.0 * threshold->contamination, 0, 'g', 3)
                         .arg(threshold->heldOutRows)
                         .arg(QString::fromStdString(threshold->method)));
}

QString OutlierBar::text() const
{
    return m_state->text();
}

} // namespace sosrep::ui
