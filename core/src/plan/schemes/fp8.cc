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
struct ConfiguredBlock {
    std::optional<std::pair<std::uint64_t, std::uint64_t>> size;  ///< a valid [rows, cols]
    std::string problem;  ///< non-empty: the key is present but not two positive integers (says why)
};

// quantization_config[`key`] as [rows, cols] of positive integers. Absent or
// null: neither size nor problem. Anything else is named: a string or number
// instead of a list, a list of another length, negative, zero, non-integer.
ConfiguredBlock parse_block(const Catalog& cat, const std::string& key) {
    ConfiguredBlock r;
    const auto& q = cat.quantization_config;
    const std::string what = "quantization_config." + key;
    if (auto whole = cat.qconfig(key)) {
        if (*whole != "null") r.problem = what + " is \"" + *whole + "\", not a list [rows, cols]";
        return r;
    }
    const std::string under = key + ".";
    std::vector<std::pair<std::string, std::string>> items;
    for (auto it = q.lower_bound(under); it != q.end() && it->first.compare(0, under.size(), under) == 0; ++it)
        items.emplace_back(it->first.substr(under.size()), it->second);
    if (items.empty()) return r;
    if (items.size() != 2 || !cat.qconfig(under + "0") || !cat.qconfig(under + "1")) {
        r.problem = what + " has " + std::to_string(items.size()) + " entries, not [rows, cols]";
        return r;
    }
    std::uint64_t v[2] = {0, 0};
    for (int i = 0; i < 2; ++i) {
        const std::string text = *cat.qconfig(under + std::to_string(i));
        const std::string name = what + "[" + std::to_string(i) + "]";
        const bool digits = !text.empty() && text.size() <= 18 && std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
        if (!text.empty() && text[0] == '-' && text.size() > 1 && std::all_of(text.begin() + 1, text.end(), [](char c) { return c >= '0' && c <= '9'; })) {
            r.problem = name + " is " + text + ": a block size must be positive, not negative";
            return r;
        }
        if (!digits) {
            r.problem = name + " is \"" + text + "\", not a positive integer";
            return r;
        }
        v[i] = std::stoull(text);
        if (v[i] == 0) {
            r.problem = name + " is 0: a block size must be positive, not zero";
            return r;
        }
    }
    r.size = std::pair{v[0], v[1]};
    return r;
}

ConfiguredBlock configured_block(const Catalog& cat) {
    if (auto b = parse_block(cat, "weight_block_size"); b.size || !b.problem.empty()) return b;
    for (const auto& [k, v] : cat.quantization_config) {
        const auto pos = k.find(".weights.block_structure");
        if (pos == std::string::npos) continue;
        const std::string key = k.substr(0, pos + std::strlen(".weights.block_structure"));
        auto b = parse_block(cat, key);
        if (b.size || !b.problem.empty()) return b;
    }
    return {};
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
    return "FP8 (" + detail::fmt_name(format) + "), " + g + ", " + dtype_name(scale_dtype) + " scales" +
           (ue8m0 && scale_dtype != DType::F8_E8M0 ? " (powers of two, UE8M0)" : "");  // E8M0 says it
}

}  // namespace amn

namespace amn::detail {

namespace {

// config.json's `fmt` ("e4m3", "e5m2") against the weights' stored dtype.
bool fmt_matches(std::string fmt, DType d) {
    std::transform(fmt.begin(), fmt.end(), fmt.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (fmt.rfind("float8_", 0) == 0) fmt = fmt.substr(7);
    if (fmt == "e4m3" || fmt == "e4m3fn") return d == DType::F8_E4M3;
    if (fmt == "e5m2") return d == DType::F8_E5M2;
    if (fmt == "e4m3fnuz") return d == DType::F8_E4M3FNUZ;
    if (fmt == "e5m2fnuz") return d == DType::F8_E5M2FNUZ;
    return false;
}

}  // namespace

void detect_fp8(PlanBuilder& b) {
    const auto& cat = b.catalog();
    const ConfiguredBlock configured = configured_block(cat);
    const auto& block = configured.size;
    const std::string cfg = cat.config_path.empty() ? std::string("the quantization config") : cat.config_path;
    bool any = false, block_problem_used = false;
    const auto fmt = cat.qconfig("fmt");
    const auto scale_fmt = cat.qconfig("scale_fmt");  // DeepSeek-V3.1 "ue8m0"
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
            b.add_error(i, name, {TensorErrorKind::MissingCompanion, "",
                                  "FP8 weight without a scale (looked for " + name + "_scale_inv, " + name + "_scale, " + stem +
                                      ".scale_weight): refusing to guess a scale of 1.0"});
            continue;
        }
        const auto& st = cat.tensors[s];
        if (!is_scale_dtype(st.dtype)) {
            b.add_error(i, name, {TensorErrorKind::BadCompanion, "", "scale " + st.name + " has dtype " + st.dtype_name + " (expected F32, BF16, F16 or F8_E8M0)"}, {s});
            continue;
        }
        if (auto zp = cat.find(stem + ".weight_zero_point"); zp && !b.claimed(*zp)) {
            b.add_error(i, name, {TensorErrorKind::UnsupportedVariant, "", "FP8 with a zero point (" + cat.tensors[*zp].name + ") is not supported"}, {s, *zp});
            continue;
        }
        std::string why;
        auto layout = layout_for(w, st, block, why);
        if (!configured.problem.empty() && (!layout || layout->g == Granularity::Block)) {
            // The block size decides which scale each weight uses: a malformed
            // one is not replaced by a guess.
            b.add_error(i, name, {TensorErrorKind::ConfigConflict, "", cfg + ": " + configured.problem + "; the block size decides the output, refusing to guess it"}, {s});
            block_problem_used = true;
            continue;
        }
        if (!layout) {
            b.add_error(i, name, {TensorErrorKind::BadCompanion, "", why}, {s});
            continue;
        }
        if (fmt && *fmt != "null" && !fmt_matches(*fmt, w.dtype))
            b.warn(Notice{.kind = NoticeKind::FormatMismatch, .file = cat.config_path, .detail = *fmt, .found = dtype_name(w.dtype)});
        Fp8Params p;
        p.format = w.dtype;
        p.granularity = layout->g;
        p.block_rows = layout->block_r;
        p.block_cols = layout->block_c;
        p.scale_dtype = st.dtype;
        p.scale_name = naming;
        p.ue8m0 = scale_fmt && *scale_fmt == "ue8m0";
        LogicalTensor lt;
        lt.name = name;
        lt.shape = w.shape;
        b.add_quantized(std::move(lt), std::make_shared<Fp8Recipe>(cat, i, s, *layout, p), i, {s});
        any = true;
        // Activation-side scales of this layer are consumed with it.
        for (const char* suf : {".input_scale", ".input_scale_inv", ".activation_scale", ".output_scale"})
            if (auto j = b.find_unclaimed(stem + suf); j != PlanBuilder::npos) b.consume(j);
    }
    if (!configured.problem.empty() && !block_problem_used && any)
        b.warn(Notice{.kind = NoticeKind::BlockSizeIgnored, .file = cat.config_path, .detail = configured.problem});
    if (!any) return;
    // KV-cache / attention scales of an FP8 model (`self_attn.k_scale`, …):
    // scalars that only mean something to an FP8 runtime.
    b.consume_runtime_scales({".k_scale", ".v_scale", ".q_scale", ".kv_scale", ".prob_scale"}, true);
}

}  // namespace amn::detail
