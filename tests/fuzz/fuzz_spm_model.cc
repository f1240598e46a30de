// SPDX-License-Identifier: MIT OR Apache-2.0
// libFuzzer target for the SentencePiece model reader: tokenizer.model bytes
// through libsentencepiece (protobuf parse, model and normalizer set-up) into
// the converter's piece table (core/src/tokenizer/spm_vocab.cc,
// sentencepiece_model_vocab). Any input must give a vocabulary or raise
// amn::Error — never crash, abort, hang, leak or read out of bounds, in our
// code or in the library. Build and seed corpus: tests/fuzz/README.md.
#include "anamnesis/error.hpp"
#include "tokenizer/spm_vocab.hpp"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view model(reinterpret_cast<const char*>(data), size);
    try {
        (void)amn::tok::sentencepiece_model_vocab(model, std::nullopt, "tokenizer.model");
        // A vocab_size below the piece count (pieces ignored) and above it (padding).
        (void)amn::tok::sentencepiece_model_vocab(model, 3, "tokenizer.model");
        (void)amn::tok::sentencepiece_model_vocab(model, 1000, "tokenizer.model");
    } catch (const amn::Error&) {
    }
    return 0;
}
