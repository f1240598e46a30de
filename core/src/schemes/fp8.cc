// SPDX-License-Identifier: MIT OR Apache-2.0
// FP8 weight dequantization: per-tensor, per-channel and block scales.
// y = f32(fp8(w)) × f32(scale), one f32 multiply (PyTorch's
// `w.to(float32) * s`, transformers' finegrained_fp8 / compressed-tensors
// dequantization), then one round to the output dtype by the executor.
#include "anamnesis/error.hpp"
#include "anamnesis/kernels.hpp"
#include "scheme.hpp"

#include <algorithm>
#include <cstring>
#include <optional>
#include <string>

namespace amn::detail {
namespace {

bool is_fp8_payload(DType d) {
    return d == DType::F8_E4M3 || d == DType::F8_E5M2 || d == DType::F8_E4M3FNUZ || d == DType::F8_E5M2FNUZ;
}
bool is_scale_dtype(DType d) {
    return d == DType::F32 || d == DType::BF16 || d == DType::F16 || d == DType::F8_E8M0 || d == DType::F64;
}
std::string fmt_name(DType d) {
    switch (d) {
        case DType::F8_E4M3: return "E4M3";
        case DType::F8_E5M2: return "E5M2";
        case DType::F8_E4M3FNUZ: return "E4M3FNUZ";
        case DType::F8_E5M2FNUZ: return "E5M2FNUZ";
        default: return dtype_name(d);
    }
}

using Granularity = Fp8Granularity;

struct Fp8Layout {
    Granularity g = Granularity::Tensor;
    std::uint64_t batch = 1, rows = 1, cols = 1;  // weight viewed as [batch, rows, cols]
    std::uint64_t block_r = 0, block_c = 0;       // block sizes (Block)
    std::uint64_t grid_r = 0, grid_c = 0;         // scale grid (Block)
};

class Fp8Recipe final : public QuantRecipe {
public:
    Fp8Recipe(const Catalog& cat, std::size_t w, std::size_t s, Fp8Layout l, Fp8Params p)
        : QuantRecipe(p), w_(cat.tensors[w]), s_(cat.tensors[s]), wdata_(cat.data(w_)), sdata_(cat.data(s_)), l_(l) {
        sinfo_ = dtype_info(s_.dtype);
    }
    std::uint64_t rows() const override { return l_.batch * l_.rows; }
    std::uint64_t row_elems() const override { return l_.cols; }
    void dequantize_rows(std::uint64_t row0, std::uint64_t nrows, float* out) const override {
        const std::uint64_t C = l_.cols;
        for (std::uint64_t r = row0; r < row0 + nrows; ++r) {
            const std::uint8_t* src = wdata_ + r * C;
            float* dst = out + (r - row0) * C;
            const std::uint64_t b = r / l_.rows, rr = r % l_.rows;
            switch (l_.g) {
                case Granularity::Tensor: kernels::fp8_scale_to_f32(w_.dtype, src, scale(0), dst, C); break;
                case Granularity::Channel: kernels::fp8_scale_to_f32(w_.dtype, src, scale(r), dst, C); break;
                case Granularity::Expert: kernels::fp8_scale_to_f32(w_.dtype, src, scale(b), dst, C); break;
                case Granularity::Block: {
                    const std::uint64_t srow = (b * l_.grid_r + rr / l_.block_r) * l_.grid_c;
                    for (std::uint64_t j = 0; j < l_.grid_c; ++j) {
                        const std::uint64_t c0 = j * l_.block_c, n = std::min(l_.block_c, C - c0);
                        kernels::fp8_scale_to_f32(w_.dtype, src + c0, scale(srow + j), dst + c0, n);
                    }
                    break;
                }
                case Granularity::Group:  // compressed-tensors' own recipe; layout_for never picks it
                    throw Error(ErrorCode::Unsupported, "FP8 group scales are not read by this recipe");
            }
        }
    }
    std::vector<InputRange> inputs() const override {
        return {{w_.shard, w_.offset, w_.nbytes}};
    }

private:
    float scale(std::uint64_t i) const {
        float f;
        sinfo_->to_f32(sdata_ + i * sinfo_->block_bytes, &f, 1);
        return f;
    }
    const TensorInfo& w_;
    const TensorInfo& s_;
    const std::uint8_t* wdata_;
    const std::uint8_t* sdata_;
    const DTypeInfo* sinfo_;
    Fp8Layout l_;
};

// Block size from quantization_config: fp8 `weight_block_size` or
// compressed-tensors `weights.block_structure` of any config group.
std::optional<std::pair<std::uint64_t, std::uint64_t>> configured_block(const Catalog& cat) {
    auto get2 = [&](const std::string& k) -> std::optional<std::pair<std::uint64_t, std::uint64_t>> {
        auto a = cat.qconfig(k + ".0"), b = cat.qconfig(k + ".1");
        if (!a || !b) return std::nullopt;
        try {
            return std::pair{std::stoull(*a), std::stoull(*b)};
        } catch (...) {
            return std::nullopt;
        }
    };
    if (auto b = get2("weight_block_size")) return b;
    for (const auto& [k, v] : cat.quantization_config) {
        const auto pos = k.find(".weights.block_structure.0");
        if (pos != std::string::npos && pos + std::strlen(".weights.block_structure.0") == k.size())
            if (auto b = get2(k.substr(0, k.size() - 2))) return b;
    }
    return std::nullopt;
}

// Work out how `scale` maps onto `weight`; nullopt + reason when it does not.
std::optional<Fp8Layout> layout_for(const TensorInfo& w, const TensorInfo& s,
                                    std::optional<std::pair<std::uint64_t, std::uint64_t>> block, std::string& why) {
    Fp8Layout l;
    const auto& ws = w.shape;
    const std::size_t rank = ws.size();
    if (rank >= 1) l.cols = ws[rank - 1];
    if (rank >= 2) l.rows = ws[rank - 2];
    for (std::size_t i = 0; i + 2 < rank; ++i) l.batch *= ws[i];
    const std::uint64_t sn = s.numel();
    const auto& ss = s.shape;
    auto ceil_div = [](std::uint64_t a, std::uint64_t b) { return (a + b - 1) / b; };
    // Block: scale has the weight's rank with the last two dims a block grid.
    auto try_block = [&](std::uint64_t br, std::uint64_t bc) -> bool {
        if (br == 0 || bc == 0 || rank < 2 || ss.size() != rank) return false;
        for (std::size_t i = 0; i + 2 < rank; ++i) if (ss[i] != ws[i]) return false;
        if (ss[rank - 2] != ceil_div(l.rows, br) || ss[rank - 1] != ceil_div(l.cols, bc)) return false;
        l.g = Granularity::Block;
        l.block_r = br; l.block_c = bc;
        l.grid_r = ss[rank - 2]; l.grid_c = ss[rank - 1];
        return true;
    };
    // A configured block size wins (a small weight may have a 1×1 grid).
    if (block && try_block(block->first, block->second)) return l;
    if (sn == 1) { l.g = Granularity::Tensor; return l; }
    // Per-channel: one scale per output row ([out, 1], [out], [E, out, 1]).
    if (rank >= 2 && sn == l.batch * l.rows &&
        (ss.back() == 1 || (ss.size() == rank - 1 && std::equal(ss.begin(), ss.end(), ws.begin())))) {
        l.g = Granularity::Channel;
        return l;
    }
    if (rank >= 3 && sn == l.batch) { l.g = Granularity::Expert; return l; }
    if (!block && try_block(128, 128)) return l;  // the common default (DeepSeek-V3, Qwen3 FP8 …)
    why = "scale shape " + shape_to_string(ss) + " does not fit weight shape " + shape_to_string(ws) +
          (block ? " with " + std::to_string(block->first) + "\u00d7" + std::to_string(block->second) + " blocks"
                 : " as per-tensor, per-channel or 128\u00d7128 block scales");
    return std::nullopt;
}

}  // namespace

}  // namespace amn::detail

namespace amn {

std::string Fp8Params::id() const {
    switch (producer) {
        case Fp8Producer::ModelOpt:
            return granularity == Fp8Granularity::Channel ? "modelopt-fp8-channel" : "modelopt-fp8";
        case Fp8Producer::CompressedTensors:
            switch (granularity) {
                case Fp8Granularity::Tensor: return "ct-fp8-tensor";
                case Fp8Granularity::Channel: return "ct-fp8-channel";
                case Fp8Granularity::Expert: return "ct-fp8-expert";
                case Fp8Granularity::Group: return "ct-fp8-g" + std::to_string(group_size);
                case Fp8Granularity::Block:
                    return "ct-fp8-block" + std::to_string(block_rows) + "x" + std::to_string(block_cols);
            }
            break;
        case Fp8Producer::Transformers: break;
    }
    switch (granularity) {
        case Fp8Granularity::Tensor: return "fp8-tensor";
        case Fp8Granularity::Channel: return "fp8-channel";
        case Fp8Granularity::Expert: return "fp8-expert";
        case Fp8Granularity::Group: return "fp8-g" + std::to_string(group_size);
        case Fp8Granularity::Block: return "fp8-block";
    }
    return "fp8";
}

std::string Fp8Params::describe() const {
    const std::string blocks = std::to_string(block_rows) + "\u00d7" + std::to_string(block_cols) + " blocks";
    switch (producer) {
        case Fp8Producer::ModelOpt:
            return "ModelOpt FP8 (" + detail::fmt_name(format) + "), " +
                   (granularity == Fp8Granularity::Channel ? "per-channel" : "per-tensor") + " " + dtype_name(scale_dtype) +
                   " scale applied in BF16";
        case Fp8Producer::CompressedTensors: {
            std::string g;
            switch (granularity) {
                case Fp8Granularity::Tensor: g = "per-tensor"; break;
                case Fp8Granularity::Channel: g = "per-channel"; break;
                case Fp8Granularity::Expert: g = "per-expert"; break;
                case Fp8Granularity::Group: g = "group " + std::to_string(group_size); break;
                case Fp8Granularity::Block: g = blocks; break;
            }
            return "compressed-tensors W8A" + std::to_string(activation_bits) + " (float-quantized), FP8 " +
                   detail::fmt_name(format) + ", " + g + ", " + dtype_name(scale_dtype) + " scales";
        }
        case Fp8Producer::Transformers: break;
    }
    std::string g;
    switch (granularity) {
        case Fp8Granularity::Tensor: g = "per-tensor scale"; break;
        case Fp8Granularity::Channel: g = "per-channel scales"; break;
        case Fp8Granularity::Expert: g = "per-expert scales"; break;
        case Fp8Granularity::Group: g = "group " + std::to_string(group_size) + " scales"; break;
        case Fp8Granularity::Block: g = blocks; break;
    }
    return "FP8 (" + detail::fmt_name(format) + "), " + g + ", " + dtype_name(scale_dtype) + " scales";
}

}  // namespace amn

namespace amn::detail {

void detect_fp8(PlanBuilder& b) {
    const auto& cat = b.catalog();
    const auto block = configured_block(cat);
    bool any = false;
    for (std::size_t i = 0; i < cat.tensors.size(); ++i) {
        const auto& w = cat.tensors[i];
        if (b.claimed(i) || !is_fp8_payload(w.dtype)) continue;
        const std::string& name = w.name;
        const std::string stem = name.ends_with(".weight") ? name.substr(0, name.size() - 7) : name;
        std::size_t s = PlanBuilder::npos;
        Fp8ScaleName naming = Fp8ScaleName::ScaleInv;
        for (const auto& [cand, how] : {std::pair{name + "_scale_inv", Fp8ScaleName::ScaleInv},
                                        std::pair{name + "_scale", Fp8ScaleName::Scale},
                                        std::pair{stem + ".scale_weight", Fp8ScaleName::ScaleWeight},
                                        std::pair{name + ".scale", Fp8ScaleName::DotScale}}) {
            if (auto j = cat.find(cand); j && !b.claimed(*j)) { s = *j; naming = how; break; }
        }
        if (s == PlanBuilder::npos) {
            b.add_error(i, name, "FP8 weight without a scale (looked for " + name + "_scale_inv, " + name + "_scale, " +
                                 stem + ".scale_weight): refusing to guess a scale of 1.0");
            continue;
        }
        const auto& st = cat.tensors[s];
        if (!is_scale_dtype(st.dtype)) {
            b.add_error(i, name, "scale " + st.name + " has dtype " + st.dtype_name + " (expected F32, BF16, F16 or F8_E8M0)", {s});
            continue;
        }
        if (auto zp = cat.find(stem + ".weight_zero_point"); zp && !b.claimed(*zp)) {
            b.add_error(i, name, "FP8 with a zero point (" + cat.tensors[*zp].name + ") is not supported", {s, *zp});
            continue;
        }
        std::string why;
        auto layout = layout_for(w, st, block, why);
        if (!layout) {
            b.add_error(i, name, why, {s});
            continue;
        }
        Fp8Params p;
        p.format = w.dtype;
        p.granularity = layout->g;
        p.block_rows = layout->block_r;
        p.block_cols = layout->block_c;
        p.scale_dtype = st.dtype;
        p.scale_name = naming;
        LogicalTensor lt;
        lt.name = name;
        lt.shape = w.shape;
        b.add_quantized(std::move(lt), std::make_shared<Fp8Recipe>(cat, i, s, *layout, p), i, {s});
        any = true;
        // Activation-side scales of this layer are consumed with it.
        for (const char* suf : {".input_scale", ".input_scale_inv", ".activation_scale", ".output_scale"})
            if (auto j = b.find_unclaimed(stem + suf); j != PlanBuilder::npos) b.consume(j);
    }
    if (!any) return;
    // KV-cache / attention scales of an FP8 model (`self_attn.k_scale`, …):
    // scalars that only mean something to an FP8 runtime.
    for (std::size_t i = 0; i < cat.tensors.size(); ++i) {
        if (b.claimed(i) || cat.tensors[i].numel() != 1) continue;
        const auto& n = cat.tensors[i].name;
        for (const char* suf : {".k_scale", ".v_scale", ".q_scale", ".kv_scale", ".prob_scale"})
            if (n.ends_with(suf)) { b.consume(i); break; }
    }
}

}  // namespace amn::detail
