// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
/// \file gguf_split_options.hpp
/// The options that cut a GGUF output into parts (split sets), shared by
/// every GGUF job; what each tool does with them: gguf_split.hpp.

#include <cstdint>
#include <string_view>

namespace amn {

/// How to cut a GGUF output into parts (the tools' options).
struct GgufSplitOptions {
    std::uint64_t max_tensors = 0;      ///< --split-max-tensors N (0: not given)
    std::uint64_t max_bytes = 0;        ///< --split-max-size, in bytes (0: not given)
    bool no_tensor_first_split = false; ///< --no-tensor-first-split: part 1 holds the key/values only
    bool keep_split = false;            ///< --keep-split: one output per input part (forget of a split GGUF)
    /// True when any option asks for parts.
    bool any() const noexcept { return max_tensors || max_bytes || no_tensor_first_split || keep_split; }
};

/// `--split-max-size` text → bytes: "N" (bytes), "NK", "NM", "NG" with
/// K = 10³, M = 10⁶, G = 10⁹ (both tools' units; llama-gguf-split itself
/// takes only M and G). \throws Error{Usage} for anything else or 0.
std::uint64_t parse_split_max_size(std::string_view text);

}  // namespace amn
