// SPDX-License-Identifier: MIT
#include "core/numerics/nearest_neighbours.h"

#include "core/numerics/distances.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

namespace sosrep {

Vector kthNeighbourDistances(const MatrixRef& reference, const MatrixRef& query, int k)
{
    if (k < 1 || k > reference.rows()) {
        throw std::invalid_argument("kthNeighbourDistances: k must be within 1..reference rows");
    }
    constexpr Eigen::Index kBlock = 256; // 256 x n doubles per block: bounded memory
    // The product's round-off can swap near-ties in the order, so a few extra candidates are
    // re-measured exactly.
    const Eigen::Index candidates = std::min<Eigen::Index>(reference.rows(), k + 8);
    Vector out(query.rows());
    const Eigen::Index blocks = (query.rows() + kBlock - 1) / kBlock;
#pragma omp parallel for schedule(dynamic)
    for (Eigen::Index b = 0; b < blocks; ++b) {
        const Eigen::Index begin = b * kBlock;
        const Eigen::Index rows = std::min(kBlock, query.rows() - begin);
        const Matrix d2 = squaredDistances(query.middleRows(begin, rows), reference);
        std::vector<Eigen::Index> order(static_cast<size_t>(reference.rows()));
        std::vector<double> exact(static_cast<size_t>(candidates));
        for (Eigen::Index i = 0; i < rows; ++i) {
            for (size_t j = 0; j < order.size(); ++j) {
                order[j] = static_cast<Eigen::Index>(j);
            }
            std::nth_element(order.begin(), order.begin() + (candidates - 1), order.end(),
                             [&](Eigen::Index p, Eigen::Index q) { return d2(i, p) < d2(i, q); });
            for (Eigen::Index c = 0; c < candidates; ++c) {
                exact[static_cast<size_t>(c)] =
                    (query.row(begin + i) - reference.row(order[static_cast<size_t>(c)]))
                        .squaredNorm();
            }
            std::nth_element(exact.begin(), exact.begin() + (k - 1), exact.end());
            out(begin + i) = std::sqrt(exact[static_cast<size_t>(k - 1)]);
        }
    }
    return out;
}

} // namespace sosrep
