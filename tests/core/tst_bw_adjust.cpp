// SPDX-License-Identifier: MIT
// bw_adjust, seaborn's multiplier on the length scale: the fitted l is the chosen one times it,
// whether l was a number, a rule of thumb or tuned (density and the anomaly rule's members),
// the tuning's curve and choice do not move, and a multiplier <= 0 is refused by name.
#include "core/errors.h"
#include "core/estimators/fit_settings.h"
#include "core/pipeline/fit_route.h"
#include "core/tuning/length_scale_rules.h"
#include "core/tuning/rank_ensemble.h"
#include "support/random_arrays.h"

#include <QtTest>

#include <cmath>

using namespace sosrep;

namespace {

FitOutcome fit(const Matrix& x, const std::string& estimator, const std::string& lengthScale,
               const std::string& adjust, const std::string& purpose = "density")
{
    FitSettings s = FitSettings::defaults(estimator);
    s.values.set("length_scale", lengthScale);
    s.values.set("bw_adjust", adjust);
    s.values.set("purpose", purpose);
    s.resolvePurpose("density");
    FitData data;
    data.train = x;
    data.source = "rows";
    FitOutcome f = fitModel(data, s);
    checkUsable(*f.model);
    return f;
}

double maxDifference(const Vector& a, const Vector& b)
{
    return (a - b).cwiseAbs().maxCoeff();
}

} // namespace

class TstBwAdjust : public QObject
{
    Q_OBJECT

private slots:
    void aNumberIsMultiplied()
    {
        const Matrix x = test::normalMatrix(60, 2, 3);
        const Matrix y = test::normalMatrix(30, 2, 4);
        const FitOutcome adjusted = fit(x, "kde", "0.2", "1.5");
        const FitOutcome plain = fit(x, "kde", "0.3", "1");
        QCOMPARE(adjusted.lengthScaleChosen, 0.2);
        QCOMPARE(adjusted.bwAdjust, 1.5);
        QVERIFY(std::abs(adjusted.lengthScale - 0.3) < 1e-15);
        QCOMPARE(plain.bwAdjust, 1.0);
        QVERIFY(maxDifference(adjusted.model->logValues(y).values,
                              plain.model->logValues(y).values) < 1e-12);
    }

    void aRuleOfThumbIsMultiplied()
    {
        const Matrix x = test::normalMatrix(80, 3, 5);
        const FitOutcome f = fit(x, "kde", "scott", "0.5");
        QVERIFY(std::abs(f.lengthScaleChosen - scottBandwidth(x)) < 1e-15);
        QVERIFY(std::abs(f.lengthScale - 0.5 * scottBandwidth(x)) < 1e-15);
        QCOMPARE(f.lengthScaleRule, std::string("scott"));
    }

    void theTunedScaleIsMultipliedAndTheCurveKept()
    {
        const Matrix x = test::normalMatrix(120, 2, 7);
        const Matrix y = test::normalMatrix(30, 2, 8);
        const FitOutcome plain = fit(x, "kde", "auto", "1");
        const FitOutcome wide = fit(x, "kde", "auto", "2");
        QVERIFY(plain.search && wide.search);
        QCOMPARE(wide.search->curve.size(), plain.search->curve.size());
        for (size_t i = 0; i < plain.search->curve.size(); ++i) {
            QCOMPARE(wide.search->curve[i].value, plain.search->curve[i].value);
        }
        QCOMPARE(wide.lengthScaleChosen, plain.lengthScale);
        QVERIFY(std::abs(wide.lengthScale - 2.0 * plain.lengthScale) < 1e-15);
        // The model is a KDE at the multiplied scale, as if that number had been given.
        const FitOutcome given = fit(x, "kde", formatReal(wide.lengthScale), "1");
        QVERIFY(maxDifference(wide.model->logValues(y).values, given.model->logValues(y).values) <
                1e-12);
    }

    void theAnomalyRulesMembersAreMultiplied()
    {
        const Matrix x = test::normalMatrix(150, 2, 9);
        const FitOutcome plain = fit(x, "kde", "auto", "1", "anomaly");
        const FitOutcome narrow = fit(x, "kde", "auto", "0.5", "anomaly");
        const auto* a = dynamic_cast<const RankEnsembleModel*>(plain.model.get());
        const auto* b = dynamic_cast<const RankEnsembleModel*>(narrow.model.get());
        QVERIFY(a && b);
        QCOMPARE(b->members().size(), a->members().size());
        for (size_t i = 0; i < a->members().size(); ++i) {
            QVERIFY(std::abs(b->members()[i].lengthScale - 0.5 * a->members()[i].lengthScale) <
                    1e-15);
        }
        QVERIFY(std::abs(narrow.lengthScale - 0.5 * narrow.lengthScaleChosen) < 1e-15);
        QCOMPARE(narrow.lengthScaleChosen, plain.lengthScale);
    }

    void aMultiplierAtOrBelowZeroIsRefusedByName()
    {
        for (const char* bad : {"0", "-1", "nan", "inf", "wide"}) {
            FitSettings s = FitSettings::defaults("kde");
            try {
                s.values.set("bw_adjust", bad);
                QFAIL(qPrintable(QStringLiteral("accepted bw_adjust = %1").arg(bad)));
            } catch (const ParameterError& e) {
                QCOMPARE(e.parameter(), std::string("bw_adjust"));
            }
        }
    }

    void estimatorsWithoutAKernelDoNotTakeIt()
    {
        QVERIFY(FitSettings::defaults("kde").values.has("bw_adjust"));
        QVERIFY(!FitSettings::defaults("iforest").values.has("bw_adjust"));
    }
};

QTEST_APPLESS_MAIN(TstBwAdjust)
#include "tst_bw_adjust.moc"
