// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
/// \file notice.hpp
/// One kind of message: every warning the core hands to a front end (the
/// plan's, the catalog's, a layout's, a forget run's, a GGUF run's) is a
/// Notice — a kind and the data of that kind, never a sentence. Front ends
/// word it in their language (amn: app/amn/notice_words.cc, English; the
/// desktop app: widgets/noticetext.cc, translated). The technical fragments a
/// notice carries (`detail`, `found`) are names and values as they are
/// stored — a key's value, dtype or scheme names — or, where a kind says so,
/// a message of another program kept as it logged it.

#include <cstdint>
#include <string>

namespace amn {

/// What a Notice is about. Each kind says which fields it fills; the others
/// stay empty (0, false).
enum class NoticeKind : std::uint8_t {
    /// A GGUF run: the converter's (or its tokenizer's, or model card
    /// reader's) own message, as convert_hf_to_gguf.py / gguf-py log it:
    /// `detail` (English, as logged: it is the reference's text).
    ConverterLog,
    /// Tensors already quantized in the input are quantized again (their
    /// error compounds; F32/F16/BF16 inputs avoid it). `count`: how many
    /// (forget to GGUF); 0 when not counted (forget to safetensors
    /// --requantize: at least one).
    Requantized,
    /// A GGUF run: `count` values of `tensor` are not finite (NaN/±inf), or,
    /// when `loss_measured`, they or their round trip are not (left out of
    /// the loss).
    NonFinite,
    /// Forget to safetensors: `count` values of `tensor` dequantize to a
    /// non-finite number (LLM.int8 rows whose F16 cast overflows), left out
    /// of the loss.
    NonFiniteDequantized,
    /// A key occurs more than once in a companion file (config.json …): the
    /// last one is used, as Python's json (and so transformers) reads it.
    /// `file`: the file; `key`: the key, dotted under its parents; `count`:
    /// its occurrences, 0 when not counted ("more than once").
    DuplicateKey,
    /// config.json's quantization_config.quant_method names a method the
    /// tensors do not follow: the tensors are believed. `file`: the config
    /// (empty: the quantization config of a format without config.json);
    /// `detail`: the quant_method as written; `found`: the scheme families
    /// the tensors follow (", "-joined; empty: none — the tensors are copied
    /// as stored); `found_words`: the detected schemes in words (describe(),
    /// "; "-joined; may be empty).
    QuantMethodMismatch,
    /// quantization_config.fmt disagrees with the FP8 weights' dtype: the
    /// dtype is believed (it decides the decoding). `file`: the config;
    /// `detail`: the fmt as written; `found`: the weights' dtype name.
    FormatMismatch,
    /// A malformed block size in the quantization config that no tensor
    /// needed (no FP8 weight has block scales): ignored, the scale shapes are
    /// believed. `file`: the config; `detail`: what is wrong with it, as
    /// the parser names it (key and value).
    BlockSizeIgnored,
    /// A GGUF read as a Hugging Face folder: metadata keys config.json has
    /// no place for. `key`: the GGUF architecture; `detail`: the keys,
    /// ", "-joined.
    KeysNotCarried,
    /// A GGUF read as a Hugging Face folder: no tokenizer written. `detail`:
    /// why (the tokenizer model or pre-tokenizer not known, named); empty:
    /// the GGUF has no tokenizer.ggml.model.
    NoTokenizer,
    /// A GGUF read as a Hugging Face folder: tokenizer.json written but no
    /// SentencePiece tokenizer.model. `detail`: why.
    NoTokenizerModel,
    /// Forget to safetensors refuses an input that is already quantized
    /// (without --requantize): `count` quantized logical tensors, `detail`
    /// the schemes found (scheme ids, ", "-joined; empty: none named). Carried
    /// by the refusal's Error (Error::notice()).
    AlreadyQuantized,
};

/// The number of NoticeKind values (for tests that every kind is worded).
inline constexpr int kNoticeKinds = static_cast<int>(NoticeKind::AlreadyQuantized) + 1;

/// One warning of the core, typed; front ends word it. Which fields a kind
/// fills is documented at NoticeKind.
struct Notice {
    NoticeKind kind = NoticeKind::ConverterLog;
    std::string file{};          ///< the file it is about (a config path), when the kind names one
    std::string tensor{};        ///< the tensor it is about, when the kind names one
    std::string key{};           ///< the key (or architecture) it is about, when the kind names one
    std::uint64_t count = 0;     ///< tensors, values or occurrences, by kind
    bool loss_measured = false;  ///< NonFinite: the run measured the loss (round trips checked too)
    std::string detail{};        ///< the technical fragment of the kind (a value as written, names)
    std::string found{};         ///< what the model holds instead, when the kind compares
    std::string found_words{};   ///< QuantMethodMismatch: `found` described in words
    bool operator==(const Notice&) const = default;
};

}  // namespace amn
