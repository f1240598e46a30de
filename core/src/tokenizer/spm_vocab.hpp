// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// SentencePiece vocabularies (tokenizer.model) as convert_hf_to_gguf.py
// builds them: tokens, scores and token types, before SpecialVocab.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace amn::tok {

/// gguf-py's TokenType / conversion/base.py's SentencePieceTokenTypes (the
/// int32 values of `tokenizer.ggml.token_type`).
enum class SpmTokenType : std::int32_t {
    Normal = 1,
    Unknown = 2,
    Control = 3,
    UserDefined = 4,
    Unused = 5,
    Byte = 6,
};

/// A vocabulary with scores: what `_set_vocab_sentencepiece`,
/// `_set_vocab_llama_hf` and Phi3MiniModel.set_vocab write as
/// `tokenizer.ggml.tokens` / `scores` / `token_type`.
struct SpmVocab {
    std::vector<std::string> tokens;   ///< token text (UTF-8 bytes as written), index = token id
    std::vector<float> scores;         ///< FLOAT32 score per token
    std::vector<std::int32_t> types;   ///< SpmTokenType value per token
    std::vector<std::string> warnings; ///< what the converter logs as warnings (ignored/replaced tokens)
};

/// The most tokens a vocabulary may have here (16 Mi; real ones have ≤ 262 144).
/// A larger `vocab_size` is refused with Error{LimitExceeded} before allocating.
inline constexpr std::uint64_t kMaxVocabTokens = std::uint64_t{1} << 24;

/// conversion/base.py `does_token_look_special`: "<pad>", "<mask>",
/// "<2mass>", "[@BOS@]", "<|…|>", "<｜…｜>", "<unused…>".
bool does_token_look_special(std::string_view token) noexcept;

/// conversion/base.py `_create_vocab_sentencepiece` for the folder `dir`:
/// the pieces of `dir`/tokenizer.model (read with libsentencepiece: piece,
/// score, type unknown/control/unused/byte/normal) in a vocabulary of
/// `vocab_size` entries ("[PAD<id>]", −10000, unused where the model has
/// none; pieces past it are ignored with a warning), then added_tokens.json
/// (user-defined, score −1000), then tokenizer_config.json
/// `added_tokens_decoder` (score −1000; control when `special` or
/// does_token_look_special(), else user-defined with U+2581 written as a
/// space). `vocab_size`: the converter's `find_hparam(["vocab_size_per_layer_input",
/// "vocab_size"])`; nullopt or 0 = the model's piece count.
/// \returns nullopt when `dir`/tokenizer.model is not a file (the converter's
///          FileNotFoundError, on which set_vocab falls back).
/// \throws Error{Malformed} naming tokenizer.model when libsentencepiece
///         cannot load it or a piece is not UTF-8; Error{BadJson}/{BadText}
///         naming the side file when added_tokens.json / tokenizer_config.json
///         is not what the converter can read (it would stop there);
///         Error{LimitExceeded} for a vocab_size over kMaxVocabTokens.
std::optional<SpmVocab> sentencepiece_vocab(const std::string& dir, std::optional<std::uint64_t> vocab_size);

/// The model part of sentencepiece_vocab() for tokenizer.model bytes already
/// read (libsentencepiece's LoadFromSerializedProto, the same checks as its
/// Load of a file): `vocab_size` entries (nullopt or 0: the model's piece
/// count) with the model's pieces in place, no side files. `file` names the
/// model in errors. Used by sentencepiece_vocab() and the fuzz target.
/// \throws Error{Malformed} naming `file` when libsentencepiece refuses the
///         bytes or a piece is not UTF-8; Error{LimitExceeded} as sentencepiece_vocab().
SpmVocab sentencepiece_model_vocab(std::string_view model, std::optional<std::uint64_t> vocab_size,
                                   const std::string& file);

/// conversion/phi.py Phi3MiniModel.set_vocab (its SentencePiece branch; the
/// caller checks tokenizer_class first): like sentencepiece_vocab() but
/// without the range checks or look-special test, the `added_tokens_decoder`
/// entries user-defined (control when `special`) with their text as is, then
/// tokenizer.json `added_tokens` the same way. `vocab_size`: config.json's,
/// nullopt = the model's piece count.
/// \throws Error{Unsupported} "Missing tokenizer.model" when it is not a
///         file; Error{SizeMismatch} naming both numbers when the model has
///         more pieces than `vocab_size` or an added token id lies outside it
///         (the converter's IndexError); otherwise as sentencepiece_vocab().
SpmVocab phi3_sentencepiece_vocab(const std::string& dir, std::optional<std::uint64_t> vocab_size);

/// InternLM2Model.set_vocab's vocabulary (conversion/internlm.py): the model's first `vocab_size` pieces
/// (config.json's, else all) with a "\x00" piece written as U+1F409 and "[UNUSED…" pieces unused, then every
/// added_tokens.json entry appended (user-defined, −1000), then tokenizer_config.json `added_tokens_decoder`
/// and tokenizer.json `added_tokens` placed at their ids as phi3_sentencepiece_vocab() does.
struct InternLM2Vocab {
    SpmVocab vocab;
    bool add_space_prefix = true;       ///< the model's normalizer_spec.add_dummy_prefix
    std::optional<std::size_t> chat_eos;  ///< the id of an added `<|im_end|>` (the converter's eos)
};
/// \throws Error{Unsupported} "Missing tokenizer.model"; Error{SizeMismatch} when vocab_size exceeds the
///         model's pieces or an added token id lies outside the vocabulary; otherwise as sentencepiece_vocab().
InternLM2Vocab internlm2_sentencepiece_vocab(const std::string& dir, std::optional<std::uint64_t> vocab_size);

/// The fields of a serialized SentencePiece ModelProto (sentencepiece_model.proto) the converters read beside the
/// pieces, with the proto2 defaults when absent; a repeated field: its last value (protobuf's merge).
struct SpmProtoFacts {
    std::uint64_t model_type = 1;          ///< trainer_spec.model_type: 1 UNIGRAM (default), 2 BPE, 3 WORD, 4 CHAR
    bool add_dummy_prefix = true;          ///< normalizer_spec.add_dummy_prefix
    bool remove_extra_whitespaces = true;  ///< normalizer_spec.remove_extra_whitespaces
    std::string precompiled_charsmap;      ///< normalizer_spec.precompiled_charsmap (bytes; empty when absent)
};
/// Reads SpmProtoFacts from `proto` (bytes libsentencepiece already loaded: a truncated field ends the walk).
SpmProtoFacts spm_proto_facts(std::string_view proto);

/// conversion/bert.py `_xlmroberta_set_vocab`, its sentencepiece.bpe.model branch (XLMRobertaModel): the
/// vocabulary the converter writes with `tokenizer.ggml.model` "t5".
struct XlmRobertaVocab {
    SpmVocab vocab;
    SpmProtoFacts facts;  ///< add_space_prefix, remove_extra_whitespaces and precompiled_charsmap come from these
};
/// `dir`/sentencepiece.bpe.model read with libsentencepiece into max(`vocab_size`, its piece count) entries
/// ("[PAD<i>]", −10000, unused past the pieces; piece, score and type as sentencepiece_vocab()), then fairseq's
/// ids: "<s>", "<pad>", "</s>" (control), "<unk>" (unknown), all with score 0, followed by entries 3 … n−2 (the
/// last entry dropped: the count stays n). No side files (SpecialVocab is the caller's).
/// \throws Error{Unsupported} naming the folder when sentencepiece.bpe.model is not a file (the converter's
///         tokenizer.json path through transformers' AutoTokenizer is not supported here), naming the model
///         when it is not a Unigram model (the converter asserts model_type == UNIGRAM);
///         Error{Malformed} / Error{LimitExceeded} as sentencepiece_vocab().
XlmRobertaVocab xlmroberta_sentencepiece_vocab(const std::string& dir, std::optional<std::uint64_t> vocab_size);

}  // namespace amn::tok
