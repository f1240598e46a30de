// SPDX-License-Identifier: MIT OR Apache-2.0
// gguf_words.hpp: the GGUF reasons and warnings in amn's words.
#include "gguf_words.hpp"

#include "anamnesis/gguf_ftype.hpp"
#include "notice_words.hpp"

namespace amn::cli {

namespace {

// Why llama-quantize leaves a tensor as it is, before ", kept TYPE".
std::string kept_text(const GgufTypeReason& r) {
    switch (r.kept) {
        case KeptReason::None: break;
        case KeptReason::OneD: return "1-D tensor";
        case KeptReason::NotWeight: return "not a weight";
        case KeptReason::Norm: return "norm";
        case KeptReason::LeaveOutputTensor: return "--leave-output-tensor";
        case KeptReason::NeverQuantized: return "llama-quantize never quantizes '" + r.name_part + "' tensors";
        case KeptReason::PositionEmbeddings: return "position embeddings";
        case KeptReason::TokenTypes: return "token types";
    }
    return "";
}

// The mix rule, between "FTYPE mix: " and " → TYPE".
std::string mix_text(const GgufTypeReason& r) {
    switch (r.mix) {
        case MixRule::None: break;
        case MixRule::OutputTensorType: return "output tensor: --output-tensor-type";
        case MixRule::TiedEmbeddingsOutputTensorType: return "token embeddings tied to the output: --output-tensor-type";
        case MixRule::OutputMoreBits: return "output tensor gets more bits";
        case MixRule::TiedEmbeddingsMoreBits: return "token embeddings tied to the output gets more bits";
        case MixRule::ExpertTensor: return "expert tensor";
        case MixRule::NotExpertTensor: return "not an expert tensor";
        case MixRule::TokenEmbeddingType: return "--token-embedding-type";
        case MixRule::TokenEmbeddings: return "token embeddings";
        case MixRule::AttnVMoreBits: return "attn_v gets more bits";
        case MixRule::AttnV70B: return "attn_v of a 70B model";
        case MixRule::AttnV8Experts: return "attn_v of an 8-expert model";
        case MixRule::AttnK8Experts: return "attn_k of an 8-expert model";
        case MixRule::AttnK: return "attn_k";
        case MixRule::AttnQ: return "attn_q";
        case MixRule::AttnQkv: return "attn_qkv";
        case MixRule::AttnOutput8Experts: return "attn_output of an 8-expert model";
        case MixRule::AttnOutput: return "attn_output";
        case MixRule::FfnDownFirstLayers: return "ffn_down of the first layers";
        case MixRule::FfnDownLayer:
            return "ffn_down of layer " + std::to_string(r.layer) + " of " + std::to_string(r.n_layers);
        case MixRule::FfnGateMiddle: return "ffn_gate of a middle layer";
        case MixRule::FfnUpMiddle: return "ffn_up of a middle layer";
    }
    return "";
}

std::string ftype_text(std::uint32_t id) {
    const LlamaFileType* ft = llama_file_type(id);
    return ft ? std::string(ft->name) : std::to_string(id);
}

// The rule's words, without the fallback.
std::string rule_text(const GgufTypeReason& r, DType target) {
    const std::string chosen = ggml_type_name(r.chosen);
    switch (r.rule) {
        case TypeRule::Kept: return kept_text(r) + ", kept " + dtype_name(target);
        case TypeRule::TokenEmbeddingType: return "--token-embedding-type";
        case TypeRule::OutputTensorType: return "--output-tensor-type";
        case TypeRule::TensorType: return "--tensor-type '" + r.pattern + "'=" + chosen;
        case TypeRule::FileTypeDefault: return ftype_text(r.ftype) + " default " + chosen;
        case TypeRule::FileTypeMix: return ftype_text(r.ftype) + " mix: " + mix_text(r) + " → " + chosen;
        case TypeRule::Pure: return "--pure: " + chosen;
        case TypeRule::FileType: return ftype_text(r.ftype) + ": " + chosen;
        case TypeRule::ConverterOuttype: return "convert_hf_to_gguf --outtype " + dtype_name(r.chosen);
        case TypeRule::ConverterKept: return "convert_hf_to_gguf keeps it " + dtype_name(target);
        case TypeRule::ConverterRepacked: return dtype_name(target) + " repacked as it is stored (convert_hf_to_gguf)";
    }
    return "";
}

}  // namespace

std::string gguf_reason_text(const ForgetTensor& t) {
    if (!t.gguf_reason) return "";
    const GgufTypeReason& r = *t.gguf_reason;
    std::string s = rule_text(r, t.target);
    if (r.fallback)
        s += (s.empty() ? "" : "; ") + std::string("fallback: ") + std::to_string(r.row) + " not a multiple of " +
             std::to_string(r.block) + " (" + ggml_type_name(r.chosen) + ") → " + ggml_type_name(t.target);
    return s;
}

std::string repack_text(const ForgetTensor& t) {
    switch (t.repack) {
        case Repack::None: return "";
        case Repack::Lossless: return "lossless: the input's codes and scales repacked";
        case Repack::OtherCodes:
            return "re-quantized: the input's codes are not " + (t.gguf_reason ? dtype_name(t.target) + "'s" : std::string("the scheme's")) +
                   " (kind, width or group size)";
        case Repack::ScaleNotExact: return "re-quantized: a scale or bias of the input is not exact in F16";
        case Repack::BiasNotSymmetric:
            return "re-quantized: the input's biases are not −2^(bits−1)·scale, as " + dtype_name(t.target) + " has them";
        case Repack::NegativeScale: return "re-quantized: a negative E4M3 scale (GGUF's are unsigned)";
    }
    return "";
}

std::string_view repack_id(Repack r) noexcept {
    switch (r) {
        case Repack::None: return "";
        case Repack::Lossless: return "lossless";
        case Repack::OtherCodes: return "other-codes";
        case Repack::ScaleNotExact: return "scale-not-exact";
        case Repack::BiasNotSymmetric: return "bias-not-symmetric";
        case Repack::NegativeScale: return "negative-scale";
    }
    return "";
}

std::string gguf_warning_text(const GgufWarning& w) { return notice_text(w); }

}  // namespace amn::cli
