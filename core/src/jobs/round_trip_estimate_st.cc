// SPDX-License-Identifier: MIT OR Apache-2.0
// "What Lethe took" for the schemes `amn forget` writes to safetensors
// (round_trip_estimate_internal.hpp): the tensor's dequantized values are
// encoded with forget's own encoder of the scheme (the bytes forget writes,
// forget_st_encoder.hpp) and its round trip is compared with them.
#include "jobs/round_trip_estimate_internal.hpp"

#include "anamnesis/error.hpp"
#include "jobs/forget_st_rows.hpp"
#include "kernels/common/loss_sums.hpp"
#include "kernels/st/st_common.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <utility>
#include <vector>

namespace amn::detail {

namespace {

using forget_st_internal::st_scheme_rows;

// The option values worth trying for a row: every value it takes that could
// give `p` (group sizes: the one `p` carries).
std::vector<StSchemeOptions> options_for(const StSchemeInfo& info, const QuantParams& p) {
    std::vector<StSchemeOptions> out{StSchemeOptions{}};
    auto vary = [&](auto&& set, auto values) {
        std::vector<StSchemeOptions> next;
        for (const auto& o : out)
            for (const auto& v : values) {
                StSchemeOptions n = o;
                set(n, v);
                next.push_back(n);
            }
        out = std::move(next);
    };
    if (info.takes_blocksize)
        vary([](StSchemeOptions& o, unsigned v) { o.blocksize = v; }, std::vector<unsigned>{64, 128, 256, 512, 1024, 2048, 4096});
    if (info.takes_double_quant) vary([](StSchemeOptions& o, bool v) { o.double_quant = v; }, std::vector<bool>{false, true});
    if (info.takes_granularity)
        vary([](StSchemeOptions& o, Fp8Granularity v) { o.granularity = v; },
             std::vector<Fp8Granularity>{Fp8Granularity::Tensor, Fp8Granularity::Channel, Fp8Granularity::Block});
    if (info.takes_ue8m0) vary([](StSchemeOptions& o, bool v) { o.ue8m0 = v; }, std::vector<bool>{false, true});
    if (info.takes_group_size) {
        std::vector<std::optional<unsigned>> g{std::nullopt, 0u};
        std::visit(
            [&](const auto& q) {
                if constexpr (requires { q.group_size; })
                    if (q.group_size) g.push_back(static_cast<unsigned>(q.group_size));
            },
            p);
        vary([](StSchemeOptions& o, std::optional<unsigned> v) { o.group_size = v; }, g);
    }
    return out;
}

}  // namespace

std::optional<StWrite> st_scheme_writing(const QuantParams& params, std::uint64_t R, std::uint64_t C) {
    if (R == 0 || C == 0) return std::nullopt;
    for (const auto* row : st_scheme_rows()) {
        if (!row->writes(params)) continue;
        const StSchemeInfo info{row->takes_blocksize, row->takes_double_quant, row->takes_granularity, row->takes_ue8m0,
                                row->takes_group_size};
        for (const auto name : row->names)
            for (const auto& o : options_for(info, params)) {
                QuantParams s;
                try {
                    s = parse_st_scheme(name, o);
                } catch (const Error&) {
                    continue;  // options the scheme refuses
                }
                if (row->refuse_row && !row->refuse_row(s, C).empty()) continue;
                for (const DType w : {DType::BF16, DType::F16, DType::F32})
                    if (row->weight_params(s, R, C, w) == params) return StWrite{std::move(s), w};
            }
    }
    return std::nullopt;
}

std::string st_estimator(const StWrite& w, const std::string& rtn_description) {
    std::string s = "re-quantization with amn forget's encoder (" + st_scheme_label(w.scheme) + ", " +
                    dtype_name(w.wdtype) + " weight), ";
    const std::string rtn = "RTN re-quantization, ";
    if (rtn_description.starts_with(rtn)) return s + rtn_description.substr(rtn.size());
    return s + "decoded again";
}

std::optional<RoundTripError> measure_st_encoder(const LogicalTensor& t, const StWrite& w, std::string estimator,
                                                 const ProgressFn& progress, const std::atomic<bool>* cancel,
                                                 std::uint64_t chunk_elems) {
    const Recipe& r = *t.recipe;
    const std::uint64_t R = r.rows(), C = r.row_elems();
    auto enc = forget_st_internal::weight_encoder(w.scheme, R, C, w.wdtype);
    const std::uint64_t g = std::lcm(std::max<std::uint64_t>(1, enc->row_granularity()),
                                     std::max<std::uint64_t>(1, r.row_granularity()));
    const std::uint64_t step = std::max<std::uint64_t>(chunk_elems / C / g, 1) * g;
    const bool two = enc->needs_prepass();
    const std::uint64_t total = (two ? 2 : 1) * R;
    std::vector<float> x, rounded;
    // One pass over the rows; false when a value is not finite (forget refuses it).
    auto pass = [&](std::uint64_t done_before, auto&& f) {
        for (std::uint64_t row0 = 0; row0 < R; row0 += step) {
            if (cancel && cancel->load(std::memory_order_relaxed)) throw Error(ErrorCode::Cancelled, "measurement cancelled");
            const std::uint64_t n = std::min(step, R - row0);
            x.resize(n * C);
            r.dequantize_rows(row0, n, x.data());
            if (!std::all_of(x.begin(), x.end(), [](float v) { return std::isfinite(v); })) return false;
            // The values forget encodes: rounded to the weight dtype first (--requantize).
            rounded.resize(x.size());
            std::transform(x.begin(), x.end(), rounded.begin(),
                           [&](float v) { return w.wdtype == DType::F32 ? v : st::detail::round_to(w.wdtype, v); });
            f(row0, n);
            if (progress) progress({done_before + row0 + n, total});
        }
        return true;
    };
    enc->start();
    if (two) {
        if (!pass(0, [&](std::uint64_t row0, std::uint64_t n) { enc->prepass_f32(rounded.data(), row0, n); }))
            return std::nullopt;
        enc->finish_prepass();
    }
    forget_st_internal::QuantScratch scratch;
    const exec::SlotWriteFn put = [](std::size_t, std::uint64_t, std::span<const std::uint8_t>) {};
    LossSums sums;
    if (!pass(two ? R : 0, [&](std::uint64_t row0, std::uint64_t n) {
            scratch.reference = x.data();  // the loss against the dequantized values
            enc->encode_f32(rounded.data(), row0, n, scratch, put, sums);
        }))
        return std::nullopt;
    return round_trip_measured(std::move(estimator), sums);
}

}  // namespace amn::detail
