// SPDX-License-Identifier: MIT
// Writes the crafted inputs of tests/data (issue 11): in bad/, .npz archives that once crashed
// the reader (each named after what is wrong with it) and malformed text and model files; in
// fuzz/<target>/, the fuzzers' seed corpora. The files are committed; `make_bad_inputs --check
// DIR` regenerates them in memory and fails if DIR differs, so the committed files are always
// what this program makes.
//
//   make_bad_inputs DIR          write every file under DIR (tests/data)
//   make_bad_inputs --check DIR  compare instead of writing (a ctest)

#include <zlib.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <iterator>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace {

using Bytes = std::vector<unsigned char>;

void put(Bytes& b, uint64_t v, int n)
{
    for (int i = 0; i < n; ++i) {
        b.push_back(static_cast<unsigned char>((v >> (8 * i)) & 0xFF));
    }
}

Bytes text(const std::string& s)
{
    return Bytes(s.begin(), s.end());
}

/// A .npy payload: version-1 header padded to 64 bytes, then `data`.
Bytes npy(const std::string& dict, const Bytes& data)
{
    Bytes out = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0};
    std::string header = dict;
    while ((out.size() + 2 + header.size() + 1) % 64 != 0) {
        header += ' ';
    }
    header += '\n';
    put(out, header.size(), 2);
    out.insert(out.end(), header.begin(), header.end());
    out.insert(out.end(), data.begin(), data.end());
    return out;
}

Bytes doubles(const std::vector<double>& v)
{
    Bytes out;
    for (double x : v) {
        unsigned char b[8];
        std::memcpy(b, &x, 8);
        out.insert(out.end(), b, b + 8);
    }
    return out;
}

Bytes deflateRaw(const Bytes& in)
{
    z_stream zs{};
    deflateInit2(&zs, 9, Z_DEFLATED, -MAX_WBITS, 8, Z_DEFAULT_STRATEGY);
    Bytes out(deflateBound(&zs, in.size()) + 16);
    zs.next_in = const_cast<Bytef*>(in.data());
    zs.avail_in = static_cast<uInt>(in.size());
    zs.next_out = out.data();
    zs.avail_out = static_cast<uInt>(out.size());
    deflate(&zs, Z_FINISH);
    out.resize(zs.total_out);
    deflateEnd(&zs);
    return out;
}

/// One zip member and the ways a crafted archive lies about it.
struct Member
{
    Member(std::string n, Bytes p, bool d = false)
        : name(std::move(n)), payload(std::move(p)), deflate(d)
    {
    }
    std::string name;
    Bytes payload;
    bool deflate = false;
    std::optional<uint64_t> centralUsize; // declared uncompressed size (central directory)
    std::optional<uint64_t> centralCsize;
    std::optional<uint64_t> nameLength; // declared file-name length (central directory)
    Bytes centralExtra;                 // raw extra field of the central entry
    bool truncateData = false;          // keep only half the compressed bytes
};

struct ZipOptions
{
    std::optional<uint64_t> entries;  // declared number of entries
    std::optional<uint64_t> cdOffset; // declared central-directory offset
};

Bytes zip(const std::vector<Member>& members, const ZipOptions& o = {})
{
    Bytes out;
    Bytes cd;
    for (const Member& m : members) {
        Bytes data = m.deflate ? deflateRaw(m.payload) : m.payload;
        if (m.truncateData) {
            data.resize(data.size() / 2);
        }
        const uint32_t crc = static_cast<uint32_t>(
            crc32(0L, m.payload.empty() ? Z_NULL : m.payload.data(), uInt(m.payload.size())));
        const uint64_t local = out.size();
        put(out, 0x04034b50, 4);
        put(out, 20, 2);
        put(out, 0, 2);
        put(out, m.deflate ? 8 : 0, 2);
        put(out, 0, 4); // time, date
        put(out, crc, 4);
        put(out, data.size(), 4);
        put(out, m.payload.size(), 4);
        put(out, m.name.size(), 2);
        put(out, 0, 2);
        out.insert(out.end(), m.name.begin(), m.name.end());
        out.insert(out.end(), data.begin(), data.end());

        put(cd, 0x02014b50, 4);
        put(cd, 20, 2);
        put(cd, 20, 2);
        put(cd, 0, 2);
        put(cd, m.deflate ? 8 : 0, 2);
        put(cd, 0, 4);
        put(cd, crc, 4);
        put(cd, m.centralCsize.value_or(data.size()), 4);
        put(cd, m.centralUsize.value_or(m.payload.size()), 4);
        put(cd, m.nameLength.value_or(m.name.size()), 2);
        put(cd, m.centralExtra.size(), 2);
        put(cd, 0, 2); // comment
        put(cd, 0, 2); // disk
        put(cd, 0, 2); // internal attributes
        put(cd, 0, 4); // external attributes
        put(cd, local, 4);
        cd.insert(cd.end(), m.name.begin(), m.name.end());
        cd.insert(cd.end(), m.centralExtra.begin(), m.centralExtra.end());
    }
    const uint64_t cdOffset = out.size();
    out.insert(out.end(), cd.begin(), cd.end());
    put(out, 0x06054b50, 4);
    put(out, 0, 4);
    put(out, o.entries.value_or(members.size()), 2);
    put(out, o.entries.value_or(members.size()), 2);
    put(out, cd.size(), 4);
    put(out, o.cdOffset.value_or(cdOffset), 4);
    put(out, 0, 2);
    return out;
}

const std::string kGood2x2 = "{'descr': '<f8', 'fortran_order': False, 'shape': (2, 2), }";

Member goodX()
{
    return {"X.npy", npy(kGood2x2, doubles({1, 2, 3, 4}))};
}

Bytes bytesOf(std::initializer_list<int> v)
{
    Bytes out;
    for (int x : v) {
        out.push_back(static_cast<unsigned char>(x));
    }
    return out;
}

/// Model files of each estimator and kernel back-end, and of the first format version.
void modelSeeds(std::map<std::string, Bytes>& f)
{
    const std::string common =
        "\"columns\":[\"x\",\"y\"],\"format\":\"sosrep-model\",\"provenance\":{\"seed\":\"0\"},"
        "\"scaler\":{\"kind\":\"minmax\",\"scale\":[1.5,1.25],\"shift\":[-0.5,-0.25]},"
        "\"parameters\":{\"train\":[[0.9,0.7],[0.7,0.1],[1,0],[0,1]],"
        "\"weights\":[0.36,0.21,0.29,0.41]},";
    const std::string settings =
        "\"backend\":\"auto\",\"fd_duplicates\":\"keep\",\"fd_estimator\":\"analytic\","
        "\"features\":300,\"grid\":15,\"length_scale\":0.3,\"rank\":1000,\"scale\":\"minmax\","
        "\"sdo_order\":0,\"seed\":\"0\",\"selection\":\"above-spacing\"";
    auto model = [&](const std::string& estimator, const std::string& kernel,
                     const std::string& method, const std::string& own) {
        return text("{" + common + "\"estimator\":\"" + estimator +
                    "\",\"kernel\":{\"backend\":\"auto\",\"feature_seed\":\"0\","
                    "\"features\":300,\"length_scale\":0.3,\"rank\":1000,\"sdo_method\":\"" +
                    method + "\",\"sdo_order\":0,\"type\":\"" + kernel +
                    "\"},\"settings\":{\"estimator\":\"" + estimator + "\",\"kernel\":\"" + kernel +
                    "\",\"sdo_method\":\"" + method + "\"," + settings + own +
                    "},\"version\":2}\n");
    };
    const std::string sosrep = ",\"iterations\":2000,\"learning_rate\":0.4,\"solver\":\"auto\","
                               "\"tolerance\":\"auto\"";
    f["fuzz/model/sosrep_gaussian.json"] = model("sosrep", "gaussian", "rff", sosrep);
    f["fuzz/model/sosrep_sdo_rff.json"] = model("sosrep", "sdo", "rff", sosrep);
    f["fuzz/model/kde_laplace.json"] = model("kde", "laplace", "rff", "");
    f["fuzz/model/kde_sdo_exact.json"] = model("kde", "sdo", "exact", "");
    f["fuzz/model/version1.json"] =
        text("{\"format\":\"sosrep-model\",\"version\":1,\"estimator\":\"sosrep\","
             "\"kernel\":{\"type\":\"gaussian\",\"length_scale\":0.5,\"sdo_order\":0,"
             "\"features\":2000,\"sdo_method\":\"rff\",\"backend\":\"auto\",\"rank\":1000,"
             "\"feature_seed\":\"0\"},\"scaler\":{\"kind\":\"none\",\"shift\":[0,0],"
             "\"scale\":[1,1]},\"columns\":[\"a\",\"b\"],\"train\":[[0.1,0.2],[0.3,0.4]],"
             "\"weights\":[0.5,0.5],\"provenance\":{}}\n");
}

/// Project files: toy data and a data file, each estimator.
void projectSeeds(std::map<std::string, Bytes>& f)
{
    auto project = [](const std::string& data, const std::string& model) {
        return text("{\"format\":\"sosrep-studio-project\",\"version\":2,\"data\":{" + data +
                    ",\"roles\":[\"feature\",\"feature\",\"label\"],\"plot_x\":0,"
                    "\"plot_y\":1},\"model\":{" +
                    model + "},\"app\":{\"max_fit_rows\":10000,\"compare_with\":\"\"}}\n");
    };
    const std::string toy =
        "\"toy\":{\"kind\":\"moons\",\"n\":500,\"seed\":\"0\",\"anomalies\":0.05}";
    const std::string file = "\"path\":\"data.csv\",\"sha256\":\"00ff\"";
    f["fuzz/project/toy_sosrep.json"] =
        project(toy, "\"estimator\":\"sosrep\",\"kernel\":\"laplace\",\"length_scale\":\"auto\","
                     "\"solver\":\"natural\",\"learning_rate\":0.1,\"seed\":\"7\"");
    f["fuzz/project/file_kde.json"] = project(
        file, "\"estimator\":\"kde\",\"kernel\":\"sdo\",\"sdo_method\":\"exact\",\"length_scale\":"
              "0.25,\"scale\":\"zscore\"");
}

/// Seed corpora for the fuzz targets: small valid inputs that reach every branch of the readers.
void seeds(std::map<std::string, Bytes>& f)
{
    f["fuzz/csv/basic.csv"] = text("a,b\n1,2\n3,4\n");
    f["fuzz/csv/quotes.csv"] = text("\"a \"\"x\"\"\",\"b,c\nd\"\n\"1\",\"2\"\n+3.5e2, -4\n");
    f["fuzz/csv/semicolon_crlf_bom.csv"] = text("\xEF\xBB\xBFx;y;label\r\n1.5;2;0\r\n3;4;1\r\n");
    f["fuzz/csv/tabs.tsv"] = text("u\tv\n0.25\t1e-3\n\n7\t8\n");
    f["fuzz/csv/missing.csv"] = text("a,b\n1,NA\n");
    f["fuzz/npz/valid.npz"] = f["bad/npz_valid_small.npz"];
    f["fuzz/npz/fortran_u1_bool.npz"] =
        zip({{"X.npy",
              npy("{'descr': '|u1', 'fortran_order': True, 'shape': (3, 2), }",
                  bytesOf({1, 2, 3, 4, 5, 6})),
              true},
             {"y.npy", npy("{'descr': '|b1', 'fortran_order': False, 'shape': (3,), }",
                           bytesOf({0, 1, 0}))}});
    f["fuzz/npz/big_endian_v2.npz"] = zip(
        {{"X.npy",
          npy("{'descr': '>i8', 'fortran_order': False, 'shape': (2, 1), }",
              bytesOf({0, 0, 0, 0, 0, 0, 0, 7, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFE}))}});
    Member z64("X.npy", npy(kGood2x2, doubles({1, 2, 3, 4})));
    z64.centralUsize = 0xFFFFFFFFu;
    z64.centralExtra = {0x01, 0x00, 0x08, 0x00};
    put(z64.centralExtra, z64.payload.size(), 8);
    f["fuzz/npz/zip64_sizes.npz"] = zip({z64});
    // The expression parser's: the first byte is the number of columns less one.
    f["fuzz/expression/gaussian"] =
        text(std::string("\x01") + "exp(-(x1 - 0.5)^2 / 0.72) / 0.6 + 2*x2^2");
    f["fuzz/expression/unary_power"] = text(std::string(1, '\0') + "-x1^2");
    f["fuzz/expression/functions"] =
        text(std::string("\x02") + "2^3^2 * sqrt(abs(x3)) - log(x1) + sin(pi*x2)/cos(x1)");
    f["fuzz/expression/parens"] = text(std::string(1, '\0') + "((((((((((x1))))))))))");
    f["fuzz/expression/numbers"] = text(std::string("\x03") + "1.5e-3*x4 + .25 - 3. + +x1 - -x2");
    f["fuzz/expression/unclosed"] = text(std::string(1, '\0') + "exp(x1");
    // The option fuzzer's: the first byte picks the reader (0 fit options, 1 ratio options,
    // 2 adbench's plan, 3 every command flag), then one argument per line.
    f["fuzz/cli/fit"] = text(std::string(1, '\0') +
                             "--estimator\nsosrep\n--kernel\nsdo\n--length-scale\n0.3\n--grid\n9"
                             "\n--purpose\nanomaly\n--features=500\n--seed\n18446744073709551615");
    f["fuzz/cli/ratio"] =
        text(std::string("\x01") + "--estimator\nfire\n--t\nauto\n--lambda\n1e-3\n--loss\nl2p");
    f["fuzz/cli/adbench"] =
        text(std::string("\x02") + "--data-dir\n.\n--estimators\nsosrep:purpose=density,knn:k=3,"
                                   "iforest\n--trees\n50\n--lodo\nsosrep;knn\n--seeds\n1,2");
    f["fuzz/cli/flags"] =
        text(std::string("\x03") + "--seeds\n42,43\n--contamination\nauto\n--duplicate-anomalies\n"
                                   "5\n--only\nwine\n--hindsight\n--columns\nx1,x2");
    modelSeeds(f);
    projectSeeds(f);
}

/// Archives that once crashed or misled the .npz reader, each named after its flaw.
void npzFiles(std::map<std::string, Bytes>& f)
{
    // The reference: a valid archive the reader must accept (X 2x2, y 2 labels).
    f["bad/npz_valid_small.npz"] =
        zip({goodX(),
             {"y.npy",
              npy("{'descr': '<f8', 'fortran_order': False, 'shape': (2,), }", doubles({0, 1})),
              true}});
    // A valid labelled set with one anomaly in 20 rows: the stratified 70/30 split of
    // `sosrep adbench` leaves its test part without an anomaly (no AUC there).
    std::vector<double> x, y(20, 0.0);
    for (int i = 0; i < 20; ++i) {
        x.push_back(i);
        x.push_back((i * 7) % 11);
    }
    y[19] = 1.0;
    f["bad/npz_one_anomaly.npz"] = zip(
        {{"X.npy", npy("{'descr': '<f8', 'fortran_order': False, 'shape': (20, 2), }", doubles(x)),
          true},
         {"y.npy", npy("{'descr': '<f8', 'fortran_order': False, 'shape': (20,), }", doubles(y)),
          true}});
    // 1. The shape product overflows: (2^61) * 8 wraps to 0 in 64 bits.
    f["bad/npz_shape_overflow.npz"] = zip({{"X.npy",
                                            npy("{'descr': '<f8', 'fortran_order': True, "
                                                "'shape': (2305843009213693952, 8), }",
                                                doubles({1, 2})),
                                            false}});
    // 2. A stored member declares more bytes than it holds (the old reader copied them).
    Member stored = goodX();
    stored.centralUsize = stored.payload.size() + 100000;
    f["bad/npz_stored_size_larger.npz"] = zip({stored});
    Member storedSmall = goodX();
    storedSmall.centralUsize = 12;
    f["bad/npz_stored_size_smaller.npz"] = zip({storedSmall});
    // 3. The central directory's file-name length runs past the end of the file.
    Member longName = goodX();
    longName.nameLength = 0xFFFF;
    f["bad/npz_name_length_overflow.npz"] = zip({longName});
    // 4. A zip64 extra field that says it holds 16 bytes but ends after 4.
    Member z64 = goodX();
    z64.centralUsize = 0xFFFFFFFFu;
    z64.centralExtra = {0x01, 0x00, 0x10, 0x00, 0x00, 0x00, 0x00, 0x00};
    f["bad/npz_zip64_extra_truncated.npz"] = zip({z64});
    // 5. A member of zero bytes.
    f["bad/npz_zero_size_member.npz"] = zip({{"X.npy", {}, false}});
    // X of shape (3, 0): no columns at all (it was reported as "array data truncated").
    f["bad/npz_zero_columns.npz"] = zip(
        {{"X.npy", npy("{'descr': '<f8', 'fortran_order': False, 'shape': (3, 0), }", {}), false}});
    // 6. Declared sizes too large to allocate: a zip64 size of 2^60 bytes, and a shape of
    //    10^11 x 100 elements with 4 present.
    Member huge = goodX();
    huge.deflate = true;
    huge.centralUsize = 0xFFFFFFFFu;
    huge.centralExtra = {0x01, 0x00, 0x08, 0x00};
    put(huge.centralExtra, uint64_t(1) << 60, 8);
    f["bad/npz_huge_declared_size.npz"] = zip({huge});
    f["bad/npz_huge_shape.npz"] = zip({{"X.npy",
                                        npy("{'descr': '<f8', 'fortran_order': False, "
                                            "'shape': (100000000000, 100), }",
                                            doubles({1, 2, 3, 4})),
                                        true}});
    // Found by fuzzing: 4 GB declared from a few compressed bytes (allocated before inflating).
    Member bomb = goodX();
    bomb.deflate = true;
    bomb.centralUsize = 0xF0000000u;
    f["bad/npz_declared_size_beyond_deflate_ratio.npz"] = zip({bomb});
    // More lies about the archive's structure.
    f["bad/npz_entry_count_too_large.npz"] = zip({goodX()}, ZipOptions{60000, std::nullopt});
    f["bad/npz_directory_offset_past_end.npz"] =
        zip({goodX()}, ZipOptions{std::nullopt, 0x7FFFFFF0});
    Member inflateMore = goodX();
    inflateMore.deflate = true;
    inflateMore.centralUsize = 40;
    f["bad/npz_inflates_past_declared_size.npz"] = zip({inflateMore});
    Member truncated = goodX();
    truncated.deflate = true;
    truncated.truncateData = true;
    f["bad/npz_deflate_truncated.npz"] = zip({truncated});
    // Malformed .npy headers inside a valid archive.
    f["bad/npz_header_unterminated.npz"] =
        zip({{"X.npy", npy("{'descr': '<f8', 'fortran_order': False, 'shape': (2, 2", {}), false}});
    f["bad/npz_fortran_flag_not_bool.npz"] =
        zip({{"X.npy", npy("{'descr': '<f8', 'fortran_order': 1, 'shape': (2, 2), }", {}), false}});
    f["bad/npz_descr_trailing_garbage.npz"] =
        zip({{"X.npy",
              npy("{'descr': '<f8junk', 'fortran_order': False, 'shape': (1,), }", doubles({1})),
              false}});
    f["bad/npz_labels_not_binary.npz"] =
        zip({goodX(),
             {"y.npy",
              npy("{'descr': '<f8', 'fortran_order': False, 'shape': (2,), }", doubles({0, 2})),
              false}});
    f["bad/npz_no_X.npz"] = zip({{"Z.npy", goodX().payload, false}});
    f["bad/npz_X_empty.npz"] = zip(
        {{"X.npy", npy("{'descr': '<f8', 'fortran_order': False, 'shape': (0, 3), }", {}), false}});
    f["bad/npz_duplicate_member.npz"] = zip({goodX(), goodX()});
    f["bad/npz_not_a_zip.npz"] = text("this is plain text, not a zip archive\n");
}

/// Malformed text tables.
void textFiles(std::map<std::string, Bytes>& f)
{
    // Text inputs.
    f["bad/csv_duplicate_header.csv"] = text("a,b,a\n1,2,3\n4,5,6\n7,8,9\n");
    f["bad/csv_missing_value.csv"] = text("a,b\n1,2\n3,\n5,6\n");
    f["bad/csv_not_a_number.csv"] = text("a,b\n1,2\n3,x4\n5,6\n");
    f["bad/csv_ragged_row.csv"] = text("a,b\n1,2\n3,4,5\n5,6\n");
    f["bad/csv_header_only.csv"] = text("a,b\n");
    f["bad/csv_empty.csv"] = {};
    f["bad/csv_two_rows.csv"] = text("a,b\n0.1,0.2\n0.3,0.4\n");
    f["bad/csv_unterminated_quote.csv"] = text("a,b\n1,\"2\n3,4\n");
    f["bad/csv_huge_range.csv"] = text("a,b\n1e308,0.1\n-1e308,0.2\n0,0.3\n5,0.4\n6,0.5\n7,0.6\n");
    f["bad/csv_label_not_binary.csv"] = text("a,b,label\n1,2,0\n3,4,2\n5,6,1\n");
    std::string nul = "a,b\n1,2\n3,4\n5,x";
    nul += '\0';
    nul += "hidden\n";
    f["bad/csv_nul_byte.csv"] = text(nul);
    f["bad/csv_megabyte_field.csv"] = text("a,b\n1,2\n3," + std::string(1 << 20, 'z') + "\n");
    f["bad/csv_other_columns.csv"] = text("x,y\n0.1,0.2\n0.3,0.4\n0.5,0.6\n");
    f["bad/csv_swapped_columns.csv"] = text("b,a\n0.2,0.1\n0.4,0.3\n0.6,0.5\n");
}

/// Malformed model files.
void modelFiles(std::map<std::string, Bytes>& f)
{
    // Model files.
    f["bad/model_not_json.json"] = text("{\"format\": \"sosrep-model\", \n  \"version\": 1,, }\n");
    f["bad/model_wrong_format.json"] = text("{\"format\": \"something-else\", \"version\": 1}\n");
    f["bad/model_zero_scale.json"] =
        text("{\"format\":\"sosrep-model\",\"version\":1,\"estimator\":\"kde\","
             "\"kernel\":{\"type\":\"gaussian\",\"length_scale\":0.5,\"sdo_order\":0,"
             "\"features\":2000,\"sdo_method\":\"rff\",\"backend\":\"auto\",\"rank\":1000,"
             "\"feature_seed\":\"0\"},\"scaler\":{\"kind\":\"minmax\",\"shift\":[0,0],"
             "\"scale\":[1,0]},\"columns\":[\"a\",\"b\"],\"train\":[[0.1,0.2],[0.3,0.4]],"
             "\"weights\":[0.5,0.5],\"provenance\":{}}\n");
    // scale=auto is resolved when fitted: a file naming it as its scaler's kind was not fitted.
    f["bad/model_auto_scaler.json"] =
        text("{\"format\":\"sosrep-model\",\"version\":1,\"estimator\":\"kde\","
             "\"kernel\":{\"type\":\"gaussian\",\"length_scale\":0.5,\"sdo_order\":0,"
             "\"features\":2000,\"sdo_method\":\"rff\",\"backend\":\"auto\",\"rank\":1000,"
             "\"feature_seed\":\"0\"},\"scaler\":{\"kind\":\"auto\",\"shift\":[0,0],"
             "\"scale\":[1,1]},\"columns\":[\"a\",\"b\"],\"train\":[[0.1,0.2],[0.3,0.4]],"
             "\"weights\":[0.5,0.5],\"provenance\":{}}\n");
    f["bad/model_huge_features.json"] =
        text("{\"format\":\"sosrep-model\",\"version\":1,\"estimator\":\"sosrep\","
             "\"kernel\":{\"type\":\"sdo\",\"length_scale\":0.5,\"sdo_order\":0,"
             "\"features\":2000000000,\"sdo_method\":\"rff\",\"backend\":\"auto\",\"rank\":1000,"
             "\"feature_seed\":\"0\"},\"scaler\":{\"kind\":\"minmax\",\"shift\":[0,0],"
             "\"scale\":[1,1]},\"columns\":[\"a\",\"b\"],\"train\":[[0.1,0.2],[0.3,0.4]],"
             "\"weights\":[0.5,0.5],\"provenance\":{}}\n");
    f["bad/model_unknown_estimator.json"] = text(
        "{\"format\":\"sosrep-model\",\"version\":1,\"estimator\":\"magic\","
        "\"kernel\":{\"type\":\"gaussian\",\"length_scale\":0.5},\"scaler\":{\"kind\":\"none\","
        "\"shift\":[0,0],\"scale\":[1,1]},\"columns\":[\"a\",\"b\"],"
        "\"train\":[[0.1,0.2],[0.3,0.4]],\"weights\":[0.5,0.5],\"provenance\":{}}\n");
    // A kernel-SoS model whose fields do not match it: B's eigenvectors have three rows for
    // two support points; and one that carries a KDE's fields instead of its own.
    const std::string sosHead =
        "{\"format\":\"sosrep-model\",\"version\":2,\"estimator\":\"sos-mmd\",\"columns\":[\"a\","
        "\"b\"],\"kernel\":{\"type\":\"gaussian\",\"length_scale\":0.5,\"backend\":\"dense\"},"
        "\"scaler\":{\"kind\":\"minmax\",\"shift\":[0.1,0.1],\"scale\":[0.8,0.7]},"
        "\"settings\":{\"estimator\":\"sos-mmd\",\"kernel\":\"gaussian\",\"length_scale\":0.5,"
        "\"support\":2},\"provenance\":{},";
    f["bad/model_sos_mmd_mismatched.json"] = text(
        sosHead + "\"parameters\":{\"b_eigenvalues\":[0.5,1.25],\"b_eigenvectors\":"
                  "[[-0.78,0.62],[-0.62,-0.78],[0.1,0.2]],\"support\":[[0.625,0],[0,0.14]]}}\n");
    f["bad/model_sos_mmd_kde_fields.json"] =
        text(sosHead + "\"parameters\":{\"train\":[[0.1,0.2],[0.3,0.4]],\"weights\":[0.5,0.5]}}\n");
    // Issue 23: kernel fields that were replaced by defaults (score then disagreed with fit and
    // exited 0). Each is a valid SDO model but for the one field its name gives.
    const auto sosrepWith = [](const std::string& field, const std::string& value) {
        std::map<std::string, std::string> k{{"type", "\"sdo\""},       {"length_scale", "0.5"},
                                             {"sdo_order", "0"},        {"features", "300"},
                                             {"sdo_method", "\"rff\""}, {"backend", "\"auto\""},
                                             {"rank", "1000"},          {"feature_seed", "\"7\""}};
        k[field] = value;
        std::string kernel;
        for (const auto& [key, v] : k) {
            kernel += (kernel.empty() ? "" : ",") + ("\"" + key + "\":" + v);
        }
        return text("{\"format\":\"sosrep-model\",\"version\":1,\"estimator\":\"sosrep\","
                    "\"kernel\":{" +
                    kernel +
                    "},\"scaler\":{\"kind\":\"minmax\",\"shift\":[0,0],"
                    "\"scale\":[1,1]},\"columns\":[\"a\",\"b\"],\"train\":[[0.1,0.2],[0.3,0.4]],"
                    "\"weights\":[0.5,0.5],\"provenance\":{}}\n");
    };
    f["bad/model_seed_text.json"] = sosrepWith("feature_seed", "\"abc\"");
    f["bad/model_seed_negative.json"] = sosrepWith("feature_seed", "\"-5\"");
    f["bad/model_features_1e12.json"] = sosrepWith("features", "1e12");
    f["bad/model_features_fraction.json"] = sosrepWith("features", "2.5");
    f["bad/model_features_text.json"] = sosrepWith("features", "\"500\"");
    f["bad/model_rank_1e12.json"] = sosrepWith("rank", "1e12");
    f["bad/model_nul_in_kernel_type.json"] = sosrepWith("type", "\"gaus\\u0000sian\"");
    f["bad/model_length_scale_text.json"] = sosrepWith("length_scale", "\"0.5\"");
    // An isolation forest whose subsample_used (1) disagrees with its tree (2 rows at the root):
    // it scored every row -0.5.
    f["bad/model_iforest_subsample.json"] =
        text("{\"format\":\"sosrep-model\",\"version\":2,\"estimator\":\"iforest\",\"columns\":"
             "[\"a\",\"b\"],\"scaler\":{\"kind\":\"minmax\",\"shift\":[0,0],\"scale\":[1,1]},"
             "\"settings\":{\"estimator\":\"iforest\"},\"provenance\":{},\"parameters\":{\"dim\":2,"
             "\"nodes\":[[0,0.5,1,2,2],[-1,0,0,0,1],[-1,0,0,0,1]],\"tree_offsets\":[0,3],"
             "\"subsample_used\":1}}\n");
    // A valid isolation forest: a normality score, which ratio --q-model and mmd --model must
    // refuse (they took it for a density).
    f["bad/model_iforest_score.json"] =
        text("{\"format\":\"sosrep-model\",\"version\":2,\"estimator\":\"iforest\",\"columns\":"
             "[\"a\",\"b\"],\"scaler\":{\"kind\":\"minmax\",\"shift\":[0,0],\"scale\":[1,1]},"
             "\"settings\":{\"estimator\":\"iforest\"},\"provenance\":{},\"parameters\":{\"dim\":2,"
             "\"nodes\":[[0,0.5,1,2,2],[-1,0,0,0,1],[-1,0,0,0,1]],\"tree_offsets\":[0,3],"
             "\"subsample_used\":2}}\n");
    // A model whose two columns have one name: scoring matched both to the same data column.
    f["bad/model_duplicate_columns.json"] = text(
        "{\"format\":\"sosrep-model\",\"version\":1,\"estimator\":\"kde\","
        "\"kernel\":{\"type\":\"gaussian\",\"length_scale\":0.5},\"scaler\":{\"kind\":\"none\","
        "\"shift\":[0,0],\"scale\":[1,1]},\"columns\":[\"x\",\"x\"],"
        "\"train\":[[0.1,0.2],[0.3,0.4]],\"weights\":[0.5,0.5],\"provenance\":{}}\n");
}

/// Every crafted file, by path under tests/data.
std::map<std::string, Bytes> files()
{
    std::map<std::string, Bytes> f;
    npzFiles(f);
    textFiles(f);
    modelFiles(f);
    seeds(f);
    return f;
}

Bytes readFile(const std::string& path, bool* ok)
{
    std::ifstream in(path, std::ios::binary);
    *ok = static_cast<bool>(in);
    return Bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

} // namespace

int main(int argc, char** argv)
{
    const bool check = argc == 3 && std::string(argv[1]) == "--check";
    if (argc != 2 && !check) {
        std::cerr << "usage: make_bad_inputs [--check] DIR\n";
        return 2;
    }
    const std::string dir = argv[argc - 1];
    int failures = 0;
    for (const auto& [name, bytes] : files()) {
        const std::string path = dir + "/" + name;
        if (check) {
            bool ok = false;
            if (readFile(path, &ok) != bytes || !ok) {
                std::cerr << path << ": differs from what make_bad_inputs writes (regenerate)\n";
                ++failures;
            }
        } else {
            std::filesystem::create_directories(std::filesystem::path(path).parent_path());
            std::ofstream(path, std::ios::binary)
                .write(reinterpret_cast<const char*>(bytes.data()), long(bytes.size()));
        }
    }
    if (!check) {
        std::cout << "wrote " << files().size() << " files to " << dir << '\n';
    }
    return failures == 0 ? 0 : 1;
}
