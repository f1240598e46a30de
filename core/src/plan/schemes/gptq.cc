// SPDX-License-Identifier: MIT OR Apache-2.0
// GPTQ (AutoGPTQ / GPTQModel) weight dequantization.
//
// Stored per layer X:
//   X.qweight  I32 [in·bits/32, out]  fields packed along the input dimension
//                                     (a little-endian bit stream per column;
//                                     3-bit fields straddle word boundaries)
//   X.qzeros   I32 [groups, out·bits/32]  zero points, packed along outputs
//   X.scales   F16/BF16/F32 [groups, out]
//   X.g_idx    I32 [in] (optional)    group of every input row (act-order)
// Output X.weight [out, in] (nn.Linear orientation):
//   W[n, k] = (f32(q[k, n]) − f32(z[g(k), n])) × f32(s[g(k), n])
// as GPTQModel `dequantize_weight` with f32 scales; g(k) = g_idx[k], or
// k / group_size without g_idx.
//
// Zero points: checkpoint_format "gptq" (v1, the default) stores z − 1.
// GPTQModel's v1→v2 conversion (`convert_gptq_v1_to_v2_format_module`) adds
// 0x55555555 / 0x11111111 / 0x01010101 to every packed int32 word for 2/4/8
// bits — a carry from a field at its maximum runs into the next field, which
// exactly undoes the borrow of its v2→v1 export — and for 3 bits shifts each
// decoded field by +1 modulo 8 (`_correct_gptq_v1_qzeros`, because 3-bit
// fields straddle words). We do the same. "gptq_v2" zero points are used as
// stored.
#include "anamnesis/error.hpp"
#include "kernels/int/quant_kernels.hpp"
#include "facts.hpp"
#include "packed_layer.hpp"
#include "quant_common.hpp"
#include "scheme.hpp"

#include <algorithm>
#include <string_view>
#include <string>
#include <vector>

namespace amn::detail {
namespace {
using namespace quant;
namespace qk = amn::kernels::quant;

struct GptqLayout {
    unsigned bits = 4;
    std::uint64_t in = 0, out = 0, groups = 0;
    std::uint64_t words_per_col = 0;   // qweight rows
    std::uint64_t zero_words = 0;      // qzeros columns
    std::uint64_t group_size = 0;      // 0 = unknown (only with g_idx)
    bool v2 = false;                   // zero points stored as is
    bool sequential = true;            // g(k) = k / group_size
    bool act_order = false;
    std::optional<bool> sym;
};

AffineParams params_of(const GptqLayout& l, DType scale_dtype) {
    AffineParams p;
    p.packing = AffinePacking::Gptq;
    p.bits = l.bits;
    p.group_size = l.group_size;
    p.groups = l.groups;
    p.channelwise = l.group_size != 0 && l.groups == 1 && l.group_size >= l.in;
    p.symmetric = l.sym;
    p.zero_points = l.v2 ? ZeroPointForm::Stored : ZeroPointForm::GptqV1;
    p.act_order = l.act_order;
    p.scale_dtype = scale_dtype;
    return p;
}

class GptqRecipe final : public QuantRecipe {
public:
    GptqRecipe(const Catalog& cat, std::size_t qw, std::size_t qz, std::size_t sc, GptqLayout l,
               std::vector<std::int32_t> g_idx)
        : QuantRecipe(params_of(l, cat.tensors[sc].dtype)), qw_(cat.tensors[qw]), qz_(cat.tensors[qz]), sc_(cat.tensors[sc]),
          qwd_(cat.data(qw_)), qzd_(cat.data(qz_)), scd_(cat.data(sc_)),
          sinfo_(dtype_info(sc_.dtype)), l_(l), g_idx_(std::move(g_idx)) {}

    std::uint64_t rows() const override { return l_.out; }
    std::uint64_t row_elems() const override { return l_.in; }
    bool payload_is_row_major() const override { return false; }  // packed across output rows
    std::vector<InputRange> inputs() const override {
        return {{qw_.shard, qw_.offset, qw_.nbytes}, {qz_.shard, qz_.offset, qz_.nbytes},
                {sc_.shard, sc_.offset, sc_.nbytes}};
    }

    void dequantize_rows(std::uint64_t row0, std::uint64_t nrows, float* out) const override {
        constexpr std::uint64_t kTile = 16;  // output rows per pass over qweight (one cache line of words)
        const std::uint64_t W = l_.words_per_col, K = l_.in, G = l_.groups;
        // Row stride of the transposed tile, padded off powers of two (16
        // stores 2^k bytes apart would all land in one L1 set).
        const std::uint64_t Wp = W + 8;
        std::vector<std::uint32_t> wt(kTile * Wp);
        std::vector<std::uint8_t> q(K);
        std::vector<float> zrow(G), srow(G);
        const std::uint64_t end = row0 + nrows;
        for (std::uint64_t n0 = row0; n0 < end; n0 += kTile) {
            const std::uint64_t nb = std::min(kTile, end - n0);
            // Transpose the tile's words: column n's stream becomes contiguous.
            for (std::uint64_t w = 0; w < W; ++w) {
                const std::uint8_t* src = qwd_ + (w * l_.out + n0) * 4;
                for (std::uint64_t j = 0; j < nb; ++j) wt[j * Wp + w] = load_u32(src + j * 4);
            }
            for (std::uint64_t j = 0; j < nb; ++j) {
                const std::uint64_t n = n0 + j;
                qk::unpack_bits(l_.bits, wt.data() + j * Wp, q.data(), K);
                for (std::uint64_t g = 0; g < G; ++g) {
                    zrow[g] = static_cast<float>(zero(g, n));
                    srow[g] = load_float(sinfo_, scd_, g * l_.out + n);
                }
                float* y = out + (n - row0) * K;
                if (l_.sequential) {
                    for (std::uint64_t g = 0; g < G; ++g) {
                        const std::uint64_t k0 = g * l_.group_size;
                        if (k0 >= K) break;
                        qk::affine_const(q.data() + k0, zrow[g], srow[g], y + k0, std::min(l_.group_size, K - k0));
                    }
                } else {
                    qk::affine_gather(q.data(), g_idx_.data(), zrow.data(), srow.data(), G, y, K);
                }
            }
        }
    }

private:
    // Zero point of group g, output column n, after the v1 correction.
    unsigned zero(std::uint64_t g, std::uint64_t n) const {
        const unsigned bits = l_.bits;
        const std::uint32_t mask = (1u << bits) - 1u;
        const std::uint8_t* row = qzd_ + g * l_.zero_words * 4;
        if (bits == 3) {
            const std::uint64_t bit = n * 3;
            const std::uint64_t w = bit / 32;
            const unsigned s = static_cast<unsigned>(bit % 32);
            std::uint32_t v = load_u32(row + w * 4) >> s;
            if (s > 29) v |= load_u32(row + (w + 1) * 4) << (32 - s);
            unsigned z = v & mask;
            if (!l_.v2) z = (z + 1) & mask;  // GPTQModel: logical +1 for 3-bit
            return z;
        }
        const unsigned per = 32 / bits;
        std::uint32_t word = load_u32(row + (n / per) * 4);
        if (!l_.v2) {
            // GPTQModel: add 1 to every field of the packed word at once (int32 wrap-around).
            const std::uint32_t ones = bits == 2 ? 0x55555555u : bits == 4 ? 0x11111111u : 0x01010101u;
            word += ones;
        }
        return (word >> (bits * (n % per))) & mask;
    }

    const TensorInfo& qw_;
    const TensorInfo& qz_;
    const TensorInfo& sc_;
    const std::uint8_t* qwd_;
    const std::uint8_t* qzd_;
    const std::uint8_t* scd_;
    const DTypeInfo* sinfo_;
    GptqLayout l_;
    std::vector<std::int32_t> g_idx_;  // act-order only
};

bool is_gptq_method(const std::optional<std::string>& m) {
    if (!m) return true;  // nothing says otherwise: names and shapes decide
    return quant_method_is(*m, "gptq");
}

}  // namespace

}  // namespace amn::detail

namespace amn {

namespace {

// compressed-tensors' words for the scale grid of an AffineParams.
std::string ct_grid_words(const AffineParams& p) {
    if (p.per_tensor) return "per-tensor";
    if (p.channelwise) return "per-channel";
    return "group " + std::to_string(p.group_size);
}
std::string ct_grid_id(const AffineParams& p) {
    if (p.per_tensor) return "tensor";
    if (p.channelwise) return "channel";
    return "g" + std::to_string(p.group_size);
}
std::string_view ct_format(AffinePacking p) {
    switch (p) {
        case AffinePacking::CtPackQuantized: return "pack-quantized";
        case AffinePacking::CtIntQuantized: return "int-quantized";
        case AffinePacking::CtNaiveQuantized: return "naive-quantized";
        default: return "";
    }
}

}  // namespace

std::string AffineParams::id() const {
    if (is_compressed_tensors(packing)) {
        const char* prefix = packing == AffinePacking::CtPackQuantized ? "ct-pack-"
                           : packing == AffinePacking::CtNaiveQuantized ? "ct-naive-" : "ct-int-";
        return prefix + ("int" + std::to_string(bits)) + "-" + ct_grid_id(*this) +
               (zero_points != ZeroPointForm::None ? "-asym" : "") + (act_order ? "-actorder" : "");
    }
    if (packing == AffinePacking::AwqGemm) return "awq-gemm-" + std::to_string(bits) + "bit-g" + std::to_string(group_size);
    std::string s = "gptq-" + std::to_string(bits) + "bit-g" + (group_size ? std::to_string(group_size) : std::string("x"));
    if (act_order) s += "-actorder";
    if (zero_points == ZeroPointForm::Stored) s += "-v2";
    return s;
}

std::string AffineParams::describe() const {
    const std::string scales = ", " + dtype_name(scale_dtype) + " scales";
    if (is_compressed_tensors(packing)) {
        return "compressed-tensors W" + std::to_string(bits) + "A" + std::to_string(activation_bits) + " (" +
               std::string(ct_format(packing)) + "), int" + std::to_string(bits) +
               (zero_points != ZeroPointForm::None ? " asymmetric" : " symmetric") + ", " + ct_grid_words(*this) +
               (act_order ? ", act-order" : "") + scales;
    }
    if (packing == AffinePacking::AwqGemm) {
        std::string s = "AWQ GEMM " + std::to_string(bits) + "-bit, ";
        s += channelwise ? "per-channel (no groups)" : "group " + std::to_string(group_size);
        return s + ", zero points" + scales;
    }
    std::string s = "GPTQ " + std::to_string(bits) + "-bit";
    if (group_size == 0) s += ", " + std::to_string(groups) + " groups";
    else if (channelwise) s += ", per-channel (no groups)";
    else s += ", group " + std::to_string(group_size);
    if (act_order) s += ", act-order";
    if (symmetric) s += *symmetric ? ", symmetric" : ", asymmetric";
    s += zero_points == ZeroPointForm::Stored ? ", gptq_v2 zero points" : "";
    return s + scales;
}

}  // namespace amn

namespace amn::detail {

// Does the qweight set of `stem` belong to GPTQ (vs AWQ)? The layout decides:
// GPTQ packs along inputs (qweight columns = outputs = scales columns), AWQ
// along outputs (fewer qweight columns than scales). quant_method "awq"
// leaves every set to the AWQ detector.
bool is_gptq_layout(const Catalog& cat, const std::string& stem) {
    const auto method = cat.qconfig("quant_method");
    if (method && quant_method_is(*method, "awq")) return false;
    if (method && !is_gptq_method(method)) return false;
    const auto qw = cat.find(stem + ".qweight");
    const auto sc = cat.find(stem + ".scales");
    if (method) return true;  // gptq: claim it, errors included
    if (cat.find(stem + ".g_idx")) return true;
    if (!qw || !sc) return true;  // incomplete: reported by the GPTQ detector
    const auto& a = cat.tensors[*qw].shape;
    const auto& b = cat.tensors[*sc].shape;
    if (a.size() != 2 || b.size() != 2) return true;
    return !(a[1] < b[1]);
}

void detect_gptq(PlanBuilder& b) {
    const auto& cat = b.catalog();
    const auto method = cat.qconfig("quant_method");
    if (method && !is_gptq_method(method)) return;

    const auto cfg_bits = setting(cat, "bits", {"gptq_bits", "bits"});
    const auto cfg_group = setting(cat, "group_size", {"gptq_group_size", "group_size"});
    const auto cfg_sym = setting(cat, "sym", {"gptq_sym", "sym"});
    auto cfg_format = setting(cat, "checkpoint_format", {"gptq_checkpoint_format", "checkpoint_format"});
    if (!cfg_format) cfg_format = cat.qconfig("format");
    const bool dynamic = has_dynamic_overrides(cat);

    for (std::size_t i = 0; i < cat.tensors.size(); ++i) {
        const auto& qwt = cat.tensors[i];
        if (b.claimed(i) || !qwt.name.ends_with(".qweight")) continue;
        std::string stem = stem_of(qwt.name, ".qweight");
        if (!is_gptq_layout(cat, stem)) continue;
        const PackedLayer layer = find_packed_layer(b, i, std::move(stem), true);
        const std::size_t qz = layer.qzeros, sc = layer.scales, gi = layer.g_idx;
        const auto& comps = layer.companions;
        auto fail = [&](const std::string& why, TensorErrorKind k = TensorErrorKind::BadCompanion) {
            b.add_error(i, layer.out_name, {k, "GPTQ", why}, comps);
        };

        if (cfg_format) {
            const std::string f = ascii_lower(*cfg_format);
            if (f != "gptq" && f != "gptq_v2") {
                fail("checkpoint_format \"" + *cfg_format + "\" is not supported (only \"gptq\" and \"gptq_v2\")", TensorErrorKind::UnsupportedVariant);
                continue;
            }
        }
        if (auto why = check_packed_layer(cat, layer)) {
            fail(*why);
            continue;
        }
        const auto& qzt = cat.tensors[qz];
        const auto& sct = cat.tensors[sc];
        GptqLayout l;
        l.out = sct.shape[1];
        l.groups = sct.shape[0];
        l.words_per_col = qwt.shape[0];
        l.zero_words = qzt.shape[1];
        if (qwt.shape[1] != l.out) {
            fail("qweight " + shape_to_string(qwt.shape) + " and scales " + shape_to_string(sct.shape) + " disagree on output features");
            continue;
        }
        if (qzt.shape[0] != l.groups) {
            fail("qzeros " + shape_to_string(qzt.shape) + " and scales " + shape_to_string(sct.shape) + " disagree on the group count");
            continue;
        }
        // Bit width from the zero-point packing: out · bits = 32 · qzeros columns.
        // Every width is tried alike; the shapes admit exactly one.
        unsigned bits = 0;
        for (unsigned cand : {2u, 3u, 4u, 8u})
            if (l.out * cand == 32 * l.zero_words) bits = cand;
        if (bits == 0) {
            fail("qzeros " + shape_to_string(qzt.shape) + " does not pack " + std::to_string(l.out) +
                 " zero points at 2, 3, 4 or 8 bits");
            continue;
        }
        l.bits = bits;
        if ((l.words_per_col * 32) % bits != 0 || (bits == 3 && l.words_per_col % 3 != 0)) {
            fail("qweight rows " + std::to_string(l.words_per_col) + " do not hold whole " + std::to_string(bits) + "-bit fields");
            continue;
        }
        l.in = l.words_per_col * 32 / bits;
        if (cfg_bits) {
            const auto cb = parse_int(*cfg_bits);
            if (!cb) {
                fail("bits \"" + *cfg_bits + "\" in the configuration is not a number", TensorErrorKind::ConfigConflict);
                continue;
            }
            if (*cb != static_cast<std::int64_t>(bits) && !dynamic) {
                fail("the configuration says " + *cfg_bits + "-bit but the tensor shapes say " + std::to_string(bits) +
                     "-bit (qweight " + shape_to_string(qwt.shape) + ", qzeros " + shape_to_string(qzt.shape) + ")", TensorErrorKind::ConfigConflict);
                continue;
            }
        }
        // Group size: configured (−1 = one group), else in / groups when exact.
        std::optional<std::uint64_t> gs_cfg;
        if (cfg_group) {
            gs_cfg = config_group_size(*cfg_group, l.in);
            if (!gs_cfg) {
                fail(group_size_error(*cfg_group), TensorErrorKind::ConfigConflict);
                continue;
            }
        }
        if (gs_cfg) l.group_size = *gs_cfg;
        else if (l.in % l.groups == 0) l.group_size = l.in / l.groups;
        if (cfg_sym) l.sym = parse_bool(*cfg_sym);
        l.v2 = cfg_format && ascii_lower(*cfg_format) == "gptq_v2";

        std::vector<std::int32_t> g_idx;
        if (gi != PlanBuilder::npos) {
            const auto& git = cat.tensors[gi];
            if ((git.dtype != DType::I32 && git.dtype != DType::I64) || git.shape.size() != 1 || git.shape[0] != l.in) {
                fail("g_idx must be an I32 tensor of shape [" + std::to_string(l.in) + "], got " + git.dtype_name + " " +
                     shape_to_string(git.shape));
                continue;
            }
            g_idx.resize(l.in);
            const std::uint8_t* p = cat.data(git);
            bool bad = false;
            for (std::uint64_t k = 0; k < l.in && !bad; ++k) {
                std::int64_t v;
                if (git.dtype == DType::I32) {
                    std::int32_t x;
                    std::memcpy(&x, p + k * 4, 4);
                    v = x;
                } else {
                    std::memcpy(&v, p + k * 8, 8);
                }
                if (v < 0 || static_cast<std::uint64_t>(v) >= l.groups) {
                    fail("g_idx[" + std::to_string(k) + "] = " + std::to_string(v) + " is out of range (" +
                         std::to_string(l.groups) + " groups)");
                    bad = true;
                }
                g_idx[k] = static_cast<std::int32_t>(v);
            }
            if (bad) continue;
            auto sequential_with = [&](std::uint64_t gs) {
                if (gs == 0) return false;
                for (std::uint64_t k = 0; k < l.in; ++k)
                    if (static_cast<std::uint64_t>(g_idx[k]) != k / gs) return false;
                return true;
            };
            l.sequential = sequential_with(l.group_size);
            if (!l.sequential && l.in % l.groups == 0 && sequential_with(l.in / l.groups)) {
                l.group_size = l.in / l.groups;  // a per-module override (GPTQModel `dynamic`)
                l.sequential = true;
            }
            l.act_order = !l.sequential;  // what the data does, whatever desc_act says
        } else {
            if (l.group_size == 0) {
                fail("no g_idx and no group_size: cannot map " + std::to_string(l.in) + " input rows onto " +
                     std::to_string(l.groups) + " groups", TensorErrorKind::MissingCompanion);
                continue;
            }
            l.act_order = false;
        }
        if (l.sequential) {
            if (auto why = check_group_count(l.in, l.group_size, l.groups)) {
                fail(*why);
                continue;
            }
        }
        if (l.sequential) g_idx.clear();

        LogicalTensor lt;
        lt.name = layer.out_name;
        lt.shape = {l.out, l.in};
        b.add_quantized(std::move(lt), std::make_shared<GptqRecipe>(cat, i, qz, sc, l, std::move(g_idx)), i, comps);
    }
}

}  // namespace amn::detail
