// SPDX-License-Identifier: MIT OR Apache-2.0
// The way back's pre-tokenizers (GGUF `tokenizer.ggml.pre` → tokenizer.json)
// and their recognition on the way forward: one row per family of
// llama.cpp's byte-level BPE pre-tokenizer types (src/llama-vocab.cpp at
// 34af94c: the names of `llama_vocab::impl::load`, the regex lists and
// `ignore_merges` of `llm_tokenizer_bpe`), constant data carried over.
#include "tokenizer/pre_table.hpp"

#include "anamnesis/json_writer.hpp"
#include "tokenizer/pre_tokenizer.hpp"

#include <vector>

namespace amn::tok {
namespace {

/// How a family's tokenizer.json is written.
enum class PreStyle : std::uint8_t {
    Qwen2File,   ///< Qwen3's tokenizer.json (sha256 aeb13307…, the hf-gguf fixture): NFC, which llama.cpp skips
    Gpt2File,    ///< openai-community/gpt2's: a lone ByteLevel with its own regex (`use_regex`)
    Splits,      ///< one Split (Isolated) per regex, in llama.cpp's order, then ByteLevel without regex
                 ///< (for llama-bpe: Meta-Llama-3-8B-Instruct's tokenizer.json, sha256 e134af98…, the hf-gguf fixture)
};

struct PreFamily {
    PreStyle style;
    std::string_view names;                ///< the `tokenizer.ggml.pre` names, space-separated; the first is recognised
    bool ignore_merges;                    ///< llama.cpp's `ignore_merges` for these names (BPE `model.ignore_merges`)
    std::vector<std::string_view> splits;  ///< the regexes, applied one after the other (Gpt2File: none)
};

// Where llama.cpp runs an adapted regex and gives the tokenizer.json original beside it (`(?i:…)` spelled
// out as `(?:'[sS]|…)`, GPT-4o's and Tekken's `\p{Lu}…` classes emulated with lookaheads), the row has the
// original: the folder is the model's own tokenizer (they split alike but where llama.cpp's emulation parts from
// it, on non-ASCII lower-case letters: test_cli_tokback names such texts). Bailing's original has possessive
// quantifiers that a greedy one matches the same way (their classes cannot overlap what follows): llama.cpp's.
// kimi-k2, afmoe and superbpe, which llama.cpp splits with its own code (unicode.cpp), get the regexes that
// split the same way. Left out, with no tokenizer.json: gemma4, granite-embed-multi-311m, sarvam-moe and
// whitespace, which are not byte-level.
const std::vector<PreFamily>& families() {
    static const std::vector<PreFamily> kFamilies = {
    // LLAMA_VOCAB_PRE_TYPE_LLAMA3
    {PreStyle::Splits, "llama-bpe llama3 llama-v3 falcon3 falcon-h1 pixtral midm-2.0 lfm2 jina-v5-nano", true,
     {R"re((?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+)re"}},
    // LLAMA_VOCAB_PRE_TYPE_JAIS2
    {PreStyle::Splits, "jais-2", false,
     {R"re((?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s{512}(?!\S)|\s{256}(?!\S)|\s{128}(?!\S)|\s{64}(?!\S)|\s{32}(?!\S)|\s{16}(?!\S)|\s{8}(?!\S)|\s{4}(?!\S)|\s{1,2}(?!\S)|\s{1})re"}},
    // LLAMA_VOCAB_PRE_TYPE_DBRX, SMAUG, CHATGLM4
    {PreStyle::Splits, "dbrx smaug-bpe glm4 chatglm-bpe", false,
     {R"re((?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+)re"}},
    // LLAMA_VOCAB_PRE_TYPE_DEEPSEEK_LLM
    {PreStyle::Splits, "deepseek-llm", false,
     {R"re([\r\n])re",
      R"re(\s?[A-Za-zµÀ-ÖØ-öø-ƺƼ-ƿǄ-ʓʕ-ʯͰ-ͳͶͷͻ-ͽͿΆΈ-ΊΌΎ-ΡΣ-ϵϷ-ҁҊ-ԯԱ-ՖႠ-ჅᎠ-Ᏽᏸ-ᏽᲐ-ᲺᲽ-Ჿᴀ-ᴫᵫ-ᵷᵹ-ᶚḀ-ἕἘ-Ἕἠ-ὅὈ-Ὅὐ-ὗὙὛὝὟ-ώᾀ-ᾴᾶ-ᾼιῂ-ῄῆ-ῌῐ-ΐῖ-Ίῠ-Ῥῲ-ῴῶ-ῼℂℇℊ-ℓℕℙ-ℝℤΩℨK-ℭℯ-ℴℹℼ-ℿⅅ-ⅉⅎↃↄⰀ-ⱻⱾ-ⳤⳫ-ⳮⳲⳳꙀ-ꙭꚀ-ꚛꜢ-ꝯꝱ-ꞇꞋ-ꞎꭰ-ꮿﬀ-ﬆﬓ-ﬗＡ-Ｚａ-ｚ𐐀-𐑏𐒰-𐓓𐓘-𐓻𐲀-𐲲𐳀-𐳲𑢠-𑣟𞤀-𞥃]+)re",
      R"re(\s?[!-/:-~！-／：-～‘-‟　-。]+)re",
      R"re(\s+$)re",
      R"re([一-龥ࠀ-一가-퟿]+)re",
      R"re(\p{N}+)re"}},
    // LLAMA_VOCAB_PRE_TYPE_DEEPSEEK3_LLM, HUNYUAN_DENSE, JOYAI_LLM
    {PreStyle::Splits, "deepseek-v3 hunyuan-dense joyai-llm", false,
     {R"re(\p{N}{1,3})re",
      R"re([一-龥぀-ゟ゠-ヿ]+)re",
      R"re([!"#$%&'()*+,\-./:;<=>?@\[\\\]^_`{|}~][A-Za-z]+|[^\r\n\p{L}\p{P}\p{S}]?[\p{L}\p{M}]+| ?[\p{P}\p{S}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+)re"}},
    // LLAMA_VOCAB_PRE_TYPE_YOUTU
    {PreStyle::Splits, "youtu", true,
     {R"re([가-힣ㄱ-ㆎ]+|[！…“”‘’—：；，、-〿︰-﹏]+|[ㄅ-ㄯ]+|[一-龥぀-ゟ゠-ヿ]+)re",
      R"re([^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])?|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])?|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+)re"}},
    // LLAMA_VOCAB_PRE_TYPE_DEEPSEEK_CODER
    {PreStyle::Splits, "deepseek-coder", false,
     {R"re([\r\n])re",
      R"re(\s?\p{L}+)re",
      R"re(\s?\p{P}+)re",
      R"re([一-龥ࠀ-一가-퟿]+)re",
      R"re(\p{N})re"}},
    // LLAMA_VOCAB_PRE_TYPE_FALCON
    {PreStyle::Splits, "falcon", false,
     {R"re([\p{P}\$\+<=>\^~\|`]+)re",
      R"re('s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S))re",
      R"re([0-9][0-9][0-9])re"}},
    // LLAMA_VOCAB_PRE_TYPE_STARCODER, REFACT, COMMAND_R, SMOLLM, CODESHELL, EXAONE, MINERVA, MELLUM2
    {PreStyle::Splits, "starcoder refact command-r smollm codeshell exaone minerva-7b mellum2", false,
     {R"re(\p{N})re",
      R"re('s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S))re"}},
    // LLAMA_VOCAB_PRE_TYPE_GPT2, MPT, OLMO, JAIS, TRILLION, GRANITE_DOCLING
    {PreStyle::Gpt2File, "gpt-2 phi-2 jina-es jina-de gigachat jina-v2-es jina-v2-de a.x-4.0 mellum modern-bert jina-v1-en jina-v2-code roberta-bpe exaone4 mpt olmo jais trillion granite-docling", false,
     {}},
    // LLAMA_VOCAB_PRE_TYPE_QWEN2
    {PreStyle::Qwen2File, "qwen2", false,
     {R"re((?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+)re"}},
    // LLAMA_VOCAB_PRE_TYPE_STABLELM2, QWEN2, HUNYUAN, SOLAR_OPEN, GROK_2
    {PreStyle::Splits, "stablelm2 deepseek-r1-qwen kormo f2llmv2 megrez hunyuan solar-open grok-2", false,
     {R"re((?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+)re"}},
    // LLAMA_VOCAB_PRE_TYPE_QWEN35
    {PreStyle::Splits, "qwen35", false,
     {R"re((?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?[\p{L}\p{M}]+|\p{N}| ?[^\s\p{L}\p{M}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+)re"}},
    // LLAMA_VOCAB_PRE_TYPE_PORO, BLOOM, GPT3_FINNISH
    {PreStyle::Splits, "poro-chat bloom gpt3-finnish", false,
     {R"re( ?[^(\s|.,!?…。，、।۔،)]+)re"}},
    // LLAMA_VOCAB_PRE_TYPE_VIKING
    {PreStyle::Splits, "viking", false,
     {R"re( ?[^(\s|.,!?…。，、।۔،)]+)re",
      R"re(\p{N})re"}},
    // LLAMA_VOCAB_PRE_TYPE_TEKKEN
    {PreStyle::Splits, "tekken", true,
     {R"re([^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+)re"}},
    // LLAMA_VOCAB_PRE_TYPE_CHAMELEON
    {PreStyle::Splits, "chameleon", false,
     {R"re(<sentinel:[0-9]+>)re",
      R"re((IMGIMG)((A|B|C|D|E|F|G|H|I){1,4})Z)re",
      R"re(([\t\n]|    |  ))re",
      R"re(\p{N})re",
      R"re([\p{P}!-/:-@\[-`{-~])re",
      R"re('s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S))re"}},
    // LLAMA_VOCAB_PRE_TYPE_GPT4O, MINIMAX_M2
    {PreStyle::Splits, "gpt-4o llama4 kanana2 talkie minimax-m2", false,
     {R"re([^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+)re"}},
    // LLAMA_VOCAB_PRE_TYPE_GRANITE_EMB_MULTI
    {PreStyle::Splits, "granite-embed-multi-97m", true,
     {R"re([^\r\n\p{L}\p{N}]?((?=[\p{L}\p{M}])([^a-z]))*((?=[\p{L}\p{M}])([^A-Z]))+(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])?|[^\r\n\p{L}\p{N}]?((?=[\p{L}\p{M}])([^a-z]))+((?=[\p{L}\p{M}])([^A-Z]))*(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])?|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+)re"}},
    // LLAMA_VOCAB_PRE_TYPE_TINY_AYA
    {PreStyle::Splits, "tiny_aya cohere2moe", false,
     {R"re(\d{1,3}(?=(?:\d{3})*\b))re",
      R"re([^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+)re"}},
    // LLAMA_VOCAB_PRE_TYPE_BAILINGMOE
    {PreStyle::Splits, "bailingmoe bailingmoe2 llada-moe", false,
     {R"re('(?:[sSdDmMtT]|[lL][lL]|[vV][eE]|[rR][eE])|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]|\s+(?!\S)|\s+)re"}},
    // LLAMA_VOCAB_PRE_TYPE_SEED_CODER
    {PreStyle::Splits, "seed-coder", false,
     {R"re((?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1}| ?[^\s\p{L}\p{N}\r\n]+|\s*[\r\n]+|\s+(?!\S)|\s+)re"}},
    // LLAMA_VOCAB_PRE_TYPE_LAGUNA
    {PreStyle::Splits, "laguna", false,
     {R"re([^\n]+|[\n]+)re",
      R"re((?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+)re"}},
    // LLAMA_VOCAB_PRE_TYPE_EXAONE_MOE
    {PreStyle::Splits, "exaone-moe", false,
     {R"re((?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?(?:\p{L}\p{M}*(?: \p{L}\p{M}*)*)+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n/]?|\s*[\r\n]|\s+(?!\S)|\s+)re"}},
    // LLAMA_VOCAB_PRE_TYPE_MINICPM5
    {PreStyle::Splits, "minicpm5", true,
     {R"re(\p{N}{1,3})re",
      R"re((?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}+| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+)re"}},
    // LLAMA_VOCAB_PRE_TYPE_KIMI_K2: tokenization_kimi.py's tiktoken pattern (llama.cpp's unicode.cpp quotes it and
    // splits it with its own code); its class intersections `[…&&[^\p{Han}]]` written as a lookahead.
    {PreStyle::Splits, "kimi-k2", false,
     {R"re([\p{Han}]+|[^\r\n\p{L}\p{N}]?(?:(?!\p{Han})[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}])*(?:(?!\p{Han})[\p{Ll}\p{Lm}\p{Lo}\p{M}])+(?i:'s|'t|'re|'ve|'m|'ll|'d)?|[^\r\n\p{L}\p{N}]?(?:(?!\p{Han})[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}])+(?:(?!\p{Han})[\p{Ll}\p{Lm}\p{Lo}\p{M}])*(?i:'s|'t|'re|'ve|'m|'ll|'d)?|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+)re"}},
    // LLAMA_VOCAB_PRE_TYPE_AFMOE: llama.cpp's `\p{AFMoE_digits}` (its own code: a digit run cut into groups of three
    // from the right) as the regex that cuts so.
    {PreStyle::Splits, "afmoe", false,
     {R"re(\p{N}{1,3}(?=(?:\p{N}{3})*(?!\p{N})))re",
      R"re([一-鿿㐀-䶿豈-﫿぀-ゟ゠-ヿ･-ﾟ⼀-⿟เ-๿຀-໿ក-៿က-႟ꩠ-ꩿꧠ-꧿가-힯ᄀ-ᇿ]+)re",
      R"re([!"#$%&'()*+,\-./:;<=>?@\[\\\]^_`{|}~][A-Za-z]+|[^\r\n\p{L}\p{P}\p{S}]?[\p{L}\p{M}]+| ?[\p{P}\p{S}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+)re"}},
    // LLAMA_VOCAB_PRE_TYPE_SUPERBPE: its second regex `(?=(\d{3})+(?!\d))` matches only empty strings (a cut before
    // each group of three digits from the right); written as the regex that matches the groups.
    {PreStyle::Splits, "superbpe", false,
     {R"re(\p{N}+)re",
      R"re(\d{1,3}(?=(?:\d{3})*(?!\d)))re"}},
    // LLAMA_VOCAB_PRE_TYPE_DEFAULT
    {PreStyle::Splits, "default", false,
     {R"re([\p{P}\$\+<=>\^~\|]+)re",
      R"re('s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S))re",
      R"re(\p{N}+)re",
      R"re([0-9][0-9][0-9])re"}},
    };
    return kFamilies;
}

bool has_name(const PreFamily& f, std::string_view pre) {
    std::string_view rest = f.names;
    while (!rest.empty()) {
        const auto sp = rest.find(' ');
        if (rest.substr(0, sp) == pre) return true;
        rest = sp == std::string_view::npos ? std::string_view() : rest.substr(sp + 1);
    }
    return false;
}

std::string_view first_name(const PreFamily& f) { return f.names.substr(0, f.names.find(' ')); }

/// {"type":"Sequence","pretokenizers":[Split(regex, Isolated)…, ByteLevel(no prefix space, trim_offsets, no regex)]}
std::string splits_then_byte_level_json(const std::vector<std::string_view>& regexes, bool trim_offsets) {
    std::string s = R"({"type":"Sequence","pretokenizers":[)";
    for (std::string_view re : regexes) {
        s += R"({"type":"Split","pattern":{"Regex":)";
        JsonWriter::escape_to(s, re);
        s += R"(},"behavior":"Isolated","invert":false},)";
    }
    s += R"({"type":"ByteLevel","add_prefix_space":false,"trim_offsets":)";
    s += trim_offsets ? "true" : "false";
    s += R"(,"use_regex":false}]})";
    return s;
}

/// `p` is Sequence[Split(r, Isolated)… for each of `regexes`, ByteLevel without prefix space or regex].
bool is_splits_then_byte_level(const PreTokenizer& p, const std::vector<std::string_view>& regexes) {
    if (p.kind != PreTokenizer::Kind::Sequence || p.children.size() != regexes.size() + 1) return false;
    for (std::size_t i = 0; i < regexes.size(); ++i) {
        const PreTokenizer& s = p.children[i];
        if (s.kind != PreTokenizer::Kind::Split || !s.pattern_is_regex || s.pattern_text != regexes[i] ||
            s.behavior != SplitBehavior::Isolated || s.invert)
            return false;
    }
    const PreTokenizer& b = p.children.back();
    return b.kind == PreTokenizer::Kind::ByteLevel && !b.add_prefix_space && !b.use_regex;
}

constexpr std::string_view kByteLevelOffsets = R"({"type":"ByteLevel","add_prefix_space":true,"trim_offsets":false,"use_regex":true})";
constexpr std::string_view kByteLevelDecoder = R"({"type":"ByteLevel","add_prefix_space":true,"trim_offsets":true,"use_regex":true})";

}  // namespace

std::optional<std::string> pre_name_for_definition(const PreTokenizer& p) {
    for (const PreFamily& f : families()) {
        if (f.style == PreStyle::Gpt2File) {
            if (p.kind == PreTokenizer::Kind::ByteLevel && !p.add_prefix_space && p.use_regex) return std::string(first_name(f));
        } else if (is_splits_then_byte_level(p, f.splits)) {
            return std::string(first_name(f));
        }
    }
    return std::nullopt;
}

std::optional<PreDefinition> pre_definition(std::string_view pre) {
    for (const PreFamily& f : families()) {
        if (!has_name(f, pre)) continue;
        switch (f.style) {
            case PreStyle::Qwen2File: {
                const std::string plain = R"({"type":"ByteLevel","add_prefix_space":false,"trim_offsets":false,"use_regex":false})";
                return PreDefinition{R"({"type":"NFC"})", splits_then_byte_level_json(f.splits, false), plain, plain, f.ignore_merges};
            }
            case PreStyle::Gpt2File:  // written before `use_regex` existed: its default, true, spelled out
                return PreDefinition{"null", R"({"type":"ByteLevel","add_prefix_space":false,"trim_offsets":true,"use_regex":true})",
                                     std::string(kByteLevelOffsets), std::string(kByteLevelDecoder), f.ignore_merges};
            case PreStyle::Splits:
                return PreDefinition{"null", splits_then_byte_level_json(f.splits, true), std::string(kByteLevelOffsets),
                                     std::string(kByteLevelDecoder), f.ignore_merges};
        }
    }
    return std::nullopt;
}

std::optional<std::string_view> pre_without_definition(std::string_view pre) {
    if (pre == "gemma4" || pre == "granite-embed-multi-311m" || pre == "sarvam-moe" || pre == "whitespace")
        return "it is not a byte-level pre-tokenizer";
    return std::nullopt;
}

}  // namespace amn::tok
