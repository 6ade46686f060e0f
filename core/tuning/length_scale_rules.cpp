// SPDX-License-Identifier: MIT
// Rule-of-thumb length scales: Scott, Silverman, median distances.
#include "core/tuning/length_scale_rules.h"

#include "core/data/split.h"
#include "core/util/float_mode.h"
#include "core/util/parallel_failure.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>
#include <vector>

namespace sosrep {
namespace {

double meanStdDev(const MatrixRef& x)
{
    if (x.rows() < 2) {
        return 1.0;
    }
    double total = 0.0;
    for (Eigen::Index j = 0; j < x.cols(); ++j) {
        const double mean = x.col(j).mean();
        total += std::sqrt((x.col(j).array() - mean).square().sum() / double(x.rows() - 1));
    }
    const double s = total / double(x.cols());
    return s > 0.0 ? s : 1.0;
}

bool weighted(const Vector& w)
{
    return w.size() > 0 && w.maxCoeff() != w.minCoeff();
}

/// meanStdDev with reliability weights (the header's formula).
double weightedMeanStdDev(const MatrixRef& x, const Vector& w)
{
    const double v1 = w.sum();
    const double v2 = w.squaredNorm();
    const double denominator = v1 - v2 / v1;
    if (!(denominator > 0.0)) {
        return 1.0; // one row carries all the weight: no spread
    }
    double total = 0.0;
    for (Eigen::Index j = 0; j < x.cols(); ++j) {
        const double mean = w.dot(x.col(j)) / v1;
        total += std::sqrt(w.dot((x.col(j).array() - mean).square().matrix()) / denominator);
    }
    const double s = total / double(x.cols());
    return s > 0.0 ? s : 1.0;
}

/// sigma and n of the rules: plain, or weighted with the effective n.
std::pair<double, double> spreadAndSize(const MatrixRef& x, const Vector& w)
{
    if (!weighted(w)) {
        return {meanStdDev(x), double(x.rows())};
    }
    return {weightedMeanStdDev(x, w), w.sum() * w.sum() / w.squaredNorm()};
}

} // namespace

double scottBandwidth(const MatrixRef& x, const Vector& weights)
{
    const double d = double(x.cols());
    const auto [sigma, n] = spreadAndSize(x, weights);
    return sigma * std::pow(n, -1.0 / (d + 4.0));
}

double silvermanBandwidth(const MatrixRef& x, const Vector& weights)
{
    const double d = double(x.cols());
    const auto [sigma, n] = spreadAndSize(x, weights);
    return sigma * std::pow(4.0 / (d + 2.0), 1.0 / (d + 4.0)) * std::pow(n, -1.0 / (d + 4.0));
}

double medianPairwiseDistance(const MatrixRef& x, int maxPoints, uint64_t seed)
{
    const auto rows = subsampleRows(x.rows(), maxPoints, seed);
    // The points as contiguous columns: a row of the column-major data is strided, and in
    // high dimension (1555 columns, InternetAds) the strided pairs took most of a fit's tuning.
    Matrix points(x.cols(), Eigen::Index(rows.size()));
    for (size_t a = 0; a < rows.size(); ++a) {
        points.col(Eigen::Index(a)) = x.row(rows[a]).transpose();
    }
    std::vector<double> dist;
    dist.reserve(rows.size() * (rows.size() - 1) / 2);
    for (Eigen::Index a = 0; a < points.cols(); ++a) {
        for (Eigen::Index b = a + 1; b < points.cols(); ++b) {
            dist.push_back((points.col(a) - points.col(b)).norm());
        }
    }
    if (dist.empty()) {
        return 1.0;
    }
    auto mid = dist.begin() + static_cast<long>(dist.size() / 2);
    std::nth_element(dist.begin(), mid, dist.end());
    return *mid > 0.0 ? *mid : 1.0;
}

double medianNearestNeighbourDistance(const MatrixRef& x, int maxPoints, uint64_t seed)
{
    const auto rows = subsampleRows(x.rows(), maxPoints, seed);
    const Matrix points = x.transpose(); // contiguous points (see medianPairwiseDistance)
    // Rows in parallel, each into its own slot: the same values in the same order.
    std::vector<double> all(rows.size(), std::numeric_limits<double>::infinity());
    ParallelFailure failure;
#pragma omp parallel
    {
        const FlushSubnormalsScope subnormalsFlushed;
#pragma omp for schedule(dynamic, 16)
        for (size_t i = 0; i < rows.size(); ++i) {
            failure.run([&] {
                const Eigen::Index a = rows[i];
                double best = std::numeric_limits<double>::infinity();
                for (Eigen::Index b = 0; b < points.cols(); ++b) {
                    const double d2 = (points.col(a) - points.col(b)).squaredNorm();
                    if (b != a && d2 > 0.0 && d2 < best) {
                        best = d2;
                    }
                }
                all[i] = best;
            });
        }
    }
    failure.rethrow();
    std::vector<double> nn;
    nn.reserve(rows.size());
    for (double best : all) {
        if (std::isfinite(best)) {
            nn.push_back(std::sqrt(best));
        }
    }
    if (nn.empty()) {
        return 0.0;
    }
    auto mid = nn.begin() + static_cast<long>(nn.size() / 2);
    std::nth_element(nn.begin(), mid, nn.end());
    return *mid;
}

} // namespace sosrep
