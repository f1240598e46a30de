// SPDX-License-Identifier: MIT OR Apache-2.0
// STUB: drop when merging hf/tok-bpe. Throwing stand-ins for the BPE side
// (implemented on branch hf/tok-bpe) so that hf/tok-spm links on its own.
#include "tokenizer/bpe_vocab.hpp"

#include "anamnesis/error.hpp"

namespace amn::tok {

Gpt2Vocab gpt2_vocab(const std::string& dir, std::optional<std::uint64_t>, const std::optional<std::string>&) {
    throw Error(ErrorCode::Unsupported, "BPE vocabularies: stub (hf/tok-bpe not merged)", dir);
}

std::vector<std::string> bpe_merges(const std::string& tokenizer_json_path) {
    throw Error(ErrorCode::Unsupported, "BPE merges: stub (hf/tok-bpe not merged)", tokenizer_json_path);
}

}  // namespace amn::tok
