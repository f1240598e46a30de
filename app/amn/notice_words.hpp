// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// The words of amn for the core's notices (amn::Notice, notice.hpp): every
// warning of a plan, a catalog, a layout, a forget or GGUF run, worded in
// English as `amn inspect`, `remember`, `forget` and `convert` print them
// (stderr "amn: warning: …", the inspect listing, --json "warnings").
#include "anamnesis/notice.hpp"

#include <string>

namespace amn::cli {

/// The notice in amn's words, one line, e.g. "config.json: key \"bits\"
/// occurs 2 times; the last one is used, as Python's json (and so
/// transformers) reads it", "blk.0.ffn_up.weight: 2 value(s) are not finite
/// (NaN/±inf)", or the converter's own message (ConverterLog). Every
/// NoticeKind has words (never "").
std::string notice_text(const Notice& n);

}  // namespace amn::cli
