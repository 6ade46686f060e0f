// SPDX-License-Identifier: MIT
// The density tab: chooser between 2-D maps and 1-D curves.
#include "ui/plots/density_page.h"

#include "ui/plots/density_curve_plot.h"
#include "ui/plots/density_heatmap.h"
#include "ui/plots/pair_plot.h"
#include "ui/plots/plot_style.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenu>
#include <QStackedWidget>
#include <QStandardItemModel>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>

namespace sosrep::ui {

DensityPage::DensityPage(QWidget* parent) : QWidget(parent)
{
    m_map = new DensityHeatmap;
    m_curve = new DensityCurvePlot;
    m_stack = new QStackedWidget;
    m_stack->addWidget(m_map);
    m_stack->addWidget(m_curve);
    m_pairs = new PairPlot;
    m_stack->addWidget(m_pairs);
    m_show = new QComboBox;
    m_show->setToolTip(tr("The 2-D map of the plotted columns, or the 1-D marginal density of "
                          "one of them (the other columns integrated out)"));
    // Entries name columns ("2-D density: eruptions × waiting"): wide enough for all of them.
    m_show->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_note = new QLabel;
    m_note->setStyleSheet(QStringLiteral("color: palette(mid);"));
    m_bar = new QWidget;
    auto* bar = new QHBoxLayout(m_bar);
    bar->setContentsMargins(6, 2, 6, 0);
    m_showLabel = new QLabel(tr("Show:"));
    bar->addWidget(m_showLabel);
    bar->addWidget(m_show);
    m_hue = new QComboBox;
    m_hue->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_hue->setToolTip(tr("One density per value of this column, each fitted on its rows at the "
                         "fitted ℓ (seaborn's hue=): contours over the map, curves in 1-D"));
    m_hue->addItem(tr("(none)"), QString());
    bar->addWidget(new QLabel(tr("Hue:")));
    bar->addWidget(m_hue);
    m_hueOptions = new QToolButton;
    m_hueOptions->setObjectName(QStringLiteral("hueOptions"));
    m_hueOptions->setText(tr("Hue ℓ…"));
    m_hueOptions->setToolTip(tr("How the classes are fitted and drawn"));
    auto* hueMenu = new QMenu(m_hueOptions);
    m_perClass = hueMenu->addAction(tr("Each class its own ℓ (seaborn's default)"));
    m_perClass->setToolTip(tr("Tune ℓ on each class's rows by the model's rule, instead of "
                              "the whole data's ℓ for every class"));
    m_commonNorm = hueMenu->addAction(tr("Curves weighted by their share of rows (common_norm)"));
    m_commonNorm->setToolTip(tr("Off: each class's curve has area 1"));
    for (QAction* a : {m_perClass, m_commonNorm}) {
        a->setCheckable(true);
        connect(a, &QAction::triggered, this, [this] {
            emit hueOptionsChosen({m_perClass->isChecked(), m_commonNorm->isChecked()});
        });
    }
    hueMenu->setToolTipsVisible(true);
    makeMenuButton(m_hueOptions, hueMenu);
    m_hueOptions->setVisible(false);
    setHueOptions(HueOptions());
    bar->addWidget(m_hueOptions);
    m_overlay = new QToolButton;
    m_overlay->setObjectName(QStringLiteral("overlays"));
    m_overlay->setText(tr("Overlay…"));
    m_overlay->setToolTip(tr("Other curves on the same axis: this model at other length scales, "
                             "or other estimators (each tuned as it would be on its own)"));
    makeMenuButton(m_overlay, new QMenu(m_overlay));
    m_overlay->setVisible(false);
    bar->addWidget(m_overlay);
    bar->addWidget(m_note, 1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(m_bar);
    layout->addWidget(m_stack, 1);
    m_bar->hide(); // until there are columns to choose between
    connect(m_show, &QComboBox::activated, this, [this] { emit viewChosen(chosenColumn()); });
    connect(m_hue, &QComboBox::activated, this,
            [this] { emit hueChosen(m_hue->currentData().toString()); });
}

void DensityPage::setHueOptions(const HueOptions& options)
{
    m_perClass->setChecked(options.perClassLengthScale);
    m_commonNorm->setChecked(options.commonNorm);
}

QWidget* DensityPage::currentPlot() const
{
    return m_stack->currentWidget();
}

void DensityPage::setChoices(const QStringList& names, int xColumn, int yColumn,
                             const QString& marginalReason)
{
    // The first time, or for other columns: the map.
    const int before = m_show->count() > 0 && names == m_names ? chosenColumn() : -1;
    m_names = names;
    m_show->clear();
    // One column: no map to choose, but a hue still splits its curve.
    m_show->setVisible(names.size() >= 2);
    m_showLabel->setVisible(names.size() >= 2);
    m_overlay->setVisible(names.size() == 1);
    m_bar->show();
    if (names.size() < 2) {
        m_stack->setCurrentWidget(m_curve);
        return;
    }
    const QString x = names.value(xColumn);
    const QString y = names.value(yColumn);
    m_show->addItem(names.size() > 2
                        ? tr("2-D slice: %1 × %2, other columns at their medians").arg(x, y)
                        : tr("2-D density: %1 × %2").arg(x, y),
                    -1);
    QList<int> order{xColumn, yColumn};
    for (int c = 0; c < names.size(); ++c) {
        if (c != xColumn && c != yColumn) {
            order << c;
        }
    }
    for (int c : order) {
        m_show->addItem(tr("1-D marginal of %1").arg(names.value(c)), c);
    }
    if (names.size() > 2) {
        m_show->addItem(names.size() > PairPlot::kMaxColumns
                            ? tr("Pair plot (the first %1 columns)").arg(PairPlot::kMaxColumns)
                            : tr("Pair plot (every column)"),
                        kPairPlot);
    }
    auto* model = qobject_cast<QStandardItemModel*>(m_show->model());
    for (int i = 1; i < m_show->count() && !marginalReason.isEmpty(); ++i) {
        if (m_show->itemData(i).toInt() == kPairPlot) {
            continue; // its diagonal says when a marginal is a profile instead
        }
        model->item(i)->setEnabled(false);
        model->item(i)->setToolTip(tr("No closed-form marginal: %1").arg(marginalReason));
    }
    const int keep = m_show->findData(before);
    m_show->setCurrentIndex(keep >= 0 && (marginalReason.isEmpty() || before == kPairPlot) ? keep
                                                                                           : 0);
    m_bar->show();
}

void DensityPage::setColumns(const QStringList& names)
{
    if (names == m_names) {
        return;
    }
    m_names = names;
    m_show->clear();
    m_bar->hide();
    m_note->clear();
    m_stack->setCurrentWidget(names.size() < 2 ? static_cast<QWidget*>(m_curve) : m_map);
}

void DensityPage::setOverlayChoices(const QStringList& estimators, const QStringList& chosen)
{
    QMenu* menu = m_overlay->menu();
    menu->clear();
    const auto add = [&](const QString& text, const QString& spec) {
        QAction* a = menu->addAction(text);
        a->setData(spec);
        a->setCheckable(true);
        a->setChecked(chosen.contains(spec));
        connect(a, &QAction::toggled, this, [this, menu] {
            QStringList specs;
            for (const QAction* x : menu->actions()) {
                if (x->isChecked()) {
                    specs << x->data().toString();
                }
            }
            emit overlaysChosen(specs);
        });
    };
    for (const char* f : {"0.5", "2", "4"}) {
        add(tr("this model at ℓ × %1").arg(QString::fromLatin1(f)),
            QStringLiteral("l*") + QString::fromLatin1(f));
    }
    menu->addSeparator();
    for (const QString& e : estimators) {
        add(e, e);
    }
}

void DensityPage::setHueChoices(const QStringList& columns, const QString& current)
{
    m_hue->clear();
    m_hue->addItem(tr("(none)"), QString());
    for (const QString& c : columns) {
        m_hue->addItem(c, c);
    }
    m_hue->setCurrentIndex(std::max(0, m_hue->findData(current)));
    m_hueOptions->setVisible(!current.isEmpty()); // its options only with a hue
}

int DensityPage::chosenColumn() const
{
    return m_show->count() == 0 ? 0 : m_show->currentData().toInt();
}

void DensityPage::showView(int column)
{
    if (const int i = m_show->findData(column); i >= 0) {
        m_show->setCurrentIndex(i);
    }
    m_stack->setCurrentWidget(column == kPairPlot ? static_cast<QWidget*>(m_pairs)
                              : column < 0        ? static_cast<QWidget*>(m_map)
                                                  : m_curve);
}

QString DensityPage::note() const
{
    return m_note->text();
}

void DensityPage::setNote(const QString& text)
{
    m_note->setText(text);
}

} // namespace sosrep::ui
