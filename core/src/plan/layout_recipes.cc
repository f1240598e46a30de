// SPDX-License-Identifier: MIT OR Apache-2.0
#include "plan/layout_recipes.hpp"

#include "anamnesis/error.hpp"
#include "kernels/fp4/fp4_kernels.hpp"
#include "plan/quant_groups.hpp"
#include "plan/shape_rows.hpp"

#include <algorithm>
#include <cstring>
#include <numeric>
#include <string>

namespace amn::detail {
namespace {

/// The inner recipe's lossless dtype when it stores one element per block (F32/F16/BF16…): the bytes of a
/// rearrangement of its elements can move as they are; nullopt otherwise.
std::optional<DType> per_element_lossless(const Recipe& inner) {
    const auto d = inner.lossless_dtype();
    const auto* info = d ? dtype_info(*d) : nullptr;
    return info && info->block_elems == 1 ? d : std::nullopt;
}

class RoundThrough final : public ElementwiseRecipe {
public:
    RoundThrough(std::shared_ptr<const Recipe> inner, DType d) : ElementwiseRecipe(std::move(inner), {}), d_(d) {}

private:
    void apply(float* values, std::size_t n) const override { kernels::fp4::round_through_simd(d_, values, n); }
    // A repack skips the values: the codes are the inner ones.
    std::shared_ptr<const QuantGroups> quant_groups() const override { return inner().quant_groups(); }
    DType d_;
};

class Stack final : public Recipe {
public:
    Stack(std::vector<std::shared_ptr<const Recipe>> parts, std::string what) : parts_(std::move(parts)), what_(std::move(what)) {
        if (parts_.empty()) throw Error(ErrorCode::Usage, "stack: no parts");
        rows_ = parts_[0]->rows();
        elems_ = parts_[0]->row_elems();
        gran_ = 1;
        for (const auto& p : parts_) {
            if (p->rows() != rows_ || p->row_elems() != elems_)
                throw Error(ErrorCode::SizeMismatch, "stack: parts of different shapes (" + std::to_string(p->rows()) + "×" +
                                                         std::to_string(p->row_elems()) + " vs " + std::to_string(rows_) + "×" +
                                                         std::to_string(elems_) + ")");
            gran_ = std::lcm(gran_, std::max<std::uint64_t>(1, p->row_granularity()));
        }
        // A chunk must not straddle two parts unless whole granules fit; keep
        // granules inside a part: rows_ is a multiple of every part's granularity.
        if (rows_ % gran_) gran_ = rows_;
    }
    std::string describe() const override { return parts_[0]->describe() + ", " + what_; }
    std::string scheme_id() const override { return parts_[0]->scheme_id(); }
    std::uint64_t rows() const override { return rows_ * parts_.size(); }
    std::uint64_t row_elems() const override { return elems_; }
    std::uint64_t row_granularity() const override { return gran_; }
    void dequantize_rows(std::uint64_t row0, std::uint64_t nrows, float* out) const override {
        while (nrows) {
            const std::uint64_t p = row0 / rows_, r = row0 % rows_, n = std::min(nrows, rows_ - r);
            parts_.at(static_cast<std::size_t>(p))->dequantize_rows(r, n, out);
            out += n * elems_;
            row0 += n;
            nrows -= n;
        }
    }
    bool payload_is_row_major() const override { return false; }
    std::vector<InputRange> inputs() const override {
        std::vector<InputRange> all;
        for (const auto& p : parts_) {
            auto in = p->inputs();
            all.insert(all.end(), in.begin(), in.end());
        }
        return all;
    }
    // Each part's rows in the range, as the part releases them: a stacked
    // expert's pages go as soon as its rows are written.
    std::vector<InputRange> consumed_inputs(std::uint64_t row0, std::uint64_t nrows) const override {
        std::vector<InputRange> out;
        const std::uint64_t end = std::min(rows(), row0 + nrows);
        while (row0 < end) {
            const std::uint64_t p = row0 / rows_, r = row0 % rows_, n = std::min(end - row0, rows_ - r);
            auto in = parts_[static_cast<std::size_t>(p)]->consumed_inputs(r, n);
            out.insert(out.end(), in.begin(), in.end());
            row0 += n;
        }
        return out;
    }
    std::shared_ptr<const QuantGroups> quant_groups() const override { return make_stacked_groups(parts_); }
    // Parts stored in one plain dtype: their bytes, part by part.
    std::optional<DType> lossless_dtype() const override {
        const auto d = parts_[0]->lossless_dtype();
        const auto* info = d ? dtype_info(*d) : nullptr;
        if (!info || info->block_elems != 1) return std::nullopt;
        for (const auto& p : parts_)
            if (p->lossless_dtype() != d) return std::nullopt;
        return d;
    }
    void copy_rows(std::uint64_t row0, std::uint64_t nrows, std::uint8_t* out) const override {
        const std::size_t row_bytes = static_cast<std::size_t>(elems_ * dtype_info(*lossless_dtype())->block_bytes);
        while (nrows) {
            const std::uint64_t p = row0 / rows_, r = row0 % rows_, n = std::min(nrows, rows_ - r);
            parts_.at(static_cast<std::size_t>(p))->copy_rows(r, n, out);
            out += n * row_bytes;
            row0 += n;
            nrows -= n;
        }
    }

private:
    std::vector<std::shared_ptr<const Recipe>> parts_;
    std::string what_;
    std::uint64_t rows_ = 0, elems_ = 0, gran_ = 1;
};

class Constant final : public Recipe {
public:
    Constant(std::vector<float> v, std::string what) : v_(std::move(v)), what_(std::move(what)) {}
    std::string describe() const override { return what_; }
    std::string scheme_id() const override { return "generated"; }
    std::uint64_t rows() const override { return 1; }
    std::uint64_t row_elems() const override { return v_.size(); }
    void dequantize_rows(std::uint64_t row0, std::uint64_t nrows, float* out) const override {
        if (row0 != 0 || nrows != 1) throw Error(ErrorCode::OutOfRange, "generated tensor: one row");
        std::copy(v_.begin(), v_.end(), out);
    }

private:
    std::vector<float> v_;
    std::string what_;
};

// A 2-D transpose (GPT-2's Conv1D weights are [in, out]): decoded whole per
// chunk, so one chunk covers the tensor (row_granularity = rows).
class Transpose final : public Recipe {
public:
    explicit Transpose(std::shared_ptr<const Recipe> inner, std::uint64_t in_rows, std::uint64_t in_cols)
        : inner_(std::move(inner)), r_(in_rows), c_(in_cols) {}
    std::string describe() const override { return inner_->describe() + ", transposed"; }
    std::string scheme_id() const override { return inner_->scheme_id(); }
    std::uint64_t rows() const override { return c_; }
    std::uint64_t row_elems() const override { return r_; }
    std::uint64_t row_granularity() const override { return c_; }
    void dequantize_rows(std::uint64_t row0, std::uint64_t nrows, float* out) const override {
        std::vector<float> all(static_cast<std::size_t>(r_ * c_));
        inner_->dequantize_rows(0, inner_->rows(), all.data());
        for (std::uint64_t i = 0; i < nrows; ++i)
            for (std::uint64_t k = 0; k < r_; ++k) out[i * r_ + k] = all[static_cast<std::size_t>(k * c_ + row0 + i)];
    }
    /// A stored F32/F16/BF16 (any one-element-per-block dtype) keeps its dtype: the bytes move.
    std::optional<DType> lossless_dtype() const override {
        return per_element_lossless(*inner_);
    }
    void copy_rows(std::uint64_t row0, std::uint64_t nrows, std::uint8_t* out) const override {
        const std::size_t w = dtype_info(*lossless_dtype())->block_bytes;
        std::vector<std::uint8_t> all(static_cast<std::size_t>(r_ * c_ * w));
        inner_->copy_rows(0, inner_->rows(), all.data());
        for (std::uint64_t i = 0; i < nrows; ++i)
            for (std::uint64_t k = 0; k < r_; ++k)
                std::memcpy(out + (i * r_ + k) * w, all.data() + (k * c_ + row0 + i) * w, w);
    }
    bool payload_is_row_major() const override { return false; }
    std::vector<InputRange> inputs() const override { return inner_->inputs(); }

private:
    std::shared_ptr<const Recipe> inner_;
    std::uint64_t r_, c_;
};

// Rows [begin, begin + count) of inner (one expert of a stacked [E, …] tensor).
class RowRange final : public Recipe {
public:
    RowRange(std::shared_ptr<const Recipe> inner, std::uint64_t begin, std::uint64_t count)
        : inner_(std::move(inner)), b_(begin), n_(count) {
        if (b_ > inner_->rows() || n_ > inner_->rows() - b_)
            throw Error(ErrorCode::OutOfRange, "rows [" + std::to_string(b_) + ", " + std::to_string(b_ + n_) + ") of " +
                                                   std::to_string(inner_->rows()));
        const std::uint64_t g = std::max<std::uint64_t>(1, inner_->row_granularity());
        if (b_ % g || n_ % g) throw Error(ErrorCode::Unsupported, "a row slice must cover whole work units of its source");
    }
    std::string describe() const override {
        return inner_->describe() + ", rows " + std::to_string(b_) + "…" + std::to_string(b_ + n_ - 1);
    }
    std::string scheme_id() const override { return inner_->scheme_id(); }
    std::uint64_t rows() const override { return n_; }
    std::uint64_t row_elems() const override { return inner_->row_elems(); }
    std::uint64_t row_granularity() const override { return inner_->row_granularity(); }
    void dequantize_rows(std::uint64_t row0, std::uint64_t nrows, float* out) const override {
        check(row0, nrows);
        inner_->dequantize_rows(b_ + row0, nrows, out);
    }
    std::optional<DType> lossless_dtype() const override { return inner_->lossless_dtype(); }
    void copy_rows(std::uint64_t row0, std::uint64_t nrows, std::uint8_t* out) const override {
        check(row0, nrows);
        inner_->copy_rows(b_ + row0, nrows, out);
    }
    bool payload_is_row_major() const override { return false; }
    std::vector<InputRange> inputs() const override { return inner_->inputs(); }
    std::vector<InputRange> consumed_inputs(std::uint64_t row0, std::uint64_t nrows) const override {
        return inner_->consumed_inputs(b_ + row0, nrows);
    }
    std::shared_ptr<const QuantGroups> quant_groups() const override {
        auto g = inner_->quant_groups();
        return g && g->rows() == inner_->rows() ? make_row_range_groups(std::move(g), b_, n_) : nullptr;
    }

private:
    void check(std::uint64_t row0, std::uint64_t nrows) const {
        if (row0 > n_ || nrows > n_ - row0) throw Error(ErrorCode::OutOfRange, "row range: rows out of range");
    }
    std::shared_ptr<const Recipe> inner_;
    std::uint64_t b_, n_;
};

// make_zero_rows_before_recipe(): `n` rows of zeros, then inner's rows (stored bytes kept: 0.0 is all-zero
// bytes in every plain float dtype).
class ZeroRowsBefore final : public Recipe {
public:
    ZeroRowsBefore(std::shared_ptr<const Recipe> inner, std::uint64_t n) : inner_(std::move(inner)), n_(n) {
        const std::uint64_t g = std::max<std::uint64_t>(1, inner_->row_granularity());
        if (g != 1) throw Error(ErrorCode::Unsupported, "zero rows before a source whose work units span several rows");
    }
    std::string describe() const override { return std::to_string(n_) + " zero rows, then " + inner_->describe(); }
    std::string scheme_id() const override { return inner_->scheme_id(); }
    std::uint64_t rows() const override { return n_ + inner_->rows(); }
    std::uint64_t row_elems() const override { return inner_->row_elems(); }
    void dequantize_rows(std::uint64_t row0, std::uint64_t nrows, float* out) const override {
        const std::uint64_t z = zeros(row0, nrows);
        std::fill(out, out + z * row_elems(), 0.0f);
        if (nrows > z) inner_->dequantize_rows(row0 + z - n_, nrows - z, out + z * row_elems());
    }
    std::optional<DType> lossless_dtype() const override {
        const auto d = inner_->lossless_dtype();
        return d && dtype_info(*d) && dtype_info(*d)->block_elems == 1 && dtype_info(*d)->is_float ? d : std::nullopt;
    }
    void copy_rows(std::uint64_t row0, std::uint64_t nrows, std::uint8_t* out) const override {
        const std::uint64_t z = zeros(row0, nrows), row_bytes = row_elems() * dtype_info(*lossless_dtype())->block_bytes;
        std::fill(out, out + z * row_bytes, std::uint8_t{0});
        if (nrows > z) inner_->copy_rows(row0 + z - n_, nrows - z, out + z * row_bytes);
    }
    bool payload_is_row_major() const override { return false; }
    std::vector<InputRange> inputs() const override { return inner_->inputs(); }
    std::vector<InputRange> consumed_inputs(std::uint64_t row0, std::uint64_t nrows) const override {
        const std::uint64_t z = zeros(row0, nrows);
        return nrows > z ? inner_->consumed_inputs(row0 + z - n_, nrows - z) : std::vector<InputRange>{};
    }

private:
    /// How many of rows [row0, row0 + nrows) are leading zero rows. \throws Error{OutOfRange} past the end.
    std::uint64_t zeros(std::uint64_t row0, std::uint64_t nrows) const {
        if (row0 > rows() || nrows > rows() - row0) throw Error(ErrorCode::OutOfRange, "zero rows before: rows out of range");
        return row0 >= n_ ? 0 : std::min(nrows, n_ - row0);
    }
    std::shared_ptr<const Recipe> inner_;
    std::uint64_t n_;
};

class AddOne final : public ElementwiseRecipe {
public:
    AddOne(std::shared_ptr<const Recipe> inner, DType round_to)
        : ElementwiseRecipe(std::move(inner), "plus 1 (Gemma RMSNorm offset)"), round_(round_to) {}
    bool payload_is_row_major() const override { return false; }

private:
    void apply(float* values, std::size_t n) const override {
        for (std::size_t i = 0; i < n; ++i) values[i] = values[i] + 1.0f;
        if (round_ == DType::F16) kernels::fp4::round_through_simd(DType::F16, values, n);
    }
    DType round_;
};

class LeadingRows final : public Recipe {
public:
    LeadingRows(std::shared_ptr<const Recipe> inner, std::uint64_t keep) : inner_(std::move(inner)), keep_(keep) {
        if (keep_ > inner_->rows())
            throw Error(ErrorCode::OutOfRange, "cannot keep " + std::to_string(keep_) + " of " + std::to_string(inner_->rows()) + " rows");
        if (keep_ % std::max<std::uint64_t>(1, inner_->row_granularity()))
            throw Error(ErrorCode::Unsupported, "a row slice must end on a whole work unit of its source");
    }
    std::string describe() const override { return inner_->describe() + ", first " + std::to_string(keep_) + " rows"; }
    std::string scheme_id() const override { return inner_->scheme_id(); }
    std::uint64_t rows() const override { return keep_; }
    std::uint64_t row_elems() const override { return inner_->row_elems(); }
    std::uint64_t row_granularity() const override { return inner_->row_granularity(); }
    void dequantize_rows(std::uint64_t row0, std::uint64_t nrows, float* out) const override {
        if (row0 + nrows > keep_) throw Error(ErrorCode::OutOfRange, "row slice: rows out of range");
        inner_->dequantize_rows(row0, nrows, out);
    }
    bool payload_is_row_major() const override { return false; }
    std::vector<InputRange> inputs() const override { return inner_->inputs(); }
    std::vector<InputRange> consumed_inputs(std::uint64_t row0, std::uint64_t nrows) const override {
        // The rows past keep_ are never read: the last rows finish the rest too.
        return row0 + nrows >= keep_ ? inner_->consumed_inputs(row0, inner_->rows() - row0) : inner_->consumed_inputs(row0, nrows);
    }

private:
    std::shared_ptr<const Recipe> inner_;
    std::uint64_t keep_;
};

class HeadRows final : public Recipe {
public:
    HeadRows(std::shared_ptr<const Recipe> inner, std::uint64_t n_head, std::uint64_t b, std::uint64_t e, bool transpose)
        : inner_(std::move(inner)), h_(n_head), b_(b), e_(e), t_(transpose) {
        (void)head_rows_source(inner_->rows(), h_, b_, e_);  // validates
        g_ = inner_->rows() / h_;
        in_ = inner_->row_elems();
    }
    std::string describe() const override {
        return inner_->describe() + (t_ ? ", per-head rows transposed (MLA k_b)" : ", per-head rows (MLA v_b)");
    }
    std::string scheme_id() const override { return inner_->scheme_id(); }
    std::uint64_t rows() const override { return h_ * (t_ ? in_ : e_ - b_); }
    std::uint64_t row_elems() const override { return t_ ? e_ - b_ : in_; }
    std::uint64_t row_granularity() const override { return t_ ? in_ : e_ - b_; }
    void dequantize_rows(std::uint64_t row0, std::uint64_t nrows, float* out) const override {
        const std::uint64_t n = e_ - b_;
        std::vector<float> block(static_cast<std::size_t>(n * in_));
        const std::uint64_t per_head = t_ ? in_ : n;
        while (nrows) {
            const std::uint64_t h = row0 / per_head, i0 = row0 % per_head, take = std::min(nrows, per_head - i0);
            inner_->dequantize_rows(h * g_ + b_, n, block.data());  // [n, in]
            if (t_) {
                for (std::uint64_t i = 0; i < take; ++i)
                    for (std::uint64_t j = 0; j < n; ++j) out[i * n + j] = block[static_cast<std::size_t>(j * in_ + i0 + i)];
                out += take * n;
            } else {
                std::copy_n(block.data() + i0 * in_, static_cast<std::size_t>(take * in_), out);
                out += take * in_;
            }
            row0 += take;
            nrows -= take;
        }
    }
    /// A stored F32/F16/BF16 (one element per block) keeps its dtype: the bytes move
    /// (mlx-lm's embed_q / unembed_out of an unquantized kv_b_proj).
    std::optional<DType> lossless_dtype() const override {
        return per_element_lossless(*inner_);
    }
    void copy_rows(std::uint64_t row0, std::uint64_t nrows, std::uint8_t* out) const override {
        const std::size_t w = dtype_info(*lossless_dtype())->block_bytes;
        const std::uint64_t n = e_ - b_, per_head = t_ ? in_ : n;
        std::vector<std::uint8_t> block(static_cast<std::size_t>(n * in_ * w));
        while (nrows) {
            const std::uint64_t h = row0 / per_head, i0 = row0 % per_head, take = std::min(nrows, per_head - i0);
            inner_->copy_rows(h * g_ + b_, n, block.data());  // [n, in]
            if (t_) {
                for (std::uint64_t i = 0; i < take; ++i)
                    for (std::uint64_t j = 0; j < n; ++j)
                        std::memcpy(out + (i * n + j) * w, block.data() + (j * in_ + i0 + i) * w, w);
                out += take * n * w;
            } else {
                std::memcpy(out, block.data() + i0 * in_ * w, static_cast<std::size_t>(take * in_ * w));
                out += take * in_ * w;
            }
            row0 += take;
            nrows -= take;
        }
    }
    bool payload_is_row_major() const override { return false; }
    std::vector<InputRange> inputs() const override { return inner_->inputs(); }
    std::vector<InputRange> consumed_inputs(std::uint64_t row0, std::uint64_t nrows) const override {
        // The heads the rows belong to, each as the source rows of its group.
        const std::uint64_t per_head = t_ ? in_ : e_ - b_;
        if (nrows == 0 || per_head == 0) return {};
        const std::uint64_t h0 = row0 / per_head, h1 = (row0 + nrows - 1) / per_head;
        return inner_->consumed_inputs(h0 * g_, (h1 + 1 - h0) * g_);
    }

private:
    std::shared_ptr<const Recipe> inner_;
    std::uint64_t h_, b_, e_, g_ = 0, in_ = 0;
    bool t_;
};

class ExpertTranspose final : public Recipe {
public:
    ExpertTranspose(std::shared_ptr<const Recipe> inner, std::uint64_t experts, std::uint64_t a, std::uint64_t b,
                    std::uint64_t stride, std::uint64_t parity)
        : inner_(std::move(inner)), e_(experts), a_(a), b_(b), s_(stride), p_(parity) {
        const std::uint64_t re = inner_->row_elems();
        if (e_ == 0 || a_ == 0 || b_ == 0 || s_ == 0 || b_ % s_ || p_ >= s_ || re == 0 || (a_ * b_) % re ||
            inner_->rows() * re != e_ * a_ * b_)
            throw Error(ErrorCode::Malformed, std::to_string(inner_->rows()) + " × " + std::to_string(re) + " values are not " +
                                                  std::to_string(e_) + " experts of " + std::to_string(a_) + " × " +
                                                  std::to_string(b_) + " with a stride of " + std::to_string(s_));
        inner_rows_ = a_ * b_ / re;  // the inner's rows per expert
    }
    std::string describe() const override { return inner_->describe() + ", per expert transposed"; }
    std::string scheme_id() const override { return inner_->scheme_id(); }
    std::uint64_t rows() const override { return e_ * (b_ / s_); }
    std::uint64_t row_elems() const override { return a_; }
    std::uint64_t row_granularity() const override { return b_ / s_; }
    void dequantize_rows(std::uint64_t row0, std::uint64_t nrows, float* out) const override {
        const std::uint64_t per = b_ / s_;
        std::vector<float> blk(static_cast<std::size_t>(a_ * b_));
        while (nrows) {
            const std::uint64_t e = row0 / per, r0 = row0 % per, take = std::min(nrows, per - r0);
            inner_->dequantize_rows(e * inner_rows_, inner_rows_, blk.data());  // expert e as [a, b]
            for (std::uint64_t r = 0; r < take; ++r)
                for (std::uint64_t a = 0; a < a_; ++a) out[r * a_ + a] = blk[static_cast<std::size_t>(a * b_ + s_ * (r0 + r) + p_)];
            out += take * a_;
            row0 += take;
            nrows -= take;
        }
    }
    bool payload_is_row_major() const override { return false; }
    std::vector<InputRange> inputs() const override { return inner_->inputs(); }
    std::vector<InputRange> consumed_inputs(std::uint64_t row0, std::uint64_t nrows) const override {
        const std::uint64_t per = b_ / s_;
        if (nrows == 0) return {};
        const std::uint64_t e0 = row0 / per, e1 = (row0 + nrows - 1) / per;  // the experts touched
        return inner_->consumed_inputs(e0 * inner_rows_, (e1 + 1 - e0) * inner_rows_);
    }

private:
    std::shared_ptr<const Recipe> inner_;
    std::uint64_t e_, a_, b_, s_, p_, inner_rows_ = 0;
};

class StridedCols final : public Recipe {
public:
    StridedCols(std::shared_ptr<const Recipe> inner, std::uint64_t stride, std::uint64_t parity)
        : inner_(std::move(inner)), s_(stride), p_(parity) {
        b_ = inner_->row_elems();
        if (s_ == 0 || b_ % s_ || p_ >= s_)
            throw Error(ErrorCode::Malformed, "a row of " + std::to_string(b_) + " does not split with a stride of " + std::to_string(s_));
    }
    std::string describe() const override { return inner_->describe() + ", every " + std::to_string(s_) + "th column"; }
    std::string scheme_id() const override { return inner_->scheme_id(); }
    std::uint64_t rows() const override { return inner_->rows(); }
    std::uint64_t row_elems() const override { return b_ / s_; }
    std::uint64_t row_granularity() const override { return inner_->row_granularity(); }
    void dequantize_rows(std::uint64_t row0, std::uint64_t nrows, float* out) const override {
        std::vector<float> buf(static_cast<std::size_t>(nrows * b_));
        inner_->dequantize_rows(row0, nrows, buf.data());
        const std::uint64_t n = b_ / s_;
        for (std::uint64_t r = 0; r < nrows; ++r)
            for (std::uint64_t c = 0; c < n; ++c) out[r * n + c] = buf[static_cast<std::size_t>(r * b_ + s_ * c + p_)];
    }
    bool payload_is_row_major() const override { return false; }
    std::vector<InputRange> inputs() const override { return inner_->inputs(); }
    std::vector<InputRange> consumed_inputs(std::uint64_t row0, std::uint64_t nrows) const override {
        return inner_->consumed_inputs(row0, nrows);  // row r is the inner's row r
    }

private:
    std::shared_ptr<const Recipe> inner_;
    std::uint64_t s_, p_, b_ = 0;
};

}  // namespace

std::shared_ptr<const Recipe> make_expert_transpose_recipe(std::shared_ptr<const Recipe> inner,
                                                           std::span<const std::uint64_t> shape, std::uint64_t stride,
                                                           std::uint64_t parity) {
    if (shape.size() != 3) throw Error(ErrorCode::Malformed, "expected [experts, in, out], got " + shape_to_string(shape));
    return std::make_shared<ExpertTranspose>(std::move(inner), shape[0], shape[1], shape[2], stride, parity);
}

std::shared_ptr<const Recipe> make_strided_cols_recipe(std::shared_ptr<const Recipe> inner, std::uint64_t stride,
                                                       std::uint64_t parity) {
    return std::make_shared<StridedCols>(std::move(inner), stride, parity);
}

std::vector<std::uint64_t> head_rows_source(std::uint64_t rows, std::uint64_t n_head, std::uint64_t row_begin,
                                            std::uint64_t row_end) {
    if (n_head == 0 || rows % n_head || row_begin >= row_end || row_end > rows / n_head)
        throw Error(ErrorCode::Malformed, std::to_string(rows) + " rows do not split into " + std::to_string(n_head) +
                                              " heads holding rows [" + std::to_string(row_begin) + ", " +
                                              std::to_string(row_end) + ") each");
    const std::uint64_t g = rows / n_head;
    std::vector<std::uint64_t> src;
    src.reserve(static_cast<std::size_t>(n_head * (row_end - row_begin)));
    for (std::uint64_t h = 0; h < n_head; ++h)
        for (std::uint64_t r = row_begin; r < row_end; ++r) src.push_back(h * g + r);
    return src;
}

std::shared_ptr<const Recipe> make_head_rows_recipe(std::shared_ptr<const Recipe> inner, std::uint64_t n_head,
                                                    std::uint64_t row_begin, std::uint64_t row_end, bool transpose) {
    return std::make_shared<HeadRows>(std::move(inner), n_head, row_begin, row_end, transpose);
}

std::shared_ptr<const Recipe> make_add_one_recipe(std::shared_ptr<const Recipe> inner, DType round_to) {
    return std::make_shared<AddOne>(std::move(inner), round_to);
}

std::shared_ptr<const Recipe> make_leading_rows_recipe(std::shared_ptr<const Recipe> inner, std::uint64_t keep_rows) {
    return std::make_shared<LeadingRows>(std::move(inner), keep_rows);
}

// Rows [b, e) of every expert of a 3-D [E, G, B] tensor stored one expert per row (inner rows = E,
// row length G·B): output [E, e − b, B], one expert per work unit (its row decoded once).
class ExpertRowSlice final : public Recipe {
public:
    ExpertRowSlice(std::shared_ptr<const Recipe> inner, std::uint64_t g, std::uint64_t b, std::uint64_t e)
        : inner_(std::move(inner)), g_(g), b_(b), e_(e) {
        if (g_ == 0 || b_ >= e_ || e_ > g_ || inner_->row_elems() % g_)
            throw Error(ErrorCode::Malformed, "rows [" + std::to_string(b_) + ", " + std::to_string(e_) + ") of " +
                                                  std::to_string(g_) + " per expert do not fit the stored rows");
        w_ = inner_->row_elems() / g_;
    }
    std::string describe() const override { return inner_->describe() + ", rows of each expert"; }
    std::string scheme_id() const override { return inner_->scheme_id(); }
    std::uint64_t rows() const override { return inner_->rows() * (e_ - b_); }
    std::uint64_t row_elems() const override { return w_; }
    std::uint64_t row_granularity() const override { return e_ - b_; }
    void dequantize_rows(std::uint64_t row0, std::uint64_t nrows, float* out) const override {
        const std::uint64_t n = e_ - b_;
        if (row0 % n || nrows % n || row0 + nrows > rows()) throw Error(ErrorCode::OutOfRange, "expert rows: not whole experts");
        std::vector<float> all(static_cast<std::size_t>(inner_->row_elems()));
        for (std::uint64_t x = row0 / n; x < (row0 + nrows) / n; ++x) {
            inner_->dequantize_rows(x, 1, all.data());
            std::memcpy(out + (x * n - row0) * w_, all.data() + b_ * w_, n * w_ * sizeof(float));
        }
    }
    std::optional<DType> lossless_dtype() const override {
        return per_element_lossless(*inner_);
    }
    void copy_rows(std::uint64_t row0, std::uint64_t nrows, std::uint8_t* out) const override {
        const std::uint64_t n = e_ - b_;
        if (row0 % n || nrows % n || row0 + nrows > rows()) throw Error(ErrorCode::OutOfRange, "expert rows: not whole experts");
        const std::size_t bw = dtype_info(*lossless_dtype())->block_bytes;
        std::vector<std::uint8_t> all(static_cast<std::size_t>(inner_->row_elems() * bw));
        for (std::uint64_t x = row0 / n; x < (row0 + nrows) / n; ++x) {
            inner_->copy_rows(x, 1, all.data());
            std::memcpy(out + (x * n - row0) * w_ * bw, all.data() + b_ * w_ * bw, n * w_ * bw);
        }
    }
    bool payload_is_row_major() const override { return false; }
    std::vector<InputRange> inputs() const override { return inner_->inputs(); }

private:
    std::shared_ptr<const Recipe> inner_;
    std::uint64_t g_, b_, e_, w_ = 0;
};

std::shared_ptr<const Recipe> make_expert_rows_recipe(std::shared_ptr<const Recipe> inner, std::uint64_t experts,
                                                      std::uint64_t rows_per_expert, std::uint64_t row_begin,
                                                      std::uint64_t row_end) {
    if (inner->rows() == experts && experts != experts * rows_per_expert)
        return std::make_shared<ExpertRowSlice>(std::move(inner), rows_per_expert, row_begin, row_end);
    return make_head_rows_recipe(std::move(inner), experts, row_begin, row_end, false);
}

std::shared_ptr<const Recipe> make_row_range_recipe(std::shared_ptr<const Recipe> inner, std::uint64_t begin,
                                                   std::uint64_t count) {
    return std::make_shared<RowRange>(std::move(inner), begin, count);
}

std::shared_ptr<const Recipe> make_transpose_recipe(std::shared_ptr<const Recipe> inner, std::uint64_t rows,
                                                    std::uint64_t cols) {
    return std::make_shared<Transpose>(std::move(inner), rows, cols);
}

std::shared_ptr<const Recipe> make_round_through_recipe(std::shared_ptr<const Recipe> inner, DType dtype) {
    if (dtype != DType::BF16 && dtype != DType::F16) return inner;
    return std::make_shared<RoundThrough>(std::move(inner), dtype);
}

std::shared_ptr<const Recipe> make_stack_recipe(std::vector<std::shared_ptr<const Recipe>> parts, std::string describe) {
    return std::make_shared<Stack>(std::move(parts), std::move(describe));
}

std::shared_ptr<const Recipe> make_zero_rows_before_recipe(std::shared_ptr<const Recipe> inner, std::uint64_t n) {
    return std::make_shared<ZeroRowsBefore>(std::move(inner), n);
}

std::shared_ptr<const Recipe> make_constant_recipe(std::vector<float> values, std::string describe) {
    return std::make_shared<Constant>(std::move(values), std::move(describe));
}

std::vector<std::uint64_t> llama_permute_source_rows(std::uint64_t rows, std::uint64_t n_head) {
    if (n_head == 0 || rows % n_head || (rows / n_head) % 2)
        throw Error(ErrorCode::Malformed, std::to_string(rows) + " rows do not split into " + std::to_string(n_head) +
                                              " heads of an even size (llama Q/K permutation)");
    const std::uint64_t d = rows / n_head, half = d / 2;
    std::vector<std::uint64_t> src(rows);
    for (std::uint64_t h = 0; h < n_head; ++h)
        for (std::uint64_t j = 0; j < half; ++j)
            for (std::uint64_t s = 0; s < 2; ++s) src[h * d + 2 * j + s] = h * d + s * half + j;
    return src;
}

namespace {

// make_dim_slice_recipe(): the tensor viewed as [outer, D, inner]; output row
// (o, k) is source shape row o·D + begin + k of `inner_elems` values.
class DimSlice final : public Recipe {
public:
    DimSlice(std::shared_ptr<const Recipe> inner, std::uint64_t outer, std::uint64_t d, std::uint64_t inner_elems,
             std::uint64_t begin, std::uint64_t end)
        : inner_(std::move(inner)), outer_(outer), d_(d), n_(inner_elems), b_(begin), k_(end - begin) {}
    std::string describe() const override {
        return inner_->describe() + ", indices " + std::to_string(b_) + ".." + std::to_string(b_ + k_) + " of " + std::to_string(d_);
    }
    std::string scheme_id() const override { return inner_->scheme_id(); }
    std::uint64_t rows() const override { return outer_ * k_; }
    std::uint64_t row_elems() const override { return n_; }
    void dequantize_rows(std::uint64_t row0, std::uint64_t nrows, float* out) const override {
        for (std::uint64_t r = row0; r < row0 + nrows;) {
            const std::uint64_t o = r / k_, k = r % k_;
            const std::uint64_t run = std::min(k_ - k, row0 + nrows - r);  // contiguous source rows
            dequantize_shape_rows(*inner_, n_, o * d_ + b_ + k, run, out + (r - row0) * n_);
            r += run;
        }
    }
    bool payload_is_row_major() const override { return false; }
    std::vector<InputRange> inputs() const override { return inner_->inputs(); }
    std::vector<InputRange> consumed_inputs(std::uint64_t row0, std::uint64_t nrows) const override {
        return row0 + nrows >= rows() ? inner_->inputs() : std::vector<InputRange>{};
    }

private:
    std::shared_ptr<const Recipe> inner_;
    std::uint64_t outer_, d_, n_, b_, k_;
};

}  // namespace

std::shared_ptr<const Recipe> make_dim_slice_recipe(std::shared_ptr<const Recipe> inner, std::span<const std::uint64_t> shape,
                                                    std::size_t dim, std::uint64_t begin, std::uint64_t end) {
    if (dim >= shape.size() || begin >= end || end > shape[dim])
        throw Error(ErrorCode::Malformed, "cannot take indices " + std::to_string(begin) + ".." + std::to_string(end) + " of dimension " +
                                              std::to_string(dim) + " of " + shape_to_string(shape));
    std::uint64_t outer = 1, n = 1;
    for (std::size_t i = 0; i < dim; ++i) outer *= shape[i];
    for (std::size_t i = dim + 1; i < shape.size(); ++i) n *= shape[i];
    if (outer * shape[dim] * n != inner->rows() * inner->row_elems())
        throw Error(ErrorCode::Malformed, "the shape " + shape_to_string(shape) + " does not hold the tensor's values");
    return std::make_shared<DimSlice>(std::move(inner), outer, shape[dim], n, begin, end);
}

}  // namespace amn::detail
