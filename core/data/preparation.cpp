// SPDX-License-Identifier: MIT
// Training data made ready for a fit: columns checked, a scaler fitted and reused.
#include "core/data/preparation.h"

#include "core/errors.h"
#include "core/util/text.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

namespace sosrep {
namespace {

std::string num(double v)
{
    return numberText(v, 6);
}

std::string columnName(const Dataset& d, Eigen::Index j)
{
    return static_cast<size_t>(j) < d.columns.size() ? quotedText(d.columns[size_t(j)])
                                                     : "'x" + std::to_string(j + 1) + "'";
}

/// Scalings by a central spread (robust, quantile) blow up a column whose middle is nearly one
/// value but whose other rows are not: 20news' BERT features under quantile spanned 6e7 units,
/// and the fit then failed naming the length scale. Said first, naming the columns.
std::string wideScaledColumnsWarning(const Dataset& raw, const PreparedTraining& out)
{
    if (!out.scaler.isAffine() || out.scaler.isIdentity() || out.x.rows() == 0) {
        return "";
    }
    std::string list;
    int count = 0;
    for (Eigen::Index j = 0; j < out.x.cols(); ++j) {
        const double span = out.x.col(j).maxCoeff() - out.x.col(j).minCoeff();
        if (span > kMaxTypicalScaledSpan && ++count <= 3) {
            list += std::string(count > 1 ? "; " : "") + columnName(raw, j) + " spans " +
                    num(span) + " units";
        }
    }
    if (count == 0) {
        return "";
    }
    if (count > 3) {
        list += "; and " + std::to_string(count - 3) + " more";
    }
    return std::to_string(count) + (count == 1 ? " column spans" : " columns span") +
           " more than " + num(kMaxTypicalScaledSpan) + " " + toString(out.scaler.kind) +
           "-scaled units (" + list +
           "): where a column's middle rows are nearly one value, its spread is tiny beside "
           "its range and distances in it dwarf every other column; use --scale minmax or rank";
}

} // namespace

PreparedTraining prepareTraining(const Dataset& raw, ScalingKind kind)
{
    PreparedTraining out;
    const Eigen::Index d = raw.dim();
    std::vector<std::pair<std::string, double>> constant; // name, value
    for (Eigen::Index j = 0; j < d; ++j) {
        const double lo = raw.x.col(j).minCoeff();
        const double hi = raw.x.col(j).maxCoeff();
        const long col = static_cast<long>(j) + 1;
        if (!std::isfinite(hi - lo)) {
            throw DataError(raw.source, 0, col,
                            "column " + columnName(raw, j) + " spans from " + num(lo) + " to " +
                                num(hi) +
                                ": its range overflows double precision (divide the column by "
                                "a constant first)");
        }
        if (hi == lo) {
            constant.emplace_back(columnName(raw, j), lo);
        } else if (kind == ScalingKind::None && (hi - lo < 1e-100 || hi - lo > 1e100)) {
            throw DataError(raw.source, 0, col,
                            "column " + columnName(raw, j) + " spans " + num(hi - lo) +
                                ": unscaled, its squared distances leave double precision "
                                "(use min-max or z-score scaling)");
        }
    }
    // One warning for all constant columns: mnist has 22, and 22 lines buried the other warnings.
    const std::string scaled = kind == ScalingKind::None ? "" : " (scaled to 0)";
    if (constant.size() == 1) {
        out.warnings.push_back("column " + constant[0].first + " is constant (" +
                               num(constant[0].second) +
                               ") in the training data: it carries no information" + scaled);
    } else if (constant.size() > 1) {
        constexpr size_t kListed = 8;
        std::string list;
        for (size_t k = 0; k < std::min(constant.size(), kListed); ++k) {
            list += (k ? ", " : "") + constant[k].first + " (" + num(constant[k].second) + ")";
        }
        if (constant.size() > kListed) {
            list += " and " + std::to_string(constant.size() - kListed) + " more";
        }
        out.warnings.push_back(std::to_string(constant.size()) +
                               " columns are constant in the training data and carry no "
                               "information" +
                               scaled + ": " + list);
    }
    out.scaler = Scaler::fit(kind, raw.x);
    out.x = out.scaler.apply(raw.x);
    if (const std::string w = wideScaledColumnsWarning(raw, out); !w.empty()) {
        out.warnings.push_back(w);
    }
    for (Eigen::Index j = 0; j < d; ++j) {
        if (!out.x.col(j).allFinite() && kind == ScalingKind::ZScore) {
            throw DataError(raw.source, 0, static_cast<long>(j) + 1,
                            "column " + columnName(raw, j) +
                                " cannot be z-score scaled (its variance overflows double "
                                "precision): use min-max scaling");
        }
        // Scalings that do not bound the training rows (robust: median and IQR) can put one
        // row ~1e300 units out, and the length scale's rule then failed naming
        // --length-scale (issue 52). Said here, naming the row, as applyToOther() does.
        for (Eigen::Index i = 0; out.scaler.kind != ScalingKind::None && i < out.x.rows(); ++i) {
            if (!(std::abs(out.x(i, j)) <= kMaxScaledMagnitude)) {
                throw DataError(raw.source, 0, static_cast<long>(j) + 1,
                                "row " + std::to_string(i + 1) + ": value " + num(raw.x(i, j)) +
                                    " in column " + columnName(raw, j) + " lies " +
                                    num(std::abs(out.x(i, j))) + " " + toString(out.scaler.kind) +
                                    "-scaled units from the other rows: distances that far lose "
                                    "all precision (remove the row, or use --scale rank)");
            }
        }
    }
    return out;
}

Matrix applyToOther(const Scaler& scaler, const Dataset& other)
{
    Matrix x = scaler.apply(other.x);
    for (Eigen::Index j = 0; j < x.cols(); ++j) {
        for (Eigen::Index i = 0; i < x.rows(); ++i) {
            if (!(std::abs(x(i, j)) <= kMaxScaledMagnitude)) {
                throw DataError(other.source, 0, static_cast<long>(j) + 1,
                                "row " + std::to_string(i + 1) + ": value " + num(other.x(i, j)) +
                                    " in column " + columnName(other, j) + " lies about " +
                                    num(std::abs(x(i, j))) +
                                    " training ranges away from the training data: distances "
                                    "that far lose all precision");
            }
        }
    }
    return x;
}

std::string unresolvedSpreadWarning(const Scaler& scaler, const Vector& lo, const Vector& hi,
                                    const std::vector<std::string>& columns)
{
    if (scaler.isIdentity() || lo.size() == 0) {
        return "";
    }
    // Every kind maps each column increasingly, so the scaled range is that of the ends.
    Matrix ends(2, lo.size());
    ends.row(0) = lo.transpose();
    ends.row(1) = hi.transpose();
    const Matrix scaled = scaler.apply(ends);
    std::string list;
    int count = 0;
    for (Eigen::Index j = 0; j < lo.size(); ++j) {
        const double spread = scaled(1, j) - scaled(0, j);
        if (hi(j) > lo(j) && spread < kMinResolvedSpread) {
            if (++count <= 3) {
                const std::string name = static_cast<size_t>(j) < columns.size()
                                             ? quotedText(columns[size_t(j)])
                                             : "'x" + std::to_string(j + 1) + "'";
                list += std::string(count > 1 ? "; " : "") + name + " spans " + num(hi(j) - lo(j)) +
                        " in the data, " + num(spread) + " scaled";
            }
        }
    }
    if (count == 0) {
        return "";
    }
    if (count > 3) {
        list += "; and " + std::to_string(count - 3) + " more";
    }
    return "the rows scored differ by less than " + num(kMinResolvedSpread) + " of the " +
           toString(scaler.kind) + " scaling's unit in " + std::to_string(count) +
           (count == 1 ? " column" : " columns") + " (" + list +
           "): the model cannot tell them apart there, so their scores ignore those "
           "differences (a training row far out in that column, or a scale changed in the "
           "model file)";
}

std::string unresolvedSpreadWarning(const Scaler& scaler, const Dataset& other)
{
    if (other.rows() == 0) {
        return "";
    }
    return unresolvedSpreadWarning(scaler, other.x.colwise().minCoeff().transpose(),
                                   other.x.colwise().maxCoeff().transpose(), other.columns);
}

} // namespace sosrep
