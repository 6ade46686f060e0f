// SPDX-License-Identifier: MIT
// Fig. 2 of the SOSREP paper: how well a density separates two clusters, against KDE.
#include "core/estimators/cluster_comparison.h"

#include "core/data/split.h"
#include "core/errors.h"

#include <algorithm>
#include <numeric>

namespace sosrep {

std::vector<double> runningMean(const std::vector<double>& v, int window)
{
    const int n = static_cast<int>(v.size());
    const int half = std::max(0, window / 2);
    std::vector<double> prefix(static_cast<size_t>(n) + 1, 0.0);
    for (int i = 0; i < n; ++i) {
        prefix[size_t(i) + 1] = prefix[size_t(i)] + v[size_t(i)];
    }
    std::vector<double> out(static_cast<size_t>(n));
    for (int i = 0; i < n; ++i) {
        const int a = std::max(0, i - half);
        const int b = std::min(n, i + half + 1);
        out[size_t(i)] = (prefix[size_t(b)] - prefix[size_t(a)]) / (b - a);
    }
    return out;
}

std::vector<double> histogram(const std::vector<double>& values, double lo, double hi, int bins)
{
    std::vector<double> counts(static_cast<size_t>(bins), 0.0);
    const double width = (hi - lo) / bins;
    for (double v : values) {
        const int b = width > 0 ? static_cast<int>((v - lo) / width) : 0;
        counts[size_t(std::clamp(b, 0, bins - 1))] += 1.0;
    }
    return counts;
}

ClusterComparison compareClusters(const FittedModel& first, const FittedModel& second,
                                  const MatrixRef& x, const Eigen::VectorXi& cluster, int window,
                                  int maxPairsPoints)
{
    std::vector<Eigen::Index> c1, c2;
    for (Eigen::Index i = 0; i < cluster.size(); ++i) {
        (cluster(i) == 0 ? c1 : c2).push_back(i);
    }
    if (c1.empty() || c2.empty()) {
        throw ParameterError("clusters", "both clusters need at least one row");
    }
    std::vector<Eigen::Index> order = c1;
    order.insert(order.end(), c2.begin(), c2.end());
    Matrix ordered(static_cast<Eigen::Index>(order.size()), x.cols());
    for (size_t k = 0; k < order.size(); ++k) {
        ordered.row(static_cast<Eigen::Index>(k)) = x.row(order[k]);
    }
    ClusterComparison out;
    out.cluster1Size = static_cast<int>(c1.size());
    auto shifted = [&](const FittedModel& m, std::vector<double>* curve, double* gap) {
        const Vector ld = m.logValues(ordered).values;
        const double mean1 = ld.head(out.cluster1Size).mean();
        const double mean2 = ld.tail(ld.size() - out.cluster1Size).mean();
        curve->resize(static_cast<size_t>(ld.size()));
        for (Eigen::Index i = 0; i < ld.size(); ++i) {
            (*curve)[size_t(i)] = ld(i) - mean1;
        }
        *gap = mean2 - mean1;
    };
    shifted(first, &out.first, &out.firstGap);
    shifted(second, &out.second, &out.secondGap);
    out.firstSmoothed = runningMean(out.first, window);
    out.secondSmoothed = runningMean(out.second, window);
    out.firstEstimator = first.estimator();
    out.secondEstimator = second.estimator();

    // Kernel values on (subsampled) clusters.
    auto subsample = [&](const std::vector<Eigen::Index>& idx, uint64_t seed) {
        const auto pick =
            subsampleRows(static_cast<Eigen::Index>(idx.size()), maxPairsPoints, seed);
        Matrix m(static_cast<Eigen::Index>(pick.size()), x.cols());
        for (size_t k = 0; k < pick.size(); ++k) {
            m.row(static_cast<Eigen::Index>(k)) = x.row(idx[size_t(pick[k])]);
        }
        return m;
    };
    const KernelOperator* kernel = first.kernel() ? first.kernel() : second.kernel();
    if (!kernel) {
        return out; // neither model has a kernel: no kernel values to show
    }
    const KernelOperator& k = *kernel;
    const Matrix a = subsample(c1, 1);
    const Matrix b = subsample(c2, 2);
    auto offDiagonal = [](const Matrix& kk, std::vector<double>* out) {
        for (Eigen::Index i = 0; i < kk.rows(); ++i) {
            for (Eigen::Index j = i + 1; j < kk.cols(); ++j) {
                out->push_back(kk(i, j));
            }
        }
    };
    offDiagonal(k.crossKernel(a, a), &out.within1);
    offDiagonal(k.crossKernel(b, b), &out.within2);
    const Matrix ab = k.crossKernel(a, b);
    out.between.assign(ab.data(), ab.data() + ab.size());
    return out;
}

} // namespace sosrep
