// SPDX-License-Identifier: MIT
// The Density tab's 1-D views: the density of a single column, and the closed-form marginal
// of a plotted column chosen beside the 2-D map.
#include "core/kernels/kernel_operator.h"
#include "ui/controller/density_units.h"
#include "ui/controller/hue_controller.h"
#include "ui/controller/marginal_controller.h"
#include "ui/controller/overlay_controller.h"
#include "ui/controller/pair_plot_controller.h"
#include "ui/controller/session.h"
#include "ui/main_window.h"

#include "core/estimators/registry.h"
#include "ui/plots/density_curve_plot.h"
#include "ui/plots/density_heatmap.h"
#include "ui/plots/density_page.h"
#include "ui/plots/pair_plot.h"
#include "ui/plots/plot_style.h"

#include <QComboBox>
#include <QStatusBar>

namespace sosrep::ui {

namespace {

/// The estimators whose curves are densities (the 1-D view's overlays): not the detectors.
QStringList densityEstimators()
{
    QStringList names;
    for (const Estimator* e : EstimatorRegistry::instance().family(false)) {
        if (e->capabilities().kind != DensityKind::Score) {
            names << QString::fromStdString(e->name());
        }
    }
    return names;
}

/// Other curves on the 1-D view's axis, dashed, in palette colours away from the model's blues
/// (green, vermillion, purple, orange, yellow); the model's own curve then names itself.
void addOverlays(DensityCurvePlot::Content& c,
                 const std::vector<OverlayController::Overlay>& overlays, const FittedModel& m)
{
    if (overlays.empty()) {
        return;
    }
    static const int palette[] = {2, 5, 6, 0, 3};
    int k = 0;
    for (const OverlayController::Overlay& o : overlays) {
        if (o.curve.logValues.size() > 0) {
            c.overlays.push_back({o.name, colors::hueClass(palette[k++ % 5]), &o.curve, 1.0});
        }
    }
    const KernelOperator* kernel = m.kernel();
    c.curveName =
        QString::fromStdString(m.estimator()) +
        (kernel ? MainWindow::tr(" (ℓ = %1, fitted)").arg(kernel->spec().lengthScale, 0, 'g', 3)
                : QString());
}

/// The 1-D view's title: what the curve is (a closed-form marginal, the density or score along
/// the only column), the kernel and ℓ (`lengthScale`, in words), and the rows fitted.
QString oneColumnTitle(const FittedModel& m, const DensityCurve& curve, const QString& xLabel,
                       const FitJobResult& r, const Matrix& x, const QString& lengthScale)
{
    QString t = QString::fromStdString(m.estimator()).toUpper();
    if (curve.marginal && x.cols() == 2) {
        t += MainWindow::tr(
                 " 1-D marginal density of %1 (the other column integrated out in closed form)")
                 .arg(xLabel);
    } else if (curve.marginal) {
        t += MainWindow::tr(
                 " 1-D marginal density of %1 (the other %2 columns integrated out in closed "
                 "form)")
                 .arg(xLabel)
                 .arg(x.cols() - 1);
    } else {
        t += (m.kind() == DensityKind::Score ? MainWindow::tr(" normality score along %1")
                                             : MainWindow::tr(" density of %1"))
                 .arg(xLabel);
    }
    if (const KernelOperator* k = m.kernel()) {
        t += MainWindow::tr(", %1 kernel, %2")
                 .arg(QString::fromStdString(toString(k->spec().type)))
                 .arg(lengthScale);
    }
    if (r.fitRows < x.rows()) {
        t += MainWindow::tr("; fitted on %1 of %2 rows (seeded subsample), all drawn")
                 .arg(r.fitRows)
                 .arg(x.rows());
    }
    return t;
}

} // namespace

void MainWindow::connectDensityPage()
{
    connect(m_densityPage, &DensityPage::viewChosen, this, [this] { showDensityCurve(); });
    connect(m_session, &Session::dataChanged, this, [this] {
        // Another file's columns: its Show box starts at the map (a marginal of x2 chosen for
        // the last file was computed for shuttle before any view appeared).
        m_densityPage->setColumns(
            m_session->data().featureNames().mid(0, int(m_session->data().features().cols())));
        // (A hue of columns these data do not have went: HueController.)
        m_densityPage->setHueChoices(m_hue->candidates(), m_hue->column());
        m_densityPage->setOverlayChoices(densityEstimators(), m_overlays->specs());
    });
    connect(m_pairs, &PairPlotController::panelReady, this, [this](int index) {
        m_densityPage->pairs()->setPanel(m_pairs->panels()[size_t(index)]);
    });
    connect(m_pairs, &PairPlotController::finished, this, [this] {
        PairPlot* plot = m_densityPage->pairs();
        const bool closed = m_marginals->unavailable().isEmpty();
        plot->setTitle(plot->title().replace(
            QStringLiteral("on it each column's marginal…"),
            closed ? tr("on it each column's closed-form marginal")
                   : tr("on it the density along each column through the medians (%1)")
                         .arg(m_marginals->unavailable())));
        m_densityPage->setNote(tr("%1 panels").arg(m_pairs->panels().size()));
    });
    connect(m_pairs, &PairPlotController::cancelled, this, [this] {
        m_densityPage->setNote(tr("pair plot cancelled: choose it in Show again to go on"));
    });
    connect(m_densityPage, &DensityPage::hueChosen, this, [this](const QString& column) {
        m_hue->setColumn(column);
        m_densityPage->setNote(column.isEmpty() || !m_session->result()
                                   ? QString()
                                   : tr("fitting one density per value of %1…").arg(column));
    });
    connect(m_hue, &HueController::columnChanged, this,
            [this] { m_densityPage->setHueChoices(m_hue->candidates(), m_hue->column()); });
    connect(m_hue, &HueController::ready, this, [this] {
        // Classes with too few rows get no density: said, not dropped in silence (issue 52).
        const ClassDensities* hue = m_hue->classes();
        QStringList left;
        for (const std::string& s : hue ? hue->skipped : std::vector<std::string>()) {
            left << QString::fromStdString(s);
        }
        m_densityPage->setNote(left.isEmpty()
                                   ? QString()
                                   : tr("no density for %1").arg(left.join(QStringLiteral("; "))));
        showHue();
    });
    connect(m_densityPage, &DensityPage::overlaysChosen, m_overlays, &OverlayController::setSpecs);
    connect(m_overlays, &OverlayController::ready, this, [this] {
        m_densityPage->setOverlayChoices(densityEstimators(), m_overlays->specs());
        if (m_session->result() && m_session->data().features().cols() == 1) {
            showDensityCurve();
        }
    });
    connect(m_overlays, &OverlayController::failed, this,
            [this](const QString& why) { statusBar()->showMessage(why, 10000); });
    connect(m_hue, &HueController::failed, this, [this](const QString& why) {
        m_densityPage->setNote(why);
        statusBar()->showMessage(why, 10000);
        showHue();
    });
    connect(m_marginals, &MarginalController::ready, this, [this](int column) {
        if (m_densityPage->chosenColumn() == column) {
            showDensityCurve();
        }
        if (m_joint) {
            showJointEdges();
        }
    });
    connect(m_marginals, &MarginalController::cancelled, this, [this](int column) {
        if (m_densityPage->chosenColumn() == column) {
            m_densityPage->curve()->clearContent(
                tr("Marginal cancelled: choose it in Show again to compute it"));
            m_densityPage->setNote(tr("cancelled"));
        }
    });
}

void MainWindow::showPairPlotView()
{
    m_tabs->setCurrentWidget(m_densityPage);
    m_densityPage->showView(DensityPage::kPairPlot);
    showDensityCurve();
}

void MainWindow::showPairPlot()
{
    const FitJobResult* r = m_session->result();
    PairPlot* plot = m_densityPage->pairs();
    const QStringList names = m_session->data().featureNames();
    const int columns = int(m_session->data().features().cols());
    // Only the first kMaxColumns are drawn: said in the title, which the export keeps (the
    // pair plot of 14 columns showed 9 without a word; issue 52).
    const QString what =
        QString::fromStdString(r->model().estimator()).toUpper() +
        (columns > PairPlot::kMaxColumns
             ? tr(", the first %1 of %2 columns,").arg(PairPlot::kMaxColumns).arg(columns)
             : QString());
    plot->start(names.mid(0, columns),
                tr("%1 pair plot: below the diagonal each pair's log-density map (a 2-D slice, "
                   "the other columns at their medians; axes over the 1–99 % quantiles), on it "
                   "each column's marginal…")
                    .arg(what),
                m_session->data().scaler());
    for (const PairPanel& p : m_pairs->panels()) {
        plot->setPanel(p);
    }
    m_densityPage->setNote(tr("Esc stops it"));
    m_pairs->request();
}

void MainWindow::setJoint(bool on)
{
    m_joint = on;
    if (m_jointAction && m_jointAction->isChecked() != on) {
        m_jointAction->setChecked(on);
    }
    if (!on) {
        m_density->setJoint(false);
        return;
    }
    showJointEdges();
}

void MainWindow::showJointEdges()
{
    const FitJobResult* r = m_session->result();
    if (!m_joint || !r || r->grid.logDensity.size() == 0) {
        return;
    }
    const QString unavailable = m_marginals->unavailable();
    const Scaler& scaler = m_session->data().scaler();
    const QStringList names = m_session->data().featureNames();
    const auto edge = [&](int column) {
        DensityHeatmap::Edge e;
        // Per unit of the column, as the map's colour bar says its own unit (issue 50).
        e.name = tr("density %1").arg(densityUnit({names.value(column)}, DensityKind::Normalized));
        if (!unavailable.isEmpty()) {
            e.why = tr("no closed-form marginal");
            return e;
        }
        const DensityCurve* curve = m_marginals->curve(column);
        if (!curve) {
            m_marginals->request(column); // ready() brings it here again
            e.why = tr("computing…");
            return e;
        }
        const CurveSpec& s = curve->spec;
        for (int i = 0; i < s.n; ++i) {
            const double t = s.t(i);
            // Per unit of the column (the scaled curve times dt/dx), on the map's scaled axis.
            const double du = column < scaler.shift.size() ? scaler.logDerivative(column, t) : 0.0;
            e.key << t;
            e.value << std::exp(curve->logValues(i) + du);
        }
        return e;
    };
    m_density->setJoint(true, edge(r->grid.spec.xColumn), edge(r->grid.spec.yColumn));
}

QString MainWindow::hueClassName(const ClassDensity& c) const
{
    return tr("%1 = %2 (%3 rows)")
        .arg(m_hue->column())
        .arg(QString::number(c.value, 'g', 6))
        .arg(c.rows);
}

void MainWindow::showHue()
{
    // The box says which hue is on, however it was set (the box, a project, --hue).
    if (m_densityPage->hueChooser()->currentData().toString() != m_hue->column()) {
        m_densityPage->setHueChoices(m_hue->candidates(), m_hue->column());
    }
    const ClassDensities* hue = m_hue->classes();
    std::vector<DensityHeatmap::ClassContours> contours;
    if (hue && m_session->result() && m_session->result()->grid.logDensity.size() > 0) {
        int k = 0;
        for (const ClassDensity& c : hue->classes) {
            contours.push_back({hueClassName(c), colors::hueClass(k++), &c.grid});
        }
    }
    m_density->setClasses(contours);
    if (m_session->data().features().cols() < 2 || m_densityPage->chosenColumn() >= 0) {
        showDensityCurve();
    }
}

void MainWindow::showMarginal(int column)
{
    m_tabs->setCurrentWidget(m_densityPage);
    m_densityPage->showView(column);
    showDensityCurve();
}

void MainWindow::showDensityCurve()
{
    const FitJobResult* r = m_session->result();
    if (!r) {
        return;
    }
    const Matrix& x = m_session->data().features();
    const QStringList names = m_session->data().featureNames();
    const QString reason = m_marginals->unavailable();
    m_densityPage->setChoices(names.mid(0, int(x.cols())), r->grid.spec.xColumn,
                              r->grid.spec.yColumn, reason);
    const int column = x.cols() < 2 ? 0 : m_densityPage->chosenColumn();
    m_densityPage->showView(column);
    if (column == DensityPage::kPairPlot) {
        showPairPlot();
        return;
    }
    if (column < 0) {
        m_densityPage->setNote(reason.isEmpty() ? QString()
                                                : tr("(no 1-D marginal: %1)").arg(reason));
        return;
    }
    const DensityCurve* curve = m_marginals->curve(column);
    DensityCurvePlot* plot = m_densityPage->curve();
    if (!curve) {
        m_marginals->request(column);
        plot->clearContent(tr("Computing the 1-D marginal of %1…").arg(names.value(column)));
        m_densityPage->setNote(tr("computing…"));
        return;
    }
    m_densityPage->setNote(QString());
    const FittedModel& m = r->model();
    DensityCurvePlot::Content c;
    c.curve = curve;
    c.kind = m.kind();
    c.rows = x.col(column);
    c.labels = m_session->data().labels();
    c.fitRows = r->fitRowIndices;
    const Scaler& scaler = m_session->data().scaler();
    if (column < scaler.shift.size()) {
        c.toData = [scaler, column](double t) { return scaler.toData(column, t); };
        c.logDerivative = [scaler, column](double t) { return scaler.logDerivative(column, t); };
    }
    c.xLabel = names.value(column);
    const ClassDensities* hue = m_hue->classes();
    if (hue && x.cols() == 1) {
        // One column: the classes' curves (a marginal's classes are not fitted: d > 1).
        int k = 0;
        for (const ClassDensity& cd : hue->classes) {
            if (cd.curve.logValues.size() > 0) {
                c.classes.push_back({hueClassName(cd), colors::hueClass(k), &cd.curve, cd.share});
            }
            ++k;
        }
    }
    if (x.cols() == 1) {
        addOverlays(c, m_overlays->overlays(), m);
    }
    if (m.kind() == DensityKind::Score) {
        c.scoreLevels = rowScoreLevels(
            &r->scoresModel() == &m && r->scoresReady() ? r->rowLogDensity : m.logValues(x).values);
    }
    c.title = oneColumnTitle(
        m, *curve, c.xLabel, *r, x,
        m.kernel() ? lengthScaleText(m.kernel()->spec().lengthScale, m_session->data().scaler(),
                                     m_session->data().featureNames()) +
                         bwAdjustText(r->fit.bwAdjust, r->fit.lengthScaleChosen)
                   : QString());
    plot->showContent(c);
}

} // namespace sosrep::ui
