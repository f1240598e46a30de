// SPDX-License-Identifier: MIT OR Apache-2.0
#include "source/remote/hub.hpp"

#include "anamnesis/error.hpp"
#include "util/json_util.hpp"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>

namespace amn::remote {

namespace {
namespace fs = std::filesystem;

std::string env(const char* name) {
    const char* v = std::getenv(name);
    return v ? std::string(v) : std::string();
}
}  // namespace

HubSpec parse_hub_spec(std::string_view spec) {
    const std::string given(spec);
    if (!spec.starts_with("hf://")) throw Error(ErrorCode::Usage, "not an hf:// model", given);
    std::string_view rest = spec.substr(5);
    while (!rest.empty() && rest.back() == '/') rest.remove_suffix(1);
    const auto slash = rest.find('/');
    if (slash == std::string_view::npos || slash == 0)
        throw Error(ErrorCode::Usage, "expected hf://ORG/REPO[@REVISION][/PATH]", given);
    HubSpec h;
    const auto repo_end = rest.find_first_of("@/", slash + 1);
    h.repo = std::string(rest.substr(0, repo_end));
    if (h.repo.size() == slash + 1) throw Error(ErrorCode::Usage, "expected hf://ORG/REPO[@REVISION][/PATH]: no REPO", given);
    if (repo_end == std::string_view::npos) return h;
    std::string_view tail = rest.substr(repo_end);
    if (tail[0] == '@') {
        tail.remove_prefix(1);
        // refs/pr/N and refs/convert/… hold slashes: the whole rest is the revision.
        const bool refs = tail.starts_with("refs/");
        const auto end = refs ? std::string_view::npos : tail.find('/');
        h.revision = std::string(tail.substr(0, end));
        h.revision_given = true;
        if (h.revision.empty()) throw Error(ErrorCode::Usage, "empty revision after '@'", given);
        tail = end == std::string_view::npos ? std::string_view() : tail.substr(end);
    }
    if (!tail.empty()) {
        h.path = std::string(tail.substr(1));
        for (std::string_view p = h.path; !p.empty();) {
            const auto s = p.find('/');
            const auto part = p.substr(0, s);
            if (part == ".." || part == "." || part.empty())
                throw Error(ErrorCode::Usage, "the path inside the repository may not hold '.', '..' or '//'", given);
            p = s == std::string_view::npos ? std::string_view() : p.substr(s + 1);
        }
    }
    return h;
}

std::string hub_endpoint() {
    std::string e = env("HF_ENDPOINT");
    if (e.empty()) e = "https://huggingface.co";
    while (!e.empty() && e.back() == '/') e.pop_back();
    return e;
}

std::string hub_token() {
    std::string t = env("HF_TOKEN");
    if (t.empty()) {
        fs::path file = env("HF_TOKEN_PATH");
        if (file.empty()) {
            fs::path home = env("HF_HOME");
            if (home.empty()) {
                const std::string xdg = env("XDG_CACHE_HOME");
                home = !xdg.empty() ? fs::path(xdg) / "huggingface" : fs::path(env("HOME")) / ".cache" / "huggingface";
            }
            file = home / "token";
        }
        std::ifstream in(file);
        if (in) std::getline(in, t);
    }
    while (!t.empty() && (t.back() == '\n' || t.back() == '\r' || t.back() == ' ')) t.pop_back();
    while (!t.empty() && t.front() == ' ') t.erase(t.begin());
    return t;
}

long hub_timeout_seconds() {
    const std::string v = env("HF_HUB_DOWNLOAD_TIMEOUT");
    if (v.empty()) return 10;
    char* end = nullptr;
    const double s = std::strtod(v.c_str(), &end);
    if (end == v.c_str() || !(s > 0)) return 10;
    return s < 1 ? 1 : static_cast<long>(s + 0.5);
}

std::string percent_encode(std::string_view s, bool keep_slash) {
    static const char* hex = "0123456789ABCDEF";
    std::string out;
    for (unsigned char c : s) {
        const bool unreserved = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' ||
                                c == '.' || c == '_' || c == '~' || (keep_slash && c == '/');
        if (unreserved) {
            out += static_cast<char>(c);
        } else {
            out += '%';
            out += hex[c >> 4];
            out += hex[c & 15];
        }
    }
    return out;
}

std::vector<HubFile> parse_hub_listing(std::string_view text, const std::string& where) {
    namespace od = simdjson::ondemand;
    detail::OnDemandObject json(text, "the Hub's model listing is not valid JSON", "the Hub's model listing is not a JSON object", where);
    std::vector<HubFile> files;
    bool have_siblings = false;
    for (auto field : json.root()) {
        std::string_view key;
        detail::check_json(field.unescaped_key().get(key), "invalid key", where);
        if (key != "siblings") continue;
        od::array arr;
        detail::check_json(field.value().get_array().get(arr), "\"siblings\" is not an array", where);
        have_siblings = true;
        files.clear();  // a repeated key: the last one (Python's json)
        for (auto el : arr) {
            od::object o;
            detail::check_json(el.get_object().get(o), "a sibling is not an object", where);
            HubFile f;
            for (auto kv : o) {
                std::string_view k;
                detail::check_json(kv.unescaped_key().get(k), "invalid key", where);
                if (k == "rfilename") {
                    std::string_view v;
                    detail::check_json(kv.value().get_string().get(v), "\"rfilename\" is not a string", where);
                    f.path = std::string(v);
                } else if (k == "size") {
                    std::uint64_t n = 0;
                    if (kv.value().get_uint64().get(n) == simdjson::SUCCESS) {
                        f.size = n;
                        f.size_known = true;
                    }
                }
            }
            if (f.path.empty()) throw Error(ErrorCode::BadJson, "a sibling without \"rfilename\"", where);
            files.push_back(std::move(f));
        }
    }
    if (!have_siblings) throw Error(ErrorCode::BadJson, "the Hub's model listing has no \"siblings\" array", where);
    return files;
}

std::vector<HubFile> hub_list(HttpClient& http, const std::string& endpoint, const HubSpec& spec) {
    const std::string url = endpoint + "/api/models/" + spec.repo + "/revision/" + percent_encode(spec.revision, false) + "?blobs=true";
    const auto body = http.get_all(url, 64ull << 20);
    return parse_hub_listing(*body, HttpClient::shown(url));
}

std::vector<std::string> index_shard_files(std::string_view text, const std::string& where) {
    namespace od = simdjson::ondemand;
    detail::OnDemandObject json(text, "not valid JSON", "not a JSON object", where);
    std::vector<std::string> out;
    std::set<std::string> seen;
    for (auto field : json.root()) {
        std::string_view key;
        detail::check_json(field.unescaped_key().get(key), "invalid key", where);
        if (key != "weight_map") continue;
        od::object map;
        detail::check_json(field.value().get_object().get(map), "\"weight_map\" is not an object", where);
        for (auto kv : map) {
            std::string_view file;
            detail::check_json(kv.value().get_string().get(file), "a weight_map value is not a string", where);
            if (file.find('/') != std::string_view::npos || file == ".." || file == "." || file.empty())
                throw Error(ErrorCode::Unsupported, "weight_map names a file outside the index's folder: '" + std::string(file) + "'", where);
            if (seen.insert(std::string(file)).second) out.emplace_back(file);
        }
    }
    return out;
}

std::string hub_file_url(const std::string& endpoint, const HubSpec& spec, const std::string& path) {
    return endpoint + "/" + spec.repo + "/resolve/" + percent_encode(spec.revision, false) + "/" + percent_encode(path, true);
}

}  // namespace amn::remote
