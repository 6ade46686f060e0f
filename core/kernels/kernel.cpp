// SPDX-License-Identifier: MIT
// Kernel specs (Gaussian, Laplace, SDO), their normalizers and length-scale checks.
#include "core/kernels/kernel.h"

#include "core/errors.h"
#include "core/kernels/sdo_profile.h"
#include "core/util/text.h"

#include <cmath>
#include <cstdio>
#include <limits>

namespace sosrep {

std::string toString(KernelType type)
{
    switch (type) {
    case KernelType::Gaussian:
        return "gaussian";
    case KernelType::Laplace:
        return "laplace";
    case KernelType::Sdo:
        return "sdo";
    }
    return "gaussian";
}

KernelType kernelTypeFromString(const std::string& text)
{
    if (text == "gaussian") {
        return KernelType::Gaussian;
    }
    if (text == "laplace") {
        return KernelType::Laplace;
    }
    if (text == "sdo") {
        return KernelType::Sdo;
    }
    throw ParameterError("kernel",
                         "unknown kernel " + quotedText(text) + " (use gaussian, laplace or sdo)");
}

std::string toString(SdoMethod method)
{
    return method == SdoMethod::Exact ? "exact" : "rff";
}

SdoMethod sdoMethodFromString(const std::string& text)
{
    if (text == "rff") {
        return SdoMethod::Rff;
    }
    if (text == "exact") {
        return SdoMethod::Exact;
    }
    throw ParameterError("sdo_method",
                         "unknown SDO method " + quotedText(text) + " (use rff or exact)");
}

std::string toString(BackendChoice choice)
{
    switch (choice) {
    case BackendChoice::Auto:
        return "auto";
    case BackendChoice::Dense:
        return "dense";
    case BackendChoice::Sparse:
        return "sparse";
    case BackendChoice::LowRank:
        return "lowrank";
    }
    return "auto";
}

BackendChoice backendChoiceFromString(const std::string& text)
{
    if (text == "auto") {
        return BackendChoice::Auto;
    }
    if (text == "dense") {
        return BackendChoice::Dense;
    }
    if (text == "sparse") {
        return BackendChoice::Sparse;
    }
    if (text == "lowrank") {
        return BackendChoice::LowRank;
    }
    throw ParameterError("backend", "unknown backend " + quotedText(text) +
                                        " (use auto, dense, sparse or lowrank)");
}

int KernelSpec::effectiveOrder(int dim) const
{
    const int m = sdoOrder > 0 ? sdoOrder : dim / 2 + 1;
    if (2 * m <= dim) {
        throw ParameterError("sdo_order", "SDO order m = " + std::to_string(m) +
                                              " must exceed d/2 = " + numberText(dim / 2.0) +
                                              " (else the kernel is infinite)");
    }
    return m;
}

namespace {

/// The largest length scale any kernel takes (scaled data span about 1).
constexpr double kMaxLengthScale = 1e100;

} // namespace

void KernelSpec::validate(int dim) const
{
    if (!(lengthScale > 0.0) || !std::isfinite(lengthScale)) {
        throw ParameterError("length_scale", "must be a positive finite number");
    }
    // Also in a model file, where there is no data to compare with: past this, powers of l in
    // the SDO kernel's normalizer leave double precision (l = 1e307 gave MMD^2 = nan).
    if (lengthScale > kMaxLengthScale) {
        throw ParameterError("length_scale", numberText(lengthScale, 6) + " is above " +
                                                 numberText(kMaxLengthScale, 3));
    }
    if (rank < 1 || rank > kMaxRank) {
        throw ParameterError("rank", "must lie in [1, " + std::to_string(kMaxRank) +
                                         "]: the M x M eigendecomposition costs M^3");
    }
    if (sdoOrder < 0 || sdoOrder > kMaxSdoOrder) {
        throw ParameterError("sdo_order", "must lie in [0, " + std::to_string(kMaxSdoOrder) +
                                              "] (0 = floor(d/2) + 1)");
    }
    if (features < 1 || features > kMaxFeatures) {
        throw ParameterError("features",
                             "must lie in [1, " + std::to_string(kMaxFeatures) +
                                 "]: every evaluation costs T cosines per point, and 2000 "
                                 "already approximate the kernel to about 2 %");
    }
    if (type == KernelType::Sdo) {
        effectiveOrder(dim);
        if (backend == BackendChoice::Sparse) {
            throw ParameterError("backend", "sparse needs the gaussian or laplace kernel: the sdo "
                                            "kernel's tail oscillates and has no radius beyond "
                                            "which it is negligible");
        }
    }
}

void KernelSpec::checkLengthScale(double diameter) const
{
    const double floor = kMinRelativeLengthScale * diameter;
    if (lengthScale < floor) {
        throw ParameterError("length_scale",
                             numberText(lengthScale, 6) + " is below 1e-8 x the data's diameter (" +
                                 numberText(diameter, 6) +
                                 "): kernel values between distinct rows underflow to 0 and the "
                                 "Fisher divergence overflows; use at least " +
                                 numberText(floor, 3));
    }
    // The mirror image: a kernel flat to rounding over the data (kernel.h's lower bound, above).
    const double ceiling = diameter / kMinRelativeLengthScale;
    if (diameter > 0.0 && lengthScale > ceiling) {
        throw ParameterError("length_scale",
                             numberText(lengthScale, 6) + " is above 1e8 x the data's diameter (" +
                                 numberText(diameter, 6) +
                                 "): every kernel value between rows is 1 to rounding; use at "
                                 "most " +
                                 numberText(ceiling, 3));
    }
}

double truncationRadius(const KernelSpec& spec)
{
    const double logInverse = -std::log(KernelSpec::kSparseTolerance);
    switch (spec.type) {
    case KernelType::Gaussian:
        return spec.lengthScale * std::sqrt(2.0 * logInverse);
    case KernelType::Laplace:
        return spec.lengthScale * logInverse;
    case KernelType::Sdo:
        break;
    }
    return std::numeric_limits<double>::infinity();
}

double boundingDiameter(const Eigen::Ref<const Eigen::MatrixXd>& x)
{
    if (x.rows() == 0) {
        return 0.0;
    }
    return (x.colwise().maxCoeff() - x.colwise().minCoeff()).norm();
}

double logKernelDiagonal(const KernelSpec& spec, int dim)
{
    if (spec.type != KernelType::Sdo) {
        return 0.0;
    }
    // Prop. 7: g^a(0) = a^(-d/(2m)) g^1(0) = l^(-d) g^1(0).
    return sdoLogG0(dim, spec.effectiveOrder(dim)) - dim * std::log(spec.lengthScale);
}

double logKdeNormalizer(const KernelSpec& spec, int dim)
{
    const double l = spec.lengthScale;
    const double d = dim;
    switch (spec.type) {
    case KernelType::Gaussian:
        return 0.5 * d * std::log(2.0 * M_PI * l * l);
    case KernelType::Laplace:
        // Surface of the unit sphere 2 pi^(d/2)/Gamma(d/2) times the radial integral Gamma(d) l^d.
        return d * std::log(l) + std::lgamma(d) + std::log(2.0) + 0.5 * d * std::log(M_PI) -
               std::lgamma(0.5 * d);
    case KernelType::Sdo:
        return 0.0; // its Fourier transform at 0 is 1
    }
    return 0.0;
}

} // namespace sosrep
