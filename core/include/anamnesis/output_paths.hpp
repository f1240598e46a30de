// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
/// \file output_paths.hpp
/// Where output goes when the user names none, and the notes about stale
/// temporary files the writers removed (sink/output_files.cc).

#include "anamnesis/catalog.hpp"
#include "anamnesis/dtype.hpp"

#include <optional>
#include <string>
#include <vector>

namespace amn {

/// Messages about stale temporary files (left by a run that was killed)
/// that writing output removed since the last call, one line each naming the
/// file; the CLI prints them on stderr.
std::vector<std::string> take_output_cleanup_messages();

/// The output the CLI uses when `-o` is absent, for target dtype `to`:
/// - a single `.safetensors` with no config.json beside it → same folder,
///   quantization suffix of the stem replaced ("model-fp8" → "model-bf16");
/// - a directory, index.json or a file with config.json beside it → a
///   sibling directory "<name>-bf16" (quantization suffix replaced);
/// - any other format (GGUF, NPZ, PTH) → "<stem>[-<dtype>].safetensors" beside it.
std::string default_output_path(const Catalog& catalog, std::optional<DType> to);

/// The folder `amn remember --layout hf` (and the wizard's "Hugging Face
/// folder" target) writes when no output is given: default_output_path()
/// without its ".safetensors" ("model-Q4_K_M.gguf" → "model-bf16"); for a
/// vocab-only GGUF (is_vocab_only_gguf(): HfLayout::vocab_only) "<stem>-tokenizer"
/// beside it ("ggml-vocab-falcon.gguf" → "ggml-vocab-falcon-tokenizer").
std::string default_hf_layout_output_path(const Catalog& cat, std::optional<DType> out_dtype);

}  // namespace amn
