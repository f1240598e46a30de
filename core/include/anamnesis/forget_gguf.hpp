// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
/// \file forget_gguf.hpp
/// Forget (quantize) to GGUF: the remember flow reversed. Every logical
/// tensor of the plan is decoded to f32 rows by its recipe, given a target
/// ggml type by llama-quantize's rules (gguf_ftype.hpp), encoded by that
/// type's quantizer (byte-exact with ggml's `ggml_quantize_chunk`) and
/// streamed into a GgufWriter (gguf_writer.hpp): temporary file, atomic
/// rename, nothing left behind on error or cancel. The round trip of every
/// chunk is decoded again on the spot, so the loss of each tensor (RMSE,
/// max abs error, SQNR) is measured, not estimated.

#include "anamnesis/catalog.hpp"
#include "anamnesis/dtype.hpp"
#include "anamnesis/executor.hpp"
#include "anamnesis/gguf_ftype.hpp"
#include "anamnesis/gguf_split_options.hpp"
#include "anamnesis/notice.hpp"
#include "anamnesis/plan.hpp"
#include "anamnesis/repack.hpp"

#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace amn {

/// What `amn forget --to gguf:FTYPE` asks for; the options mirror
/// llama-quantize's.
struct GgufForgetOptions {
    /// llama-quantize file type name ("Q4_K_M", "Q8_0", "IQ4_XS", "F16" …).
    std::string ftype;
    bool pure = false;                             ///< --pure: one type for every quantized tensor
    std::optional<DType> output_tensor_type;       ///< --output-tensor-type
    std::optional<DType> token_embedding_type;     ///< --token-embedding-type
    /// --tensor-type REGEX=TYPE, in the order given (first match wins, as in
    /// llama-quantize: the regex is searched in the tensor name).
    std::vector<std::pair<std::string, DType>> tensor_types;
    std::string imatrix;        ///< --imatrix FILE (empty: none)
    std::string output;         ///< output .gguf path; empty: default_gguf_output_path()
    bool force = false;         ///< replace an existing output
    unsigned threads = 0;       ///< worker threads, 0 = all cores
    std::uint64_t chunk_bytes = 4u << 20;  ///< f32 bytes of input per work unit (about)
    /// Measure what each encoded tensor lost (ForgetTensor's rmse, max_abs,
    /// sqnr_db, sum_sq_error, sum_sq_signal, loss_pairs): every block is
    /// decoded again and compared with its input. False skips that (about
    /// half the CPU time of Q8_0): the loss fields stay 0 and
    /// GgufWriteResult::loss_measured is false; the file written is the
    /// same, and non-finite input values are still named in the warnings
    /// (a round trip that overflows only when measured).
    bool measure_loss = true;
    /// Hugging Face input only: the tokenizer.ggml.pre to write
    /// (convert_hf_to_gguf's --vocab-pre); nullopt = detected.
    std::optional<std::string> vocab_pre;
    /// Hugging Face input only: convert_hf_to_gguf's --no-mtp / --no-nextn (HfGgufOptions::no_mtp).
    bool no_mtp = false;
    /// Parts (gguf_split.hpp): `keep_split` = llama-quantize --keep-split
    /// (one output per part of a split input, `output` the prefix of their
    /// names); max_tensors / max_bytes / no_tensor_first_split = what
    /// `llama-gguf-split --split` makes of the one file llama-quantize
    /// writes (`output` the prefix). Not both.
    GgufSplitOptions split;
};

/// Which rule decided a tensor's fate in forget to safetensors
/// (ForgetTensor::st_rule): quantized, or kept and why — the libraries'
/// default `ignore` (bitsandbytes, llm-compressor) and the user's
/// --only/--keep. Front ends word it.
enum class StRule : std::uint8_t {
    Quantized,           ///< a Linear weight of the transformer blocks, encoded to the scheme
    KeptOneD,            ///< a 1-D tensor (bias, norm weight, …)
    KeptFusedExperts,    ///< fused 3-D MoE experts in a block: not nn.Linear weights, neither library quantizes them
    KeptNot2D,           ///< more than two dimensions outside the blocks
    KeptNotWeight,       ///< 2-D but not named `*.weight`
    KeptEmpty,           ///< no elements
    KeptNotFloat,        ///< stored as an integer or boolean type
    KeptByKeep,          ///< matched by a --keep pattern
    KeptNotMatchedByOnly,  ///< --only given and no pattern matched
    KeptConv1D,          ///< a GPT-2 style Conv1D layer (llm-compressor quantizes nn.Linear only)
    KeptEmbedding,       ///< an embedding
    KeptNorm,            ///< a norm
    KeptLmHead,          ///< lm_head / output
    KeptRouter,          ///< a MoE router / gate
    KeptNotBlockLinear,  ///< a 2-D weight outside the transformer blocks
    KeptGroupSize,       ///< MLX: the group size does not divide its rows (mlx-lm's predicate leaves it unquantized)
};

/// One output tensor of a forget run.
struct ForgetTensor {
    std::string name;
    std::vector<std::uint64_t> shape;   ///< row-major
    /// Stored type in the input (payload). A Hugging Face folder forgotten
    /// to GGUF is quantized from the converter's lossless file, as
    /// convert_hf_to_gguf.py then llama-quantize would: `source` is the type
    /// in that file (BF16/F16/F32, or a repacked type), also for a folder
    /// tensor stored quantized (bitsandbytes U8, GPTQ/AWQ I32), whose
    /// dequantized values the file holds.
    DType source = DType::Unknown;
    DType target = DType::Unknown;      ///< type written
    /// GGUF targets: why `target` — llama-quantize's rule (or the
    /// converter's) with its details (pattern, mix rule, fallback), typed;
    /// front ends word it. nullopt for safetensors targets.
    std::optional<GgufTypeReason> gguf_reason;
    /// Safetensors targets: quantized or why kept (a kept tensor with
    /// `copied` false was decoded to BF16 under --requantize). nullopt for
    /// GGUF targets.
    std::optional<StRule> st_rule;
    std::uint64_t bytes = 0;            ///< bytes written for it
    /// Stored bytes copied unchanged, or (repack Lossless) the input's codes
    /// and scales repacked: no decode, no encode, no loss measured.
    bool copied = false;
    /// Repack::Lossless when the bytes were made from the input's codes as
    /// they are; a reason when the input had codes but they were re-quantized.
    Repack repack = Repack::None;
    // Measured round trip (f32 input x → target → f32 y), f64 sums over the
    // elements where x and y are both finite (the others are left out and
    // named in the result's warnings).
    std::uint64_t numel = 0;
    double rmse = 0;                    ///< sqrt(Σ(y−x)² / finite pairs), units of the weights
    double max_abs = 0;                 ///< max |y − x|
    /// 10·log10(Σx² / Σ(y−x)²) in dB; +inf when Σ(y−x)² = 0 (exact, also for
    /// an all-zero tensor), −inf for an error over an all-zero signal.
    double sqnr_db = 0;
    double sum_sq_error = 0;            ///< Σ(y−x)², for totals over tensors
    double sum_sq_signal = 0;           ///< Σx²
    /// The finite pairs the sums are over: numel less the elements left out
    /// (a non-finite x or y, e.g. an LLM.int8 row past the F16 range); the
    /// count the totals' RMSE divides by.
    std::uint64_t loss_pairs = 0;
    /// GGUF targets cut into parts: the 0-based part (file) it is written to.
    std::uint32_t part = 0;
    double bits_per_weight() const noexcept;
};

/// One file of a GGUF output (one, or every part of a split set).
struct GgufOutputFile {
    std::string path;
    std::uint64_t bytes = 0;   ///< file size
    std::size_t tensors = 0;   ///< tensors in it
};

/// A warning of a GGUF run (forget to GGUF, Hugging Face folder → GGUF) is
/// a Notice (notice.hpp) of kind ConverterLog, Requantized or NonFinite:
/// the names stay for the GGUF paths' users.
using GgufWarningKind = NoticeKind;
using GgufWarning = Notice;

struct GgufWriteResult {
    std::string file;                   ///< the GGUF written (the first part of a split set)
    std::vector<GgufOutputFile> files;  ///< every file written, in part order
    std::vector<ForgetTensor> tensors;  ///< in file order
    std::uint64_t file_bytes = 0;       ///< all files together
    std::uint64_t input_numel = 0;
    /// In order: the converter's messages (Hugging Face input), re-quantized
    /// tensors, then non-finite values per tensor in file order.
    std::vector<GgufWarning> warnings;
    bool loss_measured = true;          ///< GgufForgetOptions::measure_loss of the run
};

/// Decide every tensor's target type without writing anything (the
/// "summary" before a run; `amn forget --dry-run`). Fills name, shape,
/// source, target, gguf_reason and the output bytes of each tensor.
/// The input is a GGUF, or a Hugging Face model folder (hf_to_gguf.hpp): then
/// the result is what `convert_hf_to_gguf.py --outtype <lossless>` followed by
/// `llama-quantize … FTYPE` writes (lossless = BF16 for BF16 weights, F16 for
/// F16, else F32), without the intermediate file.
/// \throws Error{Usage} for an unknown file type or override type;
///         Error{Unsupported} when the input is neither (or cannot be
///         converted: hf_to_gguf.hpp lists why), when a type
///         needs an importance matrix and none is given (llama-quantize's
///         reason), or when a tensor cannot be decoded (its plan error).
/// With `files`, also the files the run would write (path, planned size
/// with header and padding, tensors per part).
std::vector<ForgetTensor> plan_gguf_forget(const Catalog& catalog, const Plan& plan, const GgufForgetOptions& options,
                                           std::vector<GgufOutputFile>* files = nullptr);

/// Quantize `catalog` to a GGUF file as llama-quantize would: key/values
/// copied with `general.quantization_version` and `general.file_type` set
/// (gguf_ftype.hpp `llama_quantize_kvs`), tensors in input order, each
/// encoded to its plan_gguf_forget() type; tensors that keep their stored
/// type are copied byte for byte. Progress counts input f32 bytes.
/// \throws everything plan_gguf_forget() throws; Error{OutputExists} when
///         the output exists and !force; Error{Usage} when the output is the
///         input; Error{Io} for an unwritable folder or too little space;
///         Error{Cancelled}; any Error a recipe raises (named). In every case
///         nothing is left at the output path.
GgufWriteResult forget_to_gguf(const Catalog& catalog, const Plan& plan, const GgufForgetOptions& options,
                                const ProgressFn& progress = {}, const std::atomic<bool>* cancel = nullptr);

/// Default output: "<stem>-<FTYPE>.gguf" beside the input, a trailing
/// type suffix of the stem replaced ("tiny-llama-F32.gguf" + Q4_K_M →
/// "tiny-llama-Q4_K_M.gguf").
std::string default_gguf_output_path(const Catalog& catalog, const std::string& ftype);

}  // namespace amn
