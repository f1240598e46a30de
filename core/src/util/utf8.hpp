// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// Internal: the one UTF-8 check of the core (the tokenizer's files and
// strings, GGUF tokenizer key/values, pickle strings).
#include <string_view>

namespace amn::detail {

/// True when `s` is well-formed UTF-8 (RFC 3629: no overlong forms, nothing
/// above U+10FFFF, no truncated sequence). Surrogates (U+D800…U+DFFF) are
/// refused unless `allow_surrogates`, which Python's pickle strings allow
/// (`str(data, 'utf-8', 'surrogatepass')`).
bool valid_utf8(std::string_view s, bool allow_surrogates = false) noexcept;

}  // namespace amn::detail
