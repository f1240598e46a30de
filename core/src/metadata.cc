// SPDX-License-Identifier: MIT OR Apache-2.0
// Typed metadata values (GGUF's value types) and their text/JSON forms.
#include "anamnesis/metadata.hpp"

#include "anamnesis/error.hpp"
#include "anamnesis/gguf.hpp"
#include "anamnesis/json_writer.hpp"
#include "metadata_internal.hpp"

#include <simdjson.h>

#include <bit>
#include <charconv>
#include <cmath>
#include <limits>

namespace amn {
namespace {

[[noreturn]] void usage_error(const std::string& msg) { throw Error(ErrorCode::Usage, msg); }

MetaValue scalar(GgufType t, std::uint64_t bits) {
    MetaValue v;
    v.type = t;
    v.bits = bits;
    return v;
}

bool is_signed(GgufType t) noexcept {
    return t == GgufType::I8 || t == GgufType::I16 || t == GgufType::I32 || t == GgufType::I64;
}

constexpr std::size_t kSummaryStringBytes = 240;

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

void append_scalar(std::string& out, const MetaValue& v) {
    switch (v.type) {
        case GgufType::U8: append_int(out, static_cast<std::uint8_t>(v.bits)); break;
        case GgufType::I8: append_int(out, static_cast<std::int8_t>(v.bits)); break;
        case GgufType::U16: append_int(out, static_cast<std::uint16_t>(v.bits)); break;
        case GgufType::I16: append_int(out, static_cast<std::int16_t>(v.bits)); break;
        case GgufType::U32: append_int(out, static_cast<std::uint32_t>(v.bits)); break;
        case GgufType::I32: append_int(out, static_cast<std::int32_t>(v.bits)); break;
        case GgufType::U64: append_int(out, v.bits); break;
        case GgufType::I64: append_int(out, static_cast<std::int64_t>(v.bits)); break;
        case GgufType::F32: append_float(out, std::bit_cast<float>(static_cast<std::uint32_t>(v.bits))); break;
        case GgufType::F64: append_float(out, std::bit_cast<double>(v.bits)); break;
        case GgufType::Bool: out += (v.bits & 0xFF) ? "true" : "false"; break;
        default: out += "null"; break;
    }
}

void append_json(std::string& out, const MetaValue& v) {
    if (v.type == GgufType::String) return append_json_string(out, v.str);
    if (v.type != GgufType::Array) return append_scalar(out, v);
    out += '[';
    for (std::size_t i = 0; i < v.items.size(); ++i) {
        if (i) out += ',';
        append_json(out, v.items[i]);
    }
    out += ']';
}

void append_summary(std::string& out, const MetaValue& v, std::size_t items, bool& cut) {
    if (v.type == GgufType::String) {
        const std::string& s = v.str;
        if (s.size() <= kSummaryStringBytes) return append_json_string(out, s);
        std::size_t n = kSummaryStringBytes;
        while (n > 0 && (static_cast<unsigned char>(s[n]) & 0xC0) == 0x80) --n;  // UTF-8 boundary
        append_json_string(out, s.substr(0, n) + "… (" + std::to_string(s.size()) + " bytes)");
        cut = true;
        return;
    }
    if (v.type != GgufType::Array) return append_scalar(out, v);
    out += '[';
    const std::size_t n = v.items.size();
    for (std::size_t i = 0; i < n && i < items; ++i) {
        if (i) out += ',';
        append_summary(out, v.items[i], items, cut);
    }
    if (n > items) {
        if (items) out += ',';
        append_json_string(out, "… " + std::to_string(n - items) + " more");
        cut = true;
    }
    out += ']';
}

}  // namespace

namespace detail {

unsigned meta_scalar_size(GgufType t) noexcept {
    switch (t) {
        case GgufType::U8: case GgufType::I8: case GgufType::Bool: return 1;
        case GgufType::U16: case GgufType::I16: return 2;
        case GgufType::U32: case GgufType::I32: case GgufType::F32: return 4;
        case GgufType::U64: case GgufType::I64: case GgufType::F64: return 8;
        default: return 0;
    }
}

void check_meta_value(const MetaValue& v, const std::string& key, unsigned depth) {
    if (!meta_valid_type(v.type))
        usage_error("key '" + key + "': invalid GGUF value type " + std::to_string(static_cast<std::uint32_t>(v.type)));
    if (v.type != GgufType::Array) return;
    if (depth >= GgufLimits::max_array_depth)
        usage_error("key '" + key + "': arrays nested deeper than " + std::to_string(GgufLimits::max_array_depth));
    if (!meta_valid_type(v.elem_type))
        usage_error("key '" + key + "': invalid array element type " + std::to_string(static_cast<std::uint32_t>(v.elem_type)));
    for (const auto& it : v.items) {
        if (it.type != v.elem_type)
            usage_error("key '" + key + "': array of " + std::string(gguf_type_name(v.elem_type)) + " holds a " +
                        std::string(gguf_type_name(it.type)) + " element");
        check_meta_value(it, key, depth + 1);
    }
}

}  // namespace detail

std::string_view gguf_type_name(GgufType t) noexcept {
    static constexpr std::string_view names[] = {"u8", "i8", "u16", "i16", "u32", "i32", "f32",
                                                 "bool", "string", "array", "u64", "i64", "f64"};
    const auto i = static_cast<std::uint32_t>(t);
    return i <= 12 ? names[i] : std::string_view("?");
}

MetaValue MetaValue::u8(std::uint8_t v) { return scalar(GgufType::U8, v); }
MetaValue MetaValue::i8(std::int8_t v) { return scalar(GgufType::I8, static_cast<std::uint8_t>(v)); }
MetaValue MetaValue::u16(std::uint16_t v) { return scalar(GgufType::U16, v); }
MetaValue MetaValue::i16(std::int16_t v) { return scalar(GgufType::I16, static_cast<std::uint16_t>(v)); }
MetaValue MetaValue::u32(std::uint32_t v) { return scalar(GgufType::U32, v); }
MetaValue MetaValue::i32(std::int32_t v) { return scalar(GgufType::I32, static_cast<std::uint32_t>(v)); }
MetaValue MetaValue::u64(std::uint64_t v) { return scalar(GgufType::U64, v); }
MetaValue MetaValue::i64(std::int64_t v) { return scalar(GgufType::I64, static_cast<std::uint64_t>(v)); }
MetaValue MetaValue::f32(float v) { return scalar(GgufType::F32, std::bit_cast<std::uint32_t>(v)); }
MetaValue MetaValue::f64(double v) { return scalar(GgufType::F64, std::bit_cast<std::uint64_t>(v)); }
MetaValue MetaValue::boolean(bool v) { return scalar(GgufType::Bool, v ? 1 : 0); }
MetaValue MetaValue::string(std::string v) {
    MetaValue g;
    g.type = GgufType::String;
    g.str = std::move(v);
    return g;
}
MetaValue MetaValue::array(GgufType elem, std::vector<MetaValue> items) {
    MetaValue g;
    g.type = GgufType::Array;
    g.elem_type = elem;
    g.items = std::move(items);
    detail::check_meta_value(g, "(array)", 0);
    return g;
}
MetaValue MetaValue::strings(const std::vector<std::string>& v) {
    MetaValue g;
    g.type = GgufType::Array;
    g.elem_type = GgufType::String;
    g.items.reserve(v.size());
    for (const auto& s : v) g.items.push_back(string(s));
    return g;
}

bool MetaValue::is_integer() const noexcept {
    return type == GgufType::U8 || type == GgufType::U16 || type == GgufType::U32 || type == GgufType::U64 || is_signed(type);
}

std::uint64_t MetaValue::as_uint() const {
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

std::int64_t MetaValue::as_int() const {
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

double MetaValue::as_double() const {
    if (type == GgufType::F32) return std::bit_cast<float>(static_cast<std::uint32_t>(bits));
    if (type == GgufType::F64) return std::bit_cast<double>(bits);
    usage_error("GGUF value of type " + std::string(gguf_type_name(type)) + " is not a float");
}

const std::string& MetaValue::as_string() const {
    if (type != GgufType::String) usage_error("GGUF value of type " + std::string(gguf_type_name(type)) + " is not a string");
    return str;
}

bool MetaValue::as_bool() const {
    if (type != GgufType::Bool) usage_error("GGUF value of type " + std::string(gguf_type_name(type)) + " is not a bool");
    return bits != 0;
}

bool operator==(const MetaValue& a, const MetaValue& b) noexcept {
    if (a.type != b.type) return false;
    switch (a.type) {
        case GgufType::String: return a.str == b.str;
        case GgufType::Array: return a.elem_type == b.elem_type && a.items == b.items;
        default: return a.bits == b.bits;
    }
}

const MetaValue* meta_find(const std::vector<MetaKv>& kvs, std::string_view key) noexcept {
    for (const auto& kv : kvs)
        if (kv.key == key) return &kv.value;
    return nullptr;
}

std::string meta_json(const MetaValue& v) {
    std::string out;
    append_json(out, v);
    return out;
}

std::string meta_summary(const MetaValue& v, std::size_t items, bool* cut) {
    std::string out;
    bool c = false;
    append_summary(out, v, items, c);
    if (cut) *cut = c;
    return out;
}

std::string meta_type_words(const MetaValue& v) {
    if (v.type != GgufType::Array) return std::string(gguf_type_name(v.type));
    if (v.items.empty()) return "array[" + std::string(gguf_type_name(v.elem_type)) + "]";
    return "array[" + meta_type_words(v.items.back()) + "]";
}

std::string meta_text(const MetaValue& v) { return v.type == GgufType::String ? v.str : meta_json(v); }

std::optional<double> meta_number(const MetaValue& v, std::size_t index) {
    auto number = [](const MetaValue& x) -> std::optional<double> {
        if (x.is_integer()) return is_signed(x.type) ? static_cast<double>(x.as_int()) : static_cast<double>(x.bits);
        if (x.type == GgufType::F64) {
            const double d = std::bit_cast<double>(x.bits);
            if (!std::isfinite(d)) return std::nullopt;
            return d;
        }
        if (x.type == GgufType::F32) {
            const float f = std::bit_cast<float>(static_cast<std::uint32_t>(x.bits));
            if (!std::isfinite(f)) return std::nullopt;
            char buf[64];
            auto r = std::to_chars(buf, buf + sizeof buf, f);
            double d = 0;
            std::from_chars(buf, r.ptr, d);
            return d;
        }
        return std::nullopt;
    };
    if (v.type == GgufType::Bool) return (v.bits & 0xFF) ? 1.0 : 0.0;
    if (v.type == GgufType::Array) {
        if (index >= v.items.size()) return std::nullopt;
        return number(v.items[index]);
    }
    return number(v);
}

}  // namespace amn
