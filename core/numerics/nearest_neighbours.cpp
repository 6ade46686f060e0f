// SPDX-License-Identifier: MIT
// k-th nearest-neighbour distances.
#include "core/numerics/nearest_neighbours.h"

#include "core/numerics/distances.h"
#include "core/util/float_mode.h"
#include "core/util/parallel_failure.h"

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
    return nearestNeighbours(reference, query, k).distances.col(k - 1);
}

NeighbourLists nearestNeighbours(const MatrixRef& reference, const MatrixRef& query, int k,
                                 bool skipSameRow)
{
    const Eigen::Index available = reference.rows() - (skipSameRow ? 1 : 0);
    if (k < 1 || k > available || (skipSameRow && query.rows() != reference.rows())) {
        throw std::invalid_argument("nearestNeighbours: k must be within 1..reference rows");
    }
    constexpr Eigen::Index kBlock = 256;
    constexpr Eigen::Index kReferenceChunk = 8192; // 256 x 8192 distances: 16 MB
    // Extra candidates are re-measured exactly (round-off in the product can swap near-ties),
    // and one more for the row itself when it is skipped.
    const Eigen::Index candidates =
        std::min<Eigen::Index>(reference.rows(), k + 8 + (skipSameRow ? 1 : 0));
    NeighbourLists out;
    out.distances.resize(query.rows(), k);
    out.index.resize(query.rows(), k);
    const Eigen::Index blocks = (query.rows() + kBlock - 1) / kBlock;
    ParallelFailure failure;
#pragma omp parallel
    {
        const FlushSubnormalsScope subnormalsFlushed;
        // One chunk of distances per thread, reused: allocated per chunk, 16 MB mapped afresh
        // each time cost a 100 000-row fit from Python 14 s of page faults (distances.h).
        Matrix d2;
#pragma omp for schedule(dynamic)
        for (Eigen::Index b = 0; b < blocks; ++b) {
            failure.run([&] {
                const Eigen::Index begin = b * kBlock;
                const Eigen::Index rows = std::min(kBlock, query.rows() - begin);
                // The reference in chunks, each query's candidates kept in its heap across them: a
                // block of distances to every reference row was 400 MB at 196 000 rows (all of
                // skin), mapped and zeroed afresh for each block of queries.
                std::vector<std::vector<std::pair<double, Eigen::Index>>> heaps(
                    static_cast<size_t>(rows));
                for (Eigen::Index c = 0; c < reference.rows(); c += kReferenceChunk) {
                    const Eigen::Index len = std::min(kReferenceChunk, reference.rows() - c);
                    squaredDistancesInto(reference.middleRows(c, len),
                                         query.middleRows(begin, rows), d2);
                    for (Eigen::Index i = 0; i < rows; ++i) {
                        const double* column = d2.col(i).data();
                        std::vector<std::pair<double, Eigen::Index>>& nearest = heaps[size_t(i)];
                        for (Eigen::Index p = 0; p < len; ++p) {
                            const std::pair<double, Eigen::Index> here{column[p], c + p};
                            if (Eigen::Index(nearest.size()) < candidates) {
                                nearest.push_back(here);
                                std::push_heap(nearest.begin(), nearest.end());
                            } else if (here < nearest.front()) {
                                std::pop_heap(nearest.begin(), nearest.end());
                                nearest.back() = here;
                                std::push_heap(nearest.begin(), nearest.end());
                            }
                        }
                    }
                }
                for (Eigen::Index i = 0; i < rows; ++i) {
                    std::vector<std::pair<double, Eigen::Index>>& nearest = heaps[size_t(i)];
                    for (auto& [d, p] : nearest) {
                        d = (query.row(begin + i) - reference.row(p)).squaredNorm();
                    }
                    std::sort(nearest.begin(), nearest.end());
                    Eigen::Index taken = 0;
                    for (const auto& [d, p] : nearest) {
                        if (taken == k) {
                            break;
                        }
                        if (skipSameRow && p == begin + i) {
                            continue;
                        }
                        out.distances(begin + i, taken) = std::sqrt(d);
                        out.index(begin + i, taken) = p;
                        ++taken;
                    }
                }
            });
        }
    }
    failure.rethrow();
    return out;
}

} // namespace sosrep
