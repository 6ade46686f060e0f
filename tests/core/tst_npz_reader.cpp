// SPDX-License-Identifier: MIT
// Tests of the .npy/.npz readers, on made-up and real files.
#include "core/data/npz_reader.h"
#include "core/errors.h"
#include "support/shared_data.h"

#include <QtTest>

#include <cstring>
#include <fstream>

using namespace sosrep;

namespace {

/// Builds a .npy payload by hand: magic, version, padded header, raw little-endian data.
std::vector<unsigned char> makeNpy(int version, const std::string& dict, const void* data,
                                   size_t bytes)
{
    std::vector<unsigned char> out = {
        0x93, 'N', 'U', 'M', 'P', 'Y', static_cast<unsigned char>(version), 0};
    const size_t lenBytes = version == 1 ? 2 : 4;
    std::string header = dict;
    while ((out.size() + lenBytes + header.size() + 1) % 64 != 0) {
        header += ' ';
    }
    header += '\n';
    for (size_t i = 0; i < lenBytes; ++i) {
        out.push_back(static_cast<unsigned char>((header.size() >> (8 * i)) & 0xFF));
    }
    out.insert(out.end(), header.begin(), header.end());
    const auto* p = static_cast<const unsigned char*>(data);
    out.insert(out.end(), p, p + bytes);
    return out;
}

} // namespace

class TstNpzReader : public QObject
{
    Q_OBJECT

private slots:
    void npy_versionsAndOrders()
    {
        const double c[6] = {1, 2, 3, 4, 5, 6}; // C order 2x3: rows (1,2,3), (4,5,6)
        const double f[6] = {1, 4, 2, 5, 3, 6}; // the same matrix in Fortran order
        for (int v : {1, 2, 3}) {
            const auto a =
                parseNpy(makeNpy(v, "{'descr': '<f8', 'fortran_order': False, 'shape': (2, 3), }",
                                 c, sizeof c),
                         "c");
            const auto b =
                parseNpy(makeNpy(v, "{'descr': '<f8', 'fortran_order': True, 'shape': (2, 3), }", f,
                                 sizeof f),
                         "f");
            QCOMPARE(a.shape, (std::vector<size_t>{2, 3}));
            QCOMPARE(a.values, b.values);
            QCOMPARE(a.values[3], 4.0);
        }
    }

    void npy_dtypes()
    {
        const float f4[2] = {1.5f, -2.0f};
        const int64_t i8[2] = {-7, 9};
        const int32_t i4[2] = {-3, 4};
        const int16_t i2[2] = {-300, 301};
        const uint8_t u1[2] = {0, 255};
        const uint8_t b1[2] = {1, 0};
        struct Case
        {
            const char* descr;
            const void* data;
            size_t bytes;
            double first;
            double second;
        };
        const Case cases[] = {{"<f4", f4, sizeof f4, 1.5, -2.0}, {"<i8", i8, sizeof i8, -7, 9},
                              {"<i4", i4, sizeof i4, -3, 4},     {"<i2", i2, sizeof i2, -300, 301},
                              {"|u1", u1, sizeof u1, 0, 255},    {"|b1", b1, sizeof b1, 1, 0}};
        for (const Case& k : cases) {
            const std::string dict = std::string("{'descr': '") + k.descr +
                                     "', 'fortran_order': False, 'shape': (2,), }";
            const auto a = parseNpy(makeNpy(1, dict, k.data, k.bytes), k.descr);
            QCOMPARE(a.values[0], k.first);
            QCOMPARE(a.values[1], k.second);
        }
        const unsigned char be[8] = {0x3F, 0xF8, 0, 0, 0, 0, 0, 0}; // 1.5 big-endian
        QCOMPARE(
            parseNpy(makeNpy(1, "{'descr': '>f8', 'fortran_order': False, 'shape': (1,), }", be, 8),
                     "be")
                .values[0],
            1.5);
    }

    void npy_errors()
    {
        const double x = 1;
        QVERIFY_THROWS_EXCEPTION(DataError, parseNpy({1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}, "bad"));
        try {
            parseNpy(
                makeNpy(1, "{'descr': '<c16', 'fortran_order': False, 'shape': (1,), }", &x, 8),
                "a");
            QFAIL("expected a DataError");
        } catch (const DataError& e) {
            QVERIFY(
                QString::fromLatin1(e.what()).contains(QStringLiteral("unsupported dtype '<c16'")));
        }
        try {
            parseNpy(makeNpy(1, "{'descr': '<f8', 'fortran_order': False, 'shape': (4,), }", &x, 8),
                     "a");
            QFAIL("expected a DataError");
        } catch (const DataError& e) {
            QCOMPARE(
                QString::fromLatin1(e.what()),
                QStringLiteral("a: array data truncated: shape (4) needs more elements than the 1 "
                               "present"));
        }
    }

    void adbench_shapesAndAnomalyCounts_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("n");
        QTest::addColumn<int>("d");
        QTest::addColumn<int>("anomalies");
        // From shared/datasets/adbench/README.md.
        QTest::newRow("glass") << "14_glass.npz" << 214 << 7 << 9;
        QTest::newRow("Hepatitis") << "15_Hepatitis.npz" << 80 << 19 << 13;
        QTest::newRow("letter") << "20_letter.npz" << 1600 << 32 << 100;
        QTest::newRow("Lymphography") << "21_Lymphography.npz" << 148 << 18 << 6;
        QTest::newRow("magic.gamma") << "22_magic.gamma.npz" << 19020 << 10 << 6688;
        QTest::newRow("mammography") << "23_mammography.npz" << 11183 << 6 << 260;
        QTest::newRow("mnist") << "24_mnist.npz" << 7603 << 100 << 700;
        QTest::newRow("PageBlocks") << "27_PageBlocks.npz" << 5393 << 10 << 510;
        QTest::newRow("shuttle") << "32_shuttle.npz" << 49097 << 9 << 3511;
        QTest::newRow("skin") << "33_skin.npz" << 245057 << 3 << 50859;
        QTest::newRow("SpamBase") << "35_SpamBase.npz" << 4207 << 57 << 1679;
        QTest::newRow("Stamps") << "37_Stamps.npz" << 340 << 9 << 31;
        QTest::newRow("WDBC") << "43_WDBC.npz" << 367 << 30 << 10;
        QTest::newRow("wine") << "45_wine.npz" << 129 << 13 << 10;
    }

    void adbench_shapesAndAnomalyCounts()
    {
        QFETCH(QString, file);
        QFETCH(int, n);
        QFETCH(int, d);
        QFETCH(int, anomalies);
        const Dataset ds = readNpzDataset(adbenchPath(file.toLatin1().constData()));
        QCOMPARE(int(ds.rows()), n);
        QCOMPARE(int(ds.dim()), d);
        QVERIFY(ds.hasLabels());
        QCOMPARE(ds.labels->sum(), anomalies);
        QVERIFY(ds.x.allFinite());
    }

    void adbench_fortranOrderValues()
    {
        // letter's X is u1 in Fortran order: every value is an integer in [0, 15] and columns
        // are not constant, which a row/column mix-up would break for the first row.
        const Dataset ds = readNpzDataset(adbenchPath("20_letter.npz"));
        QVERIFY(ds.x.minCoeff() >= 0.0 && ds.x.maxCoeff() <= 255.0);
        QCOMPARE(ds.x(0, 0), std::round(ds.x(0, 0)));
        const Dataset sh = readNpzDataset(adbenchPath("32_shuttle.npz"));
        QVERIFY(sh.x.col(0).maxCoeff() > sh.x.col(0).minCoeff());
    }

    // Issue 11: crafted archives (tests/data/bad, written by tests/tools/make_bad_inputs) that
    // crashed or misled the reader. Each must end in a DataError naming the file and saying what
    // is wrong; the ASan+UBSan build of this test checks that nothing reads out of bounds.
    void npz_craftedArchivesAreDataErrors_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("message");
        QTest::newRow("shape product overflows")
            << "npz_shape_overflow.npz"
            << "[X.npy]: array data truncated: shape (2305843009213693952, 8)";
        QTest::newRow("stored member larger than it holds")
            << "npz_stored_size_larger.npz"
            << "stored member declares 100160 bytes but holds 160";
        QTest::newRow("stored member smaller than it holds")
            << "npz_stored_size_smaller.npz"
            << "stored member declares 12 bytes but holds 160";
        QTest::newRow("file-name length past the end")
            << "npz_name_length_overflow.npz"
            << "the file name of central directory entry 1 lies beyond the end of the data";
        QTest::newRow("zip64 extra field past its end")
            << "npz_zip64_extra_truncated.npz"
            << "a zip64 extra field of central directory entry 1 lies beyond the end";
        QTest::newRow("zero-size member") << "npz_zero_size_member.npz"
                                          << "[X.npy]: not a .npy array (bad magic bytes)";
        QTest::newRow("declared size of 2^60 bytes") << "npz_huge_declared_size.npz"
                                                     << "above the reader's limit of 4.29 GB";
        QTest::newRow("declared size beyond deflate's ratio")
            << "npz_declared_size_beyond_deflate_ratio.npz"
            << "more than deflate can expand to";
        QTest::newRow("shape far beyond the data")
            << "npz_huge_shape.npz"
            << "shape (100000000000, 100) needs more elements than the 4";
        QTest::newRow("entry count too large") << "npz_entry_count_too_large.npz"
                                               << "60000 entries cannot fit";
        QTest::newRow("directory offset past the end")
            << "npz_directory_offset_past_end.npz"
            << "the central directory lies beyond the end of the data";
        QTest::newRow("inflates past its declared size") << "npz_inflates_past_declared_size.npz"
                                                         << "inflates to more than its declared 40";
        QTest::newRow("deflate stream truncated") << "npz_deflate_truncated.npz"
                                                  << "deflate data is corrupt or truncated";
        QTest::newRow("header literal unterminated") << "npz_header_unterminated.npz"
                                                     << "malformed .npy header";
        QTest::newRow("fortran_order not a bool") << "npz_fortran_flag_not_bool.npz"
                                                  << "fortran_order must be True or False";
        QTest::newRow("dtype with trailing text") << "npz_descr_trailing_garbage.npz"
                                                  << "unsupported dtype '<f8junk'";
        QTest::newRow("labels not 0/1") << "npz_labels_not_binary.npz"
                                        << "[y]:2:1: labels must be 0";
        QTest::newRow("no X") << "npz_no_X.npz"
                              << "archive has no array named 'X'";
        QTest::newRow("empty X") << "npz_X_empty.npz"
                                 << "array 'X' is empty (0 rows, 3 columns)";
        QTest::newRow("duplicate member") << "npz_duplicate_member.npz"
                                          << "[X.npy]: the archive holds two members of this name";
        QTest::newRow("not a zip") << "npz_not_a_zip.npz"
                                   << "not a .npz archive";
    }

    void npz_craftedArchivesAreDataErrors()
    {
        QFETCH(QString, file);
        QFETCH(QString, message);
        const std::string path = std::string(SOSREP_TEST_DATA_DIR "/bad/") + file.toStdString();
        try {
            readNpzDataset(path);
            QFAIL("expected a DataError");
        } catch (const DataError& e) {
            const QString what = QString::fromStdString(e.what());
            QVERIFY2(what.startsWith(QString::fromStdString(path)), e.what());
            QVERIFY2(what.contains(message), e.what());
        }
    }

    void npz_validSmallArchiveReads()
    {
        const Dataset ds = readNpzDataset(SOSREP_TEST_DATA_DIR "/bad/npz_valid_small.npz");
        QCOMPARE(int(ds.rows()), 2);
        QCOMPARE(ds.x(1, 0), 3.0);
        QCOMPARE((*ds.labels)(1), 1);
    }

    void npz_directoryIsNotAFile()
    {
        try {
            readNpzDataset(SOSREP_TEST_DATA_DIR);
            QFAIL("expected a DataError");
        } catch (const DataError& e) {
            QVERIFY2(QString::fromStdString(e.what()).contains(QStringLiteral("is a directory")),
                     e.what());
        }
    }

    void npz_corruptArchiveIsDataError()
    {
        std::ifstream in(adbenchPath("45_wine.npz"), std::ios::binary);
        std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        QVERIFY(bytes.size() > 2000);
        bytes[200] = static_cast<char>(bytes[200] ^ 0x5A); // flip bits inside the first member
        const std::string path = QDir::tempPath().toStdString() + "/tst_npz_corrupt.npz";
        std::ofstream(path, std::ios::binary) << bytes;
        QVERIFY_THROWS_EXCEPTION(DataError, readNpzDataset(path));
        std::ofstream(path, std::ios::binary) << "not a zip file at all, just text";
        try {
            readNpzDataset(path);
            QFAIL("expected a DataError");
        } catch (const DataError& e) {
            QCOMPARE(QString::fromStdString(e.what()),
                     QString::fromStdString(
                         path + ": not a .npz archive (no zip end-of-directory record)"));
        }
    }
};

QTEST_APPLESS_MAIN(TstNpzReader)
#include "tst_npz_reader.moc"
