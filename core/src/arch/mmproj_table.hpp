// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// The vision projector (mmproj) rows of the architecture table: what
// llama.cpp's `convert_hf_to_gguf.py --mmproj` (commit 34af94cd9ab2) writes
// for a multimodal Hugging Face folder, as data plus the class's few rules.
//
// Upstream sources (read, not copied; names carried over as data):
// conversion/base.py MmprojModel (__init__, set_gguf_parameters,
// tensor_force_quant, prepare_metadata), conversion/gemma.py
// Gemma3VisionModel, conversion/qwenvl.py Qwen2VLVisionModel, gguf-py
// constants.py (Keys.Clip*, VisionProjectorType, MODEL_TENSOR.V_*) and
// tensor_mapping.py (the MMPROJ entries these classes use).
//
// Use (hf_to_mmproj.cc):
//   const MmprojRow& row = mmproj_row_for_config(cfg);     // or Error{Unsupported}
//   MmprojHparams hp = mmproj_hparams(row, cfg, dir);        // keys after general.file_type
//   name = mmproj_filter(row, stored name)                   // renamed, or dropped
//   for each kept tensor: mmproj_tensors(row, hp, name, shape) → GGUF tensors
//   with mmproj_type(row, hf name, gguf name, shape, outtype).

#include "anamnesis/dtype.hpp"
#include "anamnesis/metadata.hpp"
#include "arch/arch_table.hpp"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace amn::arch {

/// Which MmprojModel subclass converts the folder.
enum class MmprojRule : std::uint8_t {
    Gemma3,   ///< Gemma3VisionModel: SigLIP tower + Gemma 3 projector (clip.projector_type gemma3)
    Qwen2VL,  ///< Qwen2VLVisionModel: Qwen2-VL / Qwen2.5-VL tower and patch merger
};

/// One HF tensor name template ("visual.blocks.{bid}.attn.q", no suffix) and
/// its GGUF name template ("v.blk.{bid}.attn_q"), from gguf-py's
/// TensorNameMap for MODEL_ARCH.MMPROJ.
struct MmprojName {
    std::string_view hf;
    std::string_view gguf;
};

/// One mmproj row.
struct MmprojRow {
    std::span<const std::string_view> hf_classes;  ///< config.json architectures[0] values
    MmprojRule rule;
    std::span<const MmprojName> names;
};

/// All mmproj rows.
std::span<const MmprojRow> mmproj_rows() noexcept;
/// "Gemma3ForConditionalGeneration, …": every class whose projector is written.
std::string supported_mmproj_architectures();

/// The row for config.json's class (detect_hf_architecture()).
/// \throws Error{Unsupported} naming config.json when the class has no
///         mmproj row ("X has no vision projector amn writes (supported: …)"),
///         or when config.json has no `vision_config` object ("no vision
///         tower"); as detect_hf_architecture().
const MmprojRow& mmproj_row_for_config(const HfConfig& cfg);

/// What set_gguf_parameters and modify_tensors read, and the key/values
/// written after `general.file_type` (clip.has_vision_encoder …
/// clip.vision.attention.layer_norm_epsilon / clip.use_gelu / projector
/// scale factor, in the converter's order and gguf-py's types).
struct MmprojHparams {
    std::uint64_t block_count = 0;  ///< the vision config's n_block_keys value (tensor name map)
    std::vector<MetaKv> kvs;
};

/// MmprojModel.__init__ + the class's set_gguf_parameters for `cfg` (the
/// whole config.json) and `model_dir` (preprocessor_config.json, then
/// processor_config.json's `image_processor`, merged as the converter does).
/// \throws Error{Malformed} naming the file and the key when a key the
///         converter requires is missing or null (the text hidden_size,
///         vision_config's image_size / patch_size / hidden_size /
///         intermediate_size / block count / head count, Qwen2.5-VL's
///         fullatt_block_indexes, preprocessor image_mean / image_std), when
///         fullatt_block_indexes is not evenly spaced, for a Qwen2-VL
///         model_type other than qwen2_vl / qwen2_5_vl; Error{BadJson} naming
///         the key for a value of the wrong type or range; Error{Io} when a
///         present preprocessor file cannot be read.
MmprojHparams mmproj_hparams(const MmprojRow& row, const HfConfig& cfg, const std::string& model_dir);

/// The class's filter_tensors: `hf_name` as the converter keeps it (Gemma 3:
/// "_weight" → ".weight"), or nullopt when it drops the tensor (everything
/// outside the vision tower / projector, `language_model.*`, SigLIP's head).
std::optional<std::string> mmproj_filter(const MmprojRow& row, std::string_view hf_name);

/// One GGUF tensor the class's modify_tensors makes from a kept HF tensor:
/// the whole tensor, or indices [begin, end) of its dimension `slice_dim`
/// (layout_recipes.hpp make_dim_slice_recipe), written with `shape`.
struct MmprojTensor {
    std::string name;                      ///< GGUF name
    std::vector<std::uint64_t> shape;      ///< as written (PyTorch order)
    std::optional<std::size_t> slice_dim;  ///< the sliced dimension of the stored shape, or none
    std::uint64_t begin = 0, end = 0;      ///< with slice_dim
    bool add_one = false;                  ///< Gemma 3's soft_emb_norm: data + 1
};

/// modify_tensors for `name` (as mmproj_filter() gives it), `shape` as stored:
/// Qwen2-VL's fused `attn.qkv` split in thirds (q, k, v), its Conv3D patch
/// embedding [C, 3, 2, kh, kw] split into `v.patch_embd.weight` and
/// `.weight.1` (temporal slices 0 and 1); Gemma 3's soft_emb_norm + 1; else
/// the one renamed tensor.
/// \throws Error{Unsupported} "cannot map tensor" naming it when the name map
///         has no entry (a block id ≥ block_count included); Error{Malformed}
///         naming it when qkv rows are not a multiple of 3 or the temporal
///         patch size is not 2 (the converter's asserts).
std::vector<MmprojTensor> mmproj_tensors(const MmprojRow& row, const MmprojHparams& hp, std::string_view name,
                                         std::span<const std::uint64_t> shape);

/// prepare_tensors' type rule with the class's tensor_force_quant: Gemma 3's
/// `input_projection` F16 and `.embeddings.` F32; the patch embedding (and
/// `.weight.1`) F16 for an F16 file, else F32; the position embedding F32;
/// then 1-D and "_norm.weight" F32, names not ending ".weight" F32, the
/// outtype with Q8_0's F16 fallback when the row length is not a multiple of 32.
/// `hf_name` is the name as filtered, `gguf_name` the written one.
DType mmproj_type(const MmprojRow& row, std::string_view hf_name, std::string_view gguf_name,
                  std::span<const std::uint64_t> shape, DType outtype);

}  // namespace amn::arch
