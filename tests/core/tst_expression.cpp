// SPDX-License-Identifier: MIT
// The q-function expression (Type II ratios, the app's Ratio view): values, error messages, and
// hostile texts (issue 23: deep nesting crashed the parser, x4294967297 wrapped round to x1,
// and a German locale swapped the decimal point).
#include "core/errors.h"
#include "core/ratio/expression.h"
#include "core/util/text.h"
#include "support/german_locale.h"

#include <QtTest>

#include <cmath>

using namespace sosrep;

namespace {

/// The message of the ParameterError that parsing `text` throws ("" when it parses).
std::string errorOf(const std::string& text, int dim = 2)
{
    try {
        Expression::parse(text, dim);
    } catch (const ParameterError& e) {
        if (e.parameter() != "q_function") {
            return "wrong parameter " + e.parameter();
        }
        return e.what();
    }
    return "";
}

std::string repeat(const std::string& s, int n)
{
    std::string out;
    out.reserve(s.size() * size_t(n));
    for (int i = 0; i < n; ++i) {
        out += s;
    }
    return out;
}

bool contains(const std::string& text, const std::string& part)
{
    return text.find(part) != std::string::npos;
}

} // namespace

class TstExpression : public QObject
{
    Q_OBJECT

private slots:
    void valuesFollowTheGrammar()
    {
        const Expression e = Expression::parse("exp(-(x1 - 0.5)^2 / 0.72) / 0.6 + 2*x2^2", 2);
        const Eigen::RowVector2d row(0.3, -1.0);
        QCOMPARE(e(row), std::exp(-0.04 / 0.72) / 0.6 + 2.0);
        QCOMPARE(Expression::parse("-x1^2", 1)(Eigen::RowVectorXd::Constant(1, 3.0)), -9.0);
        QCOMPARE(Expression::parse("2^3^2", 1)(Eigen::RowVectorXd::Zero(1)), 512.0);
        QCOMPARE(Expression::parse("10 - 4 - 3", 1)(Eigen::RowVectorXd::Zero(1)), 3.0);
        QCOMPARE(Expression::parse("12 / 3 / 2", 1)(Eigen::RowVectorXd::Zero(1)), 2.0);
        QCOMPARE(Expression::parse("- -x1 * +2", 1)(Eigen::RowVectorXd::Constant(1, 3.0)), 6.0);
        QCOMPARE(Expression::parse("sqrt(abs(x2)) + cos(pi)", 2)(row), 0.0);
        // A batch gives the values one row at a time gives.
        Matrix x(3, 2);
        x << 0.1, 0.2, -0.5, 3.0, 2.0, -2.0;
        const Vector v = e.evaluate(x);
        for (Eigen::Index i = 0; i < 3; ++i) {
            QCOMPARE(v(i), e(x.row(i)));
        }
    }

    void errorsNameTheColumnAndWhat()
    {
        const struct
        {
            const char* text;
            const char* words;
        } bad[] = {{"exp(x1", "column 7: expected ')'"},
                   {"x1 + * 2", "column 6: unexpected '*'"},
                   {"x3", "column 1: 'x3' is not a column"},
                   {"x0", "column 1: 'x0' is not a column"},
                   {"foo(x1)", "column 1: unknown name 'foo'"},
                   {"", "the expression is empty"},
                   {"x1 2", "column 4: unexpected '2'"},
                   {"1e999 * x1", "column 1: the number '1e999' is out of the range"}};
        for (const auto& b : bad) {
            const std::string message = errorOf(b.text);
            QVERIFY2(contains(message, b.words), (std::string(b.text) + " -> " + message).c_str());
        }
    }

    void deepNestingIsAnErrorNotACrash()
    {
        // Each of these overflowed the stack (SIGSEGV) when the parser and the evaluator
        // recursed once per level.
        const std::string hostile[] = {repeat("(", 11000) + "x1" + repeat(")", 11000),
                                       repeat("-", 70000) + "x1", repeat("1^", 50000) + "1",
                                       repeat("abs(", 20000) + "x1" + repeat(")", 20000),
                                       repeat("+", 70000) + "x1"};
        for (const std::string& text : hostile) {
            const std::string message = errorOf(text);
            QVERIFY2(contains(message, "nested more than 200 levels deep"), message.c_str());
            QVERIFY2(message.size() < 160, message.c_str()); // the text is quoted in part only
        }
        // The limit itself is accepted.
        const int depth = Expression::maxNesting;
        const Expression ok = Expression::parse(repeat("(", depth) + "x1" + repeat(")", depth), 1);
        QCOMPARE(ok(Eigen::RowVectorXd::Constant(1, 0.25)), 0.25);
        QVERIFY(!errorOf(repeat("(", depth + 1) + "x1" + repeat(")", depth + 1)).empty());
    }

    void longFlatChainsEvaluateWithoutRecursion()
    {
        // A sum of a million terms is flat (no nesting), so it parses; the old tree was a
        // million levels deep on its left side and its evaluation and destruction recursed.
        const int terms = 1000000;
        const Expression e = Expression::parse("x1" + repeat(" + x1", terms - 1), 1);
        QCOMPARE(e(Eigen::RowVectorXd::Constant(1, 1.0)), double(terms));
        const Expression p = Expression::parse("2" + repeat("*1", terms), 1);
        QCOMPARE(p(Eigen::RowVectorXd::Zero(1)), 2.0);
    }

    void hugeColumnNumbersDoNotWrapRound()
    {
        // 4294967297 = 2^32 + 1 was read as x1 by atoi's overflow.
        for (const char* text : {"x4294967297", "x18446744073709551617", "x99999999999999999999"}) {
            const std::string message = errorOf(text, 3);
            QVERIFY2(contains(message, "is not a column: the data have 3 columns"),
                     message.c_str());
        }
        QCOMPARE(Expression::parse("x0003", 3)(Eigen::RowVector3d(1.0, 2.0, 7.0)), 7.0);
    }

    void messagesQuoteAWindowAndWholeCharacters()
    {
        // The error at column 604 of a 1000-character text: the message shows the
        // neighbourhood of the error, not the whole text (README: quoted text is cut at 40).
        const std::string text = repeat("x1+", 200) + "x1 ) " + repeat("x1+", 130) + "x1";
        const std::string message = errorOf(text);
        QVERIFY2(contains(message, "column 604: unexpected ')'"), message.c_str());
        QVERIFY2(contains(message, "in '...") && contains(message, "+x1+...'"), message.c_str());
        QVERIFY2(contains(message, "x1 ) x1+"), message.c_str());
        QVERIFY2(message.size() < 130, message.c_str());
        // A non-ASCII character is shown whole, a stray byte escaped.
        const std::string accent = errorOf("x1 + \xC3\xA9");
        QVERIFY2(contains(accent, "column 6: unexpected '\xC3\xA9'"), accent.c_str());
        const std::string stray = errorOf("x1 + \xFF");
        QVERIFY2(contains(stray, "unexpected byte \\xFF"), stray.c_str());
        QVERIFY2(!contains(stray, "\xFF"), stray.c_str());
        const std::string nul = errorOf(std::string("x1 +\0 x2", 8));
        QVERIFY2(contains(nul, "\\x00"), nul.c_str());
    }

    void numbersIgnoreTheLocale()
    {
        const GermanNumbers german;
        QVERIFY2(german.error().empty(), german.error().c_str());
        // strtod under this locale reads "0.5" as 0 and stops at the '.'.
        QCOMPARE(Expression::parse("0.5*x1", 1)(Eigen::RowVectorXd::Constant(1, 3.0)), 1.5);
        QCOMPARE(Expression::parse("1.25e1", 1)(Eigen::RowVectorXd::Zero(1)), 12.5);
        QVERIFY(contains(errorOf("0,5*x1", 1), "column 2: unexpected ','"));
        QCOMPARE(numberText(-2.0), std::string("-2"));
        QCOMPARE(numberText(0.125, 6), std::string("0.125"));
    }
};

QTEST_GUILESS_MAIN(TstExpression)
#include "tst_expression.moc"
