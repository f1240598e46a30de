// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// The way back: a GGUF's `tokenizer.*` and `general.sampling.*` key/values
// as the side files of a Hugging Face folder (tokenizer.json,
// tokenizer_config.json, special_tokens_map.json, generation_config.json) —
// the inverse of what convert_hf_to_gguf.py reads (bpe_vocab.hpp,
// spm_vocab.hpp, special_vocab.hpp), so that converting the folder back
// gives the same `tokenizer.*` key/values.
#include "anamnesis/catalog.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace amn::tok {

/// The tokenizer key/values of a GGUF, checked and gathered (views into the catalog).
struct GgufTokenizerKvs {
    std::string model;                      ///< tokenizer.ggml.model ("gpt2", "llama", …)
    std::string pre;                        ///< tokenizer.ggml.pre ("" when absent)
    std::vector<std::string_view> tokens;   ///< tokenizer.ggml.tokens (valid UTF-8)
    std::vector<std::int32_t> types;        ///< tokenizer.ggml.token_type (1 = normal for every token when absent)
    std::vector<float> scores;              ///< tokenizer.ggml.scores (empty when absent)
    std::vector<std::string_view> merges;   ///< tokenizer.ggml.merges (empty when absent)
    /// Special token ids by SpecialVocab type ("bos", "eos", "unk", "sep", "pad", "mask"), in that order, ids < tokens.size().
    std::vector<std::pair<std::string, std::uint32_t>> special_ids;
    /// add_bos_token / add_eos_token / add_sep_token, as present ("bos" → value …), in that order.
    std::vector<std::pair<std::string, bool>> add_flags;
    std::optional<bool> add_space_prefix;   ///< tokenizer.ggml.add_space_prefix
    std::optional<bool> lowercase;          ///< tokenizer.ggml.normalizer.lowercase
    std::optional<bool> strip_accents;      ///< tokenizer.ggml.normalizer.strip_accents
    std::optional<bool> remove_extra_whitespaces;  ///< tokenizer.ggml.remove_extra_whitespaces (Unigram "t5")
    std::string_view precompiled_charsmap;  ///< tokenizer.ggml.precompiled_charsmap bytes (UINT8 array; empty when absent)
    std::optional<std::string> chat_template;                              ///< tokenizer.chat_template
    std::vector<std::pair<std::string, std::string>> named_chat_templates; ///< tokenizer.chat_template.<name>, in tokenizer.chat_templates order
    std::optional<std::uint64_t> context_length;                           ///< {arch}.context_length

    /// The id of special token type `typ`, or nullopt.
    std::optional<std::uint32_t> special(std::string_view typ) const;
    /// The add_<typ>_token flag, or nullopt when the GGUF has none.
    std::optional<bool> add(std::string_view typ) const;
};

/// Read and check the tokenizer key/values of `cat` (a GGUF catalog).
/// \returns nullopt when the GGUF has no `tokenizer.ggml.model`.
/// \throws Error{Malformed} naming the key: tokens missing, not an array of
///         strings or a token not UTF-8; token_type / scores / merges not an
///         array of INT32 / FLOAT32 / strings or (types, scores) of another
///         length than tokens; a chat template not a string.
std::optional<GgufTokenizerKvs> read_gguf_tokenizer(const Catalog& cat);

/// One Hugging Face side file: its name in the folder and its text.
using SideFile = std::pair<std::string, std::string>;

/// What hf_side_files() produces.
struct HfSideFiles {
    std::vector<SideFile> files;        ///< tokenizer.json, tokenizer.model (llama), tokenizer_config.json, special_tokens_map.json, generation_config.json
    std::vector<Notice> warnings;  ///< why a tokenizer was not written (NoticeKind::NoTokenizer, NoTokenizerModel), nothing else
};

/// The side files of the Hugging Face folder made from the GGUF `cat`:
/// - `generation_config.json`: bos/eos/pad ids and `general.sampling.*`
///   under generation_config's names (top_k, top_p, min_p, temperature,
///   xtc_*, penalty_*, mirostat*, sequence — the names convert_hf_to_gguf
///   reads them from), with `do_sample: true` when any sampling value is
///   present; written whenever the GGUF has any of these;
/// - for `tokenizer.ggml.model` "gpt2" with a `tokenizer.ggml.pre` that
///   pre_definition() knows, and "llama" (SentencePiece): tokenizer.json
///   (hf_tokenizer_json()), tokenizer_config.json (sorted keys, as
///   transformers writes it: add_bos/add_eos/add_sep flags as present,
///   added_tokens_decoder — gpt2: every added token; llama: the control and
///   user-defined tokens with score −1000, the mark convert_hf_to_gguf's own
///   added_tokens_decoder override leaves, so that converting back repeats
///   it —, bos/eos/unk/sep/pad/mask tokens, chat_template (the list form
///   with tokenizer.chat_templates), model_max_length from
///   {arch}.context_length, tokenizer_class PreTrainedTokenizerFast) and
///   special_tokens_map.json;
///   for "llama" also tokenizer.model (spm_model_proto(); left out with a
///   warning when SentencePiece could not load it) and `add_prefix_space`
///   from `tokenizer.ggml.add_space_prefix`;
/// - for "t5" (XLM-RoBERTa's Unigram, the only one the converter writes for a
///   row here): the files of xlmr_hf_vocab()'s ids — tokenizer.json,
///   sentencepiece.bpe.model (xlmr_spm_model_proto()), tokenizer_config.json
///   (tokenizer_class XLMRobertaTokenizer) and special_tokens_map.json;
/// - for "bert" (WordPiece, any pre: llama.cpp's WPM tokenizer is one): tokenizer.json,
///   vocab.txt (bert_vocab_texts() in id order, one per line, without the converter's trailing "[PAD<id>]" padding), tokenizer_config.json and
///   special_tokens_map.json as above;
/// - any other model or pre-tokenizer: no tokenizer files, and a warning
///   that says which value is not known (never a guess); the same when
///   hf_tokenizer_json() finds the vocabulary cannot be written.
/// \throws what read_gguf_tokenizer() throws, and Error{Malformed} naming a
///         general.sampling.* key that is not a finite number / UTF-8 string.
HfSideFiles hf_side_files(const Catalog& cat);

/// tokenizer.json for `kv` (model "gpt2" or "llama"), pretty-printed with two spaces:
/// - gpt2: BPE over the normal tokens (control, user-defined and unknown
///   ones are `added_tokens`, `special` unless user-defined; "[PAD<id>]"
///   unused tokens are left out, convert_hf_to_gguf pads them back), the
///   merges as stored, and the normalizer, pre-tokenizer, ByteLevel
///   post-processor and decoder that pre_definition(`kv.pre`) gives, with a
///   TemplateProcessing (BOS/EOS as add_bos/add_eos say) after the post-processor;
/// - llama: what transformers' LlamaConverter builds for a SentencePiece BPE
///   model: BPE with byte_fallback, fuse_unk, unk_token, every piece in the
///   vocabulary, merges from the pieces and scores (spm_merges()), normalizer Prepend("▁") + Replace(" " → "▁")
///   (Prepend left out when add_space_prefix is false), decoder Replace,
///   ByteFallback, Fuse, Strip; control/unknown/user-defined pieces are added tokens.
/// - bert: what transformers' BertTokenizerFast saves: WordPiece ("##", unk, 100 characters per word)
///   over bert_vocab_texts() (every token but the converter's "[PAD<id>]" padding), the CONTROL tokens
///   also added tokens, BertNormalizer (lowercase / strip_accents as tokenizer.ggml.normalizer.* say;
///   lowercase when absent, as llama.cpp's WPM tokenizer does), BertPreTokenizer, a TemplateProcessing
///   "[CLS] $A [SEP]" / "[CLS] $A [SEP] $B:1 [SEP]:1" from bos/eos when add_bos/add_eos are set, and the
///   WordPiece decoder.
/// - t5 (`kv` in xlmr_hf_vocab()'s ids): what transformers' XLMRobertaConverter builds — Unigram (unk_id 3,
///   every token with its score as [text, score], byte_fallback false), normalizer Precompiled(the GGUF's
///   precompiled_charsmap, base64) + Replace(" {2,}" → " ") when remove_extra_whitespaces (each left out when
///   absent/false; null when both are), Metaspace pre-tokenizer and decoder ("▁", prepend_scheme "always" /
///   "never" as add_space_prefix), TemplateProcessing "<s> $A </s>" / "<s> $A </s> </s> $B </s>" (one "</s>"
///   between unless add_sep_token) when BOS and EOS are added; the control and unknown tokens are added tokens
///   ("<mask>" with lstrip, as XLMRobertaTokenizer's).
/// \returns nullopt with `why` set when the model or pre-tokenizer is not one
///          of those, a gpt2 vocabulary has no merges or a llama one no
///          scores, or two tokens of the BPE vocabulary have the same text
///          (a tokenizer.json cannot hold both).
std::optional<std::string> hf_tokenizer_json(const GgufTokenizerKvs& kv, std::string& why);

/// The BPE merges of a SentencePiece vocabulary (`kv.tokens` / `kv.scores`),
/// as transformers' GGUF loader builds them (integrations/ggml.py
/// GGUFTokenizerSkeleton, "building merges on the fly"): for each token in
/// id order (a repeated text once, with its last score), every split — at a
/// code point boundary — into two tokens of the vocabulary, those ordered by
/// the scores of the left, then the right part (descending); then all of
/// them stably ordered by the merged token's score (descending).
/// (left, right) pairs, views into `kv.tokens`; written in tokenizer.json's
/// array-of-pairs form (a user-defined piece may hold a space).
std::vector<std::pair<std::string_view, std::string_view>> spm_merges(const GgufTokenizerKvs& kv);

/// XLM-RoBERTa's Hugging Face vocabulary from a GGUF "t5" one, undoing conversion/bert.py
/// `_xlmroberta_set_vocab` (its sentencepiece.bpe.model branch): the GGUF holds <s> <pad> </s> <unk>
/// (ids 0–3, as XLMRobertaTokenizer's fairseq ids), then the SentencePiece pieces from SentencePiece id 3 at
/// id + 1, then the converter's "[PAD<id − 1>]" padding (unused) up to config.json's vocab_size, in place of
/// XLMRobertaTokenizer's `<mask>`. Returns `kv` with the padding cut and "<mask>" (control, score 0) appended
/// — the tokenizer's ids, every id below the cut the GGUF's — and the special ids kept where they still name
/// the same token (mask: the appended one).
/// \returns nullopt with `why` set when the model is not "t5", there are no scores, the first four tokens are
///          not XLM-RoBERTa's, or a second unknown token follows.
std::optional<GgufTokenizerKvs> xlmr_hf_vocab(const GgufTokenizerKvs& kv, std::string& why);

/// The WordPiece texts of a "bert" GGUF's tokens, undoing BertModel.set_vocab's phantom space: CONTROL
/// tokens as they are, "▁word" → "word", any other token → "##" + token (a continuation).
std::vector<std::string> bert_vocab_texts(const GgufTokenizerKvs& kv);

}  // namespace amn::tok
