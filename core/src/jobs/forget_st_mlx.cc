// SPDX-License-Identifier: MIT OR Apache-2.0
// Forget to MLX (mlx-lm's quantized folders, `mlx_lm.convert -q`): the
// scheme row and its encoder, as mx.quantize computes it on the CPU
// (kernels/mlx). Affine mode: per group of G along the row, float32
// min/max, the edge value exact, scales and biases rounded to the weight
// dtype after the codes are chosen; the codes packed into uint32 words as
// one LSB-first bit stream per row; a module P gets P.weight (U32
// [out, in·bits/32]), P.scales and P.biases ([out, in/G], the weight's
// dtype). The fp modes (`mlx_lm.convert -q --q-mode mxfp4|nvfp4|mxfp8`):
// E2M1 or E4M3 codes with one U8 scale per 32 (E8M0) or 16 (E4M3) values,
// P.weight and P.scales only.
// Which modules are quantized (mlx-lm's predicate: Linear and Embedding
// weights whose rows G divides), the config.json keys and the file layout
// are the row's flags (forget_st_rows.hpp), read by forget_st.cc.
#include "jobs/forget_st_rows.hpp"
#include "jobs/forget_st_mlx_tree.hpp"

#include "anamnesis/error.hpp"
#include "anamnesis/st_quantize.hpp"
#include "exec/chunk_rows.hpp"
#include "kernels/mlx/mlx_kernels.hpp"

#include <algorithm>
#include <string_view>
#include <utility>

namespace amn::forget_st_internal {
namespace {

using u64 = std::uint64_t;
namespace mk = kernels::mlx;

class MlxEncoder final : public WeightEncoder {
public:
    MlxEncoder(const MlxParams& p, const QuantWeight& w) : WeightEncoder(w), p_(p) {}

    void encode_f32(const float* x, u64 row0, u64 nrows, QuantScratch& s, const exec::SlotWriteFn& put, kernels::st::LossSums& loss) override {
        if (p_.mode != MlxMode::Affine) return encode_fp(x, row0, nrows, s, put, loss);
        RoundTrip rt(w_, s, x, nrows, loss);
        const u64 C = w_.C, G = C / p_.group_size, row_bytes = C * p_.bits / 8;
        s.a.resize(C);
        s.b.resize(nrows * row_bytes);
        s.f.resize(2 * nrows * G);
        float* scales = s.f.data();
        float* biases = s.f.data() + nrows * G;
        for (u64 r = 0; r < nrows; ++r) {
            mk::affine_quantize_row(p_.bits, p_.group_size, w_.wdtype, x + r * C, C, s.a.data(), s.b.data() + r * row_bytes,
                                    scales + r * G, biases + r * G, rt.y());
            rt.row(r);
        }
        put(0, row0 * row_bytes, s.b);
        put(1, row0 * G * w_.esize(), st::encode_floats({scales, nrows * G}, w_.wdtype));
        put(2, row0 * G * w_.esize(), st::encode_floats({biases, nrows * G}, w_.wdtype));
    }

private:
    // mxfp4 / nvfp4 / mxfp8: the packed codes and one scale byte per group.
    void encode_fp(const float* x, u64 row0, u64 nrows, QuantScratch& s, const exec::SlotWriteFn& put, kernels::st::LossSums& loss) {
        RoundTrip rt(w_, s, x, nrows, loss);
        const u64 C = w_.C, g = mk::fp_group_size(p_.mode), G = C / g, row_bytes = C * p_.bits / 8, group_bytes = g * p_.bits / 8;
        s.b.resize(nrows * row_bytes);
        s.a.resize(nrows * G);
        for (u64 r = 0; r < nrows; ++r) {
            float* y = rt.y();
            for (u64 j = 0; j < G; ++j)
                mk::fp_quantize_group(p_.mode, w_.wdtype, x + r * C + j * g, s.b.data() + r * row_bytes + j * group_bytes,
                                      s.a.data() + r * G + j, y ? y + j * g : nullptr);
            rt.row(r);
        }
        put(0, row0 * row_bytes, s.b);
        put(1, row0 * G, s.a);
    }

    MlxParams p_;
};

// A weight whose input codes MLX stores as they are (GGUF Q4_0 … Q8_0,
// MXFP4, NVFP4, or MLX itself): each row's codes packed, its scales (and
// biases) written in the dtype they are exact in; nothing decoded, nothing
// rounded, no loss measured.
class MlxRepack final : public exec::SchemeEncoder {
public:
    MlxRepack(const MlxParams& p, std::shared_ptr<const detail::QuantGroups> g, DType scale_dtype)
        : p_(p), g_(std::move(g)), sd_(scale_dtype) {}
    bool needs_prepass() const noexcept override { return false; }
    bool needs_after_pass() const noexcept override { return false; }
    void start() override {}
    void prepass(exec::ChunkRows&) override {}
    void finish_prepass() override {}
    void encode(exec::ChunkRows& rows, std::unique_ptr<exec::EncoderScratch>&, const exec::SlotWriteFn& write,
                detail::LossSums&) override {
        const u64 row0 = rows.row0(), n = rows.nrows(), C = g_->row_elems(), G = g_->groups_per_row();
        const u64 row_bytes = C * p_.bits / 8;
        std::vector<std::uint8_t> codes(static_cast<std::size_t>(n * C)), packed(static_cast<std::size_t>(n * row_bytes));
        if (p_.mode != MlxMode::Affine) {
            std::vector<std::uint8_t> sb(static_cast<std::size_t>(n * G));
            g_->read(row0, n, codes.data(), nullptr, nullptr, sb.data());
            for (u64 i = 0; i < n * C / 2; ++i) packed[i] = static_cast<std::uint8_t>(codes[2 * i] | (codes[2 * i + 1] << 4));
            write(0, row0 * row_bytes, packed);
            write(1, row0 * G, sb);
        } else {
            std::vector<float> scale(static_cast<std::size_t>(n * G)), bias(static_cast<std::size_t>(n * G));
            g_->read(row0, n, codes.data(), scale.data(), bias.data(), nullptr);
            for (u64 r = 0; r < n; ++r) mk::pack_codes(p_.bits, codes.data() + r * C, packed.data() + r * row_bytes, C);
            for (u64 i = 0; i < n * G; ++i)
                if (!detail::exact_in(sd_, scale[i]) || !detail::exact_in(sd_, bias[i]))
                    throw Error(ErrorCode::Unsupported,
                                "group " + std::to_string(i % G) + " of row " + std::to_string(row0 + i / G) + ": scale " +
                                    std::to_string(scale[i]) + " or bias " + std::to_string(bias[i]) + " is not exact in " +
                                    dtype_name(sd_) + " (repacking " + g_->traits().what + "); use --requantize --only/--keep to leave it out");
            const u64 es = sd_ == DType::F32 ? 4 : 2;
            write(0, row0 * row_bytes, packed);
            write(1, row0 * G * es, st::encode_floats(scale, sd_));
            write(2, row0 * G * es, st::encode_floats(bias, sd_));
        }
        rows.release();
    }
    void after_pass(const exec::SlotWriteFn&) override {}
    std::uint64_t finish(const exec::SlotWriteFn&, const exec::TailSetFn&) override { return 0; }

private:
    MlxParams p_;
    std::shared_ptr<const detail::QuantGroups> g_;
    DType sd_;
};

std::optional<DType> repack_fits(const QuantParams& s, const detail::QuantGroups& g, Repack& why) {
    using Kind = detail::QuantGroups::Kind;
    const auto& p = std::get<MlxParams>(s);
    const auto& t = g.traits();
    const Kind want = p.mode == MlxMode::Affine ? Kind::Affine : p.mode == MlxMode::Mxfp4 ? Kind::Mxfp4 : Kind::Nvfp4;
    if (p.mode == MlxMode::Mxfp8 || t.kind != want || t.bits != p.bits || t.group != p.group_size) {
        why = Repack::OtherCodes;
        return std::nullopt;
    }
    return p.mode == MlxMode::Affine ? t.param_dtype : DType::U8;
}

std::unique_ptr<exec::SchemeEncoder> repack_encoder(const QuantParams& s, std::shared_ptr<const detail::QuantGroups> g,
                                                    DType scale_dtype) {
    return std::make_unique<MlxRepack>(std::get<MlxParams>(s), std::move(g), scale_dtype);
}

bool writes(const QuantParams& s) { return std::holds_alternative<MlxParams>(s); }

// The fp modes by name, as mlx_lm.convert's --q-mode.
constexpr std::pair<std::string_view, MlxMode> kFpModes[] = {
    {"mlx:mxfp4", MlxMode::Mxfp4}, {"mlx:nvfp4", MlxMode::Nvfp4}, {"mlx:mxfp8", MlxMode::Mxfp8}};

// "mlx" (affine 4-bit), "mlx:2" … "mlx:8" (affine), "mlx:mxfp4", "mlx:nvfp4",
// "mlx:mxfp8" (mlx-lm's mode defaults: group 32, 16, 32; 4, 4, 8 bits).
QuantParams parse(std::string_view name, const StSchemeOptions& o) {
    MlxParams p;
    p.scale_dtype = DType::BF16;  // the weight's, per weight (affine)
    for (const auto& [n, mode] : kFpModes)
        if (name == n) {
            p.mode = mode;
            p.bits = mode == MlxMode::Mxfp8 ? 8u : 4u;
            p.group_size = o.group_size.value_or(mk::fp_group_size(mode));
            p.scale_dtype = DType::U8;
            return p;
        }
    p.mode = MlxMode::Affine;
    p.bits = name.size() > 4 ? static_cast<unsigned>(name[4] - '0') : 4u;
    p.group_size = o.group_size.value_or(64);
    return p;
}

std::string refuse(const QuantParams& s) {
    const auto& p = std::get<MlxParams>(s);
    if (p.mode != MlxMode::Affine) {
        const auto g = mk::fp_group_size(p.mode);
        if (p.group_size != g)
            return "MLX " + std::string(mlx_mode_name(p.mode)) + " quantization has a group size of " + std::to_string(g) +
                   " (mx.quantize), not " + std::to_string(p.group_size);
        return {};
    }
    if (p.bits < 2 || p.bits > 8 || p.bits == 7)
        return "MLX affine quantization takes 2, 3, 4, 5, 6 or 8 bits, not " + std::to_string(p.bits);
    if (p.group_size != 32 && p.group_size != 64 && p.group_size != 128)
        return "--group-size must be 32, 64 or 128 for MLX (mx.quantize), not " + std::to_string(p.group_size);
    return {};
}

QuantParams weight_params(const QuantParams& s, u64, u64, DType wdtype) {
    MlxParams p = std::get<MlxParams>(s);
    if (p.mode == MlxMode::Affine) p.scale_dtype = wdtype;
    return p;
}

std::string label(const QuantParams& s) {
    const auto& p = std::get<MlxParams>(s);
    if (p.mode != MlxMode::Affine)
        return "mlx:" + std::string(mlx_mode_name(p.mode)) + " (group " + std::to_string(p.group_size) + ")";
    return "mlx:" + std::to_string(p.bits) + " (affine, group " + std::to_string(p.group_size) + ")";
}

std::string output_tag(const QuantParams& s) {
    const auto& p = std::get<MlxParams>(s);
    return p.mode == MlxMode::Affine ? std::to_string(p.bits) + "bit" : std::string(mlx_mode_name(p.mode));
}

// mlx-lm `quantize_model`: {"group_size", "bits", "mode"}.
void config(const QuantParams& s, JsonWriter& w) {
    const auto& p = std::get<MlxParams>(s);
    w.key("group_size").value(p.group_size).key("bits").value(p.bits).key("mode").value(mlx_mode_name(p.mode));
}

std::vector<OutSpec> outputs(const QuantParams& s, const std::string& prefix, u64 R, u64 C, DType wdtype) {
    const auto& p = std::get<MlxParams>(s);
    const u64 G = C / p.group_size;
    if (p.mode != MlxMode::Affine)
        return {{prefix + "weight", DType::U32, {R, C * p.bits / 32}}, {prefix + "scales", DType::U8, {R, G}}};
    return {{prefix + "weight", DType::U32, {R, C * p.bits / 32}},
            {prefix + "scales", wdtype, {R, G}},
            {prefix + "biases", wdtype, {R, G}}};
}

std::unique_ptr<WeightEncoder> encoder(const QuantParams& s, const QuantWeight& w) {
    return std::make_unique<MlxEncoder>(std::get<MlxParams>(s), w);
}

}  // namespace

const StSchemeRow& mlx_row() {
    static const StSchemeRow r = [] {
        StSchemeRow r;
        r.names = {"mlx", "mlx:2", "mlx:3", "mlx:4", "mlx:5", "mlx:6", "mlx:8", "mlx:mxfp4", "mlx:nvfp4", "mlx:mxfp8"};
        r.facts_family = "mlx";
        r.takes_group_size = true;
        r.selection = Selection::MlxLm;
        r.layout = OutputLayout::MlxLm;
        r.writes = writes, r.parse = parse, r.refuse = refuse, r.weight_params = weight_params;
        r.label = label, r.output_tag = output_tag, r.config = config, r.outputs = outputs;
        r.encoder = encoder;
        r.repack_fits = repack_fits, r.repack_encoder = repack_encoder;
        r.tree_order_key = mlx_tree_order_key;
        return r;
    }();
    return r;
}

}  // namespace amn::forget_st_internal
