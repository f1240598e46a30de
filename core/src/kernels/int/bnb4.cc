// SPDX-License-Identifier: MIT OR Apache-2.0
// bitsandbytes NF4/FP4 quantizer of st_quantize.hpp, with and without double
// quantization (`functional.quantize_4bit` on the default torch backend and,
// for the nested absmax, `quantize_blockwise` with the dynamic map), plus the
// two helpers whose bytes it needs: torch's CPU float32 sum order (for
// `absmax.mean()`) and Python's float repr (for the quant_state JSON).
// The 4-bit codes run on the row-chunk kernels (st_kernels.hpp); the rules are listed in
// shared/fixtures/quantize-ref-st/README.md ("bitsandbytes NF4 / FP4").
#include "anamnesis/st_quantize.hpp"
#include "kernels/int/quant_kernels.hpp"
#include "kernels/st/st_common.hpp"
#include "kernels/st/st_kernels.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <numeric>

namespace amn::st {

using detail::float_of;

namespace {

// The NF4/FP4 tables: kernels::quant::kNf4Bits / kFp4Bits (quant_kernels.hpp).
using kernels::quant::kFp4Bits, kernels::quant::kNf4Bits;
// `create_dynamic_map()` (signed, 7 exponent bits) as real checkpoints carry
// it: the linspace of each decade computed as start + step·i rounded once.
constexpr std::array<std::uint32_t, 256> kDynamicBits{
    0xBF7E3333u, 0xBF7A999Au, 0xBF770000u, 0xBF736666u, 0xBF6FCCCDu, 0xBF6C3333u, 0xBF68999Au, 0xBF650000u,
    0xBF616666u, 0xBF5DCCCDu, 0xBF5A3333u, 0xBF56999Au, 0xBF530000u, 0xBF4F6666u, 0xBF4BCCCDu, 0xBF483333u,
    0xBF44999Au, 0xBF410000u, 0xBF3D6666u, 0xBF39CCCDu, 0xBF363334u, 0xBF32999Au, 0xBF2F0000u, 0xBF2B6666u,
    0xBF27CCCDu, 0xBF243334u, 0xBF20999Au, 0xBF1D0000u, 0xBF196666u, 0xBF15CCCDu, 0xBF123334u, 0xBF0E999Au,
    0xBF0B0000u, 0xBF076666u, 0xBF03CCCCu, 0xBF003333u, 0xBEF93332u, 0xBEF20000u, 0xBEEACCCCu, 0xBEE3999Au,
    0xBEDC6666u, 0xBED53333u, 0xBECE0000u, 0xBEC6CCCCu, 0xBEBF999Au, 0xBEB86666u, 0xBEB13333u, 0xBEAA0000u,
    0xBEA2CCCCu, 0xBE9B999Au, 0xBE946666u, 0xBE8D3334u, 0xBE860000u, 0xBE7D9999u, 0xBE6F3333u, 0xBE60CCCDu,
    0xBE526666u, 0xBE440000u, 0xBE35999Au, 0xBE273333u, 0xBE18CCCDu, 0xBE0A6666u, 0xBDF80000u, 0xBDDB3334u,
    0xBDC9EB85u, 0xBDC428F7u, 0xBDBE6667u, 0xBDB8A3D7u, 0xBDB2E148u, 0xBDAD1EB8u, 0xBDA75C2Au, 0xBDA1999Au,
    0xBD9BD70Au, 0xBD96147Bu, 0xBD9051EBu, 0xBD8A8F5Du, 0xBD84CCCDu, 0xBD7E147Bu, 0xBD728F5Du, 0xBD670A3Du,
    0xBD5B851Fu, 0xBD500000u, 0xBD447AE1u, 0xBD38F5C3u, 0xBD2D70A3u, 0xBD21EB85u, 0xBD166667u, 0xBD0AE148u,
    0xBCFEB852u, 0xBCE7AE15u, 0xBCD0A3D7u, 0xBCB9999Au, 0xBCA28F5Du, 0xBC8B851Fu, 0xBC68F5C3u, 0xBC3AE148u,
    0xBC1F3B64u, 0xBC160418u, 0xBC0CCCCDu, 0xBC039581u, 0xBBF4BC6Au, 0xBBE24DD3u, 0xBBCFDF3Bu, 0xBBBD70A4u,
    0xBBAB020Du, 0xBB989374u, 0xBB8624DDu, 0xBB676C8Au, 0xBB428F5Cu, 0xBB1DB22Du, 0xBAF1A9FCu, 0xBAA7EF9Du,
    0xBA7765FFu, 0xBA59E83Eu, 0xBA3C6A80u, 0xBA1EECC1u, 0xBA016F01u, 0xB9C7E283u, 0xB98CE705u, 0xB923D70Bu,
    0xB8BA1F4Bu, 0xB88AEFB3u, 0xB8378034u, 0xB7B24206u, 0xB70205FFu, 0xB65A1A94u, 0xB513A3B7u, 0x00000000u,
    0x3513A3B7u, 0x365A1A94u, 0x370205FFu, 0x37B24206u, 0x38378034u, 0x388AEFB3u, 0x38BA1F4Bu, 0x3923D70Bu,
    0x398CE705u, 0x39C7E283u, 0x3A016F01u, 0x3A1EECC1u, 0x3A3C6A80u, 0x3A59E83Eu, 0x3A7765FFu, 0x3AA7EF9Du,
    0x3AF1A9FCu, 0x3B1DB22Du, 0x3B428F5Cu, 0x3B676C8Au, 0x3B8624DDu, 0x3B989374u, 0x3BAB020Du, 0x3BBD70A4u,
    0x3BCFDF3Bu, 0x3BE24DD3u, 0x3BF4BC6Au, 0x3C039581u, 0x3C0CCCCDu, 0x3C160418u, 0x3C1F3B64u, 0x3C3AE148u,
    0x3C68F5C3u, 0x3C8B851Fu, 0x3CA28F5Du, 0x3CB9999Au, 0x3CD0A3D7u, 0x3CE7AE15u, 0x3CFEB852u, 0x3D0AE148u,
    0x3D166667u, 0x3D21EB85u, 0x3D2D70A3u, 0x3D38F5C3u, 0x3D447AE1u, 0x3D500000u, 0x3D5B851Fu, 0x3D670A3Du,
    0x3D728F5Du, 0x3D7E147Bu, 0x3D84CCCDu, 0x3D8A8F5Du, 0x3D9051EBu, 0x3D96147Bu, 0x3D9BD70Au, 0x3DA1999Au,
    0x3DA75C2Au, 0x3DAD1EB8u, 0x3DB2E148u, 0x3DB8A3D7u, 0x3DBE6667u, 0x3DC428F7u, 0x3DC9EB85u, 0x3DDB3334u,
    0x3DF80000u, 0x3E0A6666u, 0x3E18CCCDu, 0x3E273333u, 0x3E35999Au, 0x3E440000u, 0x3E526666u, 0x3E60CCCDu,
    0x3E6F3333u, 0x3E7D9999u, 0x3E860000u, 0x3E8D3334u, 0x3E946666u, 0x3E9B999Au, 0x3EA2CCCCu, 0x3EAA0000u,
    0x3EB13333u, 0x3EB86666u, 0x3EBF999Au, 0x3EC6CCCCu, 0x3ECE0000u, 0x3ED53333u, 0x3EDC6666u, 0x3EE3999Au,
    0x3EEACCCCu, 0x3EF20000u, 0x3EF93332u, 0x3F003333u, 0x3F03CCCCu, 0x3F076666u, 0x3F0B0000u, 0x3F0E999Au,
    0x3F123334u, 0x3F15CCCDu, 0x3F196666u, 0x3F1D0000u, 0x3F20999Au, 0x3F243334u, 0x3F27CCCDu, 0x3F2B6666u,
    0x3F2F0000u, 0x3F32999Au, 0x3F363334u, 0x3F39CCCDu, 0x3F3D6666u, 0x3F410000u, 0x3F44999Au, 0x3F483333u,
    0x3F4BCCCDu, 0x3F4F6666u, 0x3F530000u, 0x3F56999Au, 0x3F5A3333u, 0x3F5DCCCDu, 0x3F616666u, 0x3F650000u,
    0x3F68999Au, 0x3F6C3333u, 0x3F6FCCCDu, 0x3F736666u, 0x3F770000u, 0x3F7A999Au, 0x3F7E3333u, 0x3F800000u,
};

template <std::size_t N>
std::vector<float> table(const std::array<std::uint32_t, N>& bits) {
    std::vector<float> t(N);
    for (std::size_t i = 0; i < N; ++i) t[i] = float_of(bits[i]);
    return t;
}

/// A code table prepared for `torch.bucketize(x, mid, right=False)` against
/// the midpoints of its sorted values: a value equal to a midpoint takes the
/// lower code. Equal values keep their index order (FP4's two zeros: 0, 8).
class Codebook {
public:
    explicit Codebook(const std::vector<float>& code) : order_(code.size()) {
        std::iota(order_.begin(), order_.end(), std::uint8_t{0});
        std::stable_sort(order_.begin(), order_.end(),
                         [&](std::uint8_t a, std::uint8_t b) { return code[a] < code[b]; });
        mid_.resize(code.size() - 1);
        for (std::size_t i = 0; i + 1 < code.size(); ++i)
            mid_[i] = (code[order_[i]] + code[order_[i + 1]]) / 2.0f;
    }
    /// Code (index into the original table) of a value in [−1, 1].
    std::uint8_t encode(float v) const noexcept {
        // Number of midpoints < v = position of the first midpoint ≥ v (the
        // midpoints are sorted). Small tables count branch-free.
        if (mid_.size() <= 16) {
            unsigned k = 0;
            for (const float m : mid_) k += m < v ? 1u : 0u;
            return order_[k];
        }
        // Branch-free lower_bound (the dynamic map's 255 midpoints: 8 steps, no mispredictions).
        const float* base = mid_.data();
        std::size_t len = mid_.size();
        while (len > 1) {
            const std::size_t half = len / 2;
            base += base[half] < v ? half : 0;
            len -= half;
        }
        return order_[std::size_t(base - mid_.data()) + (*base < v ? 1u : 0u)];
    }

    /// The sorted midpoints (size() − 1) and the code of each sorted entry.
    const std::vector<float>& mids() const noexcept { return mid_; }
    const std::vector<std::uint8_t>& order() const noexcept { return order_; }

private:
    std::vector<std::uint8_t> order_;
    std::vector<float> mid_;
};

/// The default backend's blockwise rule over a flat array: full blocks are
/// scaled by f32(1 / max(absmax, 1e-38)), the last partial block divided by
/// its clamped absmax (which is what it stores); clamp to [−1, 1]; encode.
/// `x` values are f32 (a BF16/F16 weight promotes to f32 against the f32
/// absmax). Writes n codes and ⌈n/blocksize⌉ absmax values.
void quantize_blocks(const float* x, std::size_t n, std::size_t blocksize, const Codebook& code, std::uint8_t* q,
                     float* absmax) {
    const float tiny = 1e-38f;
    const std::size_t full = n / blocksize;
    std::size_t b0 = 0;
    if (code.order().size() == 256) {
        // A 256-entry table (the double quantization's dynamic map): the full blocks by the
        // dispatched kernel (the same codes as below).
        std::vector<float> mid(code.mids());
        mid.push_back(HUGE_VALF);
        kernels::st::st_kernels().code8_blocks(x, full, blocksize, mid.data(), code.order().data(), q, absmax);
        b0 = full;
    }
    for (std::size_t b = b0; b * blocksize < n; ++b) {
        const std::size_t begin = b * blocksize, end = std::min(n, begin + blocksize);
        float a = 0.0f;
        for (std::size_t i = begin; i < end; ++i) a = std::max(a, std::fabs(x[i]));
        if (b < full) {
            absmax[b] = a;
            const float inv = 1.0f / std::max(a, tiny);
            for (std::size_t i = begin; i < end; ++i) q[i] = code.encode(std::clamp(x[i] * inv, -1.0f, 1.0f));
        } else {
            const float ac = std::max(a, tiny);
            absmax[b] = ac;
            for (std::size_t i = begin; i < end; ++i) q[i] = code.encode(std::clamp(x[i] / ac, -1.0f, 1.0f));
        }
    }
}

const char* torch_dtype_name(DType t) {
    switch (t) {
    case DType::BF16: return "bfloat16";
    case DType::F16: return "float16";
    default: return "float32";
    }
}

/// at::native::utils::CeilLog2 (1 for x ≤ 2).
std::int64_t ceil_log2(std::int64_t x) {
    if (x <= 2) return 1;
    std::int64_t r = 0;
    for (std::uint64_t v = std::uint64_t(x - 1); v != 0; v >>= 1) ++r;
    return r;
}

/// ATen `row_sum` of `size` items, each an L-lane vector (L = 8: AVX2
/// Vectorized<float>; L = 1: scalar), item i at x[i·L .. i·L+L): the 4-row
/// `multi_row_sum` cascade over items 4i+k, leftover items into row 0, then
/// rows 1..3 into row 0. Returns the L lanes.
template <std::size_t L>
std::array<float, L> row_sum(const float* x, std::int64_t size) {
    using Vec = std::array<float, L>;
    constexpr std::int64_t kIlp = 4, kLevels = 4;
    const auto add = [](Vec& a, const float* v) {
        for (std::size_t l = 0; l < L; ++l) a[l] += v[l];
    };
    const auto add_vec = [](Vec& a, const Vec& v) {
        for (std::size_t l = 0; l < L; ++l) a[l] += v[l];
    };
    const std::int64_t rows = size / kIlp;  // multi_row_sum's size
    const std::int64_t level_power = std::max<std::int64_t>(4, ceil_log2(rows) / kLevels);
    const std::int64_t level_step = std::int64_t{1} << level_power;
    const std::int64_t level_mask = level_step - 1;
    Vec acc[kLevels][kIlp] = {};
    std::int64_t i = 0;
    while (i + level_step <= rows) {
        for (std::int64_t j = 0; j < level_step; ++j, ++i)
            for (std::int64_t k = 0; k < kIlp; ++k) add(acc[0][k], x + (i * kIlp + k) * std::int64_t(L));
        for (std::int64_t j = 1; j < kLevels; ++j) {
            for (std::int64_t k = 0; k < kIlp; ++k) {
                add_vec(acc[j][k], acc[j - 1][k]);
                acc[j - 1][k] = Vec{};
            }
            if ((i & (level_mask << (j * level_power))) != 0) break;
        }
    }
    for (; i < rows; ++i)
        for (std::int64_t k = 0; k < kIlp; ++k) add(acc[0][k], x + (i * kIlp + k) * std::int64_t(L));
    for (std::int64_t j = 1; j < kLevels; ++j)
        for (std::int64_t k = 0; k < kIlp; ++k) add_vec(acc[0][k], acc[j][k]);
    Vec partial = acc[0][0];
    for (std::int64_t v = rows * kIlp; v < size; ++v) add(partial, x + v * std::int64_t(L));
    for (std::int64_t k = 1; k < kIlp; ++k) add_vec(partial, acc[0][k]);
    return partial;
}

}  // namespace

float torch_cpu_sum_f32(std::span<const float> x) noexcept {
    constexpr std::size_t kLanes = 8;
    const std::size_t n = x.size();
    float out;
    if (n >= kLanes) {
        // vectorized_inner_sum: vectors, then the scalar tail, then the lanes.
        const std::size_t vecs = n / kLanes;
        const auto lanes = row_sum<kLanes>(x.data(), std::int64_t(vecs));
        float acc = 0.0f;
        for (std::size_t k = vecs * kLanes; k < n; ++k) acc += x[k];
        for (std::size_t l = 0; l < kLanes; ++l) acc += lanes[l];
        out = acc;
    } else {
        out = row_sum<1>(x.data(), std::int64_t(n))[0];  // scalar_inner_sum
    }
    return 0.0f + out;  // stored by accumulating into the zero-filled output
}

std::string python_float_repr(double x) {
    if (std::isnan(x)) return "nan";
    if (std::isinf(x)) return x < 0 ? "-inf" : "inf";
    if (x == 0) return std::signbit(x) ? "-0.0" : "0.0";
    char buf[64];
    const auto r = std::to_chars(buf, buf + sizeof buf, x, std::chars_format::scientific);
    const std::string s(buf, r.ptr);  // "-d.ddde±XX", shortest round-trip digits
    std::string sign, digits;
    std::size_t p = 0;
    if (s[p] == '-') sign = "-", ++p;
    const std::size_t e_pos = s.find('e');
    for (std::size_t i = p; i < e_pos; ++i)
        if (s[i] != '.') digits += s[i];
    const int exp10 = std::stoi(s.substr(e_pos + 1));
    const int decpt = exp10 + 1;  // value = 0.DIGITS × 10^decpt
    std::string out = sign;
    if (decpt > -4 && decpt <= 16) {
        const int nd = int(digits.size());
        if (decpt <= 0) out += "0." + std::string(std::size_t(-decpt), '0') + digits;
        else if (decpt >= nd) out += digits + std::string(std::size_t(decpt - nd), '0') + ".0";
        else out += digits.substr(0, std::size_t(decpt)) + "." + digits.substr(std::size_t(decpt));
    } else {
        out += digits.substr(0, 1);
        if (digits.size() > 1) out += "." + digits.substr(1);
        const int e = exp10;
        out += e < 0 ? "e-" : "e+";
        const std::string ed = std::to_string(e < 0 ? -e : e);
        out += (ed.size() < 2 ? "0" : "") + ed;
    }
    return out;
}

}  // namespace amn::st

// The row-chunk kernels' side of bitsandbytes 4-bit (kernels/st/st_kernels.hpp).
namespace amn::kernels::st {
using namespace amn::st;

std::vector<float> bnb4_quant_map(Bnb4Type kind) { return kind == Bnb4Type::Fp4 ? table(kFp4Bits) : table(kNf4Bits); }

void bnb4_double_quant(Bnb4Result& res) {
    std::vector<float> centered(res.absmax);
    bnb4_double_quant(res, centered);
}

void bnb4_double_quant(Bnb4Result& res, std::span<float> absmax) {
    // offset = absmax.mean(); absmax − offset in blocks of 256 against the dynamic map.
    const std::size_t blocks = absmax.size();
    res.nested_offset = torch_cpu_sum_f32(absmax) / float(blocks);
    float* centered = absmax.data();
    for (std::size_t i = 0; i < blocks; ++i) centered[i] -= res.nested_offset;
    res.nested_quant_map = table(kDynamicBits);
    const Codebook dyn(res.nested_quant_map);
    res.absmax_q.resize(blocks);
    res.nested_absmax.resize((blocks + 255) / 256);
    quantize_blocks(centered, blocks, 256, dyn, res.absmax_q.data(), res.nested_absmax.data());
}

std::vector<float> bnb4_absmax_dequant(const Bnb4Result& res) {
    std::vector<float> am(res.absmax_q.size());
    for (std::size_t i = 0; i < am.size(); ++i)
        am[i] = res.nested_quant_map[res.absmax_q[i]] * res.nested_absmax[i / 256] + res.nested_offset;
    return am;
}

void bnb4_quant_state(Bnb4Result& res, Bnb4Type kind, unsigned blocksize, DType wdtype, std::uint64_t R,
                      std::uint64_t C, bool double_quant) {
    const bool fp4 = kind == Bnb4Type::Fp4;
    std::string json = std::string("{\"quant_type\": \"") + (fp4 ? "fp4" : "nf4") + "\", \"blocksize\": " +
                       std::to_string(blocksize) + ", \"dtype\": \"" + torch_dtype_name(wdtype) + "\", \"shape\": [" +
                       std::to_string(R) + ", " + std::to_string(C) + "]";
    if (double_quant)
        json += ", \"nested_blocksize\": 256, \"nested_dtype\": \"float32\", \"nested_offset\": " +
                python_float_repr(double(res.nested_offset));
    json += "}";
    res.quant_state_json = std::move(json);
    res.quant_state_suffix = std::string("quant_state.bitsandbytes__") + (fp4 ? "fp4" : "nf4");
}

}  // namespace amn::kernels::st

namespace amn::st {

Bnb4Result quantize_bnb4(std::span<const float> w, const std::vector<std::uint64_t>& shape, DType wdtype,
                         Bnb4Type kind, unsigned blocksize, bool double_quant) {
    const auto [R, C] = detail::check_weight("bitsandbytes 4-bit", w, shape, wdtype);
    if (blocksize < 64 || blocksize > 4096 || (blocksize & (blocksize - 1)) != 0)
        throw Error(ErrorCode::Usage, "bitsandbytes 4-bit: blocksize " + std::to_string(blocksize) +
                                          " is not a power of two in 64…4096");
    const std::size_t n = R * C;
    const std::size_t blocks = (n + blocksize - 1) / blocksize;

    Bnb4Result res;
    res.quant_map = kernels::st::bnb4_quant_map(kind);
    const kernels::st::Codebook4 cb = kernels::st::make_codebook4(res.quant_map.data());
    res.absmax.resize(blocks);
    res.packed.resize((n + 1) / 2);
    kernels::st::bnb4_run(kernels::st::st_kernels(), w.data(), n, blocksize, cb, nullptr, wdtype, res.packed.data(),
                   res.absmax.data(), nullptr);
    if (double_quant) kernels::st::bnb4_double_quant(res);
    kernels::st::bnb4_quant_state(res, kind, blocksize, wdtype, R, C, double_quant);
    return res;
}

}  // namespace amn::st
