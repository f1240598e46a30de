// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// Internal: the one table of forget's safetensors schemes. Every scheme
// `amn forget --to` writes is one row: the names it answers to, the options
// it takes, the scheme facts row (schemes/facts.cc) whose detector reads its
// output back, and its functions — the typed scheme from the options, its
// label and output-name tag, its quantization_config, the stored tensors of
// one weight and its encoder object (a WeightEncoder, forget_st_encoder.hpp).
// Everything that differs between schemes goes through the row: nothing
// outside a scheme's own file switches on the scheme type.
//
// A scheme is a QuantParams value (the read side's type); a row says which
// values it writes (`writes`).
//
// Adding a scheme = one row in forget_st_rows.cc, one file
// forget_st_<scheme>.cc with the row's functions and its WeightEncoder
// (+ its parameters in quant_params.hpp when the read side has no
// alternative for it yet).

#include "anamnesis/forget_st.hpp"
#include "anamnesis/json_writer.hpp"
#include "jobs/forget_st_internal.hpp"
#include "jobs/forget_st_encoder.hpp"
#include "plan/quant_groups.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace amn::forget_st_internal {

/// Which tensors a scheme quantizes.
enum class Selection : std::uint8_t {
    /// transformers / llm-compressor: the 2-D Linear weights of the blocks
    /// (embeddings, lm_head, norms, routers kept: classify()).
    BlockLinears,
    /// mlx-lm `quantize_model`: every Linear and Embedding weight (lm_head,
    /// embeddings and routers included) whose rows the group size divides
    /// (classify_mlx()).
    MlxLm,
};

/// The folder a scheme writes.
enum class OutputLayout : std::uint8_t {
    /// transformers: `format: pt` metadata, config.json with the input's keys
    /// in order and `quantization_config` (config_with()).
    Transformers,
    /// mlx-lm `save_model` / `save_config`: `format: mlx` metadata, config.json
    /// with `quantization` and `quantization_config`, keys sorted, as Python's
    /// json.dump(indent=4) writes it (mlx_config_with()).
    MlxLm,
};

struct StSchemeRow {
    /// The `amn forget --to` names of the scheme, in help order ("bnb-nf4", "bnb-fp4").
    std::vector<std::string_view> names;
    /// Its row in the scheme facts table (schemes/facts.hpp): the detector
    /// that reads the output back, the roles of the companions written.
    std::string_view facts_family;
    /// The StSchemeOptions it takes; any other one given is refused
    /// ("--group-size does not apply to bnb-nf4").
    bool takes_blocksize = false, takes_double_quant = false, takes_granularity = false, takes_ue8m0 = false,
         takes_group_size = false;
    /// transformers' bitsandbytes path: a GPT-2 Conv1D weight is refused (classify()).
    bool bitsandbytes = false;
    /// compressed-tensors: quantization_config lists the kept Linear modules (`ignore`).
    bool lists_ignore = false;
    Selection selection = Selection::BlockLinears;
    OutputLayout layout = OutputLayout::Transformers;

    /// True when this row writes `scheme` (its alternative and the fields
    /// that pick the row: packing, scale naming, FP8 format and block).
    bool (*writes)(const QuantParams& scheme) = nullptr;
    /// The scheme of `name` (one of `names`) and its options, unchecked.
    QuantParams (*parse)(std::string_view name, const StSchemeOptions& options) = nullptr;
    /// Empty when the values of a scheme the row writes are valid; else why
    /// not (an Error{Usage} text, in parse_st_scheme's words). Null: always valid.
    std::string (*refuse)(const QuantParams& scheme) = nullptr;
    /// See st_weight_params(): the parameters the read side detects for an
    /// R×C weight of `wdtype` written with `scheme`.
    QuantParams (*weight_params)(const QuantParams& scheme, std::uint64_t R, std::uint64_t C, DType wdtype) = nullptr;
    /// See st_scheme_label(): "bnb-nf4 (blocksize 64, double quant)".
    std::string (*label)(const QuantParams& scheme) = nullptr;
    /// The tag of default output names (default_st_output_path): "fp8-dynamic".
    std::string (*output_tag)(const QuantParams& scheme) = nullptr;
    /// The members of the library's quantization_config (`ignore` aside).
    void (*config)(const QuantParams& scheme, JsonWriter& w) = nullptr;
    /// The stored tensors of an R×C weight under `prefix` ("….q_proj."), see out_specs().
    std::vector<OutSpec> (*outputs)(const QuantParams& scheme, const std::string& prefix, std::uint64_t R, std::uint64_t C,
                                   DType wdtype) = nullptr;
    /// Empty when a weight with rows of C columns can take the scheme; else
    /// why not (an Error{Usage} text). Null: every weight can.
    std::string (*refuse_row)(const QuantParams& scheme, std::uint64_t C) = nullptr;
    /// OutputLayout::MlxLm: a key whose byte order is the order of the
    /// tensor in mlx-lm's module tree (`tree_flatten(model.parameters())`),
    /// which decides the shards and MLX's data order; it depends on config.json's
    /// model_type (forget_st_mlx_tree.hpp).
    std::string (*tree_order_key)(const std::string& model_type, const std::string& tensor_name) = nullptr;
    /// The encoder of one weight (see weight_encoder()).
    std::unique_ptr<WeightEncoder> (*encoder)(const QuantParams& scheme, const QuantWeight& weight) = nullptr;
    /// A weight whose input codes and group scales (Recipe::quant_groups())
    /// the scheme stores as they are, with nothing rounded (MLX: MLX or GGUF
    /// Q4_0 … codes of the same kind, width and group size): the dtype its
    /// scales are written in; nullopt with `why` set when they do not fit.
    /// Null: the scheme repacks nothing.
    std::optional<DType> (*repack_fits)(const QuantParams& scheme, const detail::QuantGroups& groups, Repack& why) = nullptr;
    /// The encoder of such a weight: its rows read from `groups` (no decode),
    /// its scales written in `scale_dtype`.
    std::unique_ptr<exec::SchemeEncoder> (*repack_encoder)(const QuantParams& scheme,
                                                           std::shared_ptr<const detail::QuantGroups> groups,
                                                           DType scale_dtype) = nullptr;
};

/// Every row, in help order.
const std::vector<const StSchemeRow*>& st_scheme_rows();
/// The row that writes `scheme`, its values checked.
/// \throws as check_st_scheme().
const StSchemeRow& st_scheme_row(const QuantParams& scheme);

}  // namespace amn::forget_st_internal
