// SPDX-License-Identifier: MIT OR Apache-2.0
// GGUF blocks ↔ quantized groups (gguf_groups.hpp).
#include "plan/gguf_groups.hpp"

#include "anamnesis/error.hpp"
#include "anamnesis/kernels.hpp"

#include <algorithm>
#include <cstring>

namespace amn::detail {
namespace {

using u64 = std::uint64_t;
using u8 = std::uint8_t;

std::uint16_t load_u16(const u8* p) {
    std::uint16_t v;
    std::memcpy(&v, p, 2);
    return v;
}
std::uint32_t load_u32(const u8* p) {
    std::uint32_t v;
    std::memcpy(&v, p, 4);
    return v;
}
void store_u16(u8* p, std::uint16_t v) { std::memcpy(p, &v, 2); }
float half(const u8* p) { return kernels::scalar::f32_from_f16(load_u16(p)); }

// The layout facts of one repackable GGUF type.
struct Layout {
    DType type;
    QuantGroups::Kind kind;
    unsigned bits;
    u64 block_elems, block_bytes;
    bool has_min;  // Q4_1 / Q5_1: d, m
};
constexpr Layout kLayouts[] = {
    {DType::Q4_0, QuantGroups::Kind::Affine, 4, 32, 18, false}, {DType::Q4_1, QuantGroups::Kind::Affine, 4, 32, 20, true},
    {DType::Q5_0, QuantGroups::Kind::Affine, 5, 32, 22, false}, {DType::Q5_1, QuantGroups::Kind::Affine, 5, 32, 24, true},
    {DType::Q8_0, QuantGroups::Kind::Affine, 8, 32, 34, false}, {DType::MXFP4, QuantGroups::Kind::Mxfp4, 4, 32, 17, false},
    {DType::NVFP4, QuantGroups::Kind::Nvfp4, 4, 64, 36, false},
};
const Layout* layout_of(DType t) {
    for (const auto& l : kLayouts)
        if (l.type == t) return &l;
    return nullptr;
}

// ggml's UE4M3 byte → the E4M3 byte MLX reads as the same value.
u8 e4m3_from_ue4m3(u8 x) { return x == 0x7F ? 0 : x == 0xFF ? 0x7F : static_cast<u8>(x & 0x7F); }
// MLX's E4M3 byte → ggml's UE4M3 byte of the same value (x < 0x80).
u8 ue4m3_from_e4m3(u8 x) { return x == 0x7F ? 0xFF : x; }

class GgufGroups final : public QuantGroups {
public:
    GgufGroups(const Catalog& cat, const TensorInfo& t, const Layout& l) : t_(t), l_(l), data_(cat.data(t)) {
        elems_ = t.shape.empty() ? 1 : t.shape.back();
        rows_ = elems_ ? t.numel() / elems_ : 0;
        row_bytes_ = elems_ / l.block_elems * l.block_bytes;
        tr_.kind = l.kind;
        tr_.bits = l.bits;
        tr_.group = l.kind == Kind::Nvfp4 ? 16 : 32;
        tr_.param_dtype = l.kind == Kind::Affine ? DType::F16 : DType::U8;
        tr_.symmetric = l.kind == Kind::Affine && !l.has_min;
        tr_.what = "GGUF " + dtype_name(l.type);
    }
    const Traits& traits() const noexcept override { return tr_; }
    u64 rows() const override { return rows_; }
    u64 row_elems() const override { return elems_; }
    void read(u64 row0, u64 n, u8* codes, float* scale, float* bias, u8* sb) const override {
        if (row0 > rows_ || n > rows_ - row0) throw Error(ErrorCode::OutOfRange, "rows out of range", {}, t_.name);
        const u64 blocks = n * (elems_ / l_.block_elems);
        const u8* x = data_ + row0 * row_bytes_;
        for (u64 b = 0; b < blocks; ++b, x += l_.block_bytes) {
            u8* c = codes ? codes + b * l_.block_elems : nullptr;
            if (l_.kind == Kind::Nvfp4) {
                for (int k = 0; k < 4; ++k) {
                    if (sb) sb[b * 4 + k] = e4m3_from_ue4m3(x[k]);
                    if (c)
                        for (int j = 0; j < 8; ++j) c[16 * k + j] = x[4 + 8 * k + j] & 15, c[16 * k + j + 8] = x[4 + 8 * k + j] >> 4;
                }
                continue;
            }
            if (l_.kind == Kind::Mxfp4) {
                if (sb) sb[b] = x[0];
                if (c)
                    for (int j = 0; j < 16; ++j) c[j] = x[1 + j] & 15, c[j + 16] = x[1 + j] >> 4;
                continue;
            }
            const float d = half(x);
            const float off = static_cast<float>(1u << (l_.bits - 1));
            if (scale) scale[b] = d;
            if (bias) bias[b] = l_.has_min ? half(x + 2) : -off * d;
            if (!c) continue;
            if (l_.bits == 8) {
                for (int j = 0; j < 32; ++j) c[j] = static_cast<u8>(static_cast<int>(static_cast<std::int8_t>(x[2 + j])) + 128);
                continue;
            }
            const u8* qs = x + (l_.has_min ? 4 : 2) + (l_.bits == 5 ? 4 : 0);
            const std::uint32_t qh = l_.bits == 5 ? load_u32(x + (l_.has_min ? 4 : 2)) : 0;
            for (int j = 0; j < 16; ++j) {
                c[j] = static_cast<u8>((qs[j] & 15) | (((qh >> j) & 1) << 4));
                c[j + 16] = static_cast<u8>((qs[j] >> 4) | (((qh >> (j + 16)) & 1) << 4));
            }
        }
    }
    std::vector<Recipe::InputRange> consumed_inputs(u64 row0, u64 n) const override {
        return {{t_.shard, t_.offset + row0 * row_bytes_, n * row_bytes_}};
    }

private:
    const TensorInfo& t_;
    const Layout& l_;
    const u8* data_;
    u64 elems_ = 0, rows_ = 0, row_bytes_ = 0;
    Traits tr_;
};

// GGUF rows of type `l.type` from groups already checked to fit.
class GroupRepack final : public RawRows {
public:
    GroupRepack(std::shared_ptr<const QuantGroups> g, const Layout& l) : g_(std::move(g)), l_(l) {}
    u64 rows() const override { return g_->rows(); }
    u64 row_bytes() const override { return g_->row_elems() / l_.block_elems * l_.block_bytes; }
    void read(u64 row0, u64 n, u8* out) const override {
        const u64 C = g_->row_elems(), G = g_->groups_per_row();
        std::vector<u8> codes(static_cast<std::size_t>(C)), sb(static_cast<std::size_t>(G));
        std::vector<float> scale(static_cast<std::size_t>(G)), bias(static_cast<std::size_t>(G));
        for (u64 r = row0; r < row0 + n; ++r) {
            g_->read(r, 1, codes.data(), scale.data(), bias.data(), sb.data());
            for (u64 b = 0; b < C / l_.block_elems; ++b, out += l_.block_bytes) {
                const u8* c = codes.data() + b * l_.block_elems;
                if (l_.kind == QuantGroups::Kind::Nvfp4) {
                    for (int k = 0; k < 4; ++k) {
                        out[k] = ue4m3_from_e4m3(sb[b * 4 + k]);
                        for (int j = 0; j < 8; ++j) out[4 + 8 * k + j] = static_cast<u8>(c[16 * k + j] | (c[16 * k + j + 8] << 4));
                    }
                    continue;
                }
                if (l_.kind == QuantGroups::Kind::Mxfp4) {
                    out[0] = sb[b];
                    for (int j = 0; j < 16; ++j) out[1 + j] = static_cast<u8>(c[j] | (c[j + 16] << 4));
                    continue;
                }
                store_u16(out, kernels::scalar::f16_from_f32(scale[b]));
                if (l_.has_min) store_u16(out + 2, kernels::scalar::f16_from_f32(bias[b]));
                if (l_.bits == 8) {
                    for (int j = 0; j < 32; ++j) out[2 + j] = static_cast<u8>(static_cast<std::int8_t>(static_cast<int>(c[j]) - 128));
                    continue;
                }
                u8* at = out + (l_.has_min ? 4 : 2);
                if (l_.bits == 5) {
                    std::uint32_t qh = 0;
                    for (int j = 0; j < 32; ++j) qh |= static_cast<std::uint32_t>((c[j] >> 4) & 1) << j;
                    std::memcpy(at, &qh, 4);
                    at += 4;
                }
                for (int j = 0; j < 16; ++j) at[j] = static_cast<u8>((c[j] & 15) | ((c[j + 16] & 15) << 4));
            }
        }
    }
    std::vector<Recipe::InputRange> consumed_inputs(u64 row0, u64 n) const override { return g_->consumed_inputs(row0, n); }

private:
    std::shared_ptr<const QuantGroups> g_;
    const Layout& l_;
};

// Every scale and bias of `g` exact in F16, and (symmetric) bias = −off·scale;
// every NVFP4 scale byte positive. Reads the parameters in pieces of rows.
bool parameters_fit(const QuantGroups& g, const Layout& l, Repack& why) {
    const auto& tr = g.traits();
    const bool symmetric = !l.has_min && l.kind == QuantGroups::Kind::Affine;
    if (l.kind == QuantGroups::Kind::Mxfp4) return true;  // the E8M0 byte as it is
    if (l.kind == QuantGroups::Kind::Affine && tr.param_dtype == DType::F16 && (!symmetric || tr.symmetric)) return true;
    const u64 G = g.groups_per_row(), step = std::max<u64>(1, (u64{1} << 20) / std::max<u64>(1, G));
    std::vector<float> scale, bias;
    std::vector<u8> sb;
    const float off = static_cast<float>(1u << (l.bits - 1));
    for (u64 r = 0; r < g.rows(); r += step) {
        const u64 n = std::min(step, g.rows() - r);
        if (l.kind == QuantGroups::Kind::Nvfp4) {
            sb.resize(static_cast<std::size_t>(n * G));
            g.read(r, n, nullptr, nullptr, nullptr, sb.data());
            for (u64 i = 0; i < n * G; ++i)
                if (sb[i] & 0x80) {
                    why = Repack::NegativeScale;
                    return false;
                }
            continue;
        }
        scale.resize(static_cast<std::size_t>(n * G));
        bias.resize(static_cast<std::size_t>(n * G));
        g.read(r, n, nullptr, scale.data(), bias.data(), nullptr);
        for (u64 i = 0; i < n * G; ++i) {
            if (!exact_in(DType::F16, scale[i]) || (l.has_min && !exact_in(DType::F16, bias[i]))) {
                why = Repack::ScaleNotExact;
                return false;
            }
            if (symmetric && bias[i] != -off * scale[i]) {
                why = Repack::BiasNotSymmetric;
                return false;
            }
        }
    }
    return true;
}

}  // namespace

std::shared_ptr<const QuantGroups> gguf_quant_groups(const Catalog& cat, const TensorInfo& t) {
    const Layout* l = layout_of(t.dtype);
    if (!l || t.shape.empty() || t.shape.back() % l->block_elems || !cat.data(t)) return nullptr;
    return std::make_shared<GgufGroups>(cat, t, *l);
}

std::shared_ptr<const RawRows> make_gguf_group_repack(std::shared_ptr<const QuantGroups> g, DType target, Repack& why) {
    const Layout* l = layout_of(target);
    if (!l || !g) {
        why = Repack::OtherCodes;
        return nullptr;
    }
    const auto& tr = g->traits();
    const u64 group = l->kind == QuantGroups::Kind::Nvfp4 ? 16 : 32;
    if (tr.kind != l->kind || tr.bits != l->bits || tr.group != group) {
        why = Repack::OtherCodes;
        return nullptr;
    }
    if (g->row_elems() % l->block_elems) {
        why = Repack::OtherCodes;
        return nullptr;
    }
    if (!parameters_fit(*g, *l, why)) return nullptr;
    return std::make_shared<GroupRepack>(std::move(g), *l);
}

}  // namespace amn::detail
