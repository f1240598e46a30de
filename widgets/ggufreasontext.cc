// SPDX-License-Identifier: MIT OR Apache-2.0
// schemetext.hpp: the GGUF facts of a forget or convert run worded —
// why a tensor got its type (amn::GgufTypeReason) and the run's warnings
// (amn::GgufWarning), translated (context "amn::ui::SchemeText").
#include "schemetext.hpp"

#include "anamnesis/dtype.hpp"
#include "anamnesis/gguf_ftype.hpp"

#include <QLocale>

#include <algorithm>
#include <limits>

namespace amn::ui {

namespace {

QString dtypeName(amn::DType d) { return QString::fromStdString(amn::dtype_name(d)); }

QString keptText(const amn::GgufTypeReason& r) {
    using K = amn::KeptReason;
    switch (r.kept) {
        case K::None: break;
        case K::OneD: return SchemeText::tr("1-D tensor");
        case K::NotWeight: return SchemeText::tr("not a weight");
        case K::Norm: return SchemeText::tr("norm");
        case K::LeaveOutputTensor: return SchemeText::tr("set by --leave-output-tensor");
        case K::NeverQuantized:
            return SchemeText::tr("llama-quantize never quantizes “%1” tensors").arg(QString::fromStdString(r.name_part));
        case K::PositionEmbeddings: return SchemeText::tr("position embeddings");
        case K::TokenTypes: return SchemeText::tr("token types");
    }
    return {};
}

QString mixText(const amn::GgufTypeReason& r) {
    using M = amn::MixRule;
    switch (r.mix) {
        case M::None: break;
        case M::OutputTensorType: return SchemeText::tr("output tensor: --output-tensor-type");
        case M::TiedEmbeddingsOutputTensorType: return SchemeText::tr("token embeddings tied to the output: --output-tensor-type");
        case M::OutputMoreBits: return SchemeText::tr("the output tensor gets more bits");
        case M::TiedEmbeddingsMoreBits: return SchemeText::tr("token embeddings tied to the output get more bits");
        case M::ExpertTensor: return SchemeText::tr("expert tensor");
        case M::NotExpertTensor: return SchemeText::tr("not an expert tensor");
        case M::TokenEmbeddingType: return SchemeText::tr("token embeddings: --token-embedding-type");
        case M::TokenEmbeddings: return SchemeText::tr("token embeddings");
        case M::AttnVMoreBits: return SchemeText::tr("attn_v gets more bits");
        case M::AttnV70B: return SchemeText::tr("attn_v of a 70B model");
        case M::AttnV8Experts: return SchemeText::tr("attn_v of an 8-expert model");
        case M::AttnK8Experts: return SchemeText::tr("attn_k of an 8-expert model");
        case M::AttnK: return QStringLiteral("attn_k");
        case M::AttnQ: return QStringLiteral("attn_q");
        case M::AttnQkv: return QStringLiteral("attn_qkv");
        case M::AttnOutput8Experts: return SchemeText::tr("attn_output of an 8-expert model");
        case M::AttnOutput: return QStringLiteral("attn_output");
        case M::FfnDownFirstLayers: return SchemeText::tr("ffn_down of the first layers");
        case M::FfnDownLayer:
            return SchemeText::tr("ffn_down of layer %1 of %2").arg(QLocale().toString(r.layer), QLocale().toString(r.n_layers));
        case M::FfnGateMiddle: return SchemeText::tr("ffn_gate of a middle layer");
        case M::FfnUpMiddle: return SchemeText::tr("ffn_up of a middle layer");
    }
    return {};
}

QString fileTypeName(std::uint32_t id) {
    const amn::LlamaFileType* ft = amn::llama_file_type(id);
    return ft ? QString::fromLatin1(ft->name.data(), static_cast<qsizetype>(ft->name.size())) : QString::number(id);
}

}  // namespace

QString ggufReasonDetail(const amn::ForgetTensor& t) {
    if (!t.gguf_reason) return {};
    const amn::GgufTypeReason& r = *t.gguf_reason;
    const QString chosen = dtypeName(r.chosen), target = dtypeName(t.target);
    QString s;
    switch (r.rule) {
        case amn::TypeRule::Kept: s = SchemeText::tr("%1, kept %2").arg(keptText(r), target); break;
        case amn::TypeRule::TokenEmbeddingType: s = SchemeText::tr("set by --token-embedding-type"); break;
        case amn::TypeRule::OutputTensorType: s = SchemeText::tr("set by --output-tensor-type"); break;
        case amn::TypeRule::TensorType:
            s = SchemeText::tr("set by --tensor-type “%1”=%2").arg(QString::fromStdString(r.pattern), chosen);
            break;
        case amn::TypeRule::FileTypeDefault: s = SchemeText::tr("%1 default: %2").arg(fileTypeName(r.ftype), chosen); break;
        case amn::TypeRule::FileTypeMix:
            s = SchemeText::tr("%1 mix rule, %2: %3").arg(fileTypeName(r.ftype), mixText(r), chosen);
            break;
        case amn::TypeRule::Pure: s = SchemeText::tr("--pure: %1").arg(chosen); break;
        case amn::TypeRule::FileType: s = SchemeText::tr("file type %1: %2").arg(fileTypeName(r.ftype), chosen); break;
        case amn::TypeRule::ConverterOuttype: s = SchemeText::tr("--outtype %1").arg(chosen); break;
        case amn::TypeRule::ConverterKept: s = SchemeText::tr("kept %1 by the converter's rules").arg(target); break;
        case amn::TypeRule::ConverterRepacked: s = SchemeText::tr("%1 repacked as it is stored").arg(target); break;
    }
    if (r.fallback)
        s += SchemeText::tr("; fallback: a row of %1 is not a multiple of %2 (%3) → %4")
                 .arg(QLocale().toString(static_cast<qulonglong>(r.row)), QLocale().toString(static_cast<qulonglong>(r.block)),
                      chosen, target);
    return s;
}

QString ggufWarningText(const amn::GgufWarning& w) { return noticeText(w); }

}  // namespace amn::ui
