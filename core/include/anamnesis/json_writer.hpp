// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
/// \file json_writer.hpp
/// A small streaming JSON writer (simdjson 3.0 has none): used for
/// safetensors headers, `config.json` rewriting and `--json` output.
/// Strings are escaped per RFC 8259 (control characters as \u00XX); invalid
/// UTF-8 is passed through unchanged. Doubles are written with the shortest
/// round-trip representation (`std::to_chars`); NaN/inf as null.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace amn {

class JsonWriter {
public:
    /// `indent` > 0 pretty-prints with that many spaces per level.
    explicit JsonWriter(int indent = 0) : indent_(indent) {}

    JsonWriter& begin_object();
    JsonWriter& end_object();
    JsonWriter& begin_array();
    JsonWriter& end_array();
    /// Member key inside an object; the next call writes its value.
    JsonWriter& key(std::string_view k);
    JsonWriter& value(std::string_view s);
    JsonWriter& value(const char* s) { return value(std::string_view(s)); }
    JsonWriter& value(const std::string& s) { return value(std::string_view(s)); }
    JsonWriter& value(bool b);
    JsonWriter& value(std::int64_t v);
    JsonWriter& value(std::uint64_t v);
    JsonWriter& value(int v) { return value(static_cast<std::int64_t>(v)); }
    JsonWriter& value(unsigned v) { return value(static_cast<std::uint64_t>(v)); }
    JsonWriter& value(double v);
    JsonWriter& null();
    /// Insert already-serialised JSON text as a value (caller guarantees validity).
    JsonWriter& raw(std::string_view json);

    const std::string& str() const noexcept { return out_; }
    std::string take() { return std::move(out_); }

    /// Append `s` as a quoted, escaped JSON string to `out`.
    static void escape_to(std::string& out, std::string_view s);

private:
    void before_value();
    void newline();
    std::string out_;
    std::vector<bool> first_;  // per open container: no member written yet
    bool after_key_ = false;
    int indent_;
};

}  // namespace amn
