// SPDX-License-Identifier: MIT OR Apache-2.0
// Forget to bitsandbytes LLM.int8 (`bnb-int8`, transformers' `Linear8bitLt`):
// the scheme row and its encoder, row by row (one absmax per row).
#include "jobs/forget_st_rows.hpp"

#include <cmath>

namespace amn::forget_st_internal {
namespace {

using u64 = std::uint64_t;

class Int8Encoder final : public WeightEncoder {
public:
    using WeightEncoder::WeightEncoder;

    bool has_bf16_encode() const noexcept override { return bf16_direct(); }
    bool encode_bf16(const std::uint16_t* in, u64 row0, u64 nrows, QuantScratch& s, const exec::SlotWriteFn& put,
                     kernels::st::LossSums& loss) override {
        const u64 C = w_.C, n = nrows * C;
        s.q.resize(n);
        s.f.resize(nrows);
        for (u64 r = 0; r < nrows; ++r)
            if (!w_.k->int8_row_bf16(in + r * C, C, s.q.data() + r * C, &s.f[r])) return false;  // nothing written
        // A row whose F16 cast overflows (SCB = inf) dequantizes to NaN throughout.
        for (u64 r = 0; r < nrows; ++r)
            if (std::isinf(s.f[r])) loss.nonfinite += C;
        put(0, row0 * C, bytes_of(s.q));
        put(1, row0 * 4, bytes_of(s.f));
        return true;
    }

    void encode_f32(const float* x, u64 row0, u64 nrows, QuantScratch& s, const exec::SlotWriteFn& put, kernels::st::LossSums& loss) override {
        RoundTrip rt(w_, s, x, nrows, loss);
        const u64 C = w_.C, n = nrows * C;
        s.q.resize(n);
        s.f.resize(nrows);
        for (u64 r = 0; r < nrows; ++r) {
            w_.k->int8_row(x + r * C, C, s.q.data() + r * C, &s.f[r], rt.y());
            rt.row(r);
            // A row whose F16 cast overflows (SCB = inf) dequantizes to NaN throughout.
            if (!rt.on() && std::isinf(s.f[r])) loss.nonfinite += C;
        }
        put(0, row0 * C, bytes_of(s.q));
        put(1, row0 * 4, bytes_of(s.f));
    }

    u64 finish(const exec::SlotWriteFn& put, const exec::TailSetFn&) override {
        const std::uint8_t zero = 0;  // weight_format: row-major
        put(2, 0, {&zero, 1});
        return 0;
    }
};

bool writes(const QuantParams& s) {
    const auto* p = std::get_if<Int8Params>(&s);
    return p && p->scale_dtype == DType::F32;  // `SCB` is F32
}
QuantParams parse(std::string_view, const StSchemeOptions&) { return Int8Params{}; }
QuantParams weight_params(const QuantParams& s, u64, u64, DType) { return s; }
std::string label(const QuantParams&) { return "bnb-int8"; }

void config(const QuantParams&, JsonWriter& w) {
    w.key("quant_method").value("bitsandbytes");
    w.key("load_in_8bit").value(true);
    w.key("llm_int8_threshold").raw("6.0");
}

std::vector<OutSpec> outputs(const QuantParams&, const std::string& p, u64 R, u64 C, DType) {
    return {{p + "weight", DType::I8, {R, C}}, {p + "SCB", DType::F32, {R}}, {p + "weight_format", DType::U8, {}}};
}

std::unique_ptr<WeightEncoder> encoder(const QuantParams&, const QuantWeight& w) {
    return std::make_unique<Int8Encoder>(w);
}

}  // namespace

const StSchemeRow& bnb_int8_row() {
    static const StSchemeRow r = [] {
        StSchemeRow r;
        r.names = {"bnb-int8"};
        r.facts_family = "bnb-int8";
        r.bitsandbytes = true;
        r.writes = writes, r.parse = parse, r.weight_params = weight_params;
        r.label = label, r.output_tag = label, r.config = config, r.outputs = outputs;
        r.encoder = encoder;
        return r;
    }();
    return r;
}

}  // namespace amn::forget_st_internal
