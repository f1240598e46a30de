// SPDX-License-Identifier: MIT OR Apache-2.0
// MXFP4 safetensors (gpt-oss; `quant_method: "mxfp4"`).
//
// Stored per tensor X:
//   X_blocks  U8 [E, rows, in/32, 16]  FP4 E2M1 pairs: byte j of a block
//                                      holds element 2j (low nibble) and
//                                      2j+1 (high nibble); code 8 = −0.0
//   X_scales  U8 [E, rows, in/32]      E8M0: factor 2^(e − 127), exact
//                                      (e = 0 is the subnormal 2^−127,
//                                      255 gives 2^128 = inf)
// value = e2m1(code) × 2^(e − 127) (gpt-oss `Checkpoint._get_mxfp4_tensor`,
// transformers `convert_moe_packed_tensors`). Output X (the name without
// `_blocks`) in transformers' layout: the [E, rows, in] result transposed
// to [E, in, rows] (`gate_up_proj` [E, hidden, 2·I] with gate/up columns
// interleaved as stored, `down_proj` [E, I, hidden]). A 3-D [rows, in/32, 16]
// tensor (no expert dimension) becomes [rows, in] as stored.
// Biases and the router are plain BF16 and pass through.
#include "anamnesis/error.hpp"
#include "kernels/fp4/fp4_kernels.hpp"
#include "facts.hpp"
#include "quant_common.hpp"
#include "scheme.hpp"

#include <algorithm>
#include <string>
#include <vector>

namespace amn::detail {
namespace {
using namespace quant;
namespace f4 = amn::kernels::fp4;
using u64 = std::uint64_t;


class Mxfp4Recipe final : public QuantRecipe {
public:
    // experts = 0: a 3-D tensor, rows × in, no transpose.
    Mxfp4Recipe(const Catalog& cat, std::size_t blocks, std::size_t scales, u64 experts, u64 rows, u64 groups)
        : QuantRecipe(gpt_oss_mxfp4_params(experts != 0)), b_(cat.tensors[blocks]), s_(cat.tensors[scales]), bd_(cat.data(b_)),
          sd_(cat.data(s_)), experts_(experts), rows_(rows), groups_(groups) {}

    std::uint64_t rows() const override { return experts_ ? experts_ * groups_ * 32 : rows_; }
    std::uint64_t row_elems() const override { return experts_ ? rows_ : groups_ * 32; }
    bool payload_is_row_major() const override { return experts_ == 0; }
    std::vector<InputRange> inputs() const override {
        return {{b_.shard, b_.offset, b_.nbytes}, {s_.shard, s_.offset, s_.nbytes}};
    }

    void dequantize_rows(std::uint64_t row0, std::uint64_t nrows, float* out) const override {
        const u64 G = groups_, R = rows_;
        if (!experts_) {
            std::vector<float> sc(G);
            for (u64 r = row0; r < row0 + nrows; ++r) {
                for (u64 g = 0; g < G; ++g) sc[g] = f4::e8m0_value(sd_[r * G + g]);
                f4::e2m1_groups(bd_ + r * G * 16, sc.data(), 16, true, DType::F32, out + (r - row0) * G * 32, G);
            }
            return;
        }
        // Output row o = (e, k) holds column k of expert e's [rows, in]
        // matrix. Walk one 32-block of k at a time: each stored row's block
        // is read once (16 bytes), its values scattered down the columns.
        const u64 K = G * 32, end = row0 + nrows;
        float v[32];
        for (u64 o = row0; o < end;) {
            const u64 e = o / K, k = o % K, kb = k / 32;
            const u64 kend = std::min({(kb + 1) * 32, K, k + (end - o)});
            for (u64 r = 0; r < R; ++r) {
                const u64 bi = (e * R + r) * G + kb;
                const float s = f4::e8m0_value(sd_[bi]);
                f4::e2m1_groups(bd_ + bi * 16, &s, 16, true, DType::F32, v, 1);
                for (u64 kk = k; kk < kend; ++kk) out[(o - row0 + (kk - k)) * R + r] = v[kk - kb * 32];
            }
            o += kend - k;
        }
    }

private:
    const TensorInfo& b_;
    const TensorInfo& s_;
    const std::uint8_t* bd_;
    const std::uint8_t* sd_;
    u64 experts_, rows_, groups_;
};

}  // namespace

}  // namespace amn::detail

namespace amn {

// Fp4Params (quant_params.hpp) of every producer: gpt-oss MXFP4 here,
// compressed-tensors and ModelOpt NVFP4 in their own files.
std::string Fp4Params::id() const {
    switch (producer) {
        case Fp4Producer::CompressedTensors: return format == Fp4Format::Mxfp4 ? "ct-mxfp4" : "ct-nvfp4";
        case Fp4Producer::ModelOpt: return format == Fp4Format::Mxfp4 ? "modelopt-mxfp4" : "modelopt-nvfp4";
        case Fp4Producer::GptOss: break;
    }
    return layout == Fp4Layout::BlocksExperts ? "mxfp4-experts" : "mxfp4";
}

std::string Fp4Params::describe() const {
    const std::string fmt = format == Fp4Format::Mxfp4 ? "MXFP4" : "NVFP4";
    const std::string scale = std::string(scale_dtype == DType::F8_E8M0 ? "E8M0" : "E4M3");
    const std::string blocks = "E2M1 with an " + scale + " scale per " + std::to_string(block_size);
    switch (producer) {
        case Fp4Producer::CompressedTensors:
            return "compressed-tensors " + fmt + " W4A" + std::to_string(activation_bits) + " (" +
                   (format == Fp4Format::Mxfp4 ? "mxfp4" : "nvfp4") + "-pack-quantized), " + blocks +
                   (global_scale == Fp4GlobalScale::None ? std::string() : ", " + dtype_name(global_dtype) + " global scale");
        case Fp4Producer::ModelOpt:
            return "ModelOpt " + fmt + ", " + blocks +
                   (global_scale == Fp4GlobalScale::None ? std::string()
                                                         : std::string(global_dtype == DType::BF16 ? " and a " : " and an ") +
                                                               dtype_name(global_dtype) + " second-level scale");
        case Fp4Producer::GptOss: break;
    }
    return layout == Fp4Layout::BlocksExperts ? fmt + " (gpt-oss experts), " + blocks + ", transformers' [E, in, out] layout"
                                              : fmt + ", " + blocks;
}

}  // namespace amn

namespace amn::detail {

Fp4Params gpt_oss_mxfp4_params(bool experts) {
    Fp4Params p;
    p.format = Fp4Format::Mxfp4;
    p.producer = Fp4Producer::GptOss;
    p.block_size = 32;
    p.scale_dtype = DType::F8_E8M0;
    p.global_scale = Fp4GlobalScale::None;
    p.negative_zero = true;
    p.layout = experts ? Fp4Layout::BlocksExperts : Fp4Layout::Blocks;
    return p;
}

void detect_mxfp4(PlanBuilder& b) {
    const auto& cat = b.catalog();
    const auto method = cat.qconfig("quant_method");
    if (method && !quant_method_is(*method, "mxfp4")) return;  // no config: the *_blocks/*_scales pairs decide
    for (std::size_t i = 0; i < cat.tensors.size(); ++i) {
        const auto& bt = cat.tensors[i];
        if (b.claimed(i) || !bt.name.ends_with("_blocks")) continue;
        const std::string stem = stem_of(bt.name, "_blocks");
        const std::size_t sc = b.find_unclaimed(stem + "_scales");
        if (sc == PlanBuilder::npos) {
            if (method) b.add_error(i, stem, {TensorErrorKind::MissingCompanion, "MXFP4", bt.name + " without " + stem + "_scales"});
            continue;
        }
        const auto& st = cat.tensors[sc];
        auto fail = [&](const std::string& why, TensorErrorKind k = TensorErrorKind::BadCompanion) {
            b.add_error(i, stem, {k, "MXFP4", why}, {sc});
        };
        if (bt.dtype != DType::U8 || st.dtype != DType::U8) {
            if (method) fail(bt.name + " and " + st.name + " must be U8, got " + bt.dtype_name + " and " + st.dtype_name);
            continue;
        }
        const auto& bs = bt.shape;
        const bool layout_ok = (bs.size() == 3 || bs.size() == 4) && bs.back() == 16 &&
                               st.shape == std::vector<std::uint64_t>(bs.begin(), bs.end() - 1);
        if (!method && !layout_ok) continue;  // without a config only the exact layout is MXFP4
        if ((bs.size() != 3 && bs.size() != 4) || bs.back() != 16) {
            fail(bt.name + " " + shape_to_string(bs) + " is not [E, rows, in/32, 16] or [rows, in/32, 16]");
            continue;
        }
        if (st.shape != std::vector<std::uint64_t>(bs.begin(), bs.end() - 1)) {
            fail("scales " + shape_to_string(st.shape) + " do not match blocks " + shape_to_string(bs) + " (one E8M0 byte per 32 values)");
            continue;
        }
        if (bt.numel() == 0) {
            fail(bt.name + " " + shape_to_string(bs) + " is empty");
            continue;
        }
        const bool experts = bs.size() == 4;
        const u64 E = experts ? bs[0] : 0, R = bs[bs.size() - 3], G = bs[bs.size() - 2];
        LogicalTensor lt;
        lt.name = stem;
        lt.shape = experts ? std::vector<std::uint64_t>{E, G * 32, R} : std::vector<std::uint64_t>{R, G * 32};
        b.add_quantized(std::move(lt), std::make_shared<Mxfp4Recipe>(cat, i, sc, E, R, G), i, {sc});
    }
}

}  // namespace amn::detail
