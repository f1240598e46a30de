// SPDX-License-Identifier: MIT OR Apache-2.0
// compressed-tensors dequantization recipes (see compressed_tensors.cc for
// the stored layouts and the config parsing / detection that picks them):
// pack-quantized and int-/naive-quantized (IntRecipe), float-quantized with
// F16 scales (FloatRecipe); nvfp4-pack-quantized is nvfp4_recipe.cc. Arithmetic
// as compressed-tensors `dequantize` does it, in the scale's dtype.

#include "anamnesis/kernels.hpp"
#include "kernels/fp4/fp4_kernels.hpp"
#include "kernels/int/quant_kernels.hpp"
#include "compressed_tensors.hpp"

#include <algorithm>
#include <cstring>
#include <vector>

namespace amn::detail::ct {
namespace {
using namespace quant;
namespace qk = amn::kernels::quant;
namespace f4 = amn::kernels::fp4;

// ------------------------------------------------------------ element access

// Element i of an integer or float tensor as f32 (integers here are small).
float load_number(const TensorInfo& t, const std::uint8_t* p, u64 i) {
    switch (t.dtype) {
        case DType::I8: return static_cast<float>(static_cast<std::int8_t>(p[i]));
        case DType::U8: return static_cast<float>(p[i]);
        case DType::I16: { std::int16_t v; std::memcpy(&v, p + 2 * i, 2); return static_cast<float>(v); }
        case DType::I32: { std::int32_t v; std::memcpy(&v, p + 4 * i, 4); return static_cast<float>(v); }
        case DType::I64: { std::int64_t v; std::memcpy(&v, p + 8 * i, 8); return static_cast<float>(v); }
        default: return load_float(dtype_info(t.dtype), p, i);
    }
}

class IntRecipe final : public QuantRecipe {
public:
    IntRecipe(const Catalog& cat, std::size_t w, std::size_t s, std::size_t z, IntLayout l, std::vector<std::int32_t> g_idx,
              AffineParams p, bool f32_products)
        : QuantRecipe(std::move(p)), w_(cat.tensors[w]), s_(cat.tensors[s]),
          z_(z == PlanBuilder::npos ? nullptr : &cat.tensors[z]), wd_(cat.data(w_)), sd_(cat.data(s_)),
          zd_(z_ ? cat.data(*z_) : nullptr), sinfo_(dtype_info(s_.dtype)), l_(l), g_idx_(std::move(g_idx)),
          round_(f32_products ? DType::F32 : s_.dtype) {}

    std::uint64_t rows() const override { return l_.out; }
    std::uint64_t row_elems() const override { return l_.in; }
    std::vector<InputRange> inputs() const override {
        std::vector<InputRange> r{{w_.shard, w_.offset, w_.nbytes}, {s_.shard, s_.offset, s_.nbytes}};
        if (z_) r.push_back({z_->shard, z_->offset, z_->nbytes});
        return r;
    }

    void dequantize_rows(std::uint64_t row0, std::uint64_t nrows, float* out) const override {
        const u64 K = l_.in, G = l_.grid.groups;
        const float offset = l_.packed ? static_cast<float>(1u << (l_.bits - 1)) : 128.0f;
        std::vector<std::uint32_t> words(l_.words + 1, 0);
        std::vector<std::uint8_t> q(K);
        std::vector<float> zero(G), scale(G);
        for (u64 r = row0; r < row0 + nrows; ++r) {
            if (l_.packed) {
                std::memcpy(words.data(), wd_ + r * l_.words * 4, l_.words * 4);
                qk::unpack_bits(l_.bits, words.data(), q.data(), K);
            } else {
                // int8 q as unsigned q + 128; the zero point moves by the same 128.
                const std::uint8_t* src = wd_ + r * K;
                for (u64 k = 0; k < K; ++k) q[k] = static_cast<std::uint8_t>(src[k] ^ 0x80u);
            }
            for (u64 g = 0; g < G; ++g) {
                const u64 si = l_.grid.g == Gran::Tensor ? 0 : r * G + g;
                scale[g] = load_float(sinfo_, sd_, si);
                switch (l_.zero) {
                    case IntLayout::Zero::None: zero[g] = offset; break;
                    // Stored field = z + offset: the unsigned-domain zero itself.
                    case IntLayout::Zero::Packed:
                        zero[g] = static_cast<float>(stream_field_col(r, g));
                        break;
                    case IntLayout::Zero::Plain: zero[g] = offset + load_number(*z_, zd_, si); break;
                }
            }
            float* y = out + (r - row0) * K;
            if (g_idx_.empty()) {
                const u64 gs = l_.grid.group_size;
                for (u64 g = 0; g < G; ++g) {
                    const u64 k0 = g * gs;
                    if (k0 >= K) break;
                    qk::affine_const(q.data() + k0, zero[g], scale[g], y + k0, std::min(gs, K - k0));
                }
            } else {
                qk::affine_gather(q.data(), g_idx_.data(), zero.data(), scale.data(), G, y, K);
            }
            f4::round_through_simd(round_, y, K);  // the library's arithmetic is in the scale's dtype
        }
    }

private:
    // Zero point of row r, group g: column g of the I32 matrix is the bit stream of z[:, g].
    std::uint32_t stream_field_col(u64 r, u64 g) const {
        const u64 G = l_.grid.groups;
        const u64 bit = r * l_.bits;
        const u64 w = bit / 32;
        const unsigned s = static_cast<unsigned>(bit % 32);
        std::uint64_t v = load_u32(zd_ + (w * G + g) * 4);
        if (s + l_.bits > 32 && w + 1 < l_.zero_words) v |= static_cast<std::uint64_t>(load_u32(zd_ + ((w + 1) * G + g) * 4)) << 32;
        return static_cast<std::uint32_t>((v >> s) & ((1u << l_.bits) - 1u));
    }

    const TensorInfo& w_;
    const TensorInfo& s_;
    const TensorInfo* z_;
    const std::uint8_t* wd_;
    const std::uint8_t* sd_;
    const std::uint8_t* zd_;
    const DTypeInfo* sinfo_;
    IntLayout l_;
    std::vector<std::int32_t> g_idx_;
    DType round_;  // the scale's dtype, or F32 (PlanOptions::f32_products)
};

// ------------------------------------------------------------ FP8 recipe

class FloatRecipe final : public QuantRecipe {
public:
    FloatRecipe(const Catalog& cat, std::size_t w, std::size_t s, u64 out, u64 in, ScaleGrid grid, Fp8Params p,
                bool f32_products)
        : QuantRecipe(std::move(p)), w_(cat.tensors[w]), s_(cat.tensors[s]), wd_(cat.data(w_)), sd_(cat.data(s_)),
          sinfo_(dtype_info(s_.dtype)), out_(out), in_(in), grid_(grid), round_(f32_products ? DType::F32 : s_.dtype) {}
    std::uint64_t rows() const override { return out_; }
    std::uint64_t row_elems() const override { return in_; }
    std::vector<InputRange> inputs() const override {
        return {{w_.shard, w_.offset, w_.nbytes}, {s_.shard, s_.offset, s_.nbytes}};
    }
    void dequantize_rows(std::uint64_t row0, std::uint64_t nrows, float* out) const override {
        const u64 K = in_;
        for (u64 r = row0; r < row0 + nrows; ++r) {
            const std::uint8_t* src = wd_ + r * K;
            float* y = out + (r - row0) * K;
            switch (grid_.g) {
                case Gran::Tensor: amn::kernels::fp8_scale_to_f32(w_.dtype, src, scale(0), y, K); break;
                case Gran::Channel: amn::kernels::fp8_scale_to_f32(w_.dtype, src, scale(r), y, K); break;
                case Gran::Group:
                case Gran::Block: {
                    const bool block = grid_.g == Gran::Block;
                    const u64 width = block ? grid_.block_c : grid_.group_size;
                    const u64 ncols = block ? grid_.grid_c : grid_.groups;
                    const u64 srow = (block ? r / grid_.block_r : r) * ncols;
                    for (u64 j = 0; j < ncols; ++j) {
                        const u64 c0 = j * width;
                        if (c0 >= K) break;
                        amn::kernels::fp8_scale_to_f32(w_.dtype, src + c0, scale(srow + j), y + c0, std::min(width, K - c0));
                    }
                    break;
                }
            }
            f4::round_through_simd(round_, y, K);
        }
    }

private:
    float scale(u64 i) const { return load_float(sinfo_, sd_, i); }
    const TensorInfo& w_;
    const TensorInfo& s_;
    const std::uint8_t* wd_;
    const std::uint8_t* sd_;
    const DTypeInfo* sinfo_;
    u64 out_, in_;
    ScaleGrid grid_;
    DType round_;  // the scale's dtype, or F32 (PlanOptions::f32_products)
};

}  // namespace

std::shared_ptr<const QuantRecipe> make_int_recipe(const Catalog& cat, std::size_t w, std::size_t s, std::size_t z,
                                                   IntLayout l, std::vector<std::int32_t> g_idx, AffineParams p,
                                                   bool f32_products) {
    return std::make_shared<IntRecipe>(cat, w, s, z, l, std::move(g_idx), std::move(p), f32_products);
}

std::shared_ptr<const QuantRecipe> make_float_recipe(const Catalog& cat, std::size_t w, std::size_t s, u64 out, u64 in,
                                                     ScaleGrid grid, Fp8Params p, bool f32_products) {
    return std::make_shared<FloatRecipe>(cat, w, s, out, in, grid, std::move(p), f32_products);
}

}  // namespace amn::detail::ct
