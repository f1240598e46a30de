// SPDX-License-Identifier: MIT OR Apache-2.0
#include "plan/mxfp4_repack.hpp"

#include "anamnesis/error.hpp"

namespace amn::detail {
namespace {

class Mxfp4Repack final : public RawRows {
public:
    Mxfp4Repack(const Catalog& cat, const TensorInfo& b, const TensorInfo& s, std::uint64_t stride, std::uint64_t parity)
        : b_(b), s_(s), bd_(cat.data(b)), sd_(cat.data(s)), stride_(stride), parity_(parity) {
        const auto& bs = b.shape;
        const auto& ss = s.shape;
        if (b.dtype != DType::U8 || s.dtype != DType::U8 || bs.size() != 4 || ss.size() != 3 || bs[3] != 16 || ss[0] != bs[0] ||
            ss[1] != bs[1] || ss[2] != bs[2] || stride == 0 || parity >= stride || bs[1] % stride)
            throw Error(ErrorCode::Malformed,
                        "MXFP4 blocks " + shape_to_string(bs) + " and scales " + shape_to_string(ss) +
                            " are not U8 [E, rows, in/32, 16] and [E, rows, in/32]",
                        cat.path, b.name);
        experts_ = bs[0];
        rows_ = bs[1];
        nblocks_ = bs[2];
    }
    std::uint64_t rows() const override { return experts_ * (rows_ / stride_); }
    std::uint64_t row_bytes() const override { return nblocks_ * 17; }
    void read(std::uint64_t row0, std::uint64_t n, std::uint8_t* out) const override {
        const std::uint64_t per = rows_ / stride_;
        for (std::uint64_t r = row0; r < row0 + n; ++r) {
            const std::uint64_t e = r / per, src = e * rows_ + (r % per) * stride_ + parity_;
            const std::uint8_t* blk = bd_ + src * nblocks_ * 16;
            const std::uint8_t* sc = sd_ + src * nblocks_;
            for (std::uint64_t k = 0; k < nblocks_; ++k, out += 17) {
                const std::uint8_t* g = blk + k * 16;
                auto c = [&](int i) { return static_cast<std::uint8_t>(i % 2 ? g[i / 2] >> 4 : g[i / 2] & 15); };
                out[0] = sc[k];
                for (int j = 0; j < 16; ++j) out[1 + j] = static_cast<std::uint8_t>(c(j) | (c(j + 16) << 4));
            }
        }
    }
    std::vector<Recipe::InputRange> inputs() const override {
        return {{b_.shard, b_.offset, b_.nbytes}, {s_.shard, s_.offset, s_.nbytes}};
    }
    // The experts the rows belong to: their blocks and scales.
    std::vector<Recipe::InputRange> consumed_inputs(std::uint64_t row0, std::uint64_t n) const override {
        const std::uint64_t per = rows_ / stride_;
        if (n == 0 || per == 0) return {};
        const std::uint64_t e0 = row0 / per, e1 = (row0 + n - 1) / per + 1;
        const std::uint64_t bb = rows_ * nblocks_ * 16, sb = rows_ * nblocks_;  // bytes per expert
        return {{b_.shard, b_.offset + e0 * bb, (e1 - e0) * bb}, {s_.shard, s_.offset + e0 * sb, (e1 - e0) * sb}};
    }

private:
    const TensorInfo& b_;
    const TensorInfo& s_;
    const std::uint8_t* bd_;
    const std::uint8_t* sd_;
    std::uint64_t stride_, parity_, experts_ = 0, rows_ = 0, nblocks_ = 0;
};

}  // namespace

std::shared_ptr<const RawRows> make_mxfp4_repack(const Catalog& cat, const TensorInfo& blocks, const TensorInfo& scales,
                                                 std::uint64_t stride, std::uint64_t parity) {
    return std::make_shared<Mxfp4Repack>(cat, blocks, scales, stride, parity);
}

}  // namespace amn::detail
