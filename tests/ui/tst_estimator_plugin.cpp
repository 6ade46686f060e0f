// SPDX-License-Identifier: MIT
// Issue 8: an estimator registered at run time (here a toy: a Gaussian with the sample mean and
// per-column variance) is offered everywhere without touching a front end: the command line's
// `fit --help` and its fit and score commands, model files, the app's estimator list and model
// panel, and project files.
#include "core/estimators/registry.h"
#include "support/cli_run.h"
#include "ui/controller/fit_controller.h"
#include "ui/controller/session.h"
#include "ui/exporter.h"
#include "ui/main_window.h"
#include "ui/panels/model_panel.h"
#include "ui/panels/option_editor.h"
#include "ui/project_file.h"
#include "ui/project_files.h"

#include <QtTest>

#include <cmath>

using namespace sosrep;

namespace {

class DiagonalGaussianModel final : public FittedModel
{
public:
    DiagonalGaussianModel(Vector mean, Vector variance)
        : m_mean(std::move(mean)), m_variance(std::move(variance))
    {
    }
    std::string estimator() const override { return "toy-gaussian"; }
    DensityKind kind() const override { return DensityKind::Normalized; }
    LogDensity modelLogValues(const MatrixRef& y) const override
    {
        LogDensity out;
        out.values.resize(y.rows());
        for (Eigen::Index i = 0; i < y.rows(); ++i) {
            const auto z = (y.row(i).transpose() - m_mean).array();
            out.values(i) =
                -0.5 *
                (z.square() / m_variance.array() + (2.0 * M_PI * m_variance.array()).log()).sum();
        }
        return out;
    }
    void save(ParameterMap& out) const override
    {
        out.set("mean", m_mean);
        out.set("variance", m_variance);
    }

private:
    Vector m_mean;
    Vector m_variance;
};

class ToyGaussianEstimator final : public Estimator
{
public:
    std::string name() const override { return "toy-gaussian"; }
    std::string title() const override { return "Toy: a Gaussian with diagonal covariance"; }
    const OptionTable& options() const override
    {
        static const OptionTable t = [] {
            OptionSpec floor;
            floor.name = "variance_floor";
            floor.type = OptionType::Real;
            floor.defaultValue = "1e-06";
            floor.minimum = 0.0;
            floor.minimumExclusive = true;
            floor.label = "Variance floor";
            floor.group = "Toy";
            floor.help = "smallest variance per column";
            return OptionTable{floor};
        }();
        return t;
    }
    Capabilities capabilities() const override
    {
        Capabilities c;
        c.kind = DensityKind::Normalized;
        c.usesKernel = false;
        return c;
    }
    std::unique_ptr<FittedModel> fit(const FitInput& in, const FitControl&) const override
    {
        const Vector mean = in.x.colwise().mean();
        Vector var = (in.x.rowwise() - mean.transpose()).array().square().colwise().mean();
        var = var.cwiseMax(in.options.real("variance_floor"));
        return std::make_unique<DiagonalGaussianModel>(mean, var);
    }
    std::unique_ptr<FittedModel> load(const ParameterMap& p, const KernelSpec*) const override
    {
        return std::make_unique<DiagonalGaussianModel>(p.vector("mean"), p.vector("variance"));
    }
};

} // namespace

class TstEstimatorPlugin : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString path(const char* name) const { return m_dir.filePath(QString::fromLatin1(name)); }

private slots:
    void initTestCase()
    {
        QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, path("settings"));
        EstimatorRegistry::instance().add(std::make_unique<ToyGaussianEstimator>());
        const CliRun g = runSosrep({"generate", "--kind", "gmm", "--n", "300", "--seed", "5",
                                    "--anomalies", "0.1", "--out", path("data.csv")});
        QVERIFY2(g.code == 0, qPrintable(g.err));
    }

    void cleanupTestCase() { QVERIFY(EstimatorRegistry::instance().remove("toy-gaussian")); }

    void commandLineOffersItAndModelFilesRoundTrip()
    {
        const CliRun help = runSosrep({"fit", "--help"});
        // The estimator choices list every registered name, the toy last (registered last).
        QStringList names;
        for (const std::string& n : EstimatorRegistry::instance().familyNames(false)) {
            names << QString::fromStdString(n);
        }
        QCOMPARE(names.last(), QStringLiteral("toy-gaussian"));
        QVERIFY2(help.out.contains(names.join('|')), qPrintable(names.join('|')));
        QVERIFY(help.out.contains(QStringLiteral("--variance-floor")));
        QVERIFY(help.out.contains(QStringLiteral("[toy-gaussian] smallest variance per column")));

        const CliRun fit =
            runSosrep({"fit", "--train", path("data.csv"), "--label-column", "label", "--estimator",
                       "toy-gaussian", "--variance-floor", "0.01", "--model-out", path("toy.json"),
                       "--scores-out", path("fit.csv")});
        QVERIFY2(fit.code == 0, qPrintable(fit.err));
        QCOMPARE(fit.summary()[QStringLiteral("estimator")].toString(),
                 QStringLiteral("toy-gaussian"));
        QVERIFY(!fit.summary().contains(QStringLiteral("length_scale"))); // no kernel
        // An option of another estimator is ignored with a warning, not an error.
        const CliRun other = runSosrep(
            {"fit", "--train", path("data.csv"), "--estimator", "toy-gaussian", "--lr", "0.3"});
        QVERIFY2(other.code == 0, qPrintable(other.err));
        QVERIFY(other.err.contains(
            QStringLiteral("warning: --lr is ignored: the toy-gaussian estimator has no such")));

        const QJsonObject model = QJsonDocument::fromJson(bytesOf(path("toy.json"))).object();
        QCOMPARE(model[QStringLiteral("estimator")].toString(), QStringLiteral("toy-gaussian"));
        QCOMPARE(model[QStringLiteral("settings")]
                     .toObject()[QStringLiteral("variance_floor")]
                     .toDouble(),
                 0.01);
        QCOMPARE(
            model[QStringLiteral("parameters")].toObject()[QStringLiteral("mean")].toArray().size(),
            2);
        const CliRun score =
            runSosrep({"score", "--model", path("toy.json"), "--data", path("data.csv"),
                       "--label-column", "label", "--scores-out", path("score.csv")});
        QVERIFY2(score.code == 0, qPrintable(score.err));
        QCOMPARE(bytesOf(path("score.csv")), bytesOf(path("fit.csv")));
    }

    void appOffersItAndProjectsRoundTrip()
    {
        ui::MainWindow w;
        ui::Session* c = w.session();
        auto* panel = w.findChild<ui::ModelPanel*>();
        QVERIFY(panel);
        QVERIFY(panel->estimatorNames().contains(QStringLiteral("toy-gaussian")));
        w.openFile(path("data.csv"));
        c->setEstimator("toy-gaussian");
        // The panel built an editor for the toy's option from its table.
        bool found = false;
        for (ui::OptionEditor* e : panel->findChildren<ui::OptionEditor*>()) {
            found = found || e->spec().name == "variance_floor";
        }
        QVERIFY(found);
        QVERIFY(c->setOption("variance_floor", "0.01"));
        QSignalSpy finished(c, &ui::Session::fitFinished);
        w.fits()->fit();
        QVERIFY(finished.wait(60000));
        QCOMPARE(c->result()->model().estimator(), std::string("toy-gaussian"));
        // Same settings, same data: the app's scores are the command line's, byte for byte.
        QCOMPARE(w.exporter()->exportScores(path("app.csv")), QString());
        QCOMPARE(bytesOf(path("app.csv")), bytesOf(path("fit.csv")));

        QCOMPARE(ui::saveProject(path("toy.sosrep.json"), w.projectFiles()->parts()), QString());
        ui::MainWindow w2;
        QCOMPARE(w2.projectFiles()->openProject(path("toy.sosrep.json")), QString());
        QCOMPARE(w2.session()->settings().estimator, std::string("toy-gaussian"));
        QVERIFY(w2.session()->settings() == c->settings());
        QCOMPARE(w2.session()->settings().values.real("variance_floor"), 0.01);
    }
};

QTEST_MAIN(TstEstimatorPlugin)
#include "tst_estimator_plugin.moc"
