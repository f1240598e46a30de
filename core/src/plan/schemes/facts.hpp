// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// Internal: the one table of scheme facts. Every quantization scheme family
// the core knows (dequantizes, or only recognises to refuse) is one row:
// its detector, the `quant_method` values of config.json that name it, the
// suffixes of its companion tensors and their roles, and the words that
// mark it in file names and `__metadata__` keys. Detection order, companion
// roles, "cannot dequantize" errors, output file names and the metadata
// written beside a dequantized output are all read from here.
//
// Adding a scheme = one file in core/src/plan/schemes/ (detector, recipe, the
// id()/describe() of its parameter struct) + one row in facts.cc (see
// scheme.hpp for the parameter side).

#include "anamnesis/plan.hpp"

#include <optional>
#include <string_view>
#include <vector>

namespace amn::detail {

class PlanBuilder;

struct CompanionFact {
    enum class Match : std::uint8_t { Suffix, Infix };
    std::string_view pattern;  ///< name ending ("_scale_inv", ".qzeros"), or infix (".quant_state.")
    CompanionRole role;        ///< what a tensor matched by `pattern` is for (None: only a marker)
    /// Non-empty: an unclaimed tensor matched by `pattern` surely belongs to
    /// this family; what the "cannot dequantize" error calls it.
    std::string_view orphan;
    Match match = Match::Suffix;
};

struct SchemeFacts {
    std::string_view family;                 ///< "gguf", "compressed-tensors", "modelopt", "mxfp4", "fp8", "gptq", …
    void (*detect)(PlanBuilder&) = nullptr;  ///< run by make_plan in table order; nullptr: recognised only
    std::vector<std::string_view> quant_methods;     ///< config.json quantization_config.quant_method values (lower case)
    std::vector<CompanionFact> companions;           ///< stored tensors next to the payload
    std::vector<std::string_view> file_tokens;       ///< file-name tokens meaning "quantized with this" (lower case)
    std::vector<std::string_view> metadata_markers;  ///< substrings of lower-case `__metadata__` keys describing it
};

/// All rows, in detection order.
const std::vector<SchemeFacts>& scheme_facts();
/// The row of `family`. \throws std::out_of_range for an unknown family (a programming error).
const SchemeFacts& scheme_facts(std::string_view family);

/// True when `method` (any case) is one of `family`'s quant_method values.
bool quant_method_is(std::string_view method, std::string_view family);
/// Role of a companion tensor named `name`: the longest matching suffix of any row.
CompanionRole companion_role_of(std::string_view name);
/// The family label of an unclaimed tensor that surely belongs to a
/// quantization scheme ("GPTQ/AWQ zero points"); nullopt otherwise.
std::optional<std::string_view> orphan_label(std::string_view name);
/// An output file-name token (lower case) naming a quantization or a float
/// dtype ("fp8", "int4", "q4_k_m", "bf16"): stripped from output names.
bool is_quant_file_token(std::string_view lower_token);
/// A lower-case `__metadata__` key that describes the quantization
/// (`gptq_bits`, `quant_method`, …): false of a dequantized output.
bool describes_quantization_key(std::string_view lower_key);

}  // namespace amn::detail
