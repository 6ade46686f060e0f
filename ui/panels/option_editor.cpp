// SPDX-License-Identifier: MIT
// Editors for an estimator's options, built from its option table.
#include "ui/panels/option_editor.h"

#include "ui/controller/session.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QRegularExpressionValidator>
#include <QSlider>
#include <QSpinBox>
#include <QVBoxLayout>

#include <climits>
#include <cmath>

namespace sosrep::ui {
namespace {

// Log-scale sliders cover 1e-3 to 1e2 in 1000 steps.
constexpr double kLogMin = -3.0;
constexpr double kLogMax = 2.0;
int sliderOf(double v)
{
    return int(std::lround((std::log10(v) - kLogMin) / (kLogMax - kLogMin) * 1000.0));
}
double valueOf(int s)
{
    return std::pow(10.0, kLogMin + (kLogMax - kLogMin) * s / 1000.0);
}
const QString kNumber = QStringLiteral("value");

} // namespace

OptionEditor::OptionEditor(OptionHost* host, const OptionSpec& spec, QWidget* parent)
    : QWidget(parent), m_host(host), m_spec(spec)
{
    // One row of controls; a log-scale slider gets a row of its own beneath (full width).
    auto* rows = new QVBoxLayout(this);
    rows->setContentsMargins(0, 0, 0, 0);
    rows->setSpacing(2);
    auto* row = new QHBoxLayout;
    rows->addLayout(row);
    setToolTip(QString::fromStdString(spec.help));
    const bool choices = spec.type == OptionType::Choice || spec.type == OptionType::RealOrChoice;
    if (choices) {
        m_combo = new QComboBox(this);
        for (const std::string& c : spec.choices) {
            m_combo->addItem(QString::fromStdString(c), QString::fromStdString(c));
        }
        if (spec.type == OptionType::RealOrChoice) {
            m_combo->addItem(tr("number"), kNumber);
        }
        row->addWidget(m_combo);
        connect(m_combo, &QComboBox::currentIndexChanged, this, [this] {
            if (m_refreshing) {
                return;
            }
            const QString v = m_combo->currentData().toString();
            if (v == kNumber) {
                commitNumber();
            } else {
                commit(v);
            }
        });
    }
    if (spec.type == OptionType::Integer) {
        m_spin = new QSpinBox(this);
        m_spin->setRange(int(std::max<double>(spec.minimum, INT_MIN)),
                         int(std::min<double>(spec.maximum, INT_MAX)));
        row->addWidget(m_spin);
        connect(m_spin, &QSpinBox::valueChanged, this, [this](int v) {
            if (!m_refreshing) {
                commit(QString::number(v));
            }
        });
    }
    if (spec.type == OptionType::Real || spec.type == OptionType::RealOrChoice ||
        spec.type == OptionType::Seed) {
        if (spec.logScale) {
            m_slider = new QSlider(Qt::Horizontal, this);
            m_slider->setRange(0, 1000);
            m_slider->setToolTip(tr("log scale, 0.001 to 100"));
            rows->addWidget(m_slider);
            connect(m_slider, &QSlider::valueChanged, this, [this](int s) {
                if (!m_refreshing) {
                    m_edit->setText(QString::number(valueOf(s), 'g', 4));
                    commitNumber();
                }
            });
        }
        m_edit = new QLineEdit(this);
        m_edit->setMaximumWidth(110);
        if (spec.type == OptionType::Seed) {
            m_edit->setValidator(new QRegularExpressionValidator(
                QRegularExpression(QStringLiteral("[0-9]{1,20}")), m_edit));
        }
        row->addWidget(m_edit);
        connect(m_edit, &QLineEdit::editingFinished, this, [this] {
            if (!m_refreshing) {
                commitNumber();
            }
        });
    }
    refresh();
}

void OptionEditor::setChoiceHint(std::function<QString(const std::string&)> hint)
{
    m_hint = std::move(hint);
    refresh();
}

void OptionEditor::setNumberSuggestion(std::function<double()> suggestion)
{
    m_suggestion = std::move(suggestion);
}

void OptionEditor::commit(const QString& text)
{
    m_host->setOption(m_spec.name, text.toStdString());
}

void OptionEditor::commitNumber()
{
    if (!m_edit) {
        return;
    }
    if (m_edit->text().trimmed().isEmpty()) {
        const double v = m_suggestion ? m_suggestion() : std::max(m_spec.minimum, 1.0);
        m_edit->setText(QString::number(v, 'g', 6));
    } else if (!m_edit->isModified()) {
        return; // focus left an untouched field: its shown (rounded) text is not an edit
    }
    commit(m_edit->text().trimmed());
}

void OptionEditor::refresh()
{
    m_refreshing = true;
    const OptionValues& values = m_host->optionSettings().values;
    const std::string value = values.text(m_spec.name);
    const bool choice = values.isChoice(m_spec.name);
    if (m_combo) {
        for (int i = 0; i < m_combo->count(); ++i) {
            const std::string c = m_combo->itemData(i).toString().toStdString();
            QString text = QString::fromStdString(c);
            if (m_hint && m_combo->itemData(i).toString() != kNumber) {
                const QString h = m_hint(c);
                if (!h.isEmpty()) {
                    text += QStringLiteral(" (") + h + QLatin1Char(')');
                }
            } else if (m_combo->itemData(i).toString() == kNumber) {
                text = tr("number");
            }
            m_combo->setItemText(i, text);
        }
        const int idx = m_combo->findData(
            choice || m_spec.type == OptionType::Choice ? QString::fromStdString(value) : kNumber);
        m_combo->setCurrentIndex(std::max(0, idx));
    }
    if (m_spin) {
        m_spin->setValue(values.integer(m_spec.name));
    }
    if (m_edit) {
        if (!choice) {
            // Six significant digits, from the start: a clicked FD point's 16 digits showed only
            // their tail in the narrow box. The full value is in the tooltip.
            const bool real =
                m_spec.type == OptionType::Real || m_spec.type == OptionType::RealOrChoice;
            m_edit->setText(real ? QString::number(values.real(m_spec.name), 'g', 6)
                                 : QString::fromStdString(value));
            m_edit->setToolTip(QString::fromStdString(value));
            m_edit->setCursorPosition(0);
        }
        m_edit->setEnabled(!choice);
    }
    if (m_slider) {
        m_slider->setEnabled(!choice);
        if (!choice) {
            m_slider->setValue(sliderOf(values.real(m_spec.name)));
        }
    }
    const bool applies = !m_spec.applies || m_spec.applies(values, m_host->optionRows());
    setEnabled(applies);
    setToolTip(QString::fromStdString(m_spec.help) +
               (applies ? QString()
                        : QStringLiteral("\n(not used now: ") +
                              QString::fromStdString(m_spec.appliesText) + QLatin1Char(')')));
    m_refreshing = false;
}

} // namespace sosrep::ui
