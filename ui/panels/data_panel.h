// SPDX-License-Identifier: MIT
// The data panel: file, columns and roles.
#pragma once

#include <QWidget>

class QComboBox;
class QLabel;
class QSpinBox;
class QTableWidget;

namespace sosrep::ui {

class Session;

/// Open a file or generate toy data; column roles (feature / label / ignore), scaling, and the
/// two columns shown in the density view.
class DataPanel : public QWidget
{
    Q_OBJECT

public:
    explicit DataPanel(Session* controller, QWidget* parent = nullptr);

signals:
    void openRequested();
    /// A line for the status bar (what Generate changed beside the data).
    void statusMessage(const QString& text);

private:
    void refresh();
    void applyRoles();

    Session* m_controller;
    QLabel* m_source;
    QComboBox* m_toyKind;
    QSpinBox* m_toyN;
    QSpinBox* m_toySeed;
    QTableWidget* m_roles;
    QComboBox* m_plotX;
    QComboBox* m_plotY;
    bool m_refreshing = false;
};

} // namespace sosrep::ui
