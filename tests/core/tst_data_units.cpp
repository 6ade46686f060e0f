// SPDX-License-Identifier: MIT
// Log densities per unit of the data's own columns (FittedModel::setDataUnits): exp(log p)
// integrates to 1 over the data's own coordinates under every scaling, with columns whose
// ranges differ by 10^4; ratios and normality scores are left as they are.
#include "core/data/scaler.h"
#include "core/estimators/fit_settings.h"
#include "core/grid/density_grid.h"
#include "core/pipeline/fit_route.h"
#include "support/random_arrays.h"
#include "support/sanitized.h"

#include <QtTest>

#include <cmath>
#include <string>

using namespace sosrep;

namespace {

/// 200 rows: x1 ~ N(0, 1) and x2 ~ N(0, 10^4^2) (ranges 10^4 apart), correlated a little.
Matrix unevenColumns()
{
    Matrix x = test::normalMatrix(200, 2, 17);
    x.col(1) = (x.col(1) + 0.3 * x.col(0)) * 1e4;
    return x;
}

/// The integral of exp(log p) over a box of the data's own coordinates around the rows, by the
/// midpoint rule on n x n cells; the box reaches 6 kernel widths (in each column's unit) past
/// the rows, where a Gaussian kernel's mass is below 1e-8.
double integralInDataUnits(const FittedModel& model, const Scaler& scaler, const Matrix& raw,
                           double lengthScale, int n)
{
    Vector lo(2), hi(2);
    for (int j = 0; j < 2; ++j) {
        const double reach = 6.0 * lengthScale * scaler.scale(j);
        lo(j) = raw.col(j).minCoeff() - reach;
        hi(j) = raw.col(j).maxCoeff() + reach;
    }
    const Vector step = (hi - lo) / double(n);
    Matrix cells(Eigen::Index(n) * n, 2);
    for (int a = 0; a < n; ++a) {
        for (int b = 0; b < n; ++b) {
            cells(Eigen::Index(a) * n + b, 0) = lo(0) + (a + 0.5) * step(0);
            cells(Eigen::Index(a) * n + b, 1) = lo(1) + (b + 0.5) * step(1);
        }
    }
    const Vector logP = model.logValues(scaler.apply(cells)).values;
    return logP.array().exp().sum() * step(0) * step(1);
}

} // namespace

class TstDataUnits : public QObject
{
    Q_OBJECT

private slots:
    void densitiesIntegrateToOneInDataUnits_data()
    {
        QTest::addColumn<QString>("estimator");
        QTest::addColumn<QString>("scale");
        // l in each scaling's own coordinates: about a fifth of a column's spread.
        QTest::addColumn<double>("lengthScale");
        for (const char* e : {"kde", "sos-mmd", "sosrep"}) {
            QTest::addRow("%s minmax", e) << QString(e) << "minmax" << 0.08;
            QTest::addRow("%s zscore", e) << QString(e) << "zscore" << 0.4;
            QTest::addRow("%s robust", e) << QString(e) << "robust" << 0.3;
            QTest::addRow("%s quantile", e) << QString(e) << "quantile" << 0.16;
            // Rank: the Jacobian differs from row to row (the CDF's piece under each).
            QTest::addRow("%s rank", e) << QString(e) << "rank" << 0.06;
            // Unscaled, one isotropic l must span the wide column: the narrow one is smoothed.
            QTest::addRow("%s none", e) << QString(e) << "none" << 4000.0;
        }
    }

    void densitiesIntegrateToOneInDataUnits()
    {
        QFETCH(QString, estimator);
        QFETCH(QString, scale);
        QFETCH(double, lengthScale);
        const Matrix raw = unevenColumns();
        const Scaler scaler = Scaler::fit(scalingKindFromString(scale.toStdString()), raw);
        FitSettings s = FitSettings::defaults(estimator.toStdString());
        s.values.set("scale", scale.toStdString());
        s.values.setReal("length_scale", lengthScale);
        FitData data;
        data.train = scaler.apply(raw);
        data.source = "uneven";
        data.scaler = scaler;
        const FitOutcome f = fitModel(data, s);
        QVERIFY(f.model);
        if (f.model->kind() != DensityKind::Normalized) {
            QSKIP("this kernel's SOSREP is a pre-density: it has no normalizer to integrate");
        }
        // The change of variables, once: the data-unit log density is the scaled one minus
        // sum_j log scale_j.
        QCOMPARE(f.model->logUnitShift(), -scaler.logJacobian());
        QCOMPARE(f.model->rowUnits() != nullptr, scale == "rank");
        // The sanitizer job's grid is 300^2 (the same code, 5x fewer cells), but for rank, whose
        // density in data units is as sharp as the CDF is steep.
        const int cells = test::kSanitized && scale != QLatin1String("rank") ? 300 : 700;
        const double integral = integralInDataUnits(*f.model, scaler, raw, lengthScale, cells);
        QVERIFY2(std::abs(integral - 1.0) < 0.02,
                 qPrintable(QString("integral %1 (scaled units would give %2)")
                                .arg(integral)
                                .arg(integral * std::exp(scaler.logJacobian()))));
    }

    void ratiosAndScoresHaveNoUnit()
    {
        const Matrix raw = unevenColumns();
        const Scaler scaler = Scaler::fit(ScalingKind::MinMax, raw);
        for (const char* e : {"iforest", "knn"}) {
            FitData data;
            data.train = scaler.apply(raw);
            data.source = "uneven";
            data.scaler = scaler;
            const FitOutcome f = fitModel(data, FitSettings::defaults(e));
            QCOMPARE(f.model->logUnitShift(), 0.0);
            QVERIFY(f.model->logValues(data.train).values ==
                    f.model->modelLogValues(data.train).values);
        }
    }

    void gridsAreInTheSameUnitsAsRows_data()
    {
        QTest::addColumn<QString>("scale");
        QTest::newRow("minmax") << "minmax";
        QTest::newRow("rank") << "rank"; // a per-cell change of units
    }

    void gridsAreInTheSameUnitsAsRows()
    {
        // The density map's fast paths sum the kernel field in model units: they must land
        // where logValues() does.
        QFETCH(QString, scale);
        const Matrix raw = unevenColumns();
        const Scaler scaler = Scaler::fit(scalingKindFromString(scale.toStdString()), raw);
        FitSettings s = FitSettings::defaults("kde");
        s.values.setReal("length_scale", 0.08);
        FitData data;
        data.train = scaler.apply(raw);
        data.source = "uneven";
        data.scaler = scaler;
        const FitOutcome f = fitModel(data, s);
        const GridSpec spec = gridAroundData(data.train, 0, 1, 40);
        const DensityGrid g = evaluateGrid(*f.model, spec);
        const DensityGrid exact = evaluateGridPointwise(*f.model, spec);
        QVERIFY(((g.logDensity - exact.logDensity).array().abs() < 1e-9).all());
        // Ranges ~6 and ~6e4: not a no-op.
        const Vector rowShift =
            f.model->logValues(data.train).values - f.model->modelLogValues(data.train).values;
        if (scale == "rank") {
            QVERIFY(rowShift.maxCoeff() - rowShift.minCoeff() > 1.0); // row by row
        } else {
            QVERIFY(rowShift.cwiseAbs().minCoeff() > 5.0);
        }
    }
};

QTEST_APPLESS_MAIN(TstDataUnits)
#include "tst_data_units.moc"
