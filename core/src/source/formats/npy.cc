// SPDX-License-Identifier: MIT OR Apache-2.0
// NumPy .npy / .npz sources: header literal parser, dtype mapping, catalogs.
#include "anamnesis/npy.hpp"

#include "anamnesis/error.hpp"
#include "anamnesis/zip.hpp"

#include <cctype>
#include <cstring>
#include <limits>
#include <memory>
#include <string_view>

namespace amn {
namespace {

// ---- A tiny bounded parser for the Python literal subset numpy writes. ----
struct Lit {
    enum Kind { Str, Int, Bool, None, Tuple, List, Dict } kind = None;
    std::string s;
    std::uint64_t u = 0;  // Int magnitude
    bool neg = false;     // Int sign
    bool b = false;
    std::vector<Lit> items;                       // Tuple, List
    std::vector<Lit> keys, values;                // Dict (parallel; a pair of the
                                                  // incomplete type is rejected by clang)
};

class LiteralParser {
public:
    explicit LiteralParser(std::string_view t) : t_(t) {}

    Lit parse_top() {
        Lit v = value(0);
        ws();
        if (p_ != t_.size()) bad("trailing characters after the header dict");
        return v;
    }

private:
    std::string_view t_;
    std::size_t p_ = 0;

    [[noreturn]] void bad(const std::string& what) const {
        throw Error(ErrorCode::Malformed, "NPY header: " + what + " at character " + std::to_string(p_));
    }
    void ws() {
        while (p_ < t_.size() && (t_[p_] == ' ' || t_[p_] == '\t' || t_[p_] == '\n' || t_[p_] == '\r')) ++p_;
    }
    bool eat(char c) {
        ws();
        if (p_ < t_.size() && t_[p_] == c) { ++p_; return true; }
        return false;
    }
    bool word(std::string_view w) {
        if (t_.substr(p_, w.size()) != w) return false;
        const std::size_t e = p_ + w.size();
        if (e < t_.size() && (std::isalnum(static_cast<unsigned char>(t_[e])) || t_[e] == '_')) return false;
        p_ = e;
        return true;
    }

    Lit value(int depth) {
        if (depth > kNpyMaxNesting) throw Error(ErrorCode::LimitExceeded, "NPY header: nesting deeper than " + std::to_string(kNpyMaxNesting));
        ws();
        if (p_ >= t_.size()) bad("unexpected end");
        const char c = t_[p_];
        Lit v;
        if (c == '\'' || c == '"') {
            v.kind = Lit::Str;
            v.s = string();
        } else if (c == '-' || (c >= '0' && c <= '9')) {
            v.kind = Lit::Int;
            if (c == '-') { v.neg = true; ++p_; }
            if (p_ >= t_.size() || t_[p_] < '0' || t_[p_] > '9') bad("bad number");
            while (p_ < t_.size() && t_[p_] >= '0' && t_[p_] <= '9') {
                const std::uint64_t d = static_cast<std::uint64_t>(t_[p_] - '0');
                if (v.u > (std::numeric_limits<std::uint64_t>::max() - d) / 10)
                    throw Error(ErrorCode::LimitExceeded, "NPY header: integer does not fit in 64 bits");
                v.u = v.u * 10 + d;
                ++p_;
            }
            if (p_ < t_.size() && (t_[p_] == 'L' || t_[p_] == 'l')) ++p_;  // Python 2 long suffix
            if (p_ < t_.size() && (t_[p_] == '.' || t_[p_] == 'e' || t_[p_] == 'E' || t_[p_] == 'j')) bad("non-integer number");
        } else if (c == '(' || c == '[') {
            const char close = c == '(' ? ')' : ']';
            v.kind = c == '(' ? Lit::Tuple : Lit::List;
            ++p_;
            bool comma = true;  // a single element tuple needs its comma: (3,)
            while (!eat(close)) {
                if (!comma) bad("expected ',' or '" + std::string(1, close) + "'");
                v.items.push_back(value(depth + 1));
                comma = eat(',');
                if (v.items.size() > 4096) throw Error(ErrorCode::LimitExceeded, "NPY header: sequence longer than 4096");
            }
            if (v.kind == Lit::Tuple && v.items.size() == 1 && !comma) {
                // "(x)" is a parenthesised value, not a tuple.
                Lit inner = std::move(v.items[0]);
                return inner;
            }
        } else if (c == '{') {
            v.kind = Lit::Dict;
            ++p_;
            bool comma = true;
            while (!eat('}')) {
                if (!comma) bad("expected ',' or '}'");
                Lit k = value(depth + 1);
                if (!eat(':')) bad("expected ':'");
                Lit val = value(depth + 1);
                v.keys.push_back(std::move(k));
                v.values.push_back(std::move(val));
                comma = eat(',');
                if (v.keys.size() > 256) throw Error(ErrorCode::LimitExceeded, "NPY header: dict with more than 256 keys");
            }
        } else if (word("True")) {
            v.kind = Lit::Bool;
            v.b = true;
        } else if (word("False")) {
            v.kind = Lit::Bool;
        } else if (word("None")) {
            v.kind = Lit::None;
        } else {
            bad(std::string("unexpected character '") + c + "'");
        }
        return v;
    }

    std::string string() {
        const char q = t_[p_++];
        std::string out;
        while (true) {
            if (p_ >= t_.size()) bad("unterminated string");
            const char c = t_[p_++];
            if (c == q) break;
            if (c == '\n') bad("newline in string");
            if (c == '\\') {
                if (p_ >= t_.size()) bad("unterminated string");
                const char e = t_[p_++];
                switch (e) {
                    case '\\': case '\'': case '"': out += e; break;
                    case 'n': out += '\n'; break;
                    case 't': out += '\t'; break;
                    default: bad(std::string("unsupported escape '\\") + e + "' in string");
                }
                continue;
            }
            out += c;
        }
        return out;
    }
};

std::uint16_t rd16(const std::uint8_t* p) { return static_cast<std::uint16_t>(p[0] | (p[1] << 8)); }
std::uint32_t rd32(const std::uint8_t* p) {
    return static_cast<std::uint32_t>(p[0]) | (static_cast<std::uint32_t>(p[1]) << 8) |
           (static_cast<std::uint32_t>(p[2]) << 16) | (static_cast<std::uint32_t>(p[3]) << 24);
}

// descr string → registry dtype and byte order.
void map_descr(NpyHeader& h) {
    const std::string& d = h.descr;
    if (d.size() < 2) throw Error(ErrorCode::UnknownDtype, "unknown NPY descr '" + d + "'");
    const char order = d[0];
    if (order != '<' && order != '>' && order != '|' && order != '=')
        throw Error(ErrorCode::UnknownDtype, "unknown NPY descr '" + d + "' (no byte-order character)");
    const char kind = d[1];
    const std::string_view size = std::string_view(d).substr(2);
    if (kind == 'O') throw Error(ErrorCode::Unsupported, "object array (descr '" + d + "'): reading it would need pickle; refused");
    if (kind == 'U' || kind == 'S' || kind == 'a')
        throw Error(ErrorCode::Unsupported, "string array (descr '" + d + "') is not a tensor");
    if (kind == 'M' || kind == 'm') throw Error(ErrorCode::Unsupported, "datetime/timedelta array (descr '" + d + "') is not a tensor");
    struct Row { char kind; std::string_view size; DType t; };
    static constexpr Row kRows[] = {
        {'b', "1", DType::BOOL}, {'i', "1", DType::I8}, {'u', "1", DType::U8},
        {'i', "2", DType::I16}, {'u', "2", DType::U16}, {'i', "4", DType::I32}, {'u', "4", DType::U32},
        {'i', "8", DType::I64}, {'u', "8", DType::U64}, {'f', "2", DType::F16}, {'f', "4", DType::F32},
        {'f', "8", DType::F64}, {'c', "8", DType::C64}, {'c', "16", DType::C128},
    };
    for (const auto& r : kRows)
        if (r.kind == kind && r.size == size) h.dtype = r.t;
    if (kind == 'V' && size == "2") {
        // ml_dtypes.bfloat16 (JAX): a registered dtype of kind 'V' whose
        // byte order numpy writes as '<'/'>'. A plain void has '|'.
        if (order == '|') throw Error(ErrorCode::Unsupported, "raw void dtype '|V2' (BF16 writers use '<V2'); refused rather than guessed");
        h.dtype = DType::BF16;
    }
    if (kind == 'f' && (size == "12" || size == "16")) throw Error(ErrorCode::Unsupported, "long double array (descr '" + d + "')");
    if (kind == 'c' && (size == "24" || size == "32")) throw Error(ErrorCode::Unsupported, "long double complex array (descr '" + d + "')");
    if (h.dtype == DType::Unknown) throw Error(ErrorCode::UnknownDtype, "unknown NPY descr '" + d + "'");
    const auto* info = dtype_info(h.dtype);
    if (order == '=') throw Error(ErrorCode::Malformed, "NPY descr '" + d + "' with native byte order '=' (numpy never writes it)");
    if (order == '|' && info->block_bytes > 1) throw Error(ErrorCode::Malformed, "NPY descr '" + d + "': '|' byte order on a multi-byte type");
    h.big_endian = order == '>' && info->block_bytes > 1;
}

std::string stem_of(const std::string& path) {
    std::string f = path.substr(path.find_last_of('/') == std::string::npos ? 0 : path.find_last_of('/') + 1);
    if (f.size() > 4 && f.compare(f.size() - 4, 4, ".npy") == 0) f.resize(f.size() - 4);
    return f;
}

std::string base_name(const std::string& path) {
    const auto s = path.find_last_of('/');
    return s == std::string::npos ? path : path.substr(s + 1);
}

TensorInfo tensor_from(const NpyHeader& h, std::string name, std::uint64_t base) {
    TensorInfo t;
    t.name = std::move(name);
    t.dtype = h.dtype;
    t.dtype_name = dtype_name(h.dtype);
    t.shape = h.shape;
    t.offset = base + h.data_offset;
    t.nbytes = h.data_bytes;
    t.big_endian = h.big_endian;
    if (h.fortran_order) t.strides = fortran_strides(h.shape);
    return t;
}

}  // namespace

std::vector<std::int64_t> fortran_strides(const std::vector<std::uint64_t>& shape) {
    if (shape.size() <= 1) return {};
    std::vector<std::int64_t> s(shape.size());
    std::int64_t acc = 1;
    for (std::size_t i = 0; i < shape.size(); ++i) {
        s[i] = acc;
        acc *= static_cast<std::int64_t>(shape[i] == 0 ? 1 : shape[i]);
    }
    return s;
}

NpyHeader parse_npy_header(std::span<const std::uint8_t> npy) { return parse_npy_header(npy, npy.size()); }

std::vector<std::uint8_t> read_npy_head(const ZipArchive& zip, const ZipEntry& e) {
    auto head = zip.read_prefix(e, 4096);  // numpy pads headers to 64 or 4096 bytes
    if (head.size() >= 12 && head.size() < e.uncompressed_size) {
        const std::uint64_t need = head[6] == 1 ? 10 + (head[8] | (head[9] << 8))
                                                : 12 + (head[8] | (head[9] << 8) | (head[10] << 16) | (std::uint64_t{head[11]} << 24));
        if (need > head.size()) head = zip.read_prefix(e, std::min<std::uint64_t>(need, 12 + kNpyMaxHeaderBytes));
    }
    return head;
}

NpyHeader parse_npy_header(std::span<const std::uint8_t> npy, std::uint64_t total_size) {
    if (npy.size() > total_size) npy = npy.first(static_cast<std::size_t>(total_size));
    static constexpr std::uint8_t kMagic[6] = {0x93, 'N', 'U', 'M', 'P', 'Y'};
    if (npy.size() < 10) throw Error(ErrorCode::Truncated, "NPY file shorter than its preamble");
    if (std::memcmp(npy.data(), kMagic, 6) != 0) throw Error(ErrorCode::Malformed, "not an NPY file (bad magic)");
    NpyHeader h;
    h.major = npy[6];
    h.minor = npy[7];
    if (h.major < 1 || h.major > 3 || h.minor != 0)
        throw Error(ErrorCode::Unsupported, "NPY format version " + std::to_string(h.major) + "." + std::to_string(h.minor));
    std::uint64_t hlen, hstart;
    if (h.major == 1) {
        hlen = rd16(npy.data() + 8);
        hstart = 10;
    } else {
        if (npy.size() < 12) throw Error(ErrorCode::Truncated, "NPY file shorter than its preamble");
        hlen = rd32(npy.data() + 8);
        hstart = 12;
    }
    if (hlen > kNpyMaxHeaderBytes)
        throw Error(ErrorCode::LimitExceeded, "NPY header of " + std::to_string(hlen) + " bytes (limit " + std::to_string(kNpyMaxHeaderBytes) + ")");
    if (hlen > npy.size() - hstart) throw Error(ErrorCode::Truncated, "NPY header runs past the end of the data");
    const std::string_view text(reinterpret_cast<const char*>(npy.data() + hstart), static_cast<std::size_t>(hlen));
    if (h.major < 3)
        for (unsigned char c : text)
            if (c >= 0x80) throw Error(ErrorCode::Malformed, "non-ASCII byte in an NPY v" + std::to_string(h.major) + " header");
    const Lit d = LiteralParser(text).parse_top();
    if (d.kind != Lit::Dict) throw Error(ErrorCode::Malformed, "NPY header is not a dict");
    bool has_descr = false, has_fortran = false, has_shape = false;
    for (std::size_t di = 0; di < d.keys.size(); ++di) {
        const Lit& k = d.keys[di];
        const Lit& v = d.values[di];
        if (k.kind != Lit::Str) throw Error(ErrorCode::Malformed, "NPY header has a non-string key");
        if (k.s == "descr") {
            if (has_descr) throw Error(ErrorCode::Malformed, "NPY header repeats key 'descr'");
            has_descr = true;
            if (v.kind == Lit::List) throw Error(ErrorCode::Unsupported, "structured (record) NPY dtype");
            if (v.kind != Lit::Str) throw Error(ErrorCode::Malformed, "NPY 'descr' is not a string");
            h.descr = v.s;
        } else if (k.s == "fortran_order") {
            if (has_fortran) throw Error(ErrorCode::Malformed, "NPY header repeats key 'fortran_order'");
            has_fortran = true;
            if (v.kind != Lit::Bool) throw Error(ErrorCode::Malformed, "NPY 'fortran_order' is not True/False");
            h.fortran_order = v.b;
        } else if (k.s == "shape") {
            if (has_shape) throw Error(ErrorCode::Malformed, "NPY header repeats key 'shape'");
            has_shape = true;
            if (v.kind != Lit::Tuple) throw Error(ErrorCode::Malformed, "NPY 'shape' is not a tuple");
            if (v.items.size() > kMaxRank)
                throw Error(ErrorCode::LimitExceeded, "NPY array of rank " + std::to_string(v.items.size()) + " (limit " + std::to_string(kMaxRank) + ")");
            for (const auto& x : v.items) {
                if (x.kind != Lit::Int || x.neg) throw Error(ErrorCode::Malformed, "NPY 'shape' holds a non-integer or negative value");
                h.shape.push_back(x.u);
            }
        } else {
            throw Error(ErrorCode::Malformed, "NPY header has unexpected key '" + k.s + "'");
        }
    }
    if (!has_descr || !has_fortran || !has_shape) throw Error(ErrorCode::Malformed, "NPY header lacks one of 'descr', 'fortran_order', 'shape'");
    map_descr(h);
    std::uint64_t numel = 1;
    for (auto s : h.shape) {
        if (s != 0 && numel > std::numeric_limits<std::uint64_t>::max() / s)
            throw Error(ErrorCode::LimitExceeded, "NPY shape overflows 64 bits");
        numel *= s;
    }
    const auto bytes = dtype_bytes(h.dtype, numel);
    if (!bytes) throw Error(ErrorCode::LimitExceeded, "NPY array size overflows 64 bits");
    h.data_offset = hstart + hlen;
    h.data_bytes = *bytes;
    const std::uint64_t avail = total_size - h.data_offset;
    if (avail < h.data_bytes)
        throw Error(ErrorCode::Truncated, "NPY data is " + std::to_string(avail) + " bytes, header declares " + std::to_string(h.data_bytes));
    if (avail > h.data_bytes)
        throw Error(ErrorCode::SizeMismatch, "NPY data is " + std::to_string(avail) + " bytes, header declares " + std::to_string(h.data_bytes) + " (trailing bytes)");
    return h;
}

Catalog open_npy(const std::string& path) { return parse_npy(MappedFile::open(path), path); }

Catalog parse_npy(MappedFilePtr file, const std::string& path) {
    Catalog cat;
    cat.format = Format::Npy;
    cat.path = path;
    cat.display_name = base_name(path);
    NpyHeader h;
    // The magic, version and header length, then the header (a remote file
    // is fetched so far and no further).
    file->require(0, 12);
    if (file->size() >= 12) {
        const auto* d = file->data();
        const std::uint64_t hlen = d[6] == 1 ? std::uint64_t{d[8]} | std::uint64_t{d[9]} << 8
                                             : std::uint64_t{d[8]} | std::uint64_t{d[9]} << 8 | std::uint64_t{d[10]} << 16 |
                                                   std::uint64_t{d[11]} << 24;
        file->require(0, (d[6] == 1 ? 10 : 12) + std::min<std::uint64_t>(hlen, 1u << 24));
    }
    try {
        h = parse_npy_header(file->bytes());
    } catch (const Error& e) {
        throw e.with_file(path);
    }
    cat.tensors.push_back(tensor_from(h, stem_of(path), 0));
    cat.metadata.push_back({"npy_version", MetaValue::string(std::to_string(h.major) + "." + std::to_string(h.minor))});
    cat.metadata.push_back({"descr", MetaValue::string(h.descr)});
    if (h.fortran_order) cat.metadata.push_back({"fortran_order", MetaValue::string("True")});
    cat.shards.push_back(Shard{path, std::move(file)});
    cat.index_names();
    return cat;
}

Catalog open_npz(const std::string& path) { return parse_npz(MappedFile::open(path), path); }

Catalog parse_npz(MappedFilePtr file, const std::string& path) {
    Catalog cat;
    cat.format = Format::Npz;
    cat.path = path;
    cat.display_name = base_name(path);
    try {
        const ZipArchive zip = ZipArchive::open(file);
        std::vector<const ZipEntry*> members;
        bool any_deflated = false;
        for (const auto& e : zip.entries()) {
            if (e.is_directory()) continue;
            if (e.name.size() < 4 || e.name.compare(e.name.size() - 4, 4, ".npy") != 0) {
                cat.notes.push_back("skipped non-array member " + e.name);
                ++cat.skipped_values;
                continue;
            }
            members.push_back(&e);
            any_deflated |= !e.is_stored();
        }
        std::vector<std::uint64_t> base(members.size());
        MappedFilePtr data = file;
        if (any_deflated) {
            // One owned buffer with every member inflated at 64-byte-aligned offsets.
            std::uint64_t total = 0;
            for (std::size_t i = 0; i < members.size(); ++i) {
                base[i] = total;
                const std::uint64_t n = members[i]->uncompressed_size;
                if (n > zip.limits().max_inflated_bytes - total)
                    throw Error(ErrorCode::LimitExceeded, "NPZ members inflate to more than " + std::to_string(zip.limits().max_inflated_bytes) + " bytes");
                total += (n + 63) / 64 * 64;
            }
            // A large deflated member's header is read (only that far) and
            // checked against its declared size before it is inflated whole:
            // it may inflate to what its header describes, no more. Members
            // up to max_metadata_bytes skip this, so corruption there is
            // named by the CRC check below, as before.
            for (const ZipEntry* m : members) {
                if (m->is_stored() || m->uncompressed_size <= zip.limits().max_metadata_bytes) continue;
                try {
                    (void)parse_npy_header(read_npy_head(zip, *m), m->uncompressed_size);
                } catch (const Error& e) {
                    throw e.with_tensor(m->name.substr(0, m->name.size() - 4));
                }
            }
            // Streamed: the buffer grows with the inflated bytes, not by the declared sizes.
            std::vector<std::uint8_t> buf;
            for (std::size_t i = 0; i < members.size(); ++i) {
                try {
                    buf.resize(static_cast<std::size_t>(base[i]));  // 64-byte alignment padding
                    zip.inflate_append(*members[i], buf);
                } catch (const Error& e) {
                    throw e.with_file(path);
                }
            }
            data = MappedFile::from_bytes(std::move(buf), path);
            cat.metadata.push_back({"compressed", MetaValue::string("true")});
        } else {
            for (std::size_t i = 0; i < members.size(); ++i) {
                base[i] = members[i]->data_offset;
                cat.integrity_checks.push_back({static_cast<std::uint32_t>(cat.shards.size()), members[i]->data_offset,
                                                members[i]->uncompressed_size, members[i]->crc32, members[i]->name});
            }
        }
        for (std::size_t i = 0; i < members.size(); ++i) {
            std::string name = members[i]->name.substr(0, members[i]->name.size() - 4);
            const std::span<const std::uint8_t> bytes(data->data() + base[i], static_cast<std::size_t>(members[i]->uncompressed_size));
            NpyHeader h;
            try {
                h = parse_npy_header(bytes);
            } catch (const Error& e) {
                throw e.with_tensor(name);
            }
            cat.metadata.push_back({name + ".descr", MetaValue::string(h.descr)});
            cat.tensors.push_back(tensor_from(h, std::move(name), base[i]));
        }
        cat.shards.push_back(Shard{path, std::move(data)});
    } catch (const Error& e) {
        throw e.with_file(path);
    }
    cat.index_names();
    return cat;
}

}  // namespace amn
