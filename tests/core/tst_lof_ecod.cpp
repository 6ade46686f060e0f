// SPDX-License-Identifier: MIT
// LOF and ECOD against brute-force oracles written from their definitions: every distance
// sorted for LOF (Breunig et al. 2000, as scikit-learn's novelty scoring), every count of an
// empirical distribution for ECOD (Li et al. 2022, Algorithm 1); a row's score alone equals its
// score in a batch; a model read back scores the same.
#include "core/estimators/parameter_map.h"
#include "core/estimators/registry.h"
#include "support/fit_helpers.h"
#include "support/random_arrays.h"

#include <QtTest>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

using namespace sosrep;

namespace {

/// The k nearest rows of `train` to x, by (distance, index), leaving out row `skip`.
std::vector<std::pair<double, Eigen::Index>> bruteNeighbours(const Matrix& train, const Vector& x,
                                                             int k, Eigen::Index skip)
{
    std::vector<std::pair<double, Eigen::Index>> all;
    for (Eigen::Index p = 0; p < train.rows(); ++p) {
        if (p != skip) {
            all.emplace_back((train.row(p).transpose() - x).norm(), p);
        }
    }
    std::sort(all.begin(), all.end());
    all.resize(size_t(k));
    return all;
}

/// -LOF(x) from the definitions: k-distance, reachability distance, local reachability density.
Vector bruteLof(const Matrix& train, const Matrix& query, int k)
{
    const Eigen::Index n = train.rows();
    Vector kDistance(n), lrd(n);
    for (Eigen::Index i = 0; i < n; ++i) {
        kDistance(i) = bruteNeighbours(train, train.row(i).transpose(), k, i).back().first;
    }
    auto density = [&](const std::vector<std::pair<double, Eigen::Index>>& nn) {
        double sum = 0.0;
        for (const auto& [d, o] : nn) {
            sum += std::max(d, kDistance(o));
        }
        return 1.0 / (sum / k + 1e-10);
    };
    for (Eigen::Index i = 0; i < n; ++i) {
        lrd(i) = density(bruteNeighbours(train, train.row(i).transpose(), k, i));
    }
    Vector out(query.rows());
    for (Eigen::Index i = 0; i < query.rows(); ++i) {
        const auto nn = bruteNeighbours(train, query.row(i).transpose(), k, -1);
        double mean = 0.0;
        for (const auto& [d, o] : nn) {
            mean += lrd(o) / k;
        }
        out(i) = -mean / density(nn);
    }
    return out;
}

/// -O(x) of ECOD's Algorithm 1, counting the empirical distributions row by row.
Vector bruteEcod(const Matrix& train, const Matrix& query)
{
    const auto n = double(train.rows());
    Vector out(query.rows());
    for (Eigen::Index i = 0; i < query.rows(); ++i) {
        double left = 0.0, right = 0.0, automatic = 0.0;
        for (Eigen::Index j = 0; j < train.cols(); ++j) {
            const Vector c = train.col(j);
            double below = 1.0, above = 1.0; // x itself
            for (Eigen::Index p = 0; p < c.size(); ++p) {
                below += c(p) <= query(i, j);
                above += c(p) >= query(i, j);
            }
            const double mean = c.mean();
            const double m2 = (c.array() - mean).square().mean();
            const double m3 = (c.array() - mean).cube().mean();
            const double skew = m2 > 0 ? m3 / std::pow(m2, 1.5) : 0.0;
            left += -std::log(below / (n + 1));
            right += -std::log(above / (n + 1));
            automatic += skew < 0 ? -std::log(below / (n + 1)) : -std::log(above / (n + 1));
        }
        out(i) = -std::max({left, right, automatic});
    }
    return out;
}

Matrix queryRows(const Matrix& train, uint64_t seed)
{
    Matrix q(30, train.cols());
    q.topRows(10) = train.topRows(10);                                 // training rows
    q.middleRows(10, 15) = test::normalMatrix(15, train.cols(), seed); // new rows
    // Far outside the cloud: random directions at distance 10.
    const Matrix far = test::normalMatrix(5, train.cols(), seed + 1);
    q.bottomRows(5) = far.rowwise().normalized() * 10.0;
    return q;
}

} // namespace

class TstLofEcod : public QObject
{
    Q_OBJECT

private slots:
    void lof_matchesItsDefinition_data()
    {
        QTest::addColumn<int>("k");
        QTest::addColumn<int>("dim");
        QTest::newRow("k 20, 3 columns") << 20 << 3;
        QTest::newRow("k 1, 2 columns") << 1 << 2;
        QTest::newRow("k 5, 8 columns") << 5 << 8;
    }

    void lof_matchesItsDefinition()
    {
        QFETCH(int, k);
        QFETCH(int, dim);
        const Matrix train = test::normalMatrix(80, dim, 11);
        const Matrix query = queryRows(train, 12);
        const auto model = fitAt("lof", train, 0.0, {{"k", std::to_string(k)}});
        const Vector got = model->logValues(query).values;
        const Vector want = bruteLof(train, query, k);
        QVERIFY2((got - want).cwiseAbs().maxCoeff() < 1e-12 * want.cwiseAbs().maxCoeff(),
                 qPrintable(QString::number((got - want).cwiseAbs().maxCoeff())));
        // Outliers score below the training rows (LOF about 1 inside the cloud).
        QVERIFY(got.bottomRows(5).maxCoeff() < got.topRows(10).minCoeff());
    }

    void lof_kAboveTheRowsIsLoweredAndSaid()
    {
        const Matrix train = test::normalMatrix(12, 2, 3);
        const auto model = fitAt("lof", train, 0.0, {{"k", "50"}});
        QCOMPARE(model->report().warnings.size(), size_t(1));
        QVERIFY(model->report().warnings[0].find("LOF uses k = 11") != std::string::npos);
        const Vector got = model->logValues(train).values;
        QVERIFY((got - bruteLof(train, train, 11)).cwiseAbs().maxCoeff() < 1e-12);
    }

    void ecod_matchesItsDefinition()
    {
        Matrix train = test::normalMatrix(90, 4, 21);
        train.col(1) = train.col(1).array().exp();  // right-skewed
        train.col(2) = -train.col(2).array().exp(); // left-skewed
        train.col(3).setConstant(2.0);              // constant: skewness 0
        train(5, 0) = train(6, 0);                  // a tie
        const Matrix query = queryRows(train, 22);
        const auto model = fitAt("ecod", train, 0.0);
        const Vector got = model->logValues(query).values;
        const Vector want = bruteEcod(train, query);
        QVERIFY2((got - want).cwiseAbs().maxCoeff() < 1e-12,
                 qPrintable(QString::number((got - want).cwiseAbs().maxCoeff())));
    }

    void ecod_beyondEveryTrainingValueIsFinite()
    {
        // One column, n rows: x above them all has right tail 1 / (n + 1) and left tail 1.
        const Matrix train = test::normalMatrix(50, 1, 4);
        Matrix x(1, 1);
        x(0, 0) = 1e6;
        const auto model = fitAt("ecod", train, 0.0);
        QCOMPARE(model->logValues(x).values(0), -std::log(51.0));
    }

    void aRowScoresTheSameAloneAndReadBack_data()
    {
        QTest::addColumn<QString>("name");
        QTest::newRow("lof") << "lof";
        QTest::newRow("ecod") << "ecod";
    }

    void aRowScoresTheSameAloneAndReadBack()
    {
        QFETCH(QString, name);
        const Matrix train = test::normalMatrix(300, 3, 31);
        const Matrix query = test::normalMatrix(700, 3, 32) * 1.5;
        const auto model = fitAt(name.toStdString(), train, 0.0);
        const Vector batch = model->logValues(query).values;
        for (Eigen::Index i = 0; i < query.rows(); i += 37) {
            const double alone = model->logValues(query.row(i)).values(0);
            QCOMPARE(std::memcmp(&alone, &batch(i), sizeof alone), 0);
        }
        ParameterMap saved;
        model->save(saved);
        const Estimator& e = EstimatorRegistry::instance().get(name.toStdString());
        const Vector again = e.load(saved, nullptr)->logValues(query).values;
        QCOMPARE(std::memcmp(again.data(), batch.data(), sizeof(double) * batch.size()), 0);
    }
};

QTEST_GUILESS_MAIN(TstLofEcod)
#include "tst_lof_ecod.moc"
