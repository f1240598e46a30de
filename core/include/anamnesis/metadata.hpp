// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
/// \file metadata.hpp
/// Typed file-level metadata: the value kinds of GGUF (ggml `enum
/// gguf_type`: integers of 8–64 bits, f32/f64, bool, string, arrays with one
/// element type) as one small value type, used by `Catalog::metadata` for
/// every format and by the GGUF writer. GGUF key/values are held exactly as
/// stored; safetensors `__metadata__`, NPY/NPZ/PTH container facts are
/// strings. The CLI's text and JSON and the GUI's display are derived from
/// these values (meta_json(), meta_summary(), meta_type_words()), never by
/// re-parsing text.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace amn {

/// GGUF metadata value types (ggml `enum gguf_type`; the u32 stored in the file).
enum class GgufType : std::uint32_t {
    U8 = 0, I8 = 1, U16 = 2, I16 = 3, U32 = 4, I32 = 5, F32 = 6, Bool = 7,
    String = 8, Array = 9, U64 = 10, I64 = 11, F64 = 12,
};

/// "u8" "i8" "u16" "i16" "u32" "i32" "f32" "bool" "string" "array" "u64"
/// "i64" "f64"; "?" for a value outside the enum.
std::string_view gguf_type_name(GgufType t) noexcept;

struct MetaValue;
namespace detail {
void check_meta_value(const MetaValue& v, const std::string& key, unsigned depth);
}

/// One typed metadata value. Scalars keep their exact bits, so a GGUF value
/// read and written back is the same bytes (NaN payloads, -0.0, bool bytes
/// other than 0/1). Arrays hold elements of one type `elem_type`; an element
/// of an array of arrays is itself an Array value with its own `elem_type`
/// (GGUF nests arrays this way; gguf-py reads them, ggml's own reader
/// refuses them).
///
/// Arrays are stored packed, not as one MetaValue per element (a 256k-token
/// vocabulary is three such arrays):
/// - scalar elements (U8 … F64, Bool): one byte buffer of size() × the
///   element's size in bytes (1, 2, 4 or 8), each element's bits in
///   little-endian order — the GGUF file's own layout — whatever the host;
/// - String elements: the strings' bytes concatenated in one buffer, plus
///   size() end offsets (bytes, u64; element i is [end(i-1), end(i)));
/// - Array elements: one MetaValue per element.
/// Read elements with size(), bits_at(), string_at(), array_at() (no copy) or
/// at() (one element as its own value); build arrays with array(),
/// strings(), packed() or push_back().
struct MetaValue {
    GgufType type = GgufType::U8;
    /// Scalars (every type but String and Array): the value's bits,
    /// zero-extended to 64: integers in two's complement, F32/F64 their IEEE
    /// bits, Bool the stored byte.
    std::uint64_t bits = 0;
    std::string str;                    ///< String: the bytes (no terminator; not necessarily UTF-8)
    GgufType elem_type = GgufType::U8;  ///< Array: the element type

    static MetaValue u8(std::uint8_t v);
    static MetaValue i8(std::int8_t v);
    static MetaValue u16(std::uint16_t v);
    static MetaValue i16(std::int16_t v);
    static MetaValue u32(std::uint32_t v);
    static MetaValue i32(std::int32_t v);
    static MetaValue u64(std::uint64_t v);
    static MetaValue i64(std::int64_t v);
    static MetaValue f32(float v);
    static MetaValue f64(double v);
    static MetaValue boolean(bool v);
    static MetaValue string(std::string v);
    /// A scalar of type `t` (U8 … F64, Bool) from its bits as in `bits`
    /// (kept as given: NaN payloads, bool bytes other than 0/1).
    /// \throws Error{Usage} when `t` is String, Array or not a GgufType.
    static MetaValue from_bits(GgufType t, std::uint64_t bits);
    /// An array of `elem` values, packed (see above). \throws Error{Usage}
    /// when `elem` is not a GgufType or an item's type is not `elem`.
    static MetaValue array(GgufType elem, const std::vector<MetaValue>& items);
    /// Convenience: an array of strings.
    static MetaValue strings(const std::vector<std::string>& v);
    /// An array of `count` scalar elements of type `elem` (U8 … F64, Bool)
    /// from their packed bytes: `count` × element size bytes, little-endian
    /// (a GGUF array's payload as stored in a little-endian file).
    /// \throws Error{Usage} when `elem` is String, Array or not a GgufType,
    /// or `bytes.size()` is not `count` × the element size.
    static MetaValue packed(GgufType elem, std::uint64_t count, std::string bytes);

    bool is_array() const noexcept { return type == GgufType::Array; }
    bool is_string() const noexcept { return type == GgufType::String; }
    /// True for the eight integer types (not Bool).
    bool is_integer() const noexcept;
    /// True for F32 and F64.
    bool is_float() const noexcept { return type == GgufType::F32 || type == GgufType::F64; }
    /// Unsigned integer value of U8/U16/U32/U64/Bool; of a non-negative
    /// signed integer too. \throws Error{Usage} for any other type or a negative value.
    std::uint64_t as_uint() const;
    /// Signed value of any integer type (U64 above INT64_MAX throws).
    /// \throws Error{Usage} for a non-integer type.
    std::int64_t as_int() const;
    /// Value of F32 or F64 (F32 widened exactly). \throws Error{Usage} otherwise.
    double as_double() const;
    /// The bytes of a String. \throws Error{Usage} otherwise.
    const std::string& as_string() const;
    /// Bool as stored (non-zero = true). \throws Error{Usage} otherwise.
    bool as_bool() const;

    /// Array: the number of elements (elements, not bytes); 0 for any other type.
    std::size_t size() const noexcept { return type == GgufType::Array ? static_cast<std::size_t>(count_) : 0; }
    /// True when size() is 0.
    bool empty() const noexcept { return size() == 0; }
    /// Element `i` of an array of scalars: its bits, zero-extended to 64 as
    /// in `bits`. \throws Error{Usage} when this is not an array of scalars
    /// or `i` >= size().
    std::uint64_t bits_at(std::size_t i) const;
    /// Element `i` of an array of strings (a view into this value).
    /// \throws Error{Usage} when this is not an array of strings or `i` >= size().
    std::string_view string_at(std::size_t i) const;
    /// Element `i` of an array of arrays. \throws Error{Usage} when this is
    /// not an array of arrays or `i` >= size().
    const MetaValue& array_at(std::size_t i) const;
    /// Element `i` of any array as its own value (a copy).
    /// \throws Error{Usage} when this is not an array or `i` >= size().
    MetaValue at(std::size_t i) const;
    /// Array of scalars: the packed little-endian element bytes (size() ×
    /// element size); array of strings: the strings' bytes concatenated;
    /// empty otherwise.
    std::string_view packed_bytes() const noexcept { return type == GgufType::Array ? std::string_view(data_) : std::string_view(); }
    /// Append `item` to this array. \throws Error{Usage} when this is not an
    /// array or `item.type` is not `elem_type`.
    void push_back(const MetaValue& item);
    /// Append a String element (no MetaValue built). \throws Error{Usage}
    /// when this is not an array of strings.
    void push_string(std::string_view s);
    /// Reserve room for `elems` more elements and `bytes` more packed bytes.
    void reserve(std::size_t elems, std::size_t bytes = 0);

    /// Exact equality: same type, same bits / bytes / element type and elements.
    friend bool operator==(const MetaValue& a, const MetaValue& b) noexcept;

private:
    friend void detail::check_meta_value(const MetaValue& v, const std::string& key, unsigned depth);
    std::uint64_t count_ = 0;             // Array: elements
    std::string data_;                    // Array of scalars / strings: packed bytes (see above)
    std::vector<std::uint64_t> ends_;     // Array of strings: end offset of each element in data_
    std::vector<MetaValue> nested_;       // Array of arrays: the elements
};

/// One key/value.
struct MetaKv {
    std::string key;
    MetaValue value;
    friend bool operator==(const MetaKv& a, const MetaKv& b) noexcept { return a.key == b.key && a.value == b.value; }
};

/// The GGUF writer's names for the same types (gguf_writer.hpp).
using GgufValue = MetaValue;
using GgufKv = MetaKv;

/// The key/value called `key`, or nullptr.
const MetaValue* meta_find(const std::vector<MetaKv>& kvs, std::string_view key) noexcept;
/// Same as meta_find() (the GGUF writer's name).
inline const MetaValue* gguf_find_kv(const std::vector<MetaKv>& kvs, std::string_view key) noexcept {
    return meta_find(kvs, key);
}
/// Set `key` the way ggml's gguf_set_val_* does: every key/value called
/// `key` is removed, the new one appended at the end.
void gguf_set_kv(std::vector<MetaKv>& kvs, std::string key, MetaValue value);
/// Remove every key/value called `key` (ggml's gguf_remove_key); no-op when absent.
void gguf_remove_kv(std::vector<MetaKv>& kvs, std::string_view key);

/// The value as JSON text, arrays complete: integers in decimal, floats in
/// the shortest form that reads back to the same f32/f64 (std::to_chars),
/// NaN/±inf as the strings "NaN", "Infinity", "-Infinity", bool as
/// true/false (any non-zero byte is true), strings escaped with each byte of
/// invalid UTF-8 replaced by U+FFFD, arrays as [a,b,…] without spaces.
std::string meta_json(const MetaValue& v);

/// meta_json() for display: arrays (at every depth) keep their first
/// `items` elements followed by one string element "… N more"; strings
/// longer than 240 bytes are cut at a UTF-8 boundary and followed by
/// "… (N bytes)". `cut` (when given) is set to whether anything was cut;
/// the text equals meta_json() when nothing was.
std::string meta_summary(const MetaValue& v, std::size_t items, bool* cut = nullptr);

/// The type in words: "u8" … "f64", "bool", "string"; arrays as
/// "array[string]", nested "array[array[i32]]" (the inner type of the last
/// element; "array[array]" when the outer array is empty).
std::string meta_type_words(const MetaValue& v);

/// The value as one line of text for people: a String as its bytes (not
/// quoted), anything else as meta_json().
std::string meta_text(const MetaValue& v);

/// A scalar number as a double, the way a JSON reader of meta_json() sees it:
/// integers converted, F32 through its shortest decimal form (1e-05f →
/// 1e-05), F64 exactly, Bool as 1/0; for an array, its element `index`
/// (numbers only). nullopt for strings, NaN/±inf, a missing element or a
/// non-number element.
std::optional<double> meta_number(const MetaValue& v, std::size_t index = 0);

}  // namespace amn
