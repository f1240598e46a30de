// SPDX-License-Identifier: MIT OR Apache-2.0
// libFuzzer target for the Hugging Face tokenizer.json reader and the BPE
// pipeline it builds (core/src/tokenizer/: hf_tokenizer, normalizers,
// pre-tokenizers over PCRE2, BPE model, post-processors, decoders): any input
// must parse or raise amn::Error — never crash, hang, read out of bounds or
// allocate without bound. A tokenizer that parses encodes a short fixed text
// (ASCII, accents in both normalization forms, CJK, an emoji, digits,
// whitespace runs, text that looks like special tokens) with and without
// special tokens, decodes the ids back, and looks up a few tokens. Build
// and seed corpus: tests/fuzz/README.md.
#include "anamnesis/error.hpp"
#include "tokenizer/hf_tokenizer.hpp"

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace {

constexpr std::string_view kText =
    "Hello world! It's 2024: caf\xC3\xA9 cafe\xCC\x81 \xE4\xBD\xA0\xE5\xA5\xBD \xF0\x9F\x98\x80 1234567 "
    "  \t\n\n  <s></s><|endoftext|>[CLS] \xC4\xB0stanbul \xCE\xA3\xCE\x91\xCE\xA3 ";

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view json(reinterpret_cast<const char*>(data), size);
    try {
        const auto tok = amn::tok::HfTokenizer::parse(json, "tokenizer.json");
        for (const bool special : {true, false}) {
            try {
                const auto ids = tok.encode(kText, special);
                (void)tok.decode(ids, false);
                (void)tok.decode(ids, true);
            } catch (const amn::Error&) {  // e.g. a regex over its backtracking limits
            }
        }
        (void)tok.token_to_id("<s>");
        (void)tok.token_to_id("Hello");
        (void)tok.id_to_token(0);
        (void)tok.id_to_token(0xFFFFFFFFu);
        (void)tok.vocab();
    } catch (const amn::Error&) {
    }
    return 0;
}
