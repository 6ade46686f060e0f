// SPDX-License-Identifier: MIT
// Tests of density grids, marginals and contours against brute force and closed forms.
#include "core/data/toy_data.h"
#include "core/estimators/kde/kde_estimator.h"
#include "core/estimators/kernel_field_model.h"
#include "core/estimators/sosrep/sosrep_estimator.h"
#include "core/grid/binned_grid.h"
#include "core/grid/contour.h"
#include "core/grid/density_curve.h"
#include "core/grid/density_grid.h"
#include "core/tuning/length_scale_search.h"
#include "support/fit_helpers.h"
#include "support/sanitized.h"

#include <QtTest>

#include <cmath>

using namespace sosrep;

namespace {

/// Largest relative error of p (not log p) where the exact p is at least 1e-3 of its maximum:
/// the accuracy measure of the fast grid paths.
double relativeErrorWhereDense(const DensityGrid& fast, const DensityGrid& exact)
{
    const double top = exact.logDensity.maxCoeff();
    double worst = 0.0;
    for (Eigen::Index k = 0; k < exact.logDensity.size(); ++k) {
        if (exact.logDensity.data()[k] >= top + std::log(1e-3)) {
            worst = std::max(worst, std::abs(std::expm1(fast.logDensity.data()[k] -
                                                        exact.logDensity.data()[k])));
        }
    }
    return worst;
}

/// The marginal of `column` at t by brute force: the model integrated over the other columns
/// (one or two) with the midpoint rule on a box reaching 8 length scales past the data.
double bruteForceMarginal(const FittedModel& model, const Matrix& x, int column, double t, double l)
{
    std::vector<int> others;
    for (int c = 0; c < x.cols(); ++c) {
        if (c != column) {
            others.push_back(c);
        }
    }
    const int n = others.size() == 1 ? 600 : 120;
    std::vector<double> lo, step;
    for (int c : others) {
        lo.push_back(x.col(c).minCoeff() - 8 * l);
        step.push_back((x.col(c).maxCoeff() + 8 * l - lo.back()) / n);
    }
    const int cells = others.size() == 1 ? n : n * n;
    Matrix pts(cells, x.cols());
    for (int k = 0; k < cells; ++k) {
        pts(k, column) = t;
        pts(k, others[0]) = lo[0] + (k % n + 0.5) * step[0];
        if (others.size() == 2) {
            pts(k, others[1]) = lo[1] + (k / n + 0.5) * step[1];
        }
    }
    double area = step[0] * (others.size() == 2 ? step[1] : 1.0);
    return model.logValues(pts).values.array().exp().sum() * area;
}

} // namespace

namespace {

/// erf^-1 by Newton's method on std::erf (a test's oracle needs no speed).
double inverseErf(double y)
{
    double x = 0.0;
    for (int k = 0; k < 100; ++k) {
        x -= (std::erf(x) - y) / (2.0 / std::sqrt(M_PI) * std::exp(-x * x));
    }
    return x;
}

} // namespace

class TstDensityGrid : public QObject
{
    Q_OBJECT

private slots:
    void marchingSquares_traceACircle()
    {
        const int n = 201;
        std::vector<double> xs(n);
        for (int i = 0; i < n; ++i) {
            xs[size_t(i)] = -2.0 + 4.0 * i / (n - 1);
        }
        Matrix f(n, n);
        for (int j = 0; j < n; ++j) {
            for (int i = 0; i < n; ++i) {
                f(j, i) = -(xs[size_t(i)] * xs[size_t(i)] + xs[size_t(j)] * xs[size_t(j)]);
            }
        }
        const double r = 1.3;
        const auto segs = marchingSquares(f, xs, xs, -r * r);
        double length = 0.0;
        for (const auto& s : segs) {
            QVERIFY(std::abs(std::hypot(s.x0, s.y0) - r) < 2e-4);
            length += std::hypot(s.x1 - s.x0, s.y1 - s.y0);
        }
        QVERIFY2(std::abs(length - 2 * M_PI * r) < 1e-3 * 2 * M_PI * r,
                 qPrintable(QString::number(length)));
    }

    void marchingSquares_saddleGivesTwoSegments()
    {
        Matrix f(2, 2);
        f << 1, 0, 0, 1; // corners (0,0) and (1,1) high: a saddle
        const auto segs = marchingSquares(f, {0.0, 1.0}, {0.0, 1.0}, 0.5);
        QCOMPARE(int(segs.size()), 2);
    }

    void highestDensityLevels_matchGaussianClosedForm()
    {
        // Standard 2-D normal: the region holding mass q is the disc of radius sqrt(-2 ln(1-q)),
        // whose boundary density is (1-q)/(2 pi).
        const int n = 400;
        Matrix ld(n, n);
        const double lo = -6.0;
        const double step = 12.0 / n;
        for (int j = 0; j < n; ++j) {
            for (int i = 0; i < n; ++i) {
                const double x = lo + (i + 0.5) * step;
                const double y = lo + (j + 0.5) * step;
                ld(j, i) = -0.5 * (x * x + y * y) - std::log(2 * M_PI);
            }
        }
        const auto levels = highestDensityLevels(ld, {0.5, 0.8, 0.95});
        const double qs[3] = {0.5, 0.8, 0.95};
        for (int k = 0; k < 3; ++k) {
            const double expected = std::log((1 - qs[k]) / (2 * M_PI));
            QVERIFY2(std::abs(levels[size_t(k)] - expected) < 0.02,
                     qPrintable(QStringLiteral("%1 vs %2").arg(levels[size_t(k)]).arg(expected)));
        }
        const Matrix norm = normalizeOnGrid(ld.array() + 5.0, step * step); // any offset
        QVERIFY(std::abs(norm.array().exp().sum() * step * step - 1.0) < 1e-12);
    }

    // The same normal on a warped grid (a rank scaling's cells): cells spaced evenly in
    // u = Phi(x), so each spans a different length of x; with each cell's area given, the
    // levels are the closed form's again, and without it they are wrong.
    void highestDensityLevels_weighCellsByTheirArea()
    {
        const int n = 400;
        Matrix ld(n, n), logArea(n, n);
        const auto xOf = [](double u) { return std::sqrt(2.0) * inverseErf(2.0 * u - 1.0); };
        for (int j = 0; j < n; ++j) {
            for (int i = 0; i < n; ++i) {
                const double ux = (i + 0.5) / n, uy = (j + 0.5) / n;
                const double x = xOf(ux), y = xOf(uy);
                ld(j, i) = -0.5 * (x * x + y * y) - std::log(2 * M_PI);
                // dx/du = 1 / phi(x): the cell's length in x per unit of u.
                logArea(j, i) = 0.5 * (x * x + y * y) + std::log(2 * M_PI);
            }
        }
        const double qs[3] = {0.5, 0.8, 0.95};
        const auto levels = highestDensityLevels(ld, {0.5, 0.8, 0.95}, &logArea);
        const auto unweighted = highestDensityLevels(ld, {0.5, 0.8, 0.95});
        for (int k = 0; k < 3; ++k) {
            const double expected = std::log((1 - qs[k]) / (2 * M_PI));
            QVERIFY2(std::abs(levels[size_t(k)] - expected) < 0.03,
                     qPrintable(QStringLiteral("%1 vs %2").arg(levels[size_t(k)]).arg(expected)));
            QVERIFY(std::abs(unweighted[size_t(k)] - expected) > 0.2);
        }
    }

    void separableGaussianGrid_equalsPointwise_data()
    {
        QTest::addColumn<QString>("estimator");
        QTest::addColumn<double>("lengthScale");
        QTest::addColumn<int>("kernel");
        for (double l : {0.03, 0.3, 3.0}) {
            QTest::newRow(qPrintable(QStringLiteral("sosrep l=%1").arg(l)))
                << QStringLiteral("sosrep") << l << int(KernelType::Gaussian);
            QTest::newRow(qPrintable(QStringLiteral("kde l=%1").arg(l)))
                << QStringLiteral("kde") << l << int(KernelType::Gaussian);
            // Random-feature SDO: the cos(a + c) split of the features (T = 300 < N and > N).
            QTest::newRow(qPrintable(QStringLiteral("sosrep sdo-rff l=%1").arg(l)))
                << QStringLiteral("sosrep") << l << int(KernelType::Sdo);
            QTest::newRow(qPrintable(QStringLiteral("kde sdo-rff l=%1").arg(l)))
                << QStringLiteral("kde") << l << int(KernelType::Sdo);
        }
    }

    void separableGaussianGrid_equalsPointwise()
    {
        QFETCH(QString, estimator);
        QFETCH(double, lengthScale);
        QFETCH(int, kernel);
        std::srand(11);
        const Matrix x = Matrix::Random(150, 4);
        KernelSpec spec;
        spec.lengthScale = lengthScale;
        spec.type = KernelType(kernel);
        spec.features = lengthScale < 0.1 ? 300 : 100;
        auto op = std::make_shared<const KernelOperator>(x, spec);
        const std::unique_ptr<KernelFieldModel> m =
            estimator == QLatin1String("kde") ? makeKdeModel(op)
                                              : makeSosrepModel(op, Vector::Random(150).cwiseAbs());
        const GridSpec g = gridAroundData(x, 3, 1, 40);
        const DensityGrid fast = evaluateGrid(*m, g);
        const DensityGrid slow = evaluateGridPointwise(*m, g);
        QCOMPARE(fast.floored, slow.floored);
        double worst = 0.0;
        for (Eigen::Index k = 0; k < fast.logDensity.size(); ++k) {
            worst =
                std::max(worst, std::abs(fast.logDensity.data()[k] - slow.logDensity.data()[k]));
        }
        QVERIFY2(worst < 1e-9, qPrintable(QString::number(worst)));
    }

    void binnedRadialGrid_isWithin1e3OfExact_data()
    {
        QTest::addColumn<int>("kernel");
        QTest::addColumn<bool>("exactSdo");
        QTest::addColumn<QString>("estimator");
        QTest::newRow("laplace sosrep")
            << int(KernelType::Laplace) << false << QStringLiteral("sosrep");
        QTest::newRow("laplace kde") << int(KernelType::Laplace) << false << QStringLiteral("kde");
        QTest::newRow("exact sdo sosrep")
            << int(KernelType::Sdo) << true << QStringLiteral("sosrep");
    }

    void binnedRadialGrid_isWithin1e3OfExact()
    {
        // 2-D data, 128 x 128 grid: the binned FFT path against point-by-point evaluation where
        // p >= 1e-3 of its maximum (the accuracy it promises).
        QFETCH(int, kernel);
        QFETCH(bool, exactSdo);
        QFETCH(QString, estimator);
        ToyConfig tc;
        tc.kind = ToyKind::TwoMoons;
        tc.n = 3000;
        tc.seed = 4;
        const Matrix x = generateToyData(tc).x;
        const auto fit = fitAt(
            estimator.toStdString(), x, 0.2,
            {{"kernel", toString(KernelType(kernel))}, {"sdo_method", exactSdo ? "exact" : "rff"}});
        const KernelFieldModel& model = *fit->kernelField();
        const GridSpec g = gridAroundData(x, 0, 1, 128);
        DensityGrid fast;
        QVERIFY(evaluateBinnedRadial(model, g, &fast)); // the fast path is taken here
        const double worst = relativeErrorWhereDense(fast, evaluateGridPointwise(model, g));
        QVERIFY2(worst <= 1e-3, qPrintable(QString::number(worst)));
        // evaluateGrid uses it for these kernels.
        QCOMPARE(evaluateGrid(model, g).logDensity, fast.logDensity);
    }

    void binnedRadialGrid_declinesWhereItWouldBeInaccurateOrInapplicable()
    {
        ToyConfig tc;
        tc.kind = ToyKind::TwoMoons;
        tc.n = 1000;
        tc.seed = 5;
        const Matrix x = generateToyData(tc).x;
        const OptionOverrides laplace{{"kernel", "laplace"}};
        const GridSpec g = gridAroundData(x, 0, 1, 64); // spacing 0.067
        // l below the spacing: the far field is negligible and the near field exact, so the fast
        // path holds; l of the order of the spacing: binning cannot resolve the kernel, the
        // check fails and evaluateGrid falls back to exact evaluation. Either way the grid is
        // within 1e-3 of exact where p >= 1e-3 of its maximum.
        int declined = 0;
        for (double l : {0.002, 0.02, 0.05}) {
            const auto fit = fitAt("sosrep", x, l, laplace);
            const KernelFieldModel& model = *fit->kernelField();
            DensityGrid binned;
            declined += evaluateBinnedRadial(model, g, &binned) ? 0 : 1;
            QVERIFY(relativeErrorWhereDense(evaluateGrid(model, g),
                                            evaluateGridPointwise(model, g)) <= 1e-3);
        }
        QCOMPARE(declined, 2);
        // Three columns (a held one): not a 2-D convolution.
        Matrix x3(x.rows(), 3);
        x3 << x, Matrix::Random(x.rows(), 1);
        const auto three = fitAt("sosrep", x3, 0.3, laplace);
        DensityGrid unused;
        QVERIFY(
            !evaluateBinnedRadial(*three->kernelField(), gridAroundData(x3, 0, 1, 64), &unused));
    }

    // Issue 24: the 1-D marginal in closed form (KDE, SOSREP dense and Nystroem, kernel SoS)
    // equals the model integrated over the other columns by brute force.
    void marginalCurve_equalsBruteForceIntegral_data()
    {
        QTest::addColumn<QString>("estimator");
        QTest::addColumn<QString>("backend");
        QTest::addColumn<int>("columns");
        QTest::addColumn<int>("rows");
        QTest::newRow("kde 2-D") << QStringLiteral("kde") << QStringLiteral("dense") << 2 << 120;
        QTest::newRow("sosrep 2-D")
            << QStringLiteral("sosrep") << QStringLiteral("dense") << 2 << 120;
        QTest::newRow("sosrep 3-D")
            << QStringLiteral("sosrep") << QStringLiteral("dense") << 3 << 120;
        // More centres than one block of 256: the symmetric blocking's pairs across blocks.
        QTest::newRow("sosrep 3-D, 600 rows")
            << QStringLiteral("sosrep") << QStringLiteral("dense") << 3 << 600;
        QTest::newRow("sosrep nystroem")
            << QStringLiteral("sosrep") << QStringLiteral("lowrank") << 2 << 120;
        QTest::newRow("kernel sos")
            << QStringLiteral("sos-mmd") << QStringLiteral("dense") << 2 << 120;
    }

    void marginalCurve_equalsBruteForceIntegral()
    {
        QFETCH(QString, estimator);
        QFETCH(QString, backend);
        QFETCH(int, columns);
        QFETCH(int, rows);
        Matrix x2 = toy(ToyKind::TwoMoons, rows, 3);
        Matrix x(x2.rows(), columns);
        x.leftCols(2) = x2;
        if (columns == 3) {
            x.col(2) = 0.5 * x2.col(0) - x2.col(1); // a correlated third column
        }
        const double l = 0.35;
        OptionOverrides o{{"backend", backend.toStdString()}};
        if (backend == QLatin1String("lowrank")) {
            o.push_back({"rank", "40"});
        }
        if (estimator == QLatin1String("sos-mmd")) {
            o = {{"support", "25"}};
        }
        const auto model = fitAt(estimator.toStdString(), x, l, o);
        QCOMPARE(marginalUnavailableReason(*model), std::string());
        for (int column : {0, columns - 1}) {
            CurveSpec spec = curveAroundData(x, column, 41, 0.6);
            const DensityCurve curve = marginalCurve(*model, spec);
            QVERIFY(curve.marginal);
            QCOMPARE(curve.floored, 0);
            const double top = curve.logValues.maxCoeff();
            double mass = 0.0;
            for (int i = 0; i < spec.n; ++i) {
                const double got = std::exp(curve.logValues(i));
                mass += got * (spec.max - spec.min) / (spec.n - 1);
                // The sanitizer job checks every 4th point: a point's brute force is 14 400
                // evaluations of the model in 3-D, the same code at each point.
                if (curve.logValues(i) > top + std::log(1e-3) &&
                    (!test::kSanitized || i % 4 == 0)) {
                    const double exact = bruteForceMarginal(*model, x, column, spec.t(i), l);
                    QVERIFY2(std::abs(got / exact - 1.0) < 1e-3,
                             qPrintable(QStringLiteral("t=%1 closed form %2, brute force %3")
                                            .arg(spec.t(i))
                                            .arg(got)
                                            .arg(exact)));
                }
            }
            QVERIFY2(std::abs(mass - 1.0) < 0.01, qPrintable(QString::number(mass)));
        }
    }

    // Where no closed form exists the reason is given; the slice along a column is the model.
    void marginalCurve_refusesWithAReasonAndTheSliceIsTheModel()
    {
        const Matrix x = toy(ToyKind::TwoMoons, 80, 4);
        const auto laplace = fitAt("sosrep", x, 0.3, {{"kernel", "laplace"}});
        QVERIFY(QString::fromStdString(marginalUnavailableReason(*laplace)).contains("laplace"));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 marginalCurve(*laplace, curveAroundData(x, 0)));
        const auto forest = fitAt("iforest", x, 0.3);
        QVERIFY(
            QString::fromStdString(marginalUnavailableReason(*forest)).contains("not a density"));
        const CurveSpec spec = curveAroundData(x, 1, 9);
        const DensityCurve slice = evaluateCurve(*laplace, spec);
        QVERIFY(!slice.marginal);
        Matrix p(1, 2);
        p << spec.fixedValues(0), spec.t(4);
        QCOMPARE(slice.logValues(4), laplace->logValues(p).values(0));
    }

    void evaluateGrid_matchesDirectEvaluationAndHoldsMedians()
    {
        std::srand(7);
        const Matrix x = Matrix::Random(80, 3);
        KernelSpec spec;
        spec.lengthScale = 0.4;
        const auto kdeModel = makeKdeModel(std::make_shared<const KernelOperator>(x, spec));
        const KernelFieldModel& kde = *kdeModel;
        GridSpec g = gridAroundData(x, 0, 2, 16);
        const DensityGrid grid = evaluateGrid(kde, g);
        QVERIFY(grid.logDensity.allFinite());
        Matrix p(1, 3);
        p << g.x(5), g.fixedValues(1), g.y(9);
        QVERIFY(std::abs(grid.logDensity(9, 5) - kde.logValues(p).values(0)) < 1e-12);
        int calls = 0;
        // 128 x 128 is evaluated in 4 chunks of 32 rows: cancel after the first.
        const DensityGrid cancelled =
            evaluateGrid(kde, gridAroundData(x, 0, 2, 128), [&](int, int) { return ++calls < 1; });
        QVERIFY(cancelled.cancelled);
        QCOMPARE(calls, 1);
    }

    // What the app's hover reads (issue 50): the model at the pointer, off the grid's nodes
    // too, and at a node the value the grid has there.
    void sliceLogValue_isTheModelAtThePointOfTheSlice()
    {
        std::srand(11);
        const Matrix x = Matrix::Random(60, 3);
        for (const char* name : {"kde", "sosrep", "iforest"}) {
            const auto model = fitAt(name, x, 0.5);
            const GridSpec g = gridAroundData(x, 2, 0, 12);
            const DensityGrid grid = evaluateGridPointwise(*model, g);
            QVERIFY(std::abs(sliceLogValue(*model, g, g.x(3), g.y(7)) - grid.logDensity(7, 3)) <
                    1e-12);
            const double px = 0.5 * (g.x(3) + g.x(4));
            const double py = 0.3 * g.y(7) + 0.7 * g.y(8);
            Matrix p(1, 3);
            p << py, g.fixedValues(1), px; // x column 2, y column 0
            QCOMPARE(sliceLogValue(*model, g, px, py), model->logValues(p).values(0));
        }
    }
};

QTEST_APPLESS_MAIN(TstDensityGrid)
#include "tst_density_grid.moc"
