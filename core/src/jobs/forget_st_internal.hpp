// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// Internal: small helpers shared by forget_st.cc (the pipeline),
// forget_st_select.cc (which tensors are quantized),
// forget_st_input.cc (what is read, config.json) and the scheme rows
// (forget_st_rows.hpp).

#include "anamnesis/catalog.hpp"
#include "anamnesis/forget_st.hpp"
#include "anamnesis/hf_layout.hpp"
#include "util/ascii_lower.hpp"

#include <cstdint>
#include <optional>
#include <regex>
#include <string>
#include <vector>

namespace amn::forget_st_internal {

/// What forget to safetensors reads. A GGUF model is read in the Hugging
/// Face layout (amn::to_hf_layout: HF tensor names, llama.cpp's Q/K row
/// permutation undone, Gemma norms shifted back, config.json from the GGUF
/// metadata with torch_dtype = the largest float dtype among the tensors
/// that are not quantized, BF16 when there is none) — what transformers and
/// vLLM load, as `amn remember --layout hf` writes it. Any other input is
/// read as it is. `cat` and `plan` must outlive this.
/// \throws what to_hf_layout throws for a GGUF input (Error{Unsupported}
///         naming an architecture or a tensor without HF name,
///         Error{Malformed} for missing hyperparameters).
class StInput {
public:
    StInput(const Catalog& cat, const Plan& plan);
    /// The plan to quantize: `plan`, or its HF-layout form for GGUF.
    const Plan& plan() const noexcept { return hf_ ? hf_->plan : plan_; }
    /// The config.json text to extend: the input's, or the HF one for GGUF.
    const std::optional<std::string>& config_json() const noexcept { return hf_ ? hf_config_ : cat_.config_json; }
    /// GGUF input: the tokenizer and generation files of the HF layout (HfLayout::side_files); else none.
    std::vector<std::pair<std::string, std::string>> side_files() const { return hf_ ? hf_->side_files : decltype(hf_->side_files){}; }
    /// GGUF input: why no tokenizer was written (HfLayout::warnings); else none.
    std::vector<Notice> warnings() const { return hf_ ? hf_->warnings : std::vector<Notice>{}; }

private:
    const Catalog& cat_;
    const Plan& plan_;
    std::optional<HfLayout> hf_;
    std::optional<std::string> hf_config_;
};

/// The input's config.json (if any) with `quantization_config` = `qc` (raw
/// JSON) in place of any quantization_config / compression_config it had;
/// other keys keep their order and text. \throws Error on invalid JSON.
std::string config_with(const std::optional<std::string>& config_json, const std::string& qc);

/// The input's config.json as mlx-lm (d78bf58e) writes it after
/// `quantize_model`: every key of the input (json.load: a repeated key's last
/// value) but `_name_or_path` and `vision_config` (save_config l.956-957);
/// `eos_token_id` taken from `generation_config` (its text, when given) when
/// that file sets a truthy one (load_config l.277-293); `quantization` and
/// `quantization_config` = `qc` (raw JSON); top-level keys sorted,
/// json.dump(indent=4), no trailing newline (util/py_json.hpp).
/// \throws Error{BadJson} on invalid JSON.
std::string mlx_config_with(const std::optional<std::string>& config_json, const std::string& qc,
                            const std::optional<std::string>& generation_config = std::nullopt);

/// "a.b.c.weight" → "a.b.c" (a name without ".weight" as it is).
std::string module_of(const std::string& name);

/// True when config.json names a model type built on transformers' Conv1D
/// (GPT-2, OpenAI GPT, ImageGPT, Decision Transformer): its c_attn, c_proj,
/// c_fc, q_attn weights are stored transposed, [in, out].
bool is_conv1d_model(const std::optional<std::string>& config_json);

/// The fate of one logical tensor.
struct Choice {
    bool quantize = false;
    bool linear = false;  ///< a kept 2-D Linear weight (compressed-tensors `ignore`)
    StRule rule = StRule::Quantized;  ///< why kept (Quantized when `quantize`)
};

/// Quantize `lt` or keep it: the Linear weights of the transformer blocks
/// (names with layers.N. / blocks.N. / h.N.), 2-D float `*.weight`;
/// embeddings, norms, lm_head/output, routers, non-block weights, 1-D and
/// fused 3-D expert tensors kept — the libraries' default `ignore`.
/// `only` (non-empty) replaces the default choice, `keep` always wins.
/// \throws Error{Unsupported} for a GPT-2 Conv1D weight chosen for a
///         bitsandbytes scheme (`bnb`; transformers transposes it first).
Choice classify(const LogicalTensor& lt, bool is_float, const std::vector<std::regex>& only,
                const std::vector<std::regex>& keep, bool bnb, bool conv1d_model);

/// MLX (mlx-lm `quantize_model`'s predicate): quantize every 2-D float
/// `*.weight` of a Linear or Embedding — lm_head, embeddings and routers
/// included — whose rows `group_size` divides, and the 3-D stacked experts
/// of a SwitchLinear (`*.switch_mlp.*.weight`, [E, out, in]: rows of `in`)
/// and of mla.py's MultiLinear (`*.self_attn.embed_q.weight` /
/// `*.self_attn.unembed_out.weight`, [heads, out, in]);
/// norms (1-D), biases and anything else kept. `only` / `keep` as classify().
Choice classify_mlx(const LogicalTensor& lt, bool is_float, const std::vector<std::regex>& only,
                    const std::vector<std::regex>& keep, std::uint64_t group_size);


/// One stored tensor of a quantized weight.
struct OutSpec {
    std::string name;
    DType dtype;
    std::vector<std::uint64_t> shape;
    bool tail = false;  ///< bitsandbytes quant_state (length known after quantizing)
};

/// The stored tensors of an R×C weight `weight_name` ("….weight") stored as
/// `wdtype`, quantized to `s`: payload first, then the companions in the
/// library's order and under its names (weight.absmax, weight.quant_map,
/// weight.nested_*, weight.quant_state.bitsandbytes__nf4|fp4; SCB,
/// weight_format; weight_scale; weight_scale_inv; weight_packed,
/// weight_scale, weight_zero_point, weight_shape).
std::vector<OutSpec> out_specs(const QuantParams& s, const std::string& weight_name, std::uint64_t R, std::uint64_t C,
                               DType wdtype);

}  // namespace amn::forget_st_internal
