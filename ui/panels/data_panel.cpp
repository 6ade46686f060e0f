// SPDX-License-Identifier: MIT
// The data panel: file, columns and roles.
#include "ui/panels/data_panel.h"

#include "core/estimators/common_options.h"
#include "ui/controller/session.h"
#include "ui/panels/option_editor.h"

#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QTableWidget>
#include <QVBoxLayout>

namespace sosrep::ui {

DataPanel::DataPanel(Session* controller, QWidget* parent)
    : QWidget(parent), m_controller(controller)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* open = new QPushButton(tr("Open CSV / TSV / NPZ…"), this);
    connect(open, &QPushButton::clicked, this, &DataPanel::openRequested);
    layout->addWidget(open);

    auto* toyRow = new QHBoxLayout;
    m_toyKind = new QComboBox(this);
    for (const char* k : {"moons", "gmm", "rings", "square", "cosine", "blocks", "shift"}) {
        m_toyKind->addItem(QString::fromLatin1(k));
    }
    m_toyN = new QSpinBox(this);
    m_toyN->setRange(10, 100000);
    m_toyN->setValue(500);
    m_toyN->setPrefix(tr("n="));
    m_toySeed = new QSpinBox(this);
    m_toySeed->setRange(0, 1000000);
    m_toySeed->setPrefix(tr("seed="));
    auto* gen = new QPushButton(tr("Generate"), this);
    toyRow->addWidget(m_toyKind);
    toyRow->addWidget(m_toyN);
    toyRow->addWidget(m_toySeed);
    toyRow->addWidget(gen);
    layout->addLayout(toyRow);
    connect(gen, &QPushButton::clicked, this, [this] {
        m_controller->generateToy(toyKindFromString(m_toyKind->currentText().toStdString()),
                                  m_toyN->value(), static_cast<uint64_t>(m_toySeed->value()));
        // Said as opening a file says it (Generate reset a fixed l without a word).
        emit statusMessage(m_controller->data().lengthScaleWasReset()
                               ? tr("Generated %1 rows; ℓ reset to auto (the fixed ℓ was chosen "
                                    "for the previous data)")
                                     .arg(m_toyN->value())
                               : tr("Generated %1 rows").arg(m_toyN->value()));
    });

    m_source = new QLabel(tr("No data loaded"), this);
    m_source->setWordWrap(true);
    layout->addWidget(m_source);

    m_roles = new QTableWidget(0, 3, this);
    m_roles->setHorizontalHeaderLabels({tr("column"), tr("role"), tr("first values")});
    m_roles->horizontalHeader()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    m_roles->horizontalHeader()->setSectionResizeMode(2, QHeaderView::Stretch);
    m_roles->verticalHeader()->setVisible(false);
    m_roles->setMinimumHeight(110);
    layout->addWidget(m_roles);

    auto* form = new QFormLayout;
    for (const OptionSpec& spec : dataOptions()) {
        auto* editor = new OptionEditor(m_controller, spec, this);
        form->addRow(QString::fromStdString(spec.label), editor);
        connect(m_controller, &Session::settingsChanged, editor, &OptionEditor::refresh);
    }
    m_plotX = new QComboBox(this);
    m_plotY = new QComboBox(this);
    form->addRow(tr("Plot x"), m_plotX);
    form->addRow(tr("Plot y"), m_plotY);
    layout->addLayout(form);

    auto plotChanged = [this] {
        if (!m_refreshing) {
            m_controller->setPlotColumns(m_plotX->currentIndex(), m_plotY->currentIndex());
        }
    };
    connect(m_plotX, &QComboBox::currentIndexChanged, this, plotChanged);
    connect(m_plotY, &QComboBox::currentIndexChanged, this, plotChanged);
    connect(m_controller, &Session::dataChanged, this, &DataPanel::refresh);
    connect(m_controller, &Session::plotColumnsChanged, this, &DataPanel::refresh);
    refresh();
}

void DataPanel::refresh()
{
    m_refreshing = true;
    if (const auto& toy = m_controller->data().toyConfig()) {
        // The generator shows what made the data (a project opened with toy data left the
        // widgets at their last values).
        const QSignalBlocker a(m_toyKind), b(m_toyN), c(m_toySeed);
        m_toyKind->setCurrentText(QString::fromStdString(toString(toy->kind)));
        m_toyN->setValue(toy->n);
        m_toySeed->setValue(int(toy->seed));
    }
    const Dataset& raw = m_controller->data().rawData();
    m_source->setText(m_controller->data().hasData()
                          ? tr("%1\n%2 rows × %3 columns%4")
                                    .arg(m_controller->data().dataSource())
                                    .arg(raw.rows())
                                    .arg(raw.dim())
                                    .arg(raw.hasLabels() ? tr(", labels from the file's y")
                                         : m_controller->data().labelColumn().isEmpty()
                                             ? tr(", no label column")
                                             : tr(", label: column '%1' (0/1)")
                                                   .arg(m_controller->data().labelColumn())) +
                                (raw.rowNames.empty()
                                     ? QString()
                                     : tr("; rows named by the text column '%1'")
                                           .arg(QString::fromStdString(raw.rowNameColumn)))
                          : tr("No data loaded"));
    const QVector<ColumnRole> roles = m_controller->data().columnRoles();
    m_roles->setRowCount(roles.size());
    for (int j = 0; j < roles.size(); ++j) {
        auto* name = new QTableWidgetItem(QString::fromStdString(raw.columns[size_t(j)]));
        name->setFlags(Qt::ItemIsEnabled);
        m_roles->setItem(j, 0, name);
        auto* combo = new QComboBox(m_roles);
        combo->addItems({tr("feature"), tr("label"), tr("ignore"), tr("row name")});
        combo->setCurrentIndex(int(roles[j]));
        // Queued: applying the roles rebuilds this table, which deletes the emitting combo.
        connect(combo, &QComboBox::currentIndexChanged, this, &DataPanel::applyRoles,
                Qt::QueuedConnection);
        m_roles->setCellWidget(j, 1, combo);
        // A preview of the raw values (before scaling), so roles are chosen knowingly.
        // A category column shows its texts, not their codes.
        const auto levels = raw.categories.find(raw.columns[size_t(j)]);
        QStringList first;
        for (Eigen::Index i = 0; i < std::min<Eigen::Index>(4, raw.rows()); ++i) {
            first << (levels == raw.categories.end()
                          ? QString::number(raw.x(i, j), 'g', 4)
                          : QString::fromStdString(levels->second[size_t(raw.x(i, j))]));
        }
        auto* preview =
            new QTableWidgetItem(first.join(QStringLiteral(", ")) + QStringLiteral(" …"));
        preview->setFlags(Qt::ItemIsEnabled);
        m_roles->setItem(j, 2, preview);
    }
    const QStringList names = m_controller->data().featureNames();
    for (QComboBox* c : {m_plotX, m_plotY}) {
        c->clear();
        c->addItems(names);
    }
    m_plotX->setCurrentIndex(m_controller->data().plotX());
    m_plotY->setCurrentIndex(m_controller->data().plotY());
    // One feature column has no second axis: the Density tab draws its 1-D density.
    const bool twoD = names.size() >= 2;
    m_plotY->setEnabled(twoD);
    m_plotY->setToolTip(twoD ? QString()
                             : tr("One feature column: the Density tab shows its 1-D density"));
    if (!twoD) {
        m_plotY->setCurrentIndex(-1);
    }
    m_refreshing = false;
}

void DataPanel::applyRoles()
{
    QVector<ColumnRole> roles;
    for (int j = 0; j < m_roles->rowCount(); ++j) {
        roles << ColumnRole(static_cast<QComboBox*>(m_roles->cellWidget(j, 1))->currentIndex());
    }
    if (!m_controller->setColumnRoles(roles)) {
        refresh(); // show the roles that are in force
    }
}

} // namespace sosrep::ui
