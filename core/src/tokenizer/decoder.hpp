// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// tokenizer.json `decoder` (decoders/*.rs): tokens back to text, as
// `Tokenizer::decode` does after mapping ids to tokens.
#include "tokenizer/regex.hpp"

#include <simdjson.h>

#include <memory>
#include <string>
#include <vector>

namespace amn::tok {

struct Decoder {
    enum class Kind : std::uint8_t { Sequence, ByteLevel, Metaspace, ByteFallback, Fuse, Strip, Replace, BPEDecoder, WordPiece };
    Kind kind = Kind::Sequence;
    std::string type;                ///< the JSON `type` as written
    std::vector<Decoder> children;   ///< Sequence: `decoders`
    std::string text;                ///< Metaspace: replacement; Strip: content; Replace: content; BPEDecoder: suffix; WordPiece: prefix
    bool prepend = true;             ///< Metaspace: prepend_scheme ≠ never
    bool cleanup = false;            ///< WordPiece: cleanup
    std::size_t start = 0, stop = 0; ///< Strip: characters to strip at each end
    std::shared_ptr<const Regex> pattern;  ///< Replace

    /// `Decoder::decode_chain`: each step maps the token list to a new one.
    /// Invalid UTF-8 from byte decoders is replaced by U+FFFD (from_utf8_lossy).
    std::vector<std::string> decode_chain(std::vector<std::string> tokens) const;
};

/// Parse a tokenizer.json decoder object. \throws Error{Unsupported} for an
/// unknown type (CTC, …), Error{BadJson} for a malformed one.
Decoder parse_decoder(simdjson::dom::element e, const std::string& file);

/// Rust's `String::from_utf8_lossy`: every maximal ill-formed subsequence → U+FFFD.
std::string utf8_lossy(std::string_view bytes);

}  // namespace amn::tok
