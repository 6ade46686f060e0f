// SPDX-License-Identifier: MIT
// `sosrep ratio`'s q rows taken from the --p file itself: the app's split of the loaded data
// (by a column's value, or inside a rectangle of two features), so the Ratio view's fit has a
// command that reproduces it.
#pragma once

#include "app/cli/cli_options.h"
#include "core/data/dataset.h"

#include <optional>
#include <vector>

namespace sosrep::cli {

/// --q-where COLUMN=VALUE or --q-inside X=A:B,Y=C:D, with --p-all.
struct RowSplit
{
    const char* flag = "--q-where";
    QString text;      // the option's value as given
    bool pAll = false; // p = every row of --p (q's rows too), not the other rows
};

/// The split the options ask for; nullopt when neither --q-where nor --q-inside is given.
/// Throws ParameterError for both, or for --p-all without either.
std::optional<RowSplit> rowSplitOf(const Options& o);

/// Whether the split needs the --p file's other columns (--q-where may name the label or a
/// column --columns leaves out); --q-inside reads the features.
inline bool readsEveryColumn(const RowSplit& s)
{
    return s.flag == std::string_view("--q-where");
}

/// Which rows are q's: --q-where on `every` (the --p file with every column, the label moved
/// out), --q-inside on `features`. The same rule as the app's Ratio view: a value equal to
/// VALUE exactly; inside the rectangle with its edges, whichever order A, B are given in.
std::vector<bool> rowsOfQ(const RowSplit& split, const Dataset& every, const Dataset& features);

/// p's and q's rows after the split, with the --regress response of each (empty when none).
struct SplitSamples
{
    Dataset p, q;
    Vector pResponse, qResponse;
};

/// Throws ParameterError(split.flag) when q has no row or p fewer than two (the app's message).
SplitSamples splitSamples(const RowSplit& split, const std::vector<bool>& inQ,
                          const Dataset& features, const Vector& response);

} // namespace sosrep::cli
