// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// Internal: ASCII lower case for names, keys and type names read from files
// and command lines ("Q4_K" → "q4_k", "GEMM" → "gemm"). Python's Unicode
// str.lower() is arch/py_text.hpp's py::lower.

#include <string>
#include <string_view>

namespace amn::detail {

/// `s` with A–Z lowered; every other byte (UTF-8 included) unchanged.
inline std::string ascii_lower(std::string_view s) {
    std::string out(s);
    for (auto& c : out)
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    return out;
}

}  // namespace amn::detail
