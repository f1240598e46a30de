// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// Core facts worded for the user, translatable: the core stays Qt-free and
// hands over typed values (amn::QuantParams, the plan's flags); this file
// words them with tr() (context "amn::ui::SchemeText"). The core's own
// English sentences (Recipe::describe(), RoundTripError::unavailable) remain
// the technical detail, shown in tooltips. The GGUF reasons and warnings
// are worded in ggufreasontext.cc.

#include "anamnesis/forget_gguf.hpp"
#include "anamnesis/hf_to_gguf.hpp"
#include "anamnesis/plan.hpp"
#include "anamnesis/quant_params.hpp"
#include "anamnesis/round_trip_estimate.hpp"

#include <QCoreApplication>
#include <QString>

namespace amn::ui {

/// The tr() context of the functions below.
class SchemeText {
    Q_DECLARE_TR_FUNCTIONS(amn::ui::SchemeText)
};

/// A scheme in words from its typed parameters, in the user's language:
/// "FP8 (E4M3), 128×128 blocks, BF16 scales", "GPTQ 4-bit, group 128,
/// symmetric, F16 scales", "GGUF Q4_K (256-element blocks of 144 bytes,
/// 4,5 bits per weight)" — the facts of amn::describe(), numbers in the
/// current QLocale. Type and format names (Q4_K, E4M3, BF16) stay as the
/// core and `amn` spell them.
QString schemeText(const amn::QuantParams& params);
/// `lt`'s scheme in words: schemeText(*lt.params) for a quantized tensor,
/// else the recipe's own description (passthrough), else an empty string.
QString schemeText(const amn::LogicalTensor& lt);
/// One entry of Inspection::schemes in words: schemeText() of the first
/// tensor of `model` using that scheme id (the core's description when no
/// tensor has parameters).
QString schemeUseText(const amn::Plan& plan, const amn::SchemeUse& use);

/// A stored tensor's role in words: "quantized", "companion", "passthrough",
/// "unsupported" (amn::role_name(), translated).
QString roleText(amn::Role role);

/// Why a forget run writes `t` as it does, from its typed rule: "Q4_K_M
/// default", "Q4_K_M mix rule", "set by --tensor-type", "not quantized,
/// kept F32", "--outtype BF16" (a Hugging Face folder converted as
/// convert_hf_to_gguf.py does), with "; fallback: the row does not fit the
/// blocks" when the core took a fallback type; safetensors targets:
/// "quantized" or "kept".
/// `fileType` is the GGUF file type asked for ("Q4_K_M"). forgetReasonDetail()
/// is the tooltip.
QString forgetReasonText(const amn::ForgetTensor& t, const QString& fileType);

/// The detail of the same, translated: for a GGUF target ggufReasonDetail();
/// for a safetensors scheme, from the typed `t.st_rule`: "quantized:
/// <schemeLabel>" or "kept: norm", "kept: --keep" … (+ " (decoded to BF16)"
/// for a tensor decoded under --requantize).
QString forgetReasonDetail(const amn::ForgetTensor& t, const QString& schemeLabel);

/// Why a GGUF target `t` has its type with the rule's details, from
/// `t.gguf_reason`, translated: "Q4_K_M mix rule, attn_v gets more bits:
/// Q6_K", "set by --tensor-type “attn”=Q5_0", "1-D tensor, kept F32",
/// "Q4_K_M default: Q4_K; fallback: a row of 96 is not a multiple of 256
/// (Q4_K) → Q5_0", "--outtype BF16". Empty without a GGUF reason.
QString ggufReasonDetail(const amn::ForgetTensor& t);

/// A warning of a GGUF run, translated: "14 tensor(s) are already quantized
/// in the input: …", "blk.0.ffn_up.weight: 2 value(s) are not finite
/// (NaN/±inf)"; the converter's own messages (GgufWarningKind::ConverterLog:
/// model card, tokenizer) as it logs them, in English. noticeText(), a
/// GgufWarning being a Notice.
QString ggufWarningText(const amn::GgufWarning& w);

/// Any notice of the core (amn::Notice), translated (noticetext.cc): the
/// plan's and catalog's contradictions ("config.json: key “bits” occurs 2
/// times; …"), a layout's ("no tokenizer written: …"), a forget run's
/// ("3 value(s) dequantize to a non-finite number …"), a GGUF run's, the
/// refusal of an already quantized input. Every NoticeKind has words; the
/// technical fragments (Notice::detail, ::found) stay as the core names them.
QString noticeText(const amn::Notice& n);

/// The kind of a tensor error in words, translated, to follow "cannot be
/// converted:": "a tensor it needs (scales, zero points …) is missing" …;
/// empty for TensorErrorKind::None.
QString tensorErrorKindText(amn::TensorErrorKind k);
/// Why `e`'s tensor cannot be converted, translated: "Cannot be converted:
/// <tensorErrorKindText> — <scheme>: <detail>" (the detail technical, as the
/// core names it); empty when `e` is empty.
QString tensorErrorText(const amn::TensorError& e);

/// Why convert_hf_to_gguf.py writes `t` as it does: "--outtype BF16" when
/// it takes the asked type (`outtype`, resolved: "BF16", never "auto"),
/// else "kept F32 by the converter's rules" (1-D tensors, norms, the MoE
/// router; F16 for a Q8_0 row not a multiple of 32). ggufReasonDetail() is
/// the tooltip.
QString convertReasonText(const amn::ForgetTensor& t, const QString& outtype);

/// What a Hugging Face folder becomes in GGUF (amn::describe_hf_gguf), in
/// one line: "llama (LlamaForCausalLM), tokenizer gpt2 / llama-bpe, auto →
/// BF16", the core's warnings on lines below ("Note: …"); or "Cannot become
/// a GGUF: <the core's reason>".
QString hfGgufInfoText(const amn::HfGgufInfo& info);

/// Why no "what Lethe took" figure can be measured for `lt`, from its typed
/// state (the core's `RoundTripError::unavailable` is the English detail):
/// "not measurable yet for gguf-Q4_K" (a quantized tensor without a
/// re-quantizer, named by its scheme id), "not quantized: nothing to
/// measure", or "not measurable: the tensor cannot be decoded".
QString unmeasurableText(const amn::LogicalTensor& lt);

/// The same for a finished measurement `r` of `lt`: the core's reason code
/// (`RoundTripError::reason`, `::scheme`) worded in the UI's language —
/// "not quantized", "not measurable for gguf-IQ2_XXS: ggml quantizes it only
/// with an importance matrix, …", "… a row is not a whole number of blocks";
/// any other reason falls back to `unmeasurableText(lt)`.
QString unmeasurableText(const amn::RoundTripError& r, const amn::LogicalTensor& lt);

}  // namespace amn::ui
