// SPDX-License-Identifier: MIT OR Apache-2.0
// Forget to FP8 E4M3: compressed-tensors `float-quantized` (`fp8`: presets
// FP8 per tensor, FP8_DYNAMIC per channel, FP8_BLOCK per 128×128 tile) and
// DeepSeek-V3 block FP8 (`fp8-block-deepseek`): their scheme rows and
// encoders. A per-tensor scale needs a first pass (max |x| per row).
#include "jobs/forget_st_rows.hpp"

#include "anamnesis/error.hpp"
#include "kernels/st/st_common.hpp"

#include <algorithm>

namespace amn {
namespace forget_st_internal {
namespace {

using u64 = std::uint64_t;

// Max |x| of every 128 × 128 tile of `nrows` rows of `C` columns (tiles
// row-major, ceil(C / 128) per tile row; edge tiles partial) into `f`.
void tile_absmax(const kernels::st::StKernels& k, const float* x, u64 nrows, u64 C, std::vector<float>& f) {
    const u64 nbc = (C + 127) / 128;
    f.assign(((nrows + 127) / 128) * nbc, 0.0f);
    for (u64 r = 0; r < nrows; ++r)
        for (u64 c0 = 0, t = (r / 128) * nbc; c0 < C; c0 += 128, ++t)
            f[t] = std::max(f[t], k.absmax(x + r * C + c0, std::min<u64>(128, C - c0)));
}

// The same from the stored BF16 bits into s.f (false: a NaN/±inf).
bool tile_absmax_bf16(const kernels::st::StKernels& k, const std::uint16_t* in, u64 nrows, u64 C, QuantScratch& s) {
    const u64 nbc = (C + 127) / 128;
    s.f.assign(((nrows + 127) / 128) * nbc, 0.0f);
    s.y.resize(nbc);  // one row's 128-column maxima
    for (u64 r = 0; r < nrows; ++r) {
        if (!k.bf16_absmax_blocks(in + r * C, C, 128, s.y.data())) return false;
        float* f = s.f.data() + (r / 128) * nbc;
        for (u64 t = 0; t < nbc; ++t) f[t] = std::max(f[t], s.y[t]);
    }
    return true;
}

// E4M3 codes of those rows with each tile's scale `f[t]` (compressed-tensors
// FP8_BLOCK, or DeepSeek's weight_scale_inv when `deepseek`), one row of
// round trip at a time, its loss after each row.
void encode_tiles(const kernels::st::StKernels& k, const float* x, u64 nrows, u64 C, const std::vector<float>& f,
                  bool deepseek, DType wdtype, std::uint8_t* q, const RoundTrip& rt) {
    const u64 nbc = (C + 127) / 128;
    float* y = rt.y();
    for (u64 r = 0; r < nrows; ++r) {
        for (u64 c0 = 0, t = (r / 128) * nbc; c0 < C; c0 += 128, ++t)
            k.fp8_encode(x + r * C + c0, std::min<u64>(128, C - c0), f[t], deepseek, wdtype, q + r * C + c0,
                         y ? y + c0 : nullptr);
        rt.row(r);
    }
}

// The same from the stored BF16 bits, each 128-column piece with its tile's scale in s.f.
void encode_tiles_bf16(const kernels::st::StKernels& k, const std::uint16_t* in, u64 nrows, u64 C, bool deepseek,
                       QuantScratch& s) {
    const u64 nbc = (C + 127) / 128;
    for (u64 r = 0; r < nrows; ++r)
        k.fp8_encode_bf16(in + r * C, C, s.f.data() + (r / 128) * nbc, 128, deepseek, s.a.data() + r * C);
}

// ---- compressed-tensors FP8 ------------------------------------------------------------

class Fp8CtEncoder final : public WeightEncoder {
public:
    Fp8CtEncoder(const Fp8Params& f, const QuantWeight& w) : WeightEncoder(w), g_(f.granularity) {}

    void start() override {
        if (g_ == Fp8Granularity::Tensor) row_amax_.resize(w_.R);
    }
    u64 row_granularity() const noexcept override { return g_ == Fp8Granularity::Block ? 128 : 1; }
    bool needs_prepass() const noexcept override { return g_ == Fp8Granularity::Tensor; }
    void prepass_f32(const float* x, u64 row0, u64 nrows) override {
        for (u64 r = 0; r < nrows; ++r) row_amax_[row0 + r] = w_.k->absmax(x + r * w_.C, w_.C);
    }
    bool has_bf16_prepass() const noexcept override {
        return w_.wdtype == DType::BF16 && g_ == Fp8Granularity::Tensor;
    }
    bool prepass_bf16(const std::uint16_t* in, u64 row0, u64 nrows) override {
        for (u64 r = 0; r < nrows; ++r) {
            const std::uint16_t b = w_.k->bf16_absmax_bits(in + r * w_.C, w_.C);
            if (b >= 0x7F80u) return false;
            row_amax_[row0 + r] = st::detail::float_of(std::uint32_t(b) << 16);
        }
        return true;
    }
    void finish_prepass() override {
        float a = 0.0f;
        for (const float v : row_amax_) a = std::max(a, v);
        tensor_scale_ = st::detail::fp8_ct_scale(a, w_.wdtype);
    }

    bool has_bf16_encode() const noexcept override { return bf16_direct(); }
    bool encode_bf16(const std::uint16_t* in, u64 row0, u64 nrows, QuantScratch& s, const exec::SlotWriteFn& put,
                     kernels::st::LossSums&) override {
        // Everything is computed before the first put(): false leaves nothing written.
        const kernels::st::StKernels& k = *w_.k;
        const u64 C = w_.C, n = nrows * C;
        s.a.resize(n);
        if (g_ == Fp8Granularity::Tensor) {
            // The first pass (prepass_bf16) found every row finite.
            k.fp8_encode_bf16(in, n, &tensor_scale_, n, false, s.a.data());
        } else if (g_ == Fp8Granularity::Channel) {
            s.f.resize(nrows);
            for (u64 r = 0; r < nrows; ++r) {
                const std::uint32_t bits = k.bf16_absmax_bits(in + r * C, C);
                if (bits >= 0x7F80u) return false;
                s.f[r] = st::detail::fp8_ct_scale(st::detail::float_of(bits << 16), w_.wdtype);
                k.fp8_encode_bf16(in + r * C, C, &s.f[r], C, false, s.a.data() + r * C);
            }
            put(1, row0 * w_.esize(), st::encode_floats(s.f, w_.wdtype));
        } else {
            if (!tile_absmax_bf16(k, in, nrows, C, s)) return false;
            for (float& v : s.f) v = st::detail::fp8_ct_scale(v, w_.wdtype);
            encode_tiles_bf16(k, in, nrows, C, false, s);
            put(1, (row0 / 128) * ((C + 127) / 128) * w_.esize(), st::encode_floats(s.f, w_.wdtype));
        }
        put(0, row0 * C, s.a);
        return true;
    }

    void encode_f32(const float* x, u64 row0, u64 nrows, QuantScratch& s, const exec::SlotWriteFn& put, kernels::st::LossSums& loss) override {
        const kernels::st::StKernels& k = *w_.k;
        RoundTrip rt(w_, s, x, nrows, loss);
        const u64 C = w_.C, n = nrows * C;
        s.a.resize(n);
        if (g_ == Fp8Granularity::Tensor) {
            for (u64 i = 0; i < n; i += RoundTrip::kPiece) {
                const u64 len = std::min(RoundTrip::kPiece, n - i);
                k.fp8_encode(x + i, len, tensor_scale_, false, w_.wdtype, s.a.data() + i, rt.y());
                rt.flat(i, len);
            }
        } else if (g_ == Fp8Granularity::Channel) {
            s.f.resize(nrows);
            for (u64 r = 0; r < nrows; ++r) {
                s.f[r] = st::detail::fp8_ct_scale(k.absmax(x + r * C, C), w_.wdtype);
                k.fp8_encode(x + r * C, C, s.f[r], false, w_.wdtype, s.a.data() + r * C, rt.y());
                rt.row(r);
            }
            put(1, row0 * w_.esize(), st::encode_floats(s.f, w_.wdtype));
        } else {
            // 128×128 tiles; chunks start on a tile row.
            tile_absmax(k, x, nrows, C, s.f);
            for (float& v : s.f) v = st::detail::fp8_ct_scale(v, w_.wdtype);
            encode_tiles(k, x, nrows, C, s.f, false, w_.wdtype, s.a.data(), rt);
            put(1, (row0 / 128) * ((C + 127) / 128) * w_.esize(), st::encode_floats(s.f, w_.wdtype));
        }
        put(0, row0 * C, s.a);
    }

    u64 finish(const exec::SlotWriteFn& put, const exec::TailSetFn&) override {
        if (g_ == Fp8Granularity::Tensor) {
            const float sc[1] = {tensor_scale_};
            put(1, 0, st::encode_floats(sc, w_.wdtype));
        }
        return 0;
    }

private:
    Fp8Granularity g_;
    std::vector<float> row_amax_;  // per tensor: max |x| of every row (the first pass)
    float tensor_scale_ = 0.0f;
};

const char* preset(Fp8Granularity g) {
    switch (g) {
        case Fp8Granularity::Tensor: return "FP8";
        case Fp8Granularity::Channel: return "FP8_DYNAMIC";
        default: return "FP8_BLOCK";
    }
}

// compressed-tensors' strategy word, as users name the granularity.
const char* strategy(Fp8Granularity g) {
    switch (g) {
        case Fp8Granularity::Tensor: return "tensor";
        case Fp8Granularity::Channel: return "channel";
        case Fp8Granularity::Expert: return "expert";
        case Fp8Granularity::Group: return "group";
        default: return "block";
    }
}

// Why a granularity word is not one `fp8` writes (parse_fp8_granularity's words).
std::string granularity_refusal(std::string_view word) {
    return "--granularity must be tensor, channel or block, not '" + std::string(word) + "'";
}

bool writes_ct(const QuantParams& s) {
    const auto* f = std::get_if<Fp8Params>(&s);
    return f && f->format == DType::F8_E4M3 && f->scale_name == Fp8ScaleName::Scale && f->producer != Fp8Producer::ModelOpt;
}

QuantParams parse_ct(std::string_view, const StSchemeOptions& o) {
    Fp8Params f;
    f.granularity = o.granularity.value_or(Fp8Granularity::Channel);
    if (f.granularity == Fp8Granularity::Block) f.block_rows = f.block_cols = 128;
    f.scale_dtype = DType::BF16;  // the weight's, per weight
    f.scale_name = Fp8ScaleName::Scale;
    f.producer = Fp8Producer::CompressedTensors;
    f.activation_bits = 8;
    return f;
}

std::string refuse_ct(const QuantParams& s) {
    const auto& f = std::get<Fp8Params>(s);
    const bool block = f.granularity == Fp8Granularity::Block;
    if (f.granularity != Fp8Granularity::Tensor && f.granularity != Fp8Granularity::Channel && !block)
        return granularity_refusal(strategy(f.granularity));
    if (block != (f.block_rows == 128 && f.block_cols == 128) || (!block && (f.block_rows || f.block_cols)))
        return "fp8 (FP8_BLOCK) is written in 128 \u00d7 128 blocks, and only the block granularity has a block size";
    if (f.group_size) return "fp8 is written per tensor, channel or 128 \u00d7 128 block, not in groups";
    if (f.activation_bits != 8) return "fp8 is written as the W8A8 presets (activation_bits 8)";
    if (f.ue8m0) return "UE8M0 scales are written by fp8-block-deepseek";
    return {};
}

// The read side names compressed-tensors FP8 with BF16 / F32 scales by its
// arithmetic, transformers' (detect_fp8); F16 scales stay compressed-tensors'.
QuantParams weight_params_ct(const QuantParams& s, u64, u64, DType wdtype) {
    Fp8Params f = std::get<Fp8Params>(s);
    f.scale_dtype = wdtype;
    if (wdtype != DType::F16) {
        f.producer = Fp8Producer::Transformers;
        f.activation_bits = 16;
    }
    return f;
}

std::string label_ct(const QuantParams& s) {
    const auto g = std::get<Fp8Params>(s).granularity;
    return std::string("fp8 (") + preset(g) + ", " + strategy(g) + ")";
}

std::string tag_ct(const QuantParams& s) {
    const auto g = std::get<Fp8Params>(s).granularity;
    return g == Fp8Granularity::Tensor ? "fp8" : g == Fp8Granularity::Channel ? "fp8-dynamic" : "fp8-block";
}

void config_ct(const QuantParams& s, JsonWriter& w) {
    const auto g = std::get<Fp8Params>(s).granularity;
    w.key("quant_method").value("compressed-tensors");
    w.key("format").value("float-quantized");
    w.key("config_groups").begin_object().key("group_0").begin_object();
    w.key("targets").begin_array().value("Linear").end_array();
    w.key("weights").begin_object();
    w.key("num_bits").value(8).key("type").value("float").key("symmetric").value(true);
    w.key("strategy").value(strategy(g));
    w.key("dynamic").value(false).key("observer").value("memoryless_minmax");
    if (g == Fp8Granularity::Block) w.key("block_structure").begin_array().value(128).value(128).end_array();
    w.end_object();
    w.key("input_activations").begin_object();
    w.key("num_bits").value(8).key("type").value("float").key("symmetric").value(true);
    switch (g) {
        case Fp8Granularity::Tensor: w.key("strategy").value("tensor").key("dynamic").value(false); break;
        case Fp8Granularity::Channel: w.key("strategy").value("token").key("dynamic").value(true); break;
        default: w.key("strategy").value("group").key("group_size").value(128).key("dynamic").value(true);
    }
    w.end_object();
    w.end_object().end_object();
    w.key("quantization_status").value("compressed");
}

std::vector<OutSpec> outputs_ct(const QuantParams& s, const std::string& p, u64 R, u64 C, DType wdtype) {
    std::vector<u64> ss;
    switch (std::get<Fp8Params>(s).granularity) {
        case Fp8Granularity::Tensor: ss = {1}; break;
        case Fp8Granularity::Channel: ss = {R, 1}; break;
        default: ss = {(R + 127) / 128, (C + 127) / 128};
    }
    return {{p + "weight", DType::F8_E4M3, {R, C}}, {p + "weight_scale", wdtype, ss}};
}

std::unique_ptr<WeightEncoder> encoder_ct(const QuantParams& s, const QuantWeight& w) {
    return std::make_unique<Fp8CtEncoder>(std::get<Fp8Params>(s), w);
}

// ---- DeepSeek-V3 block FP8 ----------------------------------------------------------------

class Fp8DeepseekEncoder final : public WeightEncoder {
public:
    Fp8DeepseekEncoder(const Fp8Params& d, const QuantWeight& w) : WeightEncoder(w), ue8m0_(d.ue8m0) {}

    u64 row_granularity() const noexcept override { return 128; }

    bool has_bf16_encode() const noexcept override { return bf16_direct(); }
    bool encode_bf16(const std::uint16_t* in, u64 row0, u64 nrows, QuantScratch& s, const exec::SlotWriteFn& put,
                     kernels::st::LossSums&) override {
        const u64 C = w_.C;
        s.a.resize(nrows * C);
        if (!tile_absmax_bf16(*w_.k, in, nrows, C, s)) return false;  // nothing written
        for (float& v : s.f) v = st::detail::deepseek_sf(v, ue8m0_);
        encode_tiles_bf16(*w_.k, in, nrows, C, true, s);
        put(0, row0 * C, s.a);
        put(1, (row0 / 128) * ((C + 127) / 128) * 4, bytes_of(s.f));
        return true;
    }

    void encode_f32(const float* x, u64 row0, u64 nrows, QuantScratch& s, const exec::SlotWriteFn& put, kernels::st::LossSums& loss) override {
        RoundTrip rt(w_, s, x, nrows, loss);
        const u64 C = w_.C;
        s.a.resize(nrows * C);
        tile_absmax(*w_.k, x, nrows, C, s.f);
        for (float& v : s.f) v = st::detail::deepseek_sf(v, ue8m0_);
        encode_tiles(*w_.k, x, nrows, C, s.f, true, w_.wdtype, s.a.data(), rt);
        put(0, row0 * C, s.a);
        put(1, (row0 / 128) * ((C + 127) / 128) * 4, bytes_of(s.f));
    }

private:
    bool ue8m0_;
};

bool writes_ds(const QuantParams& s) {
    const auto* f = std::get_if<Fp8Params>(&s);
    return f && f->format == DType::F8_E4M3 && f->scale_name == Fp8ScaleName::ScaleInv;
}

QuantParams parse_ds(std::string_view, const StSchemeOptions& o) {
    Fp8Params f;
    f.granularity = Fp8Granularity::Block;
    f.block_rows = f.block_cols = 128;
    f.scale_dtype = DType::F32;
    f.scale_name = Fp8ScaleName::ScaleInv;
    f.producer = Fp8Producer::Transformers;
    f.ue8m0 = o.ue8m0;
    return f;
}

std::string refuse_ds(const QuantParams& s) {
    const auto& f = std::get<Fp8Params>(s);
    if (f.granularity != Fp8Granularity::Block || f.block_rows != 128 || f.block_cols != 128 || f.group_size)
        return "fp8-block-deepseek is written in 128 \u00d7 128 blocks";
    if (f.scale_dtype != DType::F32 || f.producer != Fp8Producer::Transformers || f.activation_bits != 16)
        return "fp8-block-deepseek stores F32 weight_scale_inv as transformers reads it";
    return {};
}

QuantParams weight_params_ds(const QuantParams& s, u64, u64, DType) { return s; }

std::string label_ds(const QuantParams& s) {
    return std::string("fp8-block-deepseek") + (std::get<Fp8Params>(s).ue8m0 ? " (ue8m0)" : "");
}

std::string tag_ds(const QuantParams&) { return "fp8-block-ds"; }

void config_ds(const QuantParams& s, JsonWriter& w) {
    w.key("quant_method").value("fp8");
    w.key("fmt").value("e4m3");
    w.key("activation_scheme").value("dynamic");
    w.key("weight_block_size").begin_array().value(128).value(128).end_array();
    if (std::get<Fp8Params>(s).ue8m0) w.key("scale_fmt").value("ue8m0");
}

std::vector<OutSpec> outputs_ds(const QuantParams&, const std::string& p, u64 R, u64 C, DType) {
    return {{p + "weight", DType::F8_E4M3, {R, C}},
            {p + "weight_scale_inv", DType::F32, {(R + 127) / 128, (C + 127) / 128}}};
}

std::unique_ptr<WeightEncoder> encoder_ds(const QuantParams& s, const QuantWeight& w) {
    return std::make_unique<Fp8DeepseekEncoder>(std::get<Fp8Params>(s), w);
}

}  // namespace

const StSchemeRow& fp8_ct_row() {
    static const StSchemeRow r = [] {
        StSchemeRow r;
        r.names = {"fp8"};
        r.facts_family = "compressed-tensors";
        r.takes_granularity = true;
        r.lists_ignore = true;
        r.writes = writes_ct, r.parse = parse_ct, r.refuse = refuse_ct, r.weight_params = weight_params_ct;
        r.label = label_ct, r.output_tag = tag_ct, r.config = config_ct, r.outputs = outputs_ct;
        r.encoder = encoder_ct;
        return r;
    }();
    return r;
}

const StSchemeRow& fp8_deepseek_row() {
    static const StSchemeRow r = [] {
        StSchemeRow r;
        r.names = {"fp8-block-deepseek"};
        r.facts_family = "fp8";
        r.takes_ue8m0 = true;
        r.writes = writes_ds, r.parse = parse_ds, r.refuse = refuse_ds, r.weight_params = weight_params_ds;
        r.label = label_ds, r.output_tag = tag_ds, r.config = config_ds, r.outputs = outputs_ds;
        r.encoder = encoder_ds;
        return r;
    }();
    return r;
}

}  // namespace forget_st_internal

Fp8Granularity parse_fp8_granularity(std::string_view g) {
    if (g == "tensor") return Fp8Granularity::Tensor;
    if (g == "channel") return Fp8Granularity::Channel;
    if (g == "block") return Fp8Granularity::Block;
    throw Error(ErrorCode::Usage, forget_st_internal::granularity_refusal(g));
}

}  // namespace amn
