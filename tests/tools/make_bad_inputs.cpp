// SPDX-License-Identifier: MIT
// Writes the crafted bad inputs of tests/data/bad/ (issue 11): .npz archives that once crashed
// the reader (each named after what is wrong with it) and malformed text inputs. The files are
// committed; `make_bad_inputs --check DIR` regenerates them in memory and fails if DIR differs,
// so the committed files are always what this program makes.
//
//   make_bad_inputs DIR          write every file into DIR
//   make_bad_inputs --check DIR  compare instead of writing (a ctest)

#include <zlib.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
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

Bytes doubles(std::initializer_list<double> v)
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

/// Every crafted file, by name.
std::map<std::string, Bytes> files()
{
    std::map<std::string, Bytes> f;
    // The reference: a valid archive the reader must accept (X 2x2, y 2 labels).
    f["npz_valid_small.npz"] =
        zip({goodX(),
             {"y.npy",
              npy("{'descr': '<f8', 'fortran_order': False, 'shape': (2,), }", doubles({0, 1})),
              true}});
    // 1. The shape product overflows: (2^61) * 8 wraps to 0 in 64 bits.
    f["npz_shape_overflow.npz"] = zip({{"X.npy",
                                        npy("{'descr': '<f8', 'fortran_order': True, "
                                            "'shape': (2305843009213693952, 8), }",
                                            doubles({1, 2})),
                                        false}});
    // 2. A stored member declares more bytes than it holds (the old reader copied them).
    Member stored = goodX();
    stored.centralUsize = stored.payload.size() + 100000;
    f["npz_stored_size_larger.npz"] = zip({stored});
    Member storedSmall = goodX();
    storedSmall.centralUsize = 12;
    f["npz_stored_size_smaller.npz"] = zip({storedSmall});
    // 3. The central directory's file-name length runs past the end of the file.
    Member longName = goodX();
    longName.nameLength = 0xFFFF;
    f["npz_name_length_overflow.npz"] = zip({longName});
    // 4. A zip64 extra field that says it holds 16 bytes but ends after 4.
    Member z64 = goodX();
    z64.centralUsize = 0xFFFFFFFFu;
    z64.centralExtra = {0x01, 0x00, 0x10, 0x00, 0x00, 0x00, 0x00, 0x00};
    f["npz_zip64_extra_truncated.npz"] = zip({z64});
    // 5. A member of zero bytes.
    f["npz_zero_size_member.npz"] = zip({{"X.npy", {}, false}});
    // 6. Declared sizes too large to allocate: a zip64 size of 2^60 bytes, and a shape of
    //    10^11 x 100 elements with 4 present.
    Member huge = goodX();
    huge.deflate = true;
    huge.centralUsize = 0xFFFFFFFFu;
    huge.centralExtra = {0x01, 0x00, 0x08, 0x00};
    put(huge.centralExtra, uint64_t(1) << 60, 8);
    f["npz_huge_declared_size.npz"] = zip({huge});
    f["npz_huge_shape.npz"] = zip({{"X.npy",
                                    npy("{'descr': '<f8', 'fortran_order': False, "
                                        "'shape': (100000000000, 100), }",
                                        doubles({1, 2, 3, 4})),
                                    true}});
    // More lies about the archive's structure.
    f["npz_entry_count_too_large.npz"] = zip({goodX()}, ZipOptions{60000, std::nullopt});
    f["npz_directory_offset_past_end.npz"] = zip({goodX()}, ZipOptions{std::nullopt, 0x7FFFFFF0});
    Member inflateMore = goodX();
    inflateMore.deflate = true;
    inflateMore.centralUsize = 40;
    f["npz_inflates_past_declared_size.npz"] = zip({inflateMore});
    Member truncated = goodX();
    truncated.deflate = true;
    truncated.truncateData = true;
    f["npz_deflate_truncated.npz"] = zip({truncated});
    // Malformed .npy headers inside a valid archive.
    f["npz_header_unterminated.npz"] =
        zip({{"X.npy", npy("{'descr': '<f8', 'fortran_order': False, 'shape': (2, 2", {}), false}});
    f["npz_fortran_flag_not_bool.npz"] =
        zip({{"X.npy", npy("{'descr': '<f8', 'fortran_order': 1, 'shape': (2, 2), }", {}), false}});
    f["npz_descr_trailing_garbage.npz"] =
        zip({{"X.npy",
              npy("{'descr': '<f8junk', 'fortran_order': False, 'shape': (1,), }", doubles({1})),
              false}});
    f["npz_labels_not_binary.npz"] =
        zip({goodX(),
             {"y.npy",
              npy("{'descr': '<f8', 'fortran_order': False, 'shape': (2,), }", doubles({0, 2})),
              false}});
    f["npz_no_X.npz"] = zip({{"Z.npy", goodX().payload, false}});
    f["npz_X_empty.npz"] = zip(
        {{"X.npy", npy("{'descr': '<f8', 'fortran_order': False, 'shape': (0, 3), }", {}), false}});
    f["npz_duplicate_member.npz"] = zip({goodX(), goodX()});
    f["npz_not_a_zip.npz"] = text("this is plain text, not a zip archive\n");

    // Text inputs.
    f["csv_duplicate_header.csv"] = text("a,b,a\n1,2,3\n4,5,6\n7,8,9\n");
    f["csv_missing_value.csv"] = text("a,b\n1,2\n3,\n5,6\n");
    f["csv_not_a_number.csv"] = text("a,b\n1,2\n3,x4\n5,6\n");
    f["csv_ragged_row.csv"] = text("a,b\n1,2\n3,4,5\n5,6\n");
    f["csv_header_only.csv"] = text("a,b\n");
    f["csv_empty.csv"] = {};
    f["csv_two_rows.csv"] = text("a,b\n0.1,0.2\n0.3,0.4\n");
    f["csv_unterminated_quote.csv"] = text("a,b\n1,\"2\n3,4\n");
    f["csv_huge_range.csv"] = text("a,b\n1e308,0.1\n-1e308,0.2\n0,0.3\n5,0.4\n6,0.5\n7,0.6\n");
    f["csv_label_not_binary.csv"] = text("a,b,label\n1,2,0\n3,4,2\n5,6,1\n");
    std::string nul = "a,b\n1,2\n3,4\n5,x";
    nul += '\0';
    nul += "hidden\n";
    f["csv_nul_byte.csv"] = text(nul);
    f["csv_megabyte_field.csv"] = text("a,b\n1,2\n3," + std::string(1 << 20, 'z') + "\n");
    f["csv_other_columns.csv"] = text("x,y\n0.1,0.2\n0.3,0.4\n0.5,0.6\n");
    f["csv_swapped_columns.csv"] = text("b,a\n0.2,0.1\n0.4,0.3\n0.6,0.5\n");
    // Model files.
    f["model_not_json.json"] = text("{\"format\": \"sosrep-model\", \n  \"version\": 1,, }\n");
    f["model_wrong_format.json"] = text("{\"format\": \"something-else\", \"version\": 1}\n");
    f["model_zero_scale.json"] =
        text("{\"format\":\"sosrep-model\",\"version\":1,\"estimator\":\"kde\","
             "\"kernel\":{\"type\":\"gaussian\",\"length_scale\":0.5,\"sdo_order\":0,"
             "\"features\":2000,\"sdo_method\":\"rff\",\"backend\":\"auto\",\"rank\":1000,"
             "\"feature_seed\":\"0\"},\"scaler\":{\"kind\":\"minmax\",\"shift\":[0,0],"
             "\"scale\":[1,0]},\"columns\":[\"a\",\"b\"],\"train\":[[0.1,0.2],[0.3,0.4]],"
             "\"weights\":[0.5,0.5],\"provenance\":{}}\n");
    f["model_huge_features.json"] =
        text("{\"format\":\"sosrep-model\",\"version\":1,\"estimator\":\"sosrep\","
             "\"kernel\":{\"type\":\"sdo\",\"length_scale\":0.5,\"sdo_order\":0,"
             "\"features\":2000000000,\"sdo_method\":\"rff\",\"backend\":\"auto\",\"rank\":1000,"
             "\"feature_seed\":\"0\"},\"scaler\":{\"kind\":\"minmax\",\"shift\":[0,0],"
             "\"scale\":[1,1]},\"columns\":[\"a\",\"b\"],\"train\":[[0.1,0.2],[0.3,0.4]],"
             "\"weights\":[0.5,0.5],\"provenance\":{}}\n");
    f["model_unknown_estimator.json"] = text(
        "{\"format\":\"sosrep-model\",\"version\":1,\"estimator\":\"magic\","
        "\"kernel\":{\"type\":\"gaussian\",\"length_scale\":0.5},\"scaler\":{\"kind\":\"none\","
        "\"shift\":[0,0],\"scale\":[1,1]},\"columns\":[\"a\",\"b\"],"
        "\"train\":[[0.1,0.2],[0.3,0.4]],\"weights\":[0.5,0.5],\"provenance\":{}}\n");
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
            std::ofstream(path, std::ios::binary)
                .write(reinterpret_cast<const char*>(bytes.data()), long(bytes.size()));
        }
    }
    if (!check) {
        std::cout << "wrote " << files().size() << " files to " << dir << '\n';
    }
    return failures == 0 ? 0 : 1;
}
