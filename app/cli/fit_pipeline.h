// SPDX-License-Identifier: MIT
#pragma once

#include "core/tuning/length_scale_search.h"

#include <optional>
#include <string>

namespace sosrep::cli {

/// One fit as the command line runs it: optional Fisher-divergence tuning of l, then the final
/// fit on all training rows, optionally a standard-gradient run from the same initialisation.
struct FitRequest
{
    FitConfig fit;
    bool autoLengthScale = true;
    std::string lengthScaleRule; // "scott" or "silverman": rule of thumb on the training data
    SearchConfig search;
    bool runBothSolvers = false;
    uint64_t seed = 0; // validation split when no test data is given
};

struct FitOutcome
{
    FitResult model;                    // the fit that scores (natural unless --solver standard)
    std::optional<FitResult> companion; // the standard-gradient run of --solver both
    std::optional<SearchResult> search;
    std::string validation; // "test" or "split-80-20"
    double seconds = 0.0;
};

/// Runs the request on scaled data; `test` may be empty (then FD validation uses a seeded 80/20
/// split of `train`, design.md section 4). Labels are never used.
FitOutcome runFit(const MatrixRef& train, const MatrixRef& test, const FitRequest& request,
                  const LengthScaleSearch::Observer& observer = {});

} // namespace sosrep::cli
