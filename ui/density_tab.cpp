// SPDX-License-Identifier: MIT
// The Density tab's binding: the map and its hue and edges, the 1-D density of a column, the
// closed-form marginal of a chosen column, and the pair plot.
#include "ui/density_tab.h"

#include "core/estimators/registry.h"
#include "core/grid/density_grid.h"
#include "core/kernels/kernel_operator.h"
#include "ui/controller/density_units.h"
#include "ui/controller/hue_controller.h"
#include "ui/controller/marginal_controller.h"
#include "ui/controller/overlay_controller.h"
#include "ui/controller/pair_plot_controller.h"
#include "ui/controller/session.h"
#include "ui/plots/density_curve_plot.h"
#include "ui/plots/density_page.h"
#include "ui/plots/fitted_title.h"
#include "ui/plots/pair_plot.h"
#include "ui/plots/plot_style.h"

#include <QComboBox>

#include <cmath>

namespace sosrep::ui {

DensityTab::DensityTab(const Controllers& controllers, DensityPage* page, QObject* parent)
    : QObject(parent), m_c(controllers), m_page(page)
{
    connectControllers();
}

void DensityTab::clear(const QString& message)
{
    m_page->map()->clearContent(message);
    m_page->curve()->clearContent(message);
}

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
        (kernel ? DensityTab::tr(" (ℓ = %1, fitted)").arg(kernel->spec().lengthScale, 0, 'g', 3)
                : QString());
}

/// The 1-D view's title: what the curve is (a closed-form marginal, the density or score along
/// the only column), the kernel and ℓ (`lengthScale`, in words), and the rows fitted.
QString oneColumnTitle(const FittedModel& m, const DensityCurve& curve, const QString& xLabel,
                       const FitJobResult& r, const Matrix& x, const QString& lengthScale)
{
    QString t = QString::fromStdString(m.estimator()).toUpper();
    if (curve.marginal && x.cols() == 2) {
        t += DensityTab::tr(
                 " 1-D marginal density of %1 (the other column integrated out in closed form)")
                 .arg(xLabel);
    } else if (curve.marginal) {
        t += DensityTab::tr(
                 " 1-D marginal density of %1 (the other %2 columns integrated out in closed "
                 "form)")
                 .arg(xLabel)
                 .arg(x.cols() - 1);
    } else {
        t += (m.kind() == DensityKind::Score ? DensityTab::tr(" normality score along %1")
                                             : DensityTab::tr(" density of %1"))
                 .arg(xLabel);
    }
    if (const KernelOperator* k = m.kernel()) {
        t += DensityTab::tr(", %1 kernel, %2")
                 .arg(QString::fromStdString(toString(k->spec().type)))
                 .arg(lengthScale);
    }
    if (r.fitRows < x.rows()) {
        t += DensityTab::tr("; fitted on %1 of %2 rows (seeded subsample), all drawn")
                 .arg(r.fitRows)
                 .arg(x.rows());
    }
    return t;
}

} // namespace

void DensityTab::connectControllers()
{
    connect(m_page, &DensityPage::viewChosen, this, [this] { showDensityCurve(); });
    connect(m_c.session, &Session::dataChanged, this, [this] {
        // Another file's columns: its Show box starts at the map (a marginal of x2 chosen for
        // the last file was computed for shuttle before any view appeared).
        m_page->setColumns(
            m_c.session->data().featureNames().mid(0, int(m_c.session->data().features().cols())));
        // (A hue of columns these data do not have went: HueController.)
        m_page->setHueChoices(m_c.hue->candidates(), m_c.hue->column());
        m_page->setOverlayChoices(densityEstimators(), m_c.overlays->specs());
    });
    connect(m_c.pairs, &PairPlotController::panelReady, this,
            [this](int index) { m_page->pairs()->setPanel(m_c.pairs->panels()[size_t(index)]); });
    connect(m_c.pairs, &PairPlotController::finished, this, [this] {
        PairPlot* plot = m_page->pairs();
        const bool closed = m_c.marginals->unavailable().isEmpty();
        plot->setTitle(plot->title().replace(
            QStringLiteral("on it each column's marginal…"),
            closed ? tr("on it each column's closed-form marginal")
                   : tr("on it the density along each column through the medians (%1)")
                         .arg(m_c.marginals->unavailable())));
        m_page->setNote(tr("%1 panels").arg(m_c.pairs->panels().size()));
    });
    connect(m_c.pairs, &PairPlotController::cancelled, this, [this] {
        m_page->setNote(tr("pair plot cancelled: choose it in Show again to go on"));
    });
    connectHue();
    connect(m_page, &DensityPage::overlaysChosen, m_c.overlays, &OverlayController::setSpecs);
    connect(m_c.overlays, &OverlayController::ready, this, [this] {
        m_page->setOverlayChoices(densityEstimators(), m_c.overlays->specs());
        if (m_c.session->result() && m_c.session->data().features().cols() == 1) {
            showDensityCurve();
        }
    });
    connect(m_c.overlays, &OverlayController::failed, this,
            [this](const QString& why) { emit message(why, 10000); });
    connect(m_c.marginals, &MarginalController::ready, this, [this](int column) {
        if (m_page->chosenColumn() == column) {
            showDensityCurve();
        }
        if (m_joint) {
            showJointEdges();
        }
    });
    connect(m_c.marginals, &MarginalController::cancelled, this, [this](int column) {
        if (m_page->chosenColumn() == column) {
            m_page->curve()->clearContent(
                tr("Marginal cancelled: choose it in Show again to compute it"));
            m_page->setNote(tr("cancelled"));
        }
    });
}

void DensityTab::connectHue()
{
    connect(m_page, &DensityPage::hueChosen, this, [this](const QString& column) {
        m_c.hue->setColumn(column);
        if (column.isEmpty()) {
            m_page->setNote(QString());
        } else if (m_c.session->result()) {
            m_page->setNote(tr("fitting one density per value of %1…").arg(column));
        } // (else the hue left the features and the note says so: columnLeftFeatures)
    });
    connect(m_c.hue, &HueController::columnLeftFeatures, this, [this](const QString& column) {
        const QString text = tr("column '%1' is the hue: it left the features (its role is "
                                "ignore); fit again (F5) for the other columns' density")
                                 .arg(column);
        m_page->setNote(text);
        emit message(text, 15000);
    });
    connect(m_c.hue, &HueController::columnChanged, this,
            [this] { m_page->setHueChoices(m_c.hue->candidates(), m_c.hue->column()); });
    connect(m_page, &DensityPage::hueOptionsChosen, m_c.hue, &HueController::setOptions);
    connect(m_c.hue, &HueController::optionsChanged, this, [this] {
        m_page->setHueOptions(m_c.hue->options());
        if (m_c.hue->options().perClassLengthScale && !m_c.hue->column().isEmpty() &&
            m_c.session->result()) {
            m_page->setNote(tr("fitting each class of %1 at its own ℓ…").arg(m_c.hue->column()));
        }
    });
    connect(m_c.hue, &HueController::ready, this, [this] {
        // Classes with too few rows get no density: said, not dropped in silence (issue 52).
        const ClassDensities* hue = m_c.hue->classes();
        QStringList left;
        for (const std::string& s : hue ? hue->skipped : std::vector<std::string>()) {
            left << QString::fromStdString(s);
        }
        m_page->setNote(left.isEmpty()
                            ? QString()
                            : tr("no density for %1").arg(left.join(QStringLiteral("; "))));
        showHue();
    });
    connect(m_c.hue, &HueController::failed, this, [this](const QString& why) {
        m_page->setNote(why);
        emit message(why, 10000);
        showHue();
    });
}

void DensityTab::showPairPlotView()
{
    emit raiseRequested();
    m_page->showView(DensityPage::kPairPlot);
    showDensityCurve();
}

void DensityTab::showPairPlot()
{
    const FitJobResult* r = m_c.session->result();
    PairPlot* plot = m_page->pairs();
    const QStringList names = m_c.session->data().featureNames();
    const int columns = int(m_c.session->data().features().cols());
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
                m_c.session->data().scaler());
    for (const PairPanel& p : m_c.pairs->panels()) {
        plot->setPanel(p);
    }
    m_page->setNote(tr("Esc stops it"));
    m_c.pairs->request();
}

void DensityTab::setJoint(bool on)
{
    m_joint = on;
    emit jointChanged(on); // the View menu's check mark follows
    if (!on) {
        m_page->map()->setJoint(false);
        return;
    }
    showJointEdges();
}

void DensityTab::showJointEdges()
{
    const FitJobResult* r = m_c.session->result();
    if (!m_joint || !r || r->grid.logDensity.size() == 0) {
        return;
    }
    const QString unavailable = m_c.marginals->unavailable();
    const Scaler& scaler = m_c.session->data().scaler();
    const QStringList names = m_c.session->data().featureNames();
    const auto edge = [&](int column) {
        DensityHeatmap::Edge e;
        // Per unit of the column, as the map's colour bar says its own unit (issue 50).
        e.name = tr("density %1").arg(densityUnit({names.value(column)}, DensityKind::Normalized));
        if (!unavailable.isEmpty()) {
            e.why = tr("no closed-form marginal");
            return e;
        }
        const DensityCurve* curve = m_c.marginals->curve(column);
        if (!curve) {
            m_c.marginals->request(column); // ready() brings it here again
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
    m_page->map()->setJoint(true, edge(r->grid.spec.xColumn), edge(r->grid.spec.yColumn));
}

QString DensityTab::hueClassName(const ClassDensity& c) const
{
    // A class at its own ℓ says which (scaled units, as the titles' ℓ).
    const QString own = m_c.hue->options().perClassLengthScale
                            ? tr(", ℓ = %1").arg(c.lengthScale, 0, 'g', 3)
                            : QString();
    return tr("%1 = %2 (%3 rows%4)")
        .arg(m_c.hue->column())
        .arg(QString::fromStdString(c.name))
        .arg(c.rows)
        .arg(own);
}

void DensityTab::showHue()
{
    // The box says which hue is on, however it was set (the box, a project, --hue).
    if (m_page->hueChooser()->currentData().toString() != m_c.hue->column()) {
        m_page->setHueChoices(m_c.hue->candidates(), m_c.hue->column());
    }
    const ClassDensities* hue = m_c.hue->classes();
    std::vector<DensityHeatmap::ClassContours> contours;
    if (hue && m_c.session->result() && m_c.session->result()->grid.logDensity.size() > 0) {
        int k = 0;
        for (const ClassDensity& c : hue->classes) {
            contours.push_back({hueClassName(c), colors::hueClass(k++), &c.grid});
        }
    }
    m_page->map()->setClasses(contours);
    if (m_c.session->data().features().cols() < 2 || m_page->chosenColumn() >= 0) {
        showDensityCurve();
    }
}

void DensityTab::showMarginal(int column)
{
    emit raiseRequested();
    m_page->showView(column);
    showDensityCurve();
}

void DensityTab::showDensityCurve()
{
    const FitJobResult* r = m_c.session->result();
    if (!r) {
        return;
    }
    const Matrix& x = m_c.session->data().features();
    const QStringList names = m_c.session->data().featureNames();
    const QString reason = m_c.marginals->unavailable();
    m_page->setChoices(names.mid(0, int(x.cols())), r->grid.spec.xColumn, r->grid.spec.yColumn,
                       reason);
    const int column = x.cols() < 2 ? 0 : m_page->chosenColumn();
    m_page->showView(column);
    if (column == DensityPage::kPairPlot) {
        showPairPlot();
        return;
    }
    if (column < 0) {
        m_page->setNote(reason.isEmpty() ? QString() : tr("(no 1-D marginal: %1)").arg(reason));
        return;
    }
    const DensityCurve* curve = m_c.marginals->curve(column);
    DensityCurvePlot* plot = m_page->curve();
    if (!curve) {
        m_c.marginals->request(column);
        plot->clearContent(tr("Computing the 1-D marginal of %1…").arg(names.value(column)));
        m_page->setNote(tr("computing…"));
        return;
    }
    m_page->setNote(QString());
    const FittedModel& m = r->model();
    DensityCurvePlot::Content c;
    c.curve = curve;
    c.kind = m.kind();
    c.rows = x.col(column);
    c.labels = m_c.session->data().labels();
    c.fitRows = r->fitRowIndices;
    const Scaler& scaler = m_c.session->data().scaler();
    if (column < scaler.shift.size()) {
        c.toData = [scaler, column](double t) { return scaler.toData(column, t); };
        c.logDerivative = [scaler, column](double t) { return scaler.logDerivative(column, t); };
    }
    c.xLabel = names.value(column);
    const ClassDensities* hue = m_c.hue->classes();
    if (hue && x.cols() == 1) {
        // One column: the classes' curves (a marginal's classes are not fitted: d > 1), each
        // times its share under common_norm. They add up to the dashed curve of all rows
        // only for KDE at one ℓ: a SOSREP fit of all rows is not the sum of fits of parts.
        const bool common = m_c.hue->options().commonNorm;
        int k = 0;
        for (const ClassDensity& cd : hue->classes) {
            if (cd.curve.logValues.size() > 0) {
                c.classes.push_back(
                    {hueClassName(cd), colors::hueClass(k), &cd.curve, common ? cd.share : 1.0});
            }
            ++k;
        }
        c.curveName = tr("all rows (one fit)");
    }
    if (x.cols() == 1) {
        addOverlays(c, m_c.overlays->overlays(), m);
    }
    if (m.kind() == DensityKind::Score) {
        c.scoreLevels = rowScoreLevels(
            &r->scoresModel() == &m && r->scoresReady() ? r->rowLogDensity : m.logValues(x).values);
    }
    c.title = oneColumnTitle(
        m, *curve, c.xLabel, *r, x,
        m.kernel() ? lengthScaleText(m.kernel()->spec().lengthScale, m_c.session->data().scaler(),
                                     m_c.session->data().featureNames()) +
                         bwAdjustText(r->fit.bwAdjust, r->fit.lengthScaleChosen)
                   : QString());
    plot->showContent(c);
}

QString DensityTab::densityTitle() const
{
    const FitJobResult* r = m_c.session->result();
    const FittedModel& m = r->model();
    // The map's colouring names what is drawn (a normality score is drawn as it is).
    const bool score = m.kind() == DensityKind::Score;
    const QString what = (score                            ? tr("%1 %2")
                          : m_mapScale == MapScale::Log    ? tr("%1 log %2")
                          : m_mapScale == MapScale::Linear ? tr("%1 %2 (linear scale)")
                                                           : tr("%1 %2, iso-proportion levels"))
                             .arg(QString::fromStdString(m.estimator()).toUpper(),
                                  QString::fromStdString(toString(m.kind())));
    QString t = what;
    if (const KernelOperator* k = m.kernel()) {
        t += tr(", %1 kernel, %2")
                 .arg(QString::fromStdString(toString(k->spec().type)))
                 .arg(lengthScaleText(k->spec().lengthScale, m_c.session->data().scaler(),
                                      m_c.session->data().featureNames())) +
             bwAdjustText(r->fit.bwAdjust, r->fit.lengthScaleChosen);
    }
    if (m_c.session->data().features().cols() > 2) {
        t += tr("; a 2-D slice, other columns held at their medians");
    }
    if (r->fitRows < m_c.session->data().features().rows()) {
        t += tr("; fitted on %1 of %2 rows (seeded subsample), all drawn and scored")
                 .arg(r->fitRows)
                 .arg(m_c.session->data().features().rows());
    }
    return t;
}

void DensityTab::showMaps()
{
    const FitJobResult* r = m_c.session->result();
    const QStringList names = m_c.session->data().featureNames();
    if (r->grid.logDensity.size() > 0) {
        DensityHeatmap::Content c;
        c.grid = &r->grid;
        c.points = m_c.session->data().features();
        c.labels = m_c.session->data().labels();
        c.title = densityTitle();
        c.slice = m_c.session->data().features().cols() > 2;
        c.fitRows = r->fitRowIndices;
        // Per unit of the data's own columns (a slice of the d-dimensional density when d > 2).
        c.valueLabel = logValueLabel(names, r->model().kind());
        if (r->model().kind() == DensityKind::Score) {
            // The rows' scores are at hand when the map's model is the one that scored them.
            c.scoreLevels = rowScoreLevels(&r->scoresModel() == &r->model() && r->scoresReady()
                                               ? r->rowLogDensity
                                               : r->model().logValues(c.points).values);
        }
        c.xLabel = names.value(r->grid.spec.xColumn);
        c.yLabel = names.value(r->grid.spec.yColumn);
        c.scale = m_mapScale;
        // The hover reads the model at the pointer, not the nearest grid node's value.
        c.modelValue = [model = r->fit.model, spec = r->grid.spec](double x, double y) {
            return sliceLogValue(*model, spec, x, y);
        };
        m_page->map()->showContent(c);
        showHue(); // a hue's classes of this result, once fitted
        showJointEdges();
    } else {
        m_page->map()->clearContent(tr("One feature column: its 1-D density is shown"));
    }
    showDensityCurve();
}

void DensityTab::setMapScale(MapScale scale)
{
    const bool changed = scale != m_mapScale;
    m_mapScale = scale;
    if (changed) {
        emit mapScaleChanged(scale); // the View menu's check marks follow
    }
    if (m_c.session->result() && m_c.session->result()->grid.logDensity.size() > 0) {
        showMaps();
    }
}
} // namespace sosrep::ui
