// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// Internal to Hugging Face folder → GGUF (hf_to_gguf.cc): what becomes of the
// folder before types and key/values, and the steps that fill it besides
// the plan walk — the FP4 repacks the converter writes before every other
// tensor (NVFP4 linears, gpt-oss MXFP4 experts).
#include "anamnesis/catalog.hpp"
#include "anamnesis/plan.hpp"
#include "arch/arch_table.hpp"
#include "jobs/gguf_output.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace amn::detail {

/// What becomes of the folder, before types and key/values.
struct HfModel {
    const arch::ArchRow* row = nullptr;
    std::unique_ptr<arch::HfConfig> cfg;
    std::string dir;
    arch::GeneratedExtras extras;
    struct Tensor {
        std::string name;                   // GGUF name
        std::string hf;                     // the (first) Hugging Face tensor it is made of
        std::vector<std::uint64_t> shape;   // row-major
        std::shared_ptr<const Recipe> recipe;
        const TensorInfo* stored = nullptr; // a plain stored tensor, unchanged (no transform)
        std::shared_ptr<const RawRows> raw; // bytes made directly in GGUF NVFP4 / MXFP4 (repacked)
        DType raw_type = DType::NVFP4;      // the GGUF type of `raw`
        bool quantized = false;
        std::uint64_t rows_in_file = 0;     // rows before a row slice (Gemma 3's embedding), else 0
    };
    std::vector<Tensor> tensors;            // converter order, generated first
    std::optional<DType> half;              // first_half_float()
    bool nvfp4 = false;                     // NVFP4 weights repacked: general.file_type MOSTLY_NVFP4
    bool mxfp4 = false;                     // gpt-oss MXFP4 experts repacked: MOSTLY_MXFP4_MOE
    std::vector<std::string> warnings;
};

/// index_tensors' order: shard files sorted by name; within a safetensors
/// file sorted by tensor name (gguf-py's SafetensorsLocal), within a PyTorch
/// file in the pickled state dict's order (torch.load's dict) — the catalog's.
/// Returns indices into `refs` (one per catalog tensor or a subset).
std::vector<std::size_t> index_order(const Catalog& cat, const std::vector<arch::HfTensorRef>& refs);

/// find_hparam(keys) as an integer: (the key found, its value); nullopt when
/// none is present or the value is not an integer (the hparams reader names that).
std::optional<std::pair<std::string, std::int64_t>> config_int(const arch::HfConfig& cfg,
                                                              std::initializer_list<std::string_view> keys);

/// `_generate_nvfp4_tensors`: every NVFP4 linear of `plan` repacked into
/// `m.tensors` (each followed by its `.scale` / `.input_scale` unless within
/// 1e-6 of 1), marked in `done`; sets m.nvfp4.
/// \throws Error{Unsupported} for NVFP4 MoE experts, rows not a multiple of 64
///         values, names the architecture cannot map.
void repack_nvfp4(const Catalog& cat, const Plan& plan, HfModel& m, std::vector<bool>& done);

/// GptOssModel.generate_extra_tensors for `quant_method: "mxfp4"` (gpt-oss rows
/// only): in index order each `…down_proj_scales` repacked with the last
/// `…down_proj_blocks` seen, each `…gate_up_proj_scales` into gate (even rows)
/// and up (odd rows) with the last `…gate_up_proj_blocks`, as GGUF MXFP4; the
/// MXFP4 modules of `plan` marked in `done` (dequant_model is skipped); sets m.mxfp4.
/// \throws Error{Malformed} naming the tensor for scales without blocks before
///         them or mismatched shapes; Error{Unsupported} for unmappable names.
void repack_mxfp4(const Catalog& cat, const Plan& plan, HfModel& m, std::vector<bool>& done);

}  // namespace amn::detail
