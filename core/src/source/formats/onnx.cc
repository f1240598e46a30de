// SPDX-License-Identifier: MIT OR Apache-2.0
// ONNX source (onnx.hpp): ModelProto → GraphProto → TensorProto walked on
// the wire with protobuf's CodedInputStream (raw_data stays a byte range of
// the mapping), nodes and the rest through ONNX's generated classes.
#include "anamnesis/onnx.hpp"

#include "anamnesis/error.hpp"

#include <onnx/onnx.pb.h>  // generated at build time from libonnx-dev's onnx.proto (core/CMakeLists.txt)
#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/wire_format_lite.h>

#include <sys/stat.h>

#include <charconv>
#include <cstring>
#include <filesystem>
#include <limits>
#include <map>
#include <memory>

namespace amn {

namespace pbio = google::protobuf::io;
using WFL = google::protobuf::internal::WireFormatLite;

std::optional<std::int64_t> OnnxNode::attr(std::string_view key) const noexcept {
    for (const auto& [k, v] : ints)
        if (k == key) return v;
    return std::nullopt;
}

bool OnnxNode::is(std::string_view dom, std::string_view op) const noexcept {
    auto norm = [](std::string_view d) { return d == "ai.onnx" ? std::string_view{} : d; };
    return op_type == op && norm(domain) == norm(dom);
}

bool looks_like_onnx(std::span<const std::uint8_t> head) noexcept {
    // 0x08 = field 1 (ir_version) varint; then a one-byte version; then the
    // tag of producer_name (0x12), producer_version (0x1a), domain (0x22),
    // model_version (0x28), doc_string (0x32), graph (0x3a), opset_import (0x42).
    if (head.size() < 3 || head[0] != 0x08 || head[1] == 0 || head[1] > 0x7F) return false;
    switch (head[2]) {
        case 0x12: case 0x1a: case 0x22: case 0x28: case 0x32: case 0x3a: case 0x42: return true;
        default: return false;
    }
}

namespace {

namespace fs = std::filesystem;

// ONNX TensorProto.DataType → amn dtype and name; bits per element for the sub-byte ones.
struct OnnxType {
    int id;
    DType dtype;
    std::string_view name;
    unsigned bits;  // element size in bits (0: STRING)
};
constexpr OnnxType kTypes[] = {
    {1, DType::F32, "F32", 32},        {2, DType::U8, "U8", 8},
    {3, DType::I8, "I8", 8},           {4, DType::U16, "U16", 16},
    {5, DType::I16, "I16", 16},        {6, DType::I32, "I32", 32},
    {7, DType::I64, "I64", 64},        {8, DType::Unknown, "STRING", 0},
    {9, DType::BOOL, "BOOL", 8},       {10, DType::F16, "F16", 16},
    {11, DType::F64, "F64", 64},       {12, DType::U32, "U32", 32},
    {13, DType::U64, "U64", 64},       {14, DType::C64, "C64", 64},
    {15, DType::C128, "C128", 128},    {16, DType::BF16, "BF16", 16},
    {17, DType::F8_E4M3, "F8_E4M3", 8}, {18, DType::F8_E4M3FNUZ, "F8_E4M3FNUZ", 8},
    {19, DType::F8_E5M2, "F8_E5M2", 8}, {20, DType::F8_E5M2FNUZ, "F8_E5M2FNUZ", 8},
    {21, DType::Unknown, "U4", 4},     {22, DType::Unknown, "I4", 4},
    {23, DType::F4, "F4", 4},          {24, DType::F8_E8M0, "F8_E8M0", 8},
    {25, DType::Unknown, "U2", 2},     {26, DType::Unknown, "I2", 2},
};
const OnnxType* onnx_type(std::int64_t id) {
    for (const auto& t : kTypes)
        if (t.id == id) return &t;
    return nullptr;
}

// One field of a message on the wire.
struct Field {
    int number = 0;
    WFL::WireType wire = WFL::WIRETYPE_VARINT;
    std::uint64_t varint = 0;               // VARINT, FIXED32, FIXED64 values
    std::span<const std::uint8_t> bytes;    // LENGTH_DELIMITED payload
};

// The fields of one message, in order. `base` is the message's first byte
// inside the mapping (so payload positions are pointers into it); `what`
// names the message for errors.
class Fields {
public:
    Fields(std::span<const std::uint8_t> msg, std::string what)
        : msg_(msg), in_(msg.data(), static_cast<int>(msg.size())), what_(std::move(what)) {
        in_.SetTotalBytesLimit(std::numeric_limits<int>::max());
    }

    bool next(Field& f) {
        if (in_.CurrentPosition() >= static_cast<int>(msg_.size())) return false;
        const std::uint32_t tag = in_.ReadTag();
        if (tag == 0) bad("invalid field tag");
        f.number = WFL::GetTagFieldNumber(tag);
        f.wire = WFL::GetTagWireType(tag);
        f.bytes = {};
        switch (f.wire) {
            case WFL::WIRETYPE_VARINT:
                if (!in_.ReadVarint64(&f.varint)) truncated_or_bad("varint");
                break;
            case WFL::WIRETYPE_FIXED64:
                if (!in_.ReadLittleEndian64(&f.varint)) truncated("fixed64 value");
                break;
            case WFL::WIRETYPE_FIXED32: {
                std::uint32_t v = 0;
                if (!in_.ReadLittleEndian32(&v)) truncated("fixed32 value");
                f.varint = v;
                break;
            }
            case WFL::WIRETYPE_LENGTH_DELIMITED: {
                std::uint32_t len = 0;
                if (!in_.ReadVarint32(&len)) truncated_or_bad("length");
                const auto pos = static_cast<std::size_t>(in_.CurrentPosition());
                if (len > msg_.size() - pos)
                    truncated("field " + std::to_string(f.number) + " of " + std::to_string(len) + " bytes");
                f.bytes = msg_.subspan(pos, len);
                in_.Skip(static_cast<int>(len));
                break;
            }
            case WFL::WIRETYPE_START_GROUP:
                // Deprecated groups: skip with protobuf's own skipper.
                if (!WFL::SkipField(&in_, tag)) truncated_or_bad("group");
                break;
            default: bad("invalid wire type " + std::to_string(static_cast<int>(f.wire)));
        }
        return true;
    }

    [[noreturn]] void bad(const std::string& m) const {
        throw Error(ErrorCode::Malformed, "invalid protobuf in " + what_ + ": " + m + " at byte " + std::to_string(in_.CurrentPosition()));
    }
    [[noreturn]] void truncated(const std::string& m) const {
        throw Error(ErrorCode::Truncated, "truncated protobuf: " + m + " in " + what_ + " runs past its end");
    }
    [[noreturn]] void truncated_or_bad(const std::string& m) const {
        if (msg_.size() - static_cast<std::size_t>(in_.CurrentPosition()) < 10) truncated(m);
        bad("invalid " + m);
    }
    const std::string& what() const noexcept { return what_; }

private:
    std::span<const std::uint8_t> msg_;
    pbio::CodedInputStream in_;
    std::string what_;
};

// Calls `fn(v)` for each varint of a packed span (or the one varint of an unpacked field).
template <class Fn>
void each_varint(const Field& f, const Fields& owner, Fn fn) {
    if (f.wire == WFL::WIRETYPE_VARINT) { fn(f.varint); return; }
    if (f.wire != WFL::WIRETYPE_LENGTH_DELIMITED) owner.bad("field " + std::to_string(f.number) + " is not varints");
    pbio::CodedInputStream in(f.bytes.data(), static_cast<int>(f.bytes.size()));
    while (in.CurrentPosition() < static_cast<int>(f.bytes.size())) {
        std::uint64_t v = 0;
        if (!in.ReadVarint64(&v)) owner.truncated("packed varint of field " + std::to_string(f.number));
        fn(v);
    }
}

// Calls `fn(ptr)` for each fixed-width (`width` bytes) value of a packed span or unpacked field.
template <class Fn>
void each_fixed(const Field& f, const Fields& owner, unsigned width, Fn fn) {
    if ((width == 4 && f.wire == WFL::WIRETYPE_FIXED32) || (width == 8 && f.wire == WFL::WIRETYPE_FIXED64)) {
        std::uint8_t b[8];
        std::memcpy(b, &f.varint, 8);  // little-endian host (static_assert below)
        fn(static_cast<const std::uint8_t*>(b));
        return;
    }
    if (f.wire != WFL::WIRETYPE_LENGTH_DELIMITED) owner.bad("field " + std::to_string(f.number) + " is not fixed-width values");
    if (f.bytes.size() % width) owner.bad("packed field " + std::to_string(f.number) + " is not a whole number of values");
    for (std::size_t i = 0; i < f.bytes.size(); i += width) fn(f.bytes.data() + i);
}
static_assert(std::endian::native == std::endian::little, "ONNX values are little-endian; the parser copies them in place");

std::string text_of(const Field& f) { return std::string(reinterpret_cast<const char*>(f.bytes.data()), f.bytes.size()); }

// ---- one initializer ----------------------------------------------------------

// Where a TensorProto's values are, before they become a TensorInfo.
struct TensorFields {
    std::string name;
    std::vector<std::int64_t> dims;
    std::int64_t data_type = 0;
    std::int64_t data_location = 0;
    bool has_raw = false;
    std::span<const std::uint8_t> raw;
    std::vector<Field> typed;                 // float/int32/int64/double/uint64 data pieces
    std::uint64_t strings = 0;                // string_data entries
    std::vector<std::pair<std::string, std::string>> external;  // external_data key/values
};

TensorFields read_tensor(std::span<const std::uint8_t> msg, std::size_t index) {
    TensorFields t;
    Fields fs(msg, "initializer " + std::to_string(index));
    Field f;
    while (fs.next(f)) {
        switch (f.number) {
            case 1: each_varint(f, fs, [&](std::uint64_t v) {
                        if (t.dims.size() >= kMaxRank)
                            throw Error(ErrorCode::LimitExceeded, "rank over " + std::to_string(kMaxRank));
                        t.dims.push_back(static_cast<std::int64_t>(v));
                    });
                    break;
            case 2: t.data_type = static_cast<std::int32_t>(f.varint); break;
            case 3: throw Error(ErrorCode::Unsupported, "segmented tensor (TensorProto.segment) is not supported");
            case 4: case 5: case 7: case 10: case 11: t.typed.push_back(f); break;
            case 6: ++t.strings; break;
            case 8: t.name = text_of(f); break;
            case 9: t.has_raw = true; t.raw = f.bytes; break;
            case 13: {
                onnx::StringStringEntryProto e;
                if (!e.ParseFromArray(f.bytes.data(), static_cast<int>(f.bytes.size())))
                    fs.bad("external_data entry");
                t.external.emplace_back(e.key(), e.value());
                break;
            }
            case 14: t.data_location = static_cast<std::int64_t>(f.varint); break;
            default: break;  // doc_string, metadata_props, …
        }
    }
    return t;
}

// Parse a decimal external-data number ("offset", "length").
std::uint64_t parse_decimal(const std::string& key, const std::string& v) {
    if (!v.empty() && v[0] == '-') throw Error(ErrorCode::OutOfRange, "external data " + key + " is negative (" + v + ")");
    std::uint64_t x = 0;
    const auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), x);
    if (ec == std::errc::result_out_of_range) throw Error(ErrorCode::OutOfRange, "external data " + key + " " + v + " overflows 64 bits");
    if (ec != std::errc() || p != v.data() + v.size() || v.empty())
        throw Error(ErrorCode::Malformed, "external data " + key + " '" + v + "' is not a decimal number");
    return x;
}

// The model folder's file named by `location`, refusing every way out of it.
std::string external_path(const std::string& model_dir, const std::string& location) {
    auto refuse = [&](const std::string& why) -> std::string {
        throw Error(ErrorCode::Unsupported, "external data location '" + location + "' " + why);
    };
    if (location.empty()) refuse("is empty");
    if (location.find('\0') != std::string::npos) refuse("holds a NUL byte");
    const fs::path rel(location);
    if (rel.is_absolute() || location[0] == '/' || location[0] == '\\') refuse("is absolute: it must be relative to the model's folder");
    std::string path = model_dir;
    for (const auto& part : rel) {
        const std::string s = part.string();
        if (s == "..") refuse("leaves the model's folder ('..')");
        if (s.empty() || s == ".") continue;
        path += "/" + s;
        struct stat st {};
        if (::lstat(path.c_str(), &st) != 0) throw Error(ErrorCode::Io, "external data file '" + location + "' not found", path);
        if (S_ISLNK(st.st_mode)) refuse("goes through a symbolic link ('" + s + "')");
    }
    return path;
}

struct Builder {
    Catalog& cat;
    std::string path, dir;
    std::map<std::string, std::uint32_t> external_shards;  // location → shard
    std::vector<std::uint8_t> typed;                       // decoded typed fields
    std::vector<std::size_t> typed_tensors;                // catalog indices pointing into `typed`

    std::uint32_t shard_of(const std::string& location) {
        auto it = external_shards.find(location);
        if (it != external_shards.end()) return it->second;
        const std::string p = external_path(dir, location);
        auto file = MappedFile::open(p);
        cat.shards.push_back({p, std::move(file)});
        const auto s = static_cast<std::uint32_t>(cat.shards.size() - 1);
        external_shards.emplace(location, s);
        return s;
    }

    void add(std::span<const std::uint8_t> msg, std::size_t index) {
        TensorFields f;
        try {
            f = read_tensor(msg, index);
        } catch (const Error& e) {  // before its name is known: the initializer's position
            throw e.with_tensor("initializer " + std::to_string(index));
        }
        if (f.name.empty()) throw Error(ErrorCode::Malformed, "initializer " + std::to_string(index) + " has no name");
        try {
            add(f, msg);
        } catch (const Error& e) {
            throw e.with_tensor(f.name);
        }
    }

    void add(TensorFields& f, std::span<const std::uint8_t>) {
        TensorInfo t;
        t.name = f.name;
        const OnnxType* ty = onnx_type(f.data_type);
        if (f.data_type == 0) throw Error(ErrorCode::Malformed, "data_type UNDEFINED (0)");
        t.dtype = ty ? ty->dtype : DType::Unknown;
        t.dtype_name = ty ? std::string(ty->name) : "ONNX type " + std::to_string(f.data_type);
        std::uint64_t numel = 1;
        for (auto d : f.dims) {
            if (d < 0) throw Error(ErrorCode::Malformed, "negative dimension " + std::to_string(d));
            const auto u = static_cast<std::uint64_t>(d);
            if (u && numel > std::numeric_limits<std::uint64_t>::max() / u)
                throw Error(ErrorCode::LimitExceeded, "element count overflows 64 bits");
            numel *= u;
            t.shape.push_back(u);
        }
        // Bytes the tensor takes (sub-byte types packed); unknown for unknown types.
        std::optional<std::uint64_t> nbytes;
        if (ty && ty->bits) {
            if (ty->bits >= 8) {
                if (numel > std::numeric_limits<std::uint64_t>::max() / (ty->bits / 8))
                    throw Error(ErrorCode::LimitExceeded, "byte size overflows 64 bits");
                nbytes = numel * (ty->bits / 8);
            } else {
                const std::uint64_t per = 8 / ty->bits;
                nbytes = numel / per + (numel % per ? 1 : 0);
            }
        }
        const bool external = f.data_location == 1;
        if (f.data_location != 0 && f.data_location != 1)
            throw Error(ErrorCode::Malformed, "data_location " + std::to_string(f.data_location) + " (0 DEFAULT or 1 EXTERNAL)");
        if (ty && ty->bits == 0) {  // STRING: no bytes to map
            if (f.strings != numel)
                throw Error(ErrorCode::SizeMismatch, "string_data holds " + std::to_string(f.strings) + " strings, the shape " +
                                                         shape_to_string(t.shape) + " needs " + std::to_string(numel));
            t.shard = 0;
            cat.tensors.push_back(std::move(t));
            return;
        }
        if (external) {
            if (f.has_raw || !f.typed.empty()) throw Error(ErrorCode::Malformed, "external data and a value field at once");
            std::string location;
            std::optional<std::uint64_t> offset, length;
            for (const auto& [k, v] : f.external) {
                if (k == "location") location = v;
                else if (k == "offset") offset = parse_decimal(k, v);
                else if (k == "length") length = parse_decimal(k, v);
                // checksum (SHA1, ignored by loaders), basepath, unknown keys: ignored as onnx does
            }
            if (location.empty()) throw Error(ErrorCode::Malformed, "external data without a 'location'");
            const std::uint32_t s = shard_of(location);
            const std::uint64_t size = cat.shards[s].file->size();
            const std::uint64_t off = offset.value_or(0);
            if (off > size)
                throw Error(ErrorCode::Truncated, "external data offset " + std::to_string(off) + " is past the end of '" + location +
                                                      "' (" + std::to_string(size) + " bytes)");
            const std::uint64_t len = length.value_or(size - off);
            if (len > size - off)
                throw Error(ErrorCode::Truncated, "external data '" + location + "' is shorter than its offset " + std::to_string(off) +
                                                      " + length " + std::to_string(len) + " (" + std::to_string(size) + " bytes)");
            if (nbytes && len != *nbytes)
                throw Error(ErrorCode::SizeMismatch, "external data holds " + std::to_string(len) + " bytes, " + t.dtype_name + " " +
                                                         shape_to_string(t.shape) + " needs " + std::to_string(*nbytes));
            t.shard = s;
            t.offset = off;
            t.nbytes = len;
        } else if (f.has_raw) {
            if (!f.typed.empty()) throw Error(ErrorCode::Malformed, "raw_data and a typed value field at once");
            if (nbytes && f.raw.size() != *nbytes)
                throw Error(ErrorCode::SizeMismatch, "raw_data holds " + std::to_string(f.raw.size()) + " bytes, " + t.dtype_name + " " +
                                                         shape_to_string(t.shape) + " needs " + std::to_string(*nbytes));
            t.shard = 0;
            // An empty raw_data may have no address (a null span): offset 0, no pointer arithmetic on it.
            t.offset = f.raw.empty() ? 0 : static_cast<std::uint64_t>(f.raw.data() - cat.shards[0].file->bytes().data());
            t.nbytes = f.raw.size();
        } else if (!f.typed.empty()) {
            if (!ty) throw Error(ErrorCode::UnknownDtype, "typed data of an unknown data_type " + std::to_string(f.data_type));
            decode_typed(f, *ty, numel, *nbytes, t);
        } else {
            if (numel != 0) throw Error(ErrorCode::Malformed, "no data (neither raw_data, a typed field nor external data) for " +
                                                              std::to_string(numel) + " elements");
            t.shard = 0;
        }
        cat.tensors.push_back(std::move(t));
    }

    // The typed fields into the owned buffer, as the little-endian bytes raw_data would hold.
    void decode_typed(const TensorFields& f, const OnnxType& ty, std::uint64_t numel, std::uint64_t nbytes, TensorInfo& t) {
        const int field = f.typed[0].number;
        for (const auto& p : f.typed)
            if (p.number != field) throw Error(ErrorCode::Malformed, "two typed value fields at once");
        const int id = ty.id;
        // Which field each type keeps its values in (onnx.proto 608-790).
        const bool in_float = id == 1 || id == 14;
        const bool in_double = id == 11 || id == 15;
        const bool in_int64 = id == 7;
        const bool in_uint64 = id == 12 || id == 13;
        const bool in_int32 = !in_float && !in_double && !in_int64 && !in_uint64;
        const bool ok = (field == 4 && in_float) || (field == 10 && in_double) || (field == 7 && in_int64) ||
                        (field == 11 && in_uint64) || (field == 5 && in_int32);
        static constexpr const char* kFieldName[] = {"", "", "", "", "float_data", "int32_data", "", "int64_data",
                                                     "", "", "double_data", "uint64_data"};
        if (!ok) throw Error(ErrorCode::Malformed, std::string(kFieldName[field]) + " does not hold " + t.dtype_name + " values");
        // Values per field entry: complex types two, sub-byte types one packed byte per int32.
        const std::uint64_t entries = (id == 14 || id == 15) ? numel * 2 : ty.bits < 8 ? nbytes : numel;
        const unsigned width = ty.bits < 8 ? 1 : (id == 14 || id == 15) ? ty.bits / 16 : ty.bits / 8;
        // Count the values before allocating: the buffer is only ever as large
        // as values the file holds (a shape cannot make it grow).
        std::uint64_t held = 0;
        for (const auto& p : f.typed) {
            if (p.wire != WFL::WIRETYPE_LENGTH_DELIMITED) ++held;
            else if (field == 4 || field == 10) held += p.bytes.size() / (field == 4 ? 4 : 8);
            else for (auto b : p.bytes) held += (b & 0x80) == 0;
        }
        if (held != entries)
            throw Error(ErrorCode::SizeMismatch, std::string(kFieldName[field]) + " holds " + std::to_string(held) + " values, " +
                                                     t.dtype_name + " " + shape_to_string(t.shape) + " needs " + std::to_string(entries));
        const std::size_t base = (typed.size() + 7) & ~std::size_t{7};
        typed.resize(base + nbytes);
        std::uint8_t* out = typed.data() + base;
        std::uint64_t count = 0;
        auto put = [&](std::uint64_t v) {
            if (count < entries) std::memcpy(out + count * width, &v, width);  // low bytes of the value (little-endian)
            ++count;
        };
        for (const auto& p : f.typed) {
            Fields owner(p.bytes, "initializer " + t.name);
            if (field == 4 || field == 10) {
                const unsigned w = field == 4 ? 4 : 8;
                each_fixed(p, owner, w, [&](const std::uint8_t* b) {
                    std::uint64_t v = 0;
                    std::memcpy(&v, b, w);
                    put(v);
                });
            } else {
                each_varint(p, owner, put);
            }
        }
        if (count != entries)  // a varint longer than 10 bytes: counted above, not decoded
            throw Error(ErrorCode::Malformed, std::string(kFieldName[field]) + ": invalid packed values");
        t.shard = std::numeric_limits<std::uint32_t>::max();  // set to the typed shard at the end
        t.offset = base;
        t.nbytes = nbytes;
        typed_tensors.push_back(cat.tensors.size());
    }

    void finish_typed() {
        if (typed_tensors.empty()) return;
        cat.shards.push_back({path + "#typed-fields", MappedFile::from_bytes(std::move(typed), path + "#typed-fields")});
        const auto s = static_cast<std::uint32_t>(cat.shards.size() - 1);
        for (auto i : typed_tensors) cat.tensors[i].shard = s;
    }
};

std::string value_info_text(std::span<const std::uint8_t> bytes, const Fields& owner) {
    onnx::ValueInfoProto v;
    if (!v.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) owner.bad("graph input/output");
    std::string s = v.name();
    if (v.has_type() && v.type().has_tensor_type()) {
        const auto& tt = v.type().tensor_type();
        const OnnxType* ty = onnx_type(tt.elem_type());
        s += ": " + (ty ? std::string(ty->name) : "type " + std::to_string(tt.elem_type()));
        if (tt.has_shape()) {
            s += " [";
            for (int i = 0; i < tt.shape().dim_size(); ++i) {
                const auto& d = tt.shape().dim(i);
                s += (i ? ", " : "") + (d.has_dim_value() ? std::to_string(d.dim_value()) : d.has_dim_param() ? d.dim_param() : "?");
            }
            s += "]";
        }
    }
    return s;
}

}  // namespace

Catalog open_onnx(MappedFilePtr file, const std::string& path) {
    try {
        const auto bytes = file->bytes();
        if (bytes.size() > kOnnxMaxModelBytes)
            throw Error(ErrorCode::LimitExceeded, "an ONNX file over 2 GiB is not a valid protobuf message (larger models keep their "
                                                  "weights in external data)");
        file->require(0, bytes.size());  // one protobuf message: the whole file (its weights too, unless external)
        Catalog cat;
        cat.format = Format::Onnx;
        cat.shards.push_back({path, file});
        std::string dir = fs::path(path).parent_path().string();
        if (dir.empty()) dir = ".";
        Builder b{cat, path, dir, {}, {}, {}};
        auto graph = std::make_shared<OnnxGraph>();

        std::vector<MetaKv> head, opsets, graph_meta, props;
        std::map<std::string, std::uint64_t> op_counts;
        bool has_graph = false;
        Fields model(bytes, "ModelProto");
        Field f;
        while (model.next(f)) {
            switch (f.number) {
                case 1: head.push_back({"onnx.ir_version", MetaValue::i64(static_cast<std::int64_t>(f.varint))}); break;
                case 2: head.push_back({"onnx.producer_name", MetaValue::string(text_of(f))}); break;
                case 3: head.push_back({"onnx.producer_version", MetaValue::string(text_of(f))}); break;
                case 4: head.push_back({"onnx.domain", MetaValue::string(text_of(f))}); break;
                case 5: head.push_back({"onnx.model_version", MetaValue::i64(static_cast<std::int64_t>(f.varint))}); break;
                case 8: {
                    onnx::OperatorSetIdProto o;
                    if (!o.ParseFromArray(f.bytes.data(), static_cast<int>(f.bytes.size()))) model.bad("opset_import");
                    opsets.push_back({"onnx.opset." + (o.domain().empty() ? std::string("ai.onnx") : o.domain()), MetaValue::i64(o.version())});
                    break;
                }
                case 14: {
                    onnx::StringStringEntryProto e;
                    if (!e.ParseFromArray(f.bytes.data(), static_cast<int>(f.bytes.size()))) model.bad("metadata_props");
                    props.push_back({"onnx.metadata." + e.key(), MetaValue::string(e.value())});
                    break;
                }
                case 7: {
                    if (f.wire != WFL::WIRETYPE_LENGTH_DELIMITED) model.bad("graph is not a message");
                    has_graph = true;
                    std::vector<std::string> inputs, outputs;
                    Fields g(f.bytes, "GraphProto");
                    Field gf;
                    std::size_t n_init = 0, n_sparse = 0;
                    while (g.next(gf)) {
                        switch (gf.number) {
                            case 1: {
                                if (graph->nodes.size() >= kOnnxMaxNodes)
                                    throw Error(ErrorCode::LimitExceeded, "more than " + std::to_string(kOnnxMaxNodes) + " nodes");
                                onnx::NodeProto n;
                                if (!n.ParseFromArray(gf.bytes.data(), static_cast<int>(gf.bytes.size())))
                                    g.bad("node " + std::to_string(graph->nodes.size()));
                                OnnxNode node;
                                node.name = n.name();
                                node.op_type = n.op_type();
                                node.domain = n.domain();
                                node.inputs.assign(n.input().begin(), n.input().end());
                                node.outputs.assign(n.output().begin(), n.output().end());
                                for (const auto& a : n.attribute())
                                    if (a.type() == onnx::AttributeProto::INT || (a.type() == 0 && a.has_i())) node.ints.emplace_back(a.name(), a.i());
                                const std::string key = (node.domain.empty() || node.domain == "ai.onnx" ? "" : node.domain + ".") + node.op_type;
                                ++op_counts[key];
                                graph->nodes.push_back(std::move(node));
                                break;
                            }
                            case 2: graph_meta.push_back({"onnx.graph.name", MetaValue::string(text_of(gf))}); break;
                            case 5:
                                if (n_init >= kOnnxMaxInitializers)
                                    throw Error(ErrorCode::LimitExceeded, "more than " + std::to_string(kOnnxMaxInitializers) + " initializers");
                                if (gf.wire != WFL::WIRETYPE_LENGTH_DELIMITED) g.bad("initializer is not a message");
                                b.add(gf.bytes, n_init++);
                                break;
                            case 11: inputs.push_back(value_info_text(gf.bytes, g)); break;
                            case 12: outputs.push_back(value_info_text(gf.bytes, g)); break;
                            case 15: ++n_sparse; break;
                            default: break;
                        }
                    }
                    if (!inputs.empty()) graph_meta.push_back({"onnx.graph.inputs", MetaValue::strings(inputs)});
                    if (!outputs.empty()) graph_meta.push_back({"onnx.graph.outputs", MetaValue::strings(outputs)});
                    if (n_sparse)
                        cat.notes.push_back(std::to_string(n_sparse) + " sparse initializer(s) (GraphProto.sparse_initializer) not listed");
                    break;
                }
                default: break;
            }
        }
        if (!has_graph) throw Error(ErrorCode::Malformed, "ModelProto without a graph");
        b.finish_typed();
        cat.metadata = std::move(head);
        for (auto& kv : opsets) cat.metadata.push_back(std::move(kv));
        for (auto& kv : graph_meta) cat.metadata.push_back(std::move(kv));
        cat.metadata.push_back({"onnx.nodes", MetaValue::u64(graph->nodes.size())});
        for (const auto& [op, n] : op_counts) cat.metadata.push_back({"onnx.op." + op, MetaValue::u64(n)});
        for (auto& kv : props) cat.metadata.push_back(std::move(kv));
        cat.onnx = std::move(graph);
        cat.index_names();
        return cat;
    } catch (const Error& e) {
        throw e.with_file(path);
    }
}

Catalog open_onnx(const std::string& path) { return open_onnx(MappedFile::open(path), path); }

}  // namespace amn
