// SPDX-License-Identifier: MIT
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

private:
    QCPAxisRect* addPanel(const QString& yLabel, bool logScale);
    /// The graphs of a run (one per panel), made on first use.
    const QVector<QCPGraph*>& graphsOf(const std::string& run);

    /// Labels and scales for SOSREP-style runs or for kernel-SoS (FISTA) runs.
    void setMode(bool fista);
    /// Fits every panel's axes to what is drawn.
    void rescalePanels();

    QVector<QCPAxisRect*> m_panels;
    bool m_fista = false;
    std::map<std::string, QVector<QCPGraph*>> m_graphs;
    QCPGraph* m_experiment[2] = {nullptr, nullptr}; // natural, standard (share panel only)
};

} // namespace sosrep::ui
