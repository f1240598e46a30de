// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// The YAML front matter of a model folder's README.md, read as gguf-py's
// `Metadata.load_model_card` reads it (gguf-py/gguf/metadata.py): the lines
// between a first line "---" and the next line "---" (or the end), with its
// two text fixes ("- no\n" → "- \"no\"\n", every tab → two spaces), then
// PyYAML `yaml.safe_load`.
//
// Parsing is yaml-cpp's (a YAML 1.2 parser; the block/flow structure of
// model cards is the same in 1.1); the *values* are typed as PyYAML's
// SafeLoader types them (YAML 1.1 implicit resolvers), because that is what
// decides what the converter writes:
// - plain `yes/no/on/off/true/false` (any of the three casings) → bool;
// - `~`, `null`, empty → None; PyYAML 1.1 ints (`0b…`, `0…` octal, `0x…`,
//   `_` separators, sexagesimal `1:30`) and floats (a '.' is required,
//   `.inf`, `.nan`, exponents need a sign: `1e5` stays a string);
// - `2024-01-31` and timestamps → a date (kept as Other: never a string);
//   an impossible date (`2024-02-30`) is an error, as in PyYAML;
// - quoted and block scalars, `!!str` → strings; `!!int` `!!float`
//   `!!bool` `!!null` → constructed as PyYAML does; `!!binary`
//   `!!timestamp` `!!set` `!!omap` `!!pairs` → Other; any other tag, a plain
//   `=` or `<<` value, a collection used as a key → error (PyYAML raises
//   ConstructorError);
// - merge keys `<<: *anchor` (a map or a list of maps) are flattened as
//   PyYAML does; duplicate keys: the last wins;
// - characters PyYAML's reader refuses (C0 controls but tab/LF/CR, DEL,
//   C1 but NEL, surrogates, U+FFFE/FFFF) → error.
// Limits: non-string mapping keys (`1: x`, `yes: x`) are kept out of the
// dictionary (no gguf-py lookup can reach them); integers beyond 64 bits are
// kept as "big" (never a valid INT32 anyway).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace amn::arch {

/// A value as PyYAML's safe_load builds it (only what the metadata code can observe).
struct CardEntry;

struct CardValue {
    enum class Kind : std::uint8_t { None, Bool, Int, Float, Str, List, Dict, Other };
    Kind kind = Kind::None;
    bool b = false;            ///< Bool
    std::int64_t i = 0;        ///< Int (when !big)
    bool big = false;          ///< Int outside int64 (value not kept; never zero)
    double f = 0;              ///< Float
    std::string s;             ///< Str; Other: the Python type ("date", "datetime", "bytes", "set", "list of pairs")
    std::vector<CardValue> items;                           ///< List
    std::vector<CardEntry> dict;                            ///< Dict: string keys, first-seen order, last value wins

    /// Python truthiness (`if not val`): None, False, 0, 0.0, "", [], {} are false.
    bool truthy() const noexcept;
    /// Dict member `key`, or nullptr (also when this is not a Dict).
    const CardValue* get(std::string_view key) const noexcept;
    /// Python type name for messages: "NoneType", "bool", "int", "float", "str", "list", "dict", or `s` for Other.
    std::string type_name() const;
};

/// One member of a Dict CardValue (`first` the key, `second` the value, as
/// a std::pair would name them; a struct because the value type is recursive).
struct CardEntry {
    std::string first;
    CardValue second;
};

/// What `Metadata.load_model_card` returns for README.md text `text`: a Dict,
/// empty when there is no front matter (first line not exactly "---", e.g.
/// after a BOM) or when it is not a mapping (then `warning` is set, as
/// gguf-py logs "while reading YAML model card frontmatter, data is … instead
/// of dict").
/// \throws Error{BadText} when `text` is not UTF-8 (Python fails reading it),
///         Error{Malformed} "README.md front matter: <cause> (line N)" for YAML
///         that PyYAML refuses (syntax, several documents, unknown tag,
///         invalid date, forbidden character), both naming `file`.
CardValue read_model_card(std::string_view text, const std::string& file, std::string* warning = nullptr);

/// The front-matter text gguf-py hands to yaml.safe_load: the file's lines
/// (Python text mode: "\r\n" and "\r" read as "\n"; `splitlines()`, which
/// also breaks at \v \f \x1c–\x1e \x85 \u2028 \u2029) after a first line
/// "---" up to the next "---", joined with "\n", plus "\n", after the two
/// text fixes; nullopt when there is no front matter. `text` must be valid UTF-8.
std::optional<std::string> model_card_yaml(std::string_view text);

}  // namespace amn::arch
