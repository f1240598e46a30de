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
    Gemma2, ///< Gemma2Model.set_vocab: `_set_vocab_sentencepiece` (tokenizer.model required), then add_space_prefix false
    Gemma3, ///< Gemma3Model.set_vocab: SentencePiece + add_space_prefix false when tokenizer.model exists, else gpt2 BPE
    Gemma,  ///< GemmaModel.set_vocab: Gemma2's, with CodeGemma's eot id 107 (unless one is set) before add_space_prefix
    InternLM3, ///< InternLM3Model.set_vocab: SentencePiece, add_space_prefix from tokenizer_config, eos := <|im_end|>'s id
    Ernie4_5,  ///< Ernie4_5Model.set_vocab: `_set_vocab_sentencepiece`, then add_space_prefix from tokenizer_config
    Glm4,      ///< Glm4Model.set_vocab: gpt2 BPE, eos/unk/bos `<|endoftext|>` and eot `<|user|>` (added-token ids) where unset
    Glm,       ///< `_set_vocab_glm` (Glm4MoeModel): gpt2 BPE, bos `[gMASK]`, eot `<|user|>`, unk `<|endoftext|>`, eom `<|observation|>` where unset
    /// HunYuanModel.set_vocab, its tokenizer.json path: gpt2 BPE, then eos := config.json `eod_token_id` and
    /// eot := generation_config.json `eos_token_id[0]` when that is a list of two or more (the tiktoken path,
    /// which needs the model's remote code, and pad_token_id < 0 are refused by name)
    HunYuan,
    /// BertModel.set_vocab (conversion/bert.py): get_vocab_base's WordPiece tokens in llama.cpp's phantom-space
    /// form (CONTROL tokens kept, a "##" continuation without it, any other token after "▁"), `tokenizer.ggml.token_type_count`
    /// (config.json type_vocab_size, 1 by default) first, model "bert", SpecialVocab without merges.
    Bert,
    /// XLMRobertaModel.set_vocab (`_xlmroberta_set_vocab`, conversion/bert.py): sentencepiece.bpe.model's Unigram
    /// pieces in fairseq's ids (xlmroberta_sentencepiece_vocab), model "t5", pre "default", tokens, scores, token
    /// types, then add_space_prefix, token_type_count (type_vocab_size, 1 by default), remove_extra_whitespaces,
    /// precompiled_charsmap (UINT8 array, when not empty), SpecialVocab without merges.
    XlmRoberta,
    /// ModernBertModel.set_vocab: `tokenizer.ggml.add_bos_token`, `add_eos_token`, `add_sep_token` true (SpecialVocab
    /// may overwrite them in place), then `_set_vocab_gpt2`.
    ModernBert,
    /// `_set_vocab_sentencepiece` alone (MiniCPMModel): tokenizer.model required.
    SentencePiece,
    /// InternLM2Model.set_vocab: its own SentencePiece reading (internlm2_sentencepiece_vocab), add_space_prefix
    /// from the model, eos := an added <|im_end|>'s id.
    InternLM2,
    /// MambaModel.set_vocab: vocab_size (the caller gives it rounded up to config.json's pad_vocab_size_multiple,
    /// 8 by default: arch's ssm_padded_vocab_size), then tokenizer.json → gpt2 BPE, else tokenizer.model → SentencePiece (the built-in GPT-NeoX vocabulary refused).
    Mamba,
    /// Mamba2Model.set_vocab: Mamba's with 16 by default and tokenizer.model before tokenizer.json.
    Mamba2,
    /// RobertaModel.set_vocab (conversion/bert.py): tokenizer.json → `_set_vocab_gpt2`, then
    /// `tokenizer.ggml.token_type_count` (type_vocab_size, 1 by default). Without tokenizer.json the converter
    /// falls back to BertModel.set_vocab, writing the BPE vocabulary as a WordPiece one: refused by name.
    Roberta,
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

/// The result: key/values in the converter's order: `tokenizer.ggml.model`
/// first — preceded only by `tokenizer.ggml.add_space_prefix` when a Llama
/// folder's tokenizer_config.json has `add_prefix_space` (LlamaModel.set_vocab
/// writes it before the vocabulary) —, then pre, tokens, scores (SentencePiece
/// only), token_type, and SpecialVocab's part (merges, special ids, add_*
/// flags, chat template(s), normalizer flags).
struct GgufVocab {
    std::vector<MetaKv> kvs;
    std::string model;                  ///< "llama" (SentencePiece), "gpt2" (BPE), "bert" (WordPiece) or "t5" (XLM-R Unigram)
    std::string pre;                    ///< tokenizer.ggml.pre
    std::uint64_t n_tokens = 0;         ///< tokens written
    std::vector<std::string> warnings;  ///< e.g. a pre-tokenizer chosen by its definition, not by its hash
};

/// Build the tokenizer key/values of `req.dir` as the `set_vocab` of
/// `req.style` does (conversion/llama.py LlamaModel.set_vocab: tokenizer.model
/// → SentencePiece, else LlamaHfVocab, else gpt2 BPE, then the CodeLlama
/// (vocab_size 32016) infill ids and Granite-small add_bos_token false;
/// conversion/qwen.py Qwen2Model.set_vocab: SentencePiece, else gpt2;
/// base.py `_set_vocab_gpt2`; conversion/phi.py Phi3MiniModel.set_vocab:
/// gpt2 for tokenizer_class GPT2Tokenizer, else its SentencePiece variant;
/// conversion/gemma.py Gemma2Model / Gemma3Model.set_vocab: SentencePiece
/// followed by `tokenizer.ggml.add_space_prefix` false, Gemma 3 without a
/// tokenizer.model falling back to gpt2 BPE; conversion/bert.py
/// BertModel.set_vocab: WordPiece tokenizer.json, phantom-space tokens).
/// Where the converter writes a file despite an oddity, so does this, with
/// the converter's warning in `warnings` (SentencePiece pieces or added
/// tokens past vocab_size are dropped, special ids out of range skipped).
/// Side files are read with Python's json semantics (the last repeated key
/// wins, integers beyond 64 bits are numbers).
/// \throws Error naming the file and the cause: `req.dir` not a folder (Io),
///         no tokenizer at all: "no tokenizer (tokenizer.model or
///         tokenizer.json) in DIR" (Unsupported), Gemma 2 without
///         tokenizer.model (Unsupported, the converter's FileNotFoundError), tekken.json-only Mistral or
///         HybridDNA tokenizers (Unsupported), malformed tokenizer files or
///         fields of a type the converter cannot use (BadJson / BadText /
///         Malformed for tokenizer.model), a vocabulary larger than
///         `vocab_size` where the converter fails on it (SizeMismatch naming
///         both numbers: Phi-3, and the BPE path), vocab_size over
///         kMaxVocabTokens (LimitExceeded), a special id beyond UINT32
///         (OutOfRange), an unknown pre-tokenizer without --vocab-pre (Unsupported),
///         a BERT folder without tokenizer.json (Unsupported, naming it) or with a
///         tokenizer.json whose model is not WordPiece (Unsupported), an XLM-RoBERTa folder without
///         sentencepiece.bpe.model or with a model that is not Unigram (Unsupported).
GgufVocab gguf_vocab(const VocabRequest& req);

}  // namespace amn::tok
