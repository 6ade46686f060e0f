// SPDX-License-Identifier: MIT
// The Ratio view: Type I and II fits, lambda moves, exports, saved weights, projects and
// cancel.
#include "ui/controller/negativity_job.h"
#include "ui/controller/ratio_controller.h"
#include "ui/controller/session.h"
#include "ui/controller/settings_history.h"
#include "ui/exporter.h"
#include "ui/main_window.h"
#include "ui/panels/option_editor.h"
#include "ui/plots/compare_view.h"
#include "ui/plots/density_heatmap.h"
#include "ui/plots/optimizer_view.h"
#include "ui/plots/ratio_plot.h"
#include "ui/plots/ratio_view.h"
#include "ui/plots/trace_plot.h"
#include "ui/project_file.h"
#include "ui/project_files.h"

#include "core/metrics/auc.h"
#include "support/gui_fixtures.h"
#include "support/shared_data.h"
#include "support/temp_files.h"

#include <QCheckBox>
#include <QComboBox>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QStatusBar>
#include <QToolButton>
#include <QUndoStack>
#include <QXmlStreamReader>
#include <QtTest>

#include <random>

using namespace sosrep::ui;

class TstRatioView : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;

    QString writeFile(const char* name, const QByteArray& text)
    {
        return writeTempFile(m_dir, QString::fromLatin1(name), text);
    }

    /// q = the rows whose label column is `value` (the shift toy's second sample).
    static RatioSource labelSplit(double value = 1.0)
    {
        RatioSource split;
        split.kind = RatioSource::Column;
        split.column = QStringLiteral("label");
        split.value = value;
        return split;
    }

    /// The Ratio view's uLSIF on the shift toy (400 rows, seed 4) split by its label; null
    /// when the split is refused.
    static RatioController* ulsifOnTheShiftToy(MainWindow& w)
    {
        RatioController* r = w.controllers().ratios;
        w.session()->generateToy(sosrep::ToyKind::Shift, 400, 4);
        if (!r->setSource(labelSplit())) {
            return nullptr;
        }
        r->setEstimator("ulsif");
        return r;
    }

private slots:
    // Issue 24: "q = rows in a rectangle" left p = the other rows (disjoint supports, 47 %
    // negative weights) and the rectangle was not drawn. Now p = all rows by default (a box
    // to untick), the description says which, and the rectangle stays on the map.
    void aRectangleSplitTakesPAsAllRowsAndIsDrawn()
    {
        MainWindow w;
        w.resize(1400, 900);
        RatioController* r = w.controllers().ratios;
        w.openFile(writeFile("clusters.csv", clusterCsv(300)));
        RatioPlot* plot = w.views().ratio->plot();
        emit plot->rectanglePicked(-1.0, 1.2, -0.8, 1.0);
        QCOMPARE(r->source().kind, RatioSource::Rect);
        QVERIFY(r->source().pAll);
        QCOMPARE(r->pRaw().rows(), 300);
        const Eigen::Index inside = r->qRaw().rows();
        QVERIFY(inside > 10 && inside < 300);
        QVERIFY2(r->sourceDescription().contains(QStringLiteral("p = all rows")),
                 qPrintable(r->sourceDescription()));
        const QRectF drawn = plot->shownQRectangle();
        QCOMPARE(drawn.left(), -1.0);
        QCOMPARE(drawn.right(), 1.2);
        QCOMPARE(drawn.top(), -0.8);
        QCOMPARE(drawn.bottom(), 1.0);
        // The fit: q inside p, so the weights are a ratio that exists (few negative ones).
        QSignalSpy done(r, &RatioController::resultChanged);
        r->fit();
        QVERIFY(done.wait(60000));
        QVERIFY(r->result());
        QVERIFY2(r->result()->summary.negativeShare < 0.2,
                 qPrintable(QString::number(r->result()->summary.negativeShare)));
        // Untick: p = the rows outside, said so; the rectangle is still drawn.
        QCheckBox* pAll = nullptr;
        for (QCheckBox* b : w.views().ratio->findChildren<QCheckBox*>()) {
            if (b->text().startsWith(QStringLiteral("p = all rows"))) {
                pAll = b;
            }
        }
        QVERIFY(pAll && pAll->isChecked() && pAll->isEnabled());
        pAll->setChecked(false);
        QCOMPARE(r->pRaw().rows(), 300 - inside);
        QVERIFY(r->sourceDescription().contains(QStringLiteral("the rows outside it")));
        QVERIFY(!plot->shownQRectangle().isNull());
        // A project keeps the choice.
        QJsonObject saved = r->toJson();
        QCOMPARE(saved[QStringLiteral("q")].toObject()[QStringLiteral("p_all")].toBool(), false);
    }

    // Issue 24: the Ratio settings were outside the undo history: Ctrl+Z after a change of
    // Half-spaces undid an unrelated model change instead. Now each is a step of its own.
    void ratioSettingsAreStepsOfTheUndoHistory()
    {
        MainWindow w;
        auto* c = w.session();
        RatioController* r = w.controllers().ratios;
        c->generateToy(sosrep::ToyKind::Shift, 200, 4);
        QUndoStack* stack = w.controllers().history->stack();
        sosrep::FitSettings model = c->settings();
        model.values.set("kernel", "laplace");
        c->setSettings(model);
        const int afterModel = stack->count();
        QVERIFY(afterModel >= 1);
        QVERIFY(r->setOption("half_spaces", "190"));
        QCOMPARE(stack->count(), afterModel + 1);
        QVERIFY2(stack->undoText().contains(QStringLiteral("ratio")),
                 qPrintable(stack->undoText()));
        QVERIFY2(stack->undoText().contains(QStringLiteral("190")), qPrintable(stack->undoText()));
        stack->undo();
        QCOMPARE(r->settings().values.integer("half_spaces"), 200LL);
        QCOMPARE(c->settings().values.text("kernel"), std::string("laplace")); // untouched
        stack->redo();
        QCOMPARE(r->settings().values.integer("half_spaces"), 190LL);
        // The ratio estimator too; the editor shows what undo put back.
        r->setEstimator("ulsif");
        stack->undo();
        QCOMPARE(r->settings().estimator, std::string("fire"));
        stack->undo(); // half-spaces 190 -> 200
        stack->undo(); // the model's kernel
        QCOMPARE(r->settings().values.integer("half_spaces"), 200LL);
        QVERIFY(c->settings().values.text("kernel") != std::string("laplace"));
    }

    // Issue 10: the Ratio view splits the data, fits through the one route, moves along the
    // lambda path without refitting, exports its three panels as one plot, saves its state in
    // projects, and drops results that no longer belong to the data.
    void ratioViewFitsMovesLambdaExportsAndRoundTrips()
    {
        MainWindow w;
        w.resize(1400, 900);
        auto* c = w.session();
        RatioController* r = w.controllers().ratios;
        c->generateToy(sosrep::ToyKind::Shift, 400, 4);
        QVERIFY(!r->ready());
        RatioSource split;
        split.kind = RatioSource::Column;
        split.column = QStringLiteral("label");
        split.value = 1.0;
        QVERIFY(r->setSource(split));
        QCOMPARE(int(r->pRaw().rows()), 200);
        QCOMPARE(int(r->qRaw().rows()), 200);
        QSignalSpy changed(r, &RatioController::resultChanged);
        r->fit();
        QTRY_VERIFY_WITH_TIMEOUT(r->result() != nullptr, 60000);
        const RatioResult& res = *r->result();
        QVERIFY(res.grid.allFinite());
        QVERIFY(std::abs(res.summary.mean - 1.0) < 0.3);
        QVERIFY(res.model->surface().has_value());
        QCOMPARE(res.model->surface()->j.rows(), Eigen::Index(10));
        // Reweighting p moves its mean of x toward q's.
        QVERIFY(std::abs(res.reweightedMean(0) - res.qMean(0)) <
                std::abs(res.pMean(0) - res.qMean(0)));
        // Issue 24: the read-out's table has column headers, and the weights can be saved as
        // `sosrep ratio --weights-out` writes them.
        auto* view = w.findChild<RatioView*>();
        const QString readout = view->readoutText();
        QVERIFY2(readout.contains(QStringLiteral("<th>p reweighted</th>")), qPrintable(readout));
        const QString weights = m_dir.filePath(QStringLiteral("weights.csv"));
        QCOMPARE(view->saveWeights(weights), QString());
        QFile file(weights);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QStringList lines =
            QString::fromUtf8(file.readAll()).trimmed().split(QLatin1Char('\n'));
        QCOMPARE(lines.size(), 201);
        QCOMPARE(lines.first(),
                 QStringLiteral("row,weight_raw,weight_clipped,weight_renormalized"));
        QCOMPARE(lines[1].split(QLatin1Char(','))[1].toDouble(), res.weights(0));
        // The slider: another lambda, the same fit.
        const sosrep::RatioModel* fitted = res.model.get();
        QVERIFY(r->setLambda(1e-3));
        QCOMPARE(r->result()->model.get(), fitted);
        QCOMPARE(r->shownLambda(), 1e-3);
        {
            // Issue 38: the slider's lambda is marked on the J grid, inside its lambda range.
            const auto mark = w.views().ratio->plot()->shownLambdaMark();
            QVERIFY(mark);
            const auto& grid = res.model->surface()->lambda;
            QVERIFY2(mark->y() >= -0.5 && mark->y() <= double(grid.size()) - 0.5,
                     qPrintable(QString::number(mark->y())));
        }
        // One plot holds the map, the tuning surface and the histogram.
        w.views().tabs->setCurrentWidget(w.views().ratio);
        const QString png = m_dir.filePath(QStringLiteral("ratio.png"));
        QCOMPARE(w.exporter()->exportCurrentPlot(png, {900, 500, 96}), QString());
        QFile f(png);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.read(8), QByteArray("\x89PNG\r\n\x1a\n", 8));
        QCOMPARE(w.views().ratio->plot()->axisRectCount(), 3);

        // An option edited in the view's own combo box (its editor once deleted itself while
        // it was the sender of the change).
        QComboBox* loss = nullptr;
        for (QComboBox* box : w.views().ratio->findChildren<QComboBox*>()) {
            loss = box->findText(QStringLiteral("rkhs")) >= 0 ? box : loss;
        }
        QVERIFY(loss);
        loss->setCurrentText(QStringLiteral("cutoff"));
        QCOMPARE(r->settings().values.text("loss"), std::string("cutoff"));
        QVERIFY(r->result() == nullptr); // the settings changed: the old result is gone
        const QString project = m_dir.filePath(QStringLiteral("ratio.sosrep.json"));
        QVERIFY(r->setOption("loss", "rkhs"));
        QCOMPARE(saveProject(project, w.projectFiles()->parts()), QString());
        MainWindow w2;
        QCOMPARE(w2.projectFiles()->openProject(project), QString());
        RatioController* r2 = w2.controllers().ratios;
        QCOMPARE(r2->source().kind, RatioSource::Column);
        QCOMPARE(r2->source().column, QStringLiteral("label"));
        QVERIFY(r2->settings() == r->settings());
        QCOMPARE(int(r2->qRaw().rows()), 200);

        // New data: the split and the result belonged to the old data.
        r->fit();
        QTRY_VERIFY_WITH_TIMEOUT(r->result() != nullptr, 60000);
        QVERIFY(w.views().ratio->plot()->showsResultPanels());
        c->generateToy(sosrep::ToyKind::TwoMoons, 300, 1);
        QVERIFY(r->result() == nullptr);
        QCOMPARE(r->source().kind, RatioSource::None);
        // Issue 38: the view kept the last result's colour-bar caption, J axes and weights'
        // range, and its empty state drew a diagonal and colour bars.
        QCOMPARE(w.views().ratio->plot()->mapScaleLabel(), QString());
        QVERIFY(!w.views().ratio->plot()->showsResultPanels());
        MainWindow fresh;
        fresh.resize(1280, 720);
        fresh.views().tabs->setCurrentWidget(fresh.views().ratio);
        QVERIFY(!fresh.views().ratio->plot()->showsResultPanels());
    }

    // Issue 38: "q = rows with" offered a continuous column (the last one) with the value
    // 1.0; now the label column, else the column of fewest values (at most 20), with its
    // rarest value, else none.
    void theSplitOffersAColumnOfAFewValues()
    {
        MainWindow w;
        w.resize(1280, 720);
        auto* c = w.session();
        RatioView* view = w.views().ratio;
        c->generateToy(sosrep::ToyKind::TwoMoons, 300, 1); // x1, x2, label
        QCOMPARE(view->splitChoice(), QStringLiteral("label"));
        QByteArray groups = "a,group,b\n";
        for (int i = 0; i < 90; ++i) {
            groups += QByteArray::number(i * 0.37) + ',' + QByteArray::number(i % 9 == 0 ? 7 : 2) +
                      ',' + QByteArray::number(std::sin(i)) + '\n';
        }
        w.openFile(writeFile("groups.csv", groups));
        QCOMPARE(view->splitChoice(), QStringLiteral("group"));
        QCOMPARE(view->splitValue(), 7.0); // the rarer value
        QByteArray continuous = "a,b\n";
        for (int i = 0; i < 90; ++i) {
            continuous +=
                QByteArray::number(i * 0.37) + ',' + QByteArray::number(std::cos(i)) + '\n';
        }
        w.openFile(writeFile("continuous.csv", continuous));
        QCOMPARE(view->splitChoice(), QString());
    }

    // Issue 50 (minor): after `--ratio-split label=1` the box said "equal to 0.0000" (the
    // rarest value it offers, of a balanced label) beside q = rows with label = 1.
    void theSplitBoxesShowTheSplitInUse()
    {
        MainWindow w;
        w.resize(1280, 720);
        RatioView* view = w.views().ratio;
        QByteArray csv = "x,y,label\n";
        for (int i = 0; i < 200; ++i) {
            csv += QByteArray::number(std::sin(i * 0.3)) + ',' + QByteArray::number(std::cos(i)) +
                   ',' + QByteArray::number(i % 2) + '\n';
        }
        w.openFile(writeFile("balanced.csv", csv));
        QCOMPARE(view->splitValue(), 0.0); // offered: the first of two equally rare values
        RatioSource source;
        source.kind = RatioSource::Column;
        source.column = QStringLiteral("label");
        source.value = 1.0;
        QVERIFY(w.controllers().ratios->setSource(source));
        QCOMPARE(view->splitChoice(), QStringLiteral("label"));
        QCOMPARE(view->splitValue(), 1.0);
    }

    // Issue 38: a tuning that stopped at the edge of its grid said so on the command line
    // only. q and p the same distribution and a strong lambda: J keeps preferring a wider
    // kernel, to the t grid's edge (`sosrep ratio --lambda 10` warns the same).
    void aTuningAtTheEdgeOfItsGridSaysSo()
    {
        MainWindow w;
        w.resize(1280, 720);
        RatioController* r = w.controllers().ratios;
        QByteArray same = "a,b,group\n";
        std::mt19937 rng(3);
        std::normal_distribution<double> z;
        for (int i = 0; i < 300; ++i) {
            same += QByteArray::number(z(rng)) + ',' + QByteArray::number(z(rng)) + ',' +
                    QByteArray::number(i % 2) + '\n';
        }
        w.openFile(writeFile("same.csv", same));
        RatioSource split;
        split.kind = RatioSource::Column;
        split.column = QStringLiteral("group");
        split.value = 1.0;
        QVERIFY(r->setSource(split));
        QVERIFY(r->setOption("lambda", "10"));
        r->fit();
        QTRY_VERIFY_WITH_TIMEOUT(r->result() != nullptr, 60000);
        const auto& surface = *r->result()->model->surface();
        QVERIFY(surface.bestT == 0 || surface.bestT + 1 == int(surface.t.size()));
        QVERIFY(!r->result()->warnings.isEmpty());
        const QString readout = w.views().ratio->readoutText();
        QVERIFY2(readout.contains(QStringLiteral("at the edge of")), qPrintable(readout));
        QCOMPARE(readout.count(QStringLiteral("at the edge of")), 1);
        QVERIFY(readout.contains(QStringLiteral("set t to look beyond it"))); // not a flag
    }

    // Issue 33: a t at which every weight underflows is refused with the message naming t,
    // in the app as on the command line (tst_degenerate_fits) and in Python (test_trust.py).
    void aRatioWhoseWeightsUnderflowIsRefusedNamingT()
    {
        MainWindow w;
        RatioController* r = ulsifOnTheShiftToy(w);
        QVERIFY(r);
        QSignalSpy errors(r, &RatioController::errorOccurred);
        if (r->setOption("t", "1e-10")) {
            r->fit();
            QTRY_VERIFY_WITH_TIMEOUT(!r->isBusy(), 60000);
        }
        QCOMPARE(errors.count(), 1);
        const QString message = errors.front().front().toString();
        QVERIFY2(message.contains(QStringLiteral("t")) &&
                     message.contains(QStringLiteral("underflow")),
                 qPrintable(message));
        QVERIFY(r->result() == nullptr);
    }

    // Issue 52: a t at which a few rows carry the weights (ESS below 5 % of them) fitted without
    // a word; the view says it, as `sosrep ratio` and Python do.
    void aLowEffectiveSampleSizeIsSaid()
    {
        MainWindow w;
        RatioController* r = ulsifOnTheShiftToy(w);
        QVERIFY(r);
        QVERIFY(r->setOption("t", "1e-7"));
        r->fit();
        QTRY_VERIFY_WITH_TIMEOUT(r->result() != nullptr, 60000);
        QVERIFY(r->result()->summary.essFraction < 0.05);
        const QString readout = w.views().ratio->readoutText();
        QVERIFY2(readout.contains(QStringLiteral("effective sample size")), qPrintable(readout));
    }

    // Type II in the Ratio view: q as an expression (no q rows needed), as a density fitted to
    // the q rows, or 1; a syntax error names its column and keeps the mode.
    void ratioViewTypeTwo()
    {
        MainWindow w;
        auto* c = w.session();
        RatioController* r = w.controllers().ratios;
        c->generateToy(sosrep::ToyKind::Shift, 400, 6);
        QSignalSpy errors(r, &RatioController::errorOccurred);
        RatioQMode bad;
        bad.kind = RatioQMode::Expression;
        bad.expression = QStringLiteral("exp(x1");
        QVERIFY(!r->setQMode(bad));
        QVERIFY(errors.last().first().toString().contains(QStringLiteral("column 7")));
        QCOMPARE(r->qMode().kind, RatioQMode::Sample);
        RatioQMode expr;
        expr.kind = RatioQMode::Expression;
        expr.expression = QStringLiteral("exp(-((x1-0.5)^2 + x2^2)/0.72) / (2*pi*0.36)");
        QVERIFY(r->setQMode(expr));
        QVERIFY(r->ready()); // no q rows needed
        r->fit();
        QTRY_VERIFY_WITH_TIMEOUT(!r->isBusy(), 60000);
        QVERIFY(r->result());
        QCOMPARE(r->result()->model->surface()->criterion, std::string("residual"));
        QVERIFY(r->result()->grid.allFinite());
        QVERIFY(std::isnan(r->result()->qMean(0)));

        RatioSource split;
        split.kind = RatioSource::Column;
        split.column = QStringLiteral("label");
        QVERIFY(r->setSource(split));
        RatioQMode density;
        density.kind = RatioQMode::Density;
        density.densityEstimator = "iforest"; // a score, not a density: refused, not offered
        QVERIFY(!r->setQMode(density));
        int densityBoxes = 0;
        for (QComboBox* box : w.views().ratio->findChildren<QComboBox*>()) {
            densityBoxes += box->findText(QStringLiteral("kde")) >= 0 ? 1 : 0;
            QCOMPARE(box->findText(QStringLiteral("iforest")), -1);
            QCOMPARE(box->findText(QStringLiteral("ecod")), -1);
        }
        QCOMPARE(densityBoxes, 1); // q's density box: sosrep, kde, sos-mmd
        density.densityEstimator = "kde";
        QVERIFY(r->setQMode(density));
        r->fit();
        QTRY_VERIFY_WITH_TIMEOUT(!r->isBusy(), 60000);
        QVERIFY(r->result());
        QVERIFY(std::abs(r->result()->summary.mean - 1.0) < 0.5);

        const QString project = m_dir.filePath(QStringLiteral("ratio2.sosrep.json"));
        QCOMPARE(saveProject(project, w.projectFiles()->parts()), QString());
        MainWindow w2;
        QCOMPARE(w2.projectFiles()->openProject(project), QString());
        QCOMPARE(w2.controllers().ratios->qMode().kind, RatioQMode::Density);
        QCOMPARE(w2.controllers().ratios->qMode().densityEstimator, std::string("kde"));
    }

    void ratioFitCancelsPromptly()
    {
        MainWindow w;
        auto* c = w.session();
        RatioController* r = w.controllers().ratios;
        c->generateToy(sosrep::ToyKind::Shift, 2400, 5);
        QVERIFY(r->setSource(labelSplit()));
        QSignalSpy busy(r, &RatioController::busyChanged);
        r->fit();
        QTest::qWait(300);
        QElapsedTimer timer;
        timer.start();
        r->cancel();
        QTRY_VERIFY_WITH_TIMEOUT(!r->isBusy(), 10000);
        qInfo("ratio fit cancelled in %lld ms", static_cast<long long>(timer.elapsed()));
        QVERIFY(timer.elapsed() < 2000);
        QVERIFY(r->result() == nullptr);
        QVERIFY(r->setSource(labelSplit())); // usable afterwards
    }
};

QTEST_MAIN(TstRatioView)
#include "tst_ratio_view.moc"
