// SPDX-License-Identifier: MIT OR Apache-2.0
#include "plan/nvfp4_repack.hpp"

#include "anamnesis/error.hpp"

namespace amn::detail {
namespace {

class Nvfp4Repack final : public RawRows {
public:
    Nvfp4Repack(const Catalog& cat, const TensorInfo& w, const TensorInfo& s, std::vector<std::uint64_t> rows_from)
        : w_(w), s_(s), wd_(cat.data(w)), sd_(cat.data(s)), out_(w.shape[0]), in_(w.shape[1] * 2), from_(std::move(rows_from)) {}
    std::uint64_t rows() const override { return out_; }
    std::uint64_t row_bytes() const override { return in_ / 64 * 36; }
    void read(std::uint64_t row0, std::uint64_t n, std::uint8_t* out) const override {
        const std::uint64_t wb = in_ / 2, sb = in_ / 16;
        for (std::uint64_t r = row0; r < row0 + n; ++r) {
            const std::uint64_t src = from_.empty() ? r : from_[r];
            const std::uint8_t* w = wd_ + src * wb;
            const std::uint8_t* s = sd_ + src * sb;
            for (std::uint64_t b = 0; b < in_ / 64; ++b, out += 36) {
                for (int k = 0; k < 4; ++k) out[k] = s[4 * b + k] & 0x7F;
                for (int k = 0; k < 4; ++k) {
                    const std::uint8_t* g = w + (4 * b + k) * 8;  // 16 values in 8 bytes
                    auto c = [&](int i) { return static_cast<std::uint8_t>(i % 2 ? g[i / 2] >> 4 : g[i / 2] & 15); };
                    for (int j = 0; j < 8; ++j) out[4 + 8 * k + j] = static_cast<std::uint8_t>(c(j) | (c(j + 8) << 4));
                }
            }
        }
    }
    std::vector<Recipe::InputRange> inputs() const override {
        return {{w_.shard, w_.offset, w_.nbytes}, {s_.shard, s_.offset, s_.nbytes}};
    }
    // Rows in stored order: their own bytes; reordered (Q/K) rows: all at the end.
    std::vector<Recipe::InputRange> consumed_inputs(std::uint64_t row0, std::uint64_t n) const override {
        if (!from_.empty()) return RawRows::consumed_inputs(row0, n);
        const std::uint64_t wb = in_ / 2, sb = in_ / 16;
        return {{w_.shard, w_.offset + row0 * wb, n * wb}, {s_.shard, s_.offset + row0 * sb, n * sb}};
    }

private:
    const TensorInfo& w_;
    const TensorInfo& s_;
    const std::uint8_t* wd_;
    const std::uint8_t* sd_;
    std::uint64_t out_, in_;
    std::vector<std::uint64_t> from_;
};

}  // namespace

std::shared_ptr<const RawRows> make_nvfp4_repack(const Catalog& cat, const TensorInfo& w, const TensorInfo& s,
                                                 std::vector<std::uint64_t> rows_from) {
    return std::make_shared<Nvfp4Repack>(cat, w, s, std::move(rows_from));
}

float stored_scalar(const Catalog& cat, const TensorInfo& t) {
    const DTypeInfo* info = dtype_info(t.dtype);
    if (!info || !info->is_float || info->block_elems != 1 || t.numel() != 1 || !info->to_f32)
        throw Error(ErrorCode::BadCompanion, "expected one float value, got " + t.dtype_name + " " + shape_to_string(t.shape),
                    cat.path, t.name);
    float v = 0;
    info->to_f32(cat.data(t), &v, 1);
    return v;
}


}  // namespace amn::detail
