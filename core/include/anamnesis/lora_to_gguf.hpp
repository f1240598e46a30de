// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
/// \file lora_to_gguf.hpp
/// A PEFT LoRA adapter folder → GGUF adapter, byte for byte what llama.cpp's
/// `convert_lora_to_gguf.py` (commit 34af94c) writes with `--base BASE_DIR`.
///
/// The adapter folder holds `adapter_config.json` (PEFT's LoraConfig:
/// `lora_alpha`, `peft_type`, `use_dora`, …) and `adapter_model.safetensors`
/// (or `adapter_model.bin`, a PyTorch checkpoint) with, per adapted linear,
/// `base_model.model.<module>.lora_A.weight` [r, in] and `.lora_B.weight`
/// [out, r]. Only the base's `config.json` is read: its architecture picks the
/// row of the architecture table (core/src/arch) that names the tensors and
/// permutes them, as the converter's model class does through LoraTorchTensor:
/// - `<module>.weight` → its GGUF name + `.lora_a` (A as stored) and `.lora_b` (B);
/// - llama's Q/K row permutation reorders the rows of B (A is unchanged);
/// - a fused 2-D tensor the class splits by rows (ERNIE 4.5's qkv_proj /
///   up_gate_proj): B's rows cut, A shared by the parts;
/// - GPT-2's transposed Conv1D weights: lora_a = B^T, lora_b = A^T (the
///   converter's LoraTorchTensor.transpose);
/// - MoE experts: the A's and the B's stacked along a new dim 0 (3-D);
/// - `token_embd` (mergekit's `lora_embedding_A/B`): A transposed;
/// - mergekit's `*_layernorm` / `*.norm*` tensors are written as they are (F32);
///   `.base_layer.weight` tensors are skipped, as are multimodal tensors the
///   architecture drops.
/// Tensor order: the norms in file order, then one pair per module in order of
/// first appearance (safetensors: names sorted). Types: the converter's rules
/// (arch::converter_type) with `.lora_a`/`.lora_b` names — Q8_0 needs a last
/// dimension that is a multiple of 32 (else F16: a rank-8 lora_b is F16).
/// Key/values: general.architecture (the base's), general.type = "adapter",
/// adapter.type = "lora", the general.* block gguf-py's Metadata derives from
/// the ADAPTER folder (its name, README.md, config.json if any; the size label
/// of a LoRA), adapter.lora.alpha (FLOAT32), adapter.alora.invocation_tokens
/// (UINT32 array, when adapter_config.json has `alora_invocation_tokens`),
/// general.quantization_version = 2; no general.file_type, no hparams, no
/// tokenizer.

#include "anamnesis/executor.hpp"
#include "anamnesis/forget_gguf.hpp"

#include <atomic>
#include <string>
#include <vector>

namespace amn {

/// What `amn convert ADAPTER_DIR --to gguf[:TYPE] --base BASE_DIR` asks for;
/// the names are convert_lora_to_gguf.py's options.
struct LoraGgufOptions {
    /// --base: the base model's folder (only its config.json is read).
    std::string base;
    /// --outtype: "f32" (the converter's default), "f16", "bf16", "q8_0"
    /// (case-insensitive). The converter's "auto" fails on adapters
    /// (LoraTorchTensor has no dim()): refused.
    std::string outtype = "f32";
    std::string output;                     ///< --outfile; empty: default_lora_gguf_output_path()
    bool force = false;                     ///< replace an existing output
    unsigned threads = 0;                   ///< 0 = all cores
    std::uint64_t chunk_bytes = 4u << 20;   ///< f32 bytes decoded per work unit (about)
};

/// Whether `path` is a folder holding `adapter_config.json` (a PEFT adapter;
/// `amn convert` sends it here). Reads nothing else; false for files.
bool is_lora_adapter_dir(const std::string& path);

/// Every output tensor (file order) with its type, nothing written
/// (`amn convert --dry-run`); with `files`, the file it would write.
/// \throws as convert_lora_to_gguf(), except the output errors.
std::vector<ForgetTensor> plan_lora_gguf(const std::string& adapter_dir, const LoraGgufOptions& options,
                                         std::vector<GgufOutputFile>* files = nullptr);

/// Convert. Progress counts f32 bytes decoded.
/// \throws Error, one line naming the file (and tensor), nothing written:
///  - Usage: no --base ("adapter_config.json names base_model_name_or_path …":
///    amn does not download it), an unknown or "auto" outtype;
///  - Io: no adapter_config.json, no adapter_model.safetensors/.bin, no
///    config.json in the base folder;
///  - BadJson: adapter_config.json not a JSON object, `lora_alpha` missing or
///    not a number, `alora_invocation_tokens` not a list of token ids;
///  - Unsupported: `peft_type` other than "LORA", `use_dora` true (DoRA's
///    magnitude vectors have no GGUF form), a non-empty `alpha_pattern` (the
///    file holds one alpha), `invocation_string` without
///    `alora_invocation_tokens` (needs the base's tokenizer), the base's
///    architecture outside the table, a tensor that is not lora_A/lora_B
///    (embeddings or lm_head saved whole: modules_to_save / new tokens), a
///    module with no GGUF name, an lm_head adapter the base drops (tied
///    embeddings), a module whose mapping the converter's LoraTorchTensor
///    cannot follow (row regroupings, per-head slices, 3-D expert slices),
///    an embedding LoRA of a row whose embedding the converter cuts to the
///    tokenizer (Gemma 3);
///  - Malformed: a lora_A without its lora_B or the reverse, not 2-D;
///    SizeMismatch: A's rank (rows) differs from B's (columns);
///  - OutputExists, Io, Cancelled from the writer.
GgufWriteResult convert_lora_to_gguf(const std::string& adapter_dir, const LoraGgufOptions& options,
                                     const ProgressFn& progress = {}, const std::atomic<bool>* cancel = nullptr);

/// Default output: beside the adapter folder (never inside it; the converter
/// writes into it), named as the converter names it: gguf-py
/// naming_convention(name, basename, finetune, version, size_label, TYPE,
/// "LoRA") + ".gguf", e.g. "Llama-3-8B-Instruct-chat-LoRA-F16.gguf".
/// \throws as plan_lora_gguf().
std::string default_lora_gguf_output_path(const std::string& adapter_dir, const LoraGgufOptions& options);

}  // namespace amn
