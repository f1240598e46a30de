// SPDX-License-Identifier: MIT OR Apache-2.0
// compressed-tensors (llm-compressor; vLLM's RedHatAI/neuralmagic checkpoints)
// weight dequantization, `quantization_config.quant_method ==
// "compressed-tensors"`. The format of a layer comes from the config group
// whose `targets` match it (names, "re:" regexes, then class names such as
// "Linear"), else the top-level `format`, else the stored dtypes.
//
// Stored per layer X (output X.weight [out, in], nn.Linear orientation):
//   pack-quantized   X.weight_packed I32 [out, ceil(in·b/32)]: element k of a
//                    row is bits k·b … k·b+b−1 of the row's little-endian bit
//                    stream, stored unsigned with offset 2^(b−1);
//                    X.weight_shape I64 [2] = [out, in]; X.weight_scale
//                    [1] / [out, 1] / [out, groups]; optional
//                    X.weight_zero_point packed the same way down dim 0
//                    (I32 [ceil(out·b/32), groups]) and X.weight_g_idx [in].
//   int-/naive-quantized  X.weight I8 [out, in], X.weight_scale, optional
//                    X.weight_zero_point of the scale's shape.
//   float-quantized  X.weight F8 [out, in], X.weight_scale per tensor,
//                    channel, group or block (`block_structure`). Layers
//                    with BF16/F32 scales are left to detect_fp8 (same
//                    arithmetic, same names as before); F16 scales are
//                    claimed here (the library rounds through F16).
//   nvfp4-pack-quantized  X.weight_packed U8 [out, in/2] (E2M1 pairs, low
//                    nibble first, code 8 = −0.0), X.weight_scale F8_E4M3
//                    [out, in/16], X.weight_global_scale F32 [1], a divisor.
// Arithmetic as compressed-tensors `dequantize` does it, in the scale's
// dtype: x = (q − z)·s, every product exact in f32 and rounded once to that
// dtype (BF16, F16 or F32); NVFP4 s = e4m3(scale) / global first.
// Activation-side companions (input_scale, input_global_scale, …) and KV
// cache scales are consumed. Sparse formats (sparse-24-bitmask, marlin-24)
// and any other format are a named "not yet supported" error per layer.
//
// This file: config parsing (config groups, targets/ignore matching, the
// format of each layer) and detection; the recipes that dequantize are in
// compressed_tensors_recipes.cc, shared types in compressed_tensors.hpp.
#include "anamnesis/error.hpp"
#include "compressed_tensors.hpp"
#include "facts.hpp"
#include "nvfp4_recipe.hpp"
#include "quant_common.hpp"
#include "scheme.hpp"

#include <algorithm>
#include <regex>
#include <set>
#include <string>
#include <vector>

namespace amn::detail {
namespace {
using namespace quant;
using namespace ct;

// ------------------------------------------------------------ configuration

struct Target {
    std::string text;
    std::optional<std::regex> re;  // "re:" targets
    bool is_class = false;         // "Linear", "LlamaAttention": a module class
};

struct WeightArgs {
    std::optional<std::int64_t> num_bits, group_size, act_bits;
    std::string type, strategy;
    std::optional<bool> symmetric;
    bool act_order = false;
    std::optional<std::pair<u64, u64>> block;
};

struct Group {
    std::string name, format;
    std::vector<Target> targets;
    WeightArgs w;
};

struct Config {
    std::string format;  // top-level
    std::vector<Group> groups;
    std::vector<Target> ignore;
    std::vector<std::string> ignore_text;
    std::string sparsity_format;
};

std::string value(const Catalog& cat, const std::string& key) {
    auto v = cat.qconfig(key);
    return v && *v != "null" ? *v : std::string();
}

std::vector<std::string> list_of(const Catalog& cat, const std::string& key) {
    std::vector<std::string> v;
    for (std::size_t i = 0;; ++i) {
        auto x = cat.qconfig(key + "." + std::to_string(i));
        if (!x) break;
        v.push_back(*x);
    }
    if (v.empty())
        if (auto x = value(cat, key); !x.empty()) v.push_back(x);
    return v;
}

std::vector<Target> make_targets(const std::vector<std::string>& texts) {
    std::vector<Target> out;
    for (const auto& t : texts) {
        Target x;
        x.text = t;
        if (t.rfind("re:", 0) == 0) {
            try {
                x.re.emplace(t.substr(3), std::regex::ECMAScript);
            } catch (const std::regex_error&) {
                continue;  // a pattern std::regex cannot read matches nothing
            }
        } else {
            x.is_class = !t.empty() && std::isupper(static_cast<unsigned char>(t[0])) && t.find('.') == std::string::npos;
        }
        out.push_back(std::move(x));
    }
    return out;
}

// Python's re.match: anchored at the start, not at the end.
bool matches_name(const Target& t, const std::string& module) {
    if (t.re) return std::regex_search(module, *t.re, std::regex_constants::match_continuous);
    return !t.is_class && t.text == module;
}

Config read_config(const Catalog& cat) {
    Config c;
    c.format = value(cat, "format");
    c.ignore_text = list_of(cat, "ignore");
    c.ignore = make_targets(c.ignore_text);
    c.sparsity_format = value(cat, "sparsity_config.format");
    std::set<std::string> names;
    for (const auto& [k, v] : cat.quantization_config) {
        if (k.rfind("config_groups.", 0) != 0) continue;
        const std::string rest = k.substr(14);
        names.insert(rest.substr(0, rest.find('.')));
    }
    for (const auto& n : names) {
        const std::string p = "config_groups." + n + ".";
        Group g;
        g.name = n;
        g.format = value(cat, p + "format");
        g.targets = make_targets(list_of(cat, p + "targets"));
        g.w.num_bits = parse_int(value(cat, p + "weights.num_bits"));
        g.w.group_size = parse_int(value(cat, p + "weights.group_size"));
        g.w.act_bits = parse_int(value(cat, p + "input_activations.num_bits"));
        g.w.type = value(cat, p + "weights.type");
        g.w.strategy = value(cat, p + "weights.strategy");
        g.w.symmetric = parse_bool(value(cat, p + "weights.symmetric"));
        const std::string ao = ascii_lower(value(cat, p + "weights.actorder"));
        g.w.act_order = !ao.empty() && ao != "false";
        auto b0 = parse_int(value(cat, p + "weights.block_structure.0"));
        auto b1 = parse_int(value(cat, p + "weights.block_structure.1"));
        if (b0 && b1 && *b0 > 0 && *b1 > 0) g.w.block = std::pair{static_cast<u64>(*b0), static_cast<u64>(*b1)};
        c.groups.push_back(std::move(g));
    }
    return c;
}

// The config group of `module`: a name or regex target first, then a class target.
const Group* group_for(const Config& c, const std::string& module) {
    for (const auto& g : c.groups)
        for (const auto& t : g.targets)
            if (matches_name(t, module)) return &g;
    for (const auto& g : c.groups)
        for (const auto& t : g.targets)
            if (t.is_class) return &g;
    return nullptr;
}

// ------------------------------------------------------------ detection

struct Layer {
    std::string stem, out_name, format;
    const Group* group = nullptr;
    std::size_t payload = PlanBuilder::npos, scale = PlanBuilder::npos, zero = PlanBuilder::npos,
                shape = PlanBuilder::npos, g_idx = PlanBuilder::npos, global = PlanBuilder::npos;
    std::vector<std::size_t> comps;
};

// The "A" of "W4A16": the config group's input_activations.num_bits, 16 when not quantized.
unsigned act_bits(const Layer& L) {
    return L.group && L.group->w.act_bits && *L.group->w.act_bits > 0 ? static_cast<unsigned>(*L.group->w.act_bits) : 16;
}

// How `st` (the scale) maps onto a [out, in] weight; nullopt + `why` otherwise.
std::optional<ScaleGrid> scale_grid(const TensorInfo& st, u64 out, u64 in, const Layer& L, bool allow_block,
                                    std::string& why) {
    ScaleGrid g;
    const auto& ss = st.shape;
    const u64 n = st.numel();
    // 0 = not configured.
    const std::int64_t cfg_gs = L.group && L.group->w.group_size ? *L.group->w.group_size : 0;
    const u64 cfg_br = L.group && L.group->w.block ? L.group->w.block->first : 0;
    const u64 cfg_bc = L.group && L.group->w.block ? L.group->w.block->second : 0;
    auto cdiv = [](u64 a, u64 b) { return (a + b - 1) / b; };
    if (n == 1) {
        g.g = Gran::Tensor;
        g.group_size = in;
        return g;
    }
    if (allow_block && ss.size() == 2) {
        auto try_block = [&](u64 br, u64 bc) {
            if (ss[0] != cdiv(out, br) || ss[1] != cdiv(in, bc)) return false;
            g.g = Gran::Block;
            g.block_r = br;
            g.block_c = bc;
            g.grid_c = ss[1];
            return true;
        };
        if (cfg_br && try_block(cfg_br, cfg_bc)) return g;
    }
    if ((ss.size() == 2 && ss[0] == out && ss[1] == 1) || (ss.size() == 1 && ss[0] == out)) {
        g.g = Gran::Channel;
        g.group_size = in;
        return g;
    }
    if (ss.size() == 2 && ss[0] == out && ss[1] > 1) {
        g.g = Gran::Group;
        g.groups = ss[1];
        if (cfg_gs > 0) {
            g.group_size = static_cast<u64>(cfg_gs);
            if (cdiv(in, g.group_size) == g.groups) return g;
        } else if (in % g.groups == 0) {
            g.group_size = in / g.groups;
            return g;
        }
    }
    if (allow_block && !cfg_br && ss.size() == 2 && ss[0] == cdiv(out, 128) && ss[1] == cdiv(in, 128)) {
        g.g = Gran::Block;
        g.block_r = g.block_c = 128;
        g.grid_c = ss[1];
        return g;
    }
    why = "weight_scale " + st.dtype_name + " " + shape_to_string(ss) + " does not fit the weight [" + std::to_string(out) +
          ", " + std::to_string(in) + "] as per-tensor, per-channel" +
          (cfg_gs > 0 ? ", group " + std::to_string(cfg_gs) : std::string(", group")) + (allow_block ? " or block" : "") +
          " scales";
    return std::nullopt;
}

Fp8Granularity fp8_granularity(Gran g) {
    switch (g) {
        case Gran::Tensor: return Fp8Granularity::Tensor;
        case Gran::Channel: return Fp8Granularity::Channel;
        case Gran::Group: return Fp8Granularity::Group;
        case Gran::Block: return Fp8Granularity::Block;
    }
    return Fp8Granularity::Tensor;
}

class Detector {
public:
    explicit Detector(PlanBuilder& b) : b_(b), cat_(b.catalog()) {}

    void layer(Layer& L) {
        auto fail = [&](const std::string& why, TensorErrorKind k = TensorErrorKind::BadCompanion) {
            b_.add_error(L.payload, L.out_name, {k, "compressed-tensors " + L.format, why}, L.comps);
        };
        const std::string& f = L.format;
        if (f == "pack-quantized") return int_layer(L, true, fail);
        if (f == "int-quantized" || f == "naive-quantized") return int_layer(L, false, fail);
        if (f == "dense" && is_float_scale(cat_.tensors[L.payload].dtype)) {
            // Not compressed (quantization_status "frozen"): the float weight
            // passes through; its quantization parameters are consumed.
            for (auto c : L.comps) b_.consume(c);
            return;
        }
        if (f == "float-quantized") {
            // detect_fp8 (run next) names and converts these as it always
            // did: its f32 product + one rounding is the library's arithmetic
            // for BF16/F32 scales. F16 scales round through F16 first: ours.
            const bool f16 = L.scale != PlanBuilder::npos && cat_.tensors[L.scale].dtype == DType::F16;
            if (!f16 && L.zero == PlanBuilder::npos) return;
            return float_layer(L, fail);
        }
        if (f == "nvfp4-pack-quantized") return nvfp4_layer(L, fail);
        // sparse-24-bitmask, marlin-24, mxfp4-pack-quantized, dense with
        // quantization tensors, anything newer: never pass packed data through.
        // The module's other stored tensors go with the error.
        for (std::size_t i = 0; i < cat_.tensors.size(); ++i) {
            const auto& n = cat_.tensors[i].name;
            if (b_.claimed(i) || i == L.payload || n.rfind(L.stem + ".", 0) != 0) continue;
            if (n.find('.', L.stem.size() + 1) != std::string::npos || n.ends_with(".bias")) continue;
            if (std::find(L.comps.begin(), L.comps.end(), i) == L.comps.end()) L.comps.push_back(i);
        }
        b_.add_error(L.payload, L.out_name,
                     {TensorErrorKind::UnsupportedVariant, "",
                      "compressed-tensors format \"" + f + "\" is not yet supported (" + cat_.tensors[L.payload].name + ")"},
                     L.comps);
    }

private:
    template <class Fail>
    void int_layer(Layer& L, bool packed, Fail&& fail) {
        const auto& wt = cat_.tensors[L.payload];
        if (L.scale == PlanBuilder::npos) return fail("missing " + L.stem + ".weight_scale", TensorErrorKind::MissingCompanion);
        const auto& st = cat_.tensors[L.scale];
        if (!is_float_scale(st.dtype)) return fail("weight_scale must be F16, BF16 or F32, got " + st.dtype_name);
        IntLayout l;
        l.packed = packed;
        if (packed) {
            if (!is_int32_word(wt.dtype) || wt.shape.size() != 2)
                return fail("weight_packed must be a 2-D I32 tensor, got " + wt.dtype_name + " " + shape_to_string(wt.shape));
            if (L.shape == PlanBuilder::npos) return fail("missing " + L.stem + ".weight_shape (the unpacked [out, in])", TensorErrorKind::MissingCompanion);
            const auto& sht = cat_.tensors[L.shape];
            const std::uint8_t* sp = cat_.data(sht);
            std::optional<std::int64_t> o, i;
            if (sht.shape.size() == 1 && sht.shape[0] == 2) {
                o = load_index(sht, sp, 0);
                i = load_index(sht, sp, 1);
            }
            if (!o || !i || *o <= 0 || *i <= 0)
                return fail("weight_shape must be an I64 [2] tensor holding [out, in], got " + sht.dtype_name + " " +
                            shape_to_string(sht.shape));
            l.out = static_cast<u64>(*o);
            l.in = static_cast<u64>(*i);
            l.words = wt.shape[1];
            if (wt.shape[0] != l.out)
                return fail("weight_packed " + shape_to_string(wt.shape) + " has " + std::to_string(wt.shape[0]) +
                            " rows, weight_shape says " + std::to_string(l.out));
            const auto cfg_bits = L.group ? L.group->w.num_bits : std::nullopt;
            unsigned bits = 0;
            if (cfg_bits) {
                if (*cfg_bits != 2 && *cfg_bits != 3 && *cfg_bits != 4 && *cfg_bits != 8)
                    return fail("num_bits " + std::to_string(*cfg_bits) + " is not yet supported (2, 3, 4 and 8 are)", TensorErrorKind::UnsupportedVariant);
                bits = static_cast<unsigned>(*cfg_bits);
            } else {
                for (unsigned c : {2u, 3u, 4u, 8u})
                    if ((l.in * c + 31) / 32 == l.words) bits = c;
            }
            if (bits == 0 || (l.in * bits + 31) / 32 != l.words)
                return fail("packed length does not match: weight_packed " + shape_to_string(wt.shape) + " cannot hold " +
                            std::to_string(l.in) + " " + (bits ? std::to_string(bits) + "-bit" : std::string("2/3/4/8-bit")) +
                            " values per row (weight_shape [" + std::to_string(l.out) + ", " + std::to_string(l.in) + "])");
            l.bits = bits;
        } else {
            if (wt.dtype != DType::I8 || wt.shape.size() != 2)
                return fail("weight must be a 2-D I8 tensor, got " + wt.dtype_name + " " + shape_to_string(wt.shape));
            l.out = wt.shape[0];
            l.in = wt.shape[1];
            l.bits = L.group && L.group->w.num_bits ? static_cast<unsigned>(*L.group->w.num_bits) : 8;
        }
        std::string why;
        auto grid = scale_grid(st, l.out, l.in, L, false, why);
        if (!grid) return fail(why);
        l.grid = *grid;
        if (L.zero != PlanBuilder::npos) {
            const auto& zt = cat_.tensors[L.zero];
            const u64 zrows = (l.out * l.bits + 31) / 32;
            if (packed && is_int32_word(zt.dtype) && zt.shape.size() == 2 && zt.shape[0] == zrows &&
                zt.shape[1] == l.grid.groups && l.grid.g != Gran::Tensor) {
                l.zero = IntLayout::Zero::Packed;
                l.zero_words = zrows;
            } else if ((is_int_dtype(zt.dtype) || is_float_scale(zt.dtype)) && zt.numel() == st.numel()) {
                l.zero = IntLayout::Zero::Plain;
            } else {
                return fail("weight_zero_point " + zt.dtype_name + " " + shape_to_string(zt.shape) +
                            " fits neither the scales " + shape_to_string(st.shape) + " nor a packed [" + std::to_string(zrows) +
                            ", " + std::to_string(l.grid.groups) + "] I32 layout");
            }
        } else if (L.group && L.group->w.symmetric == false) {
            return fail("asymmetric quantization without " + L.stem + ".weight_zero_point", TensorErrorKind::MissingCompanion);
        }
        std::vector<std::int32_t> g_idx;
        if (L.g_idx != PlanBuilder::npos) {
            const auto& gt = cat_.tensors[L.g_idx];
            if ((gt.dtype != DType::I32 && gt.dtype != DType::I64) || gt.shape.size() != 1 || gt.shape[0] != l.in)
                return fail("weight_g_idx must be an I32 tensor of shape [" + std::to_string(l.in) + "], got " +
                            gt.dtype_name + " " + shape_to_string(gt.shape));
            g_idx.resize(l.in);
            bool sequential = true;
            const std::uint8_t* gp = cat_.data(gt);
            for (u64 k = 0; k < l.in; ++k) {
                const std::int64_t v = *load_index(gt, gp, k);
                if (v < 0 || static_cast<u64>(v) >= l.grid.groups)
                    return fail("weight_g_idx[" + std::to_string(k) + "] = " + std::to_string(v) + " is out of range (" +
                                std::to_string(l.grid.groups) + " groups)");
                g_idx[k] = static_cast<std::int32_t>(v);
                if (static_cast<u64>(v) != k / l.grid.group_size) sequential = false;
            }
            if (sequential) g_idx.clear();
        }
        AffineParams p;
        p.packing = packed ? AffinePacking::CtPackQuantized
                  : L.format == "naive-quantized" ? AffinePacking::CtNaiveQuantized : AffinePacking::CtIntQuantized;
        p.bits = l.bits;
        p.group_size = l.grid.group_size;
        p.groups = l.grid.groups;
        p.per_tensor = l.grid.g == Gran::Tensor;
        p.channelwise = l.grid.g == Gran::Channel;
        p.symmetric = l.zero == IntLayout::Zero::None;
        p.zero_points = l.zero == IntLayout::Zero::None     ? ZeroPointForm::None
                      : l.zero == IntLayout::Zero::Packed ? ZeroPointForm::Stored : ZeroPointForm::Signed;
        p.act_order = !g_idx.empty();
        p.scale_dtype = st.dtype;
        p.activation_bits = act_bits(L);
        LogicalTensor lt;
        lt.name = L.out_name;
        lt.shape = {l.out, l.in};
        b_.add_quantized(std::move(lt), make_int_recipe(cat_, L.payload, L.scale, L.zero, l, std::move(g_idx), p, b_.options().f32_products),
                         L.payload, L.comps);
    }

    template <class Fail>
    void float_layer(Layer& L, Fail&& fail) {
        const auto& wt = cat_.tensors[L.payload];
        if (wt.dtype != DType::F8_E4M3 && wt.dtype != DType::F8_E5M2)
            return fail("weight must be F8_E4M3 or F8_E5M2, got " + wt.dtype_name);
        if (wt.shape.size() != 2) return fail("weight must be 2-D, got " + shape_to_string(wt.shape));
        if (L.scale == PlanBuilder::npos) return fail("missing " + L.stem + ".weight_scale", TensorErrorKind::MissingCompanion);
        if (L.zero != PlanBuilder::npos) return fail("FP8 with a zero point (" + cat_.tensors[L.zero].name + ") is not supported", TensorErrorKind::UnsupportedVariant);
        const auto& st = cat_.tensors[L.scale];
        if (!is_float_scale(st.dtype)) return fail("weight_scale must be F16, BF16 or F32, got " + st.dtype_name);
        std::string why;
        auto grid = scale_grid(st, wt.shape[0], wt.shape[1], L, true, why);
        if (!grid) return fail(why);
        Fp8Params p;
        p.producer = Fp8Producer::CompressedTensors;
        p.format = wt.dtype;
        p.granularity = fp8_granularity(grid->g);
        if (grid->g == Gran::Block) {
            p.block_rows = grid->block_r;
            p.block_cols = grid->block_c;
        }
        if (grid->g == Gran::Group) p.group_size = grid->group_size;
        p.scale_dtype = st.dtype;
        p.scale_name = Fp8ScaleName::Scale;
        p.activation_bits = act_bits(L);
        LogicalTensor lt;
        lt.name = L.out_name;
        lt.shape = wt.shape;
        b_.add_quantized(std::move(lt),
                         make_float_recipe(cat_, L.payload, L.scale, wt.shape[0], wt.shape[1], *grid, p, b_.options().f32_products),
                         L.payload, L.comps);
    }

    template <class Fail>
    void nvfp4_layer(Layer& L, Fail&& fail) {
        const auto& wt = cat_.tensors[L.payload];
        if (wt.dtype != DType::U8 || wt.shape.size() != 2)
            return fail("weight_packed must be a 2-D U8 tensor, got " + wt.dtype_name + " " + shape_to_string(wt.shape));
        const u64 out = wt.shape[0], in = wt.shape[1] * 2;
        if (L.shape != PlanBuilder::npos) {
            const auto& sht = cat_.tensors[L.shape];
            const std::uint8_t* sp = cat_.data(sht);
            std::optional<std::int64_t> o, i;
            if (sht.shape.size() == 1 && sht.shape[0] == 2) {
                o = load_index(sht, sp, 0);
                i = load_index(sht, sp, 1);
            }
            if (!o || !i || static_cast<u64>(*o) != out || static_cast<u64>(*i) != in)
                return fail("weight_shape " + sht.dtype_name + " " + shape_to_string(sht.shape) +
                            " does not describe the packed weight " + shape_to_string(wt.shape) + " (two values per byte)");
        }
        if (in % 16 != 0)
            return fail("rows of " + std::to_string(in) + " values are not a multiple of 16 (NVFP4 groups of 16)");
        if (L.scale == PlanBuilder::npos) return fail("missing " + L.stem + ".weight_scale", TensorErrorKind::MissingCompanion);
        const auto& st = cat_.tensors[L.scale];
        if (st.dtype != DType::F8_E4M3 || st.shape.size() != 2 || st.shape[0] != out || st.shape[1] != in / 16)
            return fail("weight_scale must be F8_E4M3 [" + std::to_string(out) + ", " + std::to_string(in / 16) + "], got " +
                        st.dtype_name + " " + shape_to_string(st.shape));
        if (L.global == PlanBuilder::npos) return fail("missing " + L.stem + ".weight_global_scale", TensorErrorKind::MissingCompanion);
        const auto& gt = cat_.tensors[L.global];
        if (!is_float_scale(gt.dtype) || gt.numel() != 1)
            return fail("weight_global_scale must be one F32 value, got " + gt.dtype_name + " " + shape_to_string(gt.shape));
        // The E4M3 scale is in the model dtype (BF16) when divided: a 1-D
        // global scale promotes the division (F32 → F32, F16 → F32), a 0-dim one does not.
        DType arith = DType::BF16;
        if (!gt.shape.empty()) arith = gt.dtype == DType::BF16 ? DType::BF16 : DType::F32;
        Fp4Params p;
        p.format = Fp4Format::Nvfp4;
        p.producer = Fp4Producer::CompressedTensors;
        p.block_size = 16;
        p.scale_dtype = DType::F8_E4M3;
        p.global_scale = Fp4GlobalScale::Divisor;
        p.global_dtype = gt.dtype;
        p.arithmetic = arith;
        p.negative_zero = true;
        p.layout = Fp4Layout::RowMajor;
        p.activation_bits = act_bits(L);
        LogicalTensor lt;
        lt.name = L.out_name;
        lt.shape = {out, in};
        b_.add_quantized(std::move(lt), make_nvfp4_recipe(cat_, L.payload, L.scale, L.global, out, in, p),
                         L.payload, L.comps);
    }

    PlanBuilder& b_;
    const Catalog& cat_;
};

std::string infer_format(DType payload, bool has_packed) {
    if (has_packed) return payload == DType::U8 ? "nvfp4-pack-quantized" : "pack-quantized";
    if (payload == DType::I8) return "int-quantized";
    if (payload == DType::F8_E4M3 || payload == DType::F8_E5M2) return "float-quantized";
    return {};
}

}  // namespace

void detect_compressed_tensors(PlanBuilder& b) {
    const auto& cat = b.catalog();
    const auto method = cat.qconfig("quant_method");
    if (!method || !quant_method_is(*method, "compressed-tensors")) return;
    const Config cfg = read_config(cat);
    Detector det(b);

    // Layers: every module with a weight_packed or weight_scale, in catalog order.
    std::vector<std::string> stems;
    std::set<std::string> seen;
    for (const auto& t : cat.tensors) {
        for (std::string_view suf : {".weight_packed", ".weight_scale"}) {
            if (!t.name.ends_with(suf)) continue;
            std::string stem = stem_of(t.name, suf);
            if (seen.insert(stem).second) stems.push_back(std::move(stem));
        }
    }
    for (const auto& stem : stems) {
        Layer L;
        L.stem = stem;
        L.out_name = stem + ".weight";
        const std::size_t packed = b.find_unclaimed(stem + ".weight_packed");
        const std::size_t weight = b.find_unclaimed(stem + ".weight");
        L.scale = b.find_unclaimed(stem + ".weight_scale");
        L.zero = b.find_unclaimed(stem + ".weight_zero_point");
        L.shape = b.find_unclaimed(stem + ".weight_shape");
        L.g_idx = b.find_unclaimed(stem + ".weight_g_idx");
        L.global = b.find_unclaimed(stem + ".weight_global_scale");
        L.payload = packed != PlanBuilder::npos ? packed : weight;
        for (auto c : {L.scale, L.zero, L.shape, L.g_idx, L.global})
            if (c != PlanBuilder::npos) L.comps.push_back(c);
        if (L.payload == PlanBuilder::npos) {
            if (L.scale == PlanBuilder::npos) continue;  // claimed already
            std::vector<std::size_t> rest(L.comps.begin() + 1, L.comps.end());
            b.add_error(L.scale, L.out_name,
                        {TensorErrorKind::MissingCompanion, "compressed-tensors",
                         cat.tensors[L.scale].name + " has no weight_packed or weight to scale"},
                        rest);
        } else {
            L.group = group_for(cfg, stem);
            L.format = L.group && !L.group->format.empty() ? L.group->format : cfg.format;
            if (L.format.empty() || L.format == "mixed-precision")
                L.format = infer_format(cat.tensors[L.payload].dtype, packed != PlanBuilder::npos);
            if (L.format.empty()) L.format = "(none)";
            det.layer(L);
        }
        for (const char* suf : {".input_scale", ".input_zero_point", ".input_global_scale", ".output_scale",
                                ".output_zero_point"})
            if (auto j = b.find_unclaimed(stem + suf); j != PlanBuilder::npos) b.consume(j);
    }
    // KV-cache scales (kv_cache_scheme) belong to the runtime.
    b.consume_runtime_scales({".k_scale", ".v_scale", ".q_scale", ".k_zero_point", ".v_zero_point", ".kv_scale"}, false);
    // Sparse compressors store other companions: never pass them through.
    if (!cfg.sparsity_format.empty() && ascii_lower(cfg.sparsity_format) != "dense") {
        for (std::size_t i = 0; i < cat.tensors.size(); ++i) {
            if (b.claimed(i)) continue;
            const auto& n = cat.tensors[i].name;
            for (const char* suf : {".bitmask", ".compressed", ".row_offsets", ".shape", ".meta", ".scale_packed"})
                if (n.ends_with(suf)) {
                    b.add_error(i, n, {TensorErrorKind::UnsupportedVariant, "",
                                       "compressed-tensors sparsity format \"" + cfg.sparsity_format +
                                           "\" is not yet supported (" + n + ")"});
                    break;
                }
        }
    }
    if (!cfg.ignore_text.empty()) {
        std::string s = "compressed-tensors: ignored (kept in full precision): ";
        for (std::size_t i = 0; i < cfg.ignore_text.size(); ++i) s += (i ? ", " : "") + cfg.ignore_text[i];
        b.note(s);
    }
}

}  // namespace amn::detail
