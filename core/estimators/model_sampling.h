// SPDX-License-Identifier: MIT
// Drawing rows from a fitted density: exactly, by its Gaussian-mixture form.
#pragma once

#include "core/estimators/estimator.h"
#include "core/types.h"

#include <cstdint>
#include <string>

namespace sosrep {

struct ModelSample
{
    Matrix rows;             // in the model's scaled coordinates
    std::string method;      // how they were drawn (for the docs and the summary)
    long long proposals = 0; // candidates drawn (rejection sampling), = rows when exact
};

/// n rows drawn from the model's density with a seeded generator (std::mt19937_64), every
/// method exact:
///  - Gaussian KDE (p = sum_i c_i N(x_i, l^2 I), c_i >= 0): a centre by its weight plus
///    N(0, l^2 I);
///  - Gaussian SOSREP (p proportional to f^2, f = sum_i c_i k_i over the training rows or the
///    Nystroem landmarks): rejection from g^2, g = sum_i |c_i| k_i >= |f|. g^2 is a positive
///    mixture, sum_pq |c_p c_q| exp(-|x_p - x_q|^2 / 4l^2) N((x_p + x_q)/2, l^2/2 I) (the
///    product of two Gaussian kernels, kernel-sos-mmd digest 1.4), so a pair is drawn by that
///    weight and then a point; it is kept with probability f^2 / g^2 <= 1;
///  - any other model that is a signed Gaussian mixture (kernel SoS): rejection from its
///    positive part, kept with probability p / p+;
///  - a signed mixture whose weights cancel so much that rejection would keep fewer than 1 in
///    30 d proposals (1 in 1000 for SOSREP's g^2), kernel SoS and SOSREP alike: each
///    coordinate from its conditional by inverting its CDF (sampleByConditionals).
/// ParameterError("sample") for a model that is not a density, or not a Gaussian mixture
/// (Laplace and SDO kernels, random features), or whose rejection keeps too few proposals.
ModelSample sampleModel(const FittedModel& model, Eigen::Index n, uint64_t seed);

} // namespace sosrep
