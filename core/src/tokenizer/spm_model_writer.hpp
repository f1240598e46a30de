// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// A SentencePiece `tokenizer.model` (sentencepiece_model.proto ModelProto,
// protobuf wire format) for a GGUF "llama" vocabulary: the file
// convert_hf_to_gguf.py reads the pieces, scores and types from
// (spm_vocab.hpp), so that a GGUF → Hugging Face → GGUF round trip keeps them.
#include "tokenizer/hf_from_gguf.hpp"

#include <optional>
#include <string>

namespace amn::tok {

/// Serialize `kv` (model "llama", with scores) as a SentencePiece BPE model:
/// - `pieces` (field 1): every token in id order, `piece`, `score` and
///   `type` (the GGUF token types are SentencePiece's own numbers: 1 normal,
///   2 unknown, 3 control, 4 user-defined, 5 unused, 6 byte), except that the
///   unknown token (`tokenizer.ggml.unknown_token_id`, else the first of type
///   2) is always UNKNOWN and any other type-2 token CONTROL — SentencePiece
///   needs exactly one (convert_hf_to_gguf's `added_tokens_decoder` override
///   can have made it CONTROL in the GGUF; tokenizer_config.json lists it
///   again so the override is repeated);
/// - `trainer_spec` (field 2): model_type BPE, vocab_size, byte_fallback
///   when all 256 "<0xXX>" byte pieces are there, unk/bos/eos/pad ids (−1 when absent);
/// - `normalizer_spec` (field 3): name "identity", add_dummy_prefix =
///   `tokenizer.ggml.add_space_prefix` (default true),
///   remove_extra_whitespaces false, escape_whitespaces true.
/// \returns nullopt with `why` set when SentencePiece could not load it: no
///          scores, no unknown token, an empty piece, or two pieces with the same text.
std::optional<std::string> spm_model_proto(const GgufTokenizerKvs& kv, std::string& why);

/// Serialize XLM-RoBERTa's vocabulary (`hf`: xlmr_hf_vocab()'s ids — <s> <pad> </s> <unk>, the pieces, <mask>
/// last) as the Unigram `sentencepiece.bpe.model` conversion/bert.py `_xlmroberta_set_vocab` reads, in
/// SentencePiece's own ids: <unk> 0 (unknown), <s> 1, </s> 2 (control), all score 0, then hf's tokens 4 … size−2
/// as pieces 3 … with their scores and types (normal, control, unused, byte; user-defined and normal are both
/// read back as normal by the converter); `<pad>` and `<mask>` are XLMRobertaTokenizer's own (fairseq) tokens,
/// not pieces. `trainer_spec`: model_type UNIGRAM, vocab_size, unk/bos/eos 0/1/2, pad −1 (XLM-R's), byte_fallback
/// when all 256 "<0xXX>" byte pieces are there; `normalizer_spec`: name "nmt_nfkc" with the GGUF's
/// precompiled_charsmap (else "identity" without), add_dummy_prefix = add_space_prefix (default true),
/// remove_extra_whitespaces (default true), escape_whitespaces true.
/// \returns nullopt with `why` set when a piece is empty or repeats another's text (SentencePiece refuses both).
std::optional<std::string> xlmr_spm_model_proto(const GgufTokenizerKvs& hf, std::string& why);

}  // namespace amn::tok
