// SPDX-License-Identifier: MIT OR Apache-2.0
// GGUF v2/v3 parser (ggml docs/gguf.md; gguf-py GGUFReader for the
// big-endian convention) and ollama store resolution.
#include "anamnesis/gguf.hpp"

#include "anamnesis/error.hpp"
#include "anamnesis/json_writer.hpp"
#include "json_util.hpp"

#include <simdjson.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <numeric>
#include <sstream>
#include <unordered_set>

namespace amn {
namespace {
namespace fs = std::filesystem;

// GGUF metadata value types (gguf_type in ggml's gguf.h).
enum VType : std::uint32_t {
    kU8 = 0, kI8 = 1, kU16 = 2, kI16 = 3, kU32 = 4, kI32 = 5, kF32 = 6, kBool = 7,
    kStr = 8, kArr = 9, kU64 = 10, kI64 = 11, kF64 = 12,
};

const char* vtype_name(std::uint32_t t) {
    static const char* names[] = {"u8", "i8", "u16", "i16", "u32", "i32", "f32", "bool",
                                  "string", "array", "u64", "i64", "f64"};
    return t <= kF64 ? names[t] : "?";
}

std::uint16_t bswap(std::uint16_t v) { return static_cast<std::uint16_t>((v >> 8) | (v << 8)); }
std::uint32_t bswap(std::uint32_t v) { return __builtin_bswap32(v); }
std::uint64_t bswap(std::uint64_t v) { return __builtin_bswap64(v); }

std::string hex_bytes(const std::uint8_t* p, std::size_t n) {
    static const char* h = "0123456789abcdef";
    std::string s;
    for (std::size_t i = 0; i < n; ++i) {
        if (i) s += ' ';
        s += h[p[i] >> 4];
        s += h[p[i] & 15];
    }
    return s;
}

// Forward-only reader over the mapped header; every read is bounds-checked.
struct Cursor {
    const std::uint8_t* data;
    std::uint64_t size;
    const std::string& file;
    std::uint64_t pos = 0;
    bool be = false;

    [[noreturn]] void truncated(std::string_view what, std::uint64_t need) const {
        throw Error(ErrorCode::Truncated,
                    "file ends inside " + std::string(what) + " at byte " + std::to_string(pos) + " (needs " +
                        std::to_string(need) + " bytes, " + std::to_string(size - pos) + " left)",
                    file);
    }
    void need(std::uint64_t n, std::string_view what) const {
        if (n > size - pos) truncated(what, n);
    }
    template <class T>
    T num(std::string_view what) {
        need(sizeof(T), what);
        std::conditional_t<sizeof(T) == 1, std::uint8_t,
                           std::conditional_t<sizeof(T) == 2, std::uint16_t,
                                              std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>>>
            u;
        std::memcpy(&u, data + pos, sizeof(T));
        pos += sizeof(T);
        if constexpr (sizeof(T) > 1)
            if (be) u = bswap(u);
        T v;
        std::memcpy(&v, &u, sizeof(T));
        return v;
    }
    std::string_view str(std::string_view what, const std::string& tensor = {}) {
        const auto n = num<std::uint64_t>(what);
        if (n > GgufLimits::max_string_bytes)
            throw Error(ErrorCode::LimitExceeded,
                        std::string(what) + " length " + std::to_string(n) + " exceeds the limit of " +
                            std::to_string(GgufLimits::max_string_bytes) + " bytes",
                        file, tensor);
        need(n, what);
        std::string_view s(reinterpret_cast<const char*>(data + pos), static_cast<std::size_t>(n));
        pos += n;
        return s;
    }
};

void append_json_string(std::string& out, std::string_view s) {
    if (simdjson::validate_utf8(s.data(), s.size())) {
        JsonWriter::escape_to(out, s);
        return;
    }
    // Invalid UTF-8 (GGUF requires UTF-8; some vocabularies break it):
    // replace each bad byte with U+FFFD so the JSON stays valid.
    std::string fixed;
    std::size_t i = 0;
    while (i < s.size()) {
        const auto c = static_cast<unsigned char>(s[i]);
        std::size_t len = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
        if (len && i + len <= s.size() && simdjson::validate_utf8(s.data() + i, len)) {
            fixed.append(s.substr(i, len));
            i += len;
        } else {
            fixed += "\xEF\xBF\xBD";
            ++i;
        }
    }
    JsonWriter::escape_to(out, fixed);
}

template <class F>
void append_float(std::string& out, F v) {
    if (std::isnan(v)) { out += "\"NaN\""; return; }
    if (std::isinf(v)) { out += v > 0 ? "\"Infinity\"" : "\"-Infinity\""; return; }
    char buf[64];
    auto r = std::to_chars(buf, buf + sizeof buf, v);
    out.append(buf, r.ptr);
}

template <class I>
void append_int(std::string& out, I v) {
    char buf[32];
    auto r = std::to_chars(buf, buf + sizeof buf, v);
    out.append(buf, r.ptr);
}

constexpr std::size_t kSummaryStringBytes = 240;
constexpr std::size_t kGgmlMaxName = 64;  // GGML_MAX_NAME
constexpr std::uint32_t kGgmlMaxDims = 4; // GGML_MAX_DIMS

struct KvRecord {
    std::string key;
    std::string type;
    std::uint64_t count = 1;
    std::uint32_t vtype = 0;
    std::string json, summary;
    bool cut = false;
    // Scalar values the parser itself needs.
    std::uint64_t as_uint = 0;
    std::string as_string;
};

// Render one value of type `t` at the cursor into `full` and (when not
// null) `summ`; returns the type in words.
std::string render(Cursor& c, std::uint32_t t, unsigned depth, std::string& full, std::string* summ,
                   std::size_t items, bool& cut, const std::string& key, std::uint64_t* count_out) {
    auto both = [&](auto&& fn) {
        const std::size_t before = full.size();
        fn(full);
        if (summ) summ->append(full, before, std::string::npos);
    };
    switch (t) {
        case kU8: { auto v = c.num<std::uint8_t>("a u8 value"); both([&](std::string& o) { append_int(o, v); }); break; }
        case kI8: { auto v = c.num<std::int8_t>("an i8 value"); both([&](std::string& o) { append_int(o, v); }); break; }
        case kU16: { auto v = c.num<std::uint16_t>("a u16 value"); both([&](std::string& o) { append_int(o, v); }); break; }
        case kI16: { auto v = c.num<std::int16_t>("an i16 value"); both([&](std::string& o) { append_int(o, v); }); break; }
        case kU32: { auto v = c.num<std::uint32_t>("a u32 value"); both([&](std::string& o) { append_int(o, v); }); break; }
        case kI32: { auto v = c.num<std::int32_t>("an i32 value"); both([&](std::string& o) { append_int(o, v); }); break; }
        case kU64: { auto v = c.num<std::uint64_t>("a u64 value"); both([&](std::string& o) { append_int(o, v); }); break; }
        case kI64: { auto v = c.num<std::int64_t>("an i64 value"); both([&](std::string& o) { append_int(o, v); }); break; }
        case kF32: { auto v = c.num<float>("an f32 value"); both([&](std::string& o) { append_float(o, v); }); break; }
        case kF64: { auto v = c.num<double>("an f64 value"); both([&](std::string& o) { append_float(o, v); }); break; }
        case kBool: {
            auto v = c.num<std::uint8_t>("a bool value");
            both([&](std::string& o) { o += v ? "true" : "false"; });
            break;
        }
        case kStr: {
            auto s = c.str("a string value");
            const std::size_t before = full.size();
            append_json_string(full, s);
            if (summ) {
                if (s.size() > kSummaryStringBytes) {
                    std::size_t n = kSummaryStringBytes;
                    while (n > 0 && (static_cast<unsigned char>(s[n]) & 0xC0) == 0x80) --n;  // UTF-8 boundary
                    append_json_string(*summ, std::string(s.substr(0, n)) + "… (" + std::to_string(s.size()) + " bytes)");
                    cut = true;
                } else {
                    summ->append(full, before, std::string::npos);
                }
            }
            break;
        }
        case kArr: {
            if (depth >= GgufLimits::max_array_depth)
                throw Error(ErrorCode::LimitExceeded,
                            "key '" + key + "': arrays nested deeper than " + std::to_string(GgufLimits::max_array_depth),
                            c.file);
            const auto et = c.num<std::uint32_t>("an array element type");
            if (et > kF64)
                throw Error(ErrorCode::Malformed, "key '" + key + "': unknown array element type " + std::to_string(et),
                            c.file);
            const auto n = c.num<std::uint64_t>("an array length");
            if (n > GgufLimits::max_array_elems)
                throw Error(ErrorCode::LimitExceeded,
                            "key '" + key + "': array of " + std::to_string(n) + " elements exceeds the limit of " +
                                std::to_string(GgufLimits::max_array_elems),
                            c.file);
            // Every element takes at least one byte (strings 8, arrays 12):
            // reject impossible lengths before looping.
            const std::uint64_t min_elem = et == kStr ? 8 : et == kArr ? 12 : et == kU16 || et == kI16 ? 2
                                         : et == kU32 || et == kI32 || et == kF32 ? 4
                                         : et == kU64 || et == kI64 || et == kF64 ? 8 : 1;
            if (n > (c.size - c.pos) / min_elem)
                throw Error(ErrorCode::Truncated,
                            "key '" + key + "': array of " + std::to_string(n) + " " + vtype_name(et) +
                                " elements runs past the end of the file",
                            c.file);
            if (count_out) *count_out = n;
            full += '[';
            if (summ) *summ += '[';
            std::string elem_type = vtype_name(et);
            for (std::uint64_t i = 0; i < n; ++i) {
                if (i) full += ',';
                std::string* s = summ && i < items ? summ : nullptr;
                if (s && i) *s += ',';
                elem_type = render(c, et, depth + 1, full, s, items, cut, key, nullptr);
            }
            if (summ && n > items) {
                if (items) *summ += ',';
                append_json_string(*summ, "… " + std::to_string(n - items) + " more");
                cut = true;
            }
            full += ']';
            if (summ) *summ += ']';
            return "array[" + elem_type + "]";
        }
        default:
            throw Error(ErrorCode::Malformed, "key '" + key + "': unknown value type " + std::to_string(t), c.file);
    }
    return vtype_name(t);
}

struct TensorRecord {
    std::string name;
    std::vector<std::uint64_t> ne;  // GGUF order, innermost first
    std::uint32_t type = 0;
    std::uint64_t offset = 0;       // relative to the data section
};

struct Header {
    std::uint32_t version = 0;
    bool be = false;
    std::uint64_t alignment = 32;
    std::uint64_t data_offset = 0;
    std::uint64_t n_tensors = 0, n_kv = 0;
    std::vector<KvRecord> kvs;
    std::vector<TensorRecord> tensors;
};

Header parse_header(std::span<const std::uint8_t> bytes, const std::string& file, std::size_t summary_items) {
    Cursor c{bytes.data(), bytes.size(), file};
    Header h;
    if (bytes.size() < 4) c.truncated("the GGUF magic", 4);
    const std::uint8_t* m = bytes.data();
    if (std::memcmp(m, "GGUF", 4) != 0) {
        if (std::memcmp(m, "lmgg", 4) == 0 || std::memcmp(m, "fmgg", 4) == 0 || std::memcmp(m, "tjgg", 4) == 0)
            throw Error(ErrorCode::Unsupported,
                        "legacy ggml/GGMF/GGJT file (llama.cpp's format before GGUF, 2023); convert it to GGUF with "
                        "llama.cpp's convert_llama_ggml_to_gguf.py",
                        file);
        throw Error(ErrorCode::Malformed, "not a GGUF file: magic bytes are " + hex_bytes(m, 4) + ", expected 'GGUF'",
                    file);
    }
    c.pos = 4;
    std::uint32_t version = c.num<std::uint32_t>("the GGUF version");
    if ((version & 0xFFFF) == 0 && version != 0) {  // written by a big-endian host (gguf-py's rule)
        c.be = true;
        version = bswap(version);
    }
    h.be = c.be;
    h.version = version;
    if (version == 1)
        throw Error(ErrorCode::Unsupported,
                    "GGUF version 1 (32-bit counts, llama.cpp before August 2023) is not supported; re-convert the model "
                    "with a current llama.cpp",
                    file);
    if (version < 2 || version > 3)
        throw Error(ErrorCode::Unsupported, "GGUF version " + std::to_string(version) + " is not supported (2 and 3 are)",
                    file);
    h.n_tensors = c.num<std::uint64_t>("the tensor count");
    h.n_kv = c.num<std::uint64_t>("the key/value count");
    if (h.n_tensors > GgufLimits::max_tensors)
        throw Error(ErrorCode::LimitExceeded,
                    "tensor count " + std::to_string(h.n_tensors) + " exceeds the limit of " +
                        std::to_string(GgufLimits::max_tensors),
                    file);
    if (h.n_kv > GgufLimits::max_key_values)
        throw Error(ErrorCode::LimitExceeded,
                    "key/value count " + std::to_string(h.n_kv) + " exceeds the limit of " +
                        std::to_string(GgufLimits::max_key_values),
                    file);

    std::unordered_set<std::string_view> keys;
    h.kvs.reserve(static_cast<std::size_t>(std::min<std::uint64_t>(h.n_kv, 4096)));
    for (std::uint64_t i = 0; i < h.n_kv; ++i) {
        KvRecord kv;
        const auto key = c.str("a metadata key");
        if (key.empty())  // ggml asserts on an empty key
            throw Error(ErrorCode::Malformed, "key/value " + std::to_string(i) + " has an empty key", file);
        if (!simdjson::validate_utf8(key.data(), key.size()))
            throw Error(ErrorCode::BadText, "key/value " + std::to_string(i) + " has a key that is not valid UTF-8 (" +
                        hex_bytes(reinterpret_cast<const std::uint8_t*>(key.data()), std::min<std::size_t>(key.size(), 16)) + ")", file);
        kv.key = std::string(key);
        kv.vtype = c.num<std::uint32_t>("the value type of key '" + kv.key + "'");
        const std::uint64_t value_pos = c.pos;
        try {
            kv.type = render(c, kv.vtype, 0, kv.json, &kv.summary, summary_items, kv.cut, kv.key, &kv.count);
        } catch (const Error& e) {
            if (e.message().find("key '") == 0) throw;
            throw Error(e.code(), "key '" + kv.key + "': " + e.message(), file);
        }
        if (!keys.insert(key).second)
            throw Error(ErrorCode::Malformed, "metadata key '" + kv.key + "' appears twice", file);
        // Scalars the parser needs back as values.
        Cursor v{c.data, c.size, file, value_pos, c.be};
        if (kv.vtype == kU32) kv.as_uint = v.num<std::uint32_t>("");
        else if (kv.vtype == kStr) kv.as_string = std::string(v.str(""));
        if (kv.key == "general.alignment") {
            if (kv.vtype != kU32)
                throw Error(ErrorCode::Malformed,
                            std::string("general.alignment must be a u32, found ") + kv.type, file);
            if (kv.as_uint == 0 || (kv.as_uint & (kv.as_uint - 1)) != 0 || kv.as_uint > GgufLimits::max_alignment)
                throw Error(ErrorCode::Malformed,
                            "general.alignment " + std::to_string(kv.as_uint) +
                                " is not a power of two between 1 and " + std::to_string(GgufLimits::max_alignment),
                            file);
            h.alignment = kv.as_uint;
        }
        h.kvs.push_back(std::move(kv));
    }

    h.tensors.reserve(static_cast<std::size_t>(std::min<std::uint64_t>(h.n_tensors, 65536)));
    for (std::uint64_t i = 0; i < h.n_tensors; ++i) {
        TensorRecord t;
        const auto name = c.str("a tensor name");
        if (!simdjson::validate_utf8(name.data(), name.size()))
            throw Error(ErrorCode::BadText, "tensor " + std::to_string(i) + " has a name that is not valid UTF-8 (" +
                        hex_bytes(reinterpret_cast<const std::uint8_t*>(name.data()), std::min<std::size_t>(name.size(), 16)) + ")", file);
        t.name = std::string(name);
        if (t.name.size() >= kGgmlMaxName)  // GGML_MAX_NAME, name plus its NUL
            throw Error(ErrorCode::LimitExceeded, "name of " + std::to_string(t.name.size()) + " bytes (ggml's limit is " +
                        std::to_string(kGgmlMaxName - 1) + ")", file, t.name.substr(0, kGgmlMaxName));
        const auto n_dims = c.num<std::uint32_t>("the dimension count of tensor '" + t.name + "'");
        if (n_dims > kGgmlMaxDims)
            throw Error(ErrorCode::LimitExceeded,
                        std::to_string(n_dims) + " dimensions (ggml's limit is " + std::to_string(kGgmlMaxDims) + ")", file,
                        t.name);
        for (std::uint32_t d = 0; d < n_dims; ++d) {
            const auto ne = c.num<std::uint64_t>("the dimensions of tensor '" + t.name + "'");
            if (ne > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
                throw Error(ErrorCode::Malformed, "dimension " + std::to_string(d) + " is negative", file, t.name);
            t.ne.push_back(ne);
        }
        t.type = c.num<std::uint32_t>("the type of tensor '" + t.name + "'");
        t.offset = c.num<std::uint64_t>("the offset of tensor '" + t.name + "'");
        h.tensors.push_back(std::move(t));
    }
    // The data section starts at the next multiple of the alignment.
    const std::uint64_t a = h.alignment;
    h.data_offset = c.pos % a ? c.pos + (a - c.pos % a) : c.pos;
    return h;
}

GgufInfo info_from(const Header& h) {
    GgufInfo info;
    info.version = h.version;
    info.big_endian = h.be;
    info.alignment = h.alignment;
    info.data_offset = h.data_offset;
    info.tensor_count = h.n_tensors;
    info.kv_count = h.n_kv;
    for (const auto& kv : h.kvs) {
        if (kv.key == "general.architecture" && kv.vtype == kStr) info.architecture = kv.as_string;
        else if (kv.key == "general.name" && kv.vtype == kStr) info.name = kv.as_string;
        else if (kv.key == "general.file_type" && kv.vtype == kU32) info.file_type = static_cast<std::uint32_t>(kv.as_uint);
    }
    return info;
}

const MappedFile& gguf_file(const Catalog& cat) {
    if (cat.format != Format::Gguf || cat.shards.empty() || !cat.shards[0].file)
        throw Error(ErrorCode::Usage, "not a GGUF catalog", cat.path);
    return *cat.shards[0].file;
}

}  // namespace

bool is_gguf(std::span<const std::uint8_t> b) noexcept {
    if (b.size() < 4) return false;
    const auto* m = b.data();
    return std::memcmp(m, "GGUF", 4) == 0 || std::memcmp(m, "lmgg", 4) == 0 || std::memcmp(m, "fmgg", 4) == 0 ||
           std::memcmp(m, "tjgg", 4) == 0;
}

Catalog parse_gguf(MappedFilePtr file, const std::string& path) {
    const auto bytes = file->bytes();
    Header h = parse_header(bytes, path, 0);
    const std::uint64_t size = bytes.size();
    if (!h.tensors.empty() && h.data_offset > size)
        throw Error(ErrorCode::Truncated,
                    "file ends before its tensor data section (starts at byte " + std::to_string(h.data_offset) +
                        ", file has " + std::to_string(size) + " bytes)",
                    path);
    const std::uint64_t data_size = h.data_offset <= size ? size - h.data_offset : 0;

    Catalog cat;
    cat.format = Format::Gguf;
    cat.path = path;
    cat.display_name = fs::path(path).filename().string();
    cat.shards.push_back(Shard{path, file});
    cat.tensors.reserve(h.tensors.size());
    std::vector<bool> size_known(h.tensors.size(), true);
    for (std::size_t i = 0; i < h.tensors.size(); ++i) {
        const auto& r = h.tensors[i];
        TensorInfo t;
        t.name = r.name;
        t.dtype = dtype_from_ggml_id(r.type);
        t.dtype_name = dtype_name(t.dtype);
        if (t.dtype == DType::Unknown) t.dtype_name = "ggml type " + std::to_string(r.type);
        t.shape.assign(r.ne.rbegin(), r.ne.rend());
        t.big_endian = h.be;
        std::uint64_t numel = 1;
        for (auto ne : r.ne) {
            if (ne != 0 && numel > std::numeric_limits<std::uint64_t>::max() / ne)
                throw Error(ErrorCode::SizeMismatch, "element count overflows 64 bits", path, t.name);
            numel *= ne;
        }
        if (r.offset % h.alignment != 0)
            throw Error(ErrorCode::Malformed,
                        "data offset " + std::to_string(r.offset) + " is not a multiple of the alignment " +
                            std::to_string(h.alignment),
                        path, t.name);
        if (r.offset > data_size)
            throw Error(ErrorCode::OutOfRange,
                        "data offset " + std::to_string(r.offset) + " lies outside the data section (" +
                            std::to_string(data_size) + " bytes)",
                        path, t.name);
        t.offset = h.data_offset + r.offset;
        if (const DTypeInfo* info = dtype_info(t.dtype)) {
            const std::uint64_t ne0 = r.ne.empty() ? 1 : r.ne[0];
            if (ne0 % info->block_elems != 0)
                throw Error(ErrorCode::SizeMismatch,
                            "row of " + std::to_string(ne0) + " elements is not a whole number of " + t.dtype_name +
                                " blocks (" + std::to_string(info->block_elems) + " elements each)",
                            path, t.name);
            const auto nbytes = dtype_bytes(t.dtype, numel);
            if (!nbytes) throw Error(ErrorCode::SizeMismatch, "byte size overflows 64 bits", path, t.name);
            t.nbytes = *nbytes;
            if (t.nbytes > data_size - r.offset)
                throw Error(ErrorCode::OutOfRange,
                            "data [" + std::to_string(r.offset) + ", +" + std::to_string(t.nbytes) +
                                ") runs past the end of the data section (" + std::to_string(data_size) + " bytes)",
                            path, t.name);
        } else {
            size_known[i] = false;
        }
        cat.tensors.push_back(std::move(t));
    }

    // Layout, as ggml requires (gguf_init_from_file): in declaration order,
    // every tensor starts at the running size of the ones before it, each
    // padded to the alignment. One pass, linear. A type or alignment lie
    // shows up as an offset off the running size. A tensor of a type this
    // version does not know gets the room up to the next tensor's offset.
    std::uint64_t running = 0;
    std::size_t pending = SIZE_MAX;  // an unknown-size tensor waiting for the next offset
    auto settle_unknown = [&](std::uint64_t end_rel) {
        auto& u = cat.tensors[pending];
        const std::uint64_t rel = u.offset - h.data_offset;
        u.nbytes = end_rel - rel;
        cat.notes.push_back("tensor '" + u.name + "' has " + u.dtype_name +
                            ", which this version does not know: listed, not convertible; its size is unknown (at most " +
                            std::to_string(u.nbytes) + " bytes)");
        pending = SIZE_MAX;
    };
    for (std::size_t i = 0; i < h.tensors.size(); ++i) {
        const auto& r = h.tensors[i];
        const auto& t = cat.tensors[i];
        if (pending != SIZE_MAX) {
            if (r.offset < running)
                throw Error(ErrorCode::Overlap, "data offset " + std::to_string(r.offset) + " lies before the previous tensor '" +
                            cat.tensors[pending].name + "' at " + std::to_string(running), path, t.name);
            settle_unknown(r.offset);
            running = r.offset;
        }
        if (r.offset < running)
            throw Error(ErrorCode::Overlap,
                        "data offset " + std::to_string(r.offset) + " overlaps the tensors before it (they end at " +
                            std::to_string(running) + ")" + (i ? ", e.g. '" + cat.tensors[i - 1].name + "'" : std::string()),
                        path, t.name);
        if (r.offset > running)
            throw Error(ErrorCode::Gap,
                        "data offset " + std::to_string(r.offset) + " is not the running size " + std::to_string(running) +
                            " of the tensors before it (ggml requires them packed in order, each padded to " +
                            std::to_string(h.alignment) + ")",
                        path, t.name);
        if (!size_known[i]) {
            pending = i;
            continue;
        }
        const std::uint64_t a = h.alignment;
        running = r.offset + (t.nbytes % a ? t.nbytes + (a - t.nbytes % a) : t.nbytes);
    }
    if (pending != SIZE_MAX) settle_unknown(data_size);

    for (auto& kv : h.kvs) cat.metadata.emplace_back(std::move(kv.key), std::move(kv.json));
    try {
        cat.index_names();
    } catch (const Error& e) {
        if (e.code() != ErrorCode::Malformed) throw;
        throw Error(e.code(), "tensor name appears twice", path, e.tensor());
    }
    return cat;
}

Catalog open_gguf(const std::string& path) { return parse_gguf(MappedFile::open(path), path); }

GgufInfo gguf_info(const Catalog& cat) {
    const auto& f = gguf_file(cat);
    return info_from(parse_header(f.bytes(), cat.path, 0));
}

std::vector<GgufKeyValue> gguf_key_values(const Catalog& cat, std::size_t summary_items) {
    const auto& f = gguf_file(cat);
    Header h = parse_header(f.bytes(), cat.path, summary_items);
    std::vector<GgufKeyValue> out;
    out.reserve(h.kvs.size());
    for (auto& kv : h.kvs) {
        GgufKeyValue o;
        o.key = std::move(kv.key);
        o.type = std::move(kv.type);
        o.count = kv.count;
        o.summary = kv.cut ? std::move(kv.summary) : kv.json;
        o.json = std::move(kv.json);
        out.push_back(std::move(o));
    }
    return out;
}

std::string gguf_kv_json(const Catalog& cat) {
    std::string out = "{";
    bool first = true;
    for (const auto& [k, v] : cat.metadata) {
        if (!first) out += ',';
        first = false;
        append_json_string(out, k);
        out += ':';
        out += v;
    }
    out += '}';
    return out;
}

// llama_ftype_name() is defined in gguf_ftype.cc, from the one file-type table.

bool is_ollama_spec(std::string_view spec) noexcept { return spec.substr(0, 7) == "ollama:"; }

std::string resolve_ollama(std::string_view spec) {
    const std::string spec_s(spec);
    if (!is_ollama_spec(spec)) throw Error(ErrorCode::Usage, "not an ollama: model reference: '" + spec_s + "'");
    std::string_view ref = spec.substr(7);
    std::string_view name = ref, tag = "latest";
    const auto slash = ref.rfind('/');
    const auto colon = ref.rfind(':');
    if (colon != std::string_view::npos && (slash == std::string_view::npos || colon > slash)) {
        name = ref.substr(0, colon);
        tag = ref.substr(colon + 1);
    }
    std::vector<std::string> parts;
    for (std::size_t i = 0; i <= name.size();) {
        const auto j = std::min(name.find('/', i), name.size());
        parts.emplace_back(name.substr(i, j - i));
        i = j + 1;
    }
    auto bad_part = [](const std::string& p) { return p.empty() || p == "." || p == ".." || p.find('\\') != std::string::npos; };
    if (parts.size() > 3 || tag.empty() || tag.find('/') != std::string_view::npos || tag == "." || tag == ".." ||
        std::any_of(parts.begin(), parts.end(), bad_part))
        throw Error(ErrorCode::Usage, "malformed ollama model reference '" + spec_s +
                                          "' (expected ollama:MODEL[:TAG], MODEL = name, namespace/name or host/namespace/name)");
    if (parts.size() == 1) parts.insert(parts.begin(), "library");
    if (parts.size() == 2) parts.insert(parts.begin(), "registry.ollama.ai");

    fs::path root;
    if (const char* env = std::getenv("OLLAMA_MODELS"); env && *env) {
        root = env;
    } else {
        const char* home = std::getenv("HOME");
        if (!home || !*home) throw Error(ErrorCode::Io, "cannot find the ollama store: neither OLLAMA_MODELS nor HOME is set");
        root = fs::path(home) / ".ollama" / "models";
    }
    const fs::path manifest = root / "manifests" / parts[0] / parts[1] / parts[2] / std::string(tag);
    std::ifstream in(manifest, std::ios::binary);
    if (!in)
        throw Error(ErrorCode::Io, "ollama model '" + std::string(ref) + "' not found: no manifest at " + manifest.string() +
                                       " (set OLLAMA_MODELS to the store's models folder)");
    std::stringstream ss;
    ss << in.rdbuf();
    const std::string text = ss.str();
    const std::string mpath = manifest.string();

    simdjson::ondemand::parser parser;
    simdjson::padded_string padded(text);
    simdjson::ondemand::document doc;
    detail::check_json(parser.iterate(padded).get(doc), "ollama manifest", mpath);
    simdjson::ondemand::object obj;
    detail::check_json(doc.get_object().get(obj), "ollama manifest (not a JSON object)", mpath);
    simdjson::ondemand::array layers;
    detail::check_json(obj["layers"].get_array().get(layers), "ollama manifest 'layers'", mpath);
    std::string digest;
    for (auto layer : layers) {
        simdjson::ondemand::object lo;
        detail::check_json(layer.get_object().get(lo), "ollama manifest layer", mpath);
        std::string_view media, dg;
        bool have_media = false, have_digest = false;
        for (auto field : lo) {
            std::string_view k;
            detail::check_json(field.unescaped_key().get(k), "ollama manifest layer key", mpath);
            if (k == "mediaType") {
                detail::check_json(field.value().get_string().get(media), "ollama layer mediaType", mpath);
                have_media = true;
            } else if (k == "digest") {
                detail::check_json(field.value().get_string().get(dg), "ollama layer digest", mpath);
                have_digest = true;
            }
            if (have_media && have_digest) break;
        }
        if (have_media && media == "application/vnd.ollama.image.model") {
            if (!have_digest) throw Error(ErrorCode::Malformed, "ollama model layer has no digest", mpath);
            digest = std::string(dg);
            break;
        }
    }
    if (digest.empty()) throw Error(ErrorCode::Malformed, "ollama manifest has no model layer (application/vnd.ollama.image.model)", mpath);
    if (digest.rfind("sha256:", 0) != 0 || digest.size() != 7 + 64 ||
        digest.find_first_not_of("0123456789abcdef", 7) != std::string::npos)
        throw Error(ErrorCode::Malformed, "ollama model layer digest '" + digest + "' is not sha256:<64 hex digits>", mpath);
    const std::string hexd = digest.substr(7);
    for (const fs::path& blob : {root / "blobs" / ("sha256-" + hexd), root / "blobs" / ("sha256:" + hexd)}) {
        std::error_code ec;
        if (fs::is_regular_file(blob, ec)) return blob.string();
    }
    throw Error(ErrorCode::Io, "ollama model '" + std::string(ref) + "': blob " + (root / "blobs" / ("sha256-" + hexd)).string() +
                                   " named by the manifest is missing");
}

}  // namespace amn
