// SPDX-License-Identifier: MIT
// Issue 9, part 3: the exact normalizer of Gaussian SOSREP. With k(x, y) = exp(-|x-y|^2/2l^2),
// Z = int f^2 = (pi l^2)^(d/2) a^T K' a (K' at length scale l sqrt 2), so p = f^2 / Z is a
// true density. Checked against numerical integration (d = 1, 2), Monte Carlo (d = 5) and for
// finiteness in d = 100.
#include "core/estimators/kernel_field_model.h"
#include "core/estimators/sosrep/sosrep_estimator.h"
#include "core/random.h"
#include "support/fit_helpers.h"
#include "support/sanitized.h"

#include <QtTest>

#include <cmath>

using namespace sosrep;

namespace {

Matrix randomRows(int n, int d, uint64_t seed, double spread)
{
    Rng rng(seed);
    Matrix x(n, d);
    for (Eigen::Index i = 0; i < x.size(); ++i) {
        x.data()[i] = spread * rng.normal();
    }
    return x;
}

/// int f^2 by composite Simpson on [lo, hi]^d (d = 1 or 2), f the model's unnormalized field.
double simpsonIntegral(const KernelFieldModel& m, int d, double lo, double hi, int n)
{
    const double h = (hi - lo) / n;
    std::vector<double> w(static_cast<size_t>(n + 1));
    for (int i = 0; i <= n; ++i) {
        w[size_t(i)] = (i == 0 || i == n ? 1.0 : (i % 2 ? 4.0 : 2.0)) * h / 3.0;
    }
    const Eigen::Index points = d == 1 ? n + 1 : Eigen::Index(n + 1) * (n + 1);
    Matrix y(points, d);
    Vector weight(points);
    for (Eigen::Index k = 0; k < points; ++k) {
        const int i = int(k % (n + 1));
        const int j = int(k / (n + 1));
        y(k, 0) = lo + i * h;
        weight(k) = w[size_t(i)];
        if (d == 2) {
            y(k, 1) = lo + j * h;
            weight(k) *= w[size_t(j)];
        }
    }
    // p = f^2 / Z in the model's own units: the integral of exp(logValues) is int f^2 / Z.
    const Vector p = m.logValues(y).values.array().exp();
    return p.dot(weight);
}

} // namespace

class TstSosrepNormalizer : public QObject
{
    Q_OBJECT

private slots:
    void integratesToOne_data()
    {
        QTest::addColumn<int>("dim");
        QTest::addColumn<double>("lengthScale");
        QTest::newRow("d=1 l=0.3") << 1 << 0.3;
        QTest::newRow("d=1 l=0.05") << 1 << 0.05;
        QTest::newRow("d=2 l=0.4") << 2 << 0.4;
        QTest::newRow("d=2 l=0.15") << 2 << 0.15;
    }

    void integratesToOne()
    {
        QFETCH(int, dim);
        QFETCH(double, lengthScale);
        const Matrix x = randomRows(dim == 1 ? 60 : 40, dim, 3, 1.0);
        const auto fit = fitAt("sosrep", x, lengthScale);
        const KernelFieldModel& m = *fit->kernelField();
        QVERIFY(m.kind() == DensityKind::Normalized);
        // The data lie within +-4; the kernels die out 10 l beyond.
        const double edge = 4.5 + 10 * lengthScale;
        const int n = dim == 1 ? 20000 : 1200;
        const double integral = simpsonIntegral(m, dim, -edge, edge, n);
        qInfo("d = %d, l = %g: integral of p = %.12f", dim, lengthScale, integral);
        QVERIFY2(std::abs(integral - 1.0) < 1e-6, qPrintable(QString::number(integral, 'g', 15)));
    }

    void monteCarloInFiveDimensions()
    {
        // int f^2 = E_q[f^2 / q] by importance sampling, q = (1/N) sum_j N(x_j, tau^2 I) with
        // tau = 0.8 l: a proposal shaped like the data (a little wider than each squared kernel,
        // of width l / sqrt 2) that uses nothing of the closed form.
        const int d = 5;
        const int n = 25;
        const Matrix x = randomRows(n, d, 5, 0.6);
        const double l = 0.5;
        const double tau = 0.8 * l;
        const auto fit = fitAt("sosrep", x, l);
        const KernelFieldModel& m = *fit->kernelField();
        Rng rng(11);
        // The sanitizer job draws a tenth (the same code; 45 s instrumented), its bounds
        // sqrt(10) wider.
        const int samples = test::kSanitized ? 400000 : 4000000;
        const double widen = test::kSanitized ? std::sqrt(10.0) : 1.0;
        const int block = 20000;
        double sum = 0.0;
        double sum2 = 0.0;
        for (int b = 0; b < samples; b += block) {
            Matrix y(block, d);
            for (int i = 0; i < block; ++i) {
                const auto c = static_cast<Eigen::Index>(rng.below(n));
                for (int k = 0; k < d; ++k) {
                    y(i, k) = x(c, k) + tau * rng.normal();
                }
            }
            const Vector logp = m.logValues(y).values;
            for (int i = 0; i < block; ++i) {
                // log q by log-sum-exp over the components.
                Vector e(n);
                for (int j = 0; j < n; ++j) {
                    e(j) = -0.5 * (y.row(i) - x.row(j)).squaredNorm() / (tau * tau);
                }
                const double top = e.maxCoeff();
                const double logq = top + std::log((e.array() - top).exp().sum() / n) -
                                    0.5 * d * std::log(2 * M_PI * tau * tau);
                const double r = std::exp(logp(i) - logq);
                sum += r;
                sum2 += r * r;
            }
        }
        const double mean = sum / samples;
        const double se = std::sqrt((sum2 / samples - mean * mean) / samples);
        qInfo("d = 5: integral of p by Monte Carlo = %.6f (standard error %.2g)", mean, se);
        QVERIFY2(se < 3e-4 * widen, qPrintable(QString::number(se))); // sharp enough
        QVERIFY2(std::abs(mean - 1.0) < 1e-3 * widen, qPrintable(QString::number(mean, 'g', 10)));
    }

    void finiteInOneHundredDimensions()
    {
        const Matrix x = randomRows(200, 100, 7, 1.0);
        const auto fit = fitAt("sosrep", x, 2.0);
        const KernelFieldModel& m = *fit->kernelField();
        const double logZ = m.logNormalizer();
        qInfo("d = 100: log Z = %g", logZ);
        QVERIFY(std::isfinite(logZ));
        QVERIFY(m.logValues(x).values.allFinite());
    }

    void onlyTheGaussianKernelIsNormalized()
    {
        const Matrix x = randomRows(40, 2, 3, 1.0);
        QVERIFY(fitAt("sosrep", x, 0.3, {{"kernel", "laplace"}})->kind() ==
                DensityKind::PreDensity);
        QVERIFY(fitAt("sosrep", x, 0.3, {{"kernel", "sdo"}, {"features", "200"}})->kind() ==
                DensityKind::PreDensity);
        // The normalizer shifts every log value by one constant: rankings (and AUCs) stay.
        const auto g = fitAt("sosrep", x, 0.3);
        const KernelFieldModel& m = *g->kernelField();
        const Vector pre =
            2.0 * m.kernel()->evaluate(x, m.weights(), false).value.array().abs().log().matrix() +
            2.0 * m.kernel()->evaluate(x, m.weights(), false).logShift;
        const Vector normalized = m.logValues(x).values;
        QVERIFY(((normalized - pre).array() + m.logNormalizer()).abs().maxCoeff() < 1e-12);
    }
};

QTEST_APPLESS_MAIN(TstSosrepNormalizer)
#include "tst_sosrep_normalizer.moc"
