// SPDX-License-Identifier: MIT
// Tests of AUC-ROC and AUC-PR against hand-computed values.
#include "core/errors.h"
#include "core/metrics/auc.h"

#include <QtTest>

using namespace sosrep;

class TstAuc : public QObject
{
    Q_OBJECT

private slots:
    void aucRoc_handComputedWithTies()
    {
        // Scores (label): 0.1(0) 0.4(0) 0.35(1) 0.8(1) 0.4(1).
        // Pairs (pos, neg): 0.35>0.1 yes, 0.35>0.4 no; 0.8 beats both; 0.4>0.1 yes, 0.4=0.4 half.
        // Sum = 1 + 0 + 2 + 1 + 0.5 = 4.5 of 6 pairs.
        Vector s(5);
        s << 0.1, 0.4, 0.35, 0.8, 0.4;
        Eigen::VectorXi y(5);
        y << 0, 0, 1, 1, 1;
        QCOMPARE(aucRoc(s, y), 0.75);
    }

    void aucRoc_extremes()
    {
        Vector s(4);
        s << 1, 2, 3, 4;
        Eigen::VectorXi y(4);
        y << 0, 0, 1, 1;
        QCOMPARE(aucRoc(s, y), 1.0);
        QCOMPARE(aucRoc(-s, y), 0.0);
        QCOMPARE(aucRoc(Vector::Zero(4), y), 0.5); // all tied
    }

    void aucPr_handComputed()
    {
        // Ranked: 0.9(1) 0.8(0) 0.7(1) 0.1(0): precision at the two recalls 1 and 2/3.
        // AP = 0.5 * 1 + 0.5 * 2/3.
        Vector s(4);
        s << 0.9, 0.8, 0.7, 0.1;
        Eigen::VectorXi y(4);
        y << 1, 0, 1, 0;
        QVERIFY(std::abs(aucPr(s, y) - (0.5 + 1.0 / 3.0)) < 1e-15);
        // A tie between the first two: one threshold, precision 1/2 at recall 1/2.
        s << 0.9, 0.9, 0.7, 0.1;
        QVERIFY(std::abs(aucPr(s, y) - (0.25 + 0.5 * 2.0 / 3.0)) < 1e-15);
    }

    void auc_needsBothClasses()
    {
        Vector s(3);
        s << 1, 2, 3;
        QVERIFY_THROWS_EXCEPTION(ParameterError, aucRoc(s, Eigen::VectorXi::Zero(3)));
        QVERIFY_THROWS_EXCEPTION(ParameterError, aucPr(s, Eigen::VectorXi::Ones(3)));
    }
};

QTEST_APPLESS_MAIN(TstAuc)
#include "tst_auc.moc"
