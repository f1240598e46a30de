// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// gguf-py vocab.py `LlamaHfVocab`: a SentencePiece-style (byte-fallback BPE)
// tokenizer.json without tokenizer.model, written as a "llama" vocabulary.
#include "tokenizer/spm_vocab.hpp"

#include <optional>
#include <string>

namespace amn::tok {

/// LlamaHfVocab(`dir`).all_tokens() as conversion/base.py
/// `_set_vocab_llama_hf` collects it: the model's tokens 0 … n−1
/// (n = size of tokenizer.json `model.vocab`; type byte for "<0xXX>",
/// control for the special tokens of tokenizer_config.json — the
/// `bos/eos/unk/sep/pad/cls/mask_token` and `additional_special_tokens` —,
/// else normal), then the added tokens whose id is ≥ n in id order
/// (user-defined, or as their type when they are special tokens); every
/// score −1000. No padding to config.json's vocab_size (the converter has none).
/// \returns nullopt where LlamaModel.set_vocab falls back to the gpt2 path:
///          tokenizer.json missing (FileNotFoundError), a Llama-3-style BPE
///          (`ignore_merges` without byte fallback: TypeError), or not a
///          byte-fallback BPE with a Sequence decoder (FileNotFoundError,
///          TypeError when `model`/`decoder` is not an object).
/// \throws Error{BadJson} naming the file where the converter stops
///         (malformed JSON, `model` without `type`, `decoder` missing or
///         without `type`); Error{Malformed} when a token id below n has no
///         token (the converter's KeyError); Error{LimitExceeded} for more than
///         kMaxVocabTokens tokens.
std::optional<SpmVocab> llama_hf_vocab(const std::string& dir);

}  // namespace amn::tok
