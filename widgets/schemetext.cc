// SPDX-License-Identifier: MIT OR Apache-2.0
#include "schemetext.hpp"

#include "anamnesis/dtype.hpp"

#include <QLocale>

#include <type_traits>

namespace amn::ui {

namespace {

QString dtypeName(amn::DType d) { return QString::fromStdString(amn::dtype_name(d)); }
QString num(std::uint64_t v) { return QLocale().toString(static_cast<qulonglong>(v)); }

/// "E4M3" for the FP8 element formats (the short names the core uses).
QString fp8Format(amn::DType d) {
    switch (d) {
        case amn::DType::F8_E4M3: return QStringLiteral("E4M3");
        case amn::DType::F8_E5M2: return QStringLiteral("E5M2");
        case amn::DType::F8_E4M3FNUZ: return QStringLiteral("E4M3FNUZ");
        case amn::DType::F8_E5M2FNUZ: return QStringLiteral("E5M2FNUZ");
        default: return dtypeName(d);
    }
}

QString fp8Text(const amn::Fp8Params& p) {
    using G = amn::Fp8Granularity;
    const QString fmt = fp8Format(p.format), scale = dtypeName(p.scale_dtype);
    const QString blocks = SchemeText::tr("%1×%2 blocks").arg(num(p.block_rows), num(p.block_cols));
    switch (p.producer) {
        case amn::Fp8Producer::ModelOpt:
            return p.granularity == G::Channel ? SchemeText::tr("ModelOpt FP8 (%1), per-channel %2 scale applied in BF16").arg(fmt, scale)
                                               : SchemeText::tr("ModelOpt FP8 (%1), per-tensor %2 scale applied in BF16").arg(fmt, scale);
        case amn::Fp8Producer::CompressedTensors: {
            QString g;
            switch (p.granularity) {
                case G::Tensor: g = SchemeText::tr("per-tensor"); break;
                case G::Channel: g = SchemeText::tr("per-channel"); break;
                case G::Expert: g = SchemeText::tr("per-expert"); break;
                case G::Group: g = SchemeText::tr("group %1").arg(num(p.group_size)); break;
                case G::Block: g = blocks; break;
            }
            return SchemeText::tr("compressed-tensors W8A%1 (float-quantized), FP8 %2, %3, %4 scales")
                .arg(QString::number(p.activation_bits), fmt, g, scale);
        }
        case amn::Fp8Producer::Transformers: break;
    }
    QString g;
    switch (p.granularity) {
        case G::Tensor: g = SchemeText::tr("per-tensor scale"); break;
        case G::Channel: g = SchemeText::tr("per-channel scales"); break;
        case G::Expert: g = SchemeText::tr("per-expert scales"); break;
        case G::Group: g = SchemeText::tr("group %1 scales").arg(num(p.group_size)); break;
        case G::Block: g = blocks; break;
    }
    return p.ue8m0 && p.scale_dtype != amn::DType::F8_E8M0 ? SchemeText::tr("FP8 (%1), %2, %3 scales (powers of two, UE8M0)").arg(fmt, g, scale)
                   : SchemeText::tr("FP8 (%1), %2, %3 scales").arg(fmt, g, scale);
}

QString affineText(const amn::AffineParams& p) {
    const QString bits = QString::number(p.bits), scale = dtypeName(p.scale_dtype);
    if (amn::is_compressed_tensors(p.packing)) {
        const char* storage = p.packing == amn::AffinePacking::CtPackQuantized  ? "pack-quantized"
                              : p.packing == amn::AffinePacking::CtIntQuantized ? "int-quantized"
                                                                                 : "naive-quantized";
        const QString grid = p.per_tensor ? SchemeText::tr("per-tensor") : p.channelwise ? SchemeText::tr("per-channel") : SchemeText::tr("group %1").arg(num(p.group_size));
        const QString sym = p.zero_points != amn::ZeroPointForm::None ? SchemeText::tr("asymmetric") : SchemeText::tr("symmetric");
        QString s = SchemeText::tr("compressed-tensors W%1A%2 (%3), int%1 %4, %5")
                        .arg(bits, QString::number(p.activation_bits), QLatin1String(storage), sym, grid);
        if (p.act_order) s += SchemeText::tr(", act-order");
        return s + SchemeText::tr(", %1 scales").arg(scale);
    }
    if (p.packing == amn::AffinePacking::AwqGemm) {
        const QString grid = p.channelwise ? SchemeText::tr("per-channel (no groups)") : SchemeText::tr("group %1").arg(num(p.group_size));
        return SchemeText::tr("AWQ GEMM %1-bit, %2, zero points, %3 scales").arg(bits, grid, scale);
    }
    QString s = SchemeText::tr("GPTQ %1-bit").arg(bits);
    if (p.group_size == 0) s += SchemeText::tr(", %Ln group(s)", nullptr, static_cast<int>(p.groups));
    else if (p.channelwise) s += SchemeText::tr(", per-channel (no groups)");
    else s += SchemeText::tr(", group %1").arg(num(p.group_size));
    if (p.act_order) s += SchemeText::tr(", act-order");
    if (p.symmetric) s += *p.symmetric ? SchemeText::tr(", symmetric") : SchemeText::tr(", asymmetric");
    if (p.zero_points == amn::ZeroPointForm::Stored) s += SchemeText::tr(", gptq_v2 zero points");
    return s + SchemeText::tr(", %1 scales").arg(scale);
}

QString bnb4Text(const amn::Bnb4Params& p) {
    const QString type = p.type == amn::Bnb4Type::Fp4 ? QStringLiteral("FP4") : QStringLiteral("NF4");
    QString s = SchemeText::tr("bitsandbytes %1, blocksize %2").arg(type, num(p.blocksize));
    if (p.double_quant) s += SchemeText::tr(", double-quant (nested blocksize %1)").arg(num(p.nested_blocksize));
    if (!p.compute_dtype.empty()) s += SchemeText::tr(", compute %1").arg(QString::fromStdString(p.compute_dtype));
    return s;
}

QString ggmlText(const amn::GgmlParams& p) {
    const amn::DTypeInfo* info = amn::dtype_info(p.type);
    if (!info) return SchemeText::tr("GGUF %1").arg(dtypeName(p.type));
    return SchemeText::tr("GGUF %1 (%2-element blocks of %3 bytes, %4 bits per weight)")
        .arg(QString::fromLatin1(info->name.data(), static_cast<qsizetype>(info->name.size())), num(info->block_elems),
             num(info->block_bytes), QLocale().toString(amn::dtype_bits_per_element(p.type), 'g', 4));
}

QString onnxText(const amn::OnnxQuantParams& p) {
    // Operator names are ONNX's own words, not translated.
    static const char* const kOps[] = {"MatMulNBits", "GatherBlockQuantized", "DequantizeLinear", "MatMulInteger", "MatMulBnb4"};
    const QString op = QString::fromLatin1(kOps[static_cast<int>(p.op)]);
    if (p.op == amn::OnnxQuantOp::MatMulBnb4)
        return SchemeText::tr("ONNX %1, %2, block %3, %4 absmax").arg(op, p.nf4 ? QStringLiteral("NF4") : QStringLiteral("FP4"),
                                                                      num(p.block_size), dtypeName(p.scale_dtype));
    QString grid;
    switch (p.grid) {
        case amn::OnnxScaleGrid::Tensor: grid = SchemeText::tr("per-tensor"); break;
        case amn::OnnxScaleGrid::Axis: grid = SchemeText::tr("per axis %1").arg(p.axis); break;
        case amn::OnnxScaleGrid::Block: grid = SchemeText::tr("block %1").arg(num(p.block_size)); break;
    }
    const QString text = SchemeText::tr("ONNX %1, %2 %3-bit, %4, %5 scales")
                             .arg(op, QString::fromStdString(p.element), QString::number(p.bits), grid, dtypeName(p.scale_dtype));
    // g_idx: rows take their group from it (and onnxruntime leaves packed zero points unused).
    return p.act_order ? text + SchemeText::tr(", act order (g_idx)") : text;
}

QString fp4Text(const amn::Fp4Params& p) {
    const bool mx = p.format == amn::Fp4Format::Mxfp4;
    const QString fmt = mx ? QStringLiteral("MXFP4") : QStringLiteral("NVFP4");
    const QString blocks = SchemeText::tr("E2M1 with an %1 scale per %2")
                               .arg(p.scale_dtype == amn::DType::F8_E8M0 ? QStringLiteral("E8M0") : QStringLiteral("E4M3"), num(p.block_size));
    const bool global = p.global_scale != amn::Fp4GlobalScale::None;
    switch (p.producer) {
        case amn::Fp4Producer::CompressedTensors: {
            QString s = SchemeText::tr("compressed-tensors %1 W4A%2 (%3-pack-quantized), %4")
                            .arg(fmt, QString::number(p.activation_bits), mx ? QStringLiteral("mxfp4") : QStringLiteral("nvfp4"), blocks);
            if (global) s += SchemeText::tr(", %1 global scale").arg(dtypeName(p.global_dtype));
            return s;
        }
        case amn::Fp4Producer::ModelOpt:
            if (!global) return SchemeText::tr("ModelOpt %1, %2").arg(fmt, blocks);
            // (English: "a BF16", "an F32/F16")
            return p.global_dtype == amn::DType::BF16
                       ? SchemeText::tr("ModelOpt %1, %2 and a %3 second-level scale").arg(fmt, blocks, dtypeName(p.global_dtype))
                       : SchemeText::tr("ModelOpt %1, %2 and an %3 second-level scale").arg(fmt, blocks, dtypeName(p.global_dtype));
        case amn::Fp4Producer::GptOss: break;
    }
    return p.layout == amn::Fp4Layout::BlocksExperts ? SchemeText::tr("%1 (gpt-oss experts), %2, transformers' [E, in, out] layout").arg(fmt, blocks)
                                                     : SchemeText::tr("%1, %2").arg(fmt, blocks);
}

QString mlxText(const amn::MlxParams& p) {
    const QString g = QString::number(p.group_size);
    switch (p.mode) {
        case amn::MlxMode::Affine:
            return SchemeText::tr("MLX affine %1-bit, group %2, %3 scales and biases").arg(QString::number(p.bits), g, dtypeName(p.scale_dtype));
        case amn::MlxMode::Mxfp4: return SchemeText::tr("MLX MXFP4, E2M1 with an E8M0 scale per %1").arg(g);
        case amn::MlxMode::Nvfp4: return SchemeText::tr("MLX NVFP4, E2M1 with an E4M3 scale per %1").arg(g);
        case amn::MlxMode::Mxfp8: return SchemeText::tr("MLX MXFP8, E4M3 with an E8M0 scale per %1").arg(g);
    }
    return {};
}

}  // namespace

QString schemeText(const amn::QuantParams& params) {
    return std::visit(
        [](const auto& p) -> QString {
            using P = std::decay_t<decltype(p)>;
            if constexpr (std::is_same_v<P, amn::Fp8Params>) return fp8Text(p);
            else if constexpr (std::is_same_v<P, amn::AffineParams>) return affineText(p);
            else if constexpr (std::is_same_v<P, amn::Bnb4Params>) return bnb4Text(p);
            else if constexpr (std::is_same_v<P, amn::Int8Params>)
                return SchemeText::tr("bitsandbytes LLM.int8, row-wise %1 absmax (SCB)").arg(dtypeName(p.scale_dtype));
            else if constexpr (std::is_same_v<P, amn::GgmlParams>) return ggmlText(p);
            else if constexpr (std::is_same_v<P, amn::Fp4Params>) return fp4Text(p);
            else if constexpr (std::is_same_v<P, amn::MlxParams>) return mlxText(p);
            else if constexpr (std::is_same_v<P, amn::OnnxQuantParams>) return onnxText(p);
            else static_assert(!sizeof(P*), "a QuantParams alternative without words");
        },
        params);
}

QString schemeText(const amn::LogicalTensor& lt) {
    if (lt.params) return schemeText(*lt.params);
    if (lt.recipe) return QString::fromStdString(lt.recipe->describe());
    return {};
}

QString schemeUseText(const amn::Plan& plan, const amn::SchemeUse& use) {
    for (const auto& lt : plan.tensors)
        if (lt.quantized && lt.params && amn::scheme_id(*lt.params) == use.id) return schemeText(*lt.params);
    return QString::fromStdString(use.description);
}

namespace {

// Whether the input's own codes were repacked (MLX ↔ GGUF), or why not; empty for Repack::None.
QString repackText(const amn::ForgetTensor& t) {
    switch (t.repack) {
        case amn::Repack::None: return {};
        case amn::Repack::Lossless: return SchemeText::tr("lossless: the input's codes and scales repacked");
        case amn::Repack::OtherCodes:
            return SchemeText::tr("re-quantized: the input's codes are of another kind, width or group size");
        case amn::Repack::ScaleNotExact: return SchemeText::tr("re-quantized: a scale or bias of the input is not exact in F16");
        case amn::Repack::BiasNotSymmetric:
            return SchemeText::tr("re-quantized: the input's biases are not −2^(bits−1)·scale, as %1 has them").arg(dtypeName(t.target));
        case amn::Repack::NegativeScale: return SchemeText::tr("re-quantized: a negative E4M3 scale (GGUF's are unsigned)");
    }
    return {};
}

QString withRepack(QString s, const amn::ForgetTensor& t) {
    const QString r = repackText(t);
    return r.isEmpty() ? s : s + "; " + r;
}

}  // namespace

QString forgetReasonText(const amn::ForgetTensor& t, const QString& fileType) {
    const QString target = dtypeName(t.target);
    if (t.repack == amn::Repack::Lossless) return SchemeText::tr("lossless repack");
    if (!t.gguf_reason) return t.copied || t.target == t.source ? SchemeText::tr("kept") : SchemeText::tr("quantized");
    QString s;
    switch (t.gguf_reason->rule) {
        case amn::TypeRule::Kept: s = SchemeText::tr("not quantized, kept %1").arg(target); break;
        case amn::TypeRule::TokenEmbeddingType: s = SchemeText::tr("set by --token-embedding-type"); break;
        case amn::TypeRule::OutputTensorType: s = SchemeText::tr("set by --output-tensor-type"); break;
        case amn::TypeRule::TensorType: s = SchemeText::tr("set by --tensor-type"); break;
        case amn::TypeRule::FileTypeDefault: s = SchemeText::tr("%1 default").arg(fileType); break;
        case amn::TypeRule::FileTypeMix: s = SchemeText::tr("%1 mix rule").arg(fileType); break;
        case amn::TypeRule::Pure: s = SchemeText::tr("--pure: the file type's type"); break;
        case amn::TypeRule::FileType: s = SchemeText::tr("file type %1").arg(fileType); break;
        case amn::TypeRule::ConverterOuttype: s = SchemeText::tr("--outtype %1").arg(target); break;
        case amn::TypeRule::ConverterKept: s = SchemeText::tr("kept %1 by the converter's rules").arg(target); break;
        case amn::TypeRule::ConverterRepacked: s = SchemeText::tr("%1 repacked as it is stored").arg(target); break;
    }
    if (t.gguf_reason->fallback) s += SchemeText::tr("; fallback: the row does not fit the type's blocks");
    return s;
}

QString forgetReasonDetail(const amn::ForgetTensor& t, const QString& schemeLabel) {
    using amn::StRule;
    if (!t.st_rule) return withRepack(ggufReasonDetail(t), t);
    QString s;
    switch (*t.st_rule) {
        case StRule::Quantized: return withRepack(SchemeText::tr("quantized: %1").arg(schemeLabel), t);
        case StRule::KeptOneD: s = SchemeText::tr("kept: 1-D"); break;
        case StRule::KeptFusedExperts:
            s = SchemeText::tr("kept: fused 3-D experts (not nn.Linear weights: neither transformers' bitsandbytes nor "
                               "llm-compressor quantizes them)");
            break;
        case StRule::KeptNot2D: s = SchemeText::tr("kept: not 2-D"); break;
        case StRule::KeptNotWeight: s = SchemeText::tr("kept: not a weight"); break;
        case StRule::KeptEmpty: s = SchemeText::tr("kept: empty"); break;
        case StRule::KeptNotFloat: s = SchemeText::tr("kept: not float"); break;
        case StRule::KeptByKeep: s = SchemeText::tr("kept: --keep"); break;
        case StRule::KeptNotMatchedByOnly: s = SchemeText::tr("kept: not matched by --only"); break;
        case StRule::KeptConv1D: s = SchemeText::tr("kept: Conv1D (llm-compressor quantizes nn.Linear only)"); break;
        case StRule::KeptEmbedding: s = SchemeText::tr("kept: embedding"); break;
        case StRule::KeptNorm: s = SchemeText::tr("kept: norm"); break;
        case StRule::KeptLmHead: s = SchemeText::tr("kept: lm_head"); break;
        case StRule::KeptRouter: s = SchemeText::tr("kept: router"); break;
        case StRule::KeptNotBlockLinear: s = SchemeText::tr("kept: not a block Linear"); break;
        case StRule::KeptGroupSize: s = SchemeText::tr("kept: the group size does not divide its rows"); break;
    }
    if (!t.copied) s += SchemeText::tr(" (decoded to BF16)");
    return s;
}

QString convertReasonText(const amn::ForgetTensor& t, const QString& outtype) {
    const QString target = dtypeName(t.target);
    if (target == outtype) return SchemeText::tr("--outtype %1").arg(outtype);
    return SchemeText::tr("kept %1 by the converter's rules").arg(target);
}

QString hfGgufInfoText(const amn::HfGgufInfo& info) {
    if (!info.error.empty()) return SchemeText::tr("Cannot become a GGUF: %1").arg(QString::fromStdString(info.error));
    QString s = SchemeText::tr("%1 (%2), tokenizer %3 / %4, auto → %5")
                    .arg(QString::fromStdString(info.gguf_architecture), QString::fromStdString(info.hf_architecture),
                         QString::fromStdString(info.tokenizer_model), QString::fromStdString(info.tokenizer_pre),
                         QString::fromStdString(info.default_outtype));
    for (const auto& w : info.warnings) s += QLatin1Char('\n') + SchemeText::tr("Note: %1").arg(noticeText(w));
    return s;
}

QString roleText(amn::Role role) {
    switch (role) {
        case amn::Role::Quantized: return SchemeText::tr("quantized");
        case amn::Role::Companion: return SchemeText::tr("companion");
        case amn::Role::Passthrough: return SchemeText::tr("passthrough");
        case amn::Role::Unsupported: return SchemeText::tr("unsupported");
    }
    return QString::fromStdString(std::string(amn::role_name(role)));
}

QString unmeasurableText(const amn::LogicalTensor& lt) {
    if (lt.quantized && lt.params)
        return SchemeText::tr("not measurable yet for %1").arg(QString::fromStdString(amn::scheme_id(*lt.params)));
    if (!lt.recipe) return SchemeText::tr("not measurable: the tensor cannot be decoded");
    return SchemeText::tr("not quantized: nothing to measure");
}

QString unmeasurableText(const amn::RoundTripError& r, const amn::LogicalTensor& lt) {
    const QString scheme = QString::fromStdString(r.scheme);
    switch (r.reason) {
        case amn::RoundTripUnavailable::NotQuantized: return SchemeText::tr("not quantized");
        case amn::RoundTripUnavailable::NeedsImatrix:
            return SchemeText::tr("not measurable for %1: ggml quantizes it only with an importance matrix, which the file does not carry")
                .arg(scheme);
        case amn::RoundTripUnavailable::PartialBlocks:
            return SchemeText::tr("not measurable for %1: a row is not a whole number of blocks").arg(scheme);
        case amn::RoundTripUnavailable::NotYet:
        case amn::RoundTripUnavailable::None: break;
    }
    return unmeasurableText(lt);
}

}  // namespace amn::ui
