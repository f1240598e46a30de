// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// Helpers for the widget suites: model files generated at test time and
// loading models synchronously.
#include "loadedmodel.hpp"

#include "test_support.hpp"

#include <QByteArray>
#include <QDir>
#include <QFile>
#include <QString>

#include <cstdint>
#include <string>
#include <vector>

namespace amn::test {

/// One tensor of a generated safetensors file; `bytes` filled by the writer
/// with a deterministic pattern when empty.
struct GenTensor {
    std::string name, dtype;
    std::vector<std::uint64_t> shape;
    std::uint64_t nbytes = 0;
};

/// Write a safetensors file (header + data, tensors in order). Data bytes are
/// a deterministic pattern that is a valid finite value for F8_E4M3 (no 0x7F/0xFF).
inline bool write_safetensors(const QString& path, const std::vector<GenTensor>& tensors,
                              const std::string& metadata_json = {}) {
    std::string h = "{";
    if (!metadata_json.empty()) h += "\"__metadata__\":" + metadata_json + ",";
    std::uint64_t off = 0;
    for (std::size_t i = 0; i < tensors.size(); ++i) {
        const auto& t = tensors[i];
        if (i) h += ",";
        h += "\"" + t.name + "\":{\"dtype\":\"" + t.dtype + "\",\"shape\":[";
        for (std::size_t k = 0; k < t.shape.size(); ++k) h += (k ? "," : "") + std::to_string(t.shape[k]);
        h += "],\"data_offsets\":[" + std::to_string(off) + "," + std::to_string(off + t.nbytes) + "]}";
        off += t.nbytes;
    }
    h += "}";
    while ((8 + h.size()) % 8) h += ' ';
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly)) return false;
    char len[8];
    for (int i = 0; i < 8; ++i) len[i] = static_cast<char>((h.size() >> (8 * i)) & 0xff);
    f.write(len, 8);
    f.write(h.data(), static_cast<qint64>(h.size()));
    QByteArray block(1 << 20, 0);
    std::uint32_t x = 12345;
    for (auto& c : block) {
        x = x * 1103515245u + 12345u;
        std::uint8_t b = static_cast<std::uint8_t>(x >> 16);
        if ((b & 0x7f) == 0x7f) b &= 0xfe;  // never an E4M3 NaN
        c = static_cast<char>(b);
    }
    for (const auto& t : tensors) {
        std::uint64_t left = t.nbytes;
        if (t.dtype == "F32" && t.nbytes == 4) {  // scales: 1.0f
            const float one = 1.0f;
            f.write(reinterpret_cast<const char*>(&one), 4);
            continue;
        }
        if (t.dtype == "BF16") {  // BF16 scales/values: 1.0
            for (std::uint64_t k = 0; k < t.nbytes / 2; ++k) f.write("\x80\x3f", 2);
            continue;
        }
        while (left) {
            const auto n = std::min<std::uint64_t>(left, static_cast<std::uint64_t>(block.size()));
            f.write(block.constData(), static_cast<qint64>(n));
            left -= n;
        }
    }
    return f.error() == QFile::NoError;
}

/// An FP8 model of `count` per-tensor-scaled [rows, cols] weights
/// (F8_E4M3 + F32 scalar weight_scale), with a config.json naming fp8.
inline bool write_big_fp8_model(const QString& dir, int count, std::uint64_t rows, std::uint64_t cols) {
    std::vector<GenTensor> ts;
    for (int i = 0; i < count; ++i) {
        const std::string base = "model.layers." + std::to_string(i) + ".mlp.down_proj.";
        ts.push_back({base + "weight", "F8_E4M3", {rows, cols}, rows * cols});
        ts.push_back({base + "weight_scale", "F32", {}, 4});
    }
    QFile cfg(dir + "/config.json");
    if (!cfg.open(QIODevice::WriteOnly)) return false;
    cfg.write(R"({"quantization_config": {"quant_method": "fp8", "activation_scheme": "dynamic"}})");
    cfg.close();
    return write_safetensors(dir + "/model.safetensors", ts);
}

/// A reference case with an expected.safetensors: every kind (fp8, gptq,
/// awq, bnb, gguf, npz, pth, ollama). `input` is input/ when it holds a
/// model.safetensors (so config.json is read), else the model file in it.
struct ReferenceCase {
    QString name;      ///< "<kind>/<case>"
    QString input;
    QString expected;  ///< expected.safetensors
};
inline QList<ReferenceCase> reference_cases_with_expected() {
    QList<ReferenceCase> out;
    const QString ref = QString::fromStdString(reference_dir());
    if (ref.isEmpty()) return out;
    const QDir root(ref);
    for (const QString& kind : root.entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name)) {
        for (const QString& c : QDir(root.filePath(kind)).entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name)) {
            const QDir dir(root.filePath(kind + "/" + c));
            if (!dir.exists("expected.safetensors") || !dir.exists("input")) continue;
            const QDir in(dir.filePath("input"));
            QString input;
            if (in.exists("model.safetensors")) {
                input = in.path();
            } else {
                for (const QString& f : in.entryList(QDir::Files, QDir::Name))
                    if (!f.endsWith(".json")) input = in.filePath(f);
            }
            if (input.isEmpty()) continue;
            out.push_back({kind + "/" + c, input, dir.filePath("expected.safetensors")});
        }
    }
    return out;
}

/// Why the core cannot convert `m` yet ("" when it can): an open/plan error
/// is caught by the caller; this reports logical tensors with errors.
inline QString unsupported_reason(const amn::ui::LoadedModel& m) {
    for (const auto& lt : m.plan.tensors)
        if (!lt.error.empty()) return QString::fromStdString(lt.name + ": " + lt.error.message());
    return {};
}

}  // namespace amn::test

/// In a `*_data()` slot: columns "input" and "expected", one row per
/// reference case with an expected.safetensors (skip, or fail when
/// AMN_REQUIRE_REFERENCE=1, without reference data).
#define AMN_REFERENCE_CASE_ROWS()                                                                   \
    do {                                                                                            \
        QTest::addColumn<QString>("input");                                                         \
        QTest::addColumn<QString>("expected");                                                      \
        const auto cases_ = ::amn::test::reference_cases_with_expected();                           \
        if (cases_.isEmpty()) {                                                                     \
            if (::amn::test::reference_required()) QFAIL("reference fixtures missing and AMN_REQUIRE_REFERENCE=1"); \
            QSKIP("reference fixtures not found");                                                  \
        }                                                                                           \
        for (const auto& c_ : cases_) QTest::newRow(qPrintable(c_.name)) << c_.input << c_.expected; \
    } while (0)

/// Load `input` into `model` (a ModelPtr), skipping the row when the core
/// cannot open or convert the case.
#define AMN_LOAD_REFERENCE_CASE(model, input)                                                       \
    do {                                                                                            \
        try {                                                                                       \
            model = loadModel(input);                                                               \
        } catch (const amn::Error& e_) {                                                            \
            QSKIP(qPrintable("the core does not open this case yet: " + QString::fromStdString(e_.what()))); \
        }                                                                                           \
        const QString why_ = ::amn::test::unsupported_reason(*model);                               \
        if (!why_.isEmpty()) QSKIP(qPrintable("the core does not convert this case yet: " + why_));  \
    } while (0)

