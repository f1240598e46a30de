// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// The BPE model of tokenizer.json (`model.type == "BPE"`): vocabulary,
// merges by rank, and the word → ids step of the `tokenizers` library
// (models/bpe/model.rs `tokenize`, `merge_word`, word.rs `merge_all`);
// also its WordPiece model (`"WordPiece"`, models/wordpiece/mod.rs
// `tokenize`: greedy longest match, "##" continuations, one unk per word).
#include <simdjson.h>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace amn::tok {

class BpeModel {
public:
    /// Read a tokenizer.json `model` object. `file` names it in errors.
    /// \throws Error{Unsupported} when the type is neither BPE nor WordPiece or `dropout` is
    ///         set (> 0: random), Error{BadJson} for a malformed vocab/merges
    ///         (a merge that is not two parts, or names a token not in the vocabulary).
    static BpeModel parse(simdjson::dom::element model, const std::string& file);

    /// Append the ids of `word` (one pre-tokenized piece, UTF-8) to `out`.
    /// With `ignore_merges`, a word that is itself in the vocabulary is one token.
    /// Characters with no token (no byte fallback, no unk_token) are dropped,
    /// as tokenizers does. WordPiece: the longest vocabulary entry from the
    /// left, then the longest `continuing_subword_prefix` + rest, …; a word
    /// with a part no entry covers, or longer than `max_input_chars_per_word`
    /// characters, is the one unk token.
    /// \throws Error{BadJson} when unk_token is not in the vocabulary (WordPiece: when it is needed).
    void tokenize(std::string_view word, std::vector<std::uint32_t>& out) const;

    std::optional<std::uint32_t> token_to_id(std::string_view token) const;
    /// The token of `id`, or nullptr.
    const std::string* id_to_token(std::uint32_t id) const;
    /// `model.vocab` entries (token, id), in file order, duplicates resolved (last wins).
    const std::vector<std::pair<std::string, std::uint32_t>>& vocab() const noexcept { return vocab_list_; }
    /// Number of entries of `model.vocab` (`len(model.vocab)`).
    std::size_t size() const noexcept { return vocab_list_.size(); }

    /// `model.type` "WordPiece" (defaults: unk "[UNK]", prefix "##", 100 characters per word).
    bool wordpiece = false;
    std::size_t max_input_chars_per_word = 100;  ///< WordPiece
    bool ignore_merges = false;
    bool byte_fallback = false;
    bool fuse_unk = false;
    std::optional<std::string> unk_token;
    std::optional<std::string> continuing_subword_prefix;
    std::optional<std::string> end_of_word_suffix;

private:
    struct Merge {
        std::uint32_t rank;
        std::uint32_t new_id;
    };
    void tokenize_wordpiece(std::string_view word, std::vector<std::uint32_t>& out) const;
    static std::uint64_t key(std::uint32_t a, std::uint32_t b) { return (std::uint64_t(a) << 32) | b; }

    // Heterogeneous lookup: a token is looked up as a string_view (no copy per merge or piece).
    struct StringHash {
        using is_transparent = void;
        std::size_t operator()(std::string_view s) const noexcept { return std::hash<std::string_view>{}(s); }
    };
    std::unordered_map<std::string, std::uint32_t, StringHash, std::equal_to<>> vocab_;
    std::vector<std::pair<std::string, std::uint32_t>> vocab_list_;
    std::unordered_map<std::uint32_t, std::string> vocab_r_;
    std::unordered_map<std::uint64_t, Merge> merges_;
    std::string file_;
};

}  // namespace amn::tok
