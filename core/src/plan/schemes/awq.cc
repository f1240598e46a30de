// SPDX-License-Identifier: MIT OR Apache-2.0
// AWQ (AutoAWQ GEMM) weight dequantization.
//
// Stored per layer X (version "gemm", 4-bit):
//   X.qweight  I32 [in, out/8]      eight 4-bit fields per word along outputs
//   X.qzeros   I32 [groups, out/8]  zero points, packed the same way
//   X.scales   F16/BF16/F32 [groups, out]
// Inside a word the nibble at position p (bits 4p..4p+3) holds output column
// 8j + [0, 2, 4, 6, 1, 3, 5, 7][p] (AutoAWQ `pack`'s order_map), so column
// 8j + c is the nibble at position [0, 4, 1, 5, 2, 6, 3, 7][c] — what
// AutoAWQ `unpack_awq` + `reverse_awq_order` undo. No zero-point offset.
// Output X.weight [out, in]:
//   W[n, k] = (f32(q[k, n]) − f32(z[k / group, n])) × f32(s[k / group, n])
// as AutoAWQ `dequantize_gemm` in f32.
// GEMV / GEMV_fast / Marlin layouts and other bit widths are named errors.
#include "anamnesis/error.hpp"
#include "kernels/int/quant_kernels.hpp"
#include "facts.hpp"
#include "packed_layer.hpp"
#include "quant_common.hpp"
#include "scheme.hpp"

#include <algorithm>
#include <array>
#include <string>
#include <vector>

namespace amn::detail {
bool is_gptq_layout(const Catalog& cat, const std::string& stem);  // gptq.cc

namespace {
using namespace quant;
namespace qk = amn::kernels::quant;

/// Nibble position of output column 8j + c.
constexpr std::array<unsigned, 8> kAwqReverseOrder{0, 4, 1, 5, 2, 6, 3, 7};

struct AwqLayout {
    std::uint64_t in = 0, out = 0, groups = 0, group_size = 0, words_per_row = 0;
};

AffineParams params_of(const AwqLayout& l, DType scale_dtype) {
    AffineParams p;
    p.packing = AffinePacking::AwqGemm;
    p.bits = 4;
    p.group_size = l.group_size;
    p.groups = l.groups;
    p.channelwise = l.groups == 1 && l.group_size >= l.in;
    p.zero_points = ZeroPointForm::Stored;
    p.scale_dtype = scale_dtype;
    return p;
}

class AwqRecipe final : public QuantRecipe {
public:
    AwqRecipe(const Catalog& cat, std::size_t qw, std::size_t qz, std::size_t sc, AwqLayout l)
        : QuantRecipe(params_of(l, cat.tensors[sc].dtype)), qw_(cat.tensors[qw]), qz_(cat.tensors[qz]), sc_(cat.tensors[sc]),
          qwd_(cat.data(qw_)), qzd_(cat.data(qz_)), scd_(cat.data(sc_)), sinfo_(dtype_info(sc_.dtype)), l_(l) {}

    std::uint64_t rows() const override { return l_.out; }
    std::uint64_t row_elems() const override { return l_.in; }
    bool payload_is_row_major() const override { return false; }  // rows of qweight are input rows
    std::vector<InputRange> inputs() const override {
        return {{qw_.shard, qw_.offset, qw_.nbytes}, {qz_.shard, qz_.offset, qz_.nbytes},
                {sc_.shard, sc_.offset, sc_.nbytes}};
    }

    void dequantize_rows(std::uint64_t row0, std::uint64_t nrows, float* out) const override {
        // Tiles of 16 word columns (128 output rows, one cache line per
        // qweight row) × kK input rows, transposed so that each output row's
        // words are contiguous.
        constexpr std::uint64_t kJ = 16, kK = 512, kKp = kK + 8;  // padded stride: no L1 set conflicts
        const std::uint64_t Wr = l_.words_per_row, K = l_.in, gs = l_.group_size;
        std::vector<std::uint32_t> wt(kJ * kKp);
        std::vector<std::uint8_t> q(kK);
        const std::uint64_t end = row0 + nrows;
        for (std::uint64_t j0 = row0 / 8; j0 * 8 < end; j0 += kJ) {
            const std::uint64_t j1 = std::min(j0 + kJ, (end + 7) / 8);
            const std::uint64_t nj = j1 - j0;
            const std::uint64_t n_lo = std::max(row0, j0 * 8), n_hi = std::min(end, j1 * 8);
            for (std::uint64_t k0 = 0; k0 < K; k0 += kK) {
                const std::uint64_t kn = std::min(kK, K - k0);
                for (std::uint64_t k = 0; k < kn; ++k) {
                    const std::uint8_t* src = qwd_ + ((k0 + k) * Wr + j0) * 4;
                    for (std::uint64_t j = 0; j < nj; ++j) wt[j * kKp + k] = load_u32(src + j * 4);
                }
                for (std::uint64_t n = n_lo; n < n_hi; ++n) {
                    const unsigned shift = 4 * kAwqReverseOrder[n % 8];
                    qk::extract_field(wt.data() + (n / 8 - j0) * kKp, shift, 4, q.data(), kn);
                    float* y = out + (n - row0) * K + k0;
                    // Groups overlapping [k0, k0 + kn).
                    for (std::uint64_t g = k0 / gs; g * gs < k0 + kn; ++g) {
                        const std::uint64_t a = std::max(g * gs, k0), e = std::min((g + 1) * gs, k0 + kn);
                        const std::uint32_t zw = load_u32(qzd_ + (g * Wr + n / 8) * 4);
                        const float z = static_cast<float>((zw >> shift) & 0xFu);
                        const float s = load_float(sinfo_, scd_, g * l_.out + n);
                        qk::affine_const(q.data() + (a - k0), z, s, y + (a - k0), e - a);
                    }
                }
            }
        }
    }

private:
    const TensorInfo& qw_;
    const TensorInfo& qz_;
    const TensorInfo& sc_;
    const std::uint8_t* qwd_;
    const std::uint8_t* qzd_;
    const std::uint8_t* scd_;
    const DTypeInfo* sinfo_;
    AwqLayout l_;
};

}  // namespace

void detect_awq(PlanBuilder& b) {
    const auto& cat = b.catalog();
    const auto method = cat.qconfig("quant_method");
    if (method && !quant_method_is(*method, "awq") && !quant_method_is(*method, "gptq")) return;
    auto version = setting(cat, "version", {"awq_version"});
    if (!version) version = cat.qconfig("format");
    const auto cfg_bits = setting(cat, "bits", {"awq_bits", "w_bit"});
    const auto cfg_group = setting(cat, "group_size", {"awq_group_size", "q_group_size"});

    for (std::size_t i = 0; i < cat.tensors.size(); ++i) {
        const auto& qwt = cat.tensors[i];
        if (b.claimed(i) || !qwt.name.ends_with(".qweight")) continue;
        std::string stem = stem_of(qwt.name, ".qweight");
        if (is_gptq_layout(cat, stem)) continue;
        const PackedLayer layer = find_packed_layer(b, i, std::move(stem), false);
        const std::size_t qz = layer.qzeros, sc = layer.scales;
        const auto& comps = layer.companions;
        auto fail = [&](const std::string& why, TensorErrorKind k = TensorErrorKind::BadCompanion) {
            b.add_error(i, layer.out_name, {k, "AWQ", why}, comps);
        };

        if (version && ascii_lower(*version) != "gemm") {
            fail("version \"" + *version + "\" is not supported (only the GEMM layout)", TensorErrorKind::UnsupportedVariant);
            continue;
        }
        if (auto why = check_packed_layer(cat, layer)) {
            fail(*why);
            continue;
        }
        const auto& qzt = cat.tensors[qz];
        const auto& sct = cat.tensors[sc];
        AwqLayout l;
        l.in = qwt.shape[0];
        l.words_per_row = qwt.shape[1];
        l.groups = sct.shape[0];
        l.out = sct.shape[1];
        if (l.words_per_row * 32 % l.out != 0) {
            fail("qweight " + shape_to_string(qwt.shape) + " does not pack " + std::to_string(l.out) + " output columns");
            continue;
        }
        const std::uint64_t bits = l.words_per_row * 32 / l.out;
        if (bits != 4 || l.out % 8 != 0) {
            fail("qweight " + shape_to_string(qwt.shape) + " packs " + std::to_string(l.out) + " outputs at " +
                 std::to_string(bits) + " bits; only 4-bit GEMM is supported", TensorErrorKind::UnsupportedVariant);
            continue;
        }
        if (cfg_bits && parse_int(*cfg_bits) != std::optional<std::int64_t>(4)) {
            fail("the configuration says " + *cfg_bits + "-bit; only 4-bit GEMM is supported", TensorErrorKind::UnsupportedVariant);
            continue;
        }
        if (qzt.shape[0] != l.groups || qzt.shape[1] != l.words_per_row) {
            fail("qzeros " + shape_to_string(qzt.shape) + " does not match scales " + shape_to_string(sct.shape) + " (expected [" +
                 std::to_string(l.groups) + ", " + std::to_string(l.words_per_row) + "])");
            continue;
        }
        if (cfg_group) {
            const auto gs = config_group_size(*cfg_group, l.in);
            if (!gs) {
                fail(group_size_error(*cfg_group), TensorErrorKind::ConfigConflict);
                continue;
            }
            l.group_size = *gs;
        } else if (l.in % l.groups == 0) {
            l.group_size = l.in / l.groups;
        } else {
            fail("no group_size and " + std::to_string(l.in) + " input rows do not split into " +
                 std::to_string(l.groups) + " equal groups", TensorErrorKind::ConfigConflict);
            continue;
        }
        if (auto why = check_group_count(l.in, l.group_size, l.groups)) {
            fail(*why);
            continue;
        }
        LogicalTensor lt;
        lt.name = layer.out_name;
        lt.shape = {l.out, l.in};
        b.add_quantized(std::move(lt), std::make_shared<AwqRecipe>(cat, i, qz, sc, l), i, comps);
    }
}

}  // namespace amn::detail
