// SPDX-License-Identifier: MIT OR Apache-2.0
// Forget to bitsandbytes 4-bit (`bnb-nf4`, `bnb-fp4`, transformers'
// `Linear4bit`): the scheme row and its encoder. Blocks run over the
// flattened weight, across rows; with double quantization the absmax of every
// block is quantized again, from a first pass (measure_loss: the round trip
// needs the absmax a loader dequantizes) or after the chunks (after_pass()).
#include "jobs/forget_st_rows.hpp"

#include "anamnesis/error.hpp"
#include "exec/huge_floats.hpp"
#include "kernels/st/st_common.hpp"

#include <algorithm>
#include <numeric>

namespace amn::forget_st_internal {
namespace {

using u64 = std::uint64_t;

const char* type_name(Bnb4Type t) { return t == Bnb4Type::Nf4 ? "nf4" : "fp4"; }

class Bnb4Encoder final : public WeightEncoder {
public:
    Bnb4Encoder(const Bnb4Params& b, const QuantWeight& w) : WeightEncoder(w), b_(b) {
        bnb_.quant_map = kernels::st::bnb4_quant_map(b.type);
        cb_ = kernels::st::make_codebook4(bnb_.quant_map.data());
    }

    void start() override {
        const u64 blocks = (w_.R * w_.C + b_.blocksize - 1) / b_.blocksize;
        if (b_.double_quant && w_.measure_loss) bnb_.absmax.resize(blocks);  // filled by the first pass
        else if (b_.double_quant) absmax_raw_ = detail::HugeFloats(blocks);  // by the chunks; uninitialized
    }
    u64 row_granularity() const noexcept override { return b_.blocksize / std::gcd<u64>(w_.C, b_.blocksize); }
    // Double quantization needs every absmax first only for the round trip (the absmax a
    // loader dequantizes); without it the codes don't depend on it (after_pass()).
    bool needs_prepass() const noexcept override { return b_.double_quant && w_.measure_loss; }
    bool loss_flags_nonfinite() const noexcept override { return w_.measure_loss; }

    void prepass_f32(const float* x, u64 row0, u64 nrows) override {
        // The absmax the encoder stores: full blocks as they are, the last partial block clamped.
        const u64 n = nrows * w_.C, bs = b_.blocksize, block0 = row0 * w_.C / bs;
        float* am = bnb_.absmax.data() + block0;
        w_.k->absmax_blocks(x, n, bs, am);
        if (n % bs != 0) am[n / bs] = std::max(am[n / bs], 1e-38f);
    }
    bool has_bf16_prepass() const noexcept override { return w_.wdtype == DType::BF16 && b_.double_quant; }
    bool prepass_bf16(const std::uint16_t* in, u64 row0, u64 nrows) override {
        // As prepass(): the absmax the encoder stores, the last partial block clamped.
        const u64 n = nrows * w_.C, bs = b_.blocksize;
        float* am = bnb_.absmax.data() + row0 * w_.C / bs;
        if (!w_.k->bf16_absmax_blocks(in, n, bs, am)) return false;
        if (n % bs != 0) am[n / bs] = std::max(am[n / bs], 1e-38f);
        return true;
    }
    void finish_prepass() override {
        kernels::st::bnb4_double_quant(bnb_);
        am_deq_ = kernels::st::bnb4_absmax_dequant(bnb_);
        std::vector<float>().swap(bnb_.absmax);  // the codes, nested absmax and offset are what is stored
    }

    bool has_bf16_encode() const noexcept override { return bf16_direct(); }
    bool encode_bf16(const std::uint16_t* in, u64 row0, u64 nrows, QuantScratch& s, const exec::SlotWriteFn& put,
                     kernels::st::LossSums&) override {
        const u64 n = nrows * w_.C, bs = b_.blocksize, e0 = row0 * w_.C, block0 = e0 / bs;
        s.a.resize((n + 1) / 2);
        s.f.resize((n + bs - 1) / bs);
        // Double quant: the absmax straight into what after_pass() takes.
        float* am = b_.double_quant ? absmax_raw_.get() + block0 : s.f.data();
        if (!kernels::st::bnb4_run_bf16(*w_.k, in, n, bs, cb_, s.a.data(), am)) return false;  // nothing written
        put(0, e0 / 2, s.a);
        if (!b_.double_quant) put(1, block0 * 4, bytes_of(s.f));
        return true;
    }

    void encode_f32(const float* x, u64 row0, u64 nrows, QuantScratch& s, const exec::SlotWriteFn& put, kernels::st::LossSums& loss) override {
        RoundTrip rt(w_, s, x, nrows, loss);
        const bool ml = rt.on();
        const u64 n = nrows * w_.C, bs = b_.blocksize, e0 = row0 * w_.C, block0 = e0 / bs, nb = (n + bs - 1) / bs;
        s.a.resize((n + 1) / 2);
        s.f.resize(nb);
        // One call over the chunk, then the loss: measured faster than pieces of
        // 16–64 Ki values with the loss after each, and than the loss summed inside
        // the kernel (docs/benchmarks.md).
        rt.need(n);
        kernels::st::bnb4_run(*w_.k, x, n, bs, cb_, b_.double_quant && ml ? am_deq_.data() + block0 : nullptr, w_.wdtype,
                       s.a.data(), s.f.data(), rt.y());
        rt.flat(0, n);
        put(0, e0 / 2, s.a);
        if (!b_.double_quant) put(1, block0 * 4, bytes_of(s.f));
        else if (!ml) std::copy(s.f.begin(), s.f.end(), absmax_raw_.get() + block0);  // after_pass()
    }

    bool needs_after_pass() const noexcept override { return b_.double_quant && !w_.measure_loss; }
    void after_pass(const exec::SlotWriteFn& put) override {
        const u64 blocks = (w_.R * w_.C + b_.blocksize - 1) / b_.blocksize;
        kernels::st::bnb4_double_quant(bnb_, {absmax_raw_.get(), blocks});  // centered in place
        absmax_raw_.reset();  // the codes, nested absmax and offset are what is stored
        put(1, 0, bnb_.absmax_q);  // weight (the U8 codes), by this worker
        std::vector<std::uint8_t>().swap(bnb_.absmax_q);
    }

    u64 finish(const exec::SlotWriteFn& put, const exec::TailSetFn& tail) override {
        std::size_t j = 1;
        if (b_.double_quant && !needs_after_pass()) put(j, 0, bnb_.absmax_q);  // else after_pass() did
        ++j;
        put(j++, 0, bytes_of(bnb_.quant_map));
        if (b_.double_quant) {
            put(j++, 0, bytes_of(bnb_.nested_absmax));
            put(j++, 0, bytes_of(bnb_.nested_quant_map));
        }
        kernels::st::bnb4_quant_state(bnb_, b_.type, b_.blocksize, w_.wdtype, w_.R, w_.C, b_.double_quant);
        std::vector<float>().swap(am_deq_);
        const auto& js = bnb_.quant_state_json;
        tail(j, bytes_of(js.data(), js.size()));
        return js.size();
    }

private:
    Bnb4Params b_;
    kernels::st::Codebook4 cb_{};
    st::Bnb4Result bnb_;          // absmax of every block (double quant) and its results
    std::vector<float> am_deq_;   // double quant: the absmax a loader dequantizes
    // Double quant without the loss: every absmax as the chunks store them (not
    // zeroed first: its pages are faulted in by the workers), moved into bnb_ by after_pass().
    detail::HugeFloats absmax_raw_;
};

bool writes(const QuantParams& s) { return std::holds_alternative<Bnb4Params>(s); }

QuantParams parse(std::string_view name, const StSchemeOptions& o) {
    Bnb4Params b;
    b.type = name == "bnb-nf4" ? Bnb4Type::Nf4 : Bnb4Type::Fp4;
    b.blocksize = o.blocksize.value_or(64);
    b.double_quant = o.double_quant;
    b.nested_blocksize = b.double_quant ? 256 : 0;
    return b;
}

std::string refuse(const QuantParams& s) {
    const auto& b = std::get<Bnb4Params>(s);
    if (b.blocksize < 64 || b.blocksize > 4096 || (b.blocksize & (b.blocksize - 1)) != 0)
        return "--blocksize must be a power of two from 64 to 4096 (64 or 128 are usual), not " + std::to_string(b.blocksize);
    if (b.nested_blocksize != (b.double_quant ? 256u : 0u))
        return "bitsandbytes double quantization takes nested blocks of 256 absmax values, not " +
               std::to_string(b.nested_blocksize);
    return {};
}

// The quant_state `dtype` bitsandbytes records: the weight's torch dtype.
QuantParams weight_params(const QuantParams& s, u64, u64, DType wdtype) {
    Bnb4Params b = std::get<Bnb4Params>(s);
    b.compute_dtype = wdtype == DType::F16 ? "float16" : wdtype == DType::F32 ? "float32" : "bfloat16";
    return b;
}

std::string label(const QuantParams& s) {
    const auto& b = std::get<Bnb4Params>(s);
    return "bnb-" + std::string(type_name(b.type)) + " (blocksize " + std::to_string(b.blocksize) +
           (b.double_quant ? ", double quant)" : ")");
}

std::string output_tag(const QuantParams& s) { return "bnb-" + std::string(type_name(std::get<Bnb4Params>(s).type)); }

void config(const QuantParams& s, JsonWriter& w) {
    const auto& b = std::get<Bnb4Params>(s);
    w.key("quant_method").value("bitsandbytes");
    w.key("load_in_4bit").value(true);
    w.key("bnb_4bit_quant_type").value(type_name(b.type));
    w.key("bnb_4bit_use_double_quant").value(b.double_quant);
    w.key("bnb_4bit_quant_storage").value("uint8");
}

std::vector<OutSpec> outputs(const QuantParams& s, const std::string& p, u64 R, u64 C, DType) {
    const auto& b = std::get<Bnb4Params>(s);
    const u64 n = R * C, blocks = (n + b.blocksize - 1) / b.blocksize;
    std::vector<OutSpec> o;
    o.push_back({p + "weight", DType::U8, {(n + 1) / 2, 1}});
    o.push_back({p + "weight.absmax", b.double_quant ? DType::U8 : DType::F32, {blocks}});
    o.push_back({p + "weight.quant_map", DType::F32, {16}});
    if (b.double_quant) {
        o.push_back({p + "weight.nested_absmax", DType::F32, {(blocks + 255) / 256}});
        o.push_back({p + "weight.nested_quant_map", DType::F32, {256}});
    }
    o.push_back({p + "weight.quant_state.bitsandbytes__" + type_name(b.type), DType::U8, {}, true});
    return o;
}

std::unique_ptr<WeightEncoder> encoder(const QuantParams& s, const QuantWeight& w) {
    return std::make_unique<Bnb4Encoder>(std::get<Bnb4Params>(s), w);
}

}  // namespace

const StSchemeRow& bnb4_row() {
    static const StSchemeRow r = [] {
        StSchemeRow r;
        r.names = {"bnb-nf4", "bnb-fp4"};
        r.facts_family = "bnb4";
        r.takes_blocksize = r.takes_double_quant = true;
        r.bitsandbytes = true;
        r.writes = writes, r.parse = parse, r.refuse = refuse, r.weight_params = weight_params;
        r.label = label, r.output_tag = output_tag, r.config = config, r.outputs = outputs;
        r.encoder = encoder;
        return r;
    }();
    return r;
}

}  // namespace amn::forget_st_internal
