// SPDX-License-Identifier: MIT
// The comparison detectors: Isolation Forest and the k-nearest-neighbour distance.
#include "core/errors.h"
#include "core/estimators/detectors/isolation_forest.h"
#include "core/estimators/parameter_map.h"
#include "core/numerics/nearest_neighbours.h"
#include "core/random.h"
#include "support/fit_helpers.h"
#include "support/random_arrays.h"

#include <QtTest>

#include <algorithm>
#include <cmath>
#include <vector>

using namespace sosrep;

namespace {

Matrix gaussianRows(Eigen::Index n, Eigen::Index d, uint64_t seed)
{
    return test::normalMatrix(n, d, seed);
}

/// c(n) straight from the paper's Eq. 1 with the harmonic number summed exactly.
double exactAveragePathLength(int n)
{
    double h = 0.0;
    for (int i = 1; i <= n - 1; ++i) {
        h += 1.0 / i;
    }
    return 2.0 * h - 2.0 * (n - 1.0) / n;
}

} // namespace

class TstDetectors : public QObject
{
    Q_OBJECT

private slots:
    void averagePathLengthFormula()
    {
        QCOMPARE(averagePathLength(0), 0.0);
        QCOMPARE(averagePathLength(1), 0.0);
        QCOMPARE(averagePathLength(2), 1.0);
        // 2 (ln 255 + gamma) - 2 * 255/256, evaluated separately in double precision.
        QVERIFY(std::abs(averagePathLength(256) - 10.244770920119917) < 1e-12);
        // H(i) ~ ln i + gamma + 1/(2i): the approximation's error is 1/(n-1) in c(n).
        for (int n : {3, 10, 100, 256, 10000}) {
            const double diff = averagePathLength(n) - exactAveragePathLength(n);
            QVERIFY2(std::abs(diff - (-1.0 / (n - 1))) < 1.0 / (n - 1) / (n - 1) + 1e-12,
                     qPrintable(QString("n = %1: diff %2").arg(n).arg(diff)));
        }
    }

    void identicalRowsScoreOneHalf()
    {
        // Nothing can be split: every tree is one leaf of psi rows, so h = c(psi), s = 1/2.
        const Matrix x = Matrix::Constant(300, 3, 0.25);
        const IsolationForest forest(x, 20, 256, 7);
        QCOMPARE(forest.nodes().size(), size_t(20));
        const Vector s = forest.anomalyScores(x.topRows(5));
        for (Eigen::Index i = 0; i < s.size(); ++i) {
            QVERIFY(std::abs(s(i) - 0.5) < 1e-15);
        }
    }

    void treesRespectDepthLimitAndSizes()
    {
        const Matrix x = gaussianRows(1000, 4, 3);
        const IsolationForest forest(x, 10, 256, 11);
        const int limit = 8; // ceil(log2 256)
        for (int t = 0; t < forest.trees(); ++t) {
            const auto* base = forest.nodes().data() + forest.offsets()[size_t(t)];
            QCOMPARE(base[0].size, 256);
            // Walk the tree: children's sizes add up to the parent's, depth <= limit.
            std::vector<std::pair<int, int>> stack{{0, 0}};
            while (!stack.empty()) {
                const auto [k, depth] = stack.back();
                stack.pop_back();
                QVERIFY(depth <= limit);
                if (base[k].feature >= 0) {
                    QCOMPARE(base[base[k].left].size + base[base[k].right].size, base[k].size);
                    QVERIFY(base[base[k].left].size > 0 && base[base[k].right].size > 0);
                    stack.push_back({base[k].left, depth + 1});
                    stack.push_back({base[k].right, depth + 1});
                }
            }
        }
    }

    void isolatedPointScoresHigh()
    {
        Matrix x = gaussianRows(500, 2, 5);
        x.row(0) << 8.0, -8.0;
        const auto model = fitAt("iforest", x, 0.0, {{"seed", "3"}});
        const Vector s = -model->logValues(x).values;
        QVERIFY2(s(0) > 0.7, qPrintable(QString::number(s(0))));
        const double medianInlier = [&] {
            std::vector<double> v(s.data() + 1, s.data() + s.size());
            std::nth_element(v.begin(), v.begin() + long(v.size() / 2), v.end());
            return v[v.size() / 2];
        }();
        QVERIFY(medianInlier < 0.5);
    }

    void iforestDeterministicPerSeedAndRoundTrips()
    {
        const Matrix x = gaussianRows(400, 3, 9);
        const auto a = fitAt("iforest", x, 0.0, {{"seed", "21"}});
        const auto b = fitAt("iforest", x, 0.0, {{"seed", "21"}});
        const auto c = fitAt("iforest", x, 0.0, {{"seed", "22"}});
        const Vector va = a->logValues(x).values;
        QVERIFY(va == b->logValues(x).values);
        QVERIFY((va - c->logValues(x).values).norm() > 1e-3);
        ParameterMap saved;
        a->save(saved);
        const auto loaded = EstimatorRegistry::instance().get("iforest").load(saved, nullptr);
        QVERIFY(loaded->logValues(x).values == va);
        // A node pointing outside its tree is refused, not followed.
        Matrix nodes = saved.matrix("nodes");
        nodes(0, 2) = 1e6;
        saved.set("nodes", nodes);
        QVERIFY_THROWS_EXCEPTION(ParameterError,
                                 EstimatorRegistry::instance().get("iforest").load(saved, nullptr));
    }

    void knnAgainstBruteForce()
    {
        const Matrix ref = gaussianRows(700, 5, 1);
        Matrix query = gaussianRows(530, 5, 2); // three blocks, the last partial
        query.row(7) = ref.row(3);              // an exact copy: its 1st neighbour is at 0
        for (int k : {1, 5, 17}) {
            const Vector got = kthNeighbourDistances(ref, query, k);
            for (Eigen::Index i = 0; i < query.rows(); ++i) {
                std::vector<double> d;
                for (Eigen::Index j = 0; j < ref.rows(); ++j) {
                    d.push_back((query.row(i) - ref.row(j)).norm());
                }
                std::sort(d.begin(), d.end());
                QVERIFY2(std::abs(got(i) - d[size_t(k - 1)]) <= 1e-14 * (1 + d[size_t(k - 1)]),
                         qPrintable(QString("k %1 row %2").arg(k).arg(i)));
            }
        }
        QCOMPARE(kthNeighbourDistances(ref, query, 1)(7), 0.0);
    }

    void knnEstimatorScoresAndRoundTrips()
    {
        const Matrix x = gaussianRows(300, 2, 4);
        const auto model = fitAt("knn", x, 0.0);
        const Vector v = model->logValues(x).values;
        QVERIFY(v == -kthNeighbourDistances(x, x, 5)); // k = 5 by default
        QVERIFY(v == fitAt("knn", x, 0.0)->logValues(x).values);
        ParameterMap saved;
        model->save(saved);
        QVERIFY(
            EstimatorRegistry::instance().get("knn").load(saved, nullptr)->logValues(x).values ==
            v);
        QVERIFY_THROWS_EXCEPTION(ParameterError, fitAt("knn", x.topRows(3), 0.0));
    }
};

QTEST_APPLESS_MAIN(TstDetectors)
#include "tst_detectors.moc"
