// SPDX-License-Identifier: MIT
// ROC curve, AUC-ROC and AUC-PR with ties handled.
#include "core/metrics/auc.h"

#include "core/errors.h"

#include <algorithm>
#include <numeric>
#include <vector>

namespace sosrep {
namespace {

void checkClasses(const VectorRef& scores, const Eigen::VectorXi& labels, long* pos, long* neg)
{
    if (scores.size() != labels.size()) {
        throw ParameterError("labels", "scores and labels differ in length");
    }
    *pos = (labels.array() != 0).count();
    *neg = labels.size() - *pos;
    if (*pos == 0 || *neg == 0) {
        throw ParameterError("labels", "AUC needs both normal (0) and anomalous (1) rows");
    }
}

std::vector<Eigen::Index> orderBy(const VectorRef& scores, bool descending)
{
    std::vector<Eigen::Index> idx(static_cast<size_t>(scores.size()));
    std::iota(idx.begin(), idx.end(), Eigen::Index(0));
    std::stable_sort(idx.begin(), idx.end(), [&](Eigen::Index a, Eigen::Index b) {
        return descending ? scores(a) > scores(b) : scores(a) < scores(b);
    });
    return idx;
}

} // namespace

double aucRoc(const VectorRef& scores, const Eigen::VectorXi& labels)
{
    long pos = 0;
    long neg = 0;
    checkClasses(scores, labels, &pos, &neg);
    const auto idx = orderBy(scores, false);
    double rankSumPos = 0.0;
    size_t i = 0;
    while (i < idx.size()) {
        size_t j = i;
        while (j + 1 < idx.size() && scores(idx[j + 1]) == scores(idx[i])) {
            ++j;
        }
        const double midRank = 0.5 * double(i + j) + 1.0; // 1-based ranks i+1..j+1
        for (size_t k = i; k <= j; ++k) {
            if (labels(idx[k]) != 0) {
                rankSumPos += midRank;
            }
        }
        i = j + 1;
    }
    return (rankSumPos - double(pos) * double(pos + 1) / 2.0) / (double(pos) * double(neg));
}

double aucPr(const VectorRef& scores, const Eigen::VectorXi& labels)
{
    long pos = 0;
    long neg = 0;
    checkClasses(scores, labels, &pos, &neg);
    const auto idx = orderBy(scores, true);
    double ap = 0.0;
    long tp = 0;
    long seen = 0;
    double prevRecall = 0.0;
    size_t i = 0;
    while (i < idx.size()) {
        size_t j = i;
        while (j + 1 < idx.size() && scores(idx[j + 1]) == scores(idx[i])) {
            ++j;
        }
        for (size_t k = i; k <= j; ++k) {
            tp += labels(idx[k]) != 0 ? 1 : 0;
            ++seen;
        }
        const double recall = double(tp) / double(pos);
        const double precision = double(tp) / double(seen);
        ap += (recall - prevRecall) * precision;
        prevRecall = recall;
        i = j + 1;
    }
    return ap;
}

RocCurve rocCurve(const VectorRef& scores, const Eigen::VectorXi& labels)
{
    long pos = 0;
    long neg = 0;
    checkClasses(scores, labels, &pos, &neg);
    const auto idx = orderBy(scores, true);
    RocCurve c;
    c.fpr.push_back(0.0);
    c.tpr.push_back(0.0);
    long tp = 0;
    long fp = 0;
    size_t i = 0;
    while (i < idx.size()) {
        size_t j = i;
        while (j + 1 < idx.size() && scores(idx[j + 1]) == scores(idx[i])) {
            ++j;
        }
        for (size_t k = i; k <= j; ++k) {
            (labels(idx[k]) != 0 ? tp : fp) += 1;
        }
        c.fpr.push_back(double(fp) / double(neg));
        c.tpr.push_back(double(tp) / double(pos));
        i = j + 1;
    }
    return c;
}

} // namespace sosrep
