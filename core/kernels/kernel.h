// SPDX-License-Identifier: MIT
// Kernel specs (Gaussian, Laplace, SDO), their normalizers and length-scale checks.
#pragma once

#include <Eigen/Core>

#include <cstdint>
#include <string>

namespace sosrep {

enum class KernelType
{
    Gaussian, // exp(-r^2 / (2 l^2))
    Laplace,  // exp(-r / l)
    Sdo       // single-derivative-order Sobolev kernel (arXiv eq. 11), a = l^(2m)
};

std::string toString(KernelType type);
KernelType kernelTypeFromString(const std::string& text); // throws ParameterError("kernel")

/// How the SDO kernel is evaluated (design.md section 2): random Fourier features (the paper's
/// eq. 12, back-end 1) or the exact radial profile tabulated by quadrature (back-end 2).
enum class SdoMethod
{
    Rff,
    Exact
};

std::string toString(SdoMethod method);
SdoMethod sdoMethodFromString(const std::string& text); // throws ParameterError("sdo_method")

/// How K is held for the solvers: dense N x N; sparse (Gaussian and Laplace: the entries above
/// KernelSpec::kSparseTolerance of the diagonal, found with a k-d tree); or low rank (Nystroem
/// landmarks for Gaussian, Laplace and exact SDO; random Fourier features for RFF SDO). Auto
/// picks per length scale by the predicted cost of a product: dense or sparse up to
/// kAutoDenseRows rows, sparse or low rank beyond (kernel_operator.h, issue 48).
enum class BackendChoice
{
    Auto,
    Dense,
    Sparse,
    LowRank
};

std::string toString(BackendChoice choice);
BackendChoice backendChoiceFromString(const std::string& text); // ParameterError("backend")

/// Everything that defines a kernel instance. One length scale l > 0 for every type
/// (design.md section 2); for SDO, a = l^(2m) and the random Fourier features are drawn from
/// `seed` (the same features for fitting and for every later evaluation).
struct KernelSpec
{
    KernelType type = KernelType::Gaussian;
    double lengthScale = 1.0;
    int sdoOrder = 0;    // m; 0 = default floor(d/2) + 1
    int features = 2000; // T, the number of random Fourier features (SDO with Rff)
    SdoMethod sdoMethod = SdoMethod::Rff;
    BackendChoice backend = BackendChoice::Auto;
    int rank = 1000; // Nystroem landmarks M of the low-rank back-end (drawn from `seed`)
    /// Largest N that Auto keeps dense: 15000^2 doubles are 1.8 GB, one product ~0.1 s.
    static constexpr int kAutoDenseRows = 15000;
    /// The sparse back-end leaves out entries below this fraction of the unit diagonal: pairs
    /// farther apart than truncationRadius(). A product then differs from the full one by at
    /// most 1e-16 times the sum of |coefficients| (docs/math.md).
    static constexpr double kSparseTolerance = 1e-16;
    uint64_t seed = 0;

    /// Upper bounds, refused up front (ParameterError naming the limit and why).
    static constexpr int kMaxFeatures = 100000; // each evaluation costs T cosines per point
    static constexpr int kMaxRank = 20000;      // the M x M eigendecomposition costs M^3
    static constexpr int kMaxSdoOrder = 4096;   // the SDO profile's poles crowd beyond
    /// The smallest length scale, relative to the data's diameter D (the diagonal of its
    /// bounding box): below 1e-8 D every kernel value between distinct rows underflows to 0 and
    /// the Fisher-divergence terms (which divide by l^4) overflow.
    static constexpr double kMinRelativeLengthScale = 1e-8;

    /// m actually used for dimension d; throws ParameterError("sdo_order") unless m > d/2.
    int effectiveOrder(int dim) const;
    void validate(int dim) const;
    /// Throws ParameterError("length_scale") below kMinRelativeLengthScale * diameter.
    void checkLengthScale(double diameter) const;
};

/// The distance beyond which a unit-diagonal kernel is below KernelSpec::kSparseTolerance:
/// l sqrt(2 ln(1/eps)) for Gaussian (8.58 l), l ln(1/eps) for Laplace (36.8 l). Infinite for SDO,
/// whose profile has no such bound (its tail oscillates), so SDO is never held sparse.
double truncationRadius(const KernelSpec& spec);

/// Diagonal of the bounding box of the rows of x: an upper bound of every pairwise distance.
double boundingDiameter(const Eigen::Ref<const Eigen::MatrixXd>& x);

/// log of the KDE normalizer Z_l, the integral of k(x, .) in the kernel's own units
/// (design.md section 3): Gaussian (2 pi l^2)^(d/2); Laplace l^d Gamma(d) 2 pi^(d/2) / Gamma(d/2);
/// SDO 0 (the SDO kernel integrates to 1 as it is).
double logKdeNormalizer(const KernelSpec& spec, int dim);

/// log k(x, x) of the kernel in its own units: 0 for Gaussian and Laplace, log g^a(0) for SDO.
/// The solvers work with k / k(x, x) (unit diagonal, design.md section 1).
double logKernelDiagonal(const KernelSpec& spec, int dim);

} // namespace sosrep
