// SPDX-License-Identifier: MIT
// The model panel: estimator, options and the fit buttons.
#include "ui/panels/model_panel.h"

#include "core/estimators/common_options.h"
#include "core/estimators/registry.h"
#include "core/tuning/length_scale_rules.h"
#include "ui/controller/density_units.h"
#include "ui/controller/session.h"
#include "ui/panels/option_editor.h"

#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

namespace sosrep::ui {

ModelPanel::ModelPanel(Session* controller, QWidget* parent)
    : QWidget(parent), m_controller(controller)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* top = new QFormLayout;
    m_estimator = new QComboBox(this);
    top->addRow(tr("Estimator"), m_estimator);
    layout->addLayout(top);
    m_options = new QWidget(this);
    layout->addWidget(m_options);
    m_fitted = new QLabel(this);
    m_fitted->setWordWrap(true);
    layout->addWidget(m_fitted);
    auto* views = new QFormLayout;
    m_compare = new QComboBox(this);
    m_compare->setToolTip(tr("The estimator the Compare view fits beside this one, at the same "
                             "kernel and length scale"));
    views->addRow(tr("Compare with"), m_compare);
    layout->addLayout(views);

    // Fit and Cancel in a bar of their own, which the main window pins below the scrolling
    // panels so that it stays visible in short windows.
    m_actions = new QWidget(this);
    auto* buttons = new QHBoxLayout(m_actions);
    buttons->setContentsMargins(0, 0, 0, 0);
    m_fit = new QPushButton(tr("Fit (F5)"), m_actions);
    m_cancel = new QPushButton(tr("Cancel (Esc)"), m_actions);
    buttons->addWidget(m_fit);
    buttons->addWidget(m_cancel);
    layout->addWidget(m_actions);
    connect(m_fit, &QPushButton::clicked, this, &ModelPanel::fitRequested);
    connect(m_cancel, &QPushButton::clicked, m_controller, &Session::cancel);
    connect(m_cancel, &QPushButton::clicked, this, &ModelPanel::cancelRequested);

    connect(m_estimator, &QComboBox::currentIndexChanged, this, [this] {
        if (!m_refreshing) {
            m_controller->setEstimator(m_estimator->currentData().toString().toStdString());
        }
    });
    connect(m_compare, &QComboBox::currentIndexChanged, this, [this] {
        if (!m_refreshing) {
            m_controller->setCompareEstimator(m_compare->currentData().toString().toStdString());
        }
    });
    connect(m_controller, &Session::settingsChanged, this, &ModelPanel::refresh);
    connect(m_controller, &Session::dataChanged, this, &ModelPanel::refresh);
    connect(m_controller, &Session::busyChanged, this, [this](bool busy) {
        m_fitBusy = busy;
        updateButtons();
    });
    connect(m_controller, &Session::fitFinished, this, &ModelPanel::refresh);
    m_cancel->setEnabled(false);
    refresh();
}

void ModelPanel::setOtherJobBusy(bool busy)
{
    m_otherBusy = busy;
    updateButtons();
}

void ModelPanel::updateButtons()
{
    m_fit->setEnabled(!m_fitBusy);
    m_cancel->setEnabled(m_fitBusy || m_otherBusy);
}

QStringList ModelPanel::estimatorNames() const
{
    QStringList out;
    for (int i = 0; i < m_estimator->count(); ++i) {
        out << m_estimator->itemData(i).toString();
    }
    return out;
}

QString ModelPanel::ruleOfThumb(const std::string& choice) const
{
    const Matrix& x = m_controller->data().features();
    if (x.rows() < 2 || (choice != "scott" && choice != "silverman")) {
        return {};
    }
    const double l = choice == "scott" ? scottBandwidth(x) : silvermanBandwidth(x);
    return QStringLiteral("ℓ = %1").arg(l, 0, 'g', 3);
}

void ModelPanel::rebuild()
{
    // The option tables differ between estimators: a new set of editors, in the tables' order,
    // under the tables' group headings. Scaling and seed are on the data panel.
    delete m_options->layout();
    qDeleteAll(m_options->findChildren<QWidget*>(QString(), Qt::FindDirectChildrenOnly));
    m_editors.clear();
    m_form = new QFormLayout(m_options);
    m_form->setContentsMargins(0, 0, 0, 0);
    const Estimator& e = EstimatorRegistry::instance().get(m_controller->settings().estimator);
    std::string group;
    for (const OptionSpec& spec : optionTableFor(e)) {
        if (spec.group == "Data") {
            continue;
        }
        if (spec.group != group) {
            group = spec.group;
            auto* heading = new QLabel(
                QStringLiteral("<b>%1</b>").arg(QString::fromStdString(group).toHtmlEscaped()),
                m_options);
            m_form->addRow(heading);
        }
        auto* editor = new OptionEditor(m_controller, spec, m_options);
        if (spec.name == "length_scale") {
            editor->setChoiceHint([this](const std::string& c) { return ruleOfThumb(c); });
            editor->setNumberSuggestion([this] {
                const FitJobResult* r = m_controller->result();
                return r && r->lengthScale() > 0 ? r->lengthScale() : 0.1;
            });
        }
        m_form->addRow(QString::fromStdString(spec.label), editor);
        m_editors.push_back(editor);
    }
    m_builtFor = m_controller->settings().estimator;
}

void ModelPanel::refresh()
{
    m_refreshing = true;
    const auto estimators = EstimatorRegistry::instance().family(false);
    if (m_estimator->count() != int(estimators.size())) {
        m_estimator->clear();
        m_compare->clear();
        m_compare->addItem(tr("automatic"), QString());
        for (const Estimator* e : estimators) {
            const QString name = QString::fromStdString(e->name());
            m_estimator->addItem(name, name);
            m_estimator->setItemData(m_estimator->count() - 1, QString::fromStdString(e->title()),
                                     Qt::ToolTipRole);
            m_compare->addItem(name, name);
        }
    }
    const FitSettings& s = m_controller->settings();
    m_estimator->setCurrentIndex(m_estimator->findData(QString::fromStdString(s.estimator)));
    m_compare->setCurrentIndex(
        std::max(0, m_compare->findData(QString::fromStdString(m_controller->compareChoice()))));
    if (m_builtFor != s.estimator) {
        rebuild();
    }
    for (OptionEditor* editor : m_editors) {
        editor->refresh();
    }
    const FitJobResult* r = m_controller->result();
    m_fitted->setText(
        r && r->lengthScale() > 0
            ? tr("Last fit: %1%2")
                  .arg(lengthScaleText(r->lengthScale(), m_controller->data().scaler(),
                                       m_controller->data().featureNames()))
                  .arg(r->fit.search ? tr(" (tuned by Fisher divergence)") : QString())
            : QString());
    m_refreshing = false;
}

} // namespace sosrep::ui
