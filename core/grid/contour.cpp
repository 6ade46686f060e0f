// SPDX-License-Identifier: MIT
// Marching squares: contour segments of a grid at a level.
#include "core/grid/contour.h"

#include <array>

namespace sosrep {

std::vector<ContourSegment> marchingSquares(const Matrix& values, const std::vector<double>& xs,
                                            const std::vector<double>& ys, double level)
{
    std::vector<ContourSegment> out;
    const Eigen::Index ny = values.rows();
    const Eigen::Index nx = values.cols();
    for (Eigen::Index j = 0; j + 1 < ny; ++j) {
        for (Eigen::Index i = 0; i + 1 < nx; ++i) {
            // Corners counter-clockwise from bottom-left: (i,j) (i+1,j) (i+1,j+1) (i,j+1).
            const std::array<double, 4> v = {values(j, i), values(j, i + 1), values(j + 1, i + 1),
                                             values(j + 1, i)};
            const std::array<double, 4> cx = {xs[size_t(i)], xs[size_t(i + 1)], xs[size_t(i + 1)],
                                              xs[size_t(i)]};
            const std::array<double, 4> cy = {ys[size_t(j)], ys[size_t(j)], ys[size_t(j + 1)],
                                              ys[size_t(j + 1)]};
            int mask = 0;
            for (int k = 0; k < 4; ++k) {
                mask |= (v[size_t(k)] >= level ? 1 : 0) << k;
            }
            if (mask == 0 || mask == 15) {
                continue;
            }
            // Crossing point on edge k (corner k to corner k+1).
            auto cross = [&](int k, double* x, double* y) {
                const int a = k;
                const int b = (k + 1) % 4;
                const double t = (level - v[size_t(a)]) / (v[size_t(b)] - v[size_t(a)]);
                *x = cx[size_t(a)] + t * (cx[size_t(b)] - cx[size_t(a)]);
                *y = cy[size_t(a)] + t * (cy[size_t(b)] - cy[size_t(a)]);
            };
            std::vector<int> edges;
            for (int k = 0; k < 4; ++k) {
                const bool ina = (mask >> k) & 1;
                const bool inb = (mask >> ((k + 1) % 4)) & 1;
                if (ina != inb) {
                    edges.push_back(k);
                }
            }
            // Two crossings: one segment. Four (saddle): pair edges by the centre value.
            if (edges.size() == 2) {
                ContourSegment s{};
                cross(edges[0], &s.x0, &s.y0);
                cross(edges[1], &s.x1, &s.y1);
                out.push_back(s);
            } else if (edges.size() == 4) {
                const double centre = 0.25 * (v[0] + v[1] + v[2] + v[3]);
                const bool centreIn = centre >= level;
                const bool corner0In = mask & 1;
                // If the centre agrees with corner 0, corner 0 is joined to the centre region:
                // cut off corners 1 and 3 (edges 0-1 and 2-3); else cut off corners 0 and 2.
                const std::array<std::array<int, 2>, 2> pairs =
                    centreIn == corner0In ? std::array<std::array<int, 2>, 2>{{{0, 1}, {2, 3}}}
                                          : std::array<std::array<int, 2>, 2>{{{3, 0}, {1, 2}}};
                for (const auto& p : pairs) {
                    ContourSegment s{};
                    cross(p[0], &s.x0, &s.y0);
                    cross(p[1], &s.x1, &s.y1);
                    out.push_back(s);
                }
            }
        }
    }
    return out;
}

} // namespace sosrep
