// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// BPE vocabularies (tokenizer.json) for GGUF: what convert_hf_to_gguf.py's
// `get_vocab_base` and `get_vocab_base_pre` produce (conversion/base.py),
// and the merges gguf-py's SpecialVocab writes.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace amn::tok {

/// Tokens and token types of a BPE vocabulary (`get_vocab_base`), and its
/// `tokenizer.ggml.pre` (`get_vocab_base_pre`).
struct Gpt2Vocab {
    std::vector<std::string> tokens;    ///< ids 0 … n−1 ("[PAD<id>]" where the tokenizer has none)
    std::vector<std::int32_t> types;    ///< gguf TokenType per token (1 normal, 3 control, 4 user-defined, 5 unused …)
    std::string pre;                    ///< llama.cpp's pre-tokenizer name ("llama-bpe", "qwen2", "gpt-2" …)
    std::string chkhsh;                 ///< sha256 (hex) of the token ids of llama.cpp's check text
    bool wordpiece = false;             ///< the tokenizer.json model is WordPiece (BERT), not BPE
    /// `tokenizer.get_added_vocab()`: tokenizer.json's added tokens, content → id (in id order,
    /// so a content listed twice keeps its highest id, as the dict comprehension does).
    std::map<std::string, std::uint32_t> added_vocab;
    std::vector<std::string> warnings;  ///< e.g. the hash was not in the table and the definition decided
};

/// Read `dir`/tokenizer.json (+ tokenizer_config.json) and build the vocabulary
/// with `vocab_size` entries (config.json's, or the tokenizer's size when nullopt).
/// \throws Error naming the file: missing or malformed tokenizer.json, neither a BPE
///         nor a WordPiece model, more tokens than `vocab_size`, a pre-tokenizer llama.cpp does
///         not know and no `pre_override`.
Gpt2Vocab gpt2_vocab(const std::string& dir, std::optional<std::uint64_t> vocab_size,
                     const std::optional<std::string>& pre_override);

/// The merges of `tokenizer_json_path` as SpecialVocab writes them to
/// `tokenizer.ggml.merges`: strings as stored, the array-of-pairs form joined
/// with one space (a space inside a part first written as U+0120).
/// Empty when the model has no merges. \throws Error{BadJson} naming the file.
std::vector<std::string> bpe_merges(const std::string& tokenizer_json_path);

}  // namespace amn::tok
