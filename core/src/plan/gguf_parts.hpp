// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// Internal: where llama.cpp's tools cut a GGUF into parts, what they name
// the parts and which key/values each part gets (the table of
// anamnesis/gguf_split.hpp). Plain data in, plain data out: the GGUF output
// plan (sink/gguf_output.hpp) holds the result, a GgufSet writes it.
#include "anamnesis/gguf_split_options.hpp"
#include "anamnesis/metadata.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace amn::detail {

/// Whose rules cut the file.
enum class GgufPartRule : std::uint8_t {
    Converter,  ///< convert_hf_to_gguf.py (gguf-py GGUFWriter)
    GgufSplit,  ///< llama-gguf-split --split
    KeepSplit,  ///< llama-quantize --keep-split
};

/// One output file: its path, its key/values in file order, and how many of
/// the plan's tensors it takes (part 1 the first `tensors`, part 2 the next …).
struct GgufPart {
    std::string path;
    std::vector<MetaKv> kvs;
    std::size_t tensors = 0;
};

/// What the cut needs of each output tensor, in file order.
struct GgufPartTensor {
    std::string name;             ///< for errors
    std::uint64_t bytes = 0;      ///< its bytes in the output type (unpadded)
    std::uint32_t input_part = 0; ///< KeepSplit: the input part it comes from
};

/// Cut an output of `tensors` (in file order) with key/values `kvs` by
/// `rule`. `output`: the converter's output file path; for GgufSplit and
/// KeepSplit the prefix of the part names (a trailing ".gguf" is dropped,
/// as llama-quantize does). `input_parts`: KeepSplit only, the input's part count.
/// Returns the parts; one part without split keys when the converter's
/// rules make only one (then `*one_part`, when given, is set: the converter
/// logs "Model fails split requirements, not splitting").
/// \throws Error{Usage} when GgufSplit would make an empty part (a tensor
///         larger than max_bytes: "one of splits have 0 tensors"), or
///         KeepSplit an input part without tensors after the first (which
///         llama-quantize never opens); Error{Usage} for a split count or
///         tensor count above what the keys hold (u16 / i32).
std::vector<GgufPart> cut_gguf_parts(GgufPartRule rule, const GgufSplitOptions& options, const std::vector<MetaKv>& kvs,
                                     const std::vector<GgufPartTensor>& tensors, const std::string& output,
                                     std::uint32_t input_parts, bool* one_part = nullptr);

/// The prefix of the part names for `output` (GgufSplit, KeepSplit): `output` less a trailing ".gguf".
std::string gguf_part_prefix(const std::string& output);

}  // namespace amn::detail
