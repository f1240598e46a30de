// SPDX-License-Identifier: MIT OR Apache-2.0
// kernels::torch_neg_exp / torch_neg_exp_inverse (core/src/kernels/common/torch_exp.hpp) against Debian's
// python3-torch 1.13 itself: `-torch.exp(t)` of a contiguous float32 tensor, bit for bit, at 1 and 2 threads,
// over a sample of all float bit patterns, the special values and Mamba-like A_log values (log(1 … 16) plus
// noise, as tests/core/hf_arch_ssm.py makes them), in tensors of several lengths (whole 8-lane vectors and
// partial last ones, under and over torch's 2048 / 32768 parallel grains); and the way back: for every A the
// kernel gives, the inverse's A_log gives that A again under torch. Also shown: glibc's expf differs from
// torch on some of the Mamba-like values (else the byte-identical Mamba cases would prove nothing).
#include "anamnesis/error.hpp"
#include "kernels/common/torch_exp.hpp"
#include "test_support.hpp"

#include <QTemporaryDir>
#include <QtTest/QtTest>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

using namespace amn;

namespace {

std::uint32_t bits(float f) {
    std::uint32_t u;
    std::memcpy(&u, &f, 4);
    return u;
}

float from_bits(std::uint32_t u) {
    float f;
    std::memcpy(&f, &u, 4);
    return f;
}

std::vector<float> read_floats(const QString& path) {
    const auto b = test::read_file(path.toStdString());
    std::vector<float> v(b.size() / 4);
    std::memcpy(v.data(), b.data(), v.size() * 4);
    return v;
}

void write_floats(const QString& path, const std::vector<float>& v) {
    std::vector<std::uint8_t> b(v.size() * 4);
    std::memcpy(b.data(), v.data(), b.size());
    test::write_file(path.toStdString(), b);
}

// torch.exp on each length of `lengths` (consecutive slices of x.bin, each its own contiguous tensor), negated, at
// torch.set_num_threads(1) into t1.bin and (2) into t2.bin; and -torch.exp(inv.bin) into tinv.bin.
const char* kTorch = R"(
import sys, numpy as np, torch
d = sys.argv[1]
x = np.fromfile(d + "/x.bin", np.float32)
lengths = [int(s) for s in sys.argv[2].split(",")]
for threads, out in ((1, "t1.bin"), (2, "t2.bin")):
    torch.set_num_threads(threads)
    parts, at = [], 0
    for n in lengths:
        parts.append((-torch.exp(torch.from_numpy(x[at:at + n].copy()))).numpy())
        at += n
    np.concatenate(parts).tofile(d + "/" + out)
inv = np.fromfile(d + "/inv.bin", np.float32)
(-torch.exp(torch.from_numpy(inv))).numpy().tofile(d + "/tinv.bin")
print(torch.__version__, torch.__config__.show().count("CPU capability usage: AVX2"))
)";

}  // namespace

class TestTorchExp : public QObject {
    Q_OBJECT
private slots:
    void againstTorch() {
        if (!kernels::torch_exp_supported()) {
            std::vector<float> v{1.0f};
            QCOMPARE(test::error_code_of([&] { kernels::torch_neg_exp(v.data(), v.size()); }), ErrorCode::Unsupported);
            QSKIP("this CPU has no AVX2/FMA: the kernel refuses (checked), torch would take glibc's expf");
        }
        // Inputs: every 4099th bit pattern (all signs, NaNs, denormals, overflow and underflow), the special values,
        // and Mamba-like A_log values.
        std::vector<float> x;
        for (std::uint64_t u = 0; u < (std::uint64_t{1} << 32); u += 4099) x.push_back(from_bits(static_cast<std::uint32_t>(u)));
        for (float f : {0.0f, -0.0f, INFINITY, -INFINITY, NAN, 88.72f, 88.73f, -87.33f, -103.97f, -104.0f, 1e-30f})
            x.push_back(f);
        const std::size_t mamba_begin = x.size();
        std::mt19937 rng(32);
        std::normal_distribution<double> noise(0.0, 0.5);
        for (int i = 0; i < 40000; ++i) x.push_back(static_cast<float>(std::log(1.0 + i % 16) + noise(rng)));
        // Tensor lengths covering x: short ones (partial vectors), the 2048 and 32768 grains ± 1, the rest.
        std::vector<std::size_t> lengths;
        std::size_t at = 0;
        for (std::size_t n : {1, 7, 8, 9, 15, 16, 17, 31, 648, 676, 2047, 2049, 32767, 32769}) lengths.push_back(n), at += n;
        lengths.push_back(x.size() - at);

        std::vector<float> ours = x;
        kernels::torch_neg_exp(ours.data(), ours.size());
        // The way back of every finite non-positive A (the outputs -exp can give).
        std::vector<float> inv;
        std::size_t none = 0, not_log = 0, other_x = 0;
        for (std::size_t i = 0; i < ours.size(); ++i) {
            const float a = ours[i];
            if (std::isnan(a)) continue;
            const auto r = kernels::torch_neg_exp_inverse(a);
            if (!r) {
                ++none;
                continue;
            }
            inv.push_back(*r);
            not_log += bits(*r) != bits(static_cast<float>(std::log(-static_cast<double>(a))));
            if (i >= mamba_begin) other_x += bits(*r) != bits(x[i]);
        }
        QCOMPARE(none, std::size_t{0});

        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        write_floats(dir.path() + "/x.bin", x);
        write_floats(dir.path() + "/inv.bin", inv);
        QStringList lens;
        for (auto n : lengths) lens << QString::number(n);
        const auto r = test::run(QString::fromStdString(test::python()), {"-c", kTorch, dir.path(), lens.join(",")});
        QVERIFY2(r.exit_code == 0, qPrintable(r.err));
        QVERIFY2(r.out.startsWith("1.13") && r.out.trimmed().endsWith(" 1"), qPrintable("torch 1.13 at AVX2 expected: " + r.out));

        for (const char* f : {"/t1.bin", "/t2.bin"}) {
            const auto t = read_floats(dir.path() + f);
            QCOMPARE(t.size(), ours.size());
            std::size_t diff = 0, first = 0;
            for (std::size_t i = 0; i < t.size(); ++i)
                if (bits(t[i]) != bits(ours[i]) && !diff++) first = i;
            QVERIFY2(diff == 0, qPrintable(QString("%1: %2 values differ from torch, first x = %3 (bits %4)")
                                               .arg(f).arg(diff).arg(double(x[first]), 0, 'g', 9).arg(bits(x[first]), 8, 16)));
        }
        const auto tinv = read_floats(dir.path() + "/tinv.bin");
        QCOMPARE(tinv.size(), inv.size());
        std::size_t j = 0, back_diff = 0;
        for (float a : ours)
            if (!std::isnan(a)) back_diff += bits(tinv[j++]) != bits(a);
        QCOMPARE(back_diff, std::size_t{0});

        // glibc's expf (std::exp of a float) differs from torch's on some Mamba-like values.
        std::size_t glibc_diff = 0;
        for (std::size_t i = mamba_begin; i < x.size(); ++i) glibc_diff += bits(-std::exp(x[i])) != bits(ours[i]);
        QVERIFY(glibc_diff > 0);
        qInfo("%zu values; glibc's expf differs on %zu of the %zu Mamba-like ones; the way back: %zu A_log not log(-A) "
              "itself, %zu other than the original x (same A)",
              x.size(), glibc_diff, x.size() - mamba_begin, not_log, other_x);
    }

    void inverseRefusals() {
        if (!kernels::torch_exp_supported()) QSKIP("no AVX2/FMA");
        // A positive A is no output of -exp; nor is a value between two consecutive outputs (none of the 64
        // floats around log(-A) gives it): -exp(x) for x near 80 steps ~ 2^(80/ln 2 · 2^-17) apart.
        QVERIFY(!kernels::torch_neg_exp_inverse(1.0f));
        float a = 80.0f;
        kernels::torch_neg_exp(&a, 1);
        const float between = std::nextafter(a, -INFINITY);
        float next = std::nextafter(80.0f, INFINITY);
        kernels::torch_neg_exp(&next, 1);
        QVERIFY(bits(next) != bits(between));  // the next float's A skips it
        QVERIFY(!kernels::torch_neg_exp_inverse(between));
        QVERIFY(kernels::torch_neg_exp_inverse(a).has_value());
    }
};

QTEST_GUILESS_MAIN(TestTorchExp)
#include "test_torch_exp.moc"
