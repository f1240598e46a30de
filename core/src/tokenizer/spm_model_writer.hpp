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

}  // namespace amn::tok
