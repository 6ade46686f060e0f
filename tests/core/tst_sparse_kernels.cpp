// SPDX-License-Identifier: MIT
// The sparse kernel back-end (issue 48): the k-d tree's queries against brute force, the sparse
// matrix against the dense kernel, fits, scores and the Fisher-divergence curve against the dense
// back-end, Auto's choice, and Nystroem on repeated rows against its plain formula.
#include "core/data/npz_reader.h"
#include "core/data/scaler.h"
#include "core/data/split.h"
#include "core/errors.h"
#include "core/estimators/kernel_field_model.h"
#include "core/kernels/kernel_operator.h"
#include "core/kernels/sparse_symmetric.h"
#include "core/kernels/sweep_workspace.h"
#include "core/numerics/kd_tree.h"
#include "core/pipeline/fit_route.h"
#include "core/tuning/length_scale_search.h"
#include "support/fit_helpers.h"
#include "support/shared_data.h"

#include <QtTest>

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <set>
#include <utility>
#include <vector>

using namespace sosrep;

namespace {

/// n rows in d columns: clusters of different spread plus a few far rows, and exact repeats.
Matrix clusteredRows(Eigen::Index n, int d, uint64_t seed)
{
    std::mt19937_64 rng(seed);
    std::normal_distribution<double> normal;
    std::uniform_real_distribution<double> uniform(0.0, 1.0);
    Matrix centres(4, d);
    for (Eigen::Index c = 0; c < centres.size(); ++c) {
        centres(c) = uniform(rng);
    }
    Matrix x(n, d);
    for (Eigen::Index i = 0; i < n; ++i) {
        const Eigen::Index c = i % 4;
        const double spread = 0.01 * double(c + 1);
        for (int j = 0; j < d; ++j) {
            x(i, j) = i % 97 == 0 ? 3.0 * uniform(rng) : centres(c, j) + spread * normal(rng);
        }
        if (i % 50 == 49) {
            x.row(i) = x.row(i - 1); // an exact repeat
        }
    }
    return x;
}

double squaredDistance(const Matrix& x, Eigen::Index i, const double* q)
{
    double d2 = 0.0;
    for (Eigen::Index c = 0; c < x.cols(); ++c) {
        d2 += (x(i, c) - q[c]) * (x(i, c) - q[c]);
    }
    return d2;
}

KernelSpec gaussian(double l, BackendChoice backend)
{
    KernelSpec k;
    k.lengthScale = l;
    k.backend = backend;
    return k;
}

/// The shared shuttle rows, min-max scaled (many near and repeated rows).
Matrix shuttle(Eigen::Index rows)
{
    const Dataset d = readNpzDataset(adbenchPath("32_shuttle.npz"));
    const Dataset s = d.selectRows(subsampleRows(d.rows(), rows, 42));
    return Scaler::fit(ScalingKind::MinMax, s.x).apply(s.x);
}

} // namespace

class TestSparseKernels : public QObject
{
    Q_OBJECT

private slots:
    void kdTree_queriesEqualBruteForce_data()
    {
        QTest::addColumn<int>("dim");
        QTest::addColumn<double>("radius");
        QTest::newRow("1-D") << 1 << 0.003;
        QTest::newRow("3-D") << 3 << 0.02;
        QTest::newRow("9-D") << 9 << 0.05;
        QTest::newRow("9-D, everything") << 9 << 10.0;
    }

    void kdTree_queriesEqualBruteForce()
    {
        QFETCH(int, dim);
        QFETCH(double, radius);
        const Matrix x = clusteredRows(1500, dim, 7);
        const KdTree tree(x);
        const double r2 = radius * radius;
        for (Eigen::Index i = 0; i < x.rows(); i += 37) {
            std::set<Eigen::Index> expected;
            double nearest = std::numeric_limits<double>::infinity();
            for (Eigen::Index j = 0; j < x.rows(); ++j) {
                const double d2 = squaredDistance(x, j, tree.rowOf(i));
                if (d2 <= r2) {
                    expected.insert(j);
                }
                if (j != i) {
                    nearest = std::min(nearest, d2);
                }
            }
            std::set<Eigen::Index> found;
            tree.forEachWithin(tree.rowOf(i), r2, [&](Eigen::Index j, double d2) {
                QCOMPARE(d2, squaredDistance(x, j, tree.rowOf(i)));
                found.insert(j);
            });
            QCOMPARE(found, expected);
            QCOMPARE(tree.countWithin(tree.rowOf(i), r2, x.rows()), Eigen::Index(expected.size()));
            QCOMPARE(tree.nearestSquaredDistance(tree.rowOf(i), i), nearest);
            QCOMPARE(tree.nearestSquaredDistance(tree.rowOf(i)), 0.0);
        }
        // The pairs of a leaf's rows: each row's neighbours, as the single queries find them.
        for (int leaf : tree.leaves()) {
            std::vector<std::pair<Eigen::Index, Eigen::Index>> pairs;
            tree.forEachPairWithin(leaf, r2, [&](Eigen::Index i, Eigen::Index j, double d2) {
                QVERIFY(d2 <= r2);
                pairs.emplace_back(i, j);
            });
            std::vector<std::pair<Eigen::Index, Eigen::Index>> single;
            for (Eigen::Index i : tree.leafRows(leaf)) {
                tree.forEachWithin(tree.rowOf(i), r2,
                                   [&](Eigen::Index j, double) { single.emplace_back(i, j); });
            }
            std::sort(pairs.begin(), pairs.end());
            std::sort(single.begin(), single.end());
            QCOMPARE(pairs, single);
            if (leaf > 40) {
                break;
            }
        }
    }

    void sparseMatrix_equalsTheKernelWithinTheRadius()
    {
        const Matrix x = clusteredRows(1200, 3, 11);
        const double l = 0.004;
        const KdTree tree(x);
        const double r = truncationRadius(gaussian(l, BackendChoice::Sparse));
        QCOMPARE(r, l * std::sqrt(2.0 * std::log(1e16)));
        RadialProfile profile;
        profile.scale = -0.5 / (l * l);
        const SparseSymmetric k =
            SparseSymmetric::build(tree, r * r, profile, SparseSymmetric::Precision::Double);
        const Matrix dense = k.toDense();
        long long kept = 0;
        for (Eigen::Index i = 0; i < x.rows(); ++i) {
            QCOMPARE(dense(i, i), 1.0);
            for (Eigen::Index j = 0; j < x.rows(); ++j) {
                const double d2 = squaredDistance(x, j, tree.rowOf(i));
                const double exact = std::exp(-d2 / (2.0 * l * l));
                QCOMPARE(dense(i, j), dense(j, i)); // exactly symmetric
                if (d2 <= r * r) {
                    // The exponent (up to ln 1e16 = 37) rounds differently: 1e-13 relative.
                    QVERIFY(std::abs(dense(i, j) - exact) <= 1e-13 * exact ||
                            (exact < 2.3e-308 && dense(i, j) == 0.0));
                    kept += dense(i, j) != 0.0 ? 1 : 0;
                } else {
                    QCOMPARE(dense(i, j), 0.0);
                    QVERIFY(exact < 1e-16);
                }
            }
        }
        QCOMPARE(kept, k.nonZeros());
        QVERIFY(k.nonZeros() < x.rows() * x.rows() / 5); // sparse indeed
        QCOMPARE(k(5, 5), 1.0);
    }

    // A kernel asked to be sparse where it is not (all of shuttle at l = 0.02: 1.4e9 entries)
    // took 16 GB before a size check after the fact; counted first, it is refused before any
    // entry is stored, and a counted build is the same matrix.
    void askedSparse_overTheLimit_isRefusedFromTheCount()
    {
        const Matrix x = clusteredRows(1200, 3, 11);
        const double l = 0.004;
        const KdTree tree(x);
        const double r = truncationRadius(gaussian(l, BackendChoice::Sparse));
        RadialProfile profile;
        profile.scale = -0.5 / (l * l);
        const auto double_ = SparseSymmetric::Precision::Double;
        const SparseSymmetric plain = SparseSymmetric::build(tree, r * r, profile, double_);
        const double entries = double(plain.nonZeros());
        const SparseSymmetric counted =
            SparseSymmetric::build(tree, r * r, profile, double_, entries);
        QCOMPARE(counted.nonZeros(), plain.nonZeros());
        QVERIFY(counted.toDense() == plain.toDense());
        try {
            SparseSymmetric::build(tree, r * r, profile, double_, entries - 1.0);
            QFAIL("expected a ParameterError");
        } catch (const ParameterError& e) {
            QCOMPARE(QString::fromStdString(e.parameter()), QStringLiteral("backend"));
            QVERIFY2(QString::fromStdString(e.message())
                         .contains(QString::number(plain.nonZeros()) + " entries"),
                     e.what());
        }
    }

    void sparseProduct_isTheExactProduct_andThreadIndependent()
    {
        // Against a brute-force oracle (each pair's distance from its differences, long double
        // sums): the sparse product is within what the truncation allows (1e-16 of sum |a| per
        // row) and rounding. The dense back-end's own distances (|a|^2 + |b|^2 - 2 a.b) are off
        // by ~1e-16 |x|^2, which at l = 0.003 moves an entry by up to ~1e-9 relative: checked
        // to that.
        const Matrix x = shuttle(3000);
        for (const double l : {0.003, 0.01}) {
            const KernelOperator dense(x, gaussian(l, BackendChoice::Dense));
            const KernelOperator sparse(x, gaussian(l, BackendChoice::Sparse));
            QCOMPARE(sparse.backend(), KernelBackend::Sparse);
            QCOMPARE(sparse.backendName(), std::string("sparse"));
            QVERIFY(sparse.nonZeros() > x.rows());
            Matrix a = Matrix::Random(x.rows(), 3).cwiseAbs();
            // Every 9th row of the products (the oracle costs N per entry).
            std::vector<Eigen::Index> rows;
            for (Eigen::Index i = 0; i < x.rows(); i += 9) {
                rows.push_back(i);
            }
            Matrix oracle(Eigen::Index(rows.size()), a.cols());
            for (size_t r = 0; r < rows.size(); ++r) {
                for (Eigen::Index c = 0; c < a.cols(); ++c) {
                    long double sum = 0.0L;
                    for (Eigen::Index j = 0; j < x.rows(); ++j) {
                        const double d2 = (x.row(rows[r]) - x.row(j)).squaredNorm();
                        sum += std::exp(-(long double)d2 / (2.0L * l * l)) * a(j, c);
                    }
                    oracle(Eigen::Index(r), c) = double(sum);
                }
            }
            const Matrix all = sparse.applyMany(a);
            const Matrix got = rowsOf(all, rows);
            const double truncation = 1e-16 * a.colwise().sum().maxCoeff();
            const double sparseError = ((got - oracle).cwiseAbs().array() -
                                        (1e-13 * oracle.cwiseAbs().array() + truncation))
                                           .maxCoeff();
            QVERIFY2(sparseError <= 0.0, qPrintable(QString::number(sparseError)));
            const Matrix want = rowsOf(dense.applyMany(a), rows);
            const double denseError =
                ((want - oracle).cwiseAbs().array() / oracle.cwiseAbs().array()).maxCoeff();
            QVERIFY2(denseError <= 1e-8, qPrintable(QString::number(denseError)));
            QCOMPARE(Vector(sparse.apply(a.col(1))), Vector(all.col(1)));
            const int threads = omp_get_max_threads();
            omp_set_num_threads(1);
            const Matrix one = sparse.applyMany(a);
            omp_set_num_threads(threads);
            QCOMPARE(one, all); // bit for bit
        }
    }

    void sparseEvaluation_equalsBruteForce_nearAndFar_data()
    {
        QTest::addColumn<int>("type");
        QTest::newRow("gaussian") << int(KernelType::Gaussian);
        QTest::newRow("laplace") << int(KernelType::Laplace);
    }

    void sparseEvaluation_equalsBruteForce_nearAndFar()
    {
        // The sweep's validation rows are evaluated with the tree: value, gradient and Laplacian
        // equal the sums over every centre (forScoring's exact path) to 1e-10 relative, also at
        // rows far beyond every centre's truncation radius, where the value is ~1e-300 or less
        // relative to a unit term but exact after the nearest centre's shift.
        QFETCH(int, type);
        const Matrix x = clusteredRows(2500, 3, 5);
        KernelSpec spec = gaussian(0.004, BackendChoice::Sparse);
        spec.type = KernelType(type);
        const auto workspace = std::make_shared<SweepWorkspace>(
            x, x.topRows(2), SweepWorkspace::Precision::Double, true);
        const KernelOperator sparse(x, spec, workspace);
        QCOMPARE(sparse.backend(), KernelBackend::Sparse);
        const auto exact = KernelOperator::forScoring(x, spec);
        Matrix y = clusteredRows(300, 3, 99);
        y.row(0) << 5.0, 5.0, 5.0; // far from everything
        y.row(1) = x.row(10);      // on a centre
        const Vector w = Vector::Random(x.rows()).cwiseAbs() + Vector::Constant(x.rows(), 0.1);
        const FieldValues a = sparse.evaluate(y, w, true);
        const FieldValues b = exact->evaluate(y, w, true);
        const double l = spec.lengthScale;
        for (Eigen::Index i = 0; i < y.rows(); ++i) {
            // Shift-free quantities: log f, grad f / f and lap f / f (the shifts come from the
            // nearest centre's distance, computed two ways).
            const double logA = std::log(a.value(i)) + a.logShift(i);
            const double logB = std::log(b.value(i)) + b.logShift(i);
            QVERIFY2(std::abs(logA - logB) <= 1e-10 * std::max(1.0, std::abs(logB)),
                     qPrintable(QString("row %1: %2").arg(i).arg(logA - logB)));
            if (spec.type == KernelType::Laplace && i == 1) {
                continue; // on a centre: the Laplace kernel's cusp, no gradient there
            }
            const Eigen::RowVectorXd ga = a.gradient.row(i) / a.value(i);
            const Eigen::RowVectorXd gb = b.gradient.row(i) / b.value(i);
            QVERIFY2((ga - gb).norm() <= 1e-10 * (gb.norm() + 1.0 / l),
                     qPrintable(QString("row %1: %2").arg(i).arg((ga - gb).norm())));
            const double la = a.laplacian(i) / a.value(i);
            const double lb = b.laplacian(i) / b.value(i);
            QVERIFY2(std::abs(la - lb) <= 1e-10 * (std::abs(lb) + 1.0 / (l * l)),
                     qPrintable(QString("row %1: %2").arg(i).arg(la - lb)));
        }
    }

    void sparseFit_scoresAndCurve_equalTheDenseBackEnds()
    {
        // A fit at a small l and an automatic one (double precision throughout), dense against
        // sparse: the same l, scores to 1e-10 and each point of the Fisher-divergence curve to
        // 1e-10 relative.
        const Matrix x = shuttle(2500);
        const Matrix test = shuttle(4000).bottomRows(500);
        for (const std::string l : {"0.006", "auto"}) {
            FitOutcome fits[2];
            int i = 0;
            for (const std::string backend : {"dense", "sparse"}) {
                FitSettings s = FitSettings::defaults("sosrep");
                s.values.set("length_scale", l);
                s.values.set("backend", backend);
                s.values.set("fd_precision", "double");
                s.resolvePurpose("density");
                fits[i++] = fitModel(FitData{x, Matrix(), "shuttle", nullptr}, s);
            }
            QCOMPARE(fits[1].model->kernel()->backendName(), std::string("sparse"));
            QCOMPARE(fits[0].lengthScale, fits[1].lengthScale);
            const Vector a = fits[0].model->logValues(test).values;
            const Vector b = fits[1].model->logValues(test).values;
            QVERIFY2((a - b).cwiseAbs().maxCoeff() <= 1e-10,
                     qPrintable(QString::number((a - b).cwiseAbs().maxCoeff())));
            if (l == "auto") {
                const auto& c0 = fits[0].search->curve;
                const auto& c1 = fits[1].search->curve;
                QCOMPARE(c0.size(), c1.size());
                for (size_t p = 0; p < c0.size(); ++p) {
                    QCOMPARE(c1[p].backend, std::string("sparse"));
                    const double rel =
                        std::abs(c0[p].value - c1[p].value) / std::max(1.0, std::abs(c0[p].value));
                    QVERIFY2(rel <= 1e-10 ||
                                 (!std::isfinite(c0[p].value) && !std::isfinite(c1[p].value)),
                             qPrintable(QString("l %1: %2").arg(c0[p].lengthScale).arg(rel)));
                }
            }
        }
    }

    void auto_choosesSparseAtSmallLengthScales_andSaysSo()
    {
        const Matrix x = shuttle(5000);
        std::shared_ptr<const KdTree> tree;
        const BackendPlan small =
            KernelOperator::planBackend(x, gaussian(0.003, BackendChoice::Auto), tree, true);
        QCOMPARE(small.backend, KernelBackend::Sparse);
        QVERIFY(tree); // built for the count, handed back
        QVERIFY(small.predictedNonZeros > 0.0 && small.predictedNonZeros < 0.05 * 5000.0 * 5000.0);
        const BackendPlan large =
            KernelOperator::planBackend(x, gaussian(0.3, BackendChoice::Auto), tree, true);
        QCOMPARE(large.backend, KernelBackend::Dense);
        // Small data stay dense whatever l: their fits are those of the dense path.
        std::shared_ptr<const KdTree> none;
        QCOMPARE(KernelOperator::planBackend(x.topRows(1500), gaussian(0.001, BackendChoice::Auto),
                                             none, true)
                     .backend,
                 KernelBackend::Dense);
        // The sweep records each point's back-end.
        FitSettings s = FitSettings::defaults("sosrep");
        s.resolvePurpose("density");
        const FitOutcome f = fitModel(FitData{x, Matrix(), "shuttle", nullptr}, s);
        std::set<std::string> kinds;
        for (const FdPoint& p : f.search->curve) {
            kinds.insert(p.backend);
        }
        QVERIFY(kinds.count("sparse") == 1);
        QVERIFY(kinds.count("dense") == 1);
    }

    void beyondTheDenseCeiling_smallLengthScalesAreExactAndSparse()
    {
        // Above kAutoDenseRows Auto takes the sparse kernel where Nystroem could not resolve l.
        Matrix x = clusteredRows(16000, 2, 3);
        std::shared_ptr<const KdTree> tree;
        QCOMPARE(KernelOperator::planBackend(x, gaussian(0.002, BackendChoice::Auto), tree, false)
                     .backend,
                 KernelBackend::Sparse);
        QCOMPARE(
            KernelOperator::planBackend(x, gaussian(1.0, BackendChoice::Auto), tree, false).backend,
            KernelBackend::Nystrom);
    }

    void sdoKernel_isNeverSparse()
    {
        KernelSpec k;
        k.type = KernelType::Sdo;
        k.backend = BackendChoice::Sparse;
        QVERIFY_THROWS_EXCEPTION(ParameterError, k.validate(2));
        QCOMPARE(truncationRadius(k), std::numeric_limits<double>::infinity());
    }

    void nystrom_onRepeatedRows_isThePlainFormula()
    {
        // Rows that repeat share a row of K_nm: products, the diagonal and the field equal the
        // plain N x M formula K_nm K_mm^+ K_mn.
        Matrix x = clusteredRows(600, 2, 21);
        Matrix repeated(1800, 2);
        for (Eigen::Index i = 0; i < repeated.rows(); ++i) {
            repeated.row(i) = x.row((i * 7) % 600);
        }
        KernelSpec spec = gaussian(0.05, BackendChoice::LowRank);
        spec.rank = 100;
        const KernelOperator k(repeated, spec);
        QCOMPARE(k.backend(), KernelBackend::Nystrom);
        // The plain formula through crossKernel (K_nm K_mm^+ K_mn between the rows themselves).
        const Matrix full = k.crossKernel(repeated, repeated);
        const Vector a = Vector::Random(repeated.rows());
        // K_mm^+ keeps eigenvalues down to 1e-8 of the largest: sums in another order agree to
        // about 1e-16 * 1e8.
        const Vector got = k.apply(a);
        const Vector want = full * a;
        QVERIFY2((got - want).norm() <= 1e-8 * want.norm(),
                 qPrintable(QString::number((got - want).norm() / want.norm())));
        QVERIFY((k.diagonal() - full.diagonal()).cwiseAbs().maxCoeff() <= 1e-8);
        const Matrix many = k.applyMany(Matrix::Ones(repeated.rows(), 2));
        QVERIFY((many.col(0) - full.rowwise().sum()).norm() <= 1e-8 * many.col(0).norm());
        // Rows far from every landmark are counted with their copies.
        Matrix landmarks;
        Vector c;
        QVERIFY(k.fieldAsKernelSum(a, &landmarks, &c));
        Eigen::Index uncovered = 0;
        for (Eigen::Index i = 0; i < repeated.rows(); ++i) {
            double best = 0.0;
            for (Eigen::Index m = 0; m < landmarks.rows(); ++m) {
                const double d2 = (repeated.row(i) - landmarks.row(m)).squaredNorm();
                best = std::max(best, std::exp(-d2 / (2.0 * 0.05 * 0.05)));
            }
            uncovered += best < 1e-6 ? 1 : 0;
        }
        QVERIFY(uncovered > 0);
        QCOMPARE(k.uncoveredRows(), uncovered);
    }

    void nystrom_inASweep_isTheFreshKernelBitForBit()
    {
        // A sweep's Nystroem kernels share landmarks, distinct rows and their distances (one
        // exp per length scale): the same K, to the bit, as one built alone.
        Matrix x = clusteredRows(900, 3, 8);
        Matrix repeated(2700, 3);
        for (Eigen::Index i = 0; i < repeated.rows(); ++i) {
            repeated.row(i) = x.row((i * 11) % 900);
        }
        const auto workspace = std::make_shared<SweepWorkspace>(
            repeated, repeated.topRows(3), SweepWorkspace::Precision::Single, false);
        const Vector a = Vector::Random(repeated.rows());
        for (const double l : {0.02, 0.2}) {
            KernelSpec spec = gaussian(l, BackendChoice::LowRank);
            spec.rank = 150;
            const KernelOperator shared(repeated, spec, workspace);
            const KernelOperator alone(repeated, spec);
            QCOMPARE(shared.apply(a), alone.apply(a));
            QCOMPARE(shared.diagonal(), alone.diagonal());
            QCOMPARE(shared.uncoveredRows(), alone.uncoveredRows());
        }
    }
};

QTEST_APPLESS_MAIN(TestSparseKernels)
#include "tst_sparse_kernels.moc"
