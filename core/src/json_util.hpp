// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// Internal simdjson helpers (on-demand API).
#include "anamnesis/error.hpp"

#include <simdjson.h>

#include <map>
#include <string>
#include <string_view>

namespace amn::detail {

/// Throw Error{BadJson} with simdjson's message when `e` is an error.
void check_json(simdjson::error_code e, std::string_view what, const std::string& file = {},
                const std::string& tensor = {});

/// Raw JSON text of any on-demand value (object/array: whole text; scalar: token, trimmed).
std::string_view raw_text(simdjson::ondemand::value v, const std::string& file);

/// Flatten an object into dotted keys → scalar text (strings unquoted and
/// unescaped, numbers/booleans as written, null as "null"; array elements
/// as key.N). Depth-limited. Duplicate keys → Error{BadJson}.
void flatten_object(simdjson::ondemand::object obj, const std::string& prefix,
                    std::map<std::string, std::string>& out, const std::string& file, int depth = 0);

/// Parse `text` completely (every value, UTF-8, nothing trailing) and throw
/// Error{BadJson} naming `file` when it is not one valid JSON document.
/// On-demand parsing reads only what it asks for; companion files whose
/// content ends up in the output (config.json) are checked whole up front.
void validate_json_document(std::string_view text, const std::string& file);

}  // namespace amn::detail
