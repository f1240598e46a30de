// SPDX-License-Identifier: MIT OR Apache-2.0
// GGUF v2/v3 parser (ggml docs/gguf.md; gguf-py GGUFReader for the
// big-endian convention) and ollama store resolution.
#include "anamnesis/gguf.hpp"

#include "anamnesis/error.hpp"

#include <simdjson.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <limits>
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

// Forward-only reader over the mapped header; every read is bounds-checked
// and, for a partial (remote) file, declared first (MappedFile::require).
struct Cursor {
    const std::uint8_t* data;
    std::uint64_t size;
    const std::string& file;
    const MappedFile* mapped = nullptr;  // require() before reading, when set
    std::uint64_t pos = 0;
    bool be = false;
    // What the structure being read still takes at least, from `pos` on
    // (the rest of an array of strings, of the tensor infos): a remote
    // reader missing bytes fetches that much at once, not string by string.
    std::uint64_t ahead = 0;

    [[noreturn]] void truncated(std::string_view what, std::uint64_t need) const {
        throw Error(ErrorCode::Truncated,
                    "file ends inside " + std::string(what) + " at byte " + std::to_string(pos) + " (needs " +
                        std::to_string(need) + " bytes, " + std::to_string(size - pos) + " left)",
                    file);
    }
    void need(std::uint64_t n, std::string_view what) const {
        if (n > size - pos) truncated(what, n);
        if (mapped) mapped->require(pos, std::max(n, ahead), ahead > n);
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

constexpr std::size_t kGgmlMaxName = 64;  // GGML_MAX_NAME
constexpr std::uint32_t kGgmlMaxDims = 4; // GGML_MAX_DIMS

// Read one value of type `t` at the cursor, typed. `key` names it in errors.
MetaValue read_value(Cursor& c, std::uint32_t t, unsigned depth, const std::string& key) {
    auto scalar = [](GgufType type, std::uint64_t bits) {
        MetaValue v;
        v.type = type;
        v.bits = bits;
        return v;
    };
    switch (t) {
        case kU8: return scalar(GgufType::U8, c.num<std::uint8_t>("a u8 value"));
        case kI8: return scalar(GgufType::I8, c.num<std::uint8_t>("an i8 value"));
        case kU16: return scalar(GgufType::U16, c.num<std::uint16_t>("a u16 value"));
        case kI16: return scalar(GgufType::I16, c.num<std::uint16_t>("an i16 value"));
        case kU32: return scalar(GgufType::U32, c.num<std::uint32_t>("a u32 value"));
        case kI32: return scalar(GgufType::I32, c.num<std::uint32_t>("an i32 value"));
        case kU64: return scalar(GgufType::U64, c.num<std::uint64_t>("a u64 value"));
        case kI64: return scalar(GgufType::I64, c.num<std::uint64_t>("an i64 value"));
        case kF32: return scalar(GgufType::F32, c.num<std::uint32_t>("an f32 value"));
        case kF64: return scalar(GgufType::F64, c.num<std::uint64_t>("an f64 value"));
        case kBool: return scalar(GgufType::Bool, c.num<std::uint8_t>("a bool value"));
        case kStr: return MetaValue::string(std::string(c.str("a string value")));
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
            // Packed (metadata.hpp): scalars as their little-endian bytes,
            // strings as one buffer + end offsets; arrays element by element.
            if (et != kStr && et != kArr) {
                const auto bytes = static_cast<std::size_t>(n * min_elem);
                c.need(bytes, "an array");
                std::string packed(reinterpret_cast<const char*>(c.data + c.pos), bytes);
                c.pos += bytes;
                if (c.be && min_elem > 1)
                    for (std::size_t i = 0; i < bytes; i += min_elem) std::reverse(packed.begin() + i, packed.begin() + i + min_elem);
                return MetaValue::packed(static_cast<GgufType>(et), n, std::move(packed));
            }
            MetaValue v;
            v.type = GgufType::Array;
            v.elem_type = static_cast<GgufType>(et);
            v.reserve(static_cast<std::size_t>(n));
            const auto outer_ahead = c.ahead;
            for (std::uint64_t i = 0; i < n; ++i) {
                if (depth == 0) c.ahead = (n - i) * min_elem;
                if (et == kStr) v.push_string(c.str("a string value"));
                else v.push_back(read_value(c, et, depth + 1, key));
            }
            c.ahead = outer_ahead;
            return v;
        }
        default:
            throw Error(ErrorCode::Malformed, "key '" + key + "': unknown value type " + std::to_string(t), c.file);
    }
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
    std::vector<MetaKv> kvs;
    std::vector<TensorRecord> tensors;
};

Header parse_header(std::span<const std::uint8_t> bytes, const std::string& file, const MappedFile* mapped) {
    Cursor c{bytes.data(), bytes.size(), file, mapped};
    Header h;
    if (bytes.size() < 4) c.truncated("the GGUF magic", 4);
    c.need(4, "the GGUF magic");
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
        MetaKv kv;
        const auto key = c.str("a metadata key");
        if (key.empty())  // ggml asserts on an empty key
            throw Error(ErrorCode::Malformed, "key/value " + std::to_string(i) + " has an empty key", file);
        if (!simdjson::validate_utf8(key.data(), key.size()))
            throw Error(ErrorCode::BadText, "key/value " + std::to_string(i) + " has a key that is not valid UTF-8 (" +
                        hex_bytes(reinterpret_cast<const std::uint8_t*>(key.data()), std::min<std::size_t>(key.size(), 16)) + ")", file);
        kv.key = std::string(key);
        const auto vtype = c.num<std::uint32_t>("the value type of key '" + kv.key + "'");
        try {
            kv.value = read_value(c, vtype, 0, kv.key);
        } catch (const Error& e) {
            if (e.message().find("key '") == 0) throw;
            throw Error(e.code(), "key '" + kv.key + "': " + e.message(), file);
        }
        if (!keys.insert(key).second)
            throw Error(ErrorCode::Malformed, "metadata key '" + kv.key + "' appears twice", file);
        if (kv.key == "general.alignment") {
            if (vtype != kU32)
                throw Error(ErrorCode::Malformed,
                            "general.alignment must be a u32, found " + meta_type_words(kv.value), file);
            const std::uint64_t a = kv.value.bits;
            if (a == 0 || (a & (a - 1)) != 0 || a > GgufLimits::max_alignment)
                throw Error(ErrorCode::Malformed,
                            "general.alignment " + std::to_string(a) +
                                " is not a power of two between 1 and " + std::to_string(GgufLimits::max_alignment),
                            file);
            h.alignment = a;
        }
        h.kvs.push_back(std::move(kv));
    }

    h.tensors.reserve(static_cast<std::size_t>(std::min<std::uint64_t>(h.n_tensors, 65536)));
    // A tensor info takes at least 24 bytes (name length, dimension count,
    // type, offset).
    constexpr std::uint64_t kMinTensorInfo = 24;
    for (std::uint64_t i = 0; i < h.n_tensors; ++i) {
        TensorRecord t;
        c.ahead = (h.n_tensors - i) * kMinTensorInfo;
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
    c.ahead = 0;
    // The data section starts at the next multiple of the alignment.
    const std::uint64_t a = h.alignment;
    h.data_offset = c.pos % a ? c.pos + (a - c.pos % a) : c.pos;
    return h;
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
    Header h = parse_header(bytes, path, file.get());
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

    cat.metadata = std::move(h.kvs);
    cat.gguf_version = h.version;
    cat.gguf_big_endian = h.be;
    cat.gguf_data_offset = h.data_offset;
    try {
        cat.index_names();
    } catch (const Error& e) {
        if (e.code() != ErrorCode::Malformed) throw;
        throw Error(e.code(), "tensor name appears twice", path, e.tensor());
    }
    return cat;
}

Catalog open_gguf(const std::string& path) { return parse_gguf(MappedFile::open(path), path); }

bool is_vocab_only_gguf(const Catalog& cat) {
    return cat.format == Format::Gguf && cat.tensors.empty() && cat.meta("tokenizer.ggml.model") != nullptr;
}

GgufInfo gguf_info(const Catalog& cat) {
    if (cat.format != Format::Gguf) throw Error(ErrorCode::Usage, "not a GGUF catalog", cat.path);
    GgufInfo info;
    info.version = cat.gguf_version;
    info.big_endian = cat.gguf_big_endian;
    info.data_offset = cat.gguf_data_offset;
    info.tensor_count = cat.tensors.size();
    info.kv_count = cat.metadata.size();
    for (std::size_t s = 0; s < cat.shards.size(); ++s) {
        GgufInfo::Part p;
        p.path = cat.shards[s].path;
        p.bytes = cat.shards[s].file ? cat.shards[s].file->size() : 0;
        p.data_offset = s < cat.gguf_data_offsets.size() ? cat.gguf_data_offsets[s] : cat.gguf_data_offset;
        info.parts.push_back(std::move(p));
    }
    for (const auto& t : cat.tensors)
        if (t.shard < info.parts.size()) ++info.parts[t.shard].tensors;
    for (const auto& [pos, kv] : cat.gguf_split_kvs) info.split_kvs.push_back(kv);
    for (const auto& [key, v] : cat.metadata) {
        if (key == "general.alignment" && v.type == GgufType::U32) info.alignment = v.bits;
        else if (key == "general.architecture" && v.is_string()) info.architecture = v.str;
        else if (key == "general.name" && v.is_string()) info.name = v.str;
        else if (key == "general.file_type" && v.type == GgufType::U32) info.file_type = static_cast<std::uint32_t>(v.bits);
    }
    return info;
}

std::vector<GgufKeyValue> gguf_key_values(const Catalog& cat, std::size_t summary_items, bool with_json) {
    if (cat.format != Format::Gguf) throw Error(ErrorCode::Usage, "not a GGUF catalog", cat.path);
    std::vector<GgufKeyValue> out;
    out.reserve(cat.metadata.size());
    for (const auto& [key, v] : cat.metadata) {
        GgufKeyValue o;
        o.key = key;
        o.type = meta_type_words(v);
        o.count = v.is_array() ? v.size() : 1;
        bool cut = false;
        o.summary = meta_summary(v, summary_items, &cut);  // equals meta_json() when nothing was cut
        if (with_json) o.json = cut ? meta_json(v) : o.summary;
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
        out += meta_json(MetaValue::string(k));
        out += ':';
        out += meta_json(v);
    }
    out += '}';
    return out;
}

// llama_ftype_name() is defined in gguf_ftype.cc, from the one file-type table.

// is_ollama_spec() and resolve_ollama() are in ollama.cc.

}  // namespace amn
