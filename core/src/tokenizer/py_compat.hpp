// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// Python semantics the tokenizer side of convert_hf_to_gguf.py relies on,
// over simdjson DOM elements (json_dom.hpp) and text files: `json.load` of a
// side file, truthiness, `==` between JSON values, `dict.items()` with
// repeated keys, `isinstance(x, int)`, `int(x)`, `open(p, encoding="utf-8")
// .read()` (strict UTF-8, universal newlines), `str.strip()` / `str.split()`
// whitespace. Where Python would raise (AttributeError, KeyError, TypeError,
// UnicodeDecodeError …) these throw a named amn::Error instead.
#include "util/utf8.hpp"
#include "util/json_dom.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace amn::tok::py {

using Elem = simdjson::dom::element;

/// `Path(path).is_file()`: exists (symlinks followed) and is a regular file.
bool is_file(const std::string& path) noexcept;
/// True when `path` is a directory (symlinks followed).
bool is_dir(const std::string& path) noexcept;

/// `json.load(open(path, encoding="utf-8"))` of a Hugging Face side file.
/// Integer literals beyond 64 bits (transformers writes `model_max_length`
/// 1000000000000000019884624838656, which simdjson 3.0's DOM refuses while
/// Python reads it) are read as the nearest double; every other literal is
/// read as is. \throws Error{Io} when unreadable, Error{BadJson} naming the
/// file when it is not JSON.
detail::JsonDoc load_json(const std::string& path);
/// load_json() of text already read (`file` names it in errors).
detail::JsonDoc parse_json(std::string text, const std::string& file);

/// `open(path, encoding="utf-8").read()`: the bytes, which must be valid
/// UTF-8 (a leading BOM kept, as Python's "utf-8" codec keeps it), with
/// "\r\n" and lone "\r" turned into "\n" (universal newlines).
/// \throws Error{Io} when unreadable, Error{BadText} naming the file when
/// it is not UTF-8.
std::string read_text(const std::string& path);

/// True when `s` is valid UTF-8 (no surrogates, no overlongs, ≤ U+10FFFF).
using detail::valid_utf8;  // util/utf8.hpp

/// Python truthiness of a JSON value: null, false, 0, 0.0, "", [], {} are false.
bool truthy(Elem e) noexcept;
/// Truthiness of an optional value (nullopt = absent = None: false).
inline bool truthy(const std::optional<Elem>& e) noexcept { return e && truthy(*e); }
/// True when the value is absent or JSON null (Python None).
inline bool is_none(const std::optional<Elem>& e) noexcept { return !e || e->is_null(); }

/// Python `a == b` of two JSON values: numbers by value (true == 1 == 1.0),
/// strings by bytes, arrays element-wise, objects as dicts (last repeated key wins).
bool equal(Elem a, Elem b) noexcept;
/// `a == b` where b is a Python str.
bool equal(Elem a, std::string_view b) noexcept;
/// `a == b` of two optional values (nullopt = None; None == JSON null).
bool equal(const std::optional<Elem>& a, const std::optional<Elem>& b) noexcept;

/// The string of a JSON string value, nullopt for any other value.
std::optional<std::string_view> str(const std::optional<Elem>& e) noexcept;

/// `dict.items()` of a JSON object as Python's json builds the dict: each
/// key once, at its first position, with its last value. Empty for non-objects.
std::vector<std::pair<std::string_view, Elem>> items(Elem obj);

/// `obj.get(key)`: nullopt when absent (a JSON null is returned as the null
/// element). \throws Error{BadJson} "<what>: expected an object, got <type>"
/// naming `file` when `obj` is not an object (Python: AttributeError).
std::optional<Elem> get(Elem obj, std::string_view key, const std::string& file, std::string_view what);
/// `obj[key]`: as get(), and \throws Error{BadJson} "<what>: no key "<key>""
/// when absent (Python: KeyError).
Elem at(Elem obj, std::string_view key, const std::string& file, std::string_view what);

/// `isinstance(e, int)`: JSON integers and booleans (Python's bool is an
/// int); the value, integers above INT64_MAX saturated to INT64_MAX (every
/// caller only compares them with a vocabulary size). nullopt otherwise.
std::optional<std::int64_t> as_int(const std::optional<Elem>& e) noexcept;

/// Python `int(e)`: integers and booleans as is (saturated as in as_int),
/// finite numbers truncated toward zero, strings parsed as base-10 Python
/// int literals (surrounding whitespace, a sign, '_' between digits).
/// \throws Error{BadJson} "<what>: <value> is not an integer" naming `file`.
std::int64_t to_int(Elem e, const std::string& file, std::string_view what);
/// `int(s)` of a Python str (see to_int). nullopt when Python raises ValueError.
std::optional<std::int64_t> parse_int(std::string_view s) noexcept;

/// Python's `str.isspace()` of one code point (the whitespace of strip() and split()).
bool is_space(char32_t c) noexcept;
/// `s.strip()`: Python whitespace removed at both ends (s must be UTF-8).
std::string_view strip(std::string_view s) noexcept;
/// `s.split()`: the runs of non-whitespace (s must be UTF-8).
std::vector<std::string_view> split(std::string_view s);

/// Decode the UTF-8 code point at `s[i]` (s valid UTF-8) and advance `i`.
char32_t next_code_point(std::string_view s, std::size_t& i) noexcept;

}  // namespace amn::tok::py
