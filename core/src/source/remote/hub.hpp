// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
/// \file hub.hpp
/// Internal: the Hugging Face Hub's names and endpoints, as huggingface_hub
/// (constants.py, file_download.py `hf_hub_url`, hf_api.py `model_info`)
/// has them: `hf://ORG/REPO[@REV][/PATH]` specs, the endpoint, the token,
/// the model listing and the URL of one file.
#include "source/remote/http_client.hpp"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace amn::remote {

/// A parsed `hf://ORG/REPO[@REVISION][/PATH]`.
struct HubSpec {
    std::string repo;              ///< "ORG/REPO"
    std::string revision = "main"; ///< a branch, tag or commit; "main" when not given
    bool revision_given = false;
    std::string path;              ///< a file or folder inside the repository, "" for its root
};

/// Parse an `hf://` spec. A revision may hold '/' (`refs/pr/1`) only when it
/// is the last part (`hf://ORG/REPO@refs/pr/1`, no PATH then).
/// \throws Error{Usage} naming what is wrong (no ORG/REPO, an empty
///         revision, `..` in the path).
HubSpec parse_hub_spec(std::string_view spec);

/// `HF_ENDPOINT` without a trailing '/', default "https://huggingface.co".
std::string hub_endpoint();

/// The token: `HF_TOKEN`, else the first line of the token file
/// (`HF_TOKEN_PATH`, else `$HF_HOME/token`, HF_HOME defaulting to
/// `$XDG_CACHE_HOME/huggingface` or `~/.cache/huggingface`); "" for none.
std::string hub_token();

/// `HF_HUB_DOWNLOAD_TIMEOUT` in whole seconds (at least 1), default 10.
long hub_timeout_seconds();

/// Percent-encode `s` as Python's urllib.parse.quote does (unreserved
/// characters and, with `keep_slash`, '/' kept).
std::string percent_encode(std::string_view s, bool keep_slash);

/// One file of a repository listing.
struct HubFile {
    std::string path;        ///< `rfilename`, relative to the repository root
    std::uint64_t size = 0;  ///< bytes; 0 with `size_known` false when the listing lacks it
    bool size_known = false;
};

/// The files of a model listing (the API's JSON answer, its `siblings`
/// array: `rfilename`, `size`); `where` names it in errors.
/// \throws Error{BadJson} for anything but an object with a `siblings`
///         array of objects each holding a string `rfilename`.
std::vector<HubFile> parse_hub_listing(std::string_view json, const std::string& where);

/// The shard files a `*.safetensors.index.json` or
/// `pytorch_model.bin.index.json` names (its `weight_map` values), each
/// once, in first-seen order. \throws Error{BadJson} for JSON that is not
/// such an object, Error{Unsupported} for a shard outside the index's
/// folder (a '/' in the name).
std::vector<std::string> index_shard_files(std::string_view json, const std::string& where);

/// Every file of the repository at the spec's revision:
/// GET `{endpoint}/api/models/{repo}/revision/{quoted rev}?blobs=true`.
/// \throws Error{Network} (the request), Error{BadJson} for an answer that
///         is not the API's JSON (no `siblings` array).
std::vector<HubFile> hub_list(HttpClient& http, const std::string& endpoint, const HubSpec& spec);

/// `{endpoint}/{repo}/resolve/{quoted rev}/{quoted path}`.
std::string hub_file_url(const std::string& endpoint, const HubSpec& spec, const std::string& path);

}  // namespace amn::remote
