// SPDX-License-Identifier: MIT
#pragma once

#include "core/types.h"

#include <memory>
#include <string>

namespace sosrep {

/// A function of a data row given as text, for Type II's known q: numbers, x1..xd (the
/// columns, 1-based), pi, + - * / ^ (right-associative, above unary minus: -x1^2 = -(x1^2)),
/// parentheses and exp, log, sqrt, sin, cos, abs. Parsed once, evaluated per row.
class Expression
{
public:
    /// Throws ParameterError(parameter) naming the 1-based column of the text where it fails
    /// ("column 7: expected ')'"), and columns beyond `dim`.
    static Expression parse(const std::string& text, int dim,
                            const std::string& parameter = "q_function");

    double operator()(const Eigen::Ref<const Eigen::RowVectorXd>& row) const;
    Vector evaluate(const MatrixRef& x) const;
    const std::string& text() const { return m_text; }

    struct Node;

private:
    std::shared_ptr<const Node> m_root;
    std::string m_text;
};

} // namespace sosrep
