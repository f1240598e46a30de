// SPDX-License-Identifier: MIT OR Apache-2.0
// Reference tool for tests/cli/tokback_reference.py (not built by the
// project: it needs llama.cpp). llama.cpp's tokenizer on a GGUF vocabulary,
// as llama-tokenize does it but with special tokens parsed (the
// llama-tokenize of the reference build has no switch for that):
// llama_tokenize(vocab, text, add_special = true, parse_special = true).
//   tokback_llama_tokenize MODEL.gguf TEXTS.bin
// TEXTS.bin: u32 count, then per text u32 length + UTF-8 bytes (little-endian).
// Output: one line per text, "[id, id, …]".
#include "llama.h"

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

static void quiet(ggml_log_level, const char*, void*) {}

int main(int argc, char** argv) {
    if (argc != 3) return 2;
    std::ifstream in(argv[2], std::ios::binary);
    const std::string data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::size_t at = 0;
    auto u32 = [&] {
        std::uint32_t v = 0;
        for (int i = 0; i < 4; ++i) v |= static_cast<std::uint32_t>(static_cast<unsigned char>(data.at(at++))) << (8 * i);
        return v;
    };
    llama_log_set(quiet, nullptr);
    llama_backend_init();
    llama_model_params mp = llama_model_default_params();
    mp.vocab_only = true;
    llama_model* model = llama_model_load_from_file(argv[1], mp);
    if (!model) return 1;
    const llama_vocab* vocab = llama_model_get_vocab(model);
    const std::uint32_t n = u32();
    for (std::uint32_t k = 0; k < n; ++k) {
        const std::uint32_t len = u32();
        const std::string text = data.substr(at, len);
        at += len;
        std::vector<llama_token> ids(text.size() + 8);
        int32_t got = llama_tokenize(vocab, text.data(), static_cast<int32_t>(text.size()), ids.data(),
                                     static_cast<int32_t>(ids.size()), true, true);
        if (got < 0) {
            ids.resize(static_cast<std::size_t>(-got));
            got = llama_tokenize(vocab, text.data(), static_cast<int32_t>(text.size()), ids.data(),
                                 static_cast<int32_t>(ids.size()), true, true);
        }
        if (got < 0) return 1;
        std::printf("[");
        for (int32_t i = 0; i < got; ++i) std::printf(i ? ", %d" : "%d", ids[static_cast<std::size_t>(i)]);
        std::printf("]\n");
    }
    llama_model_free(model);
    return 0;
}
