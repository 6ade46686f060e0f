// SPDX-License-Identifier: MIT
// Packed symmetric kernels, the sweep's shared distances and single-precision kernels, and warm
// starts along a sweep (issue 25): each checked against the plain double-precision path.
#include "core/data/npz_reader.h"
#include "core/data/split.h"
#include "core/data/toy_data.h"
#include "core/estimators/kernel_field_model.h"
#include "core/kernels/kernel_operator.h"
#include "core/kernels/packed_symmetric.h"
#include "core/kernels/sweep_workspace.h"
#include "core/pipeline/fit_route.h"
#include "core/tuning/length_scale_search.h"
#include "core/tuning/rank_ensemble.h"
#include "support/fit_helpers.h"
#include "support/shared_data.h"

#include <QtTest>

#include <omp.h>

#include <cmath>
#include <cstdlib>

using namespace sosrep;
using Precision = PackedSymmetric::Precision;

namespace {

Matrix randomSymmetric(Eigen::Index n, uint64_t seed)
{
    std::srand(static_cast<unsigned>(seed));
    const Matrix a = Matrix::Random(n, n);
    return a + a.transpose();
}

double relativeError(const Vector& a, const Vector& b)
{
    return (a - b).norm() / std::max(b.norm(), 1e-300);
}

KernelSpec spec(KernelType type, double l)
{
    KernelSpec s;
    s.type = type;
    s.lengthScale = l;
    if (type == KernelType::Sdo) {
        s.sdoMethod = SdoMethod::Exact;
    }
    return s;
}

/// The first `rows` rows of shuttle, min-max scaled (its many repeated and near rows make the
/// kernels' entries span the whole range of single precision at small l).
Matrix shuttleRows(Eigen::Index rows)
{
    const Dataset d = readNpzDataset(adbenchPath("32_shuttle.npz"));
    Matrix x = d.x.topRows(rows);
    for (Eigen::Index j = 0; j < x.cols(); ++j) {
        const double lo = x.col(j).minCoeff(), hi = x.col(j).maxCoeff();
        x.col(j) = (x.col(j).array() - lo) / (hi > lo ? hi - lo : 1.0);
    }
    return x;
}

SearchResult sweep(const Matrix& train, const Matrix& validation, bool single)
{
    const EstimatorSetup s = estimatorSetup("sosrep");
    SearchConfig sc; // the density rule
    sc.singlePrecision = single;
    LengthScaleSearch search(train, validation, *s.estimator, s.options, s.kernel, sc);
    return search.run();
}

} // namespace

class TstSweepWorkspace : public QObject
{
    Q_OBJECT

private slots:
    void packedLayout_roundTripsTheLowerTriangle()
    {
        const Matrix a = randomSymmetric(7, 1);
        const PackedSymmetric p = PackedSymmetric::fromLower(a, Precision::Double);
        QCOMPARE(p.size(), Eigen::Index(7));
        QVERIFY(p.toDense() == a);
        QCOMPARE(p(2, 5), a(5, 2)); // the upper triangle reads the lower one
        QCOMPARE(PackedSymmetric::offset(0, 7), size_t(0));
        QCOMPARE(PackedSymmetric::offset(1, 7), size_t(7));
        QCOMPARE(PackedSymmetric::offset(7, 7), size_t(28)); // 7 * 8 / 2 entries in all
        QCOMPARE(p.minCoeff(), a.minCoeff());
    }

    void packedProduct_equalsTheDenseProduct_data()
    {
        QTest::addColumn<int>("n");
        for (int n : {1, 2, 9, 17, 300, 1001}) {
            QTest::newRow(std::to_string(n).c_str()) << n;
        }
    }

    void packedProduct_equalsTheDenseProduct()
    {
        // Tails of the 8-wide loop (n - j - 1 not a multiple of 8) and panels of one column.
        QFETCH(int, n);
        const Matrix a = randomSymmetric(n, 2);
        const Vector x = Vector::Random(n);
        const Vector exact = a * x;
        const PackedSymmetric d = PackedSymmetric::fromLower(a, Precision::Double);
        QVERIFY2(relativeError(d.multiply(x), exact) < 1e-14,
                 std::to_string(relativeError(d.multiply(x), exact)).c_str());
        // Single precision: the product of the rounded matrix, added up in double.
        const PackedSymmetric s = PackedSymmetric::fromLower(a, Precision::Single);
        const Matrix rounded = a.cast<float>().cast<double>();
        QVERIFY(relativeError(s.multiply(x), rounded * x) < 1e-14);
        QVERIFY(relativeError(s.multiply(x), exact) < 1e-6);
        // Several right-hand sides: one column at a time below 4, dense tiles of 128 columns
        // and Eigen's GEMM from 4 (n = 300 and 1001 span several tiles and a partial one).
        for (int m : {3, 4, 7}) {
            const Matrix many = Matrix::Random(n, m);
            const Matrix want = a * many;
            QVERIFY2((d.multiplyColumns(many) - want).norm() < 1e-13 * want.norm(),
                     ("m = " + std::to_string(m)).c_str());
            const Matrix fromSingle = s.multiplyColumns(many);
            QVERIFY((fromSingle - rounded * many).norm() < 1e-13 * want.norm());
            const Matrix both = d.multiplyColumns(many);
            for (Eigen::Index c = 0; c < m; ++c) { // tiles against the one-column loop
                QVERIFY(relativeError(both.col(c), d.multiply(many.col(c))) < 1e-14);
            }
        }
    }

    void packedProductOfManyColumns_doesNotDependOnTheThreadCount()
    {
        // The tiled path's panels are fixed and each runs Eigen's GEMM on one thread, so the
        // negativity runner's curves do not move with OMP_NUM_THREADS.
        const Matrix a = randomSymmetric(700, 5);
        const Matrix x = Matrix::Random(700, 12);
        const PackedSymmetric d = PackedSymmetric::fromLower(a, Precision::Double);
        const Matrix many = d.multiplyColumns(x);
        const int threads = omp_get_max_threads();
        omp_set_num_threads(1);
        const Matrix one = d.multiplyColumns(x);
        omp_set_num_threads(threads);
        QVERIFY(one == many);
    }

    void packedProduct_isReproducible()
    {
        // Regression: with storage from plain new[] the product's rounding depended on the
        // buffer's alignment (16 or 32 bytes, by the heap's history), and two fits of the same
        // data differed by an ulp. Storage is now 64-byte aligned, and the panels do not
        // depend on the number of threads.
        const Matrix x = Matrix::Random(320, 2);
        const Vector w = Vector::Random(320).cwiseAbs();
        const KernelSpec k = spec(KernelType::Gaussian, 0.3);
        Vector first;
        std::vector<void*> shifts; // kept, so the heap's next addresses move round by round
        for (int round = 0; round < 6; ++round) {
            shifts.push_back(std::malloc(16 + 8 * round));
            const KernelOperator op(x, k);
            const Vector kw = op.apply(w);
            if (round == 0) {
                first = kw;
            } else {
                QVERIFY(kw == first);
            }
        }
        // The invariant behind it: every matrix's storage starts on a 64-byte boundary.
        std::vector<PackedSymmetric> held;
        for (int round = 0; round < 6; ++round) {
            shifts.push_back(std::malloc(24));
            held.emplace_back(40 + round, round % 2 ? Precision::Single : Precision::Double);
            const void* start = round % 2 ? static_cast<const void*>(held.back().columnSingle(0))
                                          : static_cast<const void*>(held.back().columnDouble(0));
            QCOMPARE(reinterpret_cast<std::uintptr_t>(start) % 64, std::uintptr_t(0));
        }
        for (void* p : shifts) {
            std::free(p);
        }
        const int threads = omp_get_max_threads();
        omp_set_num_threads(1);
        const Vector one = KernelOperator(x, k).apply(w);
        omp_set_num_threads(threads);
        QVERIFY(one == first);
    }

    void bufferPool_recyclesStorage()
    {
        auto pool = std::make_shared<BufferPool>();
        const unsigned char* address = nullptr;
        {
            PackedSymmetric a(100, Precision::Single, pool);
            address = reinterpret_cast<const unsigned char*>(a.columnSingle(0));
        }
        PackedSymmetric b(90, Precision::Single, pool); // smaller: the returned buffer serves
        QCOMPARE(reinterpret_cast<const unsigned char*>(b.columnSingle(0)), address);
        PackedSymmetric c(100, Precision::Single, pool); // b holds it: a new one
        QVERIFY(reinterpret_cast<const unsigned char*>(c.columnSingle(0)) != address);
        pool.reset(); // a matrix that outlives its pool frees its own storage
        PackedSymmetric moved = std::move(c);
        QCOMPARE(moved.size(), Eigen::Index(100));
        QCOMPARE(c.size(), Eigen::Index(0));
    }

    void workspaceKernel_matchesTheDoubleKernel_data()
    {
        QTest::addColumn<int>("type");
        QTest::newRow("gaussian") << int(KernelType::Gaussian);
        QTest::newRow("laplace") << int(KernelType::Laplace);
        QTest::newRow("sdo-exact") << int(KernelType::Sdo);
    }

    void workspaceKernel_matchesTheDoubleKernel()
    {
        QFETCH(int, type);
        const Matrix train = shuttleRows(600);
        const Matrix validation = shuttleRows(700).bottomRows(100);
        const Vector w = Vector::Random(600).cwiseAbs();
        for (double l : {0.01, 0.1, 1.0}) {
            const KernelSpec k = spec(KernelType(type), l);
            const KernelOperator plain(train, k);
            // Double workspace: the same kernel from stored distances.
            auto dbl = std::make_shared<SweepWorkspace>(train, validation, Precision::Double);
            const KernelOperator fromDouble(train, k, dbl);
            QVERIFY(relativeError(fromDouble.apply(w), plain.apply(w)) < 1e-14);
            // Single: every entry rounded once (2^-24), products added in double.
            auto single = std::make_shared<SweepWorkspace>(train, validation, Precision::Single);
            const KernelOperator fromSingle(train, k, single);
            const double err = relativeError(fromSingle.apply(w), plain.apply(w));
            QVERIFY2(err < 1e-6, (std::to_string(l) + ": " + std::to_string(err)).c_str());
            // Evaluations at the validation rows read the stored distances: the same values,
            // gradients and Laplacians as computed afresh.
            const FieldValues a = fromSingle.evaluate(validation, w, true);
            const FieldValues b = plain.evaluate(validation, w, true);
            QVERIFY(relativeError(a.value, b.value) < 1e-14);
            QVERIFY((a.gradient - b.gradient).norm() <= 1e-14 * b.gradient.norm());
            QVERIFY(relativeError(a.laplacian, b.laplacian) < 1e-14);
            QVERIFY(a.logShift == b.logShift);
        }
    }

    void workspace_servesOnlyItsOwnRows()
    {
        const Matrix train = shuttleRows(300);
        const Matrix other = shuttleRows(301).bottomRows(300);
        auto ws = std::make_shared<SweepWorkspace>(train, other, Precision::Single);
        QVERIFY(ws->serves(train));
        QVERIFY(!ws->serves(other));
        QVERIFY(ws->validationDistances(other, train) != nullptr);
        QVERIFY(ws->validationDistances(train, train) == nullptr);
        // Other rows: built from their own distances (still single precision), still right.
        const KernelSpec k = spec(KernelType::Gaussian, 0.1);
        const Vector w = Vector::Ones(300);
        const KernelOperator op(other, k, ws);
        QVERIFY(relativeError(op.apply(w), KernelOperator(other, k).apply(w)) < 1e-6);
        // Without stored distances (folds too large to keep them) nothing is served.
        const SweepWorkspace bare(train, other, Precision::Single, false);
        QVERIFY(!bare.serves(train));
        QVERIFY(bare.validationDistances(other, train) == nullptr);
    }

    void singlePrecisionSweep_givesTheDoubleSweepsCurveAndChoice_data()
    {
        QTest::addColumn<QString>("data");
        QTest::newRow("moons") << "moons";
        QTest::newRow("shuttle") << "shuttle";
    }

    void singlePrecisionSweep_givesTheDoubleSweepsCurveAndChoice()
    {
        // The default sweep (single-precision kernels) against fd_precision=double: every
        // curve point within 1e-7 of the double one (measured: 4e-9; the grid's neighbours differ
        // by tens of per cent), and the same choice.
        QFETCH(QString, data);
        Matrix train, validation;
        if (data == "moons") {
            train = toy(ToyKind::TwoMoons, 800, 3);
            validation = toy(ToyKind::TwoMoons, 200, 4);
        } else {
            const Matrix x = shuttleRows(1500);
            train = x.topRows(1200);
            validation = x.bottomRows(300);
        }
        const SearchResult single = sweep(train, validation, true);
        const SearchResult dbl = sweep(train, validation, false);
        QCOMPARE(single.curve.size(), dbl.curve.size());
        double worst = 0.0;
        for (size_t i = 0; i < dbl.curve.size(); ++i) {
            QCOMPARE(single.curve[i].lengthScale, dbl.curve[i].lengthScale);
            const double v = dbl.curve[i].value;
            worst = std::max(worst, std::abs(single.curve[i].value - v) / std::abs(v));
        }
        QVERIFY2(worst <= 1e-7, std::to_string(worst).c_str());
        QCOMPARE(single.selection.index, dbl.selection.index);
        QCOMPARE(single.selectedLengthScale(), dbl.selectedLengthScale());
    }

    void warmStartedSweep_equalsColdFits()
    {
        // Each grid point starts from the nearest converged point's weights; the Newton
        // solver converges to the same stationary point as from its own start (to its 1e-8
        // residual), so the curve is that of independent fits.
        const Matrix train = toy(ToyKind::Rings, 500, 5);
        const Matrix validation = toy(ToyKind::Rings, 150, 6);
        const EstimatorSetup s = estimatorSetup("sosrep");
        SearchConfig sc;
        sc.gridSize = 7;
        sc.singlePrecision = false;
        LengthScaleSearch search(train, validation, *s.estimator, s.options, s.kernel, sc);
        const SearchResult& r = search.run();
        int warmProducts = 0, coldProducts = 0;
        for (const FdPoint& p : r.curve) {
            const auto cold = fitAt("sosrep", train, p.lengthScale);
            const Vector terms = cold->fisherTerms(validation, nullptr);
            const double value = terms.mean();
            QVERIFY2(std::abs(value - p.value) <= 1e-6 * std::abs(value),
                     (std::to_string(p.value) + " vs " + std::to_string(value)).c_str());
            warmProducts += p.kernelProducts;
            coldProducts += cold->report().kernelProducts;
        }
        QVERIFY2(warmProducts < coldProducts,
                 (std::to_string(warmProducts) + " vs " + std::to_string(coldProducts)).c_str());
    }

    void anomalyMembers_startFromTheSweep()
    {
        // The anomaly rule refits its members on the first fold's rows, which the sweep has
        // fitted already: they start from its weights at the nearest l, and end where cold fits
        // end (scores within 1e-6) in fewer products.
        const Matrix x = toyWithAnomalies(ToyKind::Rings, 400, 21, 0.05);
        FitSettings settings = FitSettings::defaults("sosrep");
        settings.resolvePurpose("anomaly");
        const FitOutcome f = fitModel(FitData{x, Matrix(), "toy", nullptr}, settings);
        const auto* ensemble = dynamic_cast<const RankEnsembleModel*>(f.model.get());
        QVERIFY(ensemble);
        QCOMPARE(f.search->firstFoldWeights.size(), f.search->curve.size());
        // The first fold's fitting rows, as the fit route draws them (5 folds below 2000 rows).
        const SplitIndices first = kFoldSplits(x.rows(), 5, 0).front();
        Matrix fitPart(Eigen::Index(first.train.size()), x.cols());
        for (size_t i = 0; i < first.train.size(); ++i) {
            fitPart.row(Eigen::Index(i)) = x.row(first.train[i]);
        }
        for (const RankEnsembleModel::Member& m : ensemble->members()) {
            const auto cold = fitAt("sosrep", fitPart, m.lengthScale);
            const Vector a = m.model->logValues(x).values, b = cold->logValues(x).values;
            QVERIFY((a - b).cwiseAbs().maxCoeff() <= 1e-6 * b.cwiseAbs().maxCoeff());
            QVERIFY2(m.model->report().kernelProducts < cold->report().kernelProducts,
                     (std::to_string(m.model->report().kernelProducts) + " vs " +
                      std::to_string(cold->report().kernelProducts))
                         .c_str());
        }
    }

    void warmStart_isIgnoredWhereTheKernelHasNegativeEntries()
    {
        // Regression: a Nystroem kernel has negative entries; started from another l's weights
        // Newton fell into failed steps and natural-gradient fallbacks (skin, 60 000 rows: 2604
        // sweep products against 1074 from the default start). Such fits ignore the start.
        const Matrix x = toy(ToyKind::TwoMoons, 600, 8);
        const OptionOverrides nystrom{{"backend", "lowrank"}, {"rank", "60"}};
        const auto other = fitAt("sosrep", x, 0.4, nystrom);
        FitControl control;
        control.start = dynamic_cast<const KernelFieldModel&>(*other).weights();
        const auto warm = fitAt("sosrep", x, 0.1, nystrom, control);
        const auto cold = fitAt("sosrep", x, 0.1, nystrom);
        QCOMPARE(warm->report().kernelProducts, cold->report().kernelProducts);
        QVERIFY(warm->logValues(x).values == cold->logValues(x).values);
    }

    void warmStart_fromTheSolutionConvergesAtOnce()
    {
        const Matrix x = toy(ToyKind::GaussianMixture, 300, 7);
        const auto cold = fitAt("sosrep", x, 0.2);
        const auto* field = dynamic_cast<const KernelFieldModel*>(cold.get());
        QVERIFY(field);
        FitControl control;
        control.start = field->weights();
        const auto warm = fitAt("sosrep", x, 0.2, {}, control);
        QVERIFY(warm->report().status == SolverStatus::Converged);
        QVERIFY(warm->report().kernelProducts <= 3); // scaling, the first product, a refresh
        // A start of the wrong size is ignored, not an error.
        control.start = Vector::Ones(5);
        QVERIFY(fitAt("sosrep", x, 0.2, {}, control)->report().status == SolverStatus::Converged);
    }
};

QTEST_MAIN(TstSweepWorkspace)
#include "tst_sweep_workspace.moc"
