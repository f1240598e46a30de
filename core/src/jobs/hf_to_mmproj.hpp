// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// Internal: the output plan of `convert_hf_to_gguf.py --mmproj` (the vision
// projector GGUF) for a Hugging Face folder — a layout transform of the
// folder's plan driven by the mmproj rows (arch/mmproj_table.hpp), written by
// the one GGUF runner as the text GGUF is (hf_to_gguf.cc dispatches on
// HfGgufOptions::mmproj).
#include "anamnesis/catalog.hpp"
#include "jobs/gguf_output.hpp"

#include <string>
#include <vector>

namespace amn::detail {

/// What the mmproj conversion writes.
struct MmprojPlan {
    GgufOutputPlan plan;
    std::vector<GgufWarning> warnings;
    std::string default_path;  ///< beside the model folder: "mmproj-{naming_convention(…, no size label, TYPE)}.gguf"
};

/// The mmproj plan for `outtype` ("f32", "f16", "bf16", "q8_0", "auto").
/// \throws Error{Usage} for another outtype; Error{Unsupported} naming
///         config.json for a class without an mmproj row or a folder
///         without vision_config (mmproj_row_for_config()); the errors of
///         mmproj_hparams() (a missing key named); Error{Unsupported} naming
///         a kept tensor that has no GGUF name or that anamnesis cannot read.
MmprojPlan mmproj_converter_plan(const Catalog& cat, const std::string& outtype);

/// The default mmproj path only (reads config.json and the preprocessor
/// files, no tensor data); `type` as default_hf_gguf_output_path() takes it.
/// \throws as mmproj_converter_plan().
std::string default_mmproj_path(const Catalog& cat, const std::string& type);

}  // namespace amn::detail
