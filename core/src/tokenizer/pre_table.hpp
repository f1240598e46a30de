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
/// pre-tokenizer whose definition equals one pre_definition() writes — a
/// Sequence of the same Split regexes (Isolated, not inverted) in the same
/// order, then ByteLevel without prefix space or regex (Llama 3's → "llama-bpe",
/// Qwen2's → "qwen2", Falcon's → "falcon", …), or GPT-2's lone ByteLevel with
/// its regex → "gpt-2" — ignoring fields that change no token (trim_offsets).
/// Names sharing one definition give the first name of the first family
/// with it, in pre_definitions.cc's order (dbrx → "llama-bpe"; refact,
/// command-r → "starcoder"; stablelm2, grok-2 → "qwen2"). nullopt otherwise.
std::optional<std::string> pre_name_for_definition(const PreTokenizer& pre);

/// The way back (GGUF → tokenizer.json): what a `tokenizer.ggml.pre` name
/// stands for in the tokenizer.json of the model it was made from. Each
/// member is JSON text, as that file has it.
struct PreDefinition {
    std::string normalizer;      ///< `normalizer` ("null"; Qwen2: NFC, which llama.cpp itself skips)
    std::string pre_tokenizer;   ///< `pre_tokenizer`
    std::string post_processor;  ///< the ByteLevel `post_processor` (offsets only; a TemplateProcessing goes after it for BOS/EOS)
    std::string decoder;         ///< `decoder`
    bool ignore_merges;          ///< BPE `model.ignore_merges` (llama.cpp: true for llama-bpe)
};

/// The definition of `pre` for every byte-level BPE pre-tokenizer name
/// llama.cpp's llama-vocab.cpp (34af94c) splits with regexes: its regex list
/// as Split pre-tokenizers (Isolated, in its order) then ByteLevel, or the
/// model's own tokenizer.json where the regex list stands for it ("llama-bpe":
/// Meta-Llama-3-8B-Instruct's; "qwen2": Qwen3's, with NFC; "gpt-2" and the
/// names llama.cpp reads as LLAMA_VOCAB_PRE_TYPE_GPT2: openai-community/gpt2's
/// lone ByteLevel), and llama.cpp's `ignore_merges` for the name.
/// nullopt for any other name (no guess; see pre_without_definition()).
std::optional<PreDefinition> pre_definition(std::string_view pre);

/// Why a pre-tokenizer name llama.cpp knows has no definition here: gemma4,
/// granite-embed-multi-311m, sarvam-moe, whitespace (not byte-level: raw
/// UTF-8 BPE). nullopt for every other name.
std::optional<std::string_view> pre_without_definition(std::string_view pre);

}  // namespace amn::tok
