// SPDX-License-Identifier: MIT
// The small expression language of a known q, e.g. `exp(-x1^2/2)`, parsed once.
#pragma once

#include "core/types.h"

#include <memory>
#include <string>
#include <vector>

namespace sosrep {

/// A function of a data row given as text, for Type II's known q: numbers, x1..xd (the
/// columns, 1-based), pi, + - * / ^ (right-associative, above unary minus: -x1^2 = -(x1^2)),
/// parentheses and exp, log, sqrt, sin, cos, abs. Parsed once into a postfix program that is
/// evaluated per row with an explicit stack, so neither evaluation nor destruction recurses;
/// the parser's own recursion is bounded by `maxNesting`.
class Expression
{
public:
    /// Deepest nesting of parentheses, function calls, unary signs and powers the parser accepts
    /// (a hand-written q needs a handful; the bound keeps a hostile text from overflowing the
    /// stack, and it is the same in every front end).
    static constexpr int maxNesting = 200;

    /// Throws ParameterError(parameter) naming the 1-based column of the text where it fails
    /// ("column 7: expected ')'"), and columns beyond `dim`. Numbers are read in the C locale
    /// whatever the process's locale.
    static Expression parse(const std::string& text, int dim,
                            const std::string& parameter = "q_function");

    double operator()(const Eigen::Ref<const Eigen::RowVectorXd>& row) const;
    Vector evaluate(const MatrixRef& x) const;
    const std::string& text() const { return m_text; }

    struct Op;

private:
    std::shared_ptr<const std::vector<Op>> m_program;
    size_t m_stackSize = 0;
    std::string m_text;
};

} // namespace sosrep
