// SPDX-License-Identifier: MIT
// Tests of KDE against brute force and closed-form integrals.
#include "core/estimators/kde/kde_estimator.h"
#include "core/estimators/kernel_field_model.h"
#include "core/tuning/length_scale_rules.h"

#include <QtTest>

#include <cmath>

using namespace sosrep;

namespace {

/// Brute-force KDE oracle written straight from design.md section 3.
double bruteForceKde(const Matrix& x, const Eigen::RowVectorXd& y, KernelType type, double l)
{
    const int d = int(x.cols());
    double sum = 0.0;
    for (Eigen::Index i = 0; i < x.rows(); ++i) {
        const double r = (x.row(i) - y).norm();
        sum += type == KernelType::Gaussian ? std::exp(-r * r / (2 * l * l)) : std::exp(-r / l);
    }
    const double z =
        type == KernelType::Gaussian
            ? std::pow(2 * M_PI * l * l, d / 2.0)
            : std::pow(l, d) * std::tgamma(d) * 2 * std::pow(M_PI, d / 2.0) / std::tgamma(d / 2.0);
    return sum / double(x.rows()) / z;
}

std::unique_ptr<KernelFieldModel> kde(const Matrix& x, KernelType type, double l)
{
    KernelSpec spec;
    spec.type = type;
    spec.lengthScale = l;
    return makeKdeModel(std::make_shared<const KernelOperator>(x, spec));
}

} // namespace

class TstKde : public QObject
{
    Q_OBJECT

private slots:
    void logDensity_matchesBruteForce_data()
    {
        QTest::addColumn<int>("type");
        QTest::addColumn<int>("dim");
        QTest::addColumn<double>("l");
        QTest::newRow("gauss d1") << int(KernelType::Gaussian) << 1 << 0.3;
        QTest::newRow("gauss d3") << int(KernelType::Gaussian) << 3 << 0.8;
        QTest::newRow("laplace d2") << int(KernelType::Laplace) << 2 << 0.5;
        QTest::newRow("laplace d5") << int(KernelType::Laplace) << 5 << 1.2;
    }

    void logDensity_matchesBruteForce()
    {
        QFETCH(int, type);
        QFETCH(int, dim);
        QFETCH(double, l);
        std::srand(2);
        const Matrix x = Matrix::Random(150, dim);
        const Matrix y = Matrix::Random(30, dim) * 1.3;
        const LogDensity ld = kde(x, KernelType(type), l)->logValues(y);
        QCOMPARE(ld.floored, 0);
        for (Eigen::Index i = 0; i < y.rows(); ++i) {
            const double ref = std::log(bruteForceKde(x, y.row(i), KernelType(type), l));
            QVERIFY2(std::abs(ld.values(i) - ref) < 1e-10,
                     qPrintable(QString::number(ld.values(i) - ref)));
        }
    }

    void logDensity_noUnderflowInHighDimension()
    {
        // d = 100 and a small bandwidth: every kernel value underflows in double, the log-sum-exp
        // evaluation still returns the exact log density.
        std::srand(3);
        const Matrix x = Matrix::Random(20, 100);
        Matrix y = x.topRows(1);
        y(0, 0) += 2.0;
        const double l = 0.05;
        const LogDensity ld = kde(x, KernelType::Gaussian, l)->logValues(y);
        QCOMPARE(ld.floored, 0);
        QVERIFY(std::isfinite(ld.values(0)));
        // Dominant term: the nearest point at distance 2 (the others are much farther).
        const double expected =
            -4.0 / (2 * l * l) - std::log(20.0) - 50.0 * std::log(2 * M_PI * l * l);
        QVERIFY2(std::abs(ld.values(0) - expected) < 1e-6,
                 qPrintable(QString::number(ld.values(0) - expected)));
    }

    void gridIntegral_isOne_data()
    {
        QTest::addColumn<int>("type");
        QTest::newRow("gaussian") << int(KernelType::Gaussian);
        QTest::newRow("laplace") << int(KernelType::Laplace);
    }

    void gridIntegral_isOne()
    {
        QFETCH(int, type);
        std::srand(4);
        const Matrix x = Matrix::Random(60, 2) * 0.5;
        const double l = 0.25;
        // Midpoint rule on a 500 x 500 grid over [-6, 6]^2 (tails beyond are < 1e-6 of the mass).
        const int g = 500;
        const double lo = -6.0;
        const double step = 12.0 / g;
        Matrix pts(g * g, 2);
        for (int i = 0; i < g; ++i) {
            for (int j = 0; j < g; ++j) {
                pts(i * g + j, 0) = lo + (i + 0.5) * step;
                pts(i * g + j, 1) = lo + (j + 0.5) * step;
            }
        }
        const LogDensity ld = kde(x, KernelType(type), l)->logValues(pts);
        const double mass = ld.values.array().exp().sum() * step * step;
        QVERIFY2(std::abs(mass - 1.0) < 1e-3, qPrintable(QString::number(mass, 'g', 10)));
    }

    void bandwidthRules_statedFormulas()
    {
        Matrix x(4, 1);
        x << 0, 1, 2, 3; // sample standard deviation sqrt(5/3)
        const double s = std::sqrt(5.0 / 3.0);
        QVERIFY(std::abs(scottBandwidth(x) - s * std::pow(4.0, -0.2)) < 1e-12);
        QVERIFY(std::abs(silvermanBandwidth(x) -
                         s * std::pow(4.0 / 3.0, 0.2) * std::pow(4.0, -0.2)) < 1e-12);
        QCOMPARE(medianPairwiseDistance(x), 2.0); // distances 1,1,1,2,2,3: the upper median
        QCOMPARE(medianNearestNeighbourDistance(x), 1.0);
    }
};

QTEST_APPLESS_MAIN(TstKde)
#include "tst_kde.moc"
