// SPDX-License-Identifier: MIT OR Apache-2.0
#include "anamnesis/requantize.hpp"

#include "anamnesis/error.hpp"
#include "anamnesis/kernels.hpp"
#include "kernels/gguf/gguf_quantize.hpp"
#include "kernels/int/quant_kernels.hpp"
#include "jobs/lethe_estimate_internal.hpp"
#include "exec/loss_sums.hpp"
#include "exec/row_pass.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <variant>
#include <vector>

namespace amn {

namespace {

using Family = RequantScheme::Family;
using Gran = Fp8Granularity;  // Group is given as a 1 × group_size Block (RequantFor)

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

// Geometry: group index of element (r, c).
struct Groups {
    const RequantScheme& s;
    std::uint64_t R, C;
    std::uint64_t rows_per_expert = 1, grid_r = 1, grid_c = 1, ngroups_row = 1;

    Groups(const RequantScheme& sc, std::uint64_t rows, std::uint64_t cols) : s(sc), R(rows), C(cols) {
        if (s.family == Family::Fp8) {
            if (s.experts == 0 || R % s.experts != 0) throw Error(ErrorCode::Usage, "experts do not divide the rows");
            rows_per_expert = R / s.experts;
            if (s.granularity == Gran::Block || s.granularity == Gran::Group) {
                if (s.block_rows == 0 || s.block_cols == 0) throw Error(ErrorCode::Usage, "FP8 block size 0");
                grid_r = (rows_per_expert + s.block_rows - 1) / s.block_rows;
                grid_c = (C + s.block_cols - 1) / s.block_cols;
            }
        } else if (s.family == Family::Bnb4) {
            if (s.blocksize == 0) throw Error(ErrorCode::Usage, "bitsandbytes blocksize 0");
        } else if (s.family == Family::Affine) {
            if (s.group_size == 0) throw Error(ErrorCode::Usage, "group size 0");
            if (s.bits < 2 || s.bits > 8) throw Error(ErrorCode::Usage, "bits must be 2..8");
            ngroups_row = (C + s.group_size - 1) / s.group_size;
        }
    }
    std::uint64_t count() const {
        switch (s.family) {
            case Family::Fp8:
                switch (s.granularity) {
                    case Gran::Tensor: return 1;
                    case Gran::Channel: return R;
                    case Gran::Expert: return s.experts;
                    case Gran::Block:
                    case Gran::Group: return s.experts * grid_r * grid_c;
                }
                return 1;
            case Family::Bnb4: return (R * C + s.blocksize - 1) / s.blocksize;
            case Family::BnbInt8: return R;
            case Family::Affine: return R * ngroups_row;
            case Family::GgufEncoder: return 1;  // measured per row chunk (lethe_estimate_gguf.cc)
        }
        return 1;
    }
    std::uint64_t of(std::uint64_t r, std::uint64_t c) const {
        switch (s.family) {
            case Family::Fp8:
                switch (s.granularity) {
                    case Gran::Tensor: return 0;
                    case Gran::Channel: return r;
                    case Gran::Expert: return r / rows_per_expert;
                    case Gran::Block:
                    case Gran::Group: {
                        const std::uint64_t b = r / rows_per_expert, rr = r % rows_per_expert;
                        return (b * grid_r + rr / s.block_rows) * grid_c + c / s.block_cols;
                    }
                }
                return 0;
            case Family::Bnb4: return (r * C + c) / s.blocksize;
            case Family::BnbInt8: return r;
            case Family::Affine: return r * ngroups_row + c / s.group_size;
            case Family::GgufEncoder: return 0;
        }
        return 0;
    }
};

// Per-group parameters after pass 1.
struct GroupParams {
    std::vector<float> amax, lo, hi;  // |x| max, min, max
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

// Re-quantize one value of group g and dequantize it again.
struct Requantizer {
    const RequantScheme& s;
    const GroupParams& p;
    Fp8Format f8{3, -6, 448.0f, "E4M3"};
    float maxq = 15;

    float operator()(std::uint64_t g, float x) const {
        switch (s.family) {
            case Family::Fp8: {
                const float scale = p.amax[g] / f8.max;
                if (scale == 0.0f) return 0.0f * x;
                return fp8_round(s.fp8, x / scale) * scale;
            }
            case Family::Bnb4: {
                const float a = p.amax[g];
                if (a == 0.0f) return 0.0f;
                const float n = x * (1.0f / a);
                return nearest_code(s.fp4 ? kFp4 : kNf4, n) * a;
            }
            case Family::BnbInt8: {
                const float a = p.amax[g];
                if (a == 0.0f) return 0.0f;
                const float q = std::round(x * (127.0f / a));
                return (q * a) * kernels::quant::kInt8Inv127;
            }
            case Family::Affine: {
                float lo = p.lo[g], hi = p.hi[g], scale, zero;
                if (s.include_zero) {
                    lo = std::min(lo, 0.0f);
                    hi = std::max(hi, 0.0f);
                    if (s.symmetric) {
                        hi = std::max(std::abs(lo), hi);
                        if (lo < 0) lo = -hi;
                    }
                    if (lo == 0.0f && hi == 0.0f) { lo = -1.0f; hi = 1.0f; }
                    scale = (hi - lo) / maxq;
                    zero = s.symmetric ? (maxq + 1.0f) / 2.0f : std::nearbyint(-lo / scale);
                } else {
                    scale = std::max(hi - lo, 1e-5f) / maxq;
                    zero = std::clamp(-std::nearbyint(lo / scale), 0.0f, maxq);
                }
                const float q = std::clamp(std::nearbyint(x / scale) + zero, 0.0f, maxq);
                return scale * (q - zero);
            }
            case Family::GgufEncoder: return x;  // not element-wise: lethe_estimate_gguf.cc
        }
        return x;
    }
};

}  // namespace

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

std::string RequantScheme::description() const {
    std::string s = "RTN re-quantization, ";
    switch (family) {
        case Family::Fp8: {
            const Fp8Format f = fp8_format(fp8);
            s += std::string("FP8 ") + f.name + ", ";
            switch (granularity) {
                case Fp8Granularity::Tensor: s += "per-tensor scale"; break;
                case Fp8Granularity::Channel: s += "per-channel scales"; break;
                case Fp8Granularity::Expert: s += "per-expert scales"; break;
                case Fp8Granularity::Block:
                case Fp8Granularity::Group:
                    s += std::to_string(block_rows) + "\u00d7" + std::to_string(block_cols) + " blocks";
                    break;
            }
            return s + ", scale = absmax/" + fmt_num(f.max);
        }
        case Family::Bnb4:
            return s + "bitsandbytes " + (fp4 ? "FP4" : "NF4") + ", blocksize " + std::to_string(blocksize) +
                   ", absmax scale, nearest codebook entry";
        case Family::BnbInt8: return s + "bitsandbytes LLM.int8, scale = row absmax/127, round half away from zero";
        case Family::Affine:
            s += std::to_string(bits) + "-bit, group " + std::to_string(group_size) + " along the input dimension, ";
            if (symmetric) return s + "symmetric (GPTQ), scale = 2·max|x|/" + std::to_string((1u << bits) - 1);
            return s + "asymmetric min/max" + (include_zero ? " (range includes 0, GPTQ)" : " (AWQ)") +
                   ", scale = (max−min)/" + std::to_string((1u << bits) - 1);
        case Family::GgufEncoder:
            return "re-quantization with ggml's " + dtype_name(ggml_type) +
                   " quantizer (no importance matrix), row by row, decoded again";
    }
    return s;
}

namespace {

// The RTN re-quantizer of each scheme's parameters; `why` says why not.
struct RequantFor {
    const LogicalTensor& t;
    const Recipe& r;
    std::string& why;

    std::optional<RequantScheme> fail(std::string w) const {
        why = std::move(w);
        return std::nullopt;
    }

    std::optional<RequantScheme> operator()(const Fp8Params& p) const {
        RequantScheme s;
        s.family = Family::Fp8;
        switch (p.format) {
            case DType::F8_E4M3: case DType::F8_E5M2: case DType::F8_E4M3FNUZ: case DType::F8_E5M2FNUZ:
                s.fp8 = p.format;
                break;
            default: return fail("not measurable yet for FP8 format " + dtype_name(p.format));
        }
        const auto& sh = t.shape;
        if (sh.size() >= 3) {
            const std::uint64_t per = sh[sh.size() - 2] * sh[sh.size() - 1];
            s.experts = per ? t.numel() / per : 1;
        }
        switch (p.granularity) {
            case Fp8Granularity::Tensor:
            case Fp8Granularity::Channel:
            case Fp8Granularity::Expert: s.granularity = p.granularity; break;
            case Fp8Granularity::Block:
                s.granularity = Gran::Block;
                s.block_rows = p.block_rows;
                s.block_cols = p.block_cols;
                if (!s.block_rows || !s.block_cols) return fail("FP8 block size 0 in " + p.describe());
                break;
            case Fp8Granularity::Group:  // a group is a 1 × group_size block
                s.granularity = Gran::Block;
                s.block_rows = 1;
                s.block_cols = p.group_size;
                if (!s.block_cols) return fail("FP8 group size 0 in " + p.describe());
                break;
        }
        if (s.experts == 0 || r.rows() % s.experts != 0) return fail("FP8 expert layout does not match the rows");
        return s;
    }

    std::optional<RequantScheme> operator()(const Bnb4Params& p) const {
        RequantScheme s;
        s.family = Family::Bnb4;
        s.fp4 = p.type == Bnb4Type::Fp4;
        s.blocksize = p.blocksize;  // a nested (double-quant) absmax is treated as f32
        if (!s.blocksize) return fail("bitsandbytes blocksize 0 in " + p.id());
        return s;
    }

    std::optional<RequantScheme> operator()(const Int8Params&) const {
        RequantScheme s;
        s.family = Family::BnbInt8;
        return s;
    }

    std::optional<RequantScheme> operator()(const AffineParams& p) const {
        RequantScheme s;
        s.family = Family::Affine;
        const bool awq = p.packing == AffinePacking::AwqGemm;
        // GPTQ's quantizer and compressed-tensors' calculate_qparams both
        // widen the range to include 0; AutoAWQ's does not.
        s.include_zero = !awq;
        s.bits = p.bits;
        s.symmetric = !awq && p.symmetric.value_or(false);
        if (p.per_tensor) return fail("not measurable yet for " + p.id() + " (one scale per tensor)");
        // Groups are contiguous runs along the input dimension; an act-order
        // permutation is not repeated. Without a uniform group size the
        // count gives one; a group wider than the row is the row.
        s.group_size = p.group_size;
        const std::uint64_t in = r.row_elems();
        if (s.group_size == 0 || s.group_size > in) {
            const std::uint64_t n = p.group_size == 0 ? p.groups : 0;
            s.group_size = n ? (in + n - 1) / n : in;
        }
        if (s.bits < 2 || s.bits > 8 || s.group_size == 0) return fail("unrecognised scheme id " + p.id());
        return s;
    }

    std::optional<RequantScheme> operator()(const GgmlParams& p) const {
        RequantScheme s;
        std::string w = detail::gguf_requant_unavailable(p.type);
        if (!w.empty()) return fail(std::move(w));
        const DTypeInfo* info = dtype_info(p.type);
        if (r.row_elems() == 0 || r.row_elems() % info->block_elems != 0)
            return fail("not measurable for " + p.id() + ": a row is not a whole number of blocks");
        s.family = Family::GgufEncoder;
        s.ggml_type = p.type;
        return s;
    }

    /// Schemes without an RTN re-quantizer yet.
    template <class P>
    std::optional<RequantScheme> operator()(const P& p) const {
        return fail("not measurable yet for " + p.id());
    }
};

/// The code of requant_scheme_for's refusal (its `why` in words).
RequantUnavailable unavailable_reason(const LogicalTensor& t, std::string& scheme) {
    if (!t.quantized || !t.recipe || t.recipe->scheme_id() == "passthrough") return RequantUnavailable::NotQuantized;
    scheme = t.params ? scheme_id(*t.params) : t.recipe->scheme_id();
    if (t.params)
        if (const auto* g = std::get_if<GgmlParams>(&*t.params)) {
            const DTypeInfo* info = dtype_info(g->type);
            if (info && info->ggml_id >= 0 && kernels::gguf::requires_imatrix(info->ggml_id)) return RequantUnavailable::NeedsImatrix;
            if (info && info->ggml_id >= 0 && kernels::gguf::imatrix_encoder(info->ggml_id) &&
                t.recipe->row_elems() % info->block_elems != 0)
                return RequantUnavailable::PartialBlocks;
        }
    return RequantUnavailable::NotYet;
}

}  // namespace

std::optional<RequantScheme> requant_scheme_for(const LogicalTensor& t, std::string* why) {
    std::string w;
    auto fail = [&](std::string m) -> std::optional<RequantScheme> {
        if (why) *why = std::move(m);
        return std::nullopt;
    };
    if (!t.recipe) return fail(t.error.empty() ? "tensor has no recipe" : t.error);
    if (!t.quantized || !t.params) {
        if (!t.quantized || t.recipe->scheme_id() == "passthrough") return fail("not quantized: nothing to measure");
        return fail("not measurable yet for " + t.recipe->scheme_id());
    }
    auto s = std::visit(RequantFor{t, *t.recipe, w}, *t.params);
    if (!s) return fail(std::move(w));
    return s;
}

RequantError measure_requantization(const LogicalTensor& t, const RequantScheme& s, const StatsProgressFn& progress,
                                    const std::atomic<bool>* cancel, std::uint64_t chunk_elems) {
    if (!t.recipe) throw Error(ErrorCode::Unsupported, t.error.empty() ? "tensor has no recipe" : t.error, {}, t.name);
    if (s.family == Family::GgufEncoder) return detail::measure_gguf_encoder(t, s, progress, cancel, chunk_elems);
    const Recipe& r = *t.recipe;
    const std::uint64_t C = r.row_elems();
    const Groups groups(s, r.rows(), C);
    RequantError out;
    out.estimator = s.description();
    const std::uint64_t ng = groups.count();
    GroupParams p;
    const bool affine = s.family == Family::Affine;
    if (affine) {
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
                const std::uint64_t g = groups.of(r0 + i, c);
                if (affine) {
                    p.lo[g] = std::min(p.lo[g], x);
                    p.hi[g] = std::max(p.hi[g], x);
                } else {
                    p.amax[g] = std::max(p.amax[g], std::abs(x));
                }
            }
    });
    if (affine)
        for (std::uint64_t g = 0; g < ng; ++g)
            if (p.lo[g] > p.hi[g]) p.lo[g] = p.hi[g] = 0.0f;  // no finite values
    Requantizer rq{s, p};
    if (s.family == Family::Fp8) rq.f8 = fp8_format(s.fp8);
    rq.maxq = static_cast<float>((1u << s.bits) - 1);
    detail::LossSums sums;
    for_each_row_chunk(r, chunk_elems, buf, cancel, "measurement cancelled", progress, r.rows(), total, [&](std::uint64_t r0, std::uint64_t n, const float* v) {
        for (std::uint64_t i = 0; i < n; ++i)
            for (std::uint64_t c = 0; c < C; ++c) {
                const float x = v[i * C + c];
                if (!std::isfinite(x)) continue;
                sums.add(x, rq(groups.of(r0 + i, c), x));
            }
    });
    out.measured = true;
    out.count = sums.count;
    out.rmse = sums.rmse();
    out.max_abs = sums.max_abs;
    out.sqnr_db = sums.sqnr_db();
    return out;
}

RequantError measure_requantization(const LogicalTensor& t, const StatsProgressFn& progress,
                                    const std::atomic<bool>* cancel, std::uint64_t chunk_elems) {
    if (!t.recipe) throw Error(ErrorCode::Unsupported, t.error.empty() ? "tensor has no recipe" : t.error, {}, t.name);
    std::string why;
    const auto s = requant_scheme_for(t, &why);
    if (!s) {
        RequantError e;
        e.unavailable = why;
        e.reason = unavailable_reason(t, e.scheme);
        return e;
    }
    return measure_requantization(t, *s, progress, cancel, chunk_elems);
}

}  // namespace amn
