// SPDX-License-Identifier: MIT
// Delimited text tables: scores, datasets and importance weights as every front end writes them.
#include "core/io/table_text.h"

#include "core/errors.h"
#include "core/io/json.h"
#include "core/ratio/importance_weights.h"

#include <cmath>

namespace sosrep::io {
namespace {

bool endsWith(const std::string& s, const std::string& tail)
{
    return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

std::string joined(const std::vector<std::string>& cells, char sep)
{
    std::string line;
    for (size_t i = 0; i < cells.size(); ++i) {
        if (i) {
            line += sep;
        }
        line += cells[i];
    }
    return line;
}

} // namespace

std::string formatNumber(double v)
{
    return jsonNumber(v); // the same shortest form the JSON files use
}

namespace {

/// A cell as RFC 4180 writes it: quoted (quotes doubled) when it holds the separator, a quote
/// or a line break; as it is otherwise (numbers never need it).
std::string csvCell(const std::string& cell, char sep)
{
    if (cell.find_first_of(std::string(1, sep) + "\"\r\n") == std::string::npos) {
        return cell;
    }
    std::string q = "\"";
    for (const char c : cell) {
        q += c == '"' ? std::string("\"\"") : std::string(1, c);
    }
    return q + '"';
}

} // namespace

std::string tableText(const std::string& path, const std::vector<std::string>& header,
                      const std::function<void(int, std::vector<std::string>&)>& rowCells, int rows)
{
    const char sep = endsWith(path, ".tsv") || endsWith(path, ".tab") ? '\t' : ',';
    std::vector<std::string> names;
    for (const std::string& h : header) {
        names.push_back(csvCell(h, sep));
    }
    std::string text = joined(names, sep) + '\n';
    std::vector<std::string> cells;
    for (int i = 0; i < rows; ++i) {
        cells.clear();
        rowCells(i, cells);
        for (std::string& c : cells) {
            c = csvCell(c, sep);
        }
        text += joined(cells, sep) + '\n';
    }
    return text;
}

std::string datasetText(const std::string& path, const Dataset& data)
{
    std::vector<std::string> header = data.columns;
    if (data.hasLabels()) {
        header.push_back(data.labelName.empty() ? std::string("label") : data.labelName);
    }
    return tableText(
        path, header,
        [&](int i, std::vector<std::string>& cells) {
            for (Eigen::Index j = 0; j < data.dim(); ++j) {
                cells.push_back(formatNumber(data.x(i, j)));
            }
            if (data.hasLabels()) {
                cells.push_back(std::to_string((*data.labels)(i)));
            }
        },
        static_cast<int>(data.rows()));
}

std::string logValueColumn(DensityKind kind)
{
    switch (kind) {
    case DensityKind::Normalized:
        return "log_density";
    case DensityKind::PreDensity:
        return "log_pre_density";
    case DensityKind::Ratio:
        return "log_ratio";
    case DensityKind::Score:
        return "normality";
    }
    return "log_density";
}

std::string scoresText(const std::string& path, const Vector& logDensity, DensityKind kind,
                       const std::optional<Eigen::VectorXi>& labels,
                       const std::optional<double>& threshold,
                       const std::vector<std::string>& rowNames, const std::string& rowNameColumn)
{
    const bool named = !rowNames.empty();
    if (named && Eigen::Index(rowNames.size()) != logDensity.size()) {
        throw ParameterError("row names", std::to_string(rowNames.size()) + " names for " +
                                              std::to_string(logDensity.size()) + " rows");
    }
    const Eigen::Index bad = logDensity.size() - logDensity.array().isFinite().count();
    if (bad > 0) {
        throw NumericalError(std::to_string(bad) + " of " + std::to_string(logDensity.size()) +
                             " scores are not finite; nothing was written");
    }
    std::vector<std::string> header{"row"};
    if (named) {
        header.push_back(rowNameColumn);
    }
    header.insert(header.end(), {logValueColumn(kind), "anomaly_score"});
    if (threshold) {
        header.emplace_back("outlier");
    }
    if (labels) {
        header.emplace_back("label");
    }
    return tableText(
        path, header,
        [&](int i, std::vector<std::string>& c) {
            c.push_back(std::to_string(i));
            if (named) {
                c.push_back(rowNames[size_t(i)]);
            }
            c.push_back(formatNumber(logDensity(i)));
            c.push_back(formatNumber(-logDensity(i)));
            if (threshold) {
                c.emplace_back(logDensity(i) < *threshold ? "1" : "0");
            }
            if (labels) {
                c.push_back(std::to_string((*labels)(i)));
            }
        },
        static_cast<int>(logDensity.size()));
}

std::string weightsText(const Vector& raw)
{
    const auto cell = [](double v) { return std::isfinite(v) ? formatNumber(v) : std::string(); };
    std::string s = "row,weight_raw,weight_clipped,weight_renormalized\n";
    const Vector c = postProcessWeights(raw, WeightForm::Clipped);
    const Vector r = postProcessWeights(raw, WeightForm::Renormalized);
    for (Eigen::Index i = 0; i < raw.size(); ++i) {
        s +=
            std::to_string(i + 1) + ',' + cell(raw(i)) + ',' + cell(c(i)) + ',' + cell(r(i)) + '\n';
    }
    return s;
}

} // namespace sosrep::io
