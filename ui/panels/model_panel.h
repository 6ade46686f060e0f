// SPDX-License-Identifier: MIT
// The model panel: estimator, options and the fit buttons.
#pragma once

#include <QWidget>

#include <string>
#include <vector>

class QComboBox;
class QFormLayout;
class QLabel;
class QPushButton;

namespace sosrep::ui {

class Session;
class OptionEditor;

/// The estimator and its options, generated from the option tables (the same tables as the
/// command line's flags): one editor per option, grouped under the tables' headings; the
/// estimator list comes from the registry. Also the estimator the compare view sets beside it,
/// and Fit (F5) / Cancel (Esc). Editing never refits by itself.
class ModelPanel : public QWidget
{
    Q_OBJECT

public:
    explicit ModelPanel(Session* controller, QWidget* parent = nullptr);

    /// The Fit / Cancel bar; it sits at the end of the panel until a container moves it.
    QWidget* actionBar() const { return m_actions; }
    /// The estimators offered (registry names, in order).
    QStringList estimatorNames() const;
    /// Other work is running (the negativity experiment, a large fit's late stages, a view's
    /// own job): Cancel answers for it too (it stayed disabled through the whole run).
    void setOtherJobBusy(bool busy);

signals:
    /// The Fit button (the window starts the fit: FitController::fit).
    void fitRequested();
    /// Cancel was pressed (the controller's own work is cancelled directly).
    void cancelRequested();

private:
    void updateButtons();
    void rebuild();
    void refresh();
    QString ruleOfThumb(const std::string& choice) const;

    Session* m_controller;
    QComboBox* m_estimator;
    QComboBox* m_compare;
    QWidget* m_options;
    QFormLayout* m_form = nullptr;
    std::vector<OptionEditor*> m_editors;
    std::string m_builtFor; // estimator the editors were built for
    QLabel* m_fitted;
    QWidget* m_actions;
    QPushButton* m_fit;
    QPushButton* m_cancel;
    bool m_refreshing = false;
    bool m_fitBusy = false;
    bool m_otherBusy = false;
};

} // namespace sosrep::ui
