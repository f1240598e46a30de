// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// The words of amn for the core's typed GGUF facts: why a tensor got its
// type (GgufTypeReason: llama-quantize's rules, convert_hf_to_gguf's) and
// the warnings of a GGUF run (GgufWarning). English, as `amn forget` and
// `amn convert --to gguf` print them in the table, --json and on stderr.
#include "anamnesis/forget_gguf.hpp"

#include <string>
#include <string_view>

namespace amn::cli {

/// "Q4_K_M mix: attn_v gets more bits → q6_K", "--tensor-type 'attn'=q5_0",
/// "1-D tensor, kept F32", "Q4_K_M default q4_K; fallback: 96 not a multiple
/// of 256 (q4_K) → q5_0", "convert_hf_to_gguf --outtype BF16" … for a GGUF
/// target (`t.gguf_reason`); "" when `t` has none.
std::string gguf_reason_text(const ForgetTensor& t);

/// "lossless: the input's codes and scales repacked", "re-quantized: a scale
/// or bias is not exact in F16" … (`t.repack`); "" for Repack::None.
std::string repack_text(const ForgetTensor& t);
/// The --json word of `r`: "lossless", "other-codes", "scale-not-exact",
/// "bias-not-symmetric", "negative-scale"; "" for None.
std::string_view repack_id(Repack r) noexcept;

/// "3 tensor(s) are already quantized in the input: …", "blk.0.ffn_up.weight:
/// 2 value(s) are not finite (NaN/±inf)", or the converter's own message:
/// notice_text() (notice_words.hpp), a GgufWarning being a Notice.
std::string gguf_warning_text(const GgufWarning& w);

}  // namespace amn::cli
