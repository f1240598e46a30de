// SPDX-License-Identifier: MIT OR Apache-2.0
// GGUF → Hugging Face: one tensor joined from several, group by group
// (layout_recipes.hpp make_group_join_recipe): the inverse of the
// converter's splits (GraniteMoe's input_linear halves, DeepSeek's kv_b_proj
// → k_b/v_b, Llama 4's and gpt-oss's fused gate_up_proj).
#include "plan/layout_recipes.hpp"

#include "anamnesis/error.hpp"

#include <algorithm>
#include <cstring>

namespace amn::detail {
namespace {

/// `src` (r × c elements of w bytes, row-major) transposed into `dst` (c × r).
void transpose_bytes(const std::uint8_t* src, std::uint64_t r, std::uint64_t c, std::size_t w, std::uint8_t* dst) {
    for (std::uint64_t i = 0; i < r; ++i)
        for (std::uint64_t j = 0; j < c; ++j) std::memcpy(dst + (j * r + i) * w, src + (i * c + j) * w, w);
}

class GroupJoin final : public Recipe {
public:
    GroupJoin(std::vector<JoinPart> parts, std::uint64_t groups, bool interleave, bool transpose_out, std::string describe)
        : parts_(std::move(parts)), groups_(groups), interleave_(interleave), transpose_out_(transpose_out),
          describe_(std::move(describe)) {
        if (parts_.empty() || groups_ == 0) throw Error(ErrorCode::Usage, "join: no parts or no groups");
        std::uint64_t jr = 0, jc = 0;
        for (const auto& p : parts_) {
            const std::uint64_t re = p.recipe ? p.recipe->row_elems() : 0;
            const std::uint64_t n = p.rows * p.cols;
            if (!p.recipe || n == 0 || re == 0 || n % re || p.recipe->rows() * re != groups_ * n)
                throw Error(ErrorCode::Malformed, "join: a part does not hold " + std::to_string(groups_) + " blocks of " +
                                                      std::to_string(p.rows) + " × " + std::to_string(p.cols) + " values");
            const std::uint64_t r = p.transpose ? p.cols : p.rows, c = p.transpose ? p.rows : p.cols;
            if (jc && c != jc) throw Error(ErrorCode::Malformed, "join: the parts' rows differ in length");
            if (interleave_ && jr && r != jr / static_cast<std::uint64_t>(&p - parts_.data()))
                throw Error(ErrorCode::Malformed, "join: interleaved parts differ in row count");
            jc = c;
            jr += r;
        }
        jrows_ = jr;
        jcols_ = jc;
        out_rows_ = transpose_out_ ? jc : jr;
        out_cols_ = transpose_out_ ? jr : jc;
    }
    std::string describe() const override { return describe_; }
    std::string scheme_id() const override { return parts_[0].recipe->scheme_id(); }
    std::uint64_t rows() const override { return groups_ * out_rows_; }
    std::uint64_t row_elems() const override { return out_cols_; }
    std::uint64_t row_granularity() const override { return out_rows_; }
    void dequantize_rows(std::uint64_t row0, std::uint64_t nrows, float* out) const override {
        rows_of(row0, nrows, reinterpret_cast<std::uint8_t*>(out), sizeof(float), false);
    }
    std::optional<DType> lossless_dtype() const override {
        std::optional<DType> d = parts_[0].recipe->lossless_dtype();
        if (!d || !dtype_info(*d) || dtype_info(*d)->block_elems != 1) return std::nullopt;
        for (const auto& p : parts_)
            if (p.recipe->lossless_dtype() != d) return std::nullopt;
        return d;
    }
    void copy_rows(std::uint64_t row0, std::uint64_t nrows, std::uint8_t* out) const override {
        rows_of(row0, nrows, out, dtype_info(*lossless_dtype())->block_bytes, true);
    }
    bool payload_is_row_major() const override { return false; }
    std::vector<InputRange> inputs() const override {
        std::vector<InputRange> r;
        for (const auto& p : parts_) {
            auto i = p.recipe->inputs();
            r.insert(r.end(), i.begin(), i.end());
        }
        return r;
    }
    std::vector<InputRange> consumed_inputs(std::uint64_t row0, std::uint64_t nrows) const override {
        if (nrows == 0) return {};
        const std::uint64_t g0 = row0 / out_rows_, g1 = (row0 + nrows - 1) / out_rows_;
        std::vector<InputRange> r;
        for (const auto& p : parts_) {
            const std::uint64_t ipg = p.rows * p.cols / p.recipe->row_elems();
            auto i = p.recipe->consumed_inputs(g0 * ipg, (g1 + 1 - g0) * ipg);
            r.insert(r.end(), i.begin(), i.end());
        }
        return r;
    }

private:
    /// Output rows [row0, row0 + nrows) as elements of w bytes: f32 values, or stored bytes when `raw`.
    void rows_of(std::uint64_t row0, std::uint64_t nrows, std::uint8_t* out, std::size_t w, bool raw) const {
        if (row0 > rows() || nrows > rows() - row0) throw Error(ErrorCode::OutOfRange, "rows out of range");
        const std::uint64_t block = out_rows_ * out_cols_;
        std::vector<std::uint8_t> buf;
        while (nrows) {
            const std::uint64_t g = row0 / out_rows_, r0 = row0 % out_rows_, take = std::min(nrows, out_rows_ - r0);
            if (r0 == 0 && take == out_rows_) {
                group(g, out, w, raw);
            } else {
                buf.resize(static_cast<std::size_t>(block * w));
                group(g, buf.data(), w, raw);
                std::memcpy(out, buf.data() + r0 * out_cols_ * w, static_cast<std::size_t>(take * out_cols_ * w));
            }
            out += take * out_cols_ * w;
            row0 += take;
            nrows -= take;
        }
    }
    /// Group g's output block (out_rows_ × out_cols_).
    void group(std::uint64_t g, std::uint8_t* out, std::size_t w, bool raw) const {
        std::vector<std::uint8_t> joined(static_cast<std::size_t>(jrows_ * jcols_ * w)), part, flipped;
        std::uint64_t at = 0;  // rows of `joined` filled (concatenation)
        for (std::size_t k = 0; k < parts_.size(); ++k) {
            const JoinPart& p = parts_[k];
            const std::uint64_t n = p.rows * p.cols, ipg = n / p.recipe->row_elems();
            part.resize(static_cast<std::size_t>(n * w));
            if (raw) p.recipe->copy_rows(g * ipg, ipg, part.data());
            else p.recipe->dequantize_rows(g * ipg, ipg, reinterpret_cast<float*>(part.data()));
            const std::uint8_t* src = part.data();
            if (p.transpose) {
                flipped.resize(part.size());
                transpose_bytes(part.data(), p.rows, p.cols, w, flipped.data());
                src = flipped.data();
            }
            const std::uint64_t r = p.transpose ? p.cols : p.rows, rb = jcols_ * w;
            if (interleave_) {
                for (std::uint64_t i = 0; i < r; ++i)
                    std::memcpy(joined.data() + (i * parts_.size() + k) * rb, src + i * rb, static_cast<std::size_t>(rb));
            } else {
                std::memcpy(joined.data() + at * rb, src, static_cast<std::size_t>(r * rb));
                at += r;
            }
        }
        if (transpose_out_) transpose_bytes(joined.data(), jrows_, jcols_, w, out);
        else std::memcpy(out, joined.data(), joined.size());
    }

    std::vector<JoinPart> parts_;
    std::uint64_t groups_;
    bool interleave_, transpose_out_;
    std::string describe_;
    std::uint64_t jrows_ = 0, jcols_ = 0, out_rows_ = 0, out_cols_ = 0;
};

}  // namespace

std::shared_ptr<const Recipe> make_group_join_recipe(std::vector<JoinPart> parts, std::uint64_t groups, bool interleave,
                                                     bool transpose_out, std::string describe) {
    return std::make_shared<GroupJoin>(std::move(parts), groups, interleave, transpose_out, std::move(describe));
}

}  // namespace amn::detail
