// SPDX-License-Identifier: MIT OR Apache-2.0
#include "anamnesis/round_trip_estimate.hpp"

#include "anamnesis/error.hpp"
#include "anamnesis/kernels.hpp"
#include "kernels/mlx/mlx_kernels.hpp"
#include "kernels/gguf/gguf_quantize.hpp"
#include "kernels/int/quant_kernels.hpp"
#include "jobs/round_trip_estimate_internal.hpp"
#include "kernels/common/loss_sums.hpp"
#include "exec/row_pass.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <tuple>
#include <utility>
#include <variant>
#include <vector>

namespace amn {

namespace {

using Gran = Fp8Granularity;

using kernels::quant::kFp4, kernels::quant::kNf4;  // bitsandbytes codebooks (quant_kernels.hpp)

struct Fp8Format { int mbits, emin; float max; const char* name; };
Fp8Format fp8_format(DType d) {
    switch (d) {
        case DType::F8_E4M3: return {3, -6, 448.0f, "E4M3"};
        case DType::F8_E5M2: return {2, -14, 57344.0f, "E5M2"};
        case DType::F8_E4M3FNUZ: return {3, -7, 240.0f, "E4M3FNUZ"};
        case DType::F8_E5M2FNUZ: return {2, -15, 57344.0f, "E5M2FNUZ"};
        default: throw Error(ErrorCode::Usage, "not an FP8 dtype: " + dtype_name(d));
    }
}

std::string fmt_num(float v) {
    std::string s = std::to_string(v);
    while (!s.empty() && s.back() == '0') s.pop_back();
    if (!s.empty() && s.back() == '.') s.pop_back();
    return s;
}

/// The FP8 tile of Block granularity; a Group is a 1 × group_size block.
std::pair<std::uint64_t, std::uint64_t> fp8_block(const Fp8Params& p) {
    if (p.granularity == Gran::Group) return {1, p.group_size};
    return {p.block_rows, p.block_cols};
}

// Per-group ranges after pass 1: |x| max (kMinMax false) or min, max.
struct GroupParams {
    std::vector<float> amax, lo, hi;
};

using detail::for_each_row_chunk;

float nearest_code(const std::array<float, 16>& code, float v) {
    float best = code[0];
    float bd = std::abs(v - code[0]);
    for (std::size_t i = 1; i < code.size(); ++i) {
        const float d = std::abs(v - code[i]);
        if (d < bd) { bd = d; best = code[i]; }
    }
    return best;
}

// One RTN re-quantizer per scheme over an R × C view: count() groups, of(r, c)
// the group of element (r, c), kMinMax whether pass 1 collects min/max
// (else absmax), and (g, x, ranges) the value x of group g re-quantized and
// dequantized again. The constructors check the geometry (Error{Usage}).

struct Fp8Rtn {
    static constexpr bool kMinMax = false;
    DType format;
    Gran gran;
    std::uint64_t R, experts, rows_per_expert = 1, block_rows = 0, block_cols = 0, grid_r = 1, grid_c = 1;
    Fp8Format f8{3, -6, 448.0f, "E4M3"};

    Fp8Rtn(const Fp8Params& p, std::uint64_t nexperts, std::uint64_t rows, std::uint64_t cols)
        : format(p.format), gran(p.granularity), R(rows), experts(nexperts) {
        if (experts == 0 || R % experts != 0) throw Error(ErrorCode::Usage, "experts do not divide the rows");
        rows_per_expert = R / experts;
        if (gran == Gran::Block || gran == Gran::Group) {
            std::tie(block_rows, block_cols) = fp8_block(p);
            if (block_rows == 0 || block_cols == 0) throw Error(ErrorCode::Usage, "FP8 block size 0");
            grid_r = (rows_per_expert + block_rows - 1) / block_rows;
            grid_c = (cols + block_cols - 1) / block_cols;
        }
        f8 = fp8_format(format);
    }
    std::uint64_t count() const {
        switch (gran) {
            case Gran::Tensor: return 1;
            case Gran::Channel: return R;
            case Gran::Expert: return experts;
            case Gran::Block:
            case Gran::Group: return experts * grid_r * grid_c;
        }
        return 1;
    }
    std::uint64_t of(std::uint64_t r, std::uint64_t c) const {
        switch (gran) {
            case Gran::Tensor: return 0;
            case Gran::Channel: return r;
            case Gran::Expert: return r / rows_per_expert;
            case Gran::Block:
            case Gran::Group: {
                const std::uint64_t b = r / rows_per_expert, rr = r % rows_per_expert;
                return (b * grid_r + rr / block_rows) * grid_c + c / block_cols;
            }
        }
        return 0;
    }
    float operator()(std::uint64_t g, float x, const GroupParams& p) const {
        const float scale = p.amax[g] / f8.max;
        if (scale == 0.0f) return 0.0f * x;
        return fp8_round(format, x / scale) * scale;
    }
};

struct Bnb4Rtn {
    static constexpr bool kMinMax = false;
    const std::array<float, 16>& code;
    std::uint64_t R, C, blocksize;

    Bnb4Rtn(const Bnb4Params& p, std::uint64_t rows, std::uint64_t cols)
        : code(p.type == Bnb4Type::Fp4 ? kFp4 : kNf4), R(rows), C(cols), blocksize(p.blocksize) {
        if (blocksize == 0) throw Error(ErrorCode::Usage, "bitsandbytes blocksize 0");
    }
    std::uint64_t count() const { return (R * C + blocksize - 1) / blocksize; }
    std::uint64_t of(std::uint64_t r, std::uint64_t c) const { return (r * C + c) / blocksize; }
    float operator()(std::uint64_t g, float x, const GroupParams& p) const {
        const float a = p.amax[g];
        if (a == 0.0f) return 0.0f;
        const float n = x * (1.0f / a);
        return nearest_code(code, n) * a;
    }
};

struct Int8Rtn {
    static constexpr bool kMinMax = false;
    std::uint64_t R;
    std::uint64_t count() const { return R; }
    std::uint64_t of(std::uint64_t r, std::uint64_t) const { return r; }
    float operator()(std::uint64_t g, float x, const GroupParams& p) const {
        const float a = p.amax[g];
        if (a == 0.0f) return 0.0f;
        const float q = std::round(x * (127.0f / a));
        return (q * a) * kernels::quant::kInt8Inv127;
    }
};

struct AffineRtn {
    static constexpr bool kMinMax = true;
    std::uint64_t R, group_size, ngroups_row;
    bool include_zero, symmetric;
    float maxq;

    AffineRtn(const AffineParams& p, std::uint64_t rows, std::uint64_t cols)
        : R(rows), group_size(p.group_size), include_zero(round_trip_includes_zero(p)), symmetric(round_trip_symmetric(p)) {
        if (group_size == 0) throw Error(ErrorCode::Usage, "group size 0");
        if (p.bits < 2 || p.bits > 8) throw Error(ErrorCode::Usage, "bits must be 2..8");
        ngroups_row = (cols + group_size - 1) / group_size;
        maxq = static_cast<float>((1u << p.bits) - 1);
    }
    std::uint64_t count() const { return R * ngroups_row; }
    std::uint64_t of(std::uint64_t r, std::uint64_t c) const { return r * ngroups_row + c / group_size; }
    float operator()(std::uint64_t g, float x, const GroupParams& p) const {
        float lo = p.lo[g], hi = p.hi[g], scale, zero;
        if (include_zero) {
            lo = std::min(lo, 0.0f);
            hi = std::max(hi, 0.0f);
            if (symmetric) {
                hi = std::max(std::abs(lo), hi);
                if (lo < 0) lo = -hi;
            }
            if (lo == 0.0f && hi == 0.0f) { lo = -1.0f; hi = 1.0f; }
            scale = (hi - lo) / maxq;
            zero = symmetric ? (maxq + 1.0f) / 2.0f : std::nearbyint(-lo / scale);
        } else {
            scale = std::max(hi - lo, 1e-5f) / maxq;
            zero = std::clamp(-std::nearbyint(lo / scale), 0.0f, maxq);
        }
        const float q = std::clamp(std::nearbyint(x / scale) + zero, 0.0f, maxq);
        return scale * (q - zero);
    }
};

// MLX affine: mlx's own quantizer (kernels/mlx), the codes dequantized as
// mx.dequantize does, in the scales' dtype.
struct MlxAffineRtn {
    static constexpr bool kMinMax = true;
    std::uint64_t R, group_size, ngroups_row;
    unsigned bits;
    DType dtype;

    MlxAffineRtn(const MlxParams& p, std::uint64_t rows, std::uint64_t cols)
        : R(rows), group_size(p.group_size), bits(p.bits), dtype(p.scale_dtype) {
        if (p.mode != MlxMode::Affine) throw Error(ErrorCode::Usage, "not measurable yet for " + p.id());
        if (group_size == 0 || cols % group_size != 0) throw Error(ErrorCode::Usage, "MLX group size does not divide the row");
        ngroups_row = cols / group_size;
    }
    std::uint64_t count() const { return R * ngroups_row; }
    std::uint64_t of(std::uint64_t r, std::uint64_t c) const { return r * ngroups_row + c / group_size; }
    float operator()(std::uint64_t g, float x, const GroupParams& p) const {
        const auto a = kernels::mlx::affine_group_params(p.lo[g], p.hi[g], bits, dtype);
        const std::uint8_t q = kernels::mlx::affine_code(x, a, bits);
        float y;
        kernels::mlx::affine_group(dtype, &q, a.stored_scale, a.stored_bias, &y, 1);
        return y;
    }
};

// The two passes of measure_round_trip with re-quantizer `q`.
template <class Rtn>
RoundTripError measure_rtn(const Recipe& r, const Rtn& q, std::string estimator, const ProgressFn& progress,
                         const std::atomic<bool>* cancel, std::uint64_t chunk_elems) {
    const std::uint64_t C = r.row_elems();
    const std::uint64_t ng = q.count();
    GroupParams p;
    if constexpr (Rtn::kMinMax) {
        p.lo.assign(ng, std::numeric_limits<float>::infinity());
        p.hi.assign(ng, -std::numeric_limits<float>::infinity());
    } else {
        p.amax.assign(ng, 0.0f);
    }
    const std::uint64_t total = 2 * r.rows();
    std::vector<float> buf;
    for_each_row_chunk(r, chunk_elems, buf, cancel, "measurement cancelled", progress, 0, total, [&](std::uint64_t r0, std::uint64_t n, const float* v) {
        for (std::uint64_t i = 0; i < n; ++i)
            for (std::uint64_t c = 0; c < C; ++c) {
                const float x = v[i * C + c];
                if (!std::isfinite(x)) continue;
                const std::uint64_t g = q.of(r0 + i, c);
                if constexpr (Rtn::kMinMax) {
                    p.lo[g] = std::min(p.lo[g], x);
                    p.hi[g] = std::max(p.hi[g], x);
                } else {
                    p.amax[g] = std::max(p.amax[g], std::abs(x));
                }
            }
    });
    if constexpr (Rtn::kMinMax)
        for (std::uint64_t g = 0; g < ng; ++g)
            if (p.lo[g] > p.hi[g]) p.lo[g] = p.hi[g] = 0.0f;  // no finite values
    detail::LossSums sums;
    for_each_row_chunk(r, chunk_elems, buf, cancel, "measurement cancelled", progress, r.rows(), total, [&](std::uint64_t r0, std::uint64_t n, const float* v) {
        for (std::uint64_t i = 0; i < n; ++i)
            for (std::uint64_t c = 0; c < C; ++c) {
                const float x = v[i * C + c];
                if (!std::isfinite(x)) continue;
                sums.add(x, q(q.of(r0 + i, c), x, p));
            }
    });
    return detail::round_trip_measured(std::move(estimator), sums);
}

// measure_round_trip's dispatch on the scheme's parameters.
struct Measure {
    const LogicalTensor& t;
    const RoundTripScheme& s;
    const ProgressFn& progress;
    const std::atomic<bool>* cancel;
    std::uint64_t chunk_elems;

    const Recipe& r() const { return *t.recipe; }
    // The re-quantizer is built (geometry checked) before the description.
    template <class Rtn>
    RoundTripError run(const Rtn& q) const { return measure_rtn(r(), q, s.description(), progress, cancel, chunk_elems); }

    RoundTripError operator()(const Fp8Params& p) const { return run(Fp8Rtn(p, s.experts, r().rows(), r().row_elems())); }
    RoundTripError operator()(const Bnb4Params& p) const { return run(Bnb4Rtn(p, r().rows(), r().row_elems())); }
    RoundTripError operator()(const Int8Params&) const { return run(Int8Rtn{r().rows()}); }
    RoundTripError operator()(const AffineParams& p) const { return run(AffineRtn(p, r().rows(), r().row_elems())); }
    RoundTripError operator()(const GgmlParams& p) const {
        return detail::measure_gguf_encoder(t, p.type, s.description(), progress, cancel, chunk_elems);
    }
    RoundTripError operator()(const Fp4Params& p) const {
        throw Error(ErrorCode::Usage, "not measurable yet for " + p.id(), {}, t.name);
    }
    RoundTripError operator()(const MlxParams& p) const { return run(MlxAffineRtn(p, r().rows(), r().row_elems())); }
    RoundTripError operator()(const OnnxQuantParams& p) const {
        throw Error(ErrorCode::Usage, "not measurable yet for " + p.id(), {}, t.name);
    }
};

// RoundTripScheme::description() of each scheme.
struct Describe {
    std::string operator()(const Fp8Params& p) const {
        const Fp8Format f = fp8_format(p.format);
        std::string s = std::string("RTN re-quantization, FP8 ") + f.name + ", ";
        switch (p.granularity) {
            case Gran::Tensor: s += "per-tensor scale"; break;
            case Gran::Channel: s += "per-channel scales"; break;
            case Gran::Expert: s += "per-expert scales"; break;
            case Gran::Block:
            case Gran::Group: {
                const auto [rows, cols] = fp8_block(p);
                s += std::to_string(rows) + "\u00d7" + std::to_string(cols) + " blocks";
                break;
            }
        }
        return s + ", scale = absmax/" + fmt_num(f.max);
    }
    std::string operator()(const Bnb4Params& p) const {
        return std::string("RTN re-quantization, bitsandbytes ") + (p.type == Bnb4Type::Fp4 ? "FP4" : "NF4") +
               ", blocksize " + std::to_string(p.blocksize) + ", absmax scale, nearest codebook entry";
    }
    std::string operator()(const Int8Params&) const {
        return "RTN re-quantization, bitsandbytes LLM.int8, scale = row absmax/127, round half away from zero";
    }
    std::string operator()(const AffineParams& p) const {
        const std::string s = "RTN re-quantization, " + std::to_string(p.bits) + "-bit, group " + std::to_string(p.group_size) +
                              " along the input dimension, ";
        const std::string maxq = std::to_string((1u << p.bits) - 1);
        if (round_trip_symmetric(p)) return s + "symmetric (GPTQ), scale = 2·max|x|/" + maxq;
        return s + "asymmetric min/max" + (round_trip_includes_zero(p) ? " (range includes 0, GPTQ)" : " (AWQ)") +
               ", scale = (max−min)/" + maxq;
    }
    std::string operator()(const GgmlParams& p) const {
        return "re-quantization with ggml's " + dtype_name(p.type) + " quantizer (no importance matrix), row by row, decoded again";
    }
    std::string operator()(const Fp4Params& p) const { throw Error(ErrorCode::Usage, "not measurable yet for " + p.id()); }
    std::string operator()(const MlxParams& p) const {
        return "re-quantization with MLX's affine quantizer (mx.quantize), " + std::to_string(p.bits) + "-bit, group " +
               std::to_string(p.group_size) + ", scales and biases in " + dtype_name(p.scale_dtype) + ", decoded again";
    }
    std::string operator()(const OnnxQuantParams& p) const { throw Error(ErrorCode::Usage, "not measurable yet for " + p.id()); }
};

}  // namespace

RoundTripError detail::round_trip_measured(std::string estimator, const LossSums& sums) {
    RoundTripError out;
    out.measured = true;
    out.estimator = std::move(estimator);
    out.count = sums.count;
    out.rmse = sums.rmse();
    out.max_abs = sums.max_abs;
    out.sqnr_db = sums.sqnr_db();
    return out;
}

float fp8_round(DType fmt, float x) noexcept {
    Fp8Format f{3, -6, 448.0f, "E4M3"};
    try { f = fp8_format(fmt); } catch (...) { return x; }
    if (std::isnan(x)) return x;
    const float a = std::abs(x);
    if (a >= f.max) return std::copysign(f.max, x);
    if (a == 0.0f) return x;
    const int e = std::max(std::ilogb(a), f.emin);
    const float step = std::ldexp(1.0f, e - f.mbits);
    const float q = std::min(std::nearbyint(a / step) * step, f.max);  // default rounding: ties to even
    return std::copysign(q, x);
}

std::string RoundTripScheme::description() const { return std::visit(Describe{}, params); }

bool round_trip_includes_zero(const AffineParams& p) noexcept {
    // GPTQ's quantizer and compressed-tensors' calculate_qparams both widen
    // the range to include 0; AutoAWQ's does not.
    return p.packing != AffinePacking::AwqGemm;
}

bool round_trip_symmetric(const AffineParams& p) noexcept {
    return p.packing != AffinePacking::AwqGemm && p.symmetric.value_or(false);
}

namespace {

// The RTN re-quantizer of each scheme's parameters; `why` says why not.
struct RoundTripFor {
    const LogicalTensor& t;
    const Recipe& r;
    std::string& why;

    std::optional<RoundTripScheme> fail(std::string w) const {
        why = std::move(w);
        return std::nullopt;
    }

    std::optional<RoundTripScheme> operator()(const Fp8Params& p) const {
        RoundTripScheme s;
        switch (p.format) {
            case DType::F8_E4M3: case DType::F8_E5M2: case DType::F8_E4M3FNUZ: case DType::F8_E5M2FNUZ: break;
            default: return fail("not measurable yet for FP8 format " + dtype_name(p.format));
        }
        s.params = p;
        const auto& sh = t.shape;
        if (sh.size() >= 3) {
            const std::uint64_t per = sh[sh.size() - 2] * sh[sh.size() - 1];
            s.experts = per ? t.numel() / per : 1;
        }
        if (p.granularity == Gran::Block && (!p.block_rows || !p.block_cols)) return fail("FP8 block size 0 in " + p.describe());
        if (p.granularity == Gran::Group && !p.group_size) return fail("FP8 group size 0 in " + p.describe());
        if (s.experts == 0 || r.rows() % s.experts != 0) return fail("FP8 expert layout does not match the rows");
        return s;
    }

    std::optional<RoundTripScheme> operator()(const Bnb4Params& p) const {
        // a nested (double-quant) absmax is treated as f32
        if (!p.blocksize) return fail("bitsandbytes blocksize 0 in " + p.id());
        return RoundTripScheme{p};
    }

    std::optional<RoundTripScheme> operator()(const Int8Params& p) const { return RoundTripScheme{p}; }

    std::optional<RoundTripScheme> operator()(const AffineParams& p) const {
        if (p.per_tensor) return fail("not measurable yet for " + p.id() + " (one scale per tensor)");
        // Groups are contiguous runs along the input dimension; an act-order
        // permutation is not repeated. Without a uniform group size the
        // count gives one; a group wider than the row is the row.
        AffineParams a = p;
        const std::uint64_t in = r.row_elems();
        if (a.group_size == 0 || a.group_size > in) {
            const std::uint64_t n = p.group_size == 0 ? p.groups : 0;
            a.group_size = n ? (in + n - 1) / n : in;
        }
        if (a.bits < 2 || a.bits > 8 || a.group_size == 0) return fail("unrecognised scheme id " + p.id());
        return RoundTripScheme{a};
    }

    std::optional<RoundTripScheme> operator()(const MlxParams& p) const {
        if (p.mode != MlxMode::Affine) return fail("not measurable yet for " + p.id());
        if (p.group_size == 0 || r.row_elems() % p.group_size != 0) return fail("MLX group size does not divide the row");
        return RoundTripScheme{p};
    }

    std::optional<RoundTripScheme> operator()(const GgmlParams& p) const {
        std::string w = detail::gguf_round_trip_unavailable(p.type);
        if (!w.empty()) return fail(std::move(w));
        const DTypeInfo* info = dtype_info(p.type);
        if (r.row_elems() == 0 || r.row_elems() % info->block_elems != 0)
            return fail("not measurable for " + p.id() + ": a row is not a whole number of blocks");
        return RoundTripScheme{p};
    }

    /// Schemes without an RTN re-quantizer yet.
    template <class P>
    std::optional<RoundTripScheme> operator()(const P& p) const {
        return fail("not measurable yet for " + p.id());
    }
};

/// The code of round_trip_scheme_for's refusal (its `why` in words).
RoundTripUnavailable unavailable_reason(const LogicalTensor& t, std::string& scheme) {
    if (!t.quantized || !t.recipe || t.recipe->scheme_id() == "passthrough") return RoundTripUnavailable::NotQuantized;
    scheme = t.params ? scheme_id(*t.params) : t.recipe->scheme_id();
    if (t.params)
        if (const auto* g = std::get_if<GgmlParams>(&*t.params)) {
            const DTypeInfo* info = dtype_info(g->type);
            if (info && info->ggml_id >= 0 && kernels::gguf::requires_imatrix(info->ggml_id)) return RoundTripUnavailable::NeedsImatrix;
            if (info && info->ggml_id >= 0 && kernels::gguf::imatrix_encoder(info->ggml_id) &&
                t.recipe->row_elems() % info->block_elems != 0)
                return RoundTripUnavailable::PartialBlocks;
        }
    return RoundTripUnavailable::NotYet;
}

/// The scheme forget writes a 2-D weight `t` read back as `p` with (see
/// detail::st_scheme_writing); nullopt for any other tensor.
std::optional<detail::StWrite> st_write_of(const LogicalTensor& t, const QuantParams& p) {
    const Recipe& r = *t.recipe;
    if (t.shape.size() != 2 || t.shape[0] != r.rows() || t.shape[1] != r.row_elems()) return std::nullopt;
    return detail::st_scheme_writing(p, r.rows(), r.row_elems());
}

}  // namespace

std::optional<RoundTripScheme> round_trip_scheme_for(const LogicalTensor& t, std::string* why) {
    std::string w;
    auto fail = [&](std::string m) -> std::optional<RoundTripScheme> {
        if (why) *why = std::move(m);
        return std::nullopt;
    };
    if (!t.recipe) return fail(t.error.empty() ? std::string("tensor has no recipe") : t.error.message());
    if (!t.quantized || !t.params) {
        if (!t.quantized || t.recipe->scheme_id() == "passthrough") return fail("not quantized: nothing to measure");
        return fail("not measurable yet for " + t.recipe->scheme_id());
    }
    // What forget writes is measured with forget's encoder, as it is.
    if (st_write_of(t, *t.params)) return RoundTripScheme{*t.params};
    auto s = std::visit(RoundTripFor{t, *t.recipe, w}, *t.params);
    if (!s) return fail(std::move(w));
    return s;
}

RoundTripError measure_round_trip(const LogicalTensor& t, const RoundTripScheme& s, const ProgressFn& progress,
                                    const std::atomic<bool>* cancel, std::uint64_t chunk_elems) {
    if (!t.recipe) throw Error(ErrorCode::Unsupported, t.error.empty() ? std::string("tensor has no recipe") : t.error.message(), {}, t.name);
    if (const auto w = st_write_of(t, s.params)) {
        std::string rtn;
        try {
            rtn = s.description();
        } catch (const Error&) {
        }
        if (auto e = detail::measure_st_encoder(t, *w, detail::st_estimator(*w, rtn), progress, cancel, chunk_elems))
            return *e;
    }
    return std::visit(Measure{t, s, progress, cancel, chunk_elems}, s.params);
}

RoundTripError measure_round_trip(const LogicalTensor& t, const ProgressFn& progress,
                                    const std::atomic<bool>* cancel, std::uint64_t chunk_elems) {
    if (!t.recipe) throw Error(ErrorCode::Unsupported, t.error.empty() ? std::string("tensor has no recipe") : t.error.message(), {}, t.name);
    std::string why;
    const auto s = round_trip_scheme_for(t, &why);
    if (!s) {
        RoundTripError e;
        e.unavailable = why;
        e.reason = unavailable_reason(t, e.scheme);
        return e;
    }
    return measure_round_trip(t, *s, progress, cancel, chunk_elems);
}

}  // namespace amn
