// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
/// \file gguf_split.hpp
/// Split GGUF output, as llama.cpp's tools cut and name it, byte for byte:
///
/// | who writes | where it cuts | key/values |
/// |---|---|---|
/// | `convert_hf_to_gguf.py --split-max-size/--split-max-tensors` (gguf-py GGUFWriter; `amn convert DIR --to gguf`) | a new part when the current one holds `max_tensors` tensors, or its tensors' bytes (unpadded) plus the next one's exceed `max_bytes`; never an empty part but the first with `--no-tensor-first-split`; one part only: the plain file, no split keys | part 1: all + `split.no`, `split.count`, `split.tensors.count`; the others only those three |
/// | `llama-gguf-split --split` (`amn forget … --split-max-*`, `amn convert X.gguf --to gguf --split-max-*`) | `max_bytes`: a new part when the padded (32-byte) bytes of the current part plus the next tensor's exceed it (a tensor larger than that alone: an error, as the tool's "one of splits have 0 tensors"); else every `max_tensors` tensors (default 128) | part 1: all + `split.no`, `split.tensors.count`, `split.count`; the others those three; names and keys even for one part |
/// | `llama-quantize --keep-split` (`amn forget SPLIT.gguf --keep-split`) | one output per input part, its tensors in input order | part 1: all (llama-quantize's) + `split.no`, `split.count`, `split.tensors.count`; one part: no keys |
/// | `llama-gguf-split --merge` (`amn convert SPLIT.gguf --to gguf`) | one file, the parts' tensors in order | part 1's, `split.count` moved to the end with value 0 |
///
/// Names: "PREFIX-%05d-of-%05d.gguf" (gguf.hpp gguf_split_path): the
/// converter's PREFIX is the output path less its extension; llama-gguf-split
/// takes PREFIX as given (a trailing ".gguf" of `-o` is dropped here);
/// llama-quantize drops ".gguf". Sizes are decimal: 1M = 10⁶ bytes, as both
/// tools count. Source: llama.cpp 34af94c (gguf-py/gguf/gguf_writer.py,
/// tools/gguf-split/gguf-split.cpp, src/llama-quant.cpp, tools/quantize/quantize.cpp).

#include "anamnesis/catalog.hpp"
#include "anamnesis/executor.hpp"
#include "anamnesis/forget_gguf.hpp"
#include "anamnesis/gguf_split_options.hpp"

#include <atomic>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace amn {

/// Merge a split GGUF or cut a GGUF into parts, the tensors' bytes copied
/// unchanged (`amn convert X.gguf --to gguf`).
struct GgufSplitJobOptions {
    /// Output: for a merge the file (default: the set's name without the
    /// part numbers, "X.gguf"); for a split the prefix of the parts, a
    /// trailing ".gguf" dropped (default: the input's name without ".gguf").
    std::string output;
    /// Empty (no max_* given): merge, as `llama-gguf-split --merge`; else
    /// split as `llama-gguf-split --split` with these options (keep_split
    /// is not one of them).
    GgufSplitOptions split;
    bool force = false;     ///< replace existing outputs
    unsigned threads = 0;   ///< 0 = all cores
};

/// The files split_merge_gguf() would write (path, planned bytes, tensors)
/// and every tensor's part (ForgetTensor::part), nothing written.
/// \throws as split_merge_gguf() before its first write.
std::vector<GgufOutputFile> plan_split_merge_gguf(const Catalog& catalog, const GgufSplitJobOptions& options,
                                                  std::vector<ForgetTensor>* tensors = nullptr);

/// Write the merge or split of the GGUF model `catalog` (one file or a split
/// set, open_model()). Progress counts tensor bytes copied.
/// \throws Error{Usage} for a merge of a model that is one file already
///         (llama-gguf-split refuses it too) or keep_split; Error{Usage}
///         when llama-gguf-split would stop: a tensor larger than
///         max_bytes alone makes an empty part; Error{Unsupported} for a
///         `general.alignment` other than 32 (llama-gguf-split pads tensor
///         data to 32 bytes whatever the file says) or a big-endian input;
///         Error{Usage} when an output is an input; Error{OutputExists}
///         without `force`; Error{Io}; Error{Cancelled}. Nothing is left at
///         any output path on error.
GgufWriteResult split_merge_gguf(const Catalog& catalog, const GgufSplitJobOptions& options,
                                  const ProgressFn& progress = {}, const std::atomic<bool>* cancel = nullptr);

}  // namespace amn
