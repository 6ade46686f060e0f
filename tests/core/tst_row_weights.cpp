// SPDX-License-Identifier: MIT
// Row weights (Python's sample_weight) through the fit route: the weighted KDE against brute
// force, weights against repeated rows, equal weights against none, a zero weight against a
// removed row, the rules of thumb against SciPy's formulas, and the refusals.
#include "core/errors.h"
#include "core/estimators/fit_settings.h"
#include "core/pipeline/fit_route.h"
#include "core/tuning/length_scale_rules.h"
#include "support/random_arrays.h"

#include <QtTest>

#include <cmath>
#include <numeric>
#include <random>

using namespace sosrep;

namespace {

FitOutcome fitKde(const Matrix& x, const Vector& w, const std::string& lengthScale = "auto",
                  const std::string& purpose = "density")
{
    FitSettings s = FitSettings::defaults("kde");
    s.values.set("length_scale", lengthScale);
    s.values.set("purpose", purpose);
    s.resolvePurpose("density");
    FitData data;
    data.train = x;
    data.weights = w;
    data.source = "rows";
    FitOutcome f = fitModel(data, s);
    checkUsable(*f.model);
    return f;
}

/// sum_i w_i N(y; x_i, l^2 I) / sum w, written out.
double bruteForce(const Matrix& x, const Vector& w, const Eigen::RowVectorXd& y, double l)
{
    double sum = 0.0;
    for (Eigen::Index i = 0; i < x.rows(); ++i) {
        sum += w(i) * std::exp(-(x.row(i) - y).squaredNorm() / (2 * l * l));
    }
    return std::log(sum / w.sum()) - 0.5 * double(x.cols()) * std::log(2 * M_PI * l * l);
}

} // namespace

class TstRowWeights : public QObject
{
    Q_OBJECT

private slots:
    void weightedKdeMatchesBruteForce()
    {
        const Matrix x = test::normalMatrix(40, 2, 3);
        Vector w(40);
        for (int i = 0; i < 40; ++i) {
            w(i) = 0.1 + (i % 7);
        }
        const FitOutcome f = fitKde(x, w, "0.4");
        const Matrix y = test::normalMatrix(25, 2, 4);
        const Vector got = f.model->logValues(y).values;
        for (Eigen::Index r = 0; r < y.rows(); ++r) {
            QVERIFY(std::abs(got(r) - bruteForce(x, w, y.row(r), 0.4)) < 1e-10);
        }
    }

    void integerWeightsAreRepeatedRows()
    {
        const Matrix x = test::normalMatrix(20, 3, 5);
        Vector w(20);
        std::vector<Eigen::Index> repeated;
        for (int i = 0; i < 20; ++i) {
            w(i) = 1 + i % 3;
            for (int c = 0; c < int(w(i)); ++c) {
                repeated.push_back(i);
            }
        }
        Matrix copies(Eigen::Index(repeated.size()), 3);
        for (size_t k = 0; k < repeated.size(); ++k) {
            copies.row(Eigen::Index(k)) = x.row(repeated[k]);
        }
        const Matrix y = test::normalMatrix(10, 3, 6);
        const Vector a = fitKde(x, w, "0.7").model->logValues(y).values;
        const Vector b = fitKde(copies, Vector(), "0.7").model->logValues(y).values;
        QVERIFY((a - b).cwiseAbs().maxCoeff() < 1e-12);
    }

    void equalWeightsAreNoWeightsBitForBit()
    {
        const Matrix x = test::normalMatrix(120, 2, 7);
        const FitOutcome plain = fitKde(x, Vector());
        const FitOutcome ones = fitKde(x, Vector::Constant(120, 2.5));
        QCOMPARE(ones.lengthScale, plain.lengthScale);
        const Matrix y = test::normalMatrix(30, 2, 9);
        QVERIFY(ones.model->logValues(y).values == plain.model->logValues(y).values);
    }

    // Issue 52: equal weights of 1e306 summed to infinity in the tuning, which then chose
    // l = 1.85 instead of 0.096. Weights are scaled first: any common factor changes nothing,
    // bit for bit, from 1e-300 to 1e306.
    void scaledWeightsAreTheSameWeightsBitForBit()
    {
        const Matrix x = test::normalMatrix(120, 2, 7);
        Vector w(120);
        for (int i = 0; i < 120; ++i) {
            w(i) = 0.5 + (i % 5);
        }
        const Matrix y = test::normalMatrix(30, 2, 9);
        const FitOutcome plain = fitKde(x, Vector());
        const FitOutcome weighted = fitKde(x, w);
        for (const double factor : {1e306, 1e-300, 3.0}) {
            const FitOutcome equal = fitKde(x, Vector::Constant(120, factor));
            QCOMPARE(equal.lengthScale, plain.lengthScale);
            QVERIFY(equal.model->logValues(y).values == plain.model->logValues(y).values);
            const FitOutcome scaled = fitKde(x, Vector(w * factor));
            QCOMPARE(scaled.lengthScale, weighted.lengthScale);
            const Vector a = scaled.model->logValues(y).values;
            const Vector b = weighted.model->logValues(y).values;
            // A power of two is exact; 3 and the powers of ten round each weight once.
            QVERIFY2((a - b).cwiseAbs().maxCoeff() <= 1e-12,
                     qPrintable(QString::number((a - b).cwiseAbs().maxCoeff())));
        }
    }

    void aZeroWeightIsARemovedRowAndOrderDoesNotMatter()
    {
        // Tuned l, both purposes: the rows of weight 0 (far away: they would move l and the
        // anomaly rule's reach) change nothing, nor does shuffling the rows.
        const Matrix x = test::normalMatrix(90, 2, 11);
        Vector w(90);
        for (int i = 0; i < 90; ++i) {
            w(i) = 1.0 + (i % 4);
        }
        Matrix padded(120, 2);
        padded << x, test::normalMatrix(30, 2, 12).array() * 5.0 + 9.0;
        Vector paddedWeights(120);
        paddedWeights << w, Vector::Zero(30);
        std::vector<Eigen::Index> order(120);
        std::iota(order.begin(), order.end(), 0);
        std::shuffle(order.begin(), order.end(), std::mt19937(4));
        Matrix shuffled(120, 2);
        Vector shuffledWeights(120);
        for (Eigen::Index k = 0; k < 120; ++k) {
            shuffled.row(k) = padded.row(order[size_t(k)]);
            shuffledWeights(k) = paddedWeights(order[size_t(k)]);
        }
        const Matrix y = test::normalMatrix(20, 2, 13);
        for (const char* purpose : {"density", "anomaly"}) {
            const FitOutcome a = fitKde(x, w, "auto", purpose);
            const FitOutcome b = fitKde(shuffled, shuffledWeights, "auto", purpose);
            QCOMPARE(b.lengthScale, a.lengthScale);
            QVERIFY(a.model->logValues(y).values == b.model->logValues(y).values);
        }
    }

    void rulesOfThumbTakeWeightedSpreadAndEffectiveSize()
    {
        // SciPy's gaussian_kde(weights=w): unbiased weighted variance with V1 - V2 / V1 and
        // n_eff = V1^2 / V2. x = 0 1 2 3, w = 1 1 2 4: V1 = 8, V2 = 22, mean = 17 / 8,
        // sum w (x - m)^2 = 4.515625 + 1.265625 + 0.03125 + 3.0625 = 8.875, variance
        // 8.875 / (8 - 22 / 8) = 8.875 / 5.25, n_eff = 64 / 22.
        Matrix x(4, 1);
        x << 0, 1, 2, 3;
        Vector w(4);
        w << 1, 1, 2, 4;
        const double s = std::sqrt(8.875 / 5.25);
        const double n = 64.0 / 22.0;
        QVERIFY(std::abs(scottBandwidth(x, w) - s * std::pow(n, -0.2)) < 1e-12);
        QVERIFY(std::abs(silvermanBandwidth(x, w) -
                         s * std::pow(4.0 / 3.0, 0.2) * std::pow(n, -0.2)) < 1e-12);
        QCOMPARE(scottBandwidth(x, Vector::Constant(4, 3.0)), scottBandwidth(x));
        // Through the fit route: the length scale the rule gives.
        QVERIFY(std::abs(fitKde(x, w, "scott").lengthScale - scottBandwidth(x, w)) < 1e-15);
    }

    void badWeightsAndOtherEstimatorsAreRefused()
    {
        const Matrix x = test::normalMatrix(30, 2, 14);
        const auto refusal = [&x](const std::string& estimator, const Vector& w) {
            FitSettings s = FitSettings::defaults(estimator);
            s.values.set("length_scale", "0.5");
            FitData data;
            data.train = x;
            data.weights = w;
            data.source = "rows";
            try {
                fitModel(data, s);
            } catch (const ParameterError& e) {
                return std::string(e.what());
            }
            return std::string();
        };
        Vector w = Vector::Ones(30);
        QVERIFY(refusal("sosrep", w).find("sample_weight") != std::string::npos);
        QVERIFY(refusal("sosrep", w).find("kde") != std::string::npos); // who can
        QVERIFY(refusal("kde", Vector::Ones(29)).find("29 entries for 30 rows") !=
                std::string::npos);
        w(7) = -1.0;
        QVERIFY(refusal("kde", w).find("entry 7") != std::string::npos);
        w(7) = std::nan("");
        QVERIFY(refusal("kde", w).find("entry 7") != std::string::npos);
        QVERIFY(refusal("kde", Vector::Zero(30)).find("is 0 for every row") != std::string::npos);
    }
};

QTEST_APPLESS_MAIN(TstRowWeights)
#include "tst_row_weights.moc"
