// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// JSON text as Python's `json.dump(obj, f, indent=N[, sort_keys])` writes it
// (CPython Lib/json/encoder.py, defaults ensure_ascii=True, allow_nan=True):
// the files Python tools write that our outputs must equal byte for byte
// (mlx-lm's config.json: `save_config`, json.dump(indent=4) of the sorted dict).
//
// - separators "," + newline + indent between items, ": " after keys; an
//   empty object / array is "{}" / "[]";
// - strings: `"` `\` and \n \r \t \b \f escaped by name, other characters
//   below 0x20, DEL and every non-ASCII character as \uXXXX (UTF-16 surrogate
//   pairs above U+FFFF);
// - integers as written (int64 / uint64), floats as Python's repr: the
//   shortest round-trip digits, fixed notation for decimal exponents −4 … 15
//   with at least one digit after the point ("10000.0", "0.0001"), else
//   "1e-05", "1.5e+16"; inf/nan as Infinity, -Infinity, NaN;
// - a key repeated in one object: one member at its first place with its
//   last value (json.load's dict), as json_dom.hpp reads documents.
#include <simdjson.h>

#include <string>

namespace amn::detail {

/// Python's `repr(float(x))`.
std::string py_float_repr(double x);

/// Append `s` (UTF-8) as a JSON string with ensure_ascii escaping.
void py_json_string(std::string& out, std::string_view s);

/// Append the Python json.dump text of `e` at nesting `level` (its first line
/// is not indented: the caller is positioned). `sort_keys`: the members of
/// the top-level object (level 0) in code-point order of their keys, as
/// `json.dump(dict(sorted(d.items())))` writes them (mlx-lm's save_config;
/// nested objects keep their order: that is not json.dump's sort_keys).
void py_json_dump(std::string& out, simdjson::dom::element e, int indent, bool sort_keys, int level = 0);

}  // namespace amn::detail
