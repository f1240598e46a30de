// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// gguf-py vocab.py `SpecialVocab`: merges, special token ids, add_*_token
// flags, chat templates and normalizer flags of a Hugging Face folder, and
// their key/values as `SpecialVocab.add_to_gguf` writes them.
#include "anamnesis/metadata.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace amn::tok {

/// The constructor arguments of SpecialVocab(path, load_merges, special_token_types, n_vocab).
struct SpecialVocabOptions {
    /// Read `tokenizer.ggml.merges` (tokenizer.json through bpe_merges(), else merges.txt).
    bool load_merges = false;
    /// Special token ids must be below this (others are skipped with a warning); nullopt = no bound.
    std::optional<std::uint64_t> n_vocab;
    /// The token types looked up, in this order (SpecialVocab's default).
    std::vector<std::string> special_token_types = {"bos", "eos", "unk", "sep", "pad", "cls", "mask"};
    /// config.json text for the `<type>_token_id` fallbacks; nullopt = read
    /// `dir`/config.json when it is a file (SpecialVocab reads it from the folder).
    std::optional<std::string> config_json;
};

/// One entry of the list form of `chat_template` ([{"name": …, "template": …}, …]).
struct NamedChatTemplate {
    std::string name;                     ///< as given ('' when absent)
    std::optional<std::string> template_; ///< nullopt when absent or null
};

/// What SpecialVocab loaded (its attributes), in the insertion order of its dicts.
struct SpecialVocab {
    std::vector<std::string> merges;                                   ///< `tokenizer.ggml.merges`
    std::vector<std::pair<std::string, std::uint64_t>> special_token_ids; ///< type → id, first set first
    std::vector<std::pair<std::string, bool>> add_special_token;       ///< type → add_<type>_token
    /// `chat_template`: a string, or the list form (`chat_template_list` then holds it).
    std::optional<std::string> chat_template;
    std::optional<std::vector<NamedChatTemplate>> chat_template_list;
    std::optional<bool> normalizer_lowercase;      ///< from tokenizer.json's normalizer
    std::optional<bool> normalizer_strip_accents;  ///< from tokenizer.json's normalizer
    std::vector<std::string> special_token_types;  ///< after loading (TemplateProcessing may add eot/eom)
    std::vector<std::string> warnings;             ///< what SpecialVocab logs as warnings

    /// `_set_special_token(typ, tid)`: ignored unless `tid` is an int (bool
    /// counts, as in Python); kept when below n_vocab (or no bound) and `typ`
    /// is still unset; a warning when out of range.
    /// \throws Error{BadJson} "invalid value for special token type T: N" naming `file` for a negative id.
    void set_special_token(std::string_view typ, std::optional<std::int64_t> tid,
                           std::optional<std::uint64_t> n_vocab, const std::string& file);
};

/// SpecialVocab(`dir`, …)._load(): `_try_load_from_tokenizer_json` (merges,
/// normalizer, post-processor RobertaProcessing/TemplateProcessing,
/// chat_template from tokenizer_config.json or chat_template.jinja (+
/// additional_chat_templates/*.jinja, in name order) or chat_template.json,
/// `add_<type>_token`, ids of tokenizer_config.json's `<type>_token` contents
/// among tokenizer.json's `added_tokens`), then `_try_load_from_config_json`
/// (`<type>_token_id`, also under `text_config`), then merges.txt when merges
/// were asked for and none found.
/// \throws Error{BadJson} (or BadText for a .jinja / merges.txt that is not
///         UTF-8) naming the file wherever the converter would stop on it: a
///         malformed file, a field of a type its code cannot handle.
SpecialVocab load_special_vocab(const std::string& dir, const SpecialVocabOptions& opt);

/// GGUFWriter.add_key_value: set `key` to `value`; a key already present
/// keeps its position and takes the new value (Python dict assignment).
void kv_put(std::vector<MetaKv>& kvs, std::string key, MetaValue value);

/// `SpecialVocab.add_to_gguf`: merges (if any), the special ids with a GGUF
/// key (bos, eos, unk, sep → seperator, pad → padding, mask, eot, eom; UINT32),
/// the add_bos/eos/sep_token flags (BOOL), the chat template(s)
/// (`tokenizer.chat_template`, list form: `tokenizer.chat_template.<name>`
/// and `tokenizer.chat_templates`), the normalizer flags — appended to
/// `kvs` with kv_put(). Types without a GGUF key (cls, prefix, suffix,
/// middle) are skipped, as the converter does (it logs "No handler").
/// \throws Error{OutOfRange} naming `dir` for an id that does not fit UINT32.
void add_special_vocab_kvs(const SpecialVocab& sv, std::vector<MetaKv>& kvs, const std::string& dir);

}  // namespace amn::tok
