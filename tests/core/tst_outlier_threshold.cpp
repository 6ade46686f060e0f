// SPDX-License-Identifier: MIT
// Outlier thresholds from rows the scoring model did not fit (core/pipeline/outlier_threshold):
// the quantile, the contamination's checks, and the cross-fit against a brute-force KDE.
#include "core/data/split.h"
#include "core/errors.h"
#include "core/estimators/common_options.h"
#include "core/estimators/fit_settings.h"
#include "core/estimators/registry.h"
#include "core/pipeline/outlier_threshold.h"
#include "core/tuning/rank_ensemble.h"
#include "support/random_arrays.h"

#include <QtTest>

#include <algorithm>
#include <cmath>
#include <string>

using namespace sosrep;

namespace {

/// The 2-D Gaussian KDE of x's rows `train` at row i, by log-sum-exp.
double bruteForceKde(const Matrix& x, Eigen::Index i, const std::vector<Eigen::Index>& train,
                     double l)
{
    double top = -1e300;
    std::vector<double> e;
    for (Eigen::Index j : train) {
        e.push_back(-(x.row(i) - x.row(j)).squaredNorm() / (2 * l * l));
        top = std::max(top, e.back());
    }
    double sum = 0.0;
    for (double v : e) {
        sum += std::exp(v - top);
    }
    return top + std::log(sum / double(train.size())) - std::log(2.0 * M_PI * l * l);
}

} // namespace

class TstOutlierThreshold : public QObject
{
    Q_OBJECT

private slots:
    void quantileInterpolatesLikeNumPy()
    {
        Vector v(11);
        for (int i = 0; i < 11; ++i) {
            v(i) = double(11 - i); // unsorted on purpose
        }
        QCOMPARE(outlierThreshold(v, 0.1, "m").offset, 2.0);  // h = 1
        QCOMPARE(outlierThreshold(v, 0.25, "m").offset, 3.5); // h = 2.5
        QCOMPARE(outlierThreshold(v, 0.5, "m").offset, 6.0);
        QCOMPARE(outlierThreshold(v, 0.5, "m").heldOutRows, 11);
        // numpy.quantile(x, 0.1) of these 7 values, computed by hand: h = 0.6, 1 + 0.6 * 2.
        Vector w(7);
        w << 5.0, 1.0, 3.0, 9.0, 7.0, 11.0, 13.0;
        QVERIFY(std::abs(outlierThreshold(w, 0.1, "m").offset - 2.2) < 1e-15);
    }

    void weightedQuantile()
    {
        Vector v(7);
        v << 5.0, 1.0, 3.0, 9.0, 7.0, 11.0, 13.0;
        // Equal weights: NumPy's quantile, whatever their size.
        for (double c : {0.05, 0.1, 0.3, 0.5}) {
            const double plain = outlierThreshold(v, c, "m").offset;
            QCOMPARE(outlierThreshold(v, c, "m", Vector::Constant(7, 0.25)).offset, plain);
        }
        // By hand: sorted 1 3 5 7 9 11 13 with weights 1 1 2 1 1 1 3 (W = 10, w_n = 3, span 7):
        // positions (C_k - w_k) / 7 = 0, 1/7, 2/7, 4/7, 5/7, 6/7, 1. c = 0.2 lies between 1/7
        // and 2/7: 3 + (0.2 - 1/7) * 7 * (5 - 3) = 3.8.
        Vector w(7);
        w << 2.0, 1.0, 1.0, 1.0, 1.0, 1.0, 3.0; // in v's order: 5 1 3 9 7 11 13
        QVERIFY(std::abs(outlierThreshold(v, 0.2, "m", w).offset - 3.8) < 1e-12);
        // Scaling every weight by one number changes nothing.
        QVERIFY(std::abs(outlierThreshold(v, 0.2, "m", 0.01 * w).offset - 3.8) < 1e-12);
        // A value of weight 0 is as if it were not there (1 removed: 3 5 7 9 11 13, weights 1
        // 2 1 1 1 3, span 6, positions 0 1/6 3/6 ...: c = 0.2 is 0.1 of the way from 5 to 7).
        Vector zero = w;
        zero(1) = 0.0;
        const OutlierThreshold t = outlierThreshold(v, 0.2, "m", zero);
        QVERIFY(std::abs(t.offset - 5.2) < 1e-12);
        QCOMPARE(t.heldOutRows, 6);
        // Monotone in the contamination.
        double last = -1e300;
        for (double c = 0.01; c <= 0.5; c += 0.01) {
            const double now = outlierThreshold(v, c, "m", w).offset;
            QVERIFY(now >= last);
            last = now;
        }
    }

    void copiesOfARowAreHeldOutTogether()
    {
        // Regression (sample weights, issue 37): a row repeated 3 times got a held-out value
        // from a model that had fitted its copies; copies now share a fold, so each row's
        // held-out value comes from a model without any copy of it.
        Matrix x = test::normalMatrix(30, 2, 8);
        Matrix rows(36, 2);
        rows << x, x.topRows(6);
        FitSettings s = FitSettings::defaults("kde");
        s.values.setReal("length_scale", 0.3);
        FitData data;
        data.train = rows;
        data.source = "rows";
        const FitOutcome fit = fitModel(data, s);
        std::string method;
        const Vector held = heldOutLogValues(data, s, fit, 5, {}, &method);
        for (Eigen::Index i = 0; i < 6; ++i) {
            // The same model for both copies (one fold): equal values. Copies in two folds
            // would each be scored by a model holding the other, and differ.
            QCOMPARE(held(i), held(30 + i));
        }
    }

    void contaminationIsCheckedBeforeAnyFit()
    {
        QCOMPARE(parseContamination("auto"), kAutoContamination);
        QCOMPARE(parseContamination("0.5"), 0.5);
        QCOMPARE(parseContamination("0.05"), 0.05);
        for (const char* bad : {"0", "0.51", "-0.1", "nan", "inf", "x", "0.1x", "", "1"}) {
            try {
                parseContamination(bad);
                QFAIL(qPrintable(QString("'%1' was accepted").arg(bad)));
            } catch (const ParameterError& e) {
                QCOMPARE(e.parameter(), std::string("contamination"));
            }
        }
    }

    void crossFitEqualsABruteForceKde()
    {
        // Each row's held-out value is the KDE of the other folds' rows at it (log-sum-exp of
        // Gaussian kernels, normalized), with the folds the settings' seed makes.
        const Matrix x = test::normalMatrix(60, 2, 5);
        const double l = 0.6;
        FitSettings s = FitSettings::defaults("kde");
        s.values.setReal("length_scale", l);
        FitData data;
        data.train = x;
        data.source = "rows";
        const FitOutcome fit = fitModel(data, s);
        std::string method;
        const Vector held = heldOutLogValues(data, s, fit, 5, {}, &method);
        QCOMPARE(method, std::string("5-fold cross-fit"));
        const auto splits = kFoldSplits(60, 5, s.values.seed("seed"));
        for (const SplitIndices& f : splits) {
            for (Eigen::Index i : f.test) {
                const double want = bruteForceKde(x, i, f.train, l);
                QVERIFY2(std::abs(held(i) - want) < 1e-10,
                         qPrintable(QString("row %1: %2 vs %3").arg(i).arg(held(i)).arg(want)));
            }
        }
        // Held-out rows score lower than they do under the model that fitted them (their own
        // kernel bump): the reason the training rows' values are the wrong reference.
        const Vector own = fit.model->logValues(x).values;
        QVERIFY((own - held).mean() > 0.1);
    }

    void aFitBeyondMaxFitRowsFitsASeededSubsampleAndSaysSo()
    {
        // Issue 53: a fit that needs a subsample takes one itself. The model is the fit of
        // those rows, bit for bit, and its held-out values come from rows it did not fit.
        const Matrix x = test::normalMatrix(500, 2, 3);
        FitSettings s = FitSettings::defaults("kde");
        s.values.setReal("length_scale", 0.5);
        s.values.set("max_fit_rows", "120");
        FitData data;
        data.train = x;
        data.source = "rows";
        const FitOutcome fit = fitModel(data, s);
        QCOMPARE(fit.fitRows, fitSubsample(500, 120, s.values.seed("seed")));
        QCOMPARE(fit.fitRows.size(), size_t(120));
        QVERIFY(std::is_sorted(fit.fitRows.begin(), fit.fitRows.end()));
        QVERIFY(!fit.warnings.empty());
        QVERIFY(fit.warnings.front().find("120 of the 500 training rows") != std::string::npos);
        FitSettings all = s;
        all.values.set("max_fit_rows", "0");
        FitData part = data;
        part.train = rowsOf(x, fit.fitRows);
        const FitOutcome direct = fitModel(part, all);
        QVERIFY(direct.fitRows.empty());
        QVERIFY(fit.model->logValues(x).values == direct.model->logValues(x).values);
        // Held out: the model's values at 120 of the 380 rows it did not fit.
        std::string method;
        const Vector held = heldOutLogValues(data, s, fit, 5, {}, &method);
        QCOMPARE(method, std::string("rows outside the fitted subsample"));
        QCOMPARE(held.size(), Eigen::Index(120));
        std::vector<Eigen::Index> unfitted;
        for (Eigen::Index i = 0; i < 500; ++i) {
            if (!std::binary_search(fit.fitRows.begin(), fit.fitRows.end(), i)) {
                unfitted.push_back(i);
            }
        }
        const Vector outside = fit.model->logValues(rowsOf(x, unfitted)).values;
        for (Eigen::Index i = 0; i < held.size(); ++i) {
            QVERIFY(std::find(outside.begin(), outside.end(), held(i)) != outside.end());
        }
        // At or under the cap nothing changes: every row, no warning.
        s.values.set("max_fit_rows", "500");
        const FitOutcome whole = fitModel(data, s);
        QVERIFY(whole.fitRows.empty() && whole.warnings.empty());
    }

    void aCrossFitsFoldFitsAtMostMaxFitRows()
    {
        // decision_scores_ at any N: each fold's model is what the fit would make of the other
        // folds' rows, at most max_fit_rows of them (a seeded subsample per fold).
        const Matrix x = test::normalMatrix(60, 2, 5);
        const double l = 0.6;
        FitSettings s = FitSettings::defaults("kde");
        s.values.setReal("length_scale", l);
        s.values.set("max_fit_rows", "30"); // the fit and each fold's 48 rows: capped
        FitData data;
        data.train = x;
        data.source = "rows";
        const FitOutcome fit = fitModel(data, s);
        QCOMPARE(fit.fitRows.size(), size_t(30));
        const Vector crossed = crossFittedLogValues(data, s, fit, 5, {});
        const uint64_t seed = s.values.seed("seed");
        const auto splits = kFoldSplits(60, 5, seed);
        for (size_t f = 0; f < splits.size(); ++f) {
            std::vector<Eigen::Index> train;
            for (Eigen::Index c : fitSubsample(48, 30, seed + 3 + f)) {
                train.push_back(splits[f].train[size_t(c)]);
            }
            QCOMPARE(train.size(), size_t(30));
            for (Eigen::Index i : splits[f].test) {
                QVERIFY(std::abs(crossed(i) - bruteForceKde(x, i, train, l)) < 1e-10);
            }
        }
    }

    void theAnomalyRulesEnsembleUsesItsValidationRows()
    {
        const Matrix x = test::normalMatrix(200, 2, 9);
        FitSettings s = FitSettings::defaults("sosrep");
        s.values.set("purpose", "anomaly");
        s.values.set("grid", "6");
        FitData data;
        data.train = x;
        data.source = "rows";
        const FitOutcome fit = fitModel(data, s);
        if (fit.heldOutLogValues.size() == 0) {
            QSKIP("the anomaly rule chose one scale here: no ensemble");
        }
        std::string method;
        const Vector held = heldOutLogValues(data, s, fit, 5, {}, &method);
        QCOMPARE(method, std::string("validation rows"));
        QCOMPARE(held.size(), Eigen::Index(40)); // the 80/20 split's validation rows
    }

    void trainingRowsCrossFitIsTheThresholdsForOneModel()
    {
        // decision_scores_'s values: for one model and no weights, the threshold's cross-fit
        // (checked against a brute-force KDE above), row for row and bit for bit.
        const Matrix x = test::normalMatrix(80, 3, 11);
        FitSettings s = FitSettings::defaults("kde");
        s.values.setReal("length_scale", 0.5);
        FitData data;
        data.train = x;
        data.source = "rows";
        const FitOutcome fit = fitModel(data, s);
        std::string method;
        const Vector held = heldOutLogValues(data, s, fit, 5, {}, &method);
        std::string said;
        const Vector crossed = crossFittedLogValues(data, s, fit, 5, {}, &said);
        QCOMPARE(said, method);
        QVERIFY(crossed == held);
    }

    void weightedTrainingRowsComeBackInTheirOrder()
    {
        // With unequal weights the fit sorts its rows (weightedRowsInOrder); the values come
        // back in the input's order, so shuffling rows and weights together permutes them and
        // changes nothing else. A row of weight 0 is in no fit: the fit's model scores it.
        const Matrix x = test::normalMatrix(50, 2, 4);
        Vector w(50);
        for (Eigen::Index i = 0; i < 50; ++i) {
            w(i) = 1.0 + double(i % 3);
        }
        w(7) = 0.0;
        FitSettings s = FitSettings::defaults("kde");
        s.values.setReal("length_scale", 0.7);
        FitData data;
        data.train = x;
        data.weights = w;
        data.source = "rows";
        const FitOutcome fit = fitModel(data, s);
        const Vector crossed = crossFittedLogValues(data, s, fit, 5, {});
        QCOMPARE(crossed.size(), Eigen::Index(50));
        QCOMPARE(crossed(7), fit.model->logValues(x.row(7)).values(0));
        std::vector<Eigen::Index> perm(50);
        for (Eigen::Index i = 0; i < 50; ++i) {
            perm[size_t(i)] = (i * 17 + 3) % 50; // a bijection: 17 is prime to 50
        }
        FitData shuffled = data;
        shuffled.train = rowsOf(x, perm);
        shuffled.weights = entriesOf(w, perm);
        const FitOutcome fit2 = fitModel(shuffled, s);
        const Vector again = crossFittedLogValues(shuffled, s, fit2, 5, {});
        for (Eigen::Index i = 0; i < 50; ++i) {
            QCOMPARE(again(i), crossed(perm[size_t(i)]));
        }
        // Each value is a held-out one: the KDE without the row's fold, below its own bump.
        const Vector own = fit.model->logValues(x).values;
        QVERIFY((own - crossed).mean() > 0.1);
    }

    void theAnomalyRulesTrainingRowsAreRankedAmongAllHeldOutValues()
    {
        // Under the multi-scale rule each fold refits the members at their length scales on
        // the other folds; each row is then ranked, member by member, among every row's
        // held-out value, and the ranks combined as the ensemble does. Rebuilt from the parts.
        Matrix x = test::normalMatrix(150, 2, 9);
        x.bottomRows(5).array() += 6.0; // a far clump
        FitSettings s = FitSettings::defaults("kde");
        s.values.set("purpose", "anomaly");
        FitData data;
        data.train = x;
        data.source = "rows";
        const FitOutcome fit = fitModel(data, s);
        const auto* ensemble = dynamic_cast<const RankEnsembleModel*>(fit.model.get());
        QVERIFY2(ensemble, "the anomaly rule gives an ensemble on these rows");
        QCOMPARE(ensemble->combination(), Combination::MaxRank);
        const Vector crossed = crossFittedLogValues(data, s, fit, 5, {});
        QCOMPARE(crossed.size(), Eigen::Index(150));
        const Estimator& kde = EstimatorRegistry::instance().get("kde");
        const auto groups = identicalRowGroups(x);
        std::vector<Vector> held(ensemble->members().size(), Vector(150));
        for (const SplitIndices& g : kFoldSplits(150, 5, s.values.seed("seed"))) {
            const SplitIndices f = rowsOfGroups(g, groups);
            const Matrix train = rowsOf(x, f.train);
            const Matrix test = rowsOf(x, f.test);
            for (size_t m = 0; m < held.size(); ++m) {
                KernelSpec k = kernelSpecFrom(s.values);
                k.lengthScale = ensemble->members()[m].lengthScale;
                const Vector v = kde.fit(FitInput{train, nullptr, k, s.values, nullptr}, {})
                                     ->logValues(test)
                                     .values;
                for (size_t i = 0; i < f.test.size(); ++i) {
                    held[m](f.test[i]) = v(Eigen::Index(i));
                }
            }
        }
        // Each row's value is its most anomalous rank, ties spread below half a grid step.
        for (Eigen::Index i = 0; i < 150; ++i) {
            double most = 1.0;
            for (const Vector& v : held) {
                most = std::min(most, midRanks(v)(i));
            }
            QVERIFY(crossed(i) >= most && crossed(i) < most + 0.5 / 150.0);
        }
        // The far clump ranks as the most anomalous rows.
        std::vector<double> sorted(crossed.data(), crossed.data() + 150);
        std::sort(sorted.begin(), sorted.end());
        QVERIFY(crossed.bottomRows(5).maxCoeff() <= sorted[4]);
        // No ties: a quantile flags its share of the rows to within one (PyOD's labels_).
        QCOMPARE(std::adjacent_find(sorted.begin(), sorted.end()), sorted.end());
        for (double c : {0.05, 0.1, 0.25}) {
            const double t = outlierThreshold(crossed, c, "").offset;
            const auto flagged = (crossed.array() < t).count();
            QVERIFY2(std::abs(double(flagged) - c * 150.0) <= 1.0,
                     qPrintable(QString("c = %1: %2 rows").arg(c).arg(flagged)));
        }
    }
};

QTEST_APPLESS_MAIN(TstOutlierThreshold)
#include "tst_outlier_threshold.moc"
