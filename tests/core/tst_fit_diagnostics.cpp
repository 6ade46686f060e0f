// SPDX-License-Identifier: MIT
// Degenerate fits say so (core/pipeline/fit_route): a length scale far below the rows' spacing
// or far above their diameter is warned about, a density ratio whose weights all underflow is
// refused naming t, and the effective sample size of equal tiny weights is n, not 0.
#include "core/data/npz_reader.h"
#include "core/data/preparation.h"
#include "core/errors.h"
#include "core/estimators/fit_settings.h"
#include "core/pipeline/fit_diagnostics.h"
#include "core/pipeline/fit_route.h"
#include "core/ratio/importance_weights.h"
#include "support/random_arrays.h"
#include "support/shared_data.h"

#include <QtTest>

#include <string>

using namespace sosrep;

namespace {

bool mentions(const std::vector<std::string>& warnings, const std::string& text)
{
    for (const std::string& w : warnings) {
        if (w.find(text) != std::string::npos) {
            return true;
        }
    }
    return false;
}

FitOutcome kdeAt(const Matrix& x, double l)
{
    FitSettings s = FitSettings::defaults("kde");
    s.values.setReal("length_scale", l);
    FitData data;
    data.train = x;
    data.source = "rows";
    return fitModel(data, s);
}

} // namespace

class TstFitDiagnostics : public QObject
{
    Q_OBJECT

private slots:
    void aLengthScaleBelowTheSpacingIsWarned()
    {
        // 300 rows in 40 dimensions: neighbours ~ 8 apart. At l = 0.5 the kernel matrix is the
        // identity to 1e-100 (the embedding set's case: l = 0.094 against a spacing of 0.964).
        const Matrix x = test::normalMatrix(300, 40, 3);
        QVERIFY(mentions(kdeAt(x, 0.5).warnings, "nearest-neighbour spacing"));
        QVERIFY(!mentions(kdeAt(x, 4.0).warnings, "nearest-neighbour spacing"));
    }

    void rowsThatAreAllEqualAreSaidToBe()
    {
        // Regression (issue 50): 50 copies of one row were told "needs at least two distinct
        // training rows"; the message says what is wrong with the data, naming them.
        Matrix x(50, 2);
        x.col(0).setConstant(1.5);
        x.col(1).setConstant(-2.0);
        FitData data;
        data.train = x;
        data.source = "same.csv";
        try {
            fitModel(data, FitSettings::defaults("sosrep"));
            QFAIL("50 equal rows were fitted with an automatic length scale");
        } catch (const DataError& e) {
            const QString what = QString::fromStdString(e.what());
            QVERIFY2(what.contains(QStringLiteral("same.csv")) &&
                         what.contains(QStringLiteral("all 50 rows are equal")),
                     qPrintable(what));
        }
    }

    void aLengthScaleAboveTheDiameterIsWarned()
    {
        const Matrix x = test::normalMatrix(200, 2, 4);
        QVERIFY(mentions(kdeAt(x, 500.0).warnings, "diameter"));
        QVERIFY(!mentions(kdeAt(x, 1.0).warnings, "diameter"));
    }

    void ratioWeightsThatUnderflowAreRefused_data()
    {
        QTest::addColumn<QString>("estimator");
        QTest::newRow("ulsif") << "ulsif";
        QTest::newRow("tikde") << "tikde";
        QTest::newRow("fire") << "fire";
    }

    void ratioWeightsThatUnderflowAreRefused()
    {
        QFETCH(QString, estimator);
        const Matrix p = test::normalMatrix(200, 2, 5);
        const Matrix q = test::normalMatrix(200, 2, 6).array() + 0.5;
        FitSettings s = FitSettings::defaults(estimator.toStdString());
        s.values.set("t", "1e-10");
        if (s.values.has("lambda")) {
            s.values.set("lambda", "0.1");
        }
        FitData data;
        data.train = p;
        data.source = "p";
        data.second = &q;
        try {
            const FitOutcome f = fitModel(data, s);
            // Not refused: then the weights did not underflow, and the kernel's reach is
            // warned about.
            QVERIFY2(mentions(f.warnings, "below 1e-6"), "neither refused nor warned");
        } catch (const ParameterError& e) {
            QCOMPARE(e.parameter(), std::string("t"));
            QVERIFY(e.message().find("underflow") != std::string::npos);
        }
    }

    void kernelSosAtAnLTooFineForItsDimensionIsRefusedNamingIt_data()
    {
        QTest::addColumn<int>("dim");
        QTest::addColumn<double>("lengthScale");
        QTest::newRow("B overflows (d = 21)") << 21 << 0.02;
        QTest::newRow("(pi l^2)^(d/2) itself overflows (d = 600)") << 600 << 0.05;
    }

    void kernelSosAtAnLTooFineForItsDimensionIsRefusedNamingIt()
    {
        QFETCH(int, dim);
        QFETCH(double, lengthScale);
        const Matrix x = (test::normalMatrix(120, dim, 8).array() * 0.2 + 0.5).matrix();
        FitSettings s = FitSettings::defaults("sos-mmd");
        s.values.setReal("length_scale", lengthScale);
        FitData data;
        data.train = x;
        data.source = "rows";
        const FitOutcome f = fitModel(data, s);
        QVERIFY(f.model->report().refused);
        try {
            checkUsable(*f.model);
            QFAIL("a refused fit was usable");
        } catch (const ParameterError& e) {
            QCOMPARE(e.parameter(), std::string("length_scale"));
            // In many columns the note says why no l helps much and what to do instead.
            const bool many = e.message().find("reduce the columns") != std::string::npos;
            QCOMPARE(many, dim > 300);
        }
        // Tuned, the sweep skips such points and the fit is usable.
        FitSettings tuned = FitSettings::defaults("sos-mmd");
        const FitOutcome t = fitModel(data, tuned);
        checkUsable(*t.model);
        QVERIFY(t.model->logValues(x).values.allFinite());
        // In many columns the fit says what its scores are (InternetAds, d = 1555, fits so).
        bool said = false;
        for (const std::string& w : t.warnings) {
            said = said || w.find("reduce the columns") != std::string::npos;
        }
        QCOMPARE(said, dim > 300);
    }

    void aTunedLengthScaleAtTheEdgeOfItsGridIsSaid_data()
    {
        QTest::addColumn<int>("index");
        QTest::addColumn<int>("members");
        QTest::addColumn<QString>("expected"); // "" = no warning
        QTest::newRow("smallest") << 0 << 1 << "smallest of the grid";
        QTest::newRow("largest") << 4 << 1 << "largest of the grid";
        QTest::newRow("inside") << 2 << 1 << "";
        QTest::newRow("a two-scale rule's edge is not one choice") << 4 << 2 << "";
    }

    void aTunedLengthScaleAtTheEdgeOfItsGridIsSaid()
    {
        QFETCH(int, index);
        QFETCH(int, members);
        QFETCH(QString, expected);
        SearchResult r;
        for (int i = 0; i < 5; ++i) {
            FdPoint p;
            p.lengthScale = 0.01 * std::pow(3.0, i);
            p.value = -double(i); // still falling at the largest l
            r.curve.push_back(p);
        }
        r.selection.index = index;
        r.selection.memberScales.assign(size_t(members), 0.1);
        std::vector<std::string> warnings;
        warnAtGridEdge(r, warnings);
        if (expected.isEmpty()) {
            QVERIFY(warnings.empty());
            return;
        }
        QCOMPARE(int(warnings.size()), 1);
        QVERIFY2(QString::fromStdString(warnings.front()).contains(expected),
                 warnings.front().c_str());
        // It reaches the front ends with the fit's other warnings (tst_degenerate_fits shows
        // that path for each of them).
        QVERIFY(warnings.front().find("--length-scale") != std::string::npos);
    }

    // InternetAds (1555 columns): the anomaly rule's neighbourhood scale, l = 2.1, is one
    // nothing can be fitted at; the adbench run stopped there (exit 2). The rows are now ranked
    // at the density's scale alone, and the fit says so.
    void anAnomalyScaleNothingFitsIsLeftOutAndSaid()
    {
        const Dataset raw = readNpzDataset(adbenchPath("17_InternetAds.npz"));
        FitData data;
        data.train = prepareTraining(raw, ScalingKind::MinMax).x;
        data.source = "InternetAds";
        FitSettings s = FitSettings::defaults("sos-mmd");
        s.values.set("purpose", "anomaly");
        const FitOutcome f = fitModel(data, s);
        checkUsable(*f.model);
        QVERIFY(f.model->logValues(data.train.topRows(50)).values.allFinite());
        bool said = false;
        for (const std::string& w : f.warnings) {
            said = said || w.find("ranked without it") != std::string::npos;
        }
        QVERIFY(said);
    }

    void equalTinyWeightsHaveTheFullSampleSize()
    {
        const Vector w = Vector::Constant(50, 1e-306);
        const WeightSummary s = summarizeWeights(w);
        QCOMPARE(s.ess, 50.0);
        QCOMPARE(s.essFraction, 1.0);
    }
};

QTEST_APPLESS_MAIN(TstFitDiagnostics)
#include "tst_fit_diagnostics.moc"
