// SPDX-License-Identifier: MIT OR Apache-2.0
// libFuzzer target for a Hugging Face folder's tokenizer side files as the
// converter reads them together: SpecialVocab (tokenizer_config.json special
// tokens, add_*_token flags, chat templates, added_tokens_decoder;
// tokenizer.json normalizer / post-processor / merges; config.json
// `*_token_id`), and the dispatcher gguf_vocab() over every set_vocab style
// (SentencePiece + added_tokens.json, LlamaHfVocab, gpt2 BPE with the
// pre-tokenizer hash, Phi-3).
//
// One input is a folder: its parts, separated by the line "\n@@amn-next-file@@\n",
// are in order tokenizer_config.json, config.json, tokenizer.json,
// added_tokens.json, chat_template.jinja, tokenizer.model (a missing or empty
// part: no such file). They are written into a private temporary folder
// (removed at exit) and read from there, as the converter reads them. Any
// input must give key/values or raise amn::Error. Build and seed corpus:
// tests/fuzz/README.md.
#include "anamnesis/error.hpp"
#include "tokenizer/special_vocab.hpp"
#include "tokenizer/vocab.hpp"

#include <unistd.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

namespace {

constexpr std::string_view kSeparator = "\n@@amn-next-file@@\n";
constexpr std::array<const char*, 6> kFiles = {"tokenizer_config.json", "config.json", "tokenizer.json",
                                               "added_tokens.json", "chat_template.jinja", "tokenizer.model"};

struct Folder {
    std::string path;
    Folder() {
        const char* base = std::getenv("TMPDIR");
        std::string tmpl = std::string(base && *base ? base : "/tmp") + "/amn-fuzz-hf-vocab-XXXXXX";
        if (!mkdtemp(tmpl.data())) std::abort();
        path = tmpl;
    }
    ~Folder() {
        std::error_code ec;
        std::filesystem::remove_all(path, ec);
    }
};

const std::string& folder() {
    static const Folder f;
    return f.path;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string& dir = folder();
    std::string_view in(reinterpret_cast<const char*>(data), size);
    std::string config_json;
    for (std::size_t i = 0; i < kFiles.size(); ++i) {
        const std::size_t cut = in.find(kSeparator);
        const std::string_view part = in.substr(0, cut);
        in = cut == std::string_view::npos ? std::string_view() : in.substr(cut + kSeparator.size());
        const std::string path = dir + "/" + kFiles[i];
        if (part.empty()) {
            ::unlink(path.c_str());
            continue;
        }
        std::ofstream(path, std::ios::binary | std::ios::trunc).write(part.data(), static_cast<std::streamsize>(part.size()));
        if (i == 1) config_json = part;
    }
    try {
        amn::tok::SpecialVocabOptions opt;
        opt.load_merges = true;
        opt.n_vocab = 1000;
        const auto sv = amn::tok::load_special_vocab(dir, opt);
        std::vector<amn::MetaKv> kvs;
        amn::tok::add_special_vocab_kvs(sv, kvs, dir);
    } catch (const amn::Error&) {
    }
    using amn::tok::VocabStyle;
    for (const VocabStyle style : {VocabStyle::Llama, VocabStyle::Qwen2, VocabStyle::Gpt2, VocabStyle::Phi3}) {
        try {
            amn::tok::VocabRequest req;
            req.dir = dir;
            req.style = style;
            req.config_json = config_json;
            (void)amn::tok::gguf_vocab(req);
            if (style == VocabStyle::Llama) {
                req.vocab_size = 40;  // below or above the tokenizer's: padding, refusal, ignored pieces
                (void)amn::tok::gguf_vocab(req);
            }
        } catch (const amn::Error&) {
        }
    }
    return 0;
}
