// SPDX-License-Identifier: MIT
// A row's score is a function of the row and the model only (core/numerics/row_blocks.h): the
// same bits whatever other rows are scored with it, for every registered estimator and every
// kernel back-end. Scores of 999 rows at once against chunks of 1, 7 and 250, and one row moved
// through every position of a block.
#include "core/data/toy_data.h"
#include "core/estimators/fit_settings.h"
#include "core/estimators/registry.h"
#include "core/numerics/row_blocks.h"
#include "core/pipeline/fit_route.h"
#include "support/random_arrays.h"
#include "support/sanitized.h"

#include <QtTest>

#include <cstring>
#include <string>
#include <utility>
#include <vector>

using namespace sosrep;

namespace {

using Overrides = std::vector<std::pair<std::string, std::string>>;

struct Case
{
    std::string name;
    std::string estimator;
    Overrides options;
};

/// Every estimator of the registry, and each kernel back-end of the kernel estimators.
std::vector<Case> cases()
{
    return {
        {"sosrep gaussian dense", "sosrep", {{"length_scale", "0.15"}}},
        {"sosrep laplace dense", "sosrep", {{"kernel", "laplace"}, {"length_scale", "0.2"}}},
        {"sosrep gaussian nystroem",
         "sosrep",
         {{"length_scale", "0.2"}, {"backend", "lowrank"}, {"rank", "60"}}},
        {"sosrep sdo features",
         "sosrep",
         {{"kernel", "sdo"}, {"length_scale", "0.1"}, {"features", "500"}}},
        {"sosrep sdo exact",
         "sosrep",
         {{"kernel", "sdo"}, {"sdo_method", "exact"}, {"length_scale", "0.1"}}},
        {"sosrep anomaly ensemble", "sosrep", {{"purpose", "anomaly"}, {"grid", "6"}}},
        {"kde gaussian", "kde", {{"length_scale", "0.1"}}},
        {"kde laplace", "kde", {{"kernel", "laplace"}, {"length_scale", "0.1"}}},
        {"kde sdo", "kde", {{"kernel", "sdo"}, {"length_scale", "0.1"}, {"features", "500"}}},
        {"kernel sos", "sos-mmd", {{"length_scale", "0.3"}}},
        {"iforest", "iforest", {}},
        {"knn", "knn", {}},
        {"fire", "fire", {}},
        {"ulsif", "ulsif", {}},
        {"tikde", "tikde", {}},
        {"sosrep ratio", "sosrep-ratio", {}},
    };
}

bool bitEqual(double a, double b)
{
    return std::memcmp(&a, &b, sizeof a) == 0;
}

/// The index of the first row whose bits differ, or -1.
Eigen::Index firstDifference(const Vector& a, const Vector& b)
{
    for (Eigen::Index i = 0; i < a.size(); ++i) {
        if (!bitEqual(a(i), b(i))) {
            return i;
        }
    }
    return -1;
}

Vector inChunks(const FittedModel& model, const Matrix& y, Eigen::Index chunk)
{
    Vector out(y.rows());
    for (Eigen::Index b = 0; b < y.rows(); b += chunk) {
        const Eigen::Index rows = std::min(chunk, y.rows() - b);
        out.segment(b, rows) = model.logValues(y.middleRows(b, rows)).values;
    }
    return out;
}

} // namespace

class TstBatchInvariance : public QObject
{
    Q_OBJECT

private slots:
    void paddedRowsRepeatsTheFirstRow()
    {
        const Matrix y = test::normalMatrix(10, 3, 1);
        const Matrix p = paddedRows(y, 8, 2, 5);
        QCOMPARE(p.rows(), Eigen::Index(5));
        QVERIFY(p.topRows(2) == y.bottomRows(2));
        for (Eigen::Index i = 2; i < 5; ++i) {
            QVERIFY(p.row(i) == y.row(8));
        }
    }

    void scoresDoNotDependOnTheBatch_data()
    {
        QTest::addColumn<int>("index");
        const std::vector<Case> all = cases();
        for (size_t i = 0; i < all.size(); ++i) {
            QTest::newRow(all[i].name.c_str()) << int(i);
        }
    }

    void scoresDoNotDependOnTheBatch()
    {
        QFETCH(int, index);
        const Case c = cases()[size_t(index)];
        ToyConfig toyConfig;
        toyConfig.kind = ToyKind::TwoMoons;
        toyConfig.n = 400;
        toyConfig.seed = 3;
        const Matrix x = generateToyData(toyConfig).x;
        // Scaled coordinates: the toy set's own span, with rows beyond it.
        const Matrix lo = x.colwise().minCoeff();
        const Matrix span = x.colwise().maxCoeff() - lo;
        Matrix scaled = x;
        for (Eigen::Index j = 0; j < x.cols(); ++j) {
            scaled.col(j) = (x.col(j).array() - lo(0, j)) / span(0, j);
        }
        Matrix second = scaled.array() * 0.8 + 0.1;

        FitSettings settings = FitSettings::defaults(c.estimator);
        for (const auto& [option, value] : c.options) {
            settings.values.set(option, value);
        }
        FitData data;
        data.train = scaled;
        data.source = "moons";
        if (EstimatorRegistry::instance().get(c.estimator).capabilities().needsSecondSample) {
            data.second = &second;
        }
        const FitOutcome fit = fitModel(data, settings);
        QVERIFY(fit.model);
        const FittedModel& model = *fit.model;

        // 999 rows: no multiple of any chunk or block (333 in the sanitizer job, likewise; a
        // batch below takes rows 1 to 300).
        Matrix y = test::normalMatrix(test::kSanitized ? 333 : 999, 2, 11) * 0.35;
        y.array() += 0.5;
        const Vector all = model.logValues(y).values;
        QVERIFY(all.allFinite());
        for (Eigen::Index chunk : {1, 7, 250}) {
            const Eigen::Index at = firstDifference(all, inChunks(model, y, chunk));
            QVERIFY2(at < 0,
                     qPrintable(QString("chunks of %1: row %2 differs").arg(chunk).arg(at)));
        }
        // One row at every position of a block of other rows (and of a batch's last, padded
        // block): its bits never change.
        const double alone = model.logValues(y.topRows(1)).values(0);
        // Every position; in the sanitizer job every 11th and those at block edges (where a
        // position's block and padding change), 10x fewer scorings of the same code.
        const auto checked = [](Eigen::Index p, Eigen::Index size) {
            const Eigen::Index within = p % kInvariantBlock;
            return !test::kSanitized || p % 11 == 0 || within <= 1 ||
                   within >= kInvariantBlock - 2 || p >= size - 2;
        };
        for (Eigen::Index size : {kInvariantBlock, Eigen::Index(300)}) {
            for (Eigen::Index p = 0; p < size; ++p) {
                if (!checked(p, size)) {
                    continue;
                }
                Matrix batch = y.middleRows(1, size);
                batch.row(p) = y.row(0);
                const double v = model.logValues(batch).values(p);
                QVERIFY2(bitEqual(v, alone), qPrintable(QString("position %1 of %2: %3 vs %4")
                                                            .arg(p)
                                                            .arg(size)
                                                            .arg(v, 0, 'g', 17)
                                                            .arg(alone, 0, 'g', 17)));
            }
        }
    }
};

QTEST_APPLESS_MAIN(TstBatchInvariance)
#include "tst_batch_invariance.moc"
