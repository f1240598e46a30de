// SPDX-License-Identifier: MIT OR Apache-2.0
// The quantized groups behind a recipe (quant_groups.hpp): row selections
// and stacks of them.
#include "plan/quant_groups.hpp"

#include "anamnesis/error.hpp"
#include "anamnesis/kernels.hpp"

#include <algorithm>
#include <bit>
#include <cmath>

namespace amn::detail {
namespace {

using u64 = std::uint64_t;

class RowGatherGroups final : public QuantGroups {
public:
    RowGatherGroups(std::shared_ptr<const QuantGroups> inner, std::vector<u64> from) : inner_(std::move(inner)), from_(std::move(from)) {
        for (auto r : from_)
            if (r >= inner_->rows()) throw Error(ErrorCode::OutOfRange, "row gather: source row out of range");
    }
    const Traits& traits() const noexcept override { return inner_->traits(); }
    u64 rows() const override { return from_.size(); }
    u64 row_elems() const override { return inner_->row_elems(); }
    void read(u64 row0, u64 n, std::uint8_t* codes, float* scale, float* bias, std::uint8_t* sb) const override {
        if (row0 > rows() || n > rows() - row0) throw Error(ErrorCode::OutOfRange, "rows out of range");
        const u64 C = row_elems(), G = groups_per_row();
        for (u64 r = 0; r < n; ++r)
            inner_->read(from_[row0 + r], 1, codes ? codes + r * C : nullptr, scale ? scale + r * G : nullptr,
                         bias ? bias + r * G : nullptr, sb ? sb + r * G : nullptr);
    }
    // Rows in another order: everything once the last row is read.
    std::vector<Recipe::InputRange> consumed_inputs(u64 row0, u64 n) const override {
        return row0 + n >= rows() ? inner_->consumed_inputs(0, inner_->rows()) : std::vector<Recipe::InputRange>{};
    }

private:
    std::shared_ptr<const QuantGroups> inner_;
    std::vector<u64> from_;
};

class RowRangeGroups final : public QuantGroups {
public:
    RowRangeGroups(std::shared_ptr<const QuantGroups> inner, u64 begin, u64 n) : inner_(std::move(inner)), begin_(begin), n_(n) {
        if (begin_ > inner_->rows() || n_ > inner_->rows() - begin_) throw Error(ErrorCode::OutOfRange, "row range out of range");
    }
    const Traits& traits() const noexcept override { return inner_->traits(); }
    u64 rows() const override { return n_; }
    u64 row_elems() const override { return inner_->row_elems(); }
    void read(u64 row0, u64 n, std::uint8_t* codes, float* scale, float* bias, std::uint8_t* sb) const override {
        if (row0 > n_ || n > n_ - row0) throw Error(ErrorCode::OutOfRange, "rows out of range");
        inner_->read(begin_ + row0, n, codes, scale, bias, sb);
    }
    std::vector<Recipe::InputRange> consumed_inputs(u64 row0, u64 n) const override {
        return inner_->consumed_inputs(begin_ + row0, n);
    }

private:
    std::shared_ptr<const QuantGroups> inner_;
    u64 begin_, n_;
};

class StackedGroups final : public QuantGroups {
public:
    explicit StackedGroups(std::vector<std::shared_ptr<const QuantGroups>> parts) : parts_(std::move(parts)) {}
    const Traits& traits() const noexcept override { return parts_[0]->traits(); }
    u64 rows() const override { return parts_[0]->rows() * parts_.size(); }
    u64 row_elems() const override { return parts_[0]->row_elems(); }
    void read(u64 row0, u64 n, std::uint8_t* codes, float* scale, float* bias, std::uint8_t* sb) const override {
        if (row0 > rows() || n > rows() - row0) throw Error(ErrorCode::OutOfRange, "rows out of range");
        const u64 per = parts_[0]->rows(), C = row_elems(), G = groups_per_row();
        while (n) {
            const u64 p = row0 / per, r = row0 % per, k = std::min(n, per - r);
            parts_[static_cast<std::size_t>(p)]->read(r, k, codes, scale, bias, sb);
            if (codes) codes += k * C;
            if (scale) scale += k * G;
            if (bias) bias += k * G;
            if (sb) sb += k * G;
            row0 += k;
            n -= k;
        }
    }
    std::vector<Recipe::InputRange> consumed_inputs(u64 row0, u64 n) const override {
        std::vector<Recipe::InputRange> out;
        const u64 per = parts_[0]->rows();
        while (n) {
            const u64 p = row0 / per, r = row0 % per, k = std::min(n, per - r);
            auto in = parts_[static_cast<std::size_t>(p)]->consumed_inputs(r, k);
            out.insert(out.end(), in.begin(), in.end());
            row0 += k;
            n -= k;
        }
        return out;
    }

private:
    std::vector<std::shared_ptr<const QuantGroups>> parts_;
};

}  // namespace

std::shared_ptr<const QuantGroups> make_row_gather_groups(std::shared_ptr<const QuantGroups> inner, std::vector<std::uint64_t> from) {
    return std::make_shared<RowGatherGroups>(std::move(inner), std::move(from));
}

std::shared_ptr<const QuantGroups> make_row_range_groups(std::shared_ptr<const QuantGroups> inner, std::uint64_t begin,
                                                         std::uint64_t n) {
    return std::make_shared<RowRangeGroups>(std::move(inner), begin, n);
}

std::shared_ptr<const QuantGroups> make_stacked_groups(const std::vector<std::shared_ptr<const Recipe>>& parts) {
    std::vector<std::shared_ptr<const QuantGroups>> g;
    for (const auto& p : parts) {
        auto q = p->quant_groups();
        if (!q) return nullptr;
        if (!g.empty()) {
            const auto &a = g[0]->traits(), &b = q->traits();
            if (a.kind != b.kind || a.bits != b.bits || a.group != b.group || a.param_dtype != b.param_dtype ||
                a.symmetric != b.symmetric || q->rows() != g[0]->rows() || q->row_elems() != g[0]->row_elems())
                return nullptr;
        }
        g.push_back(std::move(q));
    }
    if (g.empty()) return nullptr;
    return std::make_shared<StackedGroups>(std::move(g));
}

bool exact_in(DType d, float x) noexcept {
    if (d == DType::F32) return true;
    if (std::isnan(x)) return false;
    if (d == DType::BF16) return kernels::scalar::f32_from_bf16(kernels::scalar::bf16_from_f32(x)) == x &&
                                 std::signbit(kernels::scalar::f32_from_bf16(kernels::scalar::bf16_from_f32(x))) == std::signbit(x);
    if (d == DType::F16) return kernels::scalar::f32_from_f16(kernels::scalar::f16_from_f32(x)) == x &&
                                std::signbit(kernels::scalar::f32_from_f16(kernels::scalar::f16_from_f32(x))) == std::signbit(x);
    return false;
}

}  // namespace amn::detail
