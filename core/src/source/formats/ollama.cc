// SPDX-License-Identifier: MIT OR Apache-2.0
// `ollama:MODEL[:TAG]` → the model's GGUF blob in the local ollama store
// (manifest → model layer digest → blobs/sha256-HEX).
#include "anamnesis/error.hpp"
#include "anamnesis/gguf.hpp"
#include "util/json_util.hpp"

#include <simdjson.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

namespace amn {
namespace fs = std::filesystem;

bool is_ollama_spec(std::string_view spec) noexcept { return spec.substr(0, 7) == "ollama:"; }

std::string resolve_ollama(std::string_view spec) {
    const std::string spec_s(spec);
    if (!is_ollama_spec(spec)) throw Error(ErrorCode::Usage, "not an ollama: model reference: '" + spec_s + "'");
    std::string_view ref = spec.substr(7);
    std::string_view name = ref, tag = "latest";
    const auto slash = ref.rfind('/');
    const auto colon = ref.rfind(':');
    if (colon != std::string_view::npos && (slash == std::string_view::npos || colon > slash)) {
        name = ref.substr(0, colon);
        tag = ref.substr(colon + 1);
    }
    std::vector<std::string> parts;
    for (std::size_t i = 0; i <= name.size();) {
        const auto j = std::min(name.find('/', i), name.size());
        parts.emplace_back(name.substr(i, j - i));
        i = j + 1;
    }
    auto bad_part = [](const std::string& p) { return p.empty() || p == "." || p == ".." || p.find('\\') != std::string::npos; };
    if (parts.size() > 3 || tag.empty() || tag.find('/') != std::string_view::npos || tag == "." || tag == ".." ||
        std::any_of(parts.begin(), parts.end(), bad_part))
        throw Error(ErrorCode::Usage, "malformed ollama model reference '" + spec_s +
                                          "' (expected ollama:MODEL[:TAG], MODEL = name, namespace/name or host/namespace/name)");
    if (parts.size() == 1) parts.insert(parts.begin(), "library");
    if (parts.size() == 2) parts.insert(parts.begin(), "registry.ollama.ai");

    fs::path root;
    if (const char* env = std::getenv("OLLAMA_MODELS"); env && *env) {
        root = env;
    } else {
        const char* home = std::getenv("HOME");
        if (!home || !*home) throw Error(ErrorCode::Io, "cannot find the ollama store: neither OLLAMA_MODELS nor HOME is set");
        root = fs::path(home) / ".ollama" / "models";
    }
    const fs::path manifest = root / "manifests" / parts[0] / parts[1] / parts[2] / std::string(tag);
    std::ifstream in(manifest, std::ios::binary);
    if (!in)
        throw Error(ErrorCode::Io, "ollama model '" + std::string(ref) + "' not found: no manifest at " + manifest.string() +
                                       " (set OLLAMA_MODELS to the store's models folder)");
    std::stringstream ss;
    ss << in.rdbuf();
    const std::string text = ss.str();
    const std::string mpath = manifest.string();

    detail::OnDemandObject json(text, "ollama manifest", "ollama manifest (not a JSON object)", mpath);
    simdjson::ondemand::object& obj = json.root();
    simdjson::ondemand::array layers;
    detail::check_json(obj["layers"].get_array().get(layers), "ollama manifest 'layers'", mpath);
    std::string digest;
    for (auto layer : layers) {
        simdjson::ondemand::object lo;
        detail::check_json(layer.get_object().get(lo), "ollama manifest layer", mpath);
        std::string_view media, dg;
        bool have_media = false, have_digest = false;
        for (auto field : lo) {
            std::string_view k;
            detail::check_json(field.unescaped_key().get(k), "ollama manifest layer key", mpath);
            if (k == "mediaType") {
                detail::check_json(field.value().get_string().get(media), "ollama layer mediaType", mpath);
                have_media = true;
            } else if (k == "digest") {
                detail::check_json(field.value().get_string().get(dg), "ollama layer digest", mpath);
                have_digest = true;
            }
            if (have_media && have_digest) break;
        }
        if (have_media && media == "application/vnd.ollama.image.model") {
            if (!have_digest) throw Error(ErrorCode::Malformed, "ollama model layer has no digest", mpath);
            digest = std::string(dg);
            break;
        }
    }
    if (digest.empty()) throw Error(ErrorCode::Malformed, "ollama manifest has no model layer (application/vnd.ollama.image.model)", mpath);
    if (digest.rfind("sha256:", 0) != 0 || digest.size() != 7 + 64 ||
        digest.find_first_not_of("0123456789abcdef", 7) != std::string::npos)
        throw Error(ErrorCode::Malformed, "ollama model layer digest '" + digest + "' is not sha256:<64 hex digits>", mpath);
    const std::string hexd = digest.substr(7);
    for (const fs::path& blob : {root / "blobs" / ("sha256-" + hexd), root / "blobs" / ("sha256:" + hexd)}) {
        std::error_code ec;
        if (fs::is_regular_file(blob, ec)) return blob.string();
    }
    throw Error(ErrorCode::Io, "ollama model '" + std::string(ref) + "': blob " + (root / "blobs" / ("sha256-" + hexd)).string() +
                                   " named by the manifest is missing");
}

}  // namespace amn
