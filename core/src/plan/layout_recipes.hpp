// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// Internal: recipes that layout transforms wrap around the plan's recipes
// (Hugging Face ↔ GGUF). Each is thread-safe and holds no state beyond
// its construction arguments.
#include "anamnesis/plan.hpp"

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace amn::detail {

/// Base of the recipes that change each value of `inner` and nothing else
/// (the round-through below, Gemma's RMSNorm offset ±1): rows, row length,
/// row granularity, scheme id, inputs and payload order are inner's;
/// describe() is inner's, followed by ", " + `note` when `note` is not
/// empty. dequantize_rows() decodes through inner, then apply()s.
class ElementwiseRecipe : public Recipe {
public:
    ElementwiseRecipe(std::shared_ptr<const Recipe> inner, std::string note)
        : inner_(std::move(inner)), note_(std::move(note)) {}
    std::string describe() const override { return note_.empty() ? inner_->describe() : inner_->describe() + ", " + note_; }
    std::string scheme_id() const override { return inner_->scheme_id(); }
    std::uint64_t rows() const override { return inner_->rows(); }
    std::uint64_t row_elems() const override { return inner_->row_elems(); }
    std::uint64_t row_granularity() const override { return inner_->row_granularity(); }
    void dequantize_rows(std::uint64_t row0, std::uint64_t nrows, float* out) const final {
        inner_->dequantize_rows(row0, nrows, out);
        apply(out, static_cast<std::size_t>(nrows * inner_->row_elems()));
    }
    bool payload_is_row_major() const override { return inner_->payload_is_row_major(); }
    std::vector<InputRange> inputs() const override { return inner_->inputs(); }
    std::vector<InputRange> consumed_inputs(std::uint64_t row0, std::uint64_t nrows) const override {
        return inner_->consumed_inputs(row0, nrows);
    }

protected:
    /// Changes the `n` values inner just decoded, in place (thread-safe, no state).
    virtual void apply(float* values, std::size_t n) const = 0;
    const Recipe& inner() const noexcept { return *inner_; }

private:
    std::shared_ptr<const Recipe> inner_;
    std::string note_;
};

/// The values of `inner` rounded through `dtype` (BF16 or F16: round to
/// nearest even and back to f32; any other dtype: unchanged) — a value a
/// file would hold in that dtype, e.g. convert_hf_to_gguf's lossless
/// intermediate before llama-quantize reads it.
std::shared_ptr<const Recipe> make_round_through_recipe(std::shared_ptr<const Recipe> inner, DType dtype);

/// Several tensors of one shape stacked along a new outer axis
/// (`torch.stack(parts, dim=0)`): output shape [parts.size(), shape...],
/// rows = parts × rows of a part. Every part must have the same rows() and
/// row_elems().
/// \throws Error{SizeMismatch} when they differ; Error{Usage} when empty.
std::shared_ptr<const Recipe> make_stack_recipe(std::vector<std::shared_ptr<const Recipe>> parts, std::string describe);

/// The 2-D tensor `inner` (`rows` × `cols`, row-major) transposed: output
/// `cols` × `rows` (GPT-2's Conv1D weights are stored [in, out]). Decoded
/// whole per call, so its row granularity is all its rows (one work unit).
std::shared_ptr<const Recipe> make_transpose_recipe(std::shared_ptr<const Recipe> inner, std::uint64_t rows,
                                                    std::uint64_t cols);

/// The values of `inner` plus one (conversion/gemma.py: Gemma's RMSNorm
/// weights are stored as w − 1, the converter writes `data_torch + 1`).
/// `round_to` F16: the sum rounded to nearest-even F16 and back, as torch
/// adds in an F16 tensor's own dtype (the converter keeps F16 inputs F16;
/// BF16 and the rest are upcast to f32 first, so any other value adds in f32).
std::shared_ptr<const Recipe> make_add_one_recipe(std::shared_ptr<const Recipe> inner, DType round_to);

/// Mamba's A = -torch.exp(A_log) (conversion/mamba.py): each value of `inner` through
/// kernels::torch_neg_exp (torch 1.13's AVX2 exp: SLEEF's Sleef_expf8_u10avx2, elementwise). In ssm_recipes.cc.
/// \throws Error{Unsupported} on a CPU without AVX2 and FMA (torch's exp gives other bytes there).
std::shared_ptr<const Recipe> make_neg_exp_recipe(std::shared_ptr<const Recipe> inner);
/// The way back: each value a of `inner` (GGUF's A) → an x with -torch.exp(x) == a bit for bit
/// (kernels::torch_neg_exp_inverse: log(-a), else the nearest float that gives a), Mamba's A_log, as F32
/// (lossless_dtype F32).
/// \throws Error{Unsupported} on a CPU without AVX2 and FMA; when decoding, Error{Unsupported} naming the
///         value when no float gives it (a positive A: not something -exp writes).
std::shared_ptr<const Recipe> make_neg_exp_inverse_recipe(std::shared_ptr<const Recipe> inner);

/// torch.equal of two tensors' values: the same rows and row length and every decoded value == (NaN never
/// equal, ±0 equal), read a work unit at a time (MambaModel's tied lm_head check). In ssm_recipes.cc.
bool recipes_equal(const Recipe& a, const Recipe& b);

/// The first `keep_rows` rows of `inner` (a row slice, e.g. Gemma 3's
/// `embed_tokens[:n_vocab]`). \throws Error{OutOfRange} when keep_rows exceeds inner's rows.
std::shared_ptr<const Recipe> make_leading_rows_recipe(std::shared_ptr<const Recipe> inner, std::uint64_t keep_rows);

/// `n` rows of zeros, then every row of `inner` (rows n + inner's): XLM-RoBERTa's position embedding back with
/// the pad_token_id + 1 rows the converter cut (`data_torch[offset:, :]`, conversion/bert.py). Stored plain
/// float dtypes stay lossless (zero bytes written for the new rows).
/// \throws Error{Unsupported} when inner's work units span several rows (a quantized row pair); Error{OutOfRange}
///         when rows past the end are asked for.
std::shared_ptr<const Recipe> make_zero_rows_before_recipe(std::shared_ptr<const Recipe> inner, std::uint64_t n);

/// Rows [begin, begin + count) of `inner`, e.g. expert e of a stacked
/// GGUF `ffn_*_exps` tensor [E, F, H] (rows e·F … (e+1)·F − 1): the way back
/// to one Hugging Face tensor per expert. Stored plain dtypes stay lossless.
/// \throws Error{OutOfRange} when the range exceeds inner's rows;
///         Error{Unsupported} when it does not cover whole work units of inner.
std::shared_ptr<const Recipe> make_row_range_recipe(std::shared_ptr<const Recipe> inner, std::uint64_t begin,
                                                   std::uint64_t count);

/// Rows [row_begin, row_end) of every expert of a stacked [E, G, B] tensor
/// (a fused gate|up halved on dim −2): output [E, row_end − row_begin, B].
/// `inner` may store it one row per expert (E rows of G·B) or one row per
/// G-row (E·G rows of B); one expert per work unit either way.
/// \throws Error{Malformed} when the range does not fit G or the stored rows.
std::shared_ptr<const Recipe> make_expert_rows_recipe(std::shared_ptr<const Recipe> inner, std::uint64_t experts,
                                                      std::uint64_t rows_per_expert, std::uint64_t row_begin,
                                                      std::uint64_t row_end);

/// DeepSeek's kv_b_proj split (MLA): `inner` (rows = n_head × G, row length
/// `in`) viewed as [n_head, G, in]; rows [row_begin, row_end) of every head:
/// output [n_head, row_end − row_begin, in] (v_b_proj), or with `transpose`
/// each head's block transposed, [n_head, in, row_end − row_begin] (k_b_proj).
/// One head per work unit.
/// \throws Error{Malformed} when inner's rows are not n_head × G with row_end ≤ G.
std::shared_ptr<const Recipe> make_head_rows_recipe(std::shared_ptr<const Recipe> inner, std::uint64_t n_head,
                                                    std::uint64_t row_begin, std::uint64_t row_end, bool transpose);

/// The source rows of "rows [row_begin, row_end) of every head" for a tensor
/// of `rows` rows in `n_head` groups.
/// \throws Error{Malformed} unless rows = n_head × G with row_begin < row_end ≤ G.
std::vector<std::uint64_t> head_rows_source(std::uint64_t rows, std::uint64_t n_head, std::uint64_t row_begin,
                                            std::uint64_t row_end);

/// gpt-oss's dequantized experts: `inner` holding `shape` = [E, A, B]
/// (row-major, however its rows split it), transposed per expert and every
/// `stride`-th row from `parity` kept: output [E, B / stride, A], row (e, r)
/// element a = inner[e, a, stride·r + parity] (`x.transpose(-1, -2)[:, parity::stride, :]`).
/// One expert per work unit.
/// \throws Error{Malformed} when shape is not 3-D, does not hold inner's values
///         in whole inner rows per expert, or B is not a multiple of stride.
std::shared_ptr<const Recipe> make_expert_transpose_recipe(std::shared_ptr<const Recipe> inner,
                                                           std::span<const std::uint64_t> shape, std::uint64_t stride,
                                                           std::uint64_t parity);

/// Every `stride`-th element of each row from `parity` (`x[..., parity::stride]`):
/// row length B / stride. \throws Error{Malformed} when B is not a multiple of stride.
std::shared_ptr<const Recipe> make_strided_cols_recipe(std::shared_ptr<const Recipe> inner, std::uint64_t stride,
                                                       std::uint64_t parity);

/// One input of make_group_join_recipe(): `recipe` holds `groups` blocks of
/// `rows` × `cols` values (row-major, each block whole inner rows), each
/// block transposed to `cols` × `rows` first when `transpose`.
struct JoinPart {
    std::shared_ptr<const Recipe> recipe;
    std::uint64_t rows = 0, cols = 0;
    bool transpose = false;
};

/// GGUF → Hugging Face, the inverse of a converter split (join_recipe.cc):
/// per group g (an expert, a head, or the one block of a 2-D tensor) the
/// parts' blocks g (after their own transpose) joined along rows —
/// concatenated in part order, or with `interleave` row i of part k at row
/// i·parts + k (gpt-oss's gate/up columns) —, then the joined block
/// transposed when `transpose_out`. Output: groups × R rows of C values
/// (R × C the joined block, or C × R when transposed); one group per work
/// unit. Lossless (stored bytes) when every part keeps the same plain dtype.
/// Examples: GraniteMoe input_linear [E, 2F, H] = gate [E, F, H] ‖ up;
/// DeepSeek kv_b_proj [n_head·(nope + v), kv_lora] = k_bᵀ [n_head, nope, kv_lora] ‖ v_b;
/// Llama 4 gate_up_proj [E, H, 2F] = (gate ‖ up)ᵀ.
/// \throws Error{Malformed} when a part does not hold `groups` such blocks,
///         the joined rows differ in length, or interleaved parts in count;
///         Error{Usage} when there is no part or no group.
std::shared_ptr<const Recipe> make_group_join_recipe(std::vector<JoinPart> parts, std::uint64_t groups, bool interleave,
                                                     bool transpose_out, std::string describe);

/// Indices [begin, end) of dimension `dim` of the tensor `inner` holds with
/// `shape` (row-major, however its rows split it): `x[:, …, begin:end, …]`.
/// Output rows: one per (outer index, kept index), of prod(shape[dim+1:])
/// values. Convert_hf_to_gguf's Qwen2-VL splits: the fused qkv weight/bias
/// in thirds along dim 0, the Conv3D patch embedding [C, 3, 2, kh, kw] at
/// temporal index 0 or 1 of dim 2 (then written [C, 3, kh, kw]).
/// \throws Error{Malformed} when dim ≥ rank, the range is empty or exceeds
///         shape[dim], or `shape` does not hold inner's values.
std::shared_ptr<const Recipe> make_dim_slice_recipe(std::shared_ptr<const Recipe> inner, std::span<const std::uint64_t> shape,
                                                    std::size_t dim, std::uint64_t begin, std::uint64_t end);

/// A tensor made by the converter (e.g. `rope_freqs.weight`): `values`
/// (row-major) as one row of values.size() elements.
std::shared_ptr<const Recipe> make_constant_recipe(std::vector<float> values, std::string describe);

/// llama.cpp's Q/K row permutation (convert_hf_to_gguf `LlamaModel.permute`):
/// the Hugging Face row that becomes GGUF row g of a projection with `rows`
/// rows in `n_head` heads of D = rows / n_head rows: GGUF row h·D + 2j + s
/// is HF row h·D + s·D/2 + j. Returned for every g in [0, rows).
/// \throws Error{Malformed} when rows is not n_head × an even head size.
std::vector<std::uint64_t> llama_permute_source_rows(std::uint64_t rows, std::uint64_t n_head);

}  // namespace amn::detail
