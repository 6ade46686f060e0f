// SPDX-License-Identifier: MIT
// MMD^2 between a model and a sample, or between two samples, with the median heuristic.
#pragma once

#include "core/numerics/gaussian_mixture.h"
#include "core/types.h"

#include <string>

namespace sosrep {

class FittedModel;

/// Maximum mean discrepancy with the Gaussian kernel k_h(x, y) = exp(-|x - y|^2 / 2 h^2) (the
/// product's convention; the seed-004 paper's exp(-|x - y|^2 / s^2) is s = h sqrt 2):
///   MMD^2(P, Q) = E k_h(X, X') + E k_h(Y, Y') - 2 E k_h(X, Y),  X, X' ~ P, Y, Y' ~ Q.
/// For signed isotropic Gaussian mixtures every expectation is closed form (digest 5.2):
///   E k_h(N(mu, s I), N(nu, t I)) = (h^2 / (h^2 + s + t))^(d/2) exp(-|mu - nu|^2 / 2 (h^2 + s +
///   t)).

/// E k_h(X, Y) for X ~ a, Y ~ b (signed mixtures, bilinear in the weights). Blocked, parallel.
double mixtureKernelMean(const GaussianMixture& a, const GaussianMixture& b, double h);

/// The median of the pairwise distances of the rows (the usual default bandwidth), over a seeded
/// subsample of at most maxRows rows. Throws ParameterError("bandwidth") when it is 0.
double medianPairwiseDistance(const MatrixRef& x, uint64_t seed, int maxRows = 1000);

/// Two samples: the biased V-statistic (diagonals kept; the MMD^2 of the two empirical
/// measures) and the unbiased U-statistic (diagonals left out; can be negative).
struct SampleMmd
{
    double vStatistic = 0.0;
    double uStatistic = 0.0;
};
SampleMmd sampleMmd(const MatrixRef& x, const MatrixRef& y, double h);

enum class MmdMethod
{
    ClosedForm,     // both measures are Gaussian mixtures (or samples) within the pair budget
    GridQuadrature, // d = 2: models integrated on a grid, normalized there
    MonteCarlo      // otherwise: self-normalized importance sampling of each model
};
std::string toString(MmdMethod method);

/// An axis-aligned 2-D box and its grid (the app passes its view grid).
struct MmdGrid
{
    double lo[2] = {0.0, 0.0};
    double hi[2] = {0.0, 0.0};
    int points = 0; // per axis; 0 = automatic (spacing <= min(l, h) / 4, 64..512)
    bool valid() const { return hi[0] > lo[0] && hi[1] > lo[1]; }
};

struct MmdOptions
{
    double bandwidth = 0.0; // h; <= 0: the median pairwise distance of the reference rows
    long long pairBudget = 400000000LL; // closed form while the pair count fits
    MmdGrid grid;                // d = 2 quadrature box (invalid: around the data and centres)
    int samples = 4000;          // Monte Carlo draws per model
    uint64_t seed = 0;           // bandwidth subsample and Monte Carlo draws
    bool allowClosedForm = true; // false: force quadrature / Monte Carlo (tests)
};

/// A measure to compare: an empirical sample (weights 1/n) or a fitted density model. Density
/// ratios and pre-densities of unknown mass are normalized numerically (grid, Monte Carlo).
struct MmdMeasure
{
    const FittedModel* model = nullptr;
    Matrix sample;

    static MmdMeasure ofSample(const MatrixRef& rows);
    static MmdMeasure ofModel(const FittedModel& model);
};

struct MmdResult
{
    double mmd2 = 0.0;
    double bandwidth = 0.0;
    MmdMethod method = MmdMethod::ClosedForm;
    std::string detail; // what was computed: grid size and box, samples and effective sample size
};

/// MMD^2 between two measures, in the models' (scaled) coordinates. `reference` are the rows the
/// bandwidth, the automatic grid box and the Monte Carlo proposal are built from (the data).
/// Throws ParameterError("model") for a model that is not a density (a density ratio).
MmdResult mmd(const MmdMeasure& a, const MmdMeasure& b, const MatrixRef& reference,
              const MmdOptions& options);

} // namespace sosrep
