// SPDX-License-Identifier: MIT
// The Ratio view: estimator, p and q sources, and the ratio's plots.
#pragma once

#include <QWidget>

#include <string>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QFormLayout;
class QGroupBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QSlider;
class QVBoxLayout;

namespace sosrep::ui {

class Session;
class OptionEditor;
class RatioPlot;
class RatioController;

/// The Ratio view (issue 10): the two samples (a second file, or the loaded data split by a
/// column value or a dragged rectangle), the ratio estimator and its options, and one plot of
/// three panels that exports whole: the log-ratio map (diverging, log ratio 0 drawn as a line,
/// both samples on it), the tuning criterion over (t, lambda) with the choice marked, and the
/// weight histogram with the effective sample size. A lambda slider walks FIRE's path without
/// refitting; a read-out gives the reweighting (mean weight, ESS, negative share, chi^2, the
/// columns' means under p, q and reweighted p).
class RatioView : public QWidget
{
    Q_OBJECT

public:
    /// The reweighting read-out as shown (HTML), for tests.
    QString readoutText() const;
    /// Writes the fitted ratio's weights as `sosrep ratio --weights-out` does (all or nothing);
    /// the error message, or empty when written.
    QString saveWeights(const QString& path);
    RatioView(RatioController* ratio, Session* data, QWidget* parent = nullptr);

    RatioPlot* plot() const { return m_plot; }
    /// The split's column ("" when none has a few values) and value, as offered.
    QString splitChoice() const;
    double splitValue() const;
    /// Sets the rectangle mode: the next drag on the map makes q the rows inside.
    void setPickMode(bool on);

private:
    void buildControls(QWidget* column);
    /// The pieces of the control column: where q comes from (a file, a split, a rectangle) and
    /// what it is (a sample or a known q), the estimator with its options and Fit, the
    /// regularization path, the reweighting read-out.
    void addSourceControls(QWidget* samples, QVBoxLayout* layout);
    void addQModeControls(QWidget* samples, QVBoxLayout* layout);
    QGroupBox* estimatorBox(QWidget* column);
    QGroupBox* pathBox(QWidget* column);
    QGroupBox* reweightBox(QWidget* column);
    void rebuildOptions();
    void refreshSamples();
    void applyQMode();
    /// The split's column and value for new data (see the definition).
    void chooseSplitColumn();
    void refreshBusy(bool busy);
    void redraw();
    void updateReadout();
    void syncSlider();

    RatioController* m_ratio;
    Session* m_data;

    QLabel* m_sourceLabel;
    QComboBox* m_splitColumn;
    QDoubleSpinBox* m_splitValue;
    QPushButton* m_rectButton;
    QCheckBox* m_pAll; // p = every row (q's too), for a split or a rectangle
    QComboBox* m_qMode;
    QComboBox* m_qDensity;
    QLineEdit* m_qExpression;
    QComboBox* m_estimator;
    QFormLayout* m_options;
    QList<OptionEditor*> m_editors;
    QPushButton* m_fitButton;
    QPushButton* m_cancelButton;
    QProgressBar* m_progress;
    QSlider* m_lambda;
    QLabel* m_lambdaLabel;
    QLabel* m_readout;
    QPushButton* m_saveWeights = nullptr;

    RatioPlot* m_plot;
    bool m_syncing = false;
    std::string m_builtFor; // the estimator whose option editors are shown
};

} // namespace sosrep::ui
