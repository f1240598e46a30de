// SPDX-License-Identifier: MIT OR Apache-2.0
// schemetext.hpp: the core's notices (amn::Notice: the plan's, the
// catalog's, a layout's, a forget or GGUF run's warnings) and why a tensor
// cannot be converted (amn::TensorError) worded, translated (context
// "amn::ui::SchemeText"; German in translations/de_strings_notices.py).
#include "schemetext.hpp"

#include <QLocale>

#include <algorithm>
#include <limits>

namespace amn::ui {

namespace {

QString qs(const std::string& s) { return QString::fromStdString(s); }

// The quantization config a notice names: its file, or "the quantization config".
QString configOf(const amn::Notice& n) {
    return n.file.empty() ? SchemeText::tr("the quantization config") : qs(n.file);
}

}  // namespace

QString noticeText(const amn::Notice& n) {
    const int count = static_cast<int>(std::min<std::uint64_t>(n.count, std::numeric_limits<int>::max()));
    using K = amn::NoticeKind;
    switch (n.kind) {
        case K::ConverterLog: return qs(n.detail);
        case K::Requantized:
            if (n.count == 0)
                return SchemeText::tr("re-quantizing tensors that were already quantized compounds their error "
                                      "(start from F32/F16/BF16 when you can)");
            return SchemeText::tr("%Ln tensor(s) are already quantized in the input: re-quantizing compounds their error "
                                  "(start from F32/F16/BF16 when you can)",
                                  nullptr, count);
        case K::NonFinite:
            return (n.loss_measured ? SchemeText::tr("%1: %Ln value(s) or their round trip are not finite (left out of the loss)",
                                                     nullptr, count)
                                    : SchemeText::tr("%1: %Ln value(s) are not finite (NaN/±inf)", nullptr, count))
                .arg(qs(n.tensor));
        case K::NonFiniteDequantized:
            return SchemeText::tr("%1: %Ln value(s) dequantize to a non-finite number (left out of the loss)", nullptr, count)
                .arg(qs(n.tensor));
        case K::DuplicateKey:
            return (n.count ? SchemeText::tr("%1: key “%2” occurs %Ln times; the last one is used, as Python's json (and so "
                                             "transformers) reads it",
                                             nullptr, count)
                            : SchemeText::tr("%1: key “%2” occurs more than once; the last one is used, as Python's json (and "
                                             "so transformers) reads it"))
                .arg(qs(n.file), qs(n.key));
        case K::QuantMethodMismatch:
            if (n.found.empty())
                return SchemeText::tr("%1: quantization_config.quant_method is “%2”, but no tensor is quantized that way (nor "
                                      "any other): the tensors are believed and copied as stored")
                    .arg(configOf(n), qs(n.detail));
            return SchemeText::tr("%1: quantization_config.quant_method is “%2”, but the tensors are %3%4: the tensors are "
                                  "believed, dequantized as %3")
                .arg(configOf(n), qs(n.detail), qs(n.found),
                     n.found_words.empty() ? QString() : QStringLiteral(" (") + qs(n.found_words) + QLatin1Char(')'));
        case K::FormatMismatch:
            return SchemeText::tr("%1: quantization_config.fmt is “%2”, but the FP8 weights are stored as %3: the tensors' "
                                  "dtype is believed, it decides the decoding")
                .arg(configOf(n), qs(n.detail), qs(n.found));
        case K::BlockSizeIgnored:
            return SchemeText::tr("%1: %2; ignored: no FP8 weight here has block scales (the scale shapes are believed)")
                .arg(configOf(n), qs(n.detail));
        case K::KeysNotCarried:
            return SchemeText::tr("not carried into config.json (no equivalent for %1 here): %2").arg(qs(n.key), qs(n.detail));
        case K::NoTokenizer:
            return n.detail.empty() ? SchemeText::tr("no tokenizer written: the GGUF has no tokenizer.ggml.model")
                                    : SchemeText::tr("no tokenizer written: %1").arg(qs(n.detail));
        case K::NoTokenizerModel:
            return SchemeText::tr("no tokenizer.model written (tokenizer.json is): %1").arg(qs(n.detail));
        case K::AlreadyQuantized:
            return SchemeText::tr("The model is already quantized (%1): tick “Re-quantize an already quantized input”, or "
                                  "start from the BF16/F16/F32 model.")
                .arg(n.detail.empty() ? SchemeText::tr("%Ln quantized tensor(s)", nullptr, count) : qs(n.detail));
    }
    return {};
}

QString tensorErrorKindText(amn::TensorErrorKind k) {
    using K = amn::TensorErrorKind;
    switch (k) {
        case K::None: break;
        case K::UnknownDtype: return SchemeText::tr("a data type anamnesis does not know");
        case K::UnsupportedLayout: return SchemeText::tr("stored in a layout anamnesis cannot decode");
        case K::MissingCompanion: return SchemeText::tr("a tensor it needs (scales, zero points …) is missing");
        case K::BadCompanion: return SchemeText::tr("its tensors do not fit together (type, shape or values)");
        case K::UnsupportedVariant: return SchemeText::tr("a variant of its scheme anamnesis does not support yet");
        case K::ConfigConflict: return SchemeText::tr("the quantization config is malformed or contradicts the tensors");
        case K::UnknownScheme: return SchemeText::tr("a quantization scheme anamnesis cannot dequantize");
    }
    return {};
}

QString tensorErrorText(const amn::TensorError& e) {
    if (e.empty()) return {};
    const QString why = tensorErrorKindText(e.kind);
    return e.scheme.empty() ? SchemeText::tr("Cannot be converted: %1 — %2").arg(why, qs(e.detail))
                            : SchemeText::tr("Cannot be converted: %1 — %2: %3").arg(why, qs(e.scheme), qs(e.detail));
}

}  // namespace amn::ui
