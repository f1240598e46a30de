// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
/// \file npy_writer.hpp
/// One dequantized tensor as a NumPy `.npy` file, and the first values of a
/// tensor for a preview. Format: NPY version 1.0 as `numpy.lib.format`
/// writes it (`numpy.save`): the magic `\x93NUMPY`, version bytes 1 0, a
/// little-endian uint16 header length, then an ASCII dict
/// `{'descr': '<f4', 'fortran_order': False, 'shape': (R, C), }` padded with
/// spaces and a final `\n` so that the data starts at a multiple of 64
/// bytes; then the values, C order (row-major), little-endian.

#include "anamnesis/catalog.hpp"
#include "anamnesis/dtype.hpp"
#include "anamnesis/plan.hpp"
#include "anamnesis/executor.hpp"

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

namespace amn {

/// The NPY v1.0 header (magic to the final `\n`, a multiple of 64 bytes)
/// for a C-order array of `shape` (row-major; empty = a 0-d array) and
/// `dtype`: F32 → `'<f4'`, F16 → `'<f2'`.
/// \throws Error{Usage} for any other dtype (BF16 has no NumPy dtype) or a
///         header longer than version 1.0 allows (65 535 bytes).
std::string npy_header(const std::vector<std::uint64_t>& shape, DType dtype);

/// Result of `write_npy`.
struct NpyWriteResult {
    std::string path;        ///< the file written (as given)
    std::uint64_t bytes = 0; ///< file size in bytes (header + data)
};

/// Write logical tensor `tensor` of `cat`, dequantized (`Recipe::dequantize_rows`,
/// f32), as NPY v1.0 at `path` with its output shape (`LogicalTensor::shape`)
/// and `dtype` F32 (the values as decoded) or F16 (rounded to nearest even,
/// overflow to ±inf, as `numpy.ndarray.astype(numpy.float16)`).
/// Streams row chunks of about `chunk_elems` elements (memory: one chunk)
/// into a temporary file beside `path` that is renamed into place only when
/// complete: a failure or a cancel leaves no file, and the input is never
/// touched. Progress: (rows done, rows) of the recipe's 2-D view.
/// \param force  replace an existing `path`.
/// \param cancel checked before every chunk.
/// \throws Error{Usage} when `dtype` is not F32/F16 or `path` is one of
///         `cat`'s input files (refused even with force);
///         Error{Unsupported} when the tensor has no recipe;
///         Error{OutputExists} when `path` exists and !force; Error{Io};
///         Error{Cancelled}; any Error the recipe raises.
NpyWriteResult write_npy(const Catalog& cat, const LogicalTensor& tensor, const std::string& path, DType dtype,
                         bool force = false, const ProgressFn& progress = {},
                         const std::atomic<bool>* cancel = nullptr, std::uint64_t chunk_elems = 1u << 20);

/// The top-left corner of a tensor's dequantized values, for a preview.
struct ValuePreview {
    std::uint64_t rows = 0;     ///< rows shown: min(max_rows, total_rows)
    std::uint64_t cols = 0;     ///< columns shown: min(max_cols, total_cols)
    /// The tensor viewed as 2-D: columns = its last dimension, rows = the
    /// product of the others (a 1-D tensor is one row), row-major — numpy's
    /// `a.reshape(-1, a.shape[-1])`.
    std::uint64_t total_rows = 0, total_cols = 0;
    std::vector<float> values;  ///< rows × cols f32, row-major
};

/// The first `max_rows` × `max_cols` values of `tensor` in the 2-D view
/// above (numpy: `a.reshape(-1, a.shape[-1])[:max_rows, :max_cols]`), as
/// `Recipe::dequantize_rows` decodes them. Decodes only the recipe rows
/// that hold them (rounded up to the recipe's row granularity).
/// \throws Error{Unsupported} when the tensor has no recipe; recipe errors.
ValuePreview preview_values(const LogicalTensor& tensor, std::uint64_t max_rows, std::uint64_t max_cols);

/// The input byte ranges (shard, offset, length) preview_values() with the
/// same arguments reads: for a recipe whose payload is row-major, the share
/// of its payload (inputs()[0]) the decoded rows cover, rounded out to
/// whole bytes, and every other input whole (scales, zero points); for any
/// other recipe every input whole. What a remote model must fetch before a
/// preview (RemoteModel::fetch). Empty when the recipe names no inputs or
/// nothing is shown. \throws Error{Unsupported} when the tensor has no recipe.
std::vector<Recipe::InputRange> preview_inputs(const LogicalTensor& tensor, std::uint64_t max_rows, std::uint64_t max_cols);

}  // namespace amn
