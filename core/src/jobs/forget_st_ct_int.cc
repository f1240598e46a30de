// SPDX-License-Identifier: MIT OR Apache-2.0
// Forget to compressed-tensors integer weights, `pack-quantized` (`w4a16`,
// `w4a16-asym`, `w8a16`, `w8a16-asym`; group 128 or channel): the scheme row
// and its encoder. Asymmetric zero points are kept for the whole weight
// and packed down dim 0 at the end.
#include "jobs/forget_st_rows.hpp"

#include "anamnesis/error.hpp"
#include "kernels/st/st_common.hpp"

#include <algorithm>

namespace amn::forget_st_internal {
namespace {

using u64 = std::uint64_t;

// What the scheme's AffineParams say for the writer: symmetric (no zero
// point) or not, and the columns per scale (0 = channel).
bool symmetric(const AffineParams& q) { return q.symmetric.value_or(true); }
u64 group_cols(const AffineParams& q) { return q.channelwise ? 0 : q.group_size; }

class CtIntEncoder final : public WeightEncoder {
public:
    CtIntEncoder(const AffineParams& p, const QuantWeight& w)
        : WeightEncoder(w), p_{p.bits, symmetric(p), group_cols(p)} {}

    void start() override {
        if (!p_.symmetric) zp_.resize(w_.R * groups());
    }

    bool has_bf16_encode() const noexcept override { return bf16_direct(); }
    bool encode_bf16(const std::uint16_t* in, u64 row0, u64 nrows, QuantScratch& s, const exec::SlotWriteFn& put,
                     kernels::st::LossSums&) override {
        // As encode(): the packed rows, the scales, the zero points kept for finish().
        const u64 C = w_.C, gs = p_.group_size ? p_.group_size : C, G = C / gs;
        const u64 words = (C * p_.bits + 31) / 32;
        s.f.resize(nrows * G);
        s.z.resize(nrows * G);
        s.b.resize(nrows * words * 4);
        if (!w_.k->ct_int_rows_bf16(in, nrows, C, gs, p_.bits, p_.symmetric, s.f.data(), s.z.data(),
                                    reinterpret_cast<std::int32_t*>(s.b.data())))
            return false;  // nothing written
        if (!p_.symmetric) std::copy(s.z.begin(), s.z.end(), zp_.begin() + std::ptrdiff_t(row0 * G));
        put(0, row0 * words * 4, s.b);
        put(1, row0 * G * w_.esize(), st::encode_floats(s.f, w_.wdtype));
        return true;
    }

    void encode_f32(const float* x, u64 row0, u64 nrows, QuantScratch& s, const exec::SlotWriteFn& put, kernels::st::LossSums& loss) override {
        const kernels::st::StKernels& k = *w_.k;
        RoundTrip rt(w_, s, x, nrows, loss);
        float* const y = rt.y();
        const u64 C = w_.C, n = nrows * C, gs = p_.group_size ? p_.group_size : C, G = C / gs;
        const u64 words = (C * p_.bits + 31) / 32;
        const float qmin = -float(1u << (p_.bits - 1)), qmax = float((1u << (p_.bits - 1)) - 1);
        s.q.resize(n);
        s.f.resize(nrows * G);
        // Per row: every group's min/max first, then the scales and zero points, then
        // the codes (no min/max → scale → codes chain in front of each group).
        s.mm.resize(2 * G);
        s.z.resize(G);
        for (u64 r = 0; r < nrows; ++r) {
            const float* xr = x + r * C;
            for (u64 g = 0; g < G; ++g) k.minmax(xr + g * gs, gs, &s.mm[2 * g], &s.mm[2 * g + 1]);
            for (u64 g = 0; g < G; ++g) {
                st::detail::ct_int_qparams(s.mm[2 * g], s.mm[2 * g + 1], p_.bits, p_.symmetric, w_.wdtype, s.f[r * G + g],
                                           s.z[g]);
                if (!p_.symmetric) zp_[(row0 + r) * G + g] = s.z[g];
            }
            for (u64 g = 0; g < G; ++g)
                k.int_encode(xr + g * gs, gs, s.f[r * G + g], float(s.z[g]), qmin, qmax, w_.wdtype,
                             s.q.data() + r * C + g * gs, y ? y + g * gs : nullptr);
            rt.row(r);
        }
        s.b.resize(nrows * words * 4);
        auto* packed = reinterpret_cast<std::int32_t*>(s.b.data());
        for (u64 r = 0; r < nrows; ++r) k.pack_int(s.q.data() + r * C, C, p_.bits, packed + r * words);
        put(0, row0 * words * 4, s.b);
        put(1, row0 * G * w_.esize(), st::encode_floats(s.f, w_.wdtype));
    }

    u64 finish(const exec::SlotWriteFn& put, const exec::TailSetFn&) override {
        std::size_t j = 2;
        if (!p_.symmetric) {
            // weight_zero_point: int8 [R, G] packed down dim 0 → [⌈R·bits/32⌉, G].
            const u64 G = groups(), zrows = (w_.R * p_.bits + 31) / 32;
            std::vector<std::int32_t> zpp(zrows * G);
            for (u64 g = 0; g < G; ++g) st::detail::pack_int32(zp_.data() + g, w_.R, G, p_.bits, zpp.data() + g, G);
            put(j++, 0, bytes_of(zpp));
        }
        const std::int64_t shape[2] = {std::int64_t(w_.R), std::int64_t(w_.C)};
        put(j, 0, bytes_of(shape, 2));
        return 0;
    }

private:
    u64 groups() const noexcept { return p_.group_size ? w_.C / p_.group_size : 1; }

    struct {
        unsigned bits;
        bool symmetric;
        u64 group_size;  // columns per scale; 0 = channel
    } p_;
    std::vector<std::int8_t> zp_;  // asymmetric: the zero points of every group
};

const char* base_name(const AffineParams& q) { return q.bits == 4 ? "w4a16" : "w8a16"; }

bool writes(const QuantParams& s) {
    const auto* q = std::get_if<AffineParams>(&s);
    return q && q->packing == AffinePacking::CtPackQuantized;
}

QuantParams parse(std::string_view name, const StSchemeOptions& o) {
    AffineParams q;
    q.packing = AffinePacking::CtPackQuantized;
    q.bits = name[1] == '4' ? 4 : 8;
    q.symmetric = !name.ends_with("-asym");
    q.zero_points = *q.symmetric ? ZeroPointForm::None : ZeroPointForm::Stored;
    q.group_size = o.group_size.value_or(128);
    q.channelwise = q.group_size == 0;
    q.scale_dtype = DType::BF16;  // the weight's, per weight
    return q;
}

std::string refuse(const QuantParams& s) {
    const auto& q = std::get<AffineParams>(s);
    if (q.bits != 4 && q.bits != 8) return "pack-quantized is written with 4 or 8 bits (w4a16, w8a16), not " + std::to_string(q.bits);
    if (!q.channelwise && (q.group_size == 0 || q.group_size % 8 != 0))
        return "--group-size must be a multiple of 8 or 'channel', not " + std::to_string(q.group_size);
    if (!q.symmetric) return "pack-quantized needs symmetric or not (w4a16 or w4a16-asym)";
    if (q.zero_points != (*q.symmetric ? ZeroPointForm::None : ZeroPointForm::Stored))
        return *q.symmetric ? "a symmetric pack-quantized weight stores no zero point"
                            : "an asymmetric pack-quantized weight stores its packed zero points";
    if (q.act_order || q.per_tensor) return "pack-quantized is written by group or channel, in storage order";
    return {};
}

QuantParams weight_params(const QuantParams& s, u64, u64 C, DType wdtype) {
    AffineParams q = std::get<AffineParams>(s);
    q.group_size = q.channelwise ? C : q.group_size;
    q.groups = C / q.group_size;
    q.scale_dtype = wdtype;
    return q;
}

std::string label(const QuantParams& s) {
    const auto& q = std::get<AffineParams>(s);
    return std::string(base_name(q)) + (symmetric(q) ? "" : "-asym") + " (" +
           (group_cols(q) ? "group " + std::to_string(q.group_size) : std::string("channel")) + ")";
}

std::string output_tag(const QuantParams& s) {
    const auto& q = std::get<AffineParams>(s);
    return std::string(base_name(q)) + (symmetric(q) ? "" : "-asym") + (group_cols(q) ? "" : "-ch");
}

void config(const QuantParams& s, JsonWriter& w) {
    const auto& q = std::get<AffineParams>(s);
    w.key("quant_method").value("compressed-tensors");
    w.key("format").value("pack-quantized");
    w.key("config_groups").begin_object().key("group_0").begin_object();
    w.key("targets").begin_array().value("Linear").end_array();
    w.key("weights").begin_object();
    w.key("num_bits").value(q.bits).key("type").value("int").key("symmetric").value(symmetric(q));
    w.key("strategy").value(group_cols(q) ? "group" : "channel");
    w.key("dynamic").value(false).key("observer").value("memoryless_minmax");
    if (group_cols(q)) w.key("group_size").value(q.group_size);
    w.end_object();
    w.end_object().end_object();
    w.key("quantization_status").value("compressed");
}

std::vector<OutSpec> outputs(const QuantParams& s, const std::string& p, u64 R, u64 C, DType wdtype) {
    const auto& q = std::get<AffineParams>(s);
    const u64 groups = group_cols(q) ? C / q.group_size : 1;
    std::vector<OutSpec> o;
    o.push_back({p + "weight_packed", DType::I32, {R, (C * q.bits + 31) / 32}});
    o.push_back({p + "weight_scale", wdtype, {R, groups}});
    if (!symmetric(q)) o.push_back({p + "weight_zero_point", DType::I32, {(R * q.bits + 31) / 32, groups}});
    o.push_back({p + "weight_shape", DType::I64, {2}});
    return o;
}

std::string refuse_row(const QuantParams& s, u64 C) {
    const auto& q = std::get<AffineParams>(s);
    if (!group_cols(q) || C % q.group_size == 0) return {};
    return "group size " + std::to_string(q.group_size) + " does not divide the row of " + std::to_string(C) +
           " columns (compressed-tensors refuses it): use --group-size channel, or --keep this tensor";
}

std::unique_ptr<WeightEncoder> encoder(const QuantParams& s, const QuantWeight& w) {
    return std::make_unique<CtIntEncoder>(std::get<AffineParams>(s), w);
}

}  // namespace

const StSchemeRow& ct_int_row() {
    static const StSchemeRow r = [] {
        StSchemeRow r;
        r.names = {"w4a16", "w4a16-asym", "w8a16", "w8a16-asym"};
        r.facts_family = "compressed-tensors";
        r.takes_group_size = true;
        r.lists_ignore = true;
        r.writes = writes, r.parse = parse, r.refuse = refuse, r.weight_params = weight_params;
        r.label = label, r.output_tag = output_tag, r.config = config, r.outputs = outputs;
        r.refuse_row = refuse_row;
        r.encoder = encoder;
        return r;
    }();
    return r;
}

}  // namespace amn::forget_st_internal
