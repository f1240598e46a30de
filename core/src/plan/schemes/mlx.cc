// SPDX-License-Identifier: MIT OR Apache-2.0
// MLX quantized layers (mlx-lm folders: `mlx_lm.convert -q`, mlx-community).
//
// Stored per quantized module P (mlx `nn.QuantizedLinear` /
// `nn.QuantizedEmbedding`, python/mlx/nn/layers/quantized.py l.139-142,
// 250-253; MoE `SwitchLinear` stacks add leading expert dimensions):
//   P.weight  U32 [..., out, in·bits/32]   codes, each row one LSB-first bit
//                                         stream over the words' LE bytes
//   P.scales  [..., out, in/group_size]    model dtype (affine) or U8 (fp modes)
//   P.biases  [..., out, in/group_size]    affine only
// Output P.weight [..., out, in] = mx.dequantize on the CPU (MlxParams;
// kernels/mlx/mlx_kernels.hpp), in the scales' dtype (affine) or BF16.
//
// Which modules are quantized and how (mlx-lm mlx_lm/utils.py at d78bf58e,
// `load_model` l.376-388): config.json `quantization` {group_size, bits,
// mode} (mode absent = "affine"), and per-module overrides under the
// module's path: a {group_size, bits, mode} object, or `false` (not
// quantized). A module without an override is quantized iff `P.scales` is
// stored, with the top-level parameters. The catalog flattens the object
// (catalog.cc: `quantization_config`, or MLX's `quantization` when a
// config has no quantization_config), so an override reads as
// "P.bits", "P.group_size", "P.mode" and `false` as "P" = "false".
#include "anamnesis/error.hpp"
#include "kernels/mlx/mlx_kernels.hpp"
#include "plan/quant_groups.hpp"
#include "quant_common.hpp"
#include "scheme.hpp"

#include <algorithm>
#include <string>
#include <vector>

namespace amn {

std::string_view mlx_mode_name(MlxMode m) noexcept {
    switch (m) {
        case MlxMode::Affine: return "affine";
        case MlxMode::Mxfp4: return "mxfp4";
        case MlxMode::Nvfp4: return "nvfp4";
        case MlxMode::Mxfp8: return "mxfp8";
    }
    return "affine";
}

DType MlxParams::result_dtype() const noexcept { return mode == MlxMode::Affine ? scale_dtype : DType::BF16; }

std::string MlxParams::id() const {
    if (mode != MlxMode::Affine) return "mlx-" + std::string(mlx_mode_name(mode));
    return "mlx-affine-" + std::to_string(bits) + "bit-g" + std::to_string(group_size);
}

std::string MlxParams::describe() const {
    switch (mode) {
        case MlxMode::Affine:
            return "MLX affine " + std::to_string(bits) + "-bit, group " + std::to_string(group_size) + ", " +
                   dtype_name(scale_dtype) + " scales and biases";
        case MlxMode::Mxfp4: return "MLX MXFP4, E2M1 with an E8M0 scale per " + std::to_string(group_size);
        case MlxMode::Nvfp4: return "MLX NVFP4, E2M1 with an E4M3 scale per " + std::to_string(group_size);
        case MlxMode::Mxfp8: return "MLX MXFP8, E4M3 with an E8M0 scale per " + std::to_string(group_size);
    }
    return {};
}

}  // namespace amn

namespace amn::detail {
namespace {
using namespace quant;
namespace mk = amn::kernels::mlx;
using u64 = std::uint64_t;

// The codes and group scales of an MLX module (affine, mxfp4, nvfp4) for
// the lossless repacks (quant_groups.hpp); mxfp8 has no counterpart.
class MlxGroups final : public QuantGroups {
public:
    MlxGroups(const MlxParams& p, const TensorInfo& w, const TensorInfo& s, const TensorInfo* b, const std::uint8_t* wd,
              const std::uint8_t* sd, const std::uint8_t* bd, u64 rows, u64 in)
        : p_(p), w_(w), s_(s), b_(b), wd_(wd), sd_(sd), bd_(bd), sinfo_(dtype_info(s.dtype)), rows_(rows), in_(in),
          row_bytes_(w.nbytes / std::max<u64>(rows, 1)), groups_(in / p.group_size) {
        tr_.kind = p.mode == MlxMode::Affine ? Kind::Affine : p.mode == MlxMode::Mxfp4 ? Kind::Mxfp4 : Kind::Nvfp4;
        tr_.bits = p.bits;
        tr_.group = p.group_size;
        tr_.param_dtype = p.mode == MlxMode::Affine ? s.dtype : DType::U8;
        tr_.what = "MLX " + (p.mode == MlxMode::Affine ? "affine " + std::to_string(p.bits) + "-bit, group " + std::to_string(p.group_size)
                                                        : std::string(mlx_mode_name(p.mode)));
    }
    const Traits& traits() const noexcept override { return tr_; }
    u64 rows() const override { return rows_; }
    u64 row_elems() const override { return in_; }
    void read(u64 row0, u64 n, std::uint8_t* codes, float* scale, float* bias, std::uint8_t* sb) const override {
        if (row0 > rows_ || n > rows_ - row0) throw Error(ErrorCode::OutOfRange, "rows out of range", {}, w_.name);
        for (u64 r = row0; r < row0 + n; ++r) {
            const u64 k = r - row0, s0 = r * groups_;
            const std::uint8_t* packed = wd_ + r * row_bytes_;
            if (codes) {
                std::uint8_t* c = codes + k * in_;
                if (p_.mode == MlxMode::Affine) {
                    mk::unpack_codes(p_.bits, packed, c, in_);
                } else {
                    for (u64 i = 0; i < in_ / 2; ++i) c[2 * i] = packed[i] & 15, c[2 * i + 1] = packed[i] >> 4;
                }
            }
            if (p_.mode != MlxMode::Affine) {
                if (sb) std::copy(sd_ + s0, sd_ + s0 + groups_, sb + k * groups_);
                continue;
            }
            for (u64 g = 0; g < groups_; ++g) {
                if (scale) scale[k * groups_ + g] = load_float(sinfo_, sd_, s0 + g);
                if (bias) bias[k * groups_ + g] = load_float(sinfo_, bd_, s0 + g);
            }
        }
    }
    std::vector<Recipe::InputRange> consumed_inputs(u64 row0, u64 n) const override {
        const u64 sb = s_.nbytes / std::max<u64>(rows_, 1);
        std::vector<Recipe::InputRange> r{{w_.shard, w_.offset + row0 * row_bytes_, n * row_bytes_},
                                          {s_.shard, s_.offset + row0 * sb, n * sb}};
        if (b_) r.push_back({b_->shard, b_->offset + row0 * sb, n * sb});
        return r;
    }

private:
    MlxParams p_;
    const TensorInfo& w_;
    const TensorInfo& s_;
    const TensorInfo* b_;
    const std::uint8_t *wd_, *sd_, *bd_;
    const DTypeInfo* sinfo_;
    u64 rows_, in_, row_bytes_, groups_;
    Traits tr_;
};

class MlxRecipe final : public QuantRecipe {
public:
    // biases = npos in the fp modes.
    MlxRecipe(const Catalog& cat, std::size_t weight, std::size_t scales, std::size_t biases, MlxParams p, u64 rows,
              u64 in)
        : QuantRecipe(p), p_(p), w_(cat.tensors[weight]), s_(cat.tensors[scales]),
          b_(biases == PlanBuilder::npos ? nullptr : &cat.tensors[biases]), wd_(cat.data(w_)), sd_(cat.data(s_)),
          bd_(b_ ? cat.data(*b_) : nullptr), sinfo_(dtype_info(s_.dtype)), rows_(rows), in_(in),
          row_bytes_(w_.nbytes / std::max<u64>(rows, 1)), groups_(in / p.group_size) {}

    u64 rows() const override { return rows_; }
    u64 row_elems() const override { return in_; }
    std::optional<DType> result_dtype() const override { return p_.result_dtype(); }
    std::vector<InputRange> inputs() const override {
        std::vector<InputRange> r{{w_.shard, w_.offset, w_.nbytes}, {s_.shard, s_.offset, s_.nbytes}};
        if (b_) r.push_back({b_->shard, b_->offset, b_->nbytes});
        return r;
    }

    std::shared_ptr<const QuantGroups> quant_groups() const override {
        if (p_.mode == MlxMode::Mxfp8) return nullptr;
        return std::make_shared<MlxGroups>(p_, w_, s_, b_, wd_, sd_, bd_, rows_, in_);
    }

    void dequantize_rows(u64 row0, u64 nrows, float* out) const override {
        const u64 G = p_.group_size;
        std::vector<std::uint8_t> q(p_.mode == MlxMode::Affine ? in_ : 0);
        for (u64 r = row0; r < row0 + nrows; ++r) {
            const std::uint8_t* packed = wd_ + r * row_bytes_;
            float* y = out + (r - row0) * in_;
            const u64 s0 = r * groups_;
            switch (p_.mode) {
                case MlxMode::Affine:
                    mk::unpack_codes(p_.bits, packed, q.data(), in_);
                    for (u64 g = 0; g < groups_; ++g)
                        mk::affine_group(p_.scale_dtype, q.data() + g * G, load_float(sinfo_, sd_, s0 + g),
                                         load_float(sinfo_, bd_, s0 + g), y + g * G, G);
                    break;
                case MlxMode::Mxfp4:
                    for (u64 g = 0; g < groups_; ++g) mk::e2m1_group(packed + g * G / 2, mk::e8m0_scale(sd_[s0 + g]), y + g * G, G);
                    break;
                case MlxMode::Nvfp4:
                    for (u64 g = 0; g < groups_; ++g) mk::e2m1_group(packed + g * G / 2, mk::e4m3_value(sd_[s0 + g]), y + g * G, G);
                    break;
                case MlxMode::Mxfp8:
                    for (u64 g = 0; g < groups_; ++g) mk::e4m3_group(packed + g * G, mk::e8m0_scale(sd_[s0 + g]), y + g * G, G);
                    break;
            }
        }
    }

private:
    MlxParams p_;
    const TensorInfo& w_;
    const TensorInfo& s_;
    const TensorInfo* b_;
    const std::uint8_t* wd_;
    const std::uint8_t* sd_;
    const std::uint8_t* bd_;
    const DTypeInfo* sinfo_;
    u64 rows_, in_, row_bytes_, groups_;
};

std::optional<MlxMode> mode_of(std::string_view s) {
    for (auto m : {MlxMode::Affine, MlxMode::Mxfp4, MlxMode::Nvfp4, MlxMode::Mxfp8})
        if (s == mlx_mode_name(m)) return m;
    return std::nullopt;
}

// The default (group_size, bits) of a mode (mlx-lm utils.py l.845-850;
// mlx python/mlx/nn/layers/quantized.py l.11-24).
std::pair<u64, unsigned> mode_defaults(MlxMode m) {
    switch (m) {
        case MlxMode::Affine: return {64, 4};
        case MlxMode::Mxfp4: return {32, 4};
        case MlxMode::Nvfp4: return {16, 4};
        case MlxMode::Mxfp8: return {32, 8};
    }
    return {64, 4};
}

// The parameters config.json gives module `path` (an override, else the
// top level); nullopt with `why` set when they are unusable, nullopt with
// `why` empty when the module is marked `false`.
std::optional<MlxParams> module_params(const Catalog& cat, const std::string& path, std::string& why) {
    why.clear();
    if (auto v = cat.qconfig(path); v && *v == "false") return std::nullopt;
    const bool override = cat.qconfig(path + ".bits") || cat.qconfig(path + ".group_size") || cat.qconfig(path + ".mode");
    const std::string prefix = override ? path + "." : std::string();
    const std::string where = override ? "quantization." + path : std::string("quantization");
    MlxParams p;
    if (auto m = cat.qconfig(prefix + "mode"); m && *m != "null") {
        auto mm = mode_of(*m);
        if (!mm) {
            why = where + ".mode \"" + *m + "\" is not affine, mxfp4, nvfp4 or mxfp8";
            return std::nullopt;
        }
        p.mode = *mm;
    }
    auto [g, bits] = mode_defaults(p.mode);
    if (auto v = cat.qconfig(prefix + "group_size"); v && *v != "null") {
        auto n = parse_int(*v);
        if (!n || *n <= 0) {
            why = where + ".group_size \"" + *v + "\" is not a positive integer";
            return std::nullopt;
        }
        g = static_cast<u64>(*n);
    }
    if (auto v = cat.qconfig(prefix + "bits"); v && *v != "null") {
        auto n = parse_int(*v);
        if (!n || *n < 2 || *n > 8 || *n == 7) {
            why = where + ".bits \"" + *v + "\" is not one of MLX's code widths 2, 3, 4, 5, 6, 8";
            return std::nullopt;
        }
        bits = static_cast<unsigned>(*n);
    }
    p.group_size = g;
    p.bits = bits;
    const auto [fg, fbits] = mode_defaults(p.mode);
    if (p.mode != MlxMode::Affine && (p.group_size != fg || p.bits != fbits)) {
        why = where + ": mode " + std::string(mlx_mode_name(p.mode)) + " takes group_size " + std::to_string(fg) +
              " and bits " + std::to_string(fbits) + ", not " + std::to_string(p.group_size) + " and " + std::to_string(p.bits);
        return std::nullopt;
    }
    return p;
}

// The model is an MLX one: `format: mlx` in the safetensors metadata, or
// MLX's quantization object in config.json.
bool is_mlx_model(const Catalog& cat) {
    if (const MetaValue* f = cat.meta("format"); f && meta_text(*f) == "mlx") return true;
    return cat.config_json && cat.config_json->find("\"quantization\"") != std::string::npos && cat.qconfig("bits");
}

}  // namespace

void detect_mlx(PlanBuilder& b) {
    const auto& cat = b.catalog();
    if (cat.format != Format::Safetensors) return;
    if (auto m = cat.qconfig("quant_method"); m && !m->empty()) return;  // another library's config
    const bool mlx = is_mlx_model(cat);
    const bool configured = mlx && cat.qconfig("bits").has_value();
    for (std::size_t i = 0; i < cat.tensors.size(); ++i) {
        const auto& wt = cat.tensors[i];
        if (b.claimed(i) || wt.dtype != DType::U32 || !wt.name.ends_with(".weight")) continue;
        const std::string path = stem_of(wt.name, ".weight");
        const std::size_t sc = b.find_unclaimed(path + ".scales");
        if (sc == PlanBuilder::npos) continue;
        const std::size_t bi = b.find_unclaimed(path + ".biases");
        std::vector<std::size_t> comps{sc};
        if (bi != PlanBuilder::npos) comps.push_back(bi);
        auto fail = [&](const std::string& why, TensorErrorKind k = TensorErrorKind::BadCompanion) {
            b.add_error(i, wt.name, {k, "MLX", why}, comps);
        };
        if (!configured) {
            fail(path + " is stored quantized (U32 weight with scales) but config.json has no MLX \"quantization\" "
                 "object with its bits: the code width and group size are unknown", TensorErrorKind::ConfigConflict);
            continue;
        }
        std::string why;
        auto p = module_params(cat, path, why);
        if (!p) {
            fail(why.empty() ? "config.json quantization." + path + " is false (not quantized), but " + path +
                                   ".scales is stored"
                             : "config.json " + why, TensorErrorKind::ConfigConflict);
            continue;
        }
        const auto& st = cat.tensors[sc];
        const auto& ws = wt.shape;
        const auto& ss = st.shape;
        if (ws.size() < 2 || ss.size() != ws.size() || !std::equal(ws.begin(), ws.end() - 1, ss.begin())) {
            fail("weight " + shape_to_string(ws) + " and scales " + shape_to_string(ss) +
                 " are not [..., out, in·bits/32] and [..., out, in/group_size]", TensorErrorKind::ConfigConflict);
            continue;
        }
        const u64 words = ws.back(), groups = ss.back();
        const u64 in = groups * p->group_size;
        if (words == 0 || groups == 0 || words * 32 != in * p->bits) {
            fail("weight " + shape_to_string(ws) + " does not hold " + std::to_string(in) + " " + std::to_string(p->bits) +
                 "-bit codes per row (scales " + shape_to_string(ss) + " at group_size " + std::to_string(p->group_size) + ")", TensorErrorKind::ConfigConflict);
            continue;
        }
        if (p->mode == MlxMode::Affine) {
            if (!is_float_scale(st.dtype)) {
                fail("affine scales " + st.name + " must be BF16, F16 or F32, got " + st.dtype_name);
                continue;
            }
            if (bi == PlanBuilder::npos) {
                fail("affine mode needs " + path + ".biases beside " + st.name, TensorErrorKind::MissingCompanion);
                continue;
            }
            const auto& bt = cat.tensors[bi];
            if (bt.dtype != st.dtype || bt.shape != ss) {
                fail("biases " + bt.dtype_name + " " + shape_to_string(bt.shape) + " do not match scales " + st.dtype_name +
                     " " + shape_to_string(ss));
                continue;
            }
        } else {
            if (st.dtype != DType::U8) {
                fail(std::string(mlx_mode_name(p->mode)) + " scales " + st.name + " must be U8, got " + st.dtype_name);
                continue;
            }
            if (bi != PlanBuilder::npos) {
                fail(std::string(mlx_mode_name(p->mode)) + " mode has no biases, but " + path + ".biases is stored");
                continue;
            }
        }
        p->scale_dtype = st.dtype;
        u64 rows = 1;
        for (std::size_t d = 0; d + 1 < ws.size(); ++d) rows *= ws[d];
        LogicalTensor lt;
        lt.name = wt.name;
        lt.shape = ws;
        lt.shape.back() = in;
        b.add_quantized(std::move(lt), std::make_shared<MlxRecipe>(cat, i, sc, bi, *p, rows, in), i, comps);
    }
}

}  // namespace amn::detail
