// SPDX-License-Identifier: MIT
// The optimizer trace plot: loss and monitors per iteration.
#pragma once

#include "core/estimators/estimator.h"
#include "core/experiments/negativity.h"

#include <qcustomplot.h>

#include <map>
#include <string>

namespace sosrep::ui {

/// Optimizer traces, live: loss, share of negative f(x_i) and the stationarity residual (log
/// scale) against iteration, one panel each, sharing the x axis; one curve per solver run (the
/// fit's own, e.g. Newton, and the paper's natural-vs-standard comparison). A kernel-SoS run
/// ("fista") has no f to be negative: its panels are the objective, its MMD^2 part and the
/// relative change that stops it.
class TracePlot : public QCustomPlot
{
    Q_OBJECT

public:
    explicit TracePlot(QWidget* parent = nullptr);
    void setTraces(const std::vector<NamedTrace>& runs);
    /// The runs currently drawn, by name.
    QStringList runs() const;
    /// The negativity experiment (paper Fig. 3) in the share panel: the mean of the `worst`
    /// largest shares over the initialisations at each iteration, natural and standard, drawn
    /// thick beside the fit's own runs; nullptr removes it.
    void setExperiment(const NegativityRun* run, int worst);
    bool hasExperiment() const { return !m_experiment[0]->data()->isEmpty(); }
    /// Shows or hides a run's curves (the Newton path of the fit).
    void setRunVisible(const std::string& run, bool visible);
    /// The loss axis a run is drawn against: each of the paper's two runs has its own, so a
    /// diverging standard run (loss 1e13) leaves the natural run readable.
    QCPAxis* lossAxisOf(const std::string& run);
    /// "" or what the divergence marker says ("standard gradient diverged at iteration 6").
    QString divergenceText() const;

private:
    QCPAxisRect* addPanel(const QString& yLabel, bool logScale);
    /// The graphs of a run (one per panel), made on first use.
    const QVector<QCPGraph*>& graphsOf(const std::string& run);

    /// Labels and scales for SOSREP-style runs or for kernel-SoS (FISTA) runs.
    void setMode(bool fista);
    /// The legend lists the runs drawn (no empty rows for hidden ones).
    void rebuildLegend();
    /// Fits every panel's axes to what is drawn.
    void rescalePanels();

    /// Marks where a run diverged: a line across every panel and a label in the first.
    void markDivergence(const std::vector<NamedTrace>& runs);
    /// Log axes read alike: every tick a power of ten (10⁰, 10², 10⁴), never 100 beside 10⁶.
    static void makeLogAxis(QCPAxis* axis);
    /// Power-of-ten ticks over several decades, plain numbers within two.
    static void useLogTicks(QCPAxis* axis);

    QVector<QCPAxisRect*> m_panels;
    QVector<QCPItemStraightLine*> m_divergenceLines;
    QCPItemText* m_divergenceLabel = nullptr;
    std::map<std::string, bool> m_hidden;
    bool m_fista = false;
    std::map<std::string, QVector<QCPGraph*>> m_graphs;
    QCPGraph* m_experiment[2] = {nullptr, nullptr}; // natural, standard (share panel only)
};

} // namespace sosrep::ui
