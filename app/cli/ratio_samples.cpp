// SPDX-License-Identifier: MIT
// The split of the --p file into p and q rows (--q-where, --q-inside, --p-all).
#include "app/cli/ratio_samples.h"

#include "core/errors.h"
#include "core/util/text.h"

#include <algorithm>
#include <cmath>

namespace sosrep::cli {
namespace {

double numberOf(const QString& text, const char* flag, const std::string& what)
{
    bool ok = false;
    const double v = text.trimmed().toDouble(&ok);
    if (!ok || !std::isfinite(v)) {
        throw ParameterError(flag, quotedText(text.toStdString()) + " is not a finite number (" +
                                       what + ")");
    }
    return v;
}

/// A column's values by name: the label's (moved out of the features) or a column's.
Vector columnValues(const Dataset& d, const std::string& name, const char* flag)
{
    if (d.hasLabels() && name == d.labelName) {
        return d.labels->cast<double>();
    }
    try {
        return d.x.col(d.columnIndex(name));
    } catch (const ParameterError& e) {
        throw ParameterError(flag, e.message()); // not the generic "--columns"
    }
}

std::vector<bool> rowsWhere(const RowSplit& split, const Dataset& every)
{
    const int eq = int(split.text.indexOf(QLatin1Char('=')));
    if (eq <= 0) {
        throw ParameterError(split.flag, quotedText(split.text.toStdString()) +
                                             " is not COLUMN=VALUE (q = the rows of --p whose "
                                             "COLUMN equals VALUE)");
    }
    const std::string column = split.text.left(eq).trimmed().toStdString();
    const double value = numberOf(split.text.mid(eq + 1), split.flag, "VALUE of COLUMN=VALUE");
    const Vector v = columnValues(every, column, split.flag);
    std::vector<bool> in(size_t(v.size()));
    for (Eigen::Index i = 0; i < v.size(); ++i) {
        in[size_t(i)] = v(i) == value;
    }
    return in;
}

std::vector<bool> rowsInside(const RowSplit& split, const Dataset& features)
{
    const QStringList sides = split.text.split(QLatin1Char(','));
    const char* form = " is not X=A:B,Y=C:D (two feature columns and their ranges)";
    if (sides.size() != 2) {
        throw ParameterError(split.flag, quotedText(split.text.toStdString()) + form);
    }
    std::vector<bool> in(size_t(features.rows()), true);
    for (const QString& side : sides) {
        const QStringList parts = side.split(QLatin1Char('='));
        const QStringList range =
            parts.size() == 2 ? parts[1].split(QLatin1Char(':')) : QStringList();
        if (range.size() != 2) {
            throw ParameterError(split.flag, quotedText(split.text.toStdString()) + form);
        }
        const std::string name = parts[0].trimmed().toStdString();
        const double a = numberOf(range[0], split.flag, "a bound of " + name);
        const double b = numberOf(range[1], split.flag, "a bound of " + name);
        int c = 0;
        try {
            c = features.columnIndex(name);
        } catch (const ParameterError& e) {
            throw ParameterError(split.flag, e.message());
        }
        for (Eigen::Index i = 0; i < features.rows(); ++i) {
            const double x = features.x(i, c);
            in[size_t(i)] = in[size_t(i)] && x >= std::min(a, b) && x <= std::max(a, b);
        }
    }
    return in;
}

Vector entriesOf(const Vector& v, const std::vector<Eigen::Index>& rows)
{
    Vector out(Eigen::Index(rows.size()));
    for (size_t k = 0; k < rows.size(); ++k) {
        out(Eigen::Index(k)) = v(rows[k]);
    }
    return out;
}

} // namespace

std::optional<RowSplit> rowSplitOf(const Options& o)
{
    const bool where = o.has(QStringLiteral("q-where"));
    const bool inside = o.has(QStringLiteral("q-inside"));
    if (where && inside) {
        throw ParameterError("--q-where", "give --q-where or --q-inside, not both");
    }
    if (!where && !inside) {
        if (o.has(QStringLiteral("p-all"))) {
            throw ParameterError("--p-all", "applies to q's rows taken from --p (--q-where or "
                                            "--q-inside)");
        }
        return std::nullopt;
    }
    RowSplit s;
    s.flag = where ? "--q-where" : "--q-inside";
    s.text = o.text(where ? QStringLiteral("q-where") : QStringLiteral("q-inside"));
    s.pAll = o.has(QStringLiteral("p-all"));
    return s;
}

std::vector<bool> rowsOfQ(const RowSplit& split, const Dataset& every, const Dataset& features)
{
    return readsEveryColumn(split) ? rowsWhere(split, every) : rowsInside(split, features);
}

SplitSamples splitSamples(const RowSplit& split, const std::vector<bool>& inQ,
                          const Dataset& features, const Vector& response)
{
    std::vector<Eigen::Index> in, out;
    for (size_t i = 0; i < inQ.size(); ++i) {
        (inQ[i] ? in : out).push_back(Eigen::Index(i));
    }
    if (in.empty() || out.size() < 2) {
        throw ParameterError(split.flag, quotedText(split.text.toStdString()) + " leaves " +
                                             std::to_string(in.size()) + " rows for q and " +
                                             std::to_string(out.size()) + " for p");
    }
    SplitSamples s;
    s.q = features.selectRows(in);
    s.q.source = features.source + " (" + split.flag + " " + split.text.toStdString() + ")";
    s.p = split.pAll ? features : features.selectRows(out);
    if (response.size() > 0) {
        s.qResponse = entriesOf(response, in);
        s.pResponse = split.pAll ? response : entriesOf(response, out);
    }
    return s;
}

} // namespace sosrep::cli
