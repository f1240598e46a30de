// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// Internal: the GGUF output plan, and write_gguf_plan() that hands any of
// them to the one runner (exec/run_output_plan.hpp) with a GgufWriter, or a
// GgufSet for a split output. The wiring of every GGUF job (jobs/: it
// reaches plan, exec and sink).
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
#include "anamnesis/forget_gguf.hpp"
#include "anamnesis/metadata.hpp"
#include "anamnesis/plan.hpp"
#include "plan/gguf_parts.hpp"
#include "plan/raw_rows.hpp"
#include "plan/imatrix.hpp"

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace amn::detail {

/// A GGUF as llama-quantize reads it: the file it is given (a GGUF
/// catalog), or the file convert_hf_to_gguf.py would have written for a
/// Hugging Face folder (hf_to_gguf.cc) — so that forget runs on both in one pass.
struct GgufSourceTensor {
    std::string name;                    ///< GGUF tensor name
    std::vector<std::uint64_t> shape;    ///< row-major
    DType dtype = DType::Unknown;        ///< the type the file stores (has)
    std::shared_ptr<const Recipe> recipe;  ///< its values as f32 (exactly the stored values)
    /// Where the stored bytes are when they can be copied unchanged; nullptr
    /// when the file exists only as a plan (values come from `recipe`).
    const TensorInfo* stored = nullptr;
    /// Bytes made directly in `dtype` (copied as they come when the type is kept).
    std::shared_ptr<const RawRows> raw;
    bool quantized = false;              ///< the values were dequantized (a warning says errors compound)
};
struct GgufSource {
    std::vector<MetaKv> kvs;              ///< in file order
    std::vector<GgufSourceTensor> tensors;  ///< in file order
    std::vector<GgufWarning> warnings;    ///< from building it (e.g. the tokenizer's pre-tokenizer choice)
};

/// The source of a GGUF catalog: its key/values and every logical tensor.
/// \throws Error{Unsupported} naming the first tensor that cannot be decoded.
GgufSource gguf_catalog_source(const Catalog& cat, const Plan& plan);

/// The GGUF `convert_hf_to_gguf.py --outtype <lossless>` would write for the
/// Hugging Face folder `cat` (hf_to_gguf.cc): lossless = BF16 when the
/// converter's `auto` finds BF16, F16 when F16, F32 otherwise; every tensor's
/// values rounded through its type in that file; `no_mtp`: with --no-mtp.
/// \throws as convert_hf_to_gguf() (hf_to_gguf.hpp).
GgufSource hf_gguf_lossless_source(const Catalog& cat, const std::optional<std::string>& vocab_pre, bool no_mtp = false);

struct GgufOutputPlan;
/// The GGUF `convert_hf_to_gguf.py --outtype <outtype>` writes for the
/// Hugging Face folder `cat` (outtype F32, F16, BF16 or Q8_0): the output
/// plan, the warnings of building it (tokenizer choices), the default path;
/// `no_mtp`: with --no-mtp.
/// \throws as convert_hf_to_gguf() (hf_to_gguf.hpp).
struct HfConverterPlan;
HfConverterPlan hf_gguf_converter_plan(const Catalog& cat, DType outtype, const std::optional<std::string>& vocab_pre,
                                       bool no_mtp = false);

/// One output tensor.
struct GgufOutputTensor {
    /// Name, shape (row-major), source and target type, gguf_reason,
    /// numel, bytes (of the target), copied (bytes written as stored).
    ForgetTensor info;
    /// Makes the tensor's f32 values (rows() × row_elems() = numel, row-major).
    /// Used unless `info.copied`.
    std::shared_ptr<const Recipe> recipe;
    /// For `info.copied`: the stored tensor whose bytes are written unchanged
    /// (little-endian, contiguous; otherwise the run fails naming the tensor);
    /// nullptr: the values come from `recipe` and are encoded (exactly, since
    /// the type is kept).
    const TensorInfo* stored = nullptr;
    /// For `info.copied` with no `stored`: bytes made directly in the target
    /// type (written as they come).
    std::shared_ptr<const RawRows> raw;
    /// Importance weights per row position (n_per_row per matrix), or nullptr.
    const std::vector<float>* imatrix = nullptr;
};

/// Everything a GGUF file holds, decided before any byte is written.
struct GgufOutputPlan {
    std::vector<MetaKv> kvs;                 ///< in file order
    std::vector<GgufOutputTensor> tensors;   ///< in file order
    /// Without tensors: pad the key/values to the alignment (ggml) or not (gguf-py).
    bool pad_without_tensors = true;
    /// Tensor dims as given (gguf-py: the converter's files) or by ggml's
    /// n_dims rule (llama-quantize, llama-gguf-split): GgufWriter::set_dims_as_given().
    bool dims_as_given = false;
    /// The files (plan/gguf_parts.hpp cut_gguf_parts()): empty = one file,
    /// at GgufRunOptions::path, with `kvs`; else one per part in order, each
    /// with its own path and key/values, taking the next `tensors` of
    /// `tensors` (their counts add up to tensors.size()).
    std::vector<GgufPart> parts;
    /// The importance matrix the tensors' `imatrix` pointers point into
    /// (forget with --imatrix), kept alive with the plan.
    std::shared_ptr<const Imatrix> imatrix;
};

/// The files `plan` makes at `path` (or its parts): paths, sizes with
/// header and padding, tensors per file; nothing is created.
/// \throws as GgufWriter::add_tensor() / set_kvs().
std::vector<GgufOutputFile> gguf_plan_files(const GgufOutputPlan& plan, const std::string& path);

/// The tensors of `plan` (moved out), each with the part it goes to (ForgetTensor::part).
std::vector<ForgetTensor> take_planned_tensors(GgufOutputPlan& plan);

/// A converter's output tensor (convert_hf_to_gguf.py's, its --mmproj's,
/// convert_lora_to_gguf.py's): name, shape (row-major), target and source
/// types, numel, bytes of the target, and the reason — ConverterOuttype when
/// `target` is the outtype, else ConverterKept (the caller may refine it);
/// not copied, no recipe yet.
/// \throws Error{SizeMismatch} naming `cat.path` and the tensor when numel
///         is not a whole number of the target's blocks.
GgufOutputTensor converter_output_tensor(const Catalog& cat, std::string name, std::vector<std::uint64_t> shape, DType target,
                                         DType source, DType outtype);

/// Where a converter's default output goes: `file_name` beside the input
/// folder `dir` (never inside it; "./" when the folder has no parent in the
/// path; a trailing separator or "." ignored).
std::string beside_folder(const std::string& dir, const std::string& file_name);

struct HfConverterPlan {
    GgufOutputPlan plan;
    std::vector<GgufWarning> warnings;
};

/// The converter's own messages (model card, tokenizer) as
/// GgufWarningKind::ConverterLog warnings, in order.
std::vector<GgufWarning> converter_log(std::vector<std::string> messages);

/// How to run it.
struct GgufRunOptions {
    std::string path;                      ///< output file
    bool force = false;                    ///< replace an existing file
    unsigned threads = 0;                  ///< 0 = all cores
    std::uint64_t chunk_bytes = 4u << 20;  ///< f32 bytes decoded per work unit (about)
    bool measure_loss = true;              ///< decode every encoded block again and compare
};

/// Write `plan` to `opt.path` (or to its parts: GgufOutputPlan::parts, all
/// committed together). Progress counts f32 bytes decoded (stored bytes for
/// copied tensors). Returns file, files, tensors (with measured loss when
/// asked, `part` set), file_bytes, input_numel and the warnings about
/// non-finite values.
/// \throws Error{OutputExists} / Error{Io} from the writer (nothing left at
///         the output path); Error{Cancelled}; any Error a recipe raises,
///         naming the tensor and `cat.path`.
GgufWriteResult write_gguf_plan(const Catalog& cat, GgufOutputPlan plan, const GgufRunOptions& opt,
                                 const ProgressFn& progress = {}, const std::atomic<bool>* cancel = nullptr);

/// A converter's plan (convert_hf_to_gguf.py's, convert_lora_to_gguf.py's)
/// written to `opt.path` as write_gguf_plan() writes it, without measuring
/// the loss (the converters do not); the result's warnings are `warnings`
/// (the plan's own: the converter's log) followed by the run's.
/// \throws as write_gguf_plan().
GgufWriteResult write_converter_plan(const Catalog& cat, GgufOutputPlan plan, std::vector<GgufWarning> warnings,
                                     GgufRunOptions opt, const ProgressFn& progress, const std::atomic<bool>* cancel);

}  // namespace amn::detail
