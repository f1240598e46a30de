// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
/// \file remember.hpp
/// The Executor and the safetensors Sink: run a Plan on all cores and write
/// the result. Work is split into row chunks of a few MiB; each worker
/// thread owns one chunk buffer, so memory stays bounded whatever the model
/// size. Output goes through the safetensors sink of the output set
/// (shards, index.json, config.json, tokenizer files): temporary files in
/// the target folder (a new folder under a temporary name), all renamed
/// together only when everything is written: a failure or cancel leaves
/// nothing behind, files replaced with `force` are restored, and the input
/// is never touched.

#include "anamnesis/catalog.hpp"
#include "anamnesis/dtype.hpp"
#include "anamnesis/executor.hpp"
#include "anamnesis/hf_layout.hpp"
#include "anamnesis/output_paths.hpp"
#include "anamnesis/plan.hpp"

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace amn {

struct RememberOptions {
    /// Float dtype for dequantized tensors (BF16, F16 or F32). When unset,
    /// dequantized tensors become BF16 (or the dtype the scheme's library
    /// returns, `Recipe::result_dtype()`: MLX affine layers keep their
    /// scales' dtype) and float passthrough tensors keep
    /// their stored dtype (lossless). When set, it applies to every floating
    /// tensor; integer and bool tensors are always copied unchanged.
    std::optional<DType> to;
    /// Output path. Ends in ".safetensors": that file (sharded input →
    /// `<stem>-0000i-of-0000N.safetensors` + `<stem>.safetensors.index.json`
    /// beside it). Otherwise a directory, created when missing (under a
    /// hidden temporary name, renamed at the end), holding the
    /// output shards under the input's shard names plus `config.json`.
    /// Empty: derived by `default_output_path`.
    std::string output;
    bool force = false;        ///< replace existing output files
    unsigned threads = 0;      ///< 0 = std::thread::hardware_concurrency()
    std::uint64_t chunk_bytes = 4u << 20;  ///< target output bytes per work unit
    /// config.json text to write beside the output instead of the catalog's
    /// (e.g. `to_hf_layout`'s for a GGUF input); `torch_dtype` is set to the
    /// output dtype as for the catalog's. Written in both output modes (a
    /// `.safetensors` file: into its folder).
    std::optional<std::string> config_json;
    /// More files for the output folder, (file name, text), written with the
    /// tensors as one set (all or none; `to_hf_layout`'s tokenizer and
    /// generation files). In both output modes (a `.safetensors` file: into its
    /// folder). They replace files of the same name that would be copied
    /// from beside the input; an existing one is an OutputExists error unless `force`.
    std::vector<std::pair<std::string, std::string>> side_files;
    /// Write `side_files` alone into the output folder (HfLayout::vocab_only:
    /// a vocab-only GGUF's tokenizer files): no safetensors, index.json or
    /// config.json. The plan must have no tensors; `output` must be a folder.
    bool side_files_only = false;
};

struct RememberResult {
    std::vector<std::string> files;   ///< every file written (shards, index, config.json)
    std::uint64_t tensor_bytes = 0;   ///< tensor data bytes written
    std::size_t tensors = 0;          ///< tensors written
};

/// What `remember --layout hf` (and the wizard's Hugging Face target) writes
/// beside `hf.plan`'s tensors: `hf`'s config.json and side files into `opt`
/// (config_json, side_files), or for a vocab-only GGUF the side files alone
/// (side_files_only, no config.json).
void apply_hf_layout(const HfLayout& hf, RememberOptions& opt);

/// Execute `plan` and write safetensors.
/// \throws Error{Unsupported} naming the first logical tensor with an error
///         (checked before anything is written);
///         Error{OutputExists} when an output file exists and !force;
///         Error{Usage} with `side_files_only` when the plan has tensors or
///         the output names a `.safetensors` file;
///         Error{Io} when the target folder is not writable, has less free
///         space than the output needs (checked before writing), or a write fails;
///         Error{Malformed} when a Catalog::integrity_checks range fails its
///         CRC-32 (checked first, before any file is created);
///         Error{Cancelled} when `cancel` became true (checked per chunk);
///         any Error a recipe raises. In every case no output file remains
///         (temporary files removed) and existing files are unchanged.
RememberResult remember_to_safetensors(const Catalog& catalog, const Plan& plan,
                                     const RememberOptions& options,
                                     const ProgressFn& progress = {},
                                     const std::atomic<bool>* cancel = nullptr);

/// True when `catalog` is an MLX (mlx-lm) folder: safetensors whose
/// `__metadata__` says `"format": "mlx"` (what mlx-lm's save_model writes,
/// quantized or not), or whose plan holds MLX-quantized tensors.
bool is_mlx_folder(const Catalog& catalog, const Plan& plan);

/// `amn remember MLX_DIR --layout hf`: `plan` of an MLX folder in the
/// Hugging Face layout mlx-lm's `sanitize` came from (mlx-lm d78bf58e): every
/// stacked expert weight `model.layers.L.<moe>.switch_mlp.<proj>.weight`
/// [E, out, in] (quantized or not) split into E tensors [out, in] named as the
/// model type's transformers class names them — mixtral
/// `block_sparse_moe.experts.N.{w1,w2,w3}.weight` (gate, down, up),
/// qwen2_moe / qwen3_moe `mlp.experts.N.{gate,up,down}_proj.weight` — each a
/// row range of the stack (one expert read at a time: a plain stored dtype
/// stays as stored, a quantized one dequantizes as mx.dequantize does).
/// Every other tensor, and every tensor of another model_type, as in `plan`.
/// Write it with remember_to_safetensors (config.json without quantization).
/// \throws Error{Usage} when !is_mlx_folder(catalog, plan);
///         Error{BadJson} when its config.json is not a JSON object.
Plan mlx_hf_layout(const Catalog& catalog, const Plan& plan);

/// How rewrite_config_json lays its text out.
enum class ConfigStyle {
    AsInput,  ///< the input's key order, each value's JSON text as written, 2-space indent
    MlxLm,    ///< mlx-lm's save_config (an MLX folder's own): keys sorted, Python's json.dump(indent=4)
};

/// `config.json` text for the output: `quantization_config`,
/// `compression_config` and an object-valued `quantization` (MLX's) removed,
/// `torch_dtype` (and `dtype`) set in place to the output dtype name
/// ("bfloat16", "float16", "float32"), or `torch_dtype` added last when the
/// input has neither; other keys kept. `style` MlxLm is what
/// `mlx_lm.convert --dequantize` writes for the same config (mlx-lm d78bf58e
/// utils.py save_config; it keeps torch_dtype as it was, amn names the dtype
/// it wrote). \throws Error{BadJson} when `config_json` is not a JSON object.
std::string rewrite_config_json(const std::string& config_json, DType out_dtype,
                                ConfigStyle style = ConfigStyle::AsInput);

}  // namespace amn
