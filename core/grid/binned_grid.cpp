// SPDX-License-Identifier: MIT
// Fast radial kernel sums on a grid by binning, used only where they are accurate.
#include "core/grid/binned_grid.h"

#include "core/util/float_mode.h"
#include "core/util/parallel_failure.h"

#include <unsupported/Eigen/FFT>

#include <algorithm>
#include <cmath>
#include <complex>
#include <vector>

namespace sosrep {
namespace {

using ComplexMatrix = Eigen::Matrix<std::complex<double>, Eigen::Dynamic, Eigen::Dynamic>;

int nextPowerOfTwo(int n)
{
    int p = 1;
    while (p < n) {
        p *= 2;
    }
    return p;
}

/// FFTs of the first `count` columns, parallel with one plan per thread (columns are
/// contiguous); the other columns are zero on input or not needed on output.
void fftColumns(ComplexMatrix& a, bool inverse, Eigen::Index count)
{
    const Eigen::Index rows = a.rows();
    ParallelFailure failure;
#pragma omp parallel
    {
        const FlushSubnormalsScope subnormalsFlushed;
        Eigen::FFT<double> fft;
        std::vector<std::complex<double>> out;
        failure.run([&] { out.resize(static_cast<size_t>(rows)); });
#pragma omp for schedule(static)
        for (Eigen::Index c = 0; c < count; ++c) {
            failure.run([&] {
                if (inverse) {
                    fft.inv(out.data(), a.col(c).data(), rows);
                } else {
                    fft.fwd(out.data(), a.col(c).data(), rows);
                }
                std::copy(out.begin(), out.end(), a.col(c).data());
            });
        }
    }
    failure.rethrow();
}

/// 2-D FFT as columns, transpose, columns: the result is the transform *transposed*. Products
/// of spectra do not care, and the inverse applied to a transposed spectrum returns the
/// original orientation, so the transposes cost one copy instead of strided row passes.
/// `firstColumns`: columns that can be non-zero on input (forward); `lastColumns`: columns
/// needed on output (inverse).
void fft2(ComplexMatrix& a, bool inverse, Eigen::Index firstColumns, Eigen::Index lastColumns)
{
    fftColumns(a, inverse, firstColumns);
    a = a.transpose().eval();
    fftColumns(a, inverse, lastColumns);
}

struct BinnedPoint
{
    double x, y, w, t, s; // position, weight, fractional offsets in the cell
    int i0, j0;           // lower-left node of the cell
};

/// Kernel tables over node offsets (a, b), a in (-nx, nx), stored at (a mod P, b mod Q).
struct OffsetTables
{
    Matrix k, kxx, kyy;
    int p = 0, q = 0;
    double at(const Matrix& m, int a, int b) const { return m((a % p + p) % p, (b % q + q) % q); }
};

/// The points binned bilinearly onto the grid's nodes, with each point's binning variance
/// per axis.
struct Binned
{
    std::vector<BinnedPoint> points;
    std::vector<std::vector<int>> cells; // points by the cell of their lower-left node
    Matrix w, vx, vy;                    // binned weights and weighted variances per node
};

/// Returns false when a point lies outside the grid's nodes.
bool binPoints(const Matrix& x, const Vector& w, const GridSpec& spec, double hx, double hy,
               Binned* out)
{
    const int nx = spec.nx;
    const int ny = spec.ny;
    out->points.resize(static_cast<size_t>(x.rows()));
    out->cells.assign(static_cast<size_t>(nx) * ny, {});
    out->w = Matrix::Zero(nx, ny);
    out->vx = Matrix::Zero(nx, ny);
    out->vy = Matrix::Zero(nx, ny);
    for (Eigen::Index n = 0; n < x.rows(); ++n) {
        BinnedPoint& pt = out->points[static_cast<size_t>(n)];
        pt.x = x(n, spec.xColumn);
        pt.y = x(n, spec.yColumn);
        pt.w = w(n);
        const double u = (pt.x - spec.x(0)) / hx;
        const double v = (pt.y - spec.y(0)) / hy;
        if (!(u >= 0.0 && u <= nx - 1.0 && v >= 0.0 && v <= ny - 1.0)) {
            return false;
        }
        pt.i0 = std::min(static_cast<int>(u), nx - 2);
        pt.j0 = std::min(static_cast<int>(v), ny - 2);
        pt.t = u - pt.i0;
        pt.s = v - pt.j0;
        const double c[4] = {(1 - pt.t) * (1 - pt.s), pt.t * (1 - pt.s), (1 - pt.t) * pt.s,
                             pt.t * pt.s};
        const double varX = pt.t * (1 - pt.t) * hx * hx;
        const double varY = pt.s * (1 - pt.s) * hy * hy;
        for (int corner = 0; corner < 4; ++corner) {
            const int i = pt.i0 + (corner & 1);
            const int j = pt.j0 + (corner >> 1);
            out->w(i, j) += pt.w * c[corner];
            out->vx(i, j) += pt.w * c[corner] * varX;
            out->vy(i, j) += pt.w * c[corner] * varY;
        }
        out->cells[static_cast<size_t>(pt.i0) * ny + pt.j0].push_back(static_cast<int>(n));
    }
    return true;
}

/// k, k_xx and k_yy at every node offset: k_xx = k'' c^2 + (k' / r)(1 - c^2), c = dx / r.
OffsetTables offsetTables(const KernelOperator& op, int nx, int ny, double hx, double hy)
{
    OffsetTables tab;
    tab.p = nextPowerOfTwo(2 * nx - 1);
    tab.q = nextPowerOfTwo(2 * ny - 1);
    tab.k = Matrix::Zero(tab.p, tab.q);
    tab.kxx = Matrix::Zero(tab.p, tab.q);
    tab.kyy = Matrix::Zero(tab.p, tab.q);
    ParallelFailure failure;
#pragma omp parallel
    {
        const FlushSubnormalsScope subnormalsFlushed;
#pragma omp for schedule(static)
        for (int a = -(nx - 1); a <= nx - 1; ++a) {
            failure.run([&] {
                for (int b = -(ny - 1); b <= ny - 1; ++b) {
                    const double dx = a * hx;
                    const double dy = b * hy;
                    const double r = std::hypot(dx, dy);
                    double k = 0.0, dk = 0.0, d2k = 0.0;
                    op.radialProfile(r, k, dk, d2k);
                    const int ia = (a + tab.p) % tab.p;
                    const int ib = (b + tab.q) % tab.q;
                    tab.k(ia, ib) = k;
                    if (r > 0.0) {
                        const double cx = dx * dx / (r * r);
                        const double cy = dy * dy / (r * r);
                        tab.kxx(ia, ib) = d2k * cx + dk / r * (1.0 - cx);
                        tab.kyy(ia, ib) = d2k * cy + dk / r * (1.0 - cy);
                    }
                }
            });
        }
    }
    failure.rethrow();
    return tab;
}

/// The far field by FFT: S = W^ K^ - (Vx^ Kxx^ + Vy^ Kyy^) / 2. The six real inputs go through
/// three complex transforms, two at a time (a + i b), split by symmetry afterwards.
Matrix farField(const Binned& bin, const OffsetTables& tab, int nx, int ny)
{
    auto packed = [&](const Matrix& a, const Matrix& b) {
        ComplexMatrix c = ComplexMatrix::Zero(tab.p, tab.q);
        c.topLeftCorner(a.rows(), a.cols()).real() = a;
        c.topLeftCorner(b.rows(), b.cols()).imag() = b;
        fft2(c, false, std::max(a.cols(), b.cols()), tab.p);
        return c;
    };
    // X = FFT(a + i b): A(k) = (X(k) + conj X(-k)) / 2, B(k) = (X(k) - conj X(-k)) / 2i.
    auto split = [&](const ComplexMatrix& x, ComplexMatrix& a, ComplexMatrix& b) {
        const Eigen::Index p = x.rows(); // spectra are transposed (see fft2)
        const Eigen::Index q = x.cols();
        a.resize(p, q);
        b.resize(p, q);
        for (Eigen::Index u = 0; u < p; ++u) {
            for (Eigen::Index v = 0; v < q; ++v) {
                const std::complex<double> mirror = std::conj(x((p - u) % p, (q - v) % q));
                a(u, v) = 0.5 * (x(u, v) + mirror);
                b(u, v) = std::complex<double>(0.0, -0.5) * (x(u, v) - mirror);
            }
        }
    };
    ComplexMatrix wHat, vxHat, vyHat, kHat, kxxHat, kyyHat;
    split(packed(bin.w, bin.vx), wHat, vxHat);
    split(packed(bin.vy, tab.k), vyHat, kHat);
    split(packed(tab.kxx, tab.kyy), kxxHat, kyyHat);
    ComplexMatrix spectrum =
        wHat.cwiseProduct(kHat) - 0.5 * (vxHat.cwiseProduct(kxxHat) + vyHat.cwiseProduct(kyyHat));
    fft2(spectrum, true, spectrum.cols(), ny);
    return spectrum.topLeftCorner(nx, ny).real();
}

/// The near field: points within two cells of a node are summed exactly there, their binned
/// approximation (with the same tables) taken out.
void addNearField(Matrix& field, const Binned& bin, const OffsetTables& tab,
                  const KernelOperator& op, const GridSpec& spec, double hx, double hy)
{
    const int nx = spec.nx;
    const int ny = spec.ny;
    constexpr int reach = 2;
    ParallelFailure failure;
#pragma omp parallel
    {
        const FlushSubnormalsScope subnormalsFlushed;
#pragma omp for schedule(dynamic, 4)
        for (int i = 0; i < nx; ++i) {
            failure.run([&] {
                for (int j = 0; j < ny; ++j) {
                    double correction = 0.0;
                    for (int ci = std::max(0, i - reach); ci <= std::min(nx - 2, i + reach - 1);
                         ++ci) {
                        for (int cj = std::max(0, j - reach); cj <= std::min(ny - 2, j + reach - 1);
                             ++cj) {
                            for (const int n : bin.cells[static_cast<size_t>(ci) * ny + cj]) {
                                const BinnedPoint& pt = bin.points[static_cast<size_t>(n)];
                                double k = 0.0, dk = 0.0, d2k = 0.0;
                                op.radialProfile(std::hypot(spec.x(i) - pt.x, spec.y(j) - pt.y), k,
                                                 dk, d2k);
                                const double c[4] = {(1 - pt.t) * (1 - pt.s), pt.t * (1 - pt.s),
                                                     (1 - pt.t) * pt.s, pt.t * pt.s};
                                const double varX = pt.t * (1 - pt.t) * hx * hx;
                                const double varY = pt.s * (1 - pt.s) * hy * hy;
                                double binned = 0.0;
                                for (int corner = 0; corner < 4; ++corner) {
                                    const int a = i - (pt.i0 + (corner & 1));
                                    const int b = j - (pt.j0 + (corner >> 1));
                                    binned += c[corner] * (tab.at(tab.k, a, b) -
                                                           0.5 * (varX * tab.at(tab.kxx, a, b) +
                                                                  varY * tab.at(tab.kyy, a, b)));
                                }
                                correction += pt.w * (k - binned);
                            }
                        }
                    }
                    field(i, j) += correction;
                }
            });
        }
    }
    failure.rethrow();
}

/// Checks the grid against exact evaluation where p >= 1e-3 of its maximum (at most about 128
/// nodes): every relative error within 5e-4.
bool agreesWithExact(const KernelFieldModel& model, const GridSpec& spec, const DensityGrid& g)
{
    const double top = g.logDensity.maxCoeff();
    std::vector<std::pair<int, int>> nodes;
    for (int i = 0; i < spec.nx; ++i) {
        for (int j = 0; j < spec.ny; ++j) {
            if (g.logDensity(j, i) >= top + std::log(1e-3)) {
                nodes.emplace_back(i, j);
            }
        }
    }
    const size_t stride = std::max<size_t>(1, nodes.size() / 64);
    Matrix probes(static_cast<Eigen::Index>((nodes.size() + stride - 1) / stride), 2);
    for (size_t m = 0; m < nodes.size(); m += stride) {
        probes(static_cast<Eigen::Index>(m / stride), spec.xColumn) = spec.x(nodes[m].first);
        probes(static_cast<Eigen::Index>(m / stride), spec.yColumn) = spec.y(nodes[m].second);
    }
    const LogDensity exact = model.modelLogValues(probes); // the grid's units
    for (Eigen::Index m = 0; m < probes.rows(); ++m) {
        const auto& node = nodes[static_cast<size_t>(m) * stride];
        const double diff = g.logDensity(node.second, node.first) - exact.values(m);
        if (!(std::abs(std::expm1(diff)) <= 5e-4)) {
            return false;
        }
    }
    return true;
}

} // namespace

bool evaluateBinnedRadial(const KernelFieldModel& model, const GridSpec& spec, DensityGrid* out)
{
    const KernelOperator& op = *model.kernel();
    double probe[3];
    if (op.backend() != KernelBackend::Dense || op.dim() != 2 || spec.nx < 2 || spec.ny < 2 ||
        spec.xColumn == spec.yColumn || !op.radialProfile(1.0, probe[0], probe[1], probe[2])) {
        return false;
    }
    const double hx = (spec.xMax - spec.xMin) / spec.nx;
    const double hy = (spec.yMax - spec.yMin) / spec.ny;
    Binned bin;
    if (!binPoints(op.train(), model.weights(), spec, hx, hy, &bin)) {
        return false; // a point outside the grid's nodes
    }
    const OffsetTables tab = offsetTables(op, spec.nx, spec.ny, hx, hy);
    Matrix field = farField(bin, tab, spec.nx, spec.ny);
    addNearField(field, bin, tab, op, spec, hx, hy);

    DensityGrid result;
    result.spec = spec;
    result.logDensity.resize(spec.ny, spec.nx);
    const double offset = model.logOffset();
    for (int i = 0; i < spec.nx; ++i) {
        for (int j = 0; j < spec.ny; ++j) {
            result.logDensity(j, i) = model.logFromField(field(i, j), 0.0, offset, &result.floored);
        }
    }
    if (!agreesWithExact(model, spec, result)) {
        return false;
    }
    *out = std::move(result);
    return true;
}

} // namespace sosrep
