// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// Small typed reads of tokenizer.json component objects (normalizer,
// pre_tokenizer, post_processor, decoder), with errors that name the file
// and the component. Python-json semantics come from json_dom.hpp.
#include "tokenizer/regex.hpp"

#include <simdjson.h>

#include <memory>
#include <string>
#include <string_view>

namespace amn::tok {

/// The `type` string of component object `e` (`what` = "normalizer", …).
/// \throws Error{BadJson} when `e` is not an object or has no string `type`.
std::string required_type(simdjson::dom::element e, std::string_view what, const std::string& file);
/// Member `key` of `e` as an array. \throws Error{BadJson} when absent or not an array.
simdjson::dom::array required_array(simdjson::dom::element e, std::string_view key, std::string_view what,
                                    const std::string& file);
/// Member `key` of `e` as a string. \throws Error{BadJson} when absent or not a string.
std::string required_string(simdjson::dom::element e, std::string_view key, std::string_view what,
                            const std::string& file);
/// Member `pattern` of `e`: `{"Regex": "..."}` compiled, or `{"String": "..."}`
/// as a literal. \throws Error{BadJson} for another shape, Error{Unsupported}
/// for a regex PCRE2 cannot compile.
std::shared_ptr<const Regex> parse_pattern(simdjson::dom::element e, std::string_view what, const std::string& file);

}  // namespace amn::tok
