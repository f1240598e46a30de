// SPDX-License-Identifier: MIT OR Apache-2.0
// Typed GGUF key/values, a streaming GGUF v3 writer matching ggml's
// gguf.cpp byte for byte, and llama-quantize's metadata rewrite.
#include "anamnesis/gguf_writer.hpp"

#include "anamnesis/error.hpp"
#include "anamnesis/gguf.hpp"
#include "output_files.hpp"
#include "sink_file.hpp"

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <limits>
#include <map>
#include <mutex>
#include <optional>
#include <unordered_set>

#include <unistd.h>

namespace amn {
namespace {
namespace fs = std::filesystem;

constexpr std::uint64_t kDefaultAlignment = 32;  // GGUF_DEFAULT_ALIGNMENT
constexpr std::size_t kMaxDims = 4;              // GGML_MAX_DIMS
constexpr std::size_t kMaxName = 64;             // GGML_MAX_NAME (with the terminator)

bool valid_type(GgufType t) noexcept { return static_cast<std::uint32_t>(t) <= 12; }

// Bytes of a fixed-size scalar type; 0 for String/Array.
unsigned scalar_size(GgufType t) noexcept {
    switch (t) {
        case GgufType::U8: case GgufType::I8: case GgufType::Bool: return 1;
        case GgufType::U16: case GgufType::I16: return 2;
        case GgufType::U32: case GgufType::I32: case GgufType::F32: return 4;
        case GgufType::U64: case GgufType::I64: case GgufType::F64: return 8;
        default: return 0;
    }
}

bool is_signed(GgufType t) noexcept {
    return t == GgufType::I8 || t == GgufType::I16 || t == GgufType::I32 || t == GgufType::I64;
}

[[noreturn]] void usage_error(const std::string& msg) { throw Error(ErrorCode::Usage, msg); }

GgufValue scalar(GgufType t, std::uint64_t bits) {
    GgufValue v;
    v.type = t;
    v.bits = bits;
    return v;
}

// ---- encoding ---------------------------------------------------------------

void put_u32(std::vector<std::uint8_t>& out, std::uint32_t v) {
    for (int i = 0; i < 4; ++i) out.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
}
void put_u64(std::vector<std::uint8_t>& out, std::uint64_t v) {
    for (int i = 0; i < 8; ++i) out.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
}
void put_str(std::vector<std::uint8_t>& out, std::string_view s) {
    put_u64(out, s.size());
    out.insert(out.end(), s.begin(), s.end());
}

void check_value(const GgufValue& v, const std::string& key, unsigned depth) {
    if (!valid_type(v.type))
        usage_error("key '" + key + "': invalid GGUF value type " + std::to_string(static_cast<std::uint32_t>(v.type)));
    if (v.type != GgufType::Array) return;
    if (depth >= GgufLimits::max_array_depth)
        usage_error("key '" + key + "': arrays nested deeper than " + std::to_string(GgufLimits::max_array_depth));
    if (!valid_type(v.elem_type))
        usage_error("key '" + key + "': invalid array element type " + std::to_string(static_cast<std::uint32_t>(v.elem_type)));
    for (const auto& it : v.items) {
        if (it.type != v.elem_type)
            usage_error("key '" + key + "': array of " + std::string(gguf_type_name(v.elem_type)) + " holds a " +
                        std::string(gguf_type_name(it.type)) + " element");
        check_value(it, key, depth + 1);
    }
}

// The value's payload (no type tag), ggml's gguf_writer_base::write(gguf_kv).
// Nested arrays: each element is "u32 element type, u64 count, elements".
void put_payload(std::vector<std::uint8_t>& out, const GgufValue& v) {
    switch (v.type) {
        case GgufType::String: put_str(out, v.str); return;
        case GgufType::Array:
            put_u32(out, static_cast<std::uint32_t>(v.elem_type));
            put_u64(out, v.items.size());
            for (const auto& it : v.items) put_payload(out, it);
            return;
        default: {
            const unsigned n = scalar_size(v.type);
            for (unsigned i = 0; i < n; ++i) out.push_back(static_cast<std::uint8_t>(v.bits >> (8 * i)));
        }
    }
}

void put_kv(std::vector<std::uint8_t>& out, const GgufKv& kv) {
    put_str(out, kv.key);
    put_u32(out, static_cast<std::uint32_t>(kv.value.type));
    put_payload(out, kv.value);
}

// ---- decoding (gguf_read_kvs) ------------------------------------------------

struct Reader {
    const std::uint8_t* p;
    std::uint64_t size;
    const std::string& file;
    std::uint64_t pos = 0;
    bool be = false;

    void need(std::uint64_t n, const std::string& what) const {
        if (n > size - pos)
            throw Error(ErrorCode::Truncated,
                        "file ends inside " + what + " at byte " + std::to_string(pos) + " (needs " + std::to_string(n) +
                            " bytes, " + std::to_string(size - pos) + " left)",
                        file);
    }
    std::uint64_t uint(unsigned n, const std::string& what) {
        need(n, what);
        std::uint64_t v = 0;
        for (unsigned i = 0; i < n; ++i) {
            const unsigned shift = be ? 8 * (n - 1 - i) : 8 * i;
            v |= static_cast<std::uint64_t>(p[pos + i]) << shift;
        }
        pos += n;
        return v;
    }
    std::string str(const std::string& what) {
        const std::uint64_t n = uint(8, what + " length");
        if (n > GgufLimits::max_string_bytes)
            throw Error(ErrorCode::LimitExceeded,
                        what + " length " + std::to_string(n) + " exceeds the limit of " +
                            std::to_string(GgufLimits::max_string_bytes) + " bytes",
                        file);
        need(n, what);
        std::string s(reinterpret_cast<const char*>(p + pos), static_cast<std::size_t>(n));
        pos += n;
        return s;
    }
};

GgufValue read_value(Reader& r, std::uint32_t t, unsigned depth, const std::string& key) {
    const auto type = static_cast<GgufType>(t);
    if (!valid_type(type))
        throw Error(ErrorCode::Malformed, "key '" + key + "': unknown value type " + std::to_string(t), r.file);
    if (type == GgufType::String) return GgufValue::string(r.str("a string value of key '" + key + "'"));
    if (type != GgufType::Array) {
        const unsigned n = scalar_size(type);
        return scalar(type, r.uint(n, "a value of key '" + key + "'"));
    }
    if (depth >= GgufLimits::max_array_depth)
        throw Error(ErrorCode::LimitExceeded,
                    "key '" + key + "': arrays nested deeper than " + std::to_string(GgufLimits::max_array_depth), r.file);
    const auto et = static_cast<std::uint32_t>(r.uint(4, "an array element type"));
    if (et > 12)
        throw Error(ErrorCode::Malformed, "key '" + key + "': unknown array element type " + std::to_string(et), r.file);
    const std::uint64_t n = r.uint(8, "an array length");
    if (n > GgufLimits::max_array_elems)
        throw Error(ErrorCode::LimitExceeded,
                    "key '" + key + "': array of " + std::to_string(n) + " elements exceeds the limit of " +
                        std::to_string(GgufLimits::max_array_elems),
                    r.file);
    const auto etype = static_cast<GgufType>(et);
    const std::uint64_t min_elem = etype == GgufType::String ? 8 : etype == GgufType::Array ? 12 : scalar_size(etype);
    if (n > (r.size - r.pos) / min_elem)
        throw Error(ErrorCode::Truncated,
                    "key '" + key + "': array of " + std::to_string(n) + " elements runs past the end of the file", r.file);
    GgufValue v;
    v.type = GgufType::Array;
    v.elem_type = etype;
    v.items.reserve(static_cast<std::size_t>(n));
    for (std::uint64_t i = 0; i < n; ++i) v.items.push_back(read_value(r, et, depth + 1, key));
    return v;
}

std::string cut_at_nul(const std::string& s) {
    const auto z = s.find('\0');
    return z == std::string::npos ? s : s.substr(0, z);
}

// ggml gguf_set_kv: strings travel as const char*.
GgufValue ggml_copy(const GgufValue& v) {
    if (v.type == GgufType::String) return GgufValue::string(cut_at_nul(v.str));
    if (v.type == GgufType::Array && v.elem_type == GgufType::String) {
        GgufValue a = v;
        for (auto& it : a.items) it.str = cut_at_nul(it.str);
        return a;
    }
    return v;
}

void set_kv(std::vector<GgufKv>& kvs, std::string key, GgufValue value) {
    kvs.erase(std::remove_if(kvs.begin(), kvs.end(), [&](const GgufKv& kv) { return kv.key == key; }), kvs.end());
    kvs.push_back(GgufKv{std::move(key), std::move(value)});
}

std::uint64_t pad_to(std::uint64_t n, std::uint64_t a) { return (n + a - 1) / a * a; }

std::string human_bytes(std::uint64_t n) {
    const char* units[] = {"bytes", "KiB", "MiB", "GiB", "TiB"};
    double v = static_cast<double>(n);
    int u = 0;
    while (v >= 1024 && u < 4) { v /= 1024; ++u; }
    char buf[64];
    if (u == 0) std::snprintf(buf, sizeof buf, "%llu bytes", static_cast<unsigned long long>(n));
    else std::snprintf(buf, sizeof buf, "%.1f %s", v, units[u]);
    return buf;
}

}  // namespace

// ---- GgufValue ---------------------------------------------------------------

std::string_view gguf_type_name(GgufType t) noexcept {
    static constexpr std::string_view names[] = {"u8", "i8", "u16", "i16", "u32", "i32", "f32",
                                                 "bool", "string", "array", "u64", "i64", "f64"};
    const auto i = static_cast<std::uint32_t>(t);
    return i <= 12 ? names[i] : std::string_view("?");
}

GgufValue GgufValue::u8(std::uint8_t v) { return scalar(GgufType::U8, v); }
GgufValue GgufValue::i8(std::int8_t v) { return scalar(GgufType::I8, static_cast<std::uint8_t>(v)); }
GgufValue GgufValue::u16(std::uint16_t v) { return scalar(GgufType::U16, v); }
GgufValue GgufValue::i16(std::int16_t v) { return scalar(GgufType::I16, static_cast<std::uint16_t>(v)); }
GgufValue GgufValue::u32(std::uint32_t v) { return scalar(GgufType::U32, v); }
GgufValue GgufValue::i32(std::int32_t v) { return scalar(GgufType::I32, static_cast<std::uint32_t>(v)); }
GgufValue GgufValue::u64(std::uint64_t v) { return scalar(GgufType::U64, v); }
GgufValue GgufValue::i64(std::int64_t v) { return scalar(GgufType::I64, static_cast<std::uint64_t>(v)); }
GgufValue GgufValue::f32(float v) { return scalar(GgufType::F32, std::bit_cast<std::uint32_t>(v)); }
GgufValue GgufValue::f64(double v) { return scalar(GgufType::F64, std::bit_cast<std::uint64_t>(v)); }
GgufValue GgufValue::boolean(bool v) { return scalar(GgufType::Bool, v ? 1 : 0); }
GgufValue GgufValue::string(std::string v) {
    GgufValue g;
    g.type = GgufType::String;
    g.str = std::move(v);
    return g;
}
GgufValue GgufValue::array(GgufType elem, std::vector<GgufValue> items) {
    GgufValue g;
    g.type = GgufType::Array;
    g.elem_type = elem;
    g.items = std::move(items);
    check_value(g, "(array)", 0);
    return g;
}
GgufValue GgufValue::strings(const std::vector<std::string>& v) {
    GgufValue g;
    g.type = GgufType::Array;
    g.elem_type = GgufType::String;
    g.items.reserve(v.size());
    for (const auto& s : v) g.items.push_back(string(s));
    return g;
}

std::uint64_t GgufValue::as_uint() const {
    if (is_signed(type)) {
        const auto v = as_int();
        if (v < 0) usage_error("GGUF value " + std::to_string(v) + " is negative, an unsigned value is needed");
        return static_cast<std::uint64_t>(v);
    }
    if (type == GgufType::U8 || type == GgufType::U16 || type == GgufType::U32 || type == GgufType::U64 ||
        type == GgufType::Bool)
        return bits;
    usage_error("GGUF value of type " + std::string(gguf_type_name(type)) + " is not an integer");
}

std::int64_t GgufValue::as_int() const {
    switch (type) {
        case GgufType::I8: return static_cast<std::int8_t>(bits);
        case GgufType::I16: return static_cast<std::int16_t>(bits);
        case GgufType::I32: return static_cast<std::int32_t>(bits);
        case GgufType::I64: return static_cast<std::int64_t>(bits);
        case GgufType::U8: case GgufType::U16: case GgufType::U32: return static_cast<std::int64_t>(bits);
        case GgufType::U64:
            if (bits > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
                usage_error("GGUF u64 value " + std::to_string(bits) + " does not fit a signed 64-bit integer");
            return static_cast<std::int64_t>(bits);
        default: usage_error("GGUF value of type " + std::string(gguf_type_name(type)) + " is not an integer");
    }
}

double GgufValue::as_double() const {
    if (type == GgufType::F32) return std::bit_cast<float>(static_cast<std::uint32_t>(bits));
    if (type == GgufType::F64) return std::bit_cast<double>(bits);
    usage_error("GGUF value of type " + std::string(gguf_type_name(type)) + " is not a float");
}

const std::string& GgufValue::as_string() const {
    if (type != GgufType::String) usage_error("GGUF value of type " + std::string(gguf_type_name(type)) + " is not a string");
    return str;
}

bool GgufValue::as_bool() const {
    if (type != GgufType::Bool) usage_error("GGUF value of type " + std::string(gguf_type_name(type)) + " is not a bool");
    return bits != 0;
}

bool operator==(const GgufValue& a, const GgufValue& b) noexcept {
    if (a.type != b.type) return false;
    switch (a.type) {
        case GgufType::String: return a.str == b.str;
        case GgufType::Array: return a.elem_type == b.elem_type && a.items == b.items;
        default: return a.bits == b.bits;
    }
}

const GgufValue* gguf_find_kv(const std::vector<GgufKv>& kvs, std::string_view key) noexcept {
    for (const auto& kv : kvs)
        if (kv.key == key) return &kv.value;
    return nullptr;
}

std::vector<std::uint8_t> gguf_encode_kv(const GgufKv& kv) {
    check_value(kv.value, kv.key, 0);
    std::vector<std::uint8_t> out;
    put_kv(out, kv);
    return out;
}

std::vector<GgufKv> gguf_read_kvs(const Catalog& cat) {
    if (cat.format != Format::Gguf || cat.shards.empty() || !cat.shards[0].file)
        throw Error(ErrorCode::Usage, "not a GGUF catalog", cat.path);
    const auto bytes = cat.shards[0].file->bytes();
    const std::string& file = cat.path;
    Reader r{bytes.data(), bytes.size(), file};
    r.need(24, "the GGUF header");
    if (std::memcmp(bytes.data(), "GGUF", 4) != 0) throw Error(ErrorCode::Malformed, "not a GGUF file", file);
    r.pos = 4;
    std::uint32_t version = static_cast<std::uint32_t>(r.uint(4, "the GGUF version"));
    if ((version & 0xFFFF) == 0 && version != 0) {  // big-endian writer (gguf-py's rule, as in open_gguf)
        r.be = true;
        version = __builtin_bswap32(version);
    }
    if (version < 2 || version > 3)
        throw Error(ErrorCode::Unsupported, "GGUF version " + std::to_string(version) + " is not supported (2 and 3 are)", file);
    r.uint(8, "the tensor count");
    const std::uint64_t n_kv = r.uint(8, "the key/value count");
    if (n_kv > GgufLimits::max_key_values)
        throw Error(ErrorCode::LimitExceeded, "key/value count " + std::to_string(n_kv) + " exceeds the limit", file);
    std::vector<GgufKv> out;
    out.reserve(static_cast<std::size_t>(std::min<std::uint64_t>(n_kv, 4096)));
    for (std::uint64_t i = 0; i < n_kv; ++i) {
        GgufKv kv;
        kv.key = r.str("a metadata key");
        const auto t = static_cast<std::uint32_t>(r.uint(4, "the value type of key '" + kv.key + "'"));
        kv.value = read_value(r, t, 0, kv.key);
        out.push_back(std::move(kv));
    }
    return out;
}

// ---- llama-quantize metadata ----------------------------------------------------

std::vector<GgufKv> llama_quantize_kvs(const std::vector<GgufKv>& input, std::uint32_t ftype_id) {
    std::vector<GgufKv> out;
    out.reserve(input.size() + 2);
    for (const auto& kv : input) set_kv(out, kv.key, ggml_copy(kv.value));
    set_kv(out, "general.quantization_version", GgufValue::u32(2));  // GGML_QNT_VERSION
    set_kv(out, "general.file_type", GgufValue::u32(ftype_id));
    for (const char* k : {"split.no", "split.count", "split.tensors.count"})
        out.erase(std::remove_if(out.begin(), out.end(), [&](const GgufKv& kv) { return kv.key == k; }), out.end());
    return out;
}

std::vector<GgufKv> llama_quantize_kvs(const std::vector<GgufKv>& input, std::uint32_t ftype_id,
                                       const LlamaImatrixKvs& im) {
    auto out = llama_quantize_kvs(input, ftype_id);
    auto cut127 = [](const std::string& s) { return cut_at_nul(s).substr(0, 127); };
    set_kv(out, "quantize.imatrix.file", GgufValue::string(cut127(im.file)));
    if (!im.dataset.empty()) set_kv(out, "quantize.imatrix.dataset", GgufValue::string(cut127(im.dataset)));
    set_kv(out, "quantize.imatrix.entries_count", GgufValue::u32(im.entries_count));
    if (im.chunks_count > 0) set_kv(out, "quantize.imatrix.chunks_count", GgufValue::u32(im.chunks_count));
    return out;
}

// ---- GgufWriter -------------------------------------------------------------------

struct GgufWriter::Impl {
    std::string path;
    bool overwrite = false;
    std::vector<GgufKv> kvs;
    struct Tensor {
        std::string name;
        DType type;
        std::vector<std::uint64_t> ne;  // innermost first, ggml_n_dims applied
        std::uint64_t nbytes = 0;
        std::uint64_t rel_offset = 0;   // relative to the data section
        detail::WrittenRanges written;
    };
    std::vector<Tensor> tensors;
    std::unordered_set<std::string> names;
    using State = detail::SinkState;
    State state = State::Open;
    std::uint64_t alignment = kDefaultAlignment;
    std::uint64_t data_offset = 0;
    std::uint64_t file_size = 0;
    // optional + reset(): TempFile's move-assignment runs its destructor on
    // itself first, which is only safe while its path strings are empty.
    std::optional<detail::TempFile> file;
    std::mutex mu;

    void require_open(const char* what) const {
        if (state != State::Open)
            throw Error(ErrorCode::Usage, std::string(what) + " after layout()", path);
    }

    void validate_kvs(const std::vector<GgufKv>& list) const {
        std::unordered_set<std::string_view> seen;
        for (const auto& kv : list) {
            if (!seen.insert(kv.key).second) throw Error(ErrorCode::Usage, "metadata key '" + kv.key + "' appears twice", path);
            try {
                check_value(kv.value, kv.key, 0);
            } catch (const Error& e) {
                throw e.with_file(path);
            }
            if (kv.key == "general.alignment") {
                if (kv.value.type != GgufType::U32)
                    throw Error(ErrorCode::Usage, "general.alignment must be a u32, not " +
                                                      std::string(gguf_type_name(kv.value.type)), path);
                const auto a = kv.value.bits;
                if (a == 0 || (a & (a - 1)) != 0 || a > GgufLimits::max_alignment)
                    throw Error(ErrorCode::Usage, "general.alignment " + std::to_string(a) + " is not a power of two between 1 and " +
                                                      std::to_string(GgufLimits::max_alignment), path);
            }
        }
    }

    const Tensor& tensor(std::size_t i) const {
        if (i >= tensors.size())
            throw Error(ErrorCode::OutOfRange, "tensor index " + std::to_string(i) + " out of range (" +
                                                   std::to_string(tensors.size()) + " tensors)", path);
        return tensors[i];
    }
};

GgufWriter::GgufWriter(std::string path, bool overwrite) : d_(std::make_unique<Impl>()) {
    d_->path = std::move(path);
    d_->overwrite = overwrite;
}
GgufWriter::~GgufWriter() { abort(); }
GgufWriter::GgufWriter(GgufWriter&&) noexcept = default;
GgufWriter& GgufWriter::operator=(GgufWriter&& o) noexcept {
    if (this != &o) {
        abort();
        d_ = std::move(o.d_);
    }
    return *this;
}

void GgufWriter::set_kvs(std::vector<GgufKv> kvs) {
    d_->require_open("set_kvs()");
    d_->validate_kvs(kvs);
    d_->kvs = std::move(kvs);
}

void GgufWriter::set(std::string key, GgufValue value) {
    d_->require_open("set()");
    auto next = d_->kvs;
    set_kv(next, std::move(key), std::move(value));
    d_->validate_kvs(next);
    d_->kvs = std::move(next);
}

void GgufWriter::remove(std::string_view key) {
    d_->require_open("remove()");
    auto& k = d_->kvs;
    k.erase(std::remove_if(k.begin(), k.end(), [&](const GgufKv& kv) { return kv.key == key; }), k.end());
}

const std::vector<GgufKv>& GgufWriter::kvs() const noexcept { return d_->kvs; }

std::size_t GgufWriter::add_tensor(std::string name, DType type, std::vector<std::uint64_t> shape) {
    d_->require_open("add_tensor()");
    const std::string& path = d_->path;
    if (name.empty()) throw Error(ErrorCode::Usage, "empty tensor name", path);
    if (name.size() >= kMaxName)
        throw Error(ErrorCode::Usage, "tensor name of " + std::to_string(name.size()) +
                                          " bytes is too long for ggml (at most " + std::to_string(kMaxName - 1) + ")",
                    path, name);
    if (d_->names.count(name)) throw Error(ErrorCode::Usage, "tensor name added twice", path, name);
    const DTypeInfo* info = dtype_info(type);
    if (!info) throw Error(ErrorCode::UnknownDtype, "unregistered type " + dtype_name(type), path, name);
    if (info->ggml_id < 0) throw Error(ErrorCode::Unsupported, std::string(info->name) + " has no ggml type id", path, name);
    Impl::Tensor t;
    t.ne.assign(shape.rbegin(), shape.rend());
    while (t.ne.size() > 1 && t.ne.back() == 1) t.ne.pop_back();  // ggml_n_dims
    if (t.ne.empty()) t.ne.push_back(1);
    if (t.ne.size() > kMaxDims)
        throw Error(ErrorCode::Unsupported, std::to_string(t.ne.size()) + " dimensions (ggml writes at most 4)", path, name);
    if (t.ne[0] % info->block_elems != 0)
        throw Error(ErrorCode::SizeMismatch,
                    "row of " + std::to_string(t.ne[0]) + " elements is not a whole number of " + std::string(info->name) +
                        " blocks (" + std::to_string(info->block_elems) + " elements each)",
                    path, name);
    std::uint64_t numel = 1;
    for (auto n : t.ne) {
        if (n > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()) ||
            (n != 0 && numel > std::numeric_limits<std::uint64_t>::max() / n))
            throw Error(ErrorCode::SizeMismatch, "element count overflows 64 bits", path, name);
        numel *= n;
    }
    const auto nb = dtype_bytes(type, numel);
    if (!nb) throw Error(ErrorCode::SizeMismatch, "byte size overflows 64 bits", path, name);
    t.nbytes = *nb;
    t.name = std::move(name);
    t.type = type;
    d_->names.insert(t.name);
    d_->tensors.push_back(std::move(t));
    return d_->tensors.size() - 1;
}

std::size_t GgufWriter::tensor_count() const noexcept { return d_->tensors.size(); }
std::uint64_t GgufWriter::tensor_nbytes(std::size_t i) const { return d_->tensor(i).nbytes; }

void GgufWriter::layout() {
    Impl& d = *d_;
    d.require_open("layout()");
    d.alignment = kDefaultAlignment;
    if (const GgufValue* a = gguf_find_kv(d.kvs, "general.alignment")) d.alignment = a->bits;

    std::vector<std::uint8_t> head;
    head.reserve(4096);
    put_u32(head, 0x46554747u);  // "GGUF"
    put_u32(head, 3);
    put_u64(head, d.tensors.size());
    put_u64(head, d.kvs.size());
    for (const auto& kv : d.kvs) put_kv(head, kv);
    std::uint64_t rel = 0;
    for (auto& t : d.tensors) {
        t.rel_offset = rel;
        if (t.nbytes > std::numeric_limits<std::uint64_t>::max() - rel - d.alignment)
            throw Error(ErrorCode::SizeMismatch, "file size overflows 64 bits", d.path, t.name);
        rel += pad_to(t.nbytes, d.alignment);
        put_str(head, t.name);
        put_u32(head, static_cast<std::uint32_t>(t.ne.size()));
        for (auto n : t.ne) put_u64(head, n);
        put_u32(head, static_cast<std::uint32_t>(dtype_info(t.type)->ggml_id));
        put_u64(head, t.rel_offset);
    }
    d.data_offset = pad_to(head.size(), d.alignment);
    head.resize(static_cast<std::size_t>(d.data_offset), 0);
    d.file_size = d.data_offset + rel;

    // Enough room? Checked before anything is created.
    detail::check_free_space(d.path, d.file_size, human_bytes);

    d.file.emplace(detail::TempFile::create(d.path, d.overwrite));
    try {
        d.file->truncate(d.file_size);
        detail::pwrite_all(d.file->fd(), head.data(), head.size(), 0, d.path);
    } catch (...) {
        d.file.reset();
        throw;
    }
    d.state = Impl::State::Laid;
}

std::uint64_t GgufWriter::alignment() const noexcept { return d_->alignment; }
std::uint64_t GgufWriter::data_offset() const noexcept { return d_->data_offset; }
std::uint64_t GgufWriter::file_size() const noexcept { return d_->file_size; }

std::uint64_t GgufWriter::tensor_offset(std::size_t i) const {
    if (d_->state == Impl::State::Open) throw Error(ErrorCode::Usage, "tensor_offset() before layout()", d_->path);
    return d_->data_offset + d_->tensor(i).rel_offset;
}

void GgufWriter::write(std::size_t index, std::uint64_t offset, std::span<const std::uint8_t> bytes) {
    Impl& d = *d_;
    detail::require_laid(d.state, "write", d.path);
    if (index >= d.tensors.size())
        throw Error(ErrorCode::OutOfRange, "tensor index " + std::to_string(index) + " out of range", d.path);
    Impl::Tensor& t = d.tensors[index];
    detail::WrittenRanges::check_range(offset, bytes.size(), t.nbytes, d.path, t.name);
    if (bytes.empty()) return;
    detail::pwrite_all(d.file->fd(), bytes.data(), bytes.size(), d.data_offset + t.rel_offset + offset, d.path, t.name);
    // Record [offset, end) and merge with neighbours.
    std::lock_guard<std::mutex> lock(d.mu);
    t.written.add(offset, bytes.size());
}

void GgufWriter::commit() {
    Impl& d = *d_;
    detail::require_laid(d.state, "commit", d.path);
    {
        std::lock_guard<std::mutex> lock(d.mu);
        for (const auto& t : d.tensors) t.written.check_complete(t.nbytes, d.path, t.name);
    }
    d.file->commit();
    d.state = Impl::State::Committed;
}

void GgufWriter::abort() noexcept {
    if (!d_) return;
    d_->file.reset();  // closes and unlinks an uncommitted temp file
    if (d_->state == Impl::State::Laid) d_->state = Impl::State::Aborted;
}

const std::string& GgufWriter::path() const noexcept { return d_->path; }

}  // namespace amn
