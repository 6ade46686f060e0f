// SPDX-License-Identifier: MIT
// Tests of the CSV reader: dialects, locale and located errors.
#include "core/data/csv_reader.h"
#include "core/errors.h"

#include <QTemporaryDir>
#include <QtTest>

#include <fstream>

#include <sstream>

using namespace sosrep;

class TstCsvReader : public QObject
{
    Q_OBJECT

private:
    static Dataset read(const std::string& text)
    {
        std::istringstream in(text);
        CsvReadOptions opt;
        opt.source = "t.csv";
        return readCsv(in, opt);
    }

private slots:
    void parse_delimitersQuotesLineEnds_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QStringList>("columns");
        QTest::addColumn<double>("last"); // value of the last cell
        QTest::newRow("comma") << QByteArray("a,b\n1,2\n3,4\n") << QStringList{"a", "b"} << 4.0;
        QTest::newRow("semicolon") << QByteArray("a;b\n1;2\n3;4.5") << QStringList{"a", "b"} << 4.5;
        QTest::newRow("tab") << QByteArray("a\tb\n1\t2\n3\t-4e2\n") << QStringList{"a", "b"}
                             << -400.0;
        QTest::newRow("crlf") << QByteArray("a,b\r\n1,2\r\n3,4\r\n") << QStringList{"a", "b"}
                              << 4.0;
        QTest::newRow("bom") << QByteArray("\xEF\xBB\xBFx,y\n1,2\n") << QStringList{"x", "y"}
                             << 2.0;
        QTest::newRow("quoted header with delimiter and newline")
            << QByteArray("\"a,1\",\"b\nc\"\n1,\"2.5\"\n") << QStringList{"a,1", "b\nc"} << 2.5;
        QTest::newRow("doubled quotes")
            << QByteArray("\"say \"\"hi\"\"\",b\n1,2\n") << QStringList{"say \"hi\"", "b"} << 2.0;
        QTest::newRow("plus sign and spaces")
            << QByteArray("a,b\n 1 , +2 \n") << QStringList{"a", "b"} << 2.0;
        QTest::newRow("blank lines skipped")
            << QByteArray("a,b\n\n1,2\n\n") << QStringList{"a", "b"} << 2.0;
    }

    void parse_delimitersQuotesLineEnds()
    {
        QFETCH(QByteArray, text);
        QFETCH(QStringList, columns);
        QFETCH(double, last);
        const Dataset ds = read(text.toStdString());
        QCOMPARE(int(ds.columns.size()), int(columns.size()));
        for (int j = 0; j < columns.size(); ++j) {
            QCOMPARE(QString::fromStdString(ds.columns[size_t(j)]), columns[j]);
        }
        QCOMPARE(ds.x(ds.rows() - 1, ds.dim() - 1), last);
    }

    void parse_isLocaleIndependent()
    {
        // A German locale would read "1.5" as 15 or stop at '.'; from_chars never does.
        std::locale::global(std::locale("C.UTF-8"));
        const Dataset ds = read("a\n1.5\n");
        QCOMPARE(ds.x(0, 0), 1.5);
    }

    void errors_nameLineAndColumn_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("message");
        QTest::newRow("empty") << QByteArray("")
                               << "t.csv: file is empty (expected a header row and data rows)";
        QTest::newRow("header only")
            << QByteArray("a,b\n") << "t.csv: no data rows after the header";
        QTest::newRow("missing empty")
            << QByteArray("a,b\n1,2\n3,\n")
            << "t.csv:3:2: missing value '' in column 'b' (remove or impute incomplete rows first)";
        QTest::newRow("missing NA") << QByteArray("a,b\n1,NA\n")
                                    << "t.csv:2:2: missing value 'NA' in column 'b' (remove or "
                                       "impute incomplete rows first)";
        QTest::newRow("missing NaN") << QByteArray("a;b\nNaN;1\n")
                                     << "t.csv:2:1: missing value 'NaN' in column 'a' (remove or "
                                        "impute incomplete rows first)";
        QTest::newRow("missing ?") << QByteArray("a\tb\n1\t2\n?\t2\n")
                                   << "t.csv:3:1: missing value '?' in column 'a' (remove or "
                                      "impute incomplete rows first)";
        QTest::newRow("text") << QByteArray("a,b\n1,abc\n")
                              << "t.csv:2:2: not a number: 'abc' in column 'b'";
        QTest::newRow("comma decimal")
            << QByteArray("a;b\n1,5;2\n") << "t.csv:2:1: not a number: '1,5' in column 'a'";
        QTest::newRow("ragged") << QByteArray("a,b\n1,2\n1,2,3\n")
                                << "t.csv:3: expected 2 fields (as in the header), found 3";
        QTest::newRow("unterminated quote")
            << QByteArray("a,b\n1,\"2\n") << "t.csv:2:2: unterminated quoted field";
        QTest::newRow("inf") << QByteArray("a\ninf\n")
                             << "t.csv:2:1: non-finite value 'inf' in column 'a'";
        QTest::newRow("line after quoted newline")
            << QByteArray("\"a\nb\",c\n1,2\n1,x\n") << "t.csv:4:2: not a number: 'x' in column 'c'";
        // Issue 11: duplicate names, and user text that must not cut or flood the message.
        QTest::newRow("duplicate header")
            << QByteArray("a,b,a\n1,2,3\n")
            << "t.csv:1:3: column name 'a' appears twice (columns 1 and 3)";
        QTest::newRow("NUL byte in a field") << QByteArray("a,b\n1,x\0y\n", 11)
                                             << "t.csv:2:2: not a number: 'x\\x00y' in column 'b'";
        QTest::newRow("1 MB field")
            << QByteArray("a\n") + QByteArray(1 << 20, 'z') + QByteArray("\n")
            << "t.csv:2:1: not a number: '" + QString(40, QLatin1Char('z')) + "...' in column 'a'";
    }

    void errors_nameLineAndColumn()
    {
        QFETCH(QByteArray, text);
        QFETCH(QString, message);
        try {
            read(text.toStdString());
            QFAIL("expected a DataError");
        } catch (const DataError& e) {
            QCOMPARE(QString::fromStdString(e.what()), message);
        }
    }

    void labelColumn_movesOutOfFeatures()
    {
        Dataset ds = read("x,label,y\n1,0,2\n3,1,4\n").withLabelColumn("label");
        QCOMPARE(ds.dim(), Eigen::Index(2));
        QCOMPARE(ds.columns[1], std::string("y"));
        QVERIFY(ds.hasLabels());
        QCOMPARE((*ds.labels)(1), 1);
        QCOMPARE(ds.x(1, 1), 4.0);
    }

    void labelColumn_rejectsNonBinary()
    {
        try {
            read("x,label\n1,0\n3,2\n").withLabelColumn("label");
            QFAIL("expected a DataError");
        } catch (const DataError& e) {
            QCOMPARE(QString::fromStdString(e.what()),
                     QStringLiteral("t.csv:3:2: label column 'label' must hold 0 (normal) or 1 "
                                    "(anomaly), got 2"));
        }
    }

    void selectColumns_unknownNameIsParameterError()
    {
        const Dataset ds = read("x,y\n1,2\n");
        QCOMPARE(ds.selectColumns({"y"}).x(0, 0), 2.0);
        QVERIFY_THROWS_EXCEPTION(ParameterError, ds.selectColumns({"z"}));
    }

    // Issue 52: a header of 300 000 columns took 75 s before any check (1e6: ~14 min), every
    // name compared with every earlier one. The bound is a hang guard: a linear check of 10^6
    // names takes about a second here (10-20 under AddressSanitizer); the quadratic one, minutes.
    void wideHeader_isCheckedWithoutComparingEveryPair()
    {
        const auto text = [](int columns, bool duplicate) {
            std::string header;
            std::string row;
            for (int j = 0; j < columns; ++j) {
                header += (j ? ",c" : "c") + std::to_string(j);
                row += j ? ",1" : "1";
            }
            return duplicate ? header + ",c0\n" + row + ",1\n" : header + "\n" + row + "\n";
        };
        const std::string wide = text(1000000, true);
        QElapsedTimer timer;
        timer.start();
        try {
            read(wide);
            QFAIL("expected a DataError");
        } catch (const DataError& e) {
            QCOMPARE(QString::fromStdString(e.what()),
                     QStringLiteral("t.csv:1:1000001: column name 'c0' appears twice (columns 1 "
                                    "and 1000001)"));
        }
        QVERIFY2(timer.elapsed() < 120000, qPrintable(QString::number(timer.elapsed())));
        // Selecting, matching and checking all of them (each once a search per name).
        const int columns = 200000;
        const Dataset ds = read(text(columns, false));
        QCOMPARE(ds.dim(), Eigen::Index(columns));
        std::vector<std::string> reversed(ds.columns.rbegin(), ds.columns.rend());
        checkDistinctNames(reversed, "columns");
        const Dataset flipped = ds.selectColumns(reversed);
        QCOMPARE(flipped.columns.front(), std::string("c199999"));
        std::vector<std::string> unused;
        QCOMPARE(flipped.matchColumns(ds.columns, &unused).dim(), Eigen::Index(columns));
        QVERIFY(unused.empty());
        reversed.push_back("c5");
        QVERIFY_THROWS_EXCEPTION(ParameterError, checkDistinctNames(reversed, "columns"));
    }

    // Issue 24: one text column made a CSV unloadable in the app. An interactive read leaves it
    // out (and says which); rows with NA are left out only when asked. The strict read, the
    // command line's, still refuses both with the same messages.
    void lenientRead_leavesOutTextColumnsAndIncompleteRows()
    {
        const std::string text = "id,x,y\nrow1,1,2\nrow2,NA,4\nrow3,5,6\n";
        try {
            read(text);
            QFAIL("the strict read accepted text");
        } catch (const DataError& e) {
            QCOMPARE(QString::fromStdString(e.what()),
                     QStringLiteral("t.csv:2:1: not a number: 'row1' in column 'id'"));
        }
        CsvReadOptions opt;
        opt.source = "t.csv";
        opt.dropTextColumns = true;
        CsvReadReport report;
        {
            std::istringstream in(text);
            try {
                readCsv(in, opt, &report);
                QFAIL("rows with NA were dropped without being asked");
            } catch (const DataError& e) {
                QVERIFY2(QString::fromStdString(e.what()).contains(
                             QStringLiteral("t.csv:3:2: missing value 'NA' in column 'x'")),
                         e.what());
            }
        }
        opt.dropIncompleteRows = true;
        report = CsvReadReport();
        std::istringstream in(text);
        const Dataset ds = readCsv(in, opt, &report);
        QCOMPARE(ds.columns, (std::vector<std::string>{"x", "y"}));
        QCOMPARE(ds.rows(), Eigen::Index(2));
        QCOMPARE(ds.x(1, 0), 5.0);
        QCOMPARE(ds.x(1, 1), 6.0);
        // The first text column names the rows (those kept), it is not "left out".
        QVERIFY(report.textColumns.empty());
        QCOMPARE(report.rowNameColumn, std::string("id"));
        QCOMPARE(ds.rowNameColumn, std::string("id"));
        QCOMPARE(ds.rowNames, (std::vector<std::string>{"row1", "row3"}));
        QCOMPARE(report.incompleteRows, 1L);
        QCOMPARE(report.droppedRows, 1L);
        // A stray word in a numeric column is a data error, not a text column.
        std::istringstream stray("a,b\n1,2\n3,oops\n");
        try {
            readCsv(stray, opt, &report);
            QFAIL("a stray word dropped its column");
        } catch (const DataError& e) {
            QCOMPARE(QString::fromStdString(e.what()),
                     QStringLiteral("t.csv:3:2: not a number: 'oops' in column 'b'"));
        }
        // Asked for (the app asks, issue 50), a stray word's row is left out and counted.
        CsvReadOptions strayOptions = opt;
        strayOptions.dropStrayTextRows = true;
        std::istringstream strayAgain("a,b\n1,2\n3,oops\n5,6\n");
        CsvReadReport strayReport;
        const Dataset kept = readCsv(strayAgain, strayOptions, &strayReport);
        QCOMPARE(kept.columns, (std::vector<std::string>{"a", "b"}));
        QCOMPARE(kept.rows(), Eigen::Index(2));
        QCOMPARE(kept.x(1, 0), 5.0);
        QCOMPARE(strayReport.strayTextRows, 1L);
        QCOMPARE(strayReport.droppedRows, 1L);
        // A file of text only is still refused.
        std::istringstream words("a,b\nx,y\n");
        QVERIFY_THROWS_EXCEPTION(DataError, readCsv(words, opt, &report));
    }

    // Issue 50: seaborn's usual hue is a text column (iris's species), which an interactive
    // read took as the row names. A text column of 2 to 12 values, each on two rows or more on
    // average, is read as categories: codes in order of first appearance, the texts kept; a
    // column of distinct names still names the rows; the strict read still refuses text.
    void lenientRead_readsATextColumnOfFewValuesAsCategories()
    {
        const std::string text = "name,x,species\n"
                                 "a,1.5,setosa\nb,2.5,versicolor\nc,3.5,setosa\n"
                                 "d,4.5,virginica\ne,NA,versicolor\nf,6.5,virginica\n"
                                 "g,7.5,setosa\n";
        CsvReadOptions opt;
        opt.source = "t.csv";
        opt.dropTextColumns = true;
        opt.dropIncompleteRows = true;
        CsvReadReport report;
        std::istringstream in(text);
        const Dataset ds = readCsv(in, opt, &report);
        QCOMPARE(ds.columns, (std::vector<std::string>{"x", "species"}));
        QCOMPARE(ds.rowNameColumn, std::string("name"));
        QCOMPARE(ds.rowNames, (std::vector<std::string>{"a", "b", "c", "d", "f", "g"}));
        QCOMPARE(report.categoryColumns, (std::vector<std::string>{"species"}));
        QVERIFY(report.textColumns.empty());
        QCOMPARE(ds.categories.at("species"),
                 (std::vector<std::string>{"setosa", "versicolor", "virginica"}));
        const std::vector<double> codes{0, 1, 0, 2, 2, 0}; // row e (NA) left out
        for (size_t i = 0; i < codes.size(); ++i) {
            QCOMPARE(ds.x(Eigen::Index(i), 1), codes[i]);
        }
        // Kept through row and column selection.
        QCOMPARE(ds.selectRows({1, 3}).categories.at("species").size(), size_t(3));
        QCOMPARE(ds.selectColumns({"species"}).categories.count("species"), size_t(1));
        // Thirteen values are not a group: the column is left out (the names took the id).
        std::string many = "name,x,code\n";
        for (int i = 0; i < 30; ++i) {
            many += "r" + std::to_string(i) + "," + std::to_string(i) + ",c" +
                    std::to_string(i % 13) + "\n";
        }
        std::istringstream manyIn(many);
        CsvReadReport manyReport;
        const Dataset wide = readCsv(manyIn, opt, &manyReport);
        QVERIFY(wide.categories.empty());
        QCOMPARE(manyReport.textColumns, (std::vector<std::string>{"code"}));
        // Values on fewer than two rows each on average are names, not categories.
        std::istringstream named("who,x\nann,1\nbob,2\nann,3\ncid,4\n");
        CsvReadReport namedReport;
        const Dataset byName = readCsv(named, opt, &namedReport);
        QVERIFY(byName.categories.empty());
        QCOMPARE(byName.rowNameColumn, std::string("who"));
        // The strict read (the command line's) refuses the text as before.
        std::istringstream strict(text);
        CsvReadOptions strictOptions;
        strictOptions.source = "t.csv";
        QVERIFY_THROWS_EXCEPTION(DataError, readCsv(strict, strictOptions));
    }

    // The id column (--id-column, the app's row names): read as text in any read, not a
    // feature; quoted names whole, a missing name empty, numbers as written; a second text
    // column of an interactive read is left out as before, and one whose first cells are
    // missing names those rows "".
    void idColumn_namesTheRows()
    {
        const std::string text = "x,who,y\n1,\"Smith, J\",2\n3,,4\n5,17,6\n";
        CsvReadOptions opt;
        opt.source = "t.csv";
        opt.idColumn = "who";
        std::istringstream in(text);
        const Dataset ds = readCsv(in, opt);
        QCOMPARE(ds.columns, (std::vector<std::string>{"x", "y"}));
        QCOMPARE(ds.rowNames, (std::vector<std::string>{"Smith, J", "", "17"}));
        QCOMPARE(ds.rowNameColumn, std::string("who"));
        QCOMPARE(ds.x(2, 1), 6.0);
        // Row and column selections keep the names with their rows.
        const Dataset picked = ds.selectRows({2, 0}).selectColumns({"y"});
        QCOMPARE(picked.rowNames, (std::vector<std::string>{"17", "Smith, J"}));
        // A name that is not a column: the file, and the columns it has.
        opt.idColumn = "name";
        std::istringstream again(text);
        try {
            readCsv(again, opt);
            QFAIL("an unknown id column was accepted");
        } catch (const DataError& e) {
            QVERIFY2(QString::fromStdString(e.what()).startsWith(
                         QStringLiteral("t.csv:1: no id column named 'name' (columns: 'x'")),
                     e.what());
        }
        CsvReadOptions lenient;
        lenient.source = "t.csv";
        lenient.dropTextColumns = true;
        CsvReadReport report;
        std::istringstream two("a,name,kind,b\n1,,u,2\n3,bob,v,4\n");
        const Dataset named = readCsv(two, lenient, &report);
        QCOMPARE(named.columns, (std::vector<std::string>{"a", "b"}));
        QCOMPARE(named.rowNames, (std::vector<std::string>{"", "bob"}));
        QCOMPARE(report.rowNameColumn, std::string("name"));
        QCOMPARE(report.textColumns, std::vector<std::string>{"kind"});
    }

    // Issue 52: a project or model file given as data read as a table of odd columns. Said for
    // what it is; a CSV whose first name starts with '{' still reads.
    void ourJsonFilesAreNotData()
    {
        QTemporaryDir dir;
        const std::string project = dir.filePath(QStringLiteral("p.sosrep.json")).toStdString();
        const std::string model = dir.filePath(QStringLiteral("m.json")).toStdString();
        const std::string braces = dir.filePath(QStringLiteral("b.csv")).toStdString();
        std::ofstream(project) << "{\n    \"format\": \"sosrep-studio-project\",\n}\n";
        std::ofstream(model) << "{\"format\":\"sosrep-model\",\"version\":3}";
        std::ofstream(braces) << "{a},b\n1,2\n3,4\n";
        for (const auto& [path, words] :
             {std::pair<std::string, const char*>{project, "is a SOSREP Studio project file"},
              {model, "is a sosrep model file, not data"}}) {
            try {
                readCsvFile(path);
                QFAIL("a JSON file read as data");
            } catch (const DataError& e) {
                QVERIFY2(QString::fromStdString(e.what()).contains(QLatin1String(words)), e.what());
                QVERIFY2(QString::fromStdString(e.what()).startsWith(QString::fromStdString(path)),
                         e.what());
            }
        }
        QCOMPARE(readCsvFile(braces).columns, (std::vector<std::string>{"{a}", "b"}));
    }
};

QTEST_APPLESS_MAIN(TstCsvReader)
#include "tst_csv_reader.moc"
