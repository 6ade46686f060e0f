// SPDX-License-Identifier: MIT
// Dataset: named numeric columns and optional binary labels, with row and column selection.
#include "core/data/dataset.h"

#include "core/errors.h"
#include "core/util/text.h"

#include <algorithm>

#include <cmath>
#include <unordered_map>
#include <unordered_set>

namespace sosrep {

int Dataset::columnIndex(const std::string& name) const
{
    for (size_t j = 0; j < columns.size(); ++j) {
        if (columns[j] == name) {
            return static_cast<int>(j);
        }
    }
    std::string known;
    for (const auto& c : columns) {
        known += (known.empty() ? "" : ", ") + c;
    }
    throw ParameterError("column", "no column named " + quotedText(name) + " in " + source +
                                       " (columns: " + oneLine(known, 300) + ")");
}

Dataset Dataset::selectColumns(const std::vector<std::string>& names) const
{
    std::unordered_map<std::string, Eigen::Index> index;
    index.reserve(columns.size());
    for (size_t j = 0; j < columns.size(); ++j) {
        index.emplace(columns[j], static_cast<Eigen::Index>(j));
    }
    Dataset out;
    out.x.resize(x.rows(), static_cast<Eigen::Index>(names.size()));
    for (size_t j = 0; j < names.size(); ++j) {
        const auto it = index.find(names[j]);
        out.x.col(static_cast<Eigen::Index>(j)) =
            x.col(it != index.end() ? it->second : columnIndex(names[j])); // columnIndex throws
    }
    out.columns = names;
    out.labels = labels;
    out.labelName = labelName;
    out.source = source;
    out.rowNames = rowNames;
    out.rowNameColumn = rowNameColumn;
    out.categories = categories;
    return out;
}

Dataset Dataset::matchColumns(const std::vector<std::string>& names,
                              std::vector<std::string>* unused) const
{
    const std::unordered_set<std::string> have(columns.begin(), columns.end());
    const std::unordered_set<std::string> wanted(names.begin(), names.end());
    std::vector<std::string> missing;
    for (const std::string& n : names) {
        if (have.count(n) == 0) {
            missing.push_back(n);
        }
    }
    std::vector<std::string> extra;
    for (const std::string& c : columns) {
        if (wanted.count(c) == 0) {
            extra.push_back(c);
        }
    }
    auto list = [](const std::vector<std::string>& v) {
        std::string s;
        for (size_t i = 0; i < v.size() && i < 20; ++i) {
            s += (s.empty() ? "" : ", ") + quotedText(v[i]);
        }
        return v.size() > 20 ? s + ", ..." : s;
    };
    if (!missing.empty()) {
        throw DataError(
            source, 1, 0,
            "lacks the column" + std::string(missing.size() > 1 ? "s " : " ") + list(missing) +
                " of the training data" +
                (extra.empty() ? std::string() : " (it has " + list(extra) + " instead)"));
    }
    if (unused) {
        *unused = extra;
    }
    return selectColumns(names);
}

void checkDistinctNames(const std::vector<std::string>& names, const std::string& parameter)
{
    std::unordered_set<std::string> seen;
    seen.reserve(names.size());
    for (const std::string& name : names) {
        if (!seen.insert(name).second) {
            throw ParameterError(parameter, "names the column " + quotedText(name) + " twice");
        }
    }
}

Dataset Dataset::withLabelColumn(const std::string& name) const
{
    const int li = columnIndex(name);
    Dataset out;
    out.source = source;
    out.labelName = name;
    out.rowNames = rowNames;
    out.rowNameColumn = rowNameColumn;
    out.categories = categories;
    Eigen::VectorXi y(x.rows());
    for (Eigen::Index i = 0; i < x.rows(); ++i) {
        const double v = x(i, li);
        if (v != 0.0 && v != 1.0) {
            // +2: one for the header row, one for 1-based numbering.
            throw DataError(source, static_cast<long>(i) + 2, li + 1,
                            "label column '" + name +
                                "' must hold 0 (normal) or 1 (anomaly), got " + numberText(v));
        }
        y(i) = static_cast<int>(v);
    }
    out.labels = y;
    out.x.resize(x.rows(), x.cols() - 1);
    for (Eigen::Index j = 0, k = 0; j < x.cols(); ++j) {
        if (j == li) {
            continue;
        }
        out.x.col(k++) = x.col(j);
        out.columns.push_back(columns[static_cast<size_t>(j)]);
    }
    return out;
}

Dataset Dataset::selectRows(const std::vector<Eigen::Index>& rowIdx) const
{
    Dataset out;
    out.columns = columns;
    out.labelName = labelName;
    out.source = source;
    out.rowNameColumn = rowNameColumn;
    out.categories = categories;
    for (size_t k = 0; k < rowIdx.size() && !rowNames.empty(); ++k) {
        out.rowNames.push_back(rowNames[static_cast<size_t>(rowIdx[k])]);
    }
    out.x.resize(static_cast<Eigen::Index>(rowIdx.size()), x.cols());
    Eigen::VectorXi y(static_cast<Eigen::Index>(rowIdx.size()));
    for (size_t k = 0; k < rowIdx.size(); ++k) {
        out.x.row(static_cast<Eigen::Index>(k)) = x.row(rowIdx[k]);
        if (labels) {
            y(static_cast<Eigen::Index>(k)) = (*labels)(rowIdx[k]);
        }
    }
    if (labels) {
        out.labels = y;
    }
    return out;
}

} // namespace sosrep
