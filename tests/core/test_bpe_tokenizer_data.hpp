// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// tokenizer.json snippets of test_bpe_tokenizer.cc (kept out of the file moc reads:
// its parser does not understand raw string literals).

inline constexpr const char* kJson0 = R"(["h e", "l l", "he ll"])";
inline constexpr const char* kJson1 = R"("he": 256, "ll": 257, "hell": 258)";
inline constexpr const char* kJson2 = R"({"version": "1.0", "added_tokens": [{"id": 259, "content": "<|end|>", "special": true, "normalized": false,
        "lstrip": false, "rstrip": false, "single_word": false}], "normalizer": null, "pre_tokenizer": )";
inline constexpr const char* kJson3 = R"(, "post_processor": null, "decoder": {"type": "ByteLevel"},
        "model": {"type": "BPE", "vocab": {)";
inline constexpr const char* kJson4 = R"(}, "merges": )";
inline constexpr const char* kJson5 = R"({"type": "Sequence", "pretokenizers": [{"type": "Split", "pattern": {"Regex":
    "(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}{1,3}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+"},
    "behavior": "Isolated", "invert": false}, {"type": "ByteLevel", "add_prefix_space": false, "trim_offsets": true, "use_regex": false}]})";
inline constexpr const char* kJson6 = R"({"type": "Whitespace"})";
inline constexpr const char* kJson7 = R"([["h", "e"], ["l", "l"], ["he", "ll"]])";
inline constexpr const char* kJson8 = R"({"model": {"type": "BPE", "vocab": {"a": 0, " b": 1, "a b": 2}, "merges": [["a", " b"]]}})";
inline constexpr const char* kJson9 = R"({"model": {"type": "BPE", "vocab": {}, "merges": []}})";
inline constexpr const char* kJson10 = R"({"model": {"type": "BPE", "vocab": {}, "merges": [1, 2]}})";
inline constexpr const char* kJson11 = R"({"type": "Split", "pattern": {"Regex": "(a|aa)+$"}, "behavior": "Isolated", "invert": false})";
inline constexpr const char* kJson12 = R"({"added_tokens": [
            {"id": 3, "content": "<m>", "special": true, "normalized": false, "lstrip": true, "rstrip": true, "single_word": false},
            {"id": 4, "content": "ab", "special": false, "normalized": true, "lstrip": false, "rstrip": false, "single_word": true}],
            "model": {"type": "BPE", "vocab": {"a": 0, "b": 1, " ": 2}, "merges": []}})";
