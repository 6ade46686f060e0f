// SPDX-License-Identifier: MIT
// Tests of splits, scalers, toy data and training preparation.
#include "core/data/preparation.h"
#include "core/data/scaler.h"
#include "core/data/split.h"
#include "core/data/toy_data.h"
#include "core/errors.h"
#include "core/estimators/common_options.h"
#include "core/estimators/fit_settings.h"

#include <QtTest>

using namespace sosrep;

namespace {

/// An affine scaler's shift and scale, column by column, exactly (closed forms).
void compareAffine(const Scaler& s, const std::vector<double>& shifts,
                   const std::vector<double>& scales)
{
    QCOMPARE(s.shift.size(), Eigen::Index(shifts.size()));
    for (size_t j = 0; j < shifts.size(); ++j) {
        QCOMPARE(s.shift(Eigen::Index(j)), shifts[j]);
        QCOMPARE(s.scale(Eigen::Index(j)), scales[j]);
    }
}

} // namespace

class TstDataPrep : public QObject
{
    Q_OBJECT

private slots:
    void scaler_fittedOnTrainAppliedUnchanged()
    {
        Matrix train(3, 2);
        train << 0, 10, 5, 10, 10, 10; // second column constant
        Matrix test(1, 2);
        test << 20, 11;
        const Scaler mm = Scaler::fit(ScalingKind::MinMax, train);
        const Matrix t = mm.apply(test);
        QCOMPARE(t(0, 0), 2.0); // (20 - 0) / 10: test data may leave [0, 1]
        QCOMPARE(t(0, 1), 1.0); // constant column: scale 1, shift 10
        const Scaler z = Scaler::fit(ScalingKind::ZScore, train);
        QCOMPARE(z.apply(train).col(0).mean(), 0.0);
        QCOMPARE(z.scale(0), 5.0); // sample standard deviation of 0, 5, 10
        QVERIFY_THROWS_EXCEPTION(ParameterError, scalingKindFromString("quartile"));
    }

    // Constant columns: one warning that counts and names them (mnist has 22; 22 lines buried
    // every other warning), the single-column wording kept.
    void prepareTraining_groupsConstantColumns()
    {
        Dataset one;
        one.x = Matrix(3, 2);
        one.x << 0, 7, 1, 7, 2, 7;
        one.columns = {"a", "k"};
        const PreparedTraining p1 = prepareTraining(one, ScalingKind::MinMax);
        QCOMPARE(p1.warnings.size(), size_t(1));
        QVERIFY(p1.warnings[0].find("column 'k' is constant (7)") == 0);

        Dataset many;
        many.x = Matrix::Zero(4, 11);
        many.x.col(3) << 1, 2, 3, 4;
        for (int j = 0; j < 11; ++j) {
            many.columns.push_back("c" + std::to_string(j));
        }
        const PreparedTraining p2 = prepareTraining(many, ScalingKind::None);
        QCOMPARE(p2.warnings.size(), size_t(1));
        const QString w = QString::fromStdString(p2.warnings[0]);
        QVERIFY2(w.startsWith(QStringLiteral("10 columns are constant")), qPrintable(w));
        QVERIFY(w.contains(QStringLiteral("'c0' (0), 'c1' (0), 'c2' (0), 'c4' (0)")));
        QVERIFY(!w.contains(QStringLiteral("'c3'")));
        QVERIFY(w.endsWith(QStringLiteral("'c8' (0) and 2 more")));
        QVERIFY(!w.contains(QStringLiteral("scaled to 0"))); // no scaling asked for
    }

    // Robust scaling: median to 0 and interquartile range to 1 (NumPy's linear quantiles), so
    // one extreme value does not squeeze the rest of its column as min-max does.
    void robustScaler_medianAndInterquartileRange()
    {
        Matrix x(9, 3);
        for (int i = 0; i < 9; ++i) {
            x(i, 0) = i;                  // 0..8: median 4, quartiles 2 and 6
            x(i, 1) = i == 8 ? 1e6 : i;   // one extreme value: the same median and IQR
            x(i, 2) = i == 0 ? 1.0 : 0.0; // middle half one value: no IQR, the range scales
        }
        const Scaler s = Scaler::fit(ScalingKind::Robust, x);
        compareAffine(s, {4.0, 4.0, 0.0}, {4.0, 4.0, 1.0});
        if (QTest::currentTestFailed()) {
            return;
        }
        const Matrix y = s.apply(x);
        QCOMPARE(y(2, 1), -0.5); // unsqueezed beside the extreme value
        const Scaler minmax = Scaler::fit(ScalingKind::MinMax, x);
        QVERIFY(minmax.apply(x)(2, 1) < 1e-5); // min-max squeezes it to ~0
        QCOMPARE(toString(ScalingKind::Robust), std::string("robust"));
        QVERIFY(scalingKindFromString("robust") == ScalingKind::Robust);
    }

    // Quantile scaling: median to 0 and the central 80 % range (q90 - q10, NumPy's linear
    // quantiles) to 1. One extreme value leaves the bulk alone (as robust); a column whose
    // middle half is one value but whose outer fifth is not keeps a spread from it, where
    // robust falls back to the range.
    void quantileScaler_medianAndCentral80PercentRange()
    {
        Matrix x(11, 3);
        for (int i = 0; i < 11; ++i) {
            x(i, 0) = i;                                 // 0..10: median 5, q10 1, q90 9
            x(i, 1) = i == 10 ? 1e6 : i;                 // q90 = 9 + 0 * (1e6 - 9): unchanged
            x(i, 2) = i >= 9 ? 3.0 : i == 8 ? 1.0 : 0.0; // IQR 0.5 (robust), q10..q90 0..3
        }
        const Scaler s = Scaler::fit(ScalingKind::Quantile, x);
        compareAffine(s, {5.0, 5.0, 0.0}, {8.0, 8.0, 3.0});
        if (QTest::currentTestFailed()) {
            return;
        }
        QCOMPARE(Scaler::fit(ScalingKind::Robust, x).scale(2), 0.5);
        QCOMPARE(s.apply(x)(3, 1), -0.25); // unsqueezed beside the extreme value
        Matrix flag = Matrix::Zero(11, 1);
        flag(0, 0) = 2.0; // 10 of 11 rows one value: no central spread, the range scales it
        QCOMPARE(Scaler::fit(ScalingKind::Quantile, flag).scale(0), 2.0);
        QVERIFY(s.isAffine());
        QCOMPARE(toString(ScalingKind::Quantile), std::string("quantile"));
        QVERIFY(scalingKindFromString("quantile") == ScalingKind::Quantile);
    }

    // A column whose central spread is tiny beside its range spans ~1e9 units under robust and
    // quantile scaling: one warning naming it (20news under quantile failed naming the length
    // scale instead); min-max bounds every column, so it says nothing.
    void prepareTraining_warnsOfColumnsTheSpreadBlowsUp()
    {
        Dataset raw;
        raw.source = "wide.csv";
        raw.columns = {"even", "spiky"};
        raw.x.resize(100, 2);
        for (int i = 0; i < 100; ++i) {
            raw.x(i, 0) = i;
            raw.x(i, 1) = i < 45 ? 0.0 : i < 95 ? 1e-9 : 1.0; // q10..q90 and IQR: 0..1e-9
        }
        for (ScalingKind kind : {ScalingKind::Robust, ScalingKind::Quantile}) {
            const PreparedTraining p = prepareTraining(raw, kind);
            QCOMPARE(p.warnings.size(), size_t(1));
            const std::string& w = p.warnings.front();
            QVERIFY2(w.find("1 column spans more than 1e+06 " + toString(kind) +
                            "-scaled units ('spiky' spans 1e+09 units)") == 0,
                     w.c_str());
            QVERIFY(w.find("'even'") == std::string::npos);
        }
        QVERIFY(prepareTraining(raw, ScalingKind::MinMax).warnings.empty());
    }

    // Rank scaling: each distinct value at its mid-rank, linear between them, min-max's slope
    // beyond the training range (a value far out stays far out), and an inverse and a
    // log-derivative that agree with the map.
    // scale=auto: rank when the median column is a spike plus a sparse tail (its most frequent
    // value holds half the rows or more), min-max otherwise; resolved in the fitted scaler.
    void autoScaler_rankForSpikeColumnsMinMaxOtherwise()
    {
        Matrix x(10, 3);
        for (int i = 0; i < 10; ++i) {
            x(i, 0) = i < 5 ? 0.0 : i;     // 5 of 10 at 0: share 0.5
            x(i, 1) = i < 6 ? 0.0 : i * i; // share 0.6
            x(i, 2) = 0.1 * i;             // continuous: share 0.1
        }
        QCOMPARE(toString(autoScalingOf(x)), std::string("rank")); // the median share is 0.5
        QCOMPARE(toString(Scaler::fit(ScalingKind::Auto, x).kind), std::string("rank"));
        x(4, 0) = 0.5; // 4 of 10 at 0: the median share is 0.4
        QCOMPARE(toString(autoScalingOf(x)), std::string("minmax"));
        const Scaler s = Scaler::fit(ScalingKind::Auto, x);
        QCOMPARE(toString(s.kind), std::string("minmax"));
        QVERIFY(s.apply(x).isApprox(Scaler::fit(ScalingKind::MinMax, x).apply(x)));
        QVERIFY(scalingKindFromString("auto") == ScalingKind::Auto);
        QCOMPARE(toString(ScalingKind::Auto), std::string("auto"));
    }

    // The option scale=auto is the purpose's: the shape rule above for anomaly ranking, min-max
    // for the density (the library's and fit's purpose) and for estimators without a purpose.
    void scaleOption_autoIsThePurposes()
    {
        FitSettings s = FitSettings::defaults("sosrep");
        QCOMPARE(s.values.text("scale"), std::string("auto")); // the default
        QVERIFY(scalingOf(s.values) == ScalingKind::MinMax);   // purpose auto: the density's
        s.resolvePurpose("anomaly");
        QVERIFY(scalingOf(s.values) == ScalingKind::Auto);
        s.values.set("purpose", "density");
        QVERIFY(scalingOf(s.values) == ScalingKind::MinMax);
        s.values.set("scale", "zscore"); // a named scaling serves both purposes
        QVERIFY(scalingOf(s.values) == ScalingKind::ZScore);
        s.values.set("purpose", "anomaly");
        QVERIFY(scalingOf(s.values) == ScalingKind::ZScore);
        for (const char* name : {"iforest", "knn", "lof", "ecod", "fire"}) {
            const FitSettings d = FitSettings::defaults(name);
            QVERIFY2(!d.values.has("purpose"), name);
            QVERIFY2(scalingOf(d.values) == ScalingKind::MinMax, name);
        }
        Matrix x(4, 1);
        x << 0, 0, 0, 5;
        QVERIFY(resolvedScaling(ScalingKind::Auto, x) == ScalingKind::Rank);
        QVERIFY(resolvedScaling(ScalingKind::Robust, x) == ScalingKind::Robust);
    }

    void rankScaler_midRanksAndMinMaxSlopeBeyond()
    {
        Matrix x(5, 2);
        x.col(0) << 3.0, 1.0, 2.0, 2.0, 10.0; // a tie: 2.0 holds sorted positions 1 and 2
        x.col(1) << 7.0, 7.0, 7.0, 7.0, 7.0;  // constant
        const Scaler s = Scaler::fit(ScalingKind::Rank, x);
        QCOMPARE(toString(ScalingKind::Rank), std::string("rank"));
        QVERIFY(scalingKindFromString("rank") == ScalingKind::Rank);
        QVERIFY(!s.isAffine());
        QCOMPARE(s.knotX[0].size(), Eigen::Index(4));
        const Matrix y = s.apply(x);
        QCOMPARE(y(1, 0), 0.0);   // the smallest
        QCOMPARE(y(2, 0), 0.375); // mid-rank of positions 1 and 2 over 4 steps
        QCOMPARE(y(0, 0), 0.75);
        QCOMPARE(y(4, 0), 1.0);
        QCOMPARE(y(0, 1), 0.5);                          // a constant column sits in the middle
        QCOMPARE(s.toScaled(0, 6.5), 0.875);             // halfway between 3 and 10
        QCOMPARE(s.toScaled(0, 28.0), 1.0 + 18.0 / 9.0); // beyond: range 9, slope 1/9
        QCOMPARE(s.toScaled(0, -8.0), -1.0);
        for (double v : {-8.0, 1.0, 1.7, 2.0, 2.5, 6.5, 10.0, 28.0}) {
            QVERIFY(std::abs(s.toData(0, s.toScaled(0, v)) - v) < 1e-12);
            // The derivative against a central difference inside a piece.
            const double h = 1e-6;
            const double slope = (s.toScaled(0, v + h) - s.toScaled(0, v - h)) / (2 * h);
            if (v != 1.0 && v != 2.0 && v != 10.0) { // knots: the slope jumps there
                QVERIFY2(std::abs(std::log(slope) - s.logDerivative(0, s.toScaled(0, v))) < 1e-6,
                         qPrintable(QString::number(v)));
            }
        }
        QCOMPARE(s.logDerivative(1, 0.5), 0.0); // constant column: slope 1
        const Vector rows = s.logDerivativeRows(y);
        QCOMPARE(rows(4), std::log(0.25 / 7.0)); // 10 closes the piece from 3
        QCOMPARE(s.logJacobian(), 0.0);

        // Beyond kMaxKnots distinct values, that many quantiles; new rows map monotonically.
        Matrix many(5000, 1);
        for (int i = 0; i < 5000; ++i) {
            many(i, 0) = std::exp(0.001 * i); // skewed
        }
        const Scaler q = Scaler::fit(ScalingKind::Rank, many);
        QCOMPARE(q.knotX[0].size(), Eigen::Index(Scaler::kMaxKnots));
        const Matrix u = q.apply(many);
        QCOMPARE(u(0, 0), 0.0);
        QCOMPARE(u(4999, 0), 1.0);
        QVERIFY(std::abs(u(2500, 0) - 0.5) < 1e-3);
        for (int i = 1; i < 5000; ++i) {
            QVERIFY(u(i, 0) > u(i - 1, 0));
        }
    }

    void identicalRows_stayOnOneSideOfAGroupSplit()
    {
        Matrix x(7, 2);
        x << 1, 2, 3, 4, 1, 2, 0.0, 6, 3, 4, 1, 2, -0.0, 6; // +0 and -0 are one value
        const auto groups = identicalRowGroups(x);
        QCOMPARE(int(groups.size()), 3);
        QCOMPARE(groups[0], (std::vector<Eigen::Index>{0, 2, 5}));
        QCOMPARE(groups[1], (std::vector<Eigen::Index>{1, 4}));
        QCOMPARE(groups[2], (std::vector<Eigen::Index>{3, 6}));
        for (uint64_t seed = 0; seed < 20; ++seed) {
            const SplitIndices s = rowsOfGroups(trainTestSplit(3, 0.5, seed), groups);
            QCOMPARE(int(s.train.size() + s.test.size()), 7);
            for (const auto& g : groups) {
                const bool inTest =
                    std::find(s.test.begin(), s.test.end(), g.front()) != s.test.end();
                for (Eigen::Index r : g) {
                    QCOMPARE(std::find(s.test.begin(), s.test.end(), r) != s.test.end(), inTest);
                }
            }
        }
    }

    void split_stratifiedKeepsProportions()
    {
        Eigen::VectorXi y = Eigen::VectorXi::Zero(1000);
        y.head(100).setOnes();
        const SplitIndices s = trainTestSplit(1000, 0.3, 42, y, true);
        QCOMPARE(int(s.test.size()), 300);
        QCOMPARE(int(s.train.size()), 700);
        int testAnomalies = 0;
        for (auto i : s.test) {
            testAnomalies += y(i);
        }
        QCOMPARE(testAnomalies, 30);
        // Same seed, same split; another seed, another split.
        QCOMPARE(trainTestSplit(1000, 0.3, 42, y, true).test, s.test);
        QVERIFY(trainTestSplit(1000, 0.3, 43, y, true).test != s.test);
    }

    void subsample_withoutReplacement()
    {
        const auto rows = subsampleRows(50000, 10000, 7);
        QCOMPARE(int(rows.size()), 10000);
        QVERIFY(std::adjacent_find(rows.begin(), rows.end()) == rows.end()); // sorted, unique
        QCOMPARE(int(subsampleRows(10, 100, 7).size()), 10);
    }

    void duplicatedAnomalies_countsAsADBench()
    {
        Eigen::VectorXi labels = Eigen::VectorXi::Zero(100);
        labels.head(7).setOnes();
        for (double factor : {2.0, 3.0, 4.5, 6.0}) {
            const auto rows = duplicatedAnomalyRows(labels, factor, 9);
            const size_t draws = size_t(std::floor(7 * factor));
            QCOMPARE(rows.size(), 93 + draws);
            std::vector<int> seen(100, 0);
            for (Eigen::Index r : rows) {
                QVERIFY(r >= 0 && r < 100);
                ++seen[size_t(r)];
            }
            for (int i = 7; i < 100; ++i) {
                QCOMPARE(seen[size_t(i)], 1); // every normal row once
            }
            int anomalies = 0;
            for (int i = 0; i < 7; ++i) {
                anomalies += seen[size_t(i)];
            }
            QCOMPARE(size_t(anomalies), draws);
            QVERIFY(rows == duplicatedAnomalyRows(labels, factor, 9));
            QVERIFY(rows != duplicatedAnomalyRows(labels, factor, 10));
        }
        const auto same = duplicatedAnomalyRows(labels, 1.0, 9);
        QCOMPARE(same.size(), size_t(100));
        QCOMPARE(same[42], Eigen::Index(42));
    }

    void toyData_seededAndLabelled_data()
    {
        QTest::addColumn<QString>("kind");
        for (const char* k : {"gmm", "moons", "rings", "square", "cosine", "blocks"}) {
            QTest::newRow(k) << QString::fromLatin1(k);
        }
    }

    void toyData_seededAndLabelled()
    {
        QFETCH(QString, kind);
        ToyConfig c;
        c.kind = toyKindFromString(kind.toStdString());
        c.n = 400;
        c.seed = 5;
        c.anomalyFraction = 0.1;
        const Dataset a = generateToyData(c);
        QCOMPARE(a.rows(), Eigen::Index(400));
        QCOMPARE(a.labels->sum(), 40);
        QVERIFY(a.x.isApprox(generateToyData(c).x));
        c.seed = 6;
        QVERIFY(!a.x.isApprox(generateToyData(c).x));
        QCOMPARE(QString::fromStdString(toString(c.kind)), kind);
    }

    void toyData_rejectsBadParameters()
    {
        ToyConfig c;
        c.n = 0;
        QVERIFY_THROWS_EXCEPTION(ParameterError, generateToyData(c));
        QVERIFY_THROWS_EXCEPTION(ParameterError, toyKindFromString("spiral"));
    }
};

QTEST_APPLESS_MAIN(TstDataPrep)
#include "tst_data_prep.moc"
