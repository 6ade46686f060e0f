// SPDX-License-Identifier: MIT
// How far a length scale reaches among the data's neighbours.
#include "core/tuning/neighbour_reach.h"

#include "core/data/split.h"
#include "core/errors.h"
#include "core/numerics/nearest_neighbours.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace sosrep {

double neighbourReach(const MatrixRef& reference, const MatrixRef& queryRows, int k, int maxQuery,
                      uint64_t seed)
{
    if (k < 2 || k > reference.rows()) {
        throw ParameterError("reach_neighbours", "must be between 2 and the " +
                                                     std::to_string(reference.rows()) +
                                                     " rows the tuning fits on");
    }
    if (queryRows.rows() < 1) {
        return 0.0;
    }
    const std::vector<Eigen::Index> rows = subsampleRows(queryRows.rows(), maxQuery, seed);
    Matrix query(Eigen::Index(rows.size()), queryRows.cols());
    for (size_t i = 0; i < rows.size(); ++i) {
        query.row(Eigen::Index(i)) = queryRows.row(rows[i]);
    }
    const Vector r1 = kthNeighbourDistances(reference, query, 1);
    const Vector rk = kthNeighbourDistances(reference, query, k);
    std::vector<double> reach(static_cast<size_t>(query.rows()));
    for (Eigen::Index i = 0; i < query.rows(); ++i) {
        reach[size_t(i)] = std::sqrt(std::max(0.0, rk(i) * rk(i) - r1(i) * r1(i)) / 2.0);
    }
    const size_t mid = reach.size() / 2;
    std::nth_element(reach.begin(), reach.begin() + long(mid), reach.end());
    return reach[mid];
}

} // namespace sosrep
