// SPDX-License-Identifier: MIT OR Apache-2.0
// GGUF "llama" vocabulary → SentencePiece tokenizer.model (protobuf wire
// format of sentencepiece_model.proto, written by hand: three messages).
#include "tokenizer/spm_model_writer.hpp"

#include <cstring>
#include <unordered_set>

namespace amn::tok {
namespace {

constexpr std::int32_t kUnknown = 2, kControl = 3, kByte = 6;

// Protobuf wire types: 0 varint, 2 length-delimited, 5 fixed32.
void varint(std::string& out, std::uint64_t v) {
    while (v >= 0x80) {
        out += static_cast<char>((v & 0x7F) | 0x80);
        v >>= 7;
    }
    out += static_cast<char>(v);
}
void tag(std::string& out, unsigned field, unsigned wire) { varint(out, (static_cast<std::uint64_t>(field) << 3) | wire); }
void field_varint(std::string& out, unsigned field, std::int64_t v) {  // int32 / enum / bool: negatives as 10-byte varints
    tag(out, field, 0);
    varint(out, static_cast<std::uint64_t>(v));
}
void field_bytes(std::string& out, unsigned field, std::string_view b) {
    tag(out, field, 2);
    varint(out, b.size());
    out.append(b);
}
void field_float(std::string& out, unsigned field, float f) {
    tag(out, field, 5);
    std::uint32_t bits;
    std::memcpy(&bits, &f, 4);
    for (int i = 0; i < 4; ++i) out += static_cast<char>((bits >> (8 * i)) & 0xFF);
}

bool is_byte_piece(std::string_view s) {
    auto hex = [](char c) { return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'F'); };
    return s.size() == 6 && s.starts_with("<0x") && hex(s[3]) && hex(s[4]) && s[5] == '>';
}

}  // namespace

std::optional<std::string> spm_model_proto(const GgufTokenizerKvs& kv, std::string& why) {
    const std::size_t n = kv.tokens.size();
    if (kv.scores.size() != n) {
        why = "no tokenizer.ggml.scores";
        return std::nullopt;
    }
    std::optional<std::uint32_t> unk = kv.special("unk");
    for (std::size_t i = 0; !unk && i < n; ++i)
        if (kv.types[i] == kUnknown) unk = static_cast<std::uint32_t>(i);
    if (!unk) {
        why = "no unknown token (SentencePiece needs one)";
        return std::nullopt;
    }
    std::unordered_set<std::string_view> seen;
    std::size_t bytes = 0;
    std::string pieces;
    for (std::size_t i = 0; i < n; ++i) {
        const std::string_view t = kv.tokens[i];
        if (t.empty() || !seen.insert(t).second) {
            why = "token " + std::to_string(i) + (t.empty() ? " is empty" : " repeats an earlier token's text");
            return std::nullopt;
        }
        std::int32_t type = kv.types[i];
        if (i == *unk) type = kUnknown;
        else if (type == kUnknown) type = kControl;
        if (type < 1 || type > kByte) type = 1;
        if (type == kByte && is_byte_piece(t)) ++bytes;
        std::string p;
        field_bytes(p, 1, t);
        field_float(p, 2, kv.scores[i]);
        if (type != 1) field_varint(p, 3, type);  // NORMAL is the default
        field_bytes(pieces, 1, p);
    }
    auto id_or = [&](const char* typ) -> std::int64_t {
        const auto id = kv.special(typ);
        return id ? static_cast<std::int64_t>(*id) : -1;
    };
    std::string trainer;
    field_varint(trainer, 3, 2);  // model_type: BPE
    field_varint(trainer, 4, static_cast<std::int64_t>(n));
    if (bytes == 256) field_varint(trainer, 35, 1);  // byte_fallback
    field_varint(trainer, 40, *unk);
    field_varint(trainer, 41, id_or("bos"));
    field_varint(trainer, 42, id_or("eos"));
    field_varint(trainer, 43, id_or("pad"));
    std::string normalizer;
    field_bytes(normalizer, 1, "identity");
    field_varint(normalizer, 3, kv.add_space_prefix.value_or(true) ? 1 : 0);  // add_dummy_prefix
    field_varint(normalizer, 4, 0);                                           // remove_extra_whitespaces
    field_varint(normalizer, 5, 1);                                           // escape_whitespaces
    std::string out = std::move(pieces);
    field_bytes(out, 2, trainer);
    field_bytes(out, 3, normalizer);
    return out;
}

std::optional<std::string> xlmr_spm_model_proto(const GgufTokenizerKvs& hf, std::string& why) {
    const std::size_t n = hf.tokens.size();
    std::unordered_set<std::string_view> seen{"<unk>", "<s>", "</s>"};
    std::size_t bytes = 0;
    std::string pieces;
    auto piece = [&](std::string_view text, float score, std::int32_t type) {
        std::string p;
        field_bytes(p, 1, text);
        field_float(p, 2, score);
        if (type != 1) field_varint(p, 3, type);  // NORMAL is the default
        field_bytes(pieces, 1, p);
    };
    piece("<unk>", 0.0f, kUnknown);
    piece("<s>", 0.0f, kControl);
    piece("</s>", 0.0f, kControl);
    for (std::size_t i = 4; i + 1 < n; ++i) {
        const std::string_view t = hf.tokens[i];
        if (t.empty() || !seen.insert(t).second) {
            why = "token " + std::to_string(i) + (t.empty() ? " is empty" : " repeats an earlier token's text");
            return std::nullopt;
        }
        std::int32_t type = hf.types[i];
        if (type < 1 || type > kByte || type == kUnknown) type = 1;
        if (type == kByte && is_byte_piece(t)) ++bytes;
        piece(t, hf.scores[i], type);
    }
    std::string trainer;
    field_varint(trainer, 3, 1);  // model_type: UNIGRAM
    field_varint(trainer, 4, static_cast<std::int64_t>(n - 2));
    if (bytes == 256) field_varint(trainer, 35, 1);  // byte_fallback
    field_varint(trainer, 40, 0);                    // unk_id
    field_varint(trainer, 41, 1);                    // bos_id
    field_varint(trainer, 42, 2);                    // eos_id
    field_varint(trainer, 43, -1);                   // pad_id
    std::string normalizer;
    field_bytes(normalizer, 1, hf.precompiled_charsmap.empty() ? "identity" : "nmt_nfkc");
    if (!hf.precompiled_charsmap.empty()) field_bytes(normalizer, 2, hf.precompiled_charsmap);
    field_varint(normalizer, 3, hf.add_space_prefix.value_or(true) ? 1 : 0);          // add_dummy_prefix
    field_varint(normalizer, 4, hf.remove_extra_whitespaces.value_or(true) ? 1 : 0);  // remove_extra_whitespaces
    field_varint(normalizer, 5, 1);                                                   // escape_whitespaces
    std::string out = std::move(pieces);
    field_bytes(out, 2, trainer);
    field_bytes(out, 3, normalizer);
    return out;
}

}  // namespace amn::tok
