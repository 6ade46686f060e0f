// SPDX-License-Identifier: MIT
// The exact SDO kernel (SdoProfile) against closed forms, the shared reference table and an
// independent Bessel-function quadrature; its use as a kernel back-end; and the random Fourier
// features converging to it.
#include "core/kernels/kernel_operator.h"
#include "core/kernels/sdo_profile.h"

#include <QtTest>

#include <cmath>

using namespace sosrep;

namespace {

/// Omega_d(s) = E_theta[cos(s theta_1)] = Gamma(d/2) (2/s)^nu J_nu(s), nu = d/2 - 1: the power
/// series where it converges without much cancellation, the Bessel function beyond.
double omega(int d, double s)
{
    const double nu = 0.5 * d - 1.0;
    if (s < 30.0) {
        double term = 1.0;
        double sum = 1.0;
        for (int k = 1; k < 400 && std::abs(term) > 1e-18; ++k) {
            term *= -0.25 * s * s / (k * (nu + k));
            sum += term;
        }
        return sum;
    }
    return std::exp(std::lgamma(0.5 * d) + nu * std::log(2.0 / s)) * std::cyl_bessel_j(nu, s);
}

/// g(r) / g(0) by brute force: the Hankel integral int_0^U u^(d-1) Omega_d(u r) / (1 + u^(2m))
/// on panels of width 0.25 with 20-point Gauss-Legendre (nodes computed here from the Golub-
/// Welsch-free Newton iteration of std::legendre), divided by its closed form at r = 0.
double bruteForceProfile(int d, int m, double r)
{
    static std::vector<double> nodes;
    static std::vector<double> weights;
    if (nodes.empty()) {
        for (int i = 0; i < 20; ++i) {
            double x = std::cos(M_PI * (i + 0.75) / 20.5);
            for (int it = 0; it < 50; ++it) {
                const double p = std::legendre(20, x);
                const double dp = 20.0 * (x * p - std::legendre(19, x)) / (x * x - 1.0);
                x -= p / dp;
            }
            const double dp =
                20.0 * (x * std::legendre(20, x) - std::legendre(19, x)) / (x * x - 1.0);
            nodes.push_back(x);
            weights.push_back(2.0 / ((1.0 - x * x) * dp * dp));
        }
    }
    const double upper = std::max(200.0, 300.0 / r);
    double sum = 0.0;
    for (double a = 0.0; a < upper; a += 0.25) {
        for (size_t i = 0; i < nodes.size(); ++i) {
            const double u = a + 0.125 * (1.0 + nodes[i]);
            const double q = std::exp((d - 1.0) * std::log(u) - std::log1p(std::pow(u, 2.0 * m)));
            sum += 0.125 * weights[i] * q * omega(d, u * r);
        }
    }
    return sum / (M_PI / (2.0 * m * std::sin(M_PI * d / (2.0 * m))));
}

double closedD1M1(double r)
{
    return 0.5 * std::exp(-r);
}

double closedD1M2(double r)
{
    const double u = r / std::sqrt(2.0);
    return std::exp(-u) * (std::cos(u) + std::sin(u)) / (2.0 * std::sqrt(2.0));
}

/// d = 3, m = 2: g_3(r) = -g_1'(r) / (2 pi r) with g_1 the d = 1, m = 2 form above, which gives
/// g_3(r) = e^(-u) sin(u) / (4 pi r), u = r / sqrt 2 (and 1 / (4 sqrt(2) pi) at r = 0).
double closedD3M2(double r)
{
    if (r == 0.0) {
        return 1.0 / (4.0 * std::sqrt(2.0) * M_PI);
    }
    const double u = r / std::sqrt(2.0);
    return std::exp(-u) * std::sin(u) / (4.0 * M_PI * r);
}

} // namespace

class TstSdoProfile : public QObject
{
    Q_OBJECT

private slots:
    void closedForms_data()
    {
        QTest::addColumn<int>("d");
        QTest::addColumn<int>("m");
        QTest::newRow("d1m1") << 1 << 1;
        QTest::newRow("d1m2") << 1 << 2;
        QTest::newRow("d3m2") << 3 << 2;
    }

    void closedForms()
    {
        QFETCH(int, d);
        QFETCH(int, m);
        const auto exact = [&](double r) {
            return d == 3 ? closedD3M2(r) : m == 1 ? closedD1M1(r) : closedD1M2(r);
        };
        const SdoProfile p(d, m);
        const double g0 = std::exp(p.logG0());
        QVERIFY(std::abs(g0 / exact(0.0) - 1.0) < 1e-12);
        double worst = 0.0;
        for (int i = 0; i <= 6000; ++i) {
            const double r = 30.0 * i / 6000.0;
            worst = std::max(worst, std::abs(g0 * p.value(r) - exact(r)));
        }
        // The bound is 1e-6 g(0); the table is built to ~1e-11.
        QVERIFY2(worst < 1e-9 * g0, qPrintable(QString::number(worst / g0)));
    }

    void sharedReferenceTable()
    {
        // shared/notes/sdo-kernel-reference-values.md (about 10 significant digits).
        struct Row
        {
            int d, m;
            double v[6];
        };
        const Row rows[] = {{2,
                             2,
                             {0.125, 0.124590993038, 0.120659330573, 0.106885546464,
                              0.0787808432059, 0.0322129712669}},
                            {4,
                             3,
                             {0.00765734576975, 0.00764008267137, 0.00746886454139,
                              0.00683991166511, 0.0054557894596, 0.00280480331849}},
                            {5,
                             3,
                             {0.0028144773234, 0.0027360237366, 0.00250909850396, 0.00209295606484,
                              0.00150791254727, 0.000701993552938}},
                            {10,
                             6,
                             {1.39241295772e-07, 1.39083287455e-07, 1.37450263289e-07,
                              1.31085622807e-07, 1.15727225716e-07, 8.03685615178e-08}}};
        const double rs[6] = {0.0, 0.05, 0.2, 0.5, 1.0, 2.0};
        for (const Row& row : rows) {
            const SdoProfile p(row.d, row.m);
            const double g0 = std::exp(p.logG0());
            for (int i = 0; i < 6; ++i) {
                const double err = std::abs(g0 * p.value(rs[i]) - row.v[i]) / g0;
                QVERIFY2(
                    err < 1e-8,
                    qPrintable(QStringLiteral("d=%1 r=%2 err=%3").arg(row.d).arg(rs[i]).arg(err)));
            }
        }
    }

    void independentBesselQuadrature_data()
    {
        QTest::addColumn<int>("d");
        QTest::newRow("d2") << 2;
        QTest::newRow("d10") << 10;
        QTest::newRow("d100") << 100;
    }

    void independentBesselQuadrature()
    {
        QFETCH(int, d);
        const int m = d / 2 + 1;
        const SdoProfile p(d, m);
        for (double r : {0.3, 1.0, 3.0, 8.0, 20.0}) {
            const double ref = bruteForceProfile(d, m, r);
            const double err = std::abs(p.value(r) - ref);
            QVERIFY2(err < 1e-7, qPrintable(QStringLiteral("r=%1: %2 vs %3 (err %4)")
                                                .arg(r)
                                                .arg(p.value(r), 0, 'g', 12)
                                                .arg(ref, 0, 'g', 12)
                                                .arg(err)));
        }
    }

    void highDimensions_stayFinite()
    {
        // ADBench has d = 1555; nothing may overflow or turn into NaN up to d = 2000.
        for (int d : {1555, 2000}) {
            const SdoProfile p(d, d / 2 + 1);
            QVERIFY(std::isfinite(p.logG0()));
            QCOMPARE(p.value(0.0), 1.0);
            double previous = 1.0;
            for (double r = 0.0; r < p.maxRadius(); r += 0.5) {
                const double v = p.value(r);
                QVERIFY(std::isfinite(v));
                QVERIFY(std::abs(v) <= 1.0 + 1e-12);
                if (r < 60.0) {
                    QVERIFY(v <= previous + 1e-12); // decreasing on its main lobe
                }
                previous = v;
            }
        }
    }

    void derivatives_matchClosedFormD1()
    {
        // d = 1, m = 1: g / g(0) = e^-r, so g' = -e^-r and g'' = e^-r.
        const SdoProfile p(1, 1);
        for (double r : {0.05, 0.3, 1.0, 4.0}) {
            double v = 0.0;
            double g1 = 0.0;
            double g2 = 0.0;
            p.derivatives(r, v, g1, g2);
            QVERIFY(std::abs(v - std::exp(-r)) < 1e-10);
            QVERIFY(std::abs(g1 + std::exp(-r)) < 1e-6);
            QVERIFY(std::abs(g2 - std::exp(-r)) < 1e-4 * (1.0 + 1.0 / r));
        }
    }

    void exactBackend_kernelMatrixAndEvaluation()
    {
        // k^a(x, y) = l^-d g(|x - y| / l) (Prop. 7) with the unit-diagonal scaling of the solvers.
        const int d = 3;
        KernelSpec spec;
        spec.type = KernelType::Sdo;
        spec.sdoMethod = SdoMethod::Exact;
        spec.sdoOrder = 2;
        spec.lengthScale = 0.4;
        std::srand(5);
        const Matrix x = Matrix::Random(30, d);
        const KernelOperator op(x, spec);
        QCOMPARE(op.backendName(), std::string("exact-dense"));
        const double g0 = std::exp(op.logDiagonal());
        QVERIFY(std::abs(g0 - closedD3M2(0.0) / std::pow(0.4, d)) < 1e-12 * g0);
        const Matrix k = op.crossKernel(x, x);
        for (int i = 0; i < 30; ++i) {
            for (int j = 0; j < 30; ++j) {
                const double r = (x.row(i) - x.row(j)).norm();
                const double truth = closedD3M2(r / 0.4) / std::pow(0.4, d);
                QVERIFY2(std::abs(k(i, j) * g0 - truth) < 1e-9 * g0,
                         qPrintable(
                             QStringLiteral("r=%1: %2 vs %3").arg(r).arg(k(i, j) * g0).arg(truth)));
            }
        }
        const Vector w = Vector::Random(30);
        QVERIFY((op.apply(w) - k * w).norm() < 1e-12 * (k * w).norm());
        const FieldValues f = op.evaluate(x, w, false);
        QVERIFY((f.value - k * w).norm() < 1e-12 * (k * w).norm());
    }

    void rff_convergesToExactLikeInverseSqrtT()
    {
        // Max error over pairs of the sampled kernel against the exact one, mean of 8 seeds:
        // 16 times more features should cut it about 4 times (1/sqrt T).
        const int d = 3;
        std::srand(9);
        const Matrix x = Matrix::Random(12, d);
        KernelSpec exactSpec;
        exactSpec.type = KernelType::Sdo;
        exactSpec.sdoMethod = SdoMethod::Exact;
        const Matrix exact = KernelOperator(x, exactSpec).crossKernel(x, x);
        auto meanError = [&](int t) {
            double sum = 0.0;
            for (uint64_t seed = 0; seed < 8; ++seed) {
                KernelSpec s;
                s.type = KernelType::Sdo;
                s.features = t;
                s.seed = seed;
                sum += (KernelOperator(x, s).crossKernel(x, x) - exact).cwiseAbs().maxCoeff();
            }
            return sum / 8.0;
        };
        const double e500 = meanError(500);
        const double e8000 = meanError(8000);
        QVERIFY2(e500 < 0.3, qPrintable(QString::number(e500)));
        const double ratio = e500 / e8000;
        QVERIFY2(ratio > 2.8 && ratio < 5.7, qPrintable(QString::number(ratio)));
    }
};

QTEST_APPLESS_MAIN(TstSdoProfile)
#include "tst_sdo_profile.moc"
