// SPDX-License-Identifier: MIT
// The seeded 2-D toy data (mixture, moons, rings, square, cosine, blocks, a ratio pair).
#include "core/data/toy_data.h"

#include "core/errors.h"
#include "core/random.h"
#include "core/util/text.h"

#include <array>
#include <cmath>

namespace sosrep {
namespace {

constexpr double kPi = 3.14159265358979323846;

struct KindName
{
    ToyKind kind;
    const char* name;
};
constexpr std::array<KindName, 7> kKinds = {{{ToyKind::GaussianMixture, "gmm"},
                                             {ToyKind::TwoMoons, "moons"},
                                             {ToyKind::Rings, "rings"},
                                             {ToyKind::Square, "square"},
                                             {ToyKind::Cosine, "cosine"},
                                             {ToyKind::Blocks, "blocks"},
                                             {ToyKind::Shift, "shift"}}};

Eigen::Vector2d samplePoint(ToyKind kind, Rng& rng)
{
    switch (kind) {
    case ToyKind::GaussianMixture: {
        const double u = rng.uniform();
        if (u < 0.5) {
            return {-1.5 + 0.6 * rng.normal(), 0.3 * rng.normal()};
        }
        if (u < 0.8) {
            const double a = rng.normal();
            const double b = rng.normal();
            return {1.2 + 0.35 * a + 0.2 * b, 1.0 + 0.2 * a - 0.35 * b};
        }
        return {1.0 + 0.3 * rng.normal(), -1.2 + 0.3 * rng.normal()};
    }
    case ToyKind::TwoMoons: {
        const double t = kPi * rng.uniform();
        if (rng.uniform() < 0.5) {
            return {std::cos(t) + 0.08 * rng.normal(), std::sin(t) + 0.08 * rng.normal()};
        }
        return {1.0 - std::cos(t) + 0.08 * rng.normal(), 0.5 - std::sin(t) + 0.08 * rng.normal()};
    }
    case ToyKind::Rings: {
        const double t = 2.0 * kPi * rng.uniform();
        const double r = (rng.uniform() < 0.5 ? 1.0 : 2.0) + 0.08 * rng.normal();
        return {r * std::cos(t), r * std::sin(t)};
    }
    case ToyKind::Square:
        return {rng.uniform(), rng.uniform()};
    case ToyKind::Cosine: {
        const double x = -kPi + 2.0 * kPi * rng.uniform();
        return {x, std::cos(x) + 0.15 * rng.normal()};
    }
    case ToyKind::Blocks:
        // A tight cluster and a wide one with equal counts: KDE flattens the ratio between them,
        // SOSREP keeps it (the paper's block-model proposition).
        if (rng.uniform() < 0.5) {
            return {-1.0 + 0.15 * rng.normal(), 0.15 * rng.normal()};
        }
        return {1.0 + 0.5 * rng.normal(), 0.5 * rng.normal()};
    case ToyKind::Shift: // p's rows; q's are drawn in generateToyData
        return {rng.normal(), rng.normal()};
    }
    return {0.0, 0.0};
}

} // namespace

std::string toString(ToyKind kind)
{
    for (const auto& k : kKinds) {
        if (k.kind == kind) {
            return k.name;
        }
    }
    return "gmm";
}

ToyKind toyKindFromString(const std::string& text)
{
    for (const auto& k : kKinds) {
        if (text == k.name) {
            return k.kind;
        }
    }
    throw ParameterError("kind", "unknown toy data kind " + quotedText(text) +
                                     "' (use gmm, moons, rings, square, cosine, blocks or shift)");
}

Dataset generateToyData(const ToyConfig& config)
{
    if (config.n < 1) {
        throw ParameterError("n", "must be at least 1");
    }
    if (!(config.anomalyFraction >= 0.0 && config.anomalyFraction < 1.0)) {
        throw ParameterError("anomalies", "must lie in [0, 1)");
    }
    Rng rng(config.seed);
    if (config.kind == ToyKind::Shift) {
        Dataset ds;
        ds.columns = {"x", "y"};
        ds.x.resize(config.n, 2);
        Eigen::VectorXi labels = Eigen::VectorXi::Zero(config.n);
        for (int i = 0; i < config.n; ++i) {
            const bool q = i >= config.n / 2;
            const double a = rng.normal(), b = rng.normal();
            ds.x(i, 0) = q ? 0.5 + 0.6 * a : a;
            ds.x(i, 1) = q ? 0.6 * b : b;
            labels(i) = q ? 1 : 0;
        }
        ds.labels = labels;
        ds.labelName = "label";
        ds.source = "toy:shift";
        return ds;
    }
    const int nAnomalies = static_cast<int>(std::lround(config.anomalyFraction * config.n));
    const int nNormal = config.n - nAnomalies;
    Dataset ds;
    ds.columns = {"x", "y"};
    ds.x.resize(config.n, 2);
    Eigen::VectorXi labels = Eigen::VectorXi::Zero(config.n);
    for (int i = 0; i < nNormal; ++i) {
        ds.x.row(i) = samplePoint(config.kind, rng).transpose();
    }
    if (nAnomalies > 0) {
        // Uniform on the normal data's bounding box, widened by half its size on each side.
        const Eigen::RowVector2d lo = ds.x.topRows(std::max(nNormal, 1)).colwise().minCoeff();
        const Eigen::RowVector2d hi = ds.x.topRows(std::max(nNormal, 1)).colwise().maxCoeff();
        const Eigen::RowVector2d span = hi - lo;
        for (int i = nNormal; i < config.n; ++i) {
            for (int j = 0; j < 2; ++j) {
                ds.x(i, j) = lo(j) - 0.5 * span(j) + 2.0 * span(j) * rng.uniform();
            }
            labels(i) = 1;
        }
    }
    ds.labels = labels;
    ds.labelName = "label";
    ds.source = "toy:" + toString(config.kind);
    return ds;
}

} // namespace sosrep
