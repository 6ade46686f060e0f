// SPDX-License-Identifier: MIT
// core/io's JSON (nlohmann-json) writes what Qt's QJsonDocument wrote, byte for byte, so files
// written before the formats left Qt and after are the same; and it reads with the line and
// column of a syntax error, refusing a repeated key.
#include "core/errors.h"
#include "core/io/json.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

#include <cmath>
#include <cstring>
#include <random>

using sosrep::io::Json;

namespace {

/// A double of any magnitude and digit count, seeded.
double anyDouble(std::mt19937_64& rng)
{
    std::uniform_int_distribution<int> kind(0, 5);
    std::uniform_real_distribution<double> unit(-1.0, 1.0);
    std::uniform_int_distribution<int> exponent(-320, 308);
    std::uniform_int_distribution<int> small(-8, 12);
    switch (kind(rng)) {
    case 0: // whole numbers, some with trailing zeros
        return std::round(unit(rng) * std::pow(10.0, small(rng) + 8));
    case 1: // few digits at any power of ten
        return std::round(unit(rng) * 1000.0) * std::pow(10.0, small(rng));
    case 2: // any bit pattern of a finite double
    {
        double d;
        do {
            const uint64_t bits = rng();
            std::memcpy(&d, &bits, sizeof d);
        } while (!std::isfinite(d));
        return d;
    }
    default:
        return unit(rng) * std::pow(10.0, kind(rng) == 3 ? small(rng) : exponent(rng) / 4);
    }
}

} // namespace

class TstJsonFormat : public QObject
{
    Q_OBJECT

private slots:
    void numbersAreWrittenAsQtWroteThem()
    {
        std::mt19937_64 rng(12345);
        std::vector<double> values = {
            0.0,    1.0,   -1.0,    2000.0, 1e5,       123456.0, 1e8,    0.001,
            0.0001, 1e-05, 0.00012, 0.1,    1.0 / 3.0, 1e300,    5e-324, 1.7976931348623157e308,
            100.5,  1e15,  1e16,    1e21};
        for (int i = 0; i < 200000; ++i) {
            values.push_back(anyDouble(rng));
        }
        for (const double v : values) {
            const QByteArray qt = QByteArray::number(v, 'g', QLocale::FloatingPointShortest);
            QCOMPARE(QByteArray::fromStdString(sosrep::io::jsonNumber(v)), qt);
        }
    }

    void documentsAreWrittenAsQtWroteThem()
    {
        QJsonObject q;
        q[QStringLiteral("b")] = 2.5;
        q[QStringLiteral("a")] = QJsonArray{1, 2.0, -3e-7, QStringLiteral("x\"y\\z\n\t\u0001é")};
        q[QStringLiteral("nested")] = QJsonObject{{QStringLiteral("k"), true},
                                                  {QStringLiteral("e"), QJsonObject()},
                                                  {QStringLiteral("l"), QJsonArray()},
                                                  {QStringLiteral("n"), QJsonValue()}};
        q[QStringLiteral("int")] = 7;
        Json j;
        j["b"] = 2.5;
        j["a"] = Json::array({1, 2.0, -3e-7, "x\"y\\z\n\t\u0001é"});
        j["nested"] = {{"k", true}, {"e", Json::object()}, {"l", Json::array()}, {"n", nullptr}};
        j["int"] = 7;
        QCOMPARE(QByteArray::fromStdString(sosrep::io::jsonCompact(j)),
                 QJsonDocument(q).toJson(QJsonDocument::Compact));
        QCOMPARE(QByteArray::fromStdString(sosrep::io::jsonIndented(j)),
                 QJsonDocument(q).toJson(QJsonDocument::Indented));
    }

    void syntaxErrorsNameTheLineAndColumn()
    {
        try {
            sosrep::io::parseJsonObject("{\n  \"a\": 1,\n  \"b\": ]\n}", "f.json");
            QFAIL("accepted");
        } catch (const sosrep::DataError& e) {
            const QString what = QString::fromStdString(e.what());
            QVERIFY2(what.startsWith(QStringLiteral("f.json:3:")) &&
                         what.contains(QStringLiteral("invalid JSON")),
                     qPrintable(what));
        }
    }

    void aRepeatedKeyIsRefused()
    {
        try {
            sosrep::io::parseJsonObject(R"({"a": {"x": 1, "x": 2}, "b": 3})", "f.json");
            QFAIL("accepted");
        } catch (const sosrep::DataError& e) {
            QVERIFY2(std::string(e.what()).find("\"x\" appears twice") != std::string::npos,
                     e.what());
        }
        // The same key in two objects is not a repeat.
        const Json ok = sosrep::io::parseJsonObject(R"({"a": {"x": 1}, "b": {"x": 2}})", "f");
        QCOMPARE(ok["b"]["x"].get<int>(), 2);
    }

    // Found by fuzz_model_file and fuzz_project_file: a number too large for a double made
    // nlohmann-json throw out_of_range, which no reader caught (the process ended).
    void aNumberBeyondADoubleIsADataError()
    {
        for (const char* text : {R"({"a": 444e444444})", R"({"a": [-0.545E146224353546]})"}) {
            try {
                sosrep::io::parseJsonObject(text, "f.json");
                QFAIL("accepted");
            } catch (const sosrep::DataError& e) {
                QVERIFY2(std::string(e.what()).find("number overflow") != std::string::npos,
                         e.what());
            }
        }
    }

    void theTopLevelIsAnObject()
    {
        QVERIFY_THROWS_EXCEPTION(sosrep::DataError, sosrep::io::parseJsonObject("[1]", "f"));
    }
};

QTEST_APPLESS_MAIN(TstJsonFormat)
#include "tst_json_format.moc"
