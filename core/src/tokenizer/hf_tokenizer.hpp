// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// A Hugging Face `tokenizer.json` with a BPE model, read and run as the
// Rust `tokenizers` library runs it (tokenizer/mod.rs `encode`/`decode`):
//   added tokens split out of the raw text (those with normalized: false),
//   normalizer, added tokens split out of the normalized text (normalized:
//   true), pre-tokenizer, BPE model, post-processor; decode maps ids to
//   tokens and runs the decoder.
// Truncation and padding are not applied (the converter sets neither).
// Immutable after load: every const method is safe from several threads.
#include "tokenizer/bpe_model.hpp"
#include "tokenizer/decoder.hpp"
#include "tokenizer/normalizer.hpp"
#include "tokenizer/post_processor.hpp"
#include "tokenizer/pre_tokenizer.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace amn::tok {

/// One entry of tokenizer.json `added_tokens` (tokenizers' AddedToken).
struct AddedToken {
    std::uint32_t id = 0;
    std::string content;
    bool special = false;
    bool normalized = true;  ///< default: !special
    bool lstrip = false;
    bool rstrip = false;
    bool single_word = false;
};

class HfTokenizer {
public:
    /// Read `path` (a tokenizer.json). \throws Error{Io} unreadable,
    /// Error{BadJson} malformed, Error{Unsupported} a model other than BPE or
    /// a component type not implemented here; every error names `path`.
    static HfTokenizer load(const std::string& path);
    /// Same from JSON text; `file` names it in errors.
    static HfTokenizer parse(std::string_view json, const std::string& file);

    /// Token ids of `text` (UTF-8), as `Tokenizer::encode(text, add_special_tokens).ids`.
    /// \throws Error{BadText} when `text` is not valid UTF-8, Error{LimitExceeded}
    ///         when a pre-tokenizer regex exceeds its backtracking limits.
    std::vector<std::uint32_t> encode(std::string_view text, bool add_special_tokens) const;

    /// Text of `ids`, as `Tokenizer::decode(ids, skip_special_tokens)`: ids with
    /// no token are skipped; without a decoder the tokens are joined with " ".
    std::string decode(const std::vector<std::uint32_t>& ids, bool skip_special_tokens = false) const;

    /// Id of `token`: an added token first, then the model's.
    std::optional<std::uint32_t> token_to_id(std::string_view token) const;
    /// Token of `id` (added token first, then the model's), or nullptr.
    const std::string* id_to_token(std::uint32_t id) const;

    const BpeModel& model() const noexcept { return model_; }
    /// `added_tokens` in file order.
    const std::vector<AddedToken>& added_tokens() const noexcept { return added_; }
    /// The added token with id `id`, or nullptr.
    const AddedToken* added_token(std::uint32_t id) const;
    /// `get_vocab()` (with added tokens): the model vocabulary with added
    /// tokens on top (an added token's content maps to its id), token → id.
    std::unordered_map<std::string, std::uint32_t> vocab() const;

    const std::optional<Normalizer>& normalizer() const noexcept { return normalizer_; }
    const std::optional<PreTokenizer>& pre_tokenizer() const noexcept { return pre_tokenizer_; }
    const std::optional<PostProcessor>& post_processor() const noexcept { return post_processor_; }
    const std::optional<Decoder>& decoder() const noexcept { return decoder_; }
    const std::string& file() const noexcept { return file_; }

private:
    /// Leftmost-longest matcher over the contents of one group of added tokens.
    struct Trie {
        struct Node {
            std::unordered_map<unsigned char, std::uint32_t> next;
            std::int32_t token = -1;  ///< index into added_ of the token ending here
        };
        std::vector<Node> nodes{1};
        void insert(std::string_view s, std::int32_t token);
        /// Longest token starting at `pos` of `s`: (index, length) or (-1, 0).
        std::pair<std::int32_t, std::size_t> longest(std::string_view s, std::size_t pos) const;
        bool empty() const { return nodes.size() == 1; }
    };
    struct Segment {
        std::string text;
        std::int32_t added = -1;  ///< index into added_, or −1 for text still to tokenize
        bool at_origin = false;
    };
    static HfTokenizer from_root(simdjson::dom::element root, const std::string& path);
    void split_added(const Trie& trie, std::vector<Segment>& segs, bool normalize_first) const;

    BpeModel model_;
    std::vector<AddedToken> added_;
    std::unordered_map<std::uint32_t, std::size_t> added_by_id_;
    std::unordered_map<std::string, std::size_t> added_by_content_;
    Trie raw_trie_, normalized_trie_;
    std::vector<std::string> normalized_contents_;  ///< per added token (normalized ones: the normalizer applied)
    std::optional<Normalizer> normalizer_;
    std::optional<PreTokenizer> pre_tokenizer_;
    std::optional<PostProcessor> post_processor_;
    std::optional<Decoder> decoder_;
    std::string file_;
};

}  // namespace amn::tok
