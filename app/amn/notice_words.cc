// SPDX-License-Identifier: MIT OR Apache-2.0
// notice_words.hpp: the core's notices in amn's words.
#include "notice_words.hpp"

namespace amn::cli {

namespace {

// The quantization config a notice names: its file, or (a format without
// config.json) "the quantization config".
std::string config_of(const Notice& n) { return n.file.empty() ? std::string("the quantization config") : n.file; }

}  // namespace

std::string notice_text(const Notice& n) {
    switch (n.kind) {
        case NoticeKind::ConverterLog: return n.detail;
        case NoticeKind::Requantized:
            if (n.count == 0)
                return "re-quantizing tensors that were already quantized compounds their error "
                       "(start from F32/F16/BF16 when you can)";
            return std::to_string(n.count) +
                   " tensor(s) are already quantized in the input: re-quantizing compounds their error "
                   "(start from F32/F16/BF16 when you can)";
        case NoticeKind::NonFinite:
            return n.tensor + ": " + std::to_string(n.count) +
                   (n.loss_measured ? " value(s) or their round trip are not finite (left out of the loss)"
                                    : " value(s) are not finite (NaN/±inf)");
        case NoticeKind::NonFiniteDequantized:
            return n.tensor + ": " + std::to_string(n.count) +
                   " value(s) dequantize to a non-finite number (left out of the loss)";
        case NoticeKind::DuplicateKey:
            return n.file + ": key \"" + n.key + "\" occurs " +
                   (n.count ? std::to_string(n.count) + " times" : std::string("more than once")) +
                   "; the last one is used, as Python's json (and so transformers) reads it";
        case NoticeKind::QuantMethodMismatch: {
            const std::string where = config_of(n) + ": quantization_config.quant_method is \"" + n.detail + "\"";
            if (n.found.empty())
                return where + ", but no tensor is quantized that way (nor any other): believed the tensors, "
                               "which are copied as stored";
            return where + ", but the tensors are " + n.found + (n.found_words.empty() ? "" : " (" + n.found_words + ")") +
                   ": believed the tensors, dequantized as " + n.found;
        }
        case NoticeKind::FormatMismatch:
            return config_of(n) + ": quantization_config.fmt is \"" + n.detail + "\", but the FP8 weights are stored as " +
                   n.found + ": believed the tensors' dtype, which decides the decoding";
        case NoticeKind::BlockSizeIgnored:
            return config_of(n) + ": " + n.detail +
                   "; ignored: no FP8 weight here has block scales (believed the scale shapes)";
        case NoticeKind::KeysNotCarried:
            return "not carried into config.json (no equivalent for " + n.key + " here): " + n.detail;
        case NoticeKind::NoTokenizer:
            return "no tokenizer written: " + (n.detail.empty() ? std::string("the GGUF has no tokenizer.ggml.model") : n.detail);
        case NoticeKind::NoTokenizerModel: return "no tokenizer.model written (tokenizer.json is): " + n.detail;
        case NoticeKind::AlreadyQuantized:
            return "the input is already quantized (" + (n.detail.empty() ? std::string("quantized tensors") : n.detail) +
                   "): pass --requantize to decode it and quantize again (the errors compound), or start from "
                   "the BF16/F16/F32 model";
    }
    return "";
}

}  // namespace amn::cli
