// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// Whole-document JSON for the small Hugging Face side files (config.json,
// generation_config.json, tokenizer.json, tokenizer_config.json,
// special_tokens_map.json, index.json): simdjson's DOM API, read with
// Python's `json` semantics where they differ from simdjson's:
// - a key that occurs twice in one object: the LAST occurrence wins (Python
//   builds a dict, later keys overwrite), `dup_keys()` names the duplicates so
//   callers can warn;
// - NaN / Infinity literals are not JSON (Python accepts them, transformers
//   never writes them): a document holding them is an error.
#include "anamnesis/error.hpp"

#include <simdjson.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace amn::detail {

/// A parsed JSON document that owns its parser (one per document: the files
/// are small and parsed once).
class JsonDoc {
public:
    /// Parse `text` whole. \throws Error{BadJson} "<what> is not valid JSON (<simdjson message>)" naming `file`.
    JsonDoc(std::string_view text, std::string file, std::string_view what = "file");
    /// Read and parse `path`. \throws Error{Io} when it cannot be read, or as above.
    static JsonDoc load(const std::string& path, std::string_view what = "file");

    simdjson::dom::element root() const noexcept { return root_; }
    const std::string& file() const noexcept { return file_; }

private:
    std::unique_ptr<simdjson::dom::parser> parser_;
    simdjson::dom::element root_;
    std::string file_;
};

/// The member `key` of `obj` (the last one when repeated), or nullopt.
/// nullopt too when `obj` is not an object.
std::optional<simdjson::dom::element> json_get(simdjson::dom::element obj, std::string_view key) noexcept;
/// Keys that occur more than once in `obj` (each once, in first-seen order).
std::vector<std::string> json_dup_keys(simdjson::dom::element obj);

/// Typed reads of a member, Python-style: nullopt when absent or JSON null.
/// Ints accept int64/uint64 JSON numbers (and a float that is integral, as
/// `int(x)` would not: it is refused); doubles accept any number.
/// \throws Error{BadJson} "<key>: expected <type>, got <json type>" naming `file`.
std::optional<std::int64_t> json_int(simdjson::dom::element obj, std::string_view key, const std::string& file);
std::optional<double> json_number(simdjson::dom::element obj, std::string_view key, const std::string& file);
std::optional<bool> json_bool(simdjson::dom::element obj, std::string_view key, const std::string& file);
std::optional<std::string> json_string(simdjson::dom::element obj, std::string_view key, const std::string& file);

/// The JSON type of `e` in words ("object", "array", "string", "integer", "number", "boolean", "null").
std::string_view json_type_name(simdjson::dom::element e) noexcept;

}  // namespace amn::detail
