// SPDX-License-Identifier: MIT
// Editors for an estimator's options, built from its option table.
#pragma once

#include "core/estimators/fit_settings.h"
#include "core/estimators/option.h"
#include "ui/controller/option_host.h"

#include <QWidget>

#include <functional>

class QComboBox;
class QLineEdit;
class QSlider;
class QSpinBox;

namespace sosrep::ui {

/// One widget for one option of the option tables, built from its OptionSpec: a combo box for
/// choices, a spin box for integers, a line edit for reals and seeds (with a slider over
/// decades for log-scale options), and choices plus a number for "auto or a number" options.
/// Edits go to OptionHost::setOption (checked there; a refused value is reported and
/// the editor shows the value in force). The help is the tooltip; an option that does not apply
/// to the current settings is disabled and says why.
class OptionEditor : public QWidget
{
    Q_OBJECT

public:
    OptionEditor(OptionHost* host, const OptionSpec& spec, QWidget* parent = nullptr);

    const OptionSpec& spec() const { return m_spec; }
    /// Shows the controller's current value and whether the option applies.
    void refresh();
    /// Extra text for a choice in the combo box (e.g. the Scott bandwidth as a number).
    void setChoiceHint(std::function<QString(const std::string& choice)> hint);
    /// The number offered when the user switches from a choice (e.g. "auto") to a number.
    void setNumberSuggestion(std::function<double()> suggestion);

private:
    void commit(const QString& text);
    void commitNumber();

    OptionHost* m_host;
    OptionSpec m_spec;
    QComboBox* m_combo = nullptr;
    QSpinBox* m_spin = nullptr;
    QLineEdit* m_edit = nullptr;
    QSlider* m_slider = nullptr;
    std::function<QString(const std::string&)> m_hint;
    std::function<double()> m_suggestion;
    bool m_refreshing = false;
};

} // namespace sosrep::ui
