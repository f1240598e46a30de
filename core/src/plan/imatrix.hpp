// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
/// \file imatrix.hpp
/// Importance matrices written by llama.cpp's `llama-imatrix`, read the way
/// `llama-quantize --imatrix` reads them, for quantization with an
/// importance matrix (kernels: gguf_quantize.hpp `imatrix_encoder`).
///
/// Two formats, told apart by the GGUF magic:
/// - **GGUF** (current): per weight tensor NAME, an F32 tensor
///   `NAME.in_sum2` (sums of squared activations, n_per_row values per
///   matrix; 3-D expert tensors have one row of them per expert) and an F32
///   tensor `NAME.counts` (one count per matrix); `NAME.in_sum` (plain
///   sums) may be present and is not used. Metadata: `imatrix.datasets`
///   (array of strings), `imatrix.chunk_count`, `imatrix.chunk_size` (u32).
///   Weight = in_sum2 / count, an f32 division; a matrix whose count is not
///   positive gets weights 1 (it never saw input).
/// - **Legacy `.dat`** (little-endian): i32 entry count ≥ 1; per entry i32
///   name length, the name bytes, i32 ncall, i32 nval ≥ 1, nval f32 values;
///   then optionally i32 chunk count, i32 dataset name length, the name.
///   Weight = value / ncall (f32) when ncall > 0, else the value.
///
/// The weights of one tensor go unchanged to ggml_quantize_chunk for every
/// row of that tensor (for an expert tensor: expert e uses the n_per_row
/// weights starting at e × n_per_row).

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace amn {

struct Imatrix {
    /// Weight tensor name (e.g. "blk.0.attn_q.weight") → importance weights,
    /// n_per_row per matrix, matrices one after another.
    std::map<std::string, std::vector<float>> weights;
    /// Per name, the number of matrices (experts) its weights cover (1 for a
    /// 2-D weight); weights[name].size() / matrices[name] is n_per_row.
    std::map<std::string, std::uint32_t> matrices;
    std::vector<std::string> datasets;  ///< calibration files named by the imatrix
    std::uint32_t chunk_count = 0;      ///< chunks the statistics were collected over (0 = unknown)
    std::uint32_t chunk_size = 0;       ///< tokens per chunk (GGUF only; 0 = unknown)
    bool legacy = false;                ///< read from the legacy `.dat` format

    /// The weights of tensor `name`, or nullptr when the imatrix has none
    /// (llama-quantize then quantizes that tensor without one).
    const std::vector<float>* find(const std::string& name) const noexcept {
        const auto it = weights.find(name);
        return it == weights.end() ? nullptr : &it->second;
    }
};

/// Read the importance matrix at `path` (GGUF or legacy format).
/// \throws Error{Io} when the file cannot be read;
///         Error{Truncated} when a legacy file ends inside an entry;
///         Error{Malformed} for a legacy entry count < 1 or value count < 1,
///         a negative name length, a GGUF imatrix without any entry, an
///         entry with `in_sum2` but no `counts` (or the reverse), or a
///         non-positive-integer matrix count (in_sum2 size not a multiple of
///         the counts size);
///         Error{Unsupported} for sums or counts stored in a type other than
///         F32 or a big-endian GGUF imatrix;
///         GGUF parse errors as open_gguf() raises them.
///         Every error names the file and, where there is one, the entry.
Imatrix read_imatrix(const std::string& path);

}  // namespace amn
