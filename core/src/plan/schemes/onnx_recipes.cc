// SPDX-License-Identifier: MIT OR Apache-2.0
// The dequantizing recipes of ONNX quantized weights (onnx_recipes.hpp):
// MatMulNBits and MatMulBnb4 weights in the [K, N] orientation of the float
// MatMul they replaced, DequantizeLinear / MatMulInteger /
// GatherBlockQuantized weights in their logical shape (arithmetic: the
// header comment of onnx.cc, which detects them).
#include "onnx_recipes.hpp"

#include "anamnesis/error.hpp"
#include "anamnesis/kernels.hpp"
#include "kernels/int/onnx_fields.hpp"
#include "kernels/int/quant_kernels.hpp"
#include "quant_common.hpp"
#include "scheme.hpp"

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

namespace amn::detail::onnx_recipes {
namespace {
using namespace quant;
namespace qk = amn::kernels::quant;
namespace ok = amn::kernels::onnx;

// ---- element access -------------------------------------------------------------

bool element_signed(const std::string& e) { return e[0] == 'I'; }

// Integer element `i` of a stored tensor of element type `e` (sub-byte fields low bits first, signed ones sign-extended).
std::int64_t int_at(const std::uint8_t* d, const std::string& e, unsigned bits, std::uint64_t i) {
    switch (bits) {
        case 2: case 4: {
            std::uint8_t q;
            ok::unpack_fields(d, i, bits, &q, 1);
            const std::int64_t v = q;
            return element_signed(e) && v >= (1 << (bits - 1)) ? v - (1 << bits) : v;
        }
        case 8: return element_signed(e) ? static_cast<std::int8_t>(d[i]) : d[i];
        case 16: {
            std::uint16_t v;
            std::memcpy(&v, d + 2 * i, 2);
            return element_signed(e) ? static_cast<std::int16_t>(v) : v;
        }
        default: {
            std::int32_t v;
            std::memcpy(&v, d + 4 * i, 4);
            return v;
        }
    }
}

// Round `y` to the scales' dtype (the operator's output type) and back.
float round_to(DType d, float y) {
    if (d == DType::F16) return kernels::scalar::f32_from_f16(kernels::scalar::f16_from_f32(y));
    if (d == DType::BF16) return kernels::scalar::f32_from_bf16(kernels::scalar::bf16_from_f32(y));
    return y;
}


// Base of the recipes: the tensors read, for page release.
class OnnxRecipe : public QuantRecipe {
public:
    OnnxRecipe(const Catalog& cat, OnnxQuantParams p, std::vector<std::size_t> inputs) : QuantRecipe(std::move(p)) {
        for (auto i : inputs) {
            const auto& t = cat.tensors[i];
            ranges_.push_back({t.shard, t.offset, t.nbytes});
        }
    }
    std::vector<InputRange> inputs() const override { return ranges_; }

private:
    std::vector<InputRange> ranges_;
};

// ---- MatMulNBits ----------------------------------------------------------------


class NBitsRecipe final : public OnnxRecipe {
public:
    NBitsRecipe(const Catalog& cat, OnnxQuantParams p, std::vector<std::size_t> in, NBitsLayout l)
        : OnnxRecipe(cat, std::move(p), in), l_(l), b_(cat.data(cat.tensors[in[0]])), s_(cat.data(cat.tensors[in[1]])),
          sinfo_(dtype_info(cat.tensors[in[1]].dtype)) {
        if (l_.zp != OnnxZeroPoint::Default) {
            z_ = cat.data(cat.tensors[in[2]]);
            zinfo_ = dtype_info(cat.tensors[in[2]].dtype);
        }
    }
    std::uint64_t rows() const override { return l_.K; }
    std::uint64_t row_elems() const override { return l_.N; }
    // Whole blocks per chunk (a chunk of more blocks, to use every 64-byte
    // line of B once, measured no faster: 0.34–0.38 s of CPU against
    // 0.37–0.50 s for an 8192 × 8192 weight).
    std::uint64_t row_granularity() const override { return std::min(l_.block, l_.K); }
    bool payload_is_row_major() const override { return false; }  // B is stored [N, K]: every chunk reads all of it

    // B's blocks of kT columns n at a time decoded into a tile, then written
    // transposed a row segment of kT floats at a time (not one float per
    // output row: the rows are N floats apart).
    void dequantize_rows(std::uint64_t k0, std::uint64_t nk, float* out) const override {
        if (!l_.g_idx.empty()) return dequantize_act_order(k0, nk, out);
        constexpr std::uint64_t kT = 16;
        const std::uint64_t bs = l_.block, N = l_.N, kend = std::min(l_.K, k0 + nk);
        std::vector<std::uint8_t> q(bs);
        std::vector<float> tile(kT * bs);
        const std::uint64_t kb0 = k0 / bs, kb1 = (kend + bs - 1) / bs;
        const float default_zero = static_cast<float>(1u << (l_.bits - 1));
        for (std::uint64_t n0 = 0; n0 < N; n0 += kT) {
            const std::uint64_t nt = std::min(kT, N - n0);
            for (std::uint64_t kb = kb0; kb < kb1; ++kb) {
                for (std::uint64_t t = 0; t < nt; ++t) {
                    const std::uint64_t n = n0 + t, g = n * l_.k_blocks + kb;
                    float* y = tile.data() + t * bs;
                    ok::unpack_fields(b_ + g * l_.blob, 0, static_cast<unsigned>(l_.bits), q.data(), bs);
                    const float s = load_float(sinfo_, s_, g);
                    switch (l_.zp) {
                        case OnnxZeroPoint::Default: qk::affine_const(q.data(), default_zero, s, y, bs); break;
                        case OnnxZeroPoint::Integer: {
                            std::uint8_t z;
                            ok::unpack_fields(z_ + n * l_.zp_row_bytes, kb, static_cast<unsigned>(l_.bits), &z, 1);
                            qk::affine_const(q.data(), static_cast<float>(z), s, y, bs);
                            break;
                        }
                        case OnnxZeroPoint::Float: ok::affine_float_zero(q.data(), s, load_float(zinfo_, z_, g), y, bs); break;
                    }
                }
                const std::uint64_t first = std::max(kb * bs, k0), last = std::min((kb + 1) * bs, kend);
                for (std::uint64_t k = first; k < last; ++k) {
                    float* o = out + (k - k0) * N + n0;
                    const float* y = tile.data() + (k - kb * bs);
                    for (std::uint64_t t = 0; t < nt; ++t) o[t] = y[t * bs];
                }
            }
        }
    }

private:
    // Act order (4-bit): row k of W takes scale and zero point of group
    // g_idx[k] of its column n, as onnxruntime's Dequantize4BitsKernelReOrder:
    // q·s + (−s·zp), zp the float zero point or 8 (packed ones unused there).
    void dequantize_act_order(std::uint64_t k0, std::uint64_t nk, float* out) const {
        const std::uint64_t N = l_.N, kend = std::min(l_.K, k0 + nk), row_bytes = l_.k_blocks * l_.blob;
        std::vector<std::uint8_t> q(kend - k0);
        for (std::uint64_t n = 0; n < N; ++n) {
            ok::unpack_fields(b_ + n * row_bytes, k0, static_cast<unsigned>(l_.bits), q.data(), q.size());
            for (std::uint64_t k = k0; k < kend; ++k) {
                const std::uint64_t g = n * l_.k_blocks + static_cast<std::uint64_t>(l_.g_idx[k]);
                const float s = load_float(sinfo_, s_, g);
                const float z = l_.zp == OnnxZeroPoint::Float ? load_float(zinfo_, z_, g) : 8.0f;
                ok::affine_float_zero(&q[k - k0], s, z, out + (k - k0) * N + n, 1);
            }
        }
    }

    NBitsLayout l_;
    const std::uint8_t* b_;
    const std::uint8_t* s_;
    const DTypeInfo* sinfo_;
    const std::uint8_t* z_ = nullptr;
    const DTypeInfo* zinfo_ = nullptr;
};

// ---- MatMulBnb4 -----------------------------------------------------------------

class Bnb4Recipe final : public OnnxRecipe {
public:
    Bnb4Recipe(const Catalog& cat, OnnxQuantParams p, std::vector<std::size_t> in, std::uint64_t K, std::uint64_t N)
        : OnnxRecipe(cat, p, in), K_(K), N_(N), block_(p.block_size), b_(cat.data(cat.tensors[in[0]])),
          a_(cat.data(cat.tensors[in[1]])), ainfo_(dtype_info(cat.tensors[in[1]].dtype)),
          code_(p.nf4 ? qk::kNf4.data() : qk::kFp4.data()) {}
    std::uint64_t rows() const override { return K_; }
    std::uint64_t row_elems() const override { return N_; }
    bool payload_is_row_major() const override { return false; }
    void dequantize_rows(std::uint64_t k0, std::uint64_t nk, float* out) const override {
        for (std::uint64_t k = k0; k < k0 + nk; ++k)
            for (std::uint64_t n = 0; n < N_; ++n) {
                const std::uint64_t i = n * K_ + k;  // the [N, K] weight flattened
                const std::uint8_t b = b_[i / 2];
                const unsigned code = (i % 2 == 0) ? (b >> 4) : (b & 15u);  // first element in the high nibble
                out[(k - k0) * N_ + n] = code_[code] * load_float(ainfo_, a_, i / block_);
            }
    }

private:
    std::uint64_t K_, N_, block_;
    const std::uint8_t* b_;
    const std::uint8_t* a_;
    const DTypeInfo* ainfo_;
    const float* code_;
};

// ---- DequantizeLinear, MatMulInteger, GatherBlockQuantized ------------------------

// y = (q − zp) × s over a tensor in its logical shape, scales per tensor, per
// axis or per block along an axis; the product rounded to the scales' dtype.

class GridRecipe final : public OnnxRecipe {
public:
    GridRecipe(const Catalog& cat, OnnxQuantParams p, std::vector<std::size_t> in, GridLayout l)
        : OnnxRecipe(cat, p, in), l_(std::move(l)), x_(cat.data(cat.tensors[in[0]])), s_(cat.data(cat.tensors[in[1]])),
          sdtype_(cat.tensors[in[1]].dtype), sinfo_(dtype_info(sdtype_)) {
        if (l_.has_zp) z_ = cat.data(cat.tensors[in[2]]);
        std::uint64_t n = 1;
        for (auto d : l_.shape) n *= d;
        numel_ = n;
        row_elems_ = l_.shape.empty() ? 1 : l_.shape.back();
        rows_ = row_elems_ ? n / row_elems_ : 0;
        if (element_float8(l_.element)) f8_ = dtype_info(dtype_from_safetensors_name(l_.element).value_or(DType::Unknown));
    }
    std::uint64_t rows() const override { return rows_; }
    std::uint64_t row_elems() const override { return row_elems_; }
    // Sub-byte rows need not start on a byte; releasing by an even split stays safe (a re-read at worst).

    void dequantize_rows(std::uint64_t row0, std::uint64_t nrows, float* out) const override {
        const std::uint64_t end = (row0 + nrows) * row_elems_;
        for (std::uint64_t i = row0 * row_elems_; i < end; ++i) {
            const std::uint64_t c = (i / l_.inner) % l_.dim;
            std::uint64_t si = 0;
            if (l_.grid == OnnxScaleGrid::Axis) si = c;
            else if (l_.grid == OnnxScaleGrid::Block)
                si = ((i / (l_.inner * l_.dim)) * l_.blocks + c / l_.block) * l_.inner + i % l_.inner;
            const float s = load_float(sinfo_, s_, si);
            float y;
            if (f8_) {
                float v;
                f8_->to_f32(x_ + i, &v, 1);
                y = v * s;
            } else {
                const std::int64_t d = field(x_, l_.row_bytes, i) - (l_.has_zp ? field(z_, l_.zp_row_bytes, l_.zp_scalar ? 0 : si, true) : l_.default_zero);
                ok::scale_diffs(&d, s, &y, 1);
            }
            out[i - row0 * row_elems_] = round_to(sdtype_, y);
        }
    }

private:
    // Field `i` of the data (or, `zp`, of the zero points): packed per row when row_bytes is set.
    std::int64_t field(const std::uint8_t* d, std::uint64_t row_bytes, std::uint64_t i, bool zp = false) const {
        if (row_bytes) {
            const std::uint64_t per_row = zp ? l_.blocks : l_.dim;  // GatherBlockQuantized: quantize axis = last
            std::uint8_t q;
            ok::unpack_fields(d + (i / per_row) * row_bytes, i % per_row, l_.bits, &q, 1);
            return q;
        }
        return int_at(d, l_.element, l_.bits, i);
    }

    GridLayout l_;
    const std::uint8_t* x_;
    const std::uint8_t* s_;
    const std::uint8_t* z_ = nullptr;
    DType sdtype_;
    const DTypeInfo* sinfo_;
    const DTypeInfo* f8_ = nullptr;
    std::uint64_t numel_ = 0, rows_ = 0, row_elems_ = 0;
};

}  // namespace

// Bits per field of a stored element type name; 0 when it is no integer/float8 type we read.
unsigned element_bits(const std::string& e) {
    if (e == "U8" || e == "I8" || e == "F8_E4M3" || e == "F8_E4M3FNUZ" || e == "F8_E5M2" || e == "F8_E5M2FNUZ") return 8;
    if (e == "U4" || e == "I4") return 4;
    if (e == "U2" || e == "I2") return 2;
    if (e == "U16" || e == "I16") return 16;
    if (e == "I32") return 32;
    return 0;
}

bool element_float8(const std::string& e) { return e.rfind("F8_", 0) == 0; }

bool is_scale_dtype(DType d) { return d == DType::F32 || d == DType::F16 || d == DType::BF16; }

std::shared_ptr<const QuantRecipe> make_nbits_recipe(const Catalog& cat, OnnxQuantParams p, std::vector<std::size_t> in,
                                                NBitsLayout l) {
    return std::make_shared<NBitsRecipe>(cat, std::move(p), std::move(in), l);
}
std::shared_ptr<const QuantRecipe> make_bnb4_recipe(const Catalog& cat, OnnxQuantParams p, std::vector<std::size_t> in,
                                               std::uint64_t K, std::uint64_t N) {
    return std::make_shared<Bnb4Recipe>(cat, std::move(p), std::move(in), K, N);
}
std::shared_ptr<const QuantRecipe> make_grid_recipe(const Catalog& cat, OnnxQuantParams p, std::vector<std::size_t> in, GridLayout l) {
    return std::make_shared<GridRecipe>(cat, std::move(p), std::move(in), std::move(l));
}

}  // namespace amn::detail::onnx_recipes
