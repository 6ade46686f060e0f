// SPDX-License-Identifier: MIT
// The generators ADBench's protocol is written in (issue 51), checked against the published
// MT19937 outputs and against values the real NumPy 1.24 and Python 3.11 give for the same
// seeds (printed by the one-liners beside each case). The whole generator is checked against
// NumPy, scikit-learn and Python themselves in tests/python/test_adbench_protocol.py.
#include "core/data/adbench_generator.h"
#include "core/data/reference_random.h"

#include <QtTest>

using namespace sosrep;
using Rows = std::vector<Eigen::Index>;

class TstReferenceRandom : public QObject
{
    Q_OBJECT

private slots:
    void mersenneTwisterMatchesItsReference()
    {
        Mt19937 byWord(5489U); // the reference code's default seed
        QCOMPARE(byWord.next(), 3499211612U);
        // mt19937ar.out, the authors' test: init_by_array({0x123, 0x234, 0x345, 0x456}).
        Mt19937 byArray = Mt19937::byArray({0x123, 0x234, 0x345, 0x456});
        QCOMPARE(byArray.next(), 1067595299U);
        QCOMPARE(byArray.next(), 955945823U);
    }

    void numpysLegacyDraws()
    {
        NumpyLegacyRandom a(42); // np.random.seed(42); np.random.randint(0, 10, 5)
        QCOMPARE(a.randint(10, 5), (Rows{6, 3, 7, 4, 6}));
        NumpyLegacyRandom b(0); // np.random.seed(0); np.random.permutation(10)
        QCOMPARE(b.permutation(10), (Rows{2, 8, 4, 9, 1, 6, 7, 3, 0, 5}));
        NumpyLegacyRandom c(7); // np.random.seed(7); np.random.choice(np.arange(1000), 5)
        QCOMPARE(c.randint(1000, 5), (Rows{175, 196, 537, 502, 579}));
    }

    void pythonsShuffle()
    {
        Rows x{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}; // random.seed(42); random.shuffle(x)
        PythonRandom(42).shuffle(x);
        QCOMPARE(x, (Rows{7, 3, 2, 8, 5, 6, 9, 4, 0, 1}));
        Rows y{0, 1, 2, 3, 4, 5}; // random.seed(2**40 + 3): a seed of two 32-bit words
        PythonRandom((uint64_t(1) << 40) + 3).shuffle(y);
        QCOMPARE(y, (Rows{3, 5, 2, 4, 0, 1}));
    }

    void generatorCountsAreScikitLearns()
    {
        // 1801 rows, 900 anomalies: ceil(0.3 x 1801) = 541 test rows; 1260 training rows
        // split 630/630 by _approximate_mode (equal remainders: a tie, broken by a draw).
        Eigen::VectorXi labels = Eigen::VectorXi::Zero(1801);
        labels.head(900).setOnes();
        AdbenchGeneratorOptions g;
        const AdbenchParts p = adbenchParts(labels, 3, g);
        QCOMPARE(p.train.size(), size_t(1260));
        QCOMPARE(p.test.size(), size_t(541));
        Eigen::Index trainAnomalies = 0;
        for (Eigen::Index r : p.train) {
            trainAnomalies += labels(r);
        }
        QCOMPARE(trainAnomalies, Eigen::Index(630));
        // A small set is redrawn to 1000 rows unless the authors' loader is asked for.
        const Eigen::VectorXi small = labels.head(1000).tail(237);
        QCOMPARE(adbenchParts(small, 1, g).train.size() + adbenchParts(small, 1, g).test.size(),
                 size_t(1000));
        g.resampleSmall = false;
        QCOMPARE(adbenchParts(small, 1, g).test.size(), size_t(72)); // ceil(0.3 x 237)
        // A set without anomalies splits as scikit-learn's one-class stratify does (the run
        // then says the split has no AUC), rather than failing.
        const AdbenchParts one = adbenchParts(Eigen::VectorXi::Zero(1200), 1, g);
        QCOMPARE(one.test.size(), size_t(360));
        QCOMPARE(one.train.size(), size_t(840));
        // Duplicated anomalies: floor(5 x anomalies) of each part, drawn with replacement.
        g.duplicateTimes = 5;
        const AdbenchParts d = adbenchParts(labels, 3, g);
        QCOMPARE(d.train.size(), size_t(630 + 5 * 630));
    }
};

QTEST_MAIN(TstReferenceRandom)
#include "tst_reference_random.moc"
