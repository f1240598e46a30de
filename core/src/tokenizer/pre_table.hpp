// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// `tokenizer.ggml.pre` detection as llama.cpp's convert_hf_to_gguf.py
// `get_vocab_base_pre` does it (conversion/base.py at 34af94c): encode a fixed
// check text with special tokens, sha256 of Python's `str(ids)`, look the hash
// up in the converter's table (data carried over verbatim, in its order: for
// a hash listed twice the later entry wins, as the converter's chain of `if`s does).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace amn::tok {

class HfTokenizer;
struct PreTokenizer;

/// The converter's `chktxt` (UTF-8).
std::string_view pre_check_text() noexcept;

/// Python's `str(list_of_ints)`: "[1, 2, 3]", "[]" when empty.
std::string python_list_str(const std::vector<std::uint32_t>& ids);

/// sha256 (lower-case hex) of `python_list_str(tokenizer.encode(chktxt, true))`.
std::string pre_check_hash(const HfTokenizer& tokenizer);

/// The name the converter's table gives `chkhsh`, or nullopt when it has none.
std::optional<std::string> pre_name_for_hash(std::string_view chkhsh);

/// Fallback when the hash is not in the table: the llama.cpp name of a
/// pre-tokenizer whose definition equals a known one (Llama 3's Split regex
/// + ByteLevel → "llama-bpe", Qwen2's → "qwen2", GPT-2's lone ByteLevel →
/// "gpt-2"), ignoring fields that change no token (trim_offsets). nullopt otherwise.
std::optional<std::string> pre_name_for_definition(const PreTokenizer& pre);

}  // namespace amn::tok
