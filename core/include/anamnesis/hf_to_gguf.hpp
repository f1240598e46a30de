// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
/// \file hf_to_gguf.hpp
/// Hugging Face folder → GGUF, byte for byte what llama.cpp's
/// `convert_hf_to_gguf.py` writes (commit 34af94c, the shared fixtures'),
/// and in one pass on to any llama-quantize file type (forget_gguf.hpp).
///
/// The folder (config.json, `model*.safetensors` [+ index], tokenizer files,
/// generation_config.json, README.md) is opened by open_model() and planned by
/// make_plan() as any other input; this layer is a layout transform of that
/// plan driven by the architecture table (core/src/arch): HF tensor names →
/// GGUF names, llama's Q/K row permutation, MoE experts stacked into 3-D
/// tensors, generated tensors (`rope_freqs`, Phi-3 RoPE factors), the
/// converter's tensor order and per-tensor types; plus the key/values:
/// `general.*` (gguf-py metadata.py), the architecture's hparams, the
/// tokenizer (`tokenizer.ggml.*`). The bytes are written by the one GGUF
/// runner that forget_to_gguf() uses too.
///
/// Quantized checkpoints the converter reads (FP8 with `weight_scale_inv`,
/// ModelOpt FP8, GPTQ, compressed-tensors int/float/pack-quantized) are
/// dequantized with its arithmetic (the f32 product, one rounding) by
/// anamnesis' own bit-exact recipes, and take the converter's tensor order.
/// The functions below plan the catalog themselves for that
/// (make_plan with PlanOptions::f32_products); every scheme anamnesis reads
/// is accepted, also those the converter refuses (bitsandbytes, AWQ …): their
/// output is what the converter writes for the dequantized folder.

#include "anamnesis/catalog.hpp"
#include "anamnesis/executor.hpp"
#include "anamnesis/forget_gguf.hpp"
#include "anamnesis/plan.hpp"

#include <atomic>
#include <optional>
#include <string>
#include <vector>

namespace amn {

/// What `amn convert DIR --to gguf[:TYPE]` asks for; the names are
/// convert_hf_to_gguf.py's options.
struct HfGgufOptions {
    /// --outtype: "f32", "f16", "bf16", "q8_0" or "auto" (case-insensitive).
    /// "auto" = BF16 when the first tensor of ≥ 2 dims (in the converter's
    /// order, float tensors only) is BF16, F16 when it is F16, else F16.
    std::string outtype = "auto";
    std::string output;                     ///< output .gguf; empty: default_hf_gguf_output_path()
    bool vocab_only = false;                ///< --vocab-only: key/values and tokenizer, no tensors
    std::optional<std::string> vocab_pre;   ///< --vocab-pre NAME: the tokenizer.ggml.pre to write
    /// --no-mtp / --no-nextn: leave out the MTP block (Qwen3-Next's `mtp.*`: no tensors, block_count
    /// without it, no nextn_predict_layers; a folder without MTP tensors then converts). Error{Usage}
    /// for a class without one, as the converter refuses it.
    bool no_mtp = false;
    bool force = false;                     ///< replace an existing output
    unsigned threads = 0;                   ///< 0 = all cores
    std::uint64_t chunk_bytes = 4u << 20;   ///< f32 bytes decoded per work unit (about)
    /// --mmproj: write the vision projector GGUF instead of the text model,
    /// as `convert_hf_to_gguf.py --mmproj` does (general.architecture "clip",
    /// general.type "mmproj", the clip.* key/values, the vision tower and
    /// projector tensors; no tokenizer). Classes: Gemma3ForConditionalGeneration
    /// (Gemma3VisionModel: SigLIP + the Gemma 3 projector),
    /// Qwen2VLForConditionalGeneration / Qwen2_5_VLForConditionalGeneration
    /// (Qwen2VLVisionModel: fused qkv split in thirds, the Conv3D patch
    /// embedding split into `v.patch_embd.weight` and `.weight.1`). The
    /// default output is default_hf_mmproj_output_path(). `outtype` "auto"
    /// is decided over the kept (vision) tensors only, as the converter's
    /// index does. Not with vocab_only or vocab_pre.
    bool mmproj = false;
    /// --split-max-size / --split-max-tensors / --no-tensor-first-split:
    /// the parts the converter writes (gguf_split.hpp; keep_split is not
    /// one of its options), named after `output` less its extension.
    GgufSplitOptions split;
};

/// What a Hugging Face folder maps to in GGUF, for `amn inspect` and the
/// desktop app's Overview. Never throws for problems of the model: `error`
/// says why it cannot be converted.
struct HfGgufInfo {
    bool is_hf_folder = false;        ///< a safetensors model with config.json beside it
    std::string hf_architecture;      ///< config.json architectures[0] ("LlamaForCausalLM")
    std::string gguf_architecture;    ///< "llama", "qwen3" … (empty when unsupported)
    std::string tokenizer_model;      ///< tokenizer.ggml.model: "llama" (SentencePiece) or "gpt2" (BPE)
    std::string tokenizer_pre;        ///< tokenizer.ggml.pre ("llama-bpe", "qwen2", "default" …)
    std::string default_outtype;      ///< what --outtype auto picks ("BF16", "F16")
    /// What the converter's tokenizer code logs for this folder (a
    /// pre-tokenizer chosen by its definition, not by its hash …): Notices
    /// of kind ConverterLog, its English as it logs it.
    std::vector<Notice> warnings;
    std::string error;                ///< non-empty: why the folder cannot become a GGUF
    /// A multimodal folder (config.json has a `vision_config` object): the
    /// files `convert` writes at the default outtype — text_output, the text
    /// GGUF (default_hf_gguf_output_path(catalog, "auto"); empty when `error`),
    /// and with --mmproj mmproj_output (default_hf_mmproj_output_path(catalog,
    /// "auto")) — or, in mmproj_error, why --mmproj cannot (a class without a
    /// projector row, a key the converter requires, named). All empty when
    /// has_vision is false.
    bool has_vision = false;
    std::string text_output;
    std::string mmproj_output;
    std::string mmproj_error;
};
HfGgufInfo describe_hf_gguf(const Catalog& catalog);

/// HfGgufInfo::is_hf_folder without the rest: whether this layer takes
/// `catalog` (safetensors or PyTorch weights with config.json beside them).
/// Reads nothing; for front ends that offer the conversion (the desktop
/// wizard) before describe_hf_gguf() has loaded the tokenizer.
bool is_hf_gguf_input(const Catalog& catalog);

/// An --outtype as the type it writes: "F32", "F16", "BF16", "Q8_0"
/// (case-insensitive); "auto" (or empty) as the converter resolves it for
/// this catalog ("BF16" or "F16", HfGgufOptions::outtype). A pass over the
/// tensor names and dtypes, nothing is read from disk.
/// \throws Error{Usage} for an unknown outtype.
std::string resolve_hf_outtype(const Catalog& catalog, const std::string& outtype);

/// Every output tensor (file order) with its type and why, without writing
/// anything (`amn convert --dry-run`); `bytes` per tensor.
/// \throws as convert_hf_to_gguf(), except the output errors.
/// With `files`, also the files it would write (path, planned size, tensors).
std::vector<ForgetTensor> plan_hf_gguf(const Catalog& catalog, const HfGgufOptions& options,
                                       std::vector<GgufOutputFile>* files = nullptr);

/// Convert. Progress counts f32 bytes decoded.
/// \throws Error{Usage} for an unknown outtype; Error{Unsupported} naming
///         config.json for an architecture outside the table (the message
///         lists the supported ones), for a quantization scheme the
///         converter does not read (bitsandbytes, AWQ …), for a tensor the
///         architecture cannot map; Error{Malformed}/BadJson/SizeMismatch
///         naming the file for a config that disagrees with the weights,
///         malformed tokenizer files, a vocabulary larger than vocab_size;
///         with `mmproj`: Error{Unsupported} naming config.json for a class
///         without a vision projector row (the message lists those) or a
///         folder without vision_config, Error{Malformed} naming the key
///         when a vision or preprocessor key the converter requires is
///         missing, Error{Usage} with vocab_only / vocab_pre;
///         Error{OutputExists}, Error{Io}, Error{Cancelled}. Nothing is left
///         at the output path on any error; the input is never modified.
GgufWriteResult convert_hf_to_gguf(const Catalog& catalog, const HfGgufOptions& options,
                                    const ProgressFn& progress = {}, const std::atomic<bool>* cancel = nullptr);

/// Default output: beside the model folder (never inside it), named as the
/// converter names its default output (`{Name}-{SizeLabel}-{Finetune}-{Version}-{TYPE}.gguf`,
/// gguf-py naming_convention), `TYPE` = the resolved outtype ("BF16") or a
/// llama-quantize file type ("Q4_K_M"); "auto" is resolved first
/// (resolve_hf_outtype), as the converter names an `--outtype auto` output.
std::string default_hf_gguf_output_path(const Catalog& catalog, const std::string& type);

/// Default --mmproj output: beside the model folder, named as the converter
/// names it (MmprojModel.prepare_metadata): `mmproj-` + gguf-py
/// naming_convention(name, basename, finetune, version, no size label, TYPE)
/// + ".gguf" ("mmproj-gemma-3-4b-it-F16.gguf"), TYPE the resolved outtype:
/// F32, F16, BF16, Q8_0 (case-insensitive), or "auto": BF16 / F16 as the
/// first kept vision tensor of ≥ 2 dimensions is stored, else F16.
/// \throws as convert_hf_to_gguf() with HfGgufOptions::mmproj: Error{Unsupported}
///         naming config.json for a class without a vision projector row or
///         a folder without vision_config; Error{Malformed} naming the key the
///         converter requires when it is missing; Error{Usage} for an unknown type.
std::string default_hf_mmproj_output_path(const Catalog& catalog, const std::string& type);

}  // namespace amn
