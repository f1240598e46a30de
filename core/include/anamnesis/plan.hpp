// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
/// \file plan.hpp
/// Scheme detection: turns the stored tensors of a Catalog into *logical*
/// tensors, each one output tensor plus the recipe that makes it
/// (`down_proj.weight = fp8_block(weight, weight_scale_inv, 128×128)`,
/// passthrough, …). Inspection is computed from the plan alone; conversion
/// executes it. One plan, two uses.

#include "anamnesis/catalog.hpp"
#include "anamnesis/dtype.hpp"
#include "anamnesis/notice.hpp"
#include "anamnesis/quant_params.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace amn {

namespace detail {
class QuantGroups;  // core/src/plan/quant_groups.hpp (internal)
}

/// What a stored tensor is, as far as the plan is concerned.
enum class Role {
    Quantized,    ///< the payload of a quantized logical tensor (FP8 weight, GPTQ qweight …)
    Companion,    ///< consumed by a quantized tensor (scales, zeros, g_idx, input_scale …)
    Passthrough,  ///< emitted as is (or only cast to the target float dtype)
    Unsupported,  ///< cannot be converted; the logical tensor carries the error
};
std::string_view role_name(Role r) noexcept;  ///< "quantized", "companion", "passthrough", "unsupported"

/// What a companion (Role::Companion) does for its scheme, from the scheme
/// facts table (the suffix the detector matched), so front ends need not
/// guess from names.
enum class CompanionRole : std::uint8_t {
    None,             ///< not a companion, or a companion of no known kind
    Scale,            ///< multiplies the payload (FP8 weight_scale(_inv), GPTQ/AWQ scales, bnb absmax, SCB, MXFP4 _scales)
    /// One value per tensor combined with the block scales (NVFP4:
    /// compressed-tensors weight_global_scale divides them, ModelOpt weight_scale_2 multiplies them)
    GlobalScale,
    ActivationScale,  ///< runtime scale of activations or the KV cache (input_scale, k_scale …): consumed, unused
    NestedScale,      ///< scale of the quantized scales (bnb double quant nested_absmax)
    ZeroPoint,        ///< GPTQ/AWQ qzeros, compressed-tensors weight_zero_point
    Bias,             ///< added to each group after the scale (MLX affine `biases`: w = s·q + b)
    GroupIndex,       ///< GPTQ act-order g_idx, compressed-tensors weight_g_idx
    Codebook,         ///< bnb quant_map / nested_quant_map
    QuantState,       ///< bnb quant_state JSON blob
    Layout,           ///< bnb LLM.int8 weight_format, compressed-tensors weight_shape
    Payload,          ///< a packed payload (GPTQ/AWQ qweight, compressed-tensors weight_packed, MXFP4 _blocks)
};
/// "scale", "global scale", "activation scale", "nested scale", "zero point", "bias", "group index",
/// "codebook", "quant state", "layout", "payload", "" for None.
std::string_view companion_role_name(CompanionRole r) noexcept;
/// Scale, GlobalScale or ActivationScale: a tensor the user knows as "a scale".
constexpr bool is_scale(CompanionRole r) noexcept {
    return r == CompanionRole::Scale || r == CompanionRole::GlobalScale || r == CompanionRole::ActivationScale;
}

/// How a logical tensor is produced. Implementations live in core/src/schemes.
/// A recipe holds spans into the catalog's mappings: it must not outlive the
/// Catalog it was made from. All methods are thread-safe (const, no state).
class Recipe {
public:
    virtual ~Recipe() = default;

    /// Scheme in words for the user ("FP8 E4M3, 128×128 blocks, BF16 scales").
    virtual std::string describe() const = 0;
    /// Stable short scheme id for JSON and grouping ("fp8-block", "passthrough", "gguf-Q4_K").
    virtual std::string scheme_id() const = 0;

    /// The output tensor is `rows() × row_elems()` elements in row-major order
    /// (for rank ≠ 2 outputs the recipe picks a split; their product is numel).
    virtual std::uint64_t rows() const = 0;
    virtual std::uint64_t row_elems() const = 0;
    /// Rows per work unit the executor must respect (e.g. a GGUF row, an
    /// FP8 block row needs none: 1). Chunks start at multiples of it.
    virtual std::uint64_t row_granularity() const { return 1; }

    /// Dequantize rows [row0, row0 + nrows) to f32 into `out`
    /// (nrows × row_elems() floats), in the reference's arithmetic order.
    /// \throws Error for data-dependent failures (e.g. a g_idx out of range).
    virtual void dequantize_rows(std::uint64_t row0, std::uint64_t nrows, float* out) const = 0;

    /// For passthrough tensors: the stored dtype, so the executor can copy
    /// bytes losslessly when the output keeps it. nullopt for quantized recipes.
    virtual std::optional<DType> lossless_dtype() const { return std::nullopt; }
    /// For quantized recipes: the dtype the scheme's canonical library returns
    /// when it dequantizes (MLX: the scales' dtype), whose values
    /// dequantize_rows() gives exactly; remember's default output dtype.
    /// nullopt: the library computes in f32 (remember writes BF16 by default).
    virtual std::optional<DType> result_dtype() const { return std::nullopt; }
    /// Copy rows [row0, row0+nrows) as stored bytes into `out` (contiguous,
    /// little-endian). Only for recipes with a lossless_dtype().
    virtual void copy_rows(std::uint64_t row0, std::uint64_t nrows, std::uint8_t* out) const;

    /// True when output row r reads only the r-th slice of the payload
    /// (inputs()[0] split evenly by rows()): lets the executor release input
    /// pages chunk by chunk. Recipes whose payload is packed across rows
    /// (GPTQ/AWQ `qweight`) return false and are released per tensor.
    virtual bool payload_is_row_major() const { return true; }

    /// Byte ranges of the input this recipe reads, per (shard, offset, len),
    /// so the executor can release pages after use.
    struct InputRange { std::uint32_t shard; std::uint64_t offset, len; };
    virtual std::vector<InputRange> inputs() const { return {}; }

    /// The input byte ranges that output rows [row0, row0 + nrows) finish
    /// reading, which the executor releases once those rows are written, so
    /// that memory does not grow with a tensor made of many inputs (MoE
    /// experts stacked into one tensor). Default: with a row-major payload,
    /// the rows' share of inputs()[0]; otherwise every input once the last
    /// row is in the range. Recipes built from other recipes (stacks, row
    /// selections, transposes per expert) map the rows to theirs and ask
    /// them. A range may be handed out again or overlap another chunk's:
    /// releasing pages still in use costs a re-read, never a wrong value.
    virtual std::vector<InputRange> consumed_inputs(std::uint64_t row0, std::uint64_t nrows) const;

    /// The quantized codes and group scales the values are made of, for a
    /// repack into another format that holds the same numbers (MLX affine ↔
    /// GGUF Q4_0/Q4_1/Q5_0/Q5_1/Q8_0, MLX mxfp4/nvfp4 ↔ GGUF MXFP4/NVFP4):
    /// internal (core/src/plan/quant_groups.hpp). nullptr (the default) when
    /// the recipe has none or changes values beyond reordering whole rows.
    virtual std::shared_ptr<const detail::QuantGroups> quant_groups() const { return nullptr; }
};

/// Why a logical tensor cannot be converted (TensorError::kind): a small
/// set front ends word (the desktop app's first line, translated); the
/// technical fragment is TensorError::detail.
enum class TensorErrorKind : std::uint8_t {
    None,               ///< no error
    UnknownDtype,       ///< a stored dtype (or GGUF type) this version does not know
    UnsupportedLayout,  ///< a stored layout or type with no decoder: big-endian blocks, strided block dtypes, an ONNX node
    MissingCompanion,   ///< a companion the scheme needs (scale, zero point, packed weight, quant_state …) is missing
    BadCompanion,       ///< the payload or a companion has a dtype, shape or value the scheme does not allow
    UnsupportedVariant, ///< a variant of a known scheme not supported (version, bit width, format, zero point …)
    ConfigConflict,     ///< the quantization config is malformed or contradicts the tensors where the bytes depend on it
    UnknownScheme,      ///< a tensor of a quantization scheme this build cannot dequantize
};
/// The words of a kind for JSON and tests: "unknown-dtype", "unsupported-layout",
/// "missing-companion", "bad-companion", "unsupported-variant", "config-conflict",
/// "unknown-scheme"; "" for None.
std::string_view tensor_error_kind_name(TensorErrorKind k) noexcept;

/// LogicalTensor::error: typed; empty (kind None) when the tensor converts.
struct TensorError {
    TensorErrorKind kind = TensorErrorKind::None;
    /// The scheme as the core's messages name it ("GPTQ", "MLX",
    /// "bitsandbytes LLM.int8", "compressed-tensors pack-quantized", "ModelOpt
    /// NVFP4", an ONNX op type); "" when the error belongs to no scheme.
    std::string scheme;
    /// The technical fragment: tensor names, dtypes, shapes and values with
    /// the few English words that tie them ("qweight [4, 32] and scales
    /// [2, 64] disagree on output features"). Never empty when kind ≠ None.
    std::string detail;

    bool empty() const noexcept { return kind == TensorErrorKind::None; }
    explicit operator bool() const noexcept { return !empty(); }
    /// English, one line: "SCHEME: DETAIL" (DETAIL alone without a scheme),
    /// "" when empty. The message of the amn::Error that refuses the tensor
    /// (remember, forget, convert) and amn's listing ("cannot convert").
    std::string message() const;
    bool operator==(const TensorError&) const = default;
};

/// One output tensor.
struct LogicalTensor {
    std::string name;                    ///< output name ("…down_proj.weight")
    std::vector<std::uint64_t> shape;    ///< output shape, row-major
    std::vector<std::size_t> sources;    ///< catalog indices consumed; sources[0] is the payload
    std::uint32_t shard = 0;             ///< output shard (the payload's shard)
    bool quantized = false;              ///< made by dequantization (not passthrough)
    /// The scheme's typed parameters: set for every quantized tensor with a
    /// recipe (the source of its scheme_id() and describe()); nullopt for
    /// passthrough tensors and errors.
    std::optional<QuantParams> params;
    std::uint64_t stored_bytes = 0;      ///< bytes of all sources in the input
    std::shared_ptr<const Recipe> recipe;  ///< null when `error` is set
    TensorError error;                   ///< set (not empty()): cannot be converted, and why

    std::uint64_t numel() const noexcept;
};

/// A detected scheme and how many logical tensors use it.
struct SchemeUse {
    std::string id;           ///< scheme_id(params)
    std::string description;  ///< describe(params) of the first user
    std::size_t tensors = 0;
};

struct Plan {
    std::vector<LogicalTensor> tensors;  ///< in catalog order of their payloads
    std::vector<Role> roles;             ///< one per catalog tensor
    /// One per catalog tensor: what each Role::Companion tensor is for (None
    /// for every other role).
    std::vector<CompanionRole> companion_roles;
    std::vector<SchemeUse> schemes;      ///< quantization schemes found (passthrough excluded)
    std::vector<std::string> notes;      ///< detection remarks worth showing
    /// Where the model's files contradict one another and detection had to
    /// choose (config.json's quant_method or fmt against the tensors, a
    /// malformed block size that no tensor needed): each names the conflict
    /// and which side was believed (NoticeKind::QuantMethodMismatch,
    /// FormatMismatch, BlockSizeIgnored). Contradictions the output bytes
    /// depend on are LogicalTensor::error instead.
    std::vector<Notice> warnings;

    /// Logical tensors that carry an error.
    std::size_t error_count() const noexcept;
};

/// How recipes compute where canonical implementations differ.
struct PlanOptions {
    /// Every dequantization product computed in f32 and rounded once (by the
    /// output), as llama.cpp's convert_hf_to_gguf does (`dequant_simple`,
    /// `dequant_packed`: `weight.float() * scale.float()`), instead of the
    /// scheme library's own arithmetic where that is in the scale's dtype
    /// (compressed-tensors `dequantize` with BF16/F16 scales rounds each
    /// product to that dtype). The Hugging Face → GGUF path sets it.
    bool f32_products = false;
};

/// Detect schemes and build the plan. Never throws for per-tensor problems
/// (an orphan FP8 weight, an unknown dtype, a companion of the wrong shape):
/// those become `LogicalTensor::error` so the model stays inspectable.
/// \throws Error only for model-wide contradictions (e.g. a quantization_config
///         naming a method the core does not know: Unsupported).
Plan make_plan(const Catalog& catalog);
/// The same with `options` (make_plan(catalog) = make_plan(catalog, {})).
Plan make_plan(const Catalog& catalog, const PlanOptions& options);

}  // namespace amn
