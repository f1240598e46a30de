// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// Internal: small helpers shared by forget_st.cc (the pipeline) and
// forget_st_schemes.cc (scheme parsing, names, labels, quantization_config).

#include "anamnesis/catalog.hpp"
#include "anamnesis/hf_layout.hpp"

#include <optional>
#include <string>

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

template <class... Ts>
struct overloaded : Ts... {
    using Ts::operator()...;
};
template <class... Ts>
overloaded(Ts...) -> overloaded<Ts...>;

}  // namespace amn::forget_st_internal
