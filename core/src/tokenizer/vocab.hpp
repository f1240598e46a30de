// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// The tokenizer of a Hugging Face folder as GGUF key/values
// (`tokenizer.ggml.*`), exactly as llama.cpp's convert_hf_to_gguf.py writes
// them (conversion/base.py `_set_vocab_*`, gguf-py vocab.py `SpecialVocab`).
// Interface shared by the SentencePiece side (spm_vocab, special_vocab, the
// dispatcher gguf_vocab) and the BPE side (bpe_vocab.hpp).
#include "anamnesis/metadata.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace amn::tok {

/// Which `set_vocab` of the converter an architecture uses.
enum class VocabStyle : std::uint8_t {
    Llama,  ///< LlamaModel.set_vocab: SentencePiece, else LlamaHfVocab, else gpt2 BPE
    Qwen2,  ///< Qwen2Model.set_vocab (and Qwen3 / Qwen3MoE, which inherit it)
    Gpt2,   ///< `_set_vocab_gpt2`
    Phi3,   ///< Phi3MiniModel.set_vocab
};

/// What gguf_vocab() needs.
struct VocabRequest {
    std::string dir;                         ///< the model folder
    VocabStyle style = VocabStyle::Llama;
    /// config.json `vocab_size` (the converter's hparams["vocab_size"]); nullopt when absent.
    std::optional<std::uint64_t> vocab_size;
    std::string config_json;                 ///< config.json text (for `*_token_id` fallbacks)
    std::optional<std::string> pre_override; ///< `--vocab-pre NAME`
};

/// The result: key/values in the converter's order, starting with
/// `tokenizer.ggml.model`.
struct GgufVocab {
    std::vector<MetaKv> kvs;
    std::string model;                  ///< "llama" (SentencePiece) or "gpt2" (BPE)
    std::string pre;                    ///< tokenizer.ggml.pre
    std::uint64_t n_tokens = 0;         ///< tokens written
    std::vector<std::string> warnings;  ///< e.g. a pre-tokenizer chosen by its definition, not by its hash
};

/// Build the tokenizer key/values of `req.dir`.
/// \throws Error naming the file and the cause: no tokenizer at all
///         (Unsupported), malformed tokenizer files (BadJson / Malformed),
///         a vocabulary larger than `vocab_size` (SizeMismatch), an unknown
///         pre-tokenizer without --vocab-pre (Unsupported).
GgufVocab gguf_vocab(const VocabRequest& req);

}  // namespace amn::tok
