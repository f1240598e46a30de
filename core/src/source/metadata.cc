// SPDX-License-Identifier: MIT OR Apache-2.0
// Typed metadata values (GGUF's value types) and their text/JSON forms.
#include "anamnesis/metadata.hpp"

#include "anamnesis/error.hpp"
#include "anamnesis/gguf.hpp"
#include "anamnesis/json_writer.hpp"
#include "source/metadata_internal.hpp"

#include <simdjson.h>

#include <algorithm>
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

void append_scalar(std::string& out, GgufType type, std::uint64_t bits) {
    switch (type) {
        case GgufType::U8: append_int(out, static_cast<std::uint8_t>(bits)); break;
        case GgufType::I8: append_int(out, static_cast<std::int8_t>(bits)); break;
        case GgufType::U16: append_int(out, static_cast<std::uint16_t>(bits)); break;
        case GgufType::I16: append_int(out, static_cast<std::int16_t>(bits)); break;
        case GgufType::U32: append_int(out, static_cast<std::uint32_t>(bits)); break;
        case GgufType::I32: append_int(out, static_cast<std::int32_t>(bits)); break;
        case GgufType::U64: append_int(out, bits); break;
        case GgufType::I64: append_int(out, static_cast<std::int64_t>(bits)); break;
        case GgufType::F32: append_float(out, std::bit_cast<float>(static_cast<std::uint32_t>(bits))); break;
        case GgufType::F64: append_float(out, std::bit_cast<double>(bits)); break;
        case GgufType::Bool: out += (bits & 0xFF) ? "true" : "false"; break;
        default: out += "null"; break;
    }
}

void append_json(std::string& out, const MetaValue& v);

// Element `i` of array `v` as JSON.
void append_json_item(std::string& out, const MetaValue& v, std::size_t i) {
    if (v.elem_type == GgufType::String) return append_json_string(out, v.string_at(i));
    if (v.elem_type == GgufType::Array) return append_json(out, v.array_at(i));
    append_scalar(out, v.elem_type, v.bits_at(i));
}

void append_json(std::string& out, const MetaValue& v) {
    if (v.type == GgufType::String) return append_json_string(out, v.str);
    if (v.type != GgufType::Array) return append_scalar(out, v.type, v.bits);
    out += '[';
    for (std::size_t i = 0; i < v.size(); ++i) {
        if (i) out += ',';
        append_json_item(out, v, i);
    }
    out += ']';
}

void append_summary_string(std::string& out, std::string_view s, bool& cut) {
    if (s.size() <= kSummaryStringBytes) return append_json_string(out, s);
    std::size_t n = kSummaryStringBytes;
    while (n > 0 && (static_cast<unsigned char>(s[n]) & 0xC0) == 0x80) --n;  // UTF-8 boundary
    append_json_string(out, std::string(s.substr(0, n)) + "… (" + std::to_string(s.size()) + " bytes)");
    cut = true;
}

void append_summary(std::string& out, const MetaValue& v, std::size_t items, bool& cut) {
    if (v.type == GgufType::String) return append_summary_string(out, v.str, cut);
    if (v.type != GgufType::Array) return append_scalar(out, v.type, v.bits);
    out += '[';
    const std::size_t n = v.size();
    for (std::size_t i = 0; i < n && i < items; ++i) {
        if (i) out += ',';
        if (v.elem_type == GgufType::String) append_summary_string(out, v.string_at(i), cut);
        else if (v.elem_type == GgufType::Array) append_summary(out, v.array_at(i), items, cut);
        else append_scalar(out, v.elem_type, v.bits_at(i));
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
    const auto bad_layout = [&](const char* what) {
        usage_error("key '" + key + "': array of " + std::to_string(v.count_) + " " +
                    std::string(gguf_type_name(v.elem_type)) + " elements " + what);
    };
    if (v.elem_type == GgufType::String) {
        if (v.ends_.size() != v.count_ || (v.count_ ? v.ends_.back() : 0) != v.data_.size() || !v.nested_.empty())
            bad_layout("does not hold that many strings");
        for (std::size_t i = 1; i < v.ends_.size(); ++i)
            if (v.ends_[i] < v.ends_[i - 1]) bad_layout("has string offsets out of order");
    } else if (v.elem_type == GgufType::Array) {
        if (v.nested_.size() != v.count_ || !v.data_.empty() || !v.ends_.empty())
            bad_layout("does not hold that many arrays");
        for (const auto& it : v.nested_) {
            if (it.type != GgufType::Array)
                usage_error("key '" + key + "': array of array holds a " + std::string(gguf_type_name(it.type)) + " element");
            check_meta_value(it, key, depth + 1);
        }
    } else if (v.data_.size() != v.count_ * meta_scalar_size(v.elem_type) || !v.ends_.empty() || !v.nested_.empty()) {
        bad_layout("does not hold that many bytes");
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
MetaValue MetaValue::from_bits(GgufType t, std::uint64_t bits) {
    if (!detail::meta_valid_type(t) || detail::meta_scalar_size(t) == 0)
        usage_error("GGUF type " + std::to_string(static_cast<std::uint32_t>(t)) + " is not a scalar type");
    return scalar(t, bits);
}
MetaValue MetaValue::string(std::string v) {
    MetaValue g;
    g.type = GgufType::String;
    g.str = std::move(v);
    return g;
}
MetaValue MetaValue::array(GgufType elem, const std::vector<MetaValue>& items) {
    if (!detail::meta_valid_type(elem))
        usage_error("invalid array element type " + std::to_string(static_cast<std::uint32_t>(elem)));
    MetaValue g;
    g.type = GgufType::Array;
    g.elem_type = elem;
    g.reserve(items.size(), elem == GgufType::Array || elem == GgufType::String ? 0 : items.size() * detail::meta_scalar_size(elem));
    for (const auto& it : items) g.push_back(it);
    detail::check_meta_value(g, "(array)", 0);
    return g;
}
MetaValue MetaValue::strings(const std::vector<std::string>& v) {
    MetaValue g;
    g.type = GgufType::Array;
    g.elem_type = GgufType::String;
    std::size_t bytes = 0;
    for (const auto& s : v) bytes += s.size();
    g.reserve(v.size(), bytes);
    for (const auto& s : v) g.push_string(s);
    return g;
}
MetaValue MetaValue::packed(GgufType elem, std::uint64_t count, std::string bytes) {
    const unsigned size = detail::meta_valid_type(elem) ? detail::meta_scalar_size(elem) : 0;
    if (size == 0)
        usage_error("a packed array needs a scalar element type, not " + std::to_string(static_cast<std::uint32_t>(elem)));
    if (bytes.size() / size != count || bytes.size() % size != 0)
        usage_error("a packed array of " + std::to_string(count) + " " + std::string(gguf_type_name(elem)) + " needs " +
                    std::to_string(count * size) + " bytes, got " + std::to_string(bytes.size()));
    MetaValue g;
    g.type = GgufType::Array;
    g.elem_type = elem;
    g.count_ = count;
    g.data_ = std::move(bytes);
    return g;
}

std::uint64_t MetaValue::bits_at(std::size_t i) const {
    const unsigned size = type == GgufType::Array ? detail::meta_scalar_size(elem_type) : 0;
    if (size == 0) usage_error("GGUF value of type " + meta_type_words(*this) + " is not an array of scalars");
    if (i >= count_ || (i + 1) * size > data_.size())
        usage_error("element " + std::to_string(i) + " of an array of " + std::to_string(count_));
    std::uint64_t b = 0;
    const auto* p = reinterpret_cast<const unsigned char*>(data_.data()) + i * size;
    for (unsigned k = 0; k < size; ++k) b |= static_cast<std::uint64_t>(p[k]) << (8 * k);
    return b;
}

std::string_view MetaValue::string_at(std::size_t i) const {
    if (type != GgufType::Array || elem_type != GgufType::String)
        usage_error("GGUF value of type " + meta_type_words(*this) + " is not an array of strings");
    if (i >= ends_.size()) usage_error("element " + std::to_string(i) + " of an array of " + std::to_string(ends_.size()));
    const std::uint64_t begin = i ? ends_[i - 1] : 0;
    return std::string_view(data_).substr(static_cast<std::size_t>(begin), static_cast<std::size_t>(ends_[i] - begin));
}

const MetaValue& MetaValue::array_at(std::size_t i) const {
    if (type != GgufType::Array || elem_type != GgufType::Array)
        usage_error("GGUF value of type " + meta_type_words(*this) + " is not an array of arrays");
    if (i >= nested_.size()) usage_error("element " + std::to_string(i) + " of an array of " + std::to_string(nested_.size()));
    return nested_[i];
}

MetaValue MetaValue::at(std::size_t i) const {
    if (type != GgufType::Array) usage_error("GGUF value of type " + std::string(gguf_type_name(type)) + " is not an array");
    if (elem_type == GgufType::String) return string(std::string(string_at(i)));
    if (elem_type == GgufType::Array) return array_at(i);
    return scalar(elem_type, bits_at(i));
}

void MetaValue::push_back(const MetaValue& item) {
    if (type != GgufType::Array) usage_error("GGUF value of type " + std::string(gguf_type_name(type)) + " is not an array");
    if (item.type != elem_type)
        usage_error("array of " + std::string(gguf_type_name(elem_type)) + " cannot hold a " +
                    std::string(gguf_type_name(item.type)) + " element");
    if (elem_type == GgufType::String) return push_string(item.str);
    if (elem_type == GgufType::Array) {
        nested_.push_back(item);
    } else {
        const unsigned size = detail::meta_scalar_size(elem_type);
        for (unsigned k = 0; k < size; ++k) data_.push_back(static_cast<char>(item.bits >> (8 * k)));
    }
    ++count_;
}

void MetaValue::push_string(std::string_view s) {
    if (type != GgufType::Array || elem_type != GgufType::String)
        usage_error("GGUF value of type " + meta_type_words(*this) + " is not an array of strings");
    data_.append(s);
    ends_.push_back(data_.size());
    ++count_;
}

void MetaValue::reserve(std::size_t elems, std::size_t bytes) {
    if (type != GgufType::Array) return;
    if (bytes) data_.reserve(data_.size() + bytes);
    if (elem_type == GgufType::String) ends_.reserve(ends_.size() + elems);
    else if (elem_type == GgufType::Array) nested_.reserve(nested_.size() + elems);
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
        case GgufType::Array:
            return a.elem_type == b.elem_type && a.count_ == b.count_ && a.data_ == b.data_ && a.ends_ == b.ends_ &&
                   a.nested_ == b.nested_;
        default: return a.bits == b.bits;
    }
}

const MetaValue* meta_find(const std::vector<MetaKv>& kvs, std::string_view key) noexcept {
    for (const auto& kv : kvs)
        if (kv.key == key) return &kv.value;
    return nullptr;
}

void gguf_set_kv(std::vector<MetaKv>& kvs, std::string key, MetaValue value) {
    gguf_remove_kv(kvs, key);
    kvs.push_back(MetaKv{std::move(key), std::move(value)});
}

void gguf_remove_kv(std::vector<MetaKv>& kvs, std::string_view key) {
    kvs.erase(std::remove_if(kvs.begin(), kvs.end(), [&](const MetaKv& kv) { return kv.key == key; }), kvs.end());
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
    if (v.elem_type != GgufType::Array || v.empty()) return "array[" + std::string(gguf_type_name(v.elem_type)) + "]";
    return "array[" + meta_type_words(v.array_at(v.size() - 1)) + "]";
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
        // Elements: integers and floats only (a Bool element is not a number).
        if (index >= v.size() || v.elem_type == GgufType::String || v.elem_type == GgufType::Array ||
            v.elem_type == GgufType::Bool)
            return std::nullopt;
        return number(scalar(v.elem_type, v.bits_at(index)));
    }
    return number(v);
}

}  // namespace amn
