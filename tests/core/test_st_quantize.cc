// SPDX-License-Identifier: MIT OR Apache-2.0
// Safetensors-family quantizers (st_quantize.hpp) against the canonical
// Python libraries: for every scheme file × input of the shared fixtures
// quantize-ref-st/ (bitsandbytes NF4/FP4/INT8, compressed-tensors FP8 and
// INT4/INT8, DeepSeek block FP8), every stored tensor must come out byte for
// byte from NAME.input, the bitsandbytes quant_state JSON included.
#include "anamnesis/error.hpp"
#include "anamnesis/kernels.hpp"
#include "anamnesis/st_quantize.hpp"
#include "kernels/st/st_common.hpp"
#include "test_support.hpp"

#include <QtTest/QtTest>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

using namespace amn;

namespace {

const char* const kSchemes[] = {
    "bnb-nf4-b64", "bnb-nf4-b64-dq", "bnb-nf4-b128", "bnb-nf4-b128-dq", "bnb-fp4-b64", "bnb-fp4-b64-dq",
    "bnb-fp4-b128", "bnb-fp4-b128-dq", "bnb-int8", "ct-fp8-tensor", "ct-fp8-channel", "ct-fp8-block",
    "ds-fp8-block", "ds-fp8-block-ue8m0", "ct-w4-sym-g128", "ct-w4-asym-g128", "ct-w4-sym-channel",
    "ct-w4-asym-channel", "ct-w8-sym-g128", "ct-w8-asym-g128", "ct-w8-sym-channel", "ct-w8-asym-channel",
};
const char* const kInputs[] = {"gaussian", "gaussian_bf16", "attn_q", "awkward", "awkward_bf16", "subnormal", "tail_bf16"};

std::string dir() { return test::shared_fixtures_dir() + "/quantize-ref-st/"; }

// Files are read once per process.
const test::RawSafetensors& file(const std::string& name) {
    static std::map<std::string, test::RawSafetensors> cache;
    auto it = cache.find(name);
    if (it == cache.end()) {
        auto st = test::read_safetensors_raw(dir() + name + ".safetensors");
        it = cache.emplace(name, st ? std::move(*st) : test::RawSafetensors{}).first;
    }
    return it->second;
}

template <typename T>
std::vector<std::uint8_t> bytes_of(const std::vector<T>& v) {
    std::vector<std::uint8_t> b(v.size() * sizeof(T));
    if (!v.empty()) std::memcpy(b.data(), v.data(), b.size());
    return b;
}

std::string hex(const std::uint8_t* p, std::size_t n) {
    std::string s;
    char buf[4];
    for (std::size_t i = n; i-- > 0;) {  // little-endian element → big-endian hex
        std::snprintf(buf, sizeof buf, "%02x", p[i]);
        s += buf;
    }
    return s;
}

std::size_t elem_size(const std::string& dtype) {
    if (dtype == "F32" || dtype == "I32") return 4;
    if (dtype == "BF16" || dtype == "F16") return 2;
    if (dtype == "I64") return 8;
    return 1;
}

/// Empty when `got` (with `shape`, `dtype`) equals the stored tensor; else
/// a description of the first difference.
std::string compare(const std::string& what, const test::RawTensor& want, const std::string& dtype,
                    const std::vector<std::uint64_t>& shape, const std::vector<std::uint8_t>& got) {
    if (want.dtype != dtype) return what + ": dtype " + dtype + ", stored " + want.dtype;
    if (want.shape != shape) {
        std::string a, b;
        for (auto d : shape) a += std::to_string(d) + ",";
        for (auto d : want.shape) b += std::to_string(d) + ",";
        return what + ": shape [" + a + "], stored [" + b + "]";
    }
    if (got.size() != want.bytes.size())
        return what + ": " + std::to_string(got.size()) + " bytes, stored " + std::to_string(want.bytes.size());
    const std::size_t es = elem_size(dtype);
    std::size_t ndiff = 0, first = 0;
    for (std::size_t i = 0; i < got.size(); i += es)
        if (std::memcmp(got.data() + i, want.bytes.data() + i, es) != 0) {
            if (ndiff++ == 0) first = i / es;
        }
    if (ndiff == 0) return {};
    return what + ": " + std::to_string(ndiff) + " of " + std::to_string(got.size() / es) +
           " elements differ, first at " + std::to_string(first) + ": got 0x" + hex(got.data() + first * es, es) +
           ", stored 0x" + hex(want.bytes.data() + first * es, es);
}

std::vector<std::uint8_t> u8(const std::string& s) { return {s.begin(), s.end()}; }

}  // namespace

class TestStQuantize : public QObject {
    Q_OBJECT
private slots:
    void reference_data();
    void reference();
    void helpers();
    void errors();
};

void TestStQuantize::reference_data() {
    QTest::addColumn<QString>("scheme");
    QTest::addColumn<QString>("input");
    for (const char* s : kSchemes)
        for (const char* in : kInputs)
            QTest::newRow((std::string(s) + "/" + in).c_str()) << QString(s) << QString(in);
}

void TestStQuantize::reference() {
    AMN_REQUIRE_REFERENCE_DIR(ref);
    QFETCH(QString, scheme);
    QFETCH(QString, input);
    const std::string sch = scheme.toStdString(), name = input.toStdString();
    const auto& inputs = file("inputs");
    const auto& out = file(sch);
    QVERIFY2(!inputs.tensors.empty() && !out.tensors.empty(), ("cannot read " + dir()).c_str());

    const test::RawTensor& in = inputs.tensors.at(name + ".input");
    QCOMPARE(in.shape.size(), std::size_t(2));
    const DType wdtype = in.dtype == "BF16" ? DType::BF16 : DType::F32;
    std::vector<float> w(in.shape[0] * in.shape[1]);
    if (wdtype == DType::F32) {
        QCOMPARE(in.bytes.size(), w.size() * 4);
        std::memcpy(w.data(), in.bytes.data(), in.bytes.size());
    } else {
        QCOMPARE(in.bytes.size(), w.size() * 2);
        std::vector<std::uint16_t> h(w.size());
        std::memcpy(h.data(), in.bytes.data(), in.bytes.size());
        kernels::scalar::bf16_to_f32(h.data(), w.data(), w.size());
    }
    const std::vector<std::uint64_t> shape = in.shape;
    const std::uint64_t R = shape[0], C = shape[1];
    const std::string wname = wdtype == DType::BF16 ? "BF16" : "F32";

    // (tensor suffix, dtype, shape, bytes) of every stored tensor we produce.
    struct Out {
        std::string suffix, dtype;
        std::vector<std::uint64_t> shape;
        std::vector<std::uint8_t> bytes;
    };
    std::vector<Out> outs;

    const bool stored = out.tensors.count(name + ".dequant") != 0;
    try {
        if (sch.rfind("bnb-int8", 0) == 0) {
            const auto r = st::quantize_bnb_int8(w, shape, wdtype);
            outs.push_back({"weight", "I8", {R, C}, bytes_of(r.q)});
            outs.push_back({"SCB", "F32", {R}, bytes_of(r.scb)});
            outs.push_back({"weight_format", "U8", {}, {0}});
        } else if (sch.rfind("bnb-", 0) == 0) {
            const bool fp4 = sch.find("fp4") != std::string::npos;
            const unsigned bs = sch.find("b128") != std::string::npos ? 128 : 64;
            const bool dq = sch.ends_with("-dq");
            const auto r = st::quantize_bnb4(w, shape, wdtype, fp4 ? Bnb4Type::Fp4 : Bnb4Type::Nf4, bs, dq);
            const std::uint64_t blocks = r.absmax.size();
            outs.push_back({"weight", "U8", {r.packed.size(), 1}, r.packed});
            outs.push_back({"weight.quant_map", "F32", {16}, bytes_of(r.quant_map)});
            outs.push_back({"weight." + r.quant_state_suffix, "U8", {r.quant_state_json.size()}, u8(r.quant_state_json)});
            if (dq) {
                outs.push_back({"weight.absmax", "U8", {blocks}, r.absmax_q});
                outs.push_back({"weight.nested_absmax", "F32", {r.nested_absmax.size()}, bytes_of(r.nested_absmax)});
                outs.push_back({"weight.nested_quant_map", "F32", {256}, bytes_of(r.nested_quant_map)});
            } else {
                outs.push_back({"weight.absmax", "F32", {blocks}, bytes_of(r.absmax)});
            }
        } else if (sch.rfind("ct-fp8-", 0) == 0 || sch.rfind("ds-fp8-", 0) == 0) {
            st::Fp8Result r;
            if (sch[0] == 'd') {
                r = st::quantize_fp8_deepseek(w, shape, wdtype, sch.ends_with("ue8m0"));
            } else {
                const auto g = sch.ends_with("tensor")    ? Fp8Granularity::Tensor
                               : sch.ends_with("channel") ? Fp8Granularity::Channel
                                                          : Fp8Granularity::Block;
                r = st::quantize_fp8_ct(w, shape, wdtype, g);
            }
            outs.push_back({"weight", "F8_E4M3", {R, C}, r.q});
            const std::string sdt = r.scale_dtype == DType::BF16 ? "BF16" : "F32";
            outs.push_back({sch[0] == 'd' ? "weight_scale_inv" : "weight_scale", sdt, r.scale_shape,
                            st::encode_floats(r.scale, r.scale_dtype)});
        } else {
            const unsigned bits = sch[4] == '4' ? 4 : 8;
            const bool sym = sch.find("-sym-") != std::string::npos;
            const unsigned gs = sch.ends_with("g128") ? 128 : 0;
            const auto r = st::quantize_ct_int(w, shape, wdtype, bits, sym, gs);
            outs.push_back({"weight_packed", "I32", {R, r.packed_cols}, bytes_of(r.packed)});
            const std::string sdt = r.scale_dtype == DType::BF16 ? "BF16" : "F32";
            outs.push_back({"weight_scale", sdt, r.scale_shape, st::encode_floats(r.scale, r.scale_dtype)});
            outs.push_back({"weight_shape", "I64", {2}, bytes_of(r.weight_shape)});
            if (!sym)
                outs.push_back({"weight_zero_point", "I32", r.zero_point_packed_shape, bytes_of(r.zero_point_packed)});
        }
    } catch (const Error& e) {
        if (!stored && e.code() == ErrorCode::Usage) return;  // e.g. group 128 on 201 columns: the library raises too
        QFAIL((std::string("threw: ") + e.what()).c_str());
    }
    QVERIFY2(stored, ("the reference has no " + name + " in " + sch + " but the quantizer accepted it").c_str());

    // Every stored tensor of NAME (but the dequant) must be produced, and equal.
    std::size_t expected = 0;
    for (const auto& [k, t] : out.tensors)
        if (k.rfind(name + ".", 0) == 0 && k != name + ".dequant") ++expected;
    QCOMPARE(outs.size(), expected);
    std::string failures;
    for (const auto& o : outs) {
        const auto it = out.tensors.find(name + "." + o.suffix);
        if (it == out.tensors.end()) {
            failures += name + "." + o.suffix + ": not in the reference\n";
            continue;
        }
        const std::string f = compare(name + "." + o.suffix, it->second, o.dtype, o.shape, o.bytes);
        if (!f.empty()) failures += f + "\n";
    }
    if (qEnvironmentVariableIsSet("AMN_ST_VERBOSE")) qInfo("%s/%s: %zu tensors compared", sch.c_str(), name.c_str(), outs.size());
    QVERIFY2(failures.empty(), failures.c_str());
}

void TestStQuantize::helpers() {
    // Python repr of floats.
    QCOMPARE(st::python_float_repr(double(2.594409942626953)), std::string("2.594409942626953"));
    QCOMPARE(st::python_float_repr(1.0), std::string("1.0"));
    QCOMPARE(st::python_float_repr(0.0), std::string("0.0"));
    QCOMPARE(st::python_float_repr(0.0001), std::string("0.0001"));
    QCOMPARE(st::python_float_repr(1e-5), std::string("1e-05"));
    QCOMPARE(st::python_float_repr(-1.5e-7), std::string("-1.5e-07"));
    QCOMPARE(st::python_float_repr(1e16), std::string("1e+16"));
    QCOMPARE(st::python_float_repr(1234567890123456.0), std::string("1234567890123456.0"));
    QCOMPARE(st::python_float_repr(double(0.1f)), std::string("0.10000000149011612"));
    QCOMPARE(st::python_float_repr(123.25), std::string("123.25"));
    // E4M3FN edges.
    QCOMPARE(int(st::e4m3fn_from_f32(448.0f)), 0x7E);
    QCOMPARE(int(st::e4m3fn_from_f32(464.0f)), 0x7E);
    QCOMPARE(int(st::e4m3fn_from_f32(std::nextafter(464.0f, 1000.0f))), 0x7F);
    QCOMPARE(int(st::e4m3fn_from_f32(-std::numeric_limits<float>::infinity())), 0xFF);
    QCOMPARE(int(st::e4m3fn_from_f32(std::numeric_limits<float>::quiet_NaN())), 0x7F);
    QCOMPARE(int(st::e4m3fn_from_f32(-0.0f)), 0x80);
    QCOMPARE(int(st::e4m3fn_from_f32(0x1p-9f)), 0x01);
    QCOMPARE(int(st::e4m3fn_from_f32(0x1p-10f)), 0x00);                         // tie → even (0)
    QCOMPARE(int(st::e4m3fn_from_f32(0x3p-10f)), 0x02);                         // 1.5 ulp → 2
    QCOMPARE(int(st::e4m3fn_from_f32(0x1.ep-7f)), 0x08);                        // 7.5·2^-9 rounds to 2^-6
    QCOMPARE(int(st::e4m3fn_from_f32(1.0625f)), 0x38);                          // tie → even
    QCOMPARE(int(st::e4m3fn_from_f32(1.1875f)), 0x3A);                          // tie → even (up)
    // Every E4M3FN value round-trips, and the midpoints round to even.
    for (int c = 0; c < 0x7F; ++c) {
        for (int s : {0, 0x80}) {
            const float v = kernels::scalar::fp8_value(DType::F8_E4M3, std::uint8_t(c | s));
            QCOMPARE(int(st::e4m3fn_from_f32(v)), c | s);
        }
    }
    // Against an independent nearest-value encoder on ~1M spread f32 patterns
    // (the reference checked all 2^32): nearest magnitude, ties to the even
    // code, (448, 464] → 448, beyond 464 / inf / NaN → 0x7F | sign.
    std::vector<double> mags(0x7F);
    for (int c = 0; c < 0x7F; ++c) mags[std::size_t(c)] = kernels::scalar::fp8_value(DType::F8_E4M3, std::uint8_t(c));
    for (std::uint64_t u = 0; u <= 0xFFFFFFFFull; u += 4099) {
        float x;
        const std::uint32_t b = std::uint32_t(u);
        std::memcpy(&x, &b, 4);
        const int sign = (b >> 31) ? 0x80 : 0;
        const double a = std::fabs(double(x));
        int want;
        if (std::isnan(x) || a > 464.0) {
            want = 0x7F;
        } else {
            const auto it = std::lower_bound(mags.begin(), mags.end(), a);
            int hi = int(it - mags.begin());
            if (hi > 0x7E) hi = 0x7E;
            const int lo = hi > 0 ? hi - 1 : 0;
            const double dl = a - mags[std::size_t(lo)], dh = mags[std::size_t(hi)] - a;
            want = dl < dh ? lo : dh < dl ? hi : (lo % 2 == 0 ? lo : hi);
            if (a >= mags[0x7E]) want = 0x7E;
        }
        if (int(st::e4m3fn_from_f32(x)) != (want | sign)) {
            const std::string m = "E4M3FN of bits " + std::to_string(b) + ": got " +
                                  std::to_string(st::e4m3fn_from_f32(x)) + ", want " + std::to_string(want | sign);
            QFAIL(m.c_str());
        }
    }
    // F16 weight, odd element count, a lone all-zero partial block.
    const auto b = st::quantize_bnb4(std::vector<float>(9, 0.0f), {3, 3}, DType::F16, Bnb4Type::Nf4, 64, false);
    QCOMPARE(b.quant_state_json,
             std::string(R"({"quant_type": "nf4", "blocksize": 64, "dtype": "float16", "shape": [3, 3]})"));
    QCOMPARE(b.packed, (std::vector<std::uint8_t>{0x77, 0x77, 0x77, 0x77, 0x77}));
    QCOMPARE(b.absmax, std::vector<float>{1e-38f});
    const auto f = st::quantize_fp8_ct(std::vector<float>{0.0f, -0.0f, 0.5f, -1.0f}, {2, 2}, DType::F16,
                                       Fp8Granularity::Channel);
    QCOMPARE(f.q, (std::vector<std::uint8_t>{0x00, 0x00, 0x76, 0xFE}));  // −0.0 → +0 (zero point added)
    QCOMPARE(f.scale, (std::vector<float>{0x1p-10f, kernels::scalar::f32_from_f16(kernels::scalar::f16_from_f32(1.0f / 448.0f))}));
    // torch's cascade sum: small cases are plain sums.
    const std::vector<float> ones(1000, 1.0f);
    QCOMPARE(st::torch_cpu_sum_f32(ones), 1000.0f);
    QCOMPARE(st::torch_cpu_sum_f32(std::vector<float>{1.0f, 2.0f, 3.0f}), 6.0f);
}

void TestStQuantize::errors() {
    const std::vector<float> w(8 * 200, 0.5f);
    const std::vector<std::uint64_t> shape{8, 200};
    auto code_of = [](auto&& f) {
        try {
            f();
        } catch (const Error& e) {
            return int(e.code());
        }
        return -1;
    };
    QCOMPARE(code_of([&] { st::quantize_ct_int(w, shape, DType::F32, 4, true, 128); }), int(ErrorCode::Usage));
    QCOMPARE(code_of([&] { st::quantize_ct_int(w, shape, DType::F32, 3, true, 0); }), int(ErrorCode::Usage));
    QCOMPARE(code_of([&] { st::quantize_bnb4(w, shape, DType::F32, Bnb4Type::Nf4, 100, false); }),
             int(ErrorCode::Usage));
    QCOMPARE(code_of([&] { st::quantize_fp8_ct(w, {8, 100}, DType::F32, Fp8Granularity::Tensor); }),
             int(ErrorCode::Usage));
    QCOMPARE(code_of([&] { st::quantize_fp8_ct(w, shape, DType::I8, Fp8Granularity::Tensor); }),
             int(ErrorCode::Usage));
    std::vector<float> bad = w;
    bad[77] = std::numeric_limits<float>::quiet_NaN();
    QCOMPARE(code_of([&] { st::quantize_bnb_int8(bad, shape, DType::F32); }), int(ErrorCode::Unsupported));
    bad[77] = std::numeric_limits<float>::infinity();
    QCOMPARE(code_of([&] { st::quantize_fp8_deepseek(bad, shape, DType::F32, false); }), int(ErrorCode::Unsupported));
    bad[77] = 0.1f;  // not a BF16 value
    QCOMPARE(code_of([&] { st::quantize_ct_int(bad, shape, DType::BF16, 8, false, 0); }), int(ErrorCode::Usage));
}

QTEST_GUILESS_MAIN(TestStQuantize)
#include "test_st_quantize.moc"
