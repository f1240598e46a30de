// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// Internal: the GGUF output plan, and write_gguf_plan() that hands any of
// them to the one runner (exec/run_output_plan.hpp) with a GgufWriter.
//
// Every job that writes a GGUF — forget a GGUF to another file type
// (llama-quantize's rules), convert a Hugging Face folder (convert_hf_to_gguf's
// rules), forget a Hugging Face folder (both, in one pass) — is a policy that
// builds a GgufOutputPlan: the key/values in file order and, per output
// tensor in file order, the recipe that makes its f32 values, its target
// type, the reason for that type and, when the bytes stay as stored, where
// they are. write_gguf_plan() executes it through the runner: every tensor
// an EncodeType row (its ggml type) or a CopyStored, written into a
// GgufWriter (temporary file, atomic rename), the round trip measured on
// demand.
#include "anamnesis/catalog.hpp"
#include "anamnesis/executor.hpp"
#include "anamnesis/forget.hpp"
#include "anamnesis/metadata.hpp"
#include "anamnesis/plan.hpp"

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace amn::detail {

/// One output tensor.
struct GgufOutputTensor {
    /// Name, shape (row-major), source and target type, reason, rule,
    /// numel, bytes (of the target), copied (bytes written as stored).
    ForgetTensor info;
    /// Makes the tensor's f32 values (rows() × row_elems() = numel, row-major).
    /// Used unless `info.copied`.
    std::shared_ptr<const Recipe> recipe;
    /// For `info.copied`: the stored tensor whose bytes are written unchanged
    /// (little-endian, contiguous; otherwise the run fails naming the tensor).
    const TensorInfo* stored = nullptr;
    /// Importance weights per row position (n_per_row per matrix), or nullptr.
    const std::vector<float>* imatrix = nullptr;
};

/// Everything a GGUF file holds, decided before any byte is written.
struct GgufOutputPlan {
    std::vector<MetaKv> kvs;                 ///< in file order
    std::vector<GgufOutputTensor> tensors;   ///< in file order
};

/// How to run it.
struct GgufRunOptions {
    std::string path;                      ///< output file
    bool force = false;                    ///< replace an existing file
    unsigned threads = 0;                  ///< 0 = all cores
    std::uint64_t chunk_bytes = 4u << 20;  ///< f32 bytes decoded per work unit (about)
    bool measure_loss = true;              ///< decode every encoded block again and compare
};

/// Write `plan` to `opt.path`. Progress counts f32 bytes decoded (stored
/// bytes for copied tensors). Returns file, tensors (with measured loss when
/// asked), file_bytes, input_numel and the warnings about non-finite values.
/// \throws Error{OutputExists} / Error{Io} from the writer (nothing left at
///         the output path); Error{Cancelled}; any Error a recipe raises,
///         naming the tensor and `cat.path`.
GgufForgetResult write_gguf_plan(const Catalog& cat, GgufOutputPlan plan, const GgufRunOptions& opt,
                                 const ProgressFn& progress = {}, const std::atomic<bool>* cancel = nullptr);

}  // namespace amn::detail
