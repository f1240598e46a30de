// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// Tests: key/values written by anamnesis against the shared hf-gguf
// manifest (../shared/fixtures/hf-gguf/manifest.json: per output every KV in
// file order with its GGUF type and value, or the sha256 of the value's bytes
// as serialized — arrays from the element type, strings from the length).
#include "sink/gguf_writer.hpp"
#include "anamnesis/metadata.hpp"
#include "util/sha256.hpp"
#include "test_support.hpp"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace {

using namespace amn;

std::string hf_dir() {
    const auto shared = test::shared_fixtures_dir();
    return shared.empty() ? std::string() : shared + "/hf-gguf";
}

std::string read_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

void write_file(const std::string& path, const std::string& text) {
    std::ofstream out(path, std::ios::binary);
    out << text;
}

QJsonObject manifest_case(const std::string& name) {
    static const QJsonDocument doc = QJsonDocument::fromJson(QByteArray::fromStdString(read_file(hf_dir() + "/manifest.json")));
    for (const auto c : doc.object()["cases"].toArray())
        if (c.toObject()["name"].toString().toStdString() == name) return c.toObject();
    return {};
}

/// The manifest's tokenizer.* KVs of a case (its first output; all outputs agree).
QJsonArray expected_tokenizer_kvs(const std::string& name) {
    QJsonArray out;
    const auto c = manifest_case(name);
    for (const auto kv : c["outputs"].toArray()[0].toObject()["gguf"].toObject()["kv"].toArray())
        if (kv.toObject()["key"].toString().startsWith("tokenizer.")) out.append(kv);
    return out;
}

std::string type_words(const MetaValue& v) {
    auto name = [](GgufType t) -> std::string {
        switch (t) {
            case GgufType::String: return "STRING";
            case GgufType::F32: return "FLOAT32";
            case GgufType::I32: return "INT32";
            case GgufType::U32: return "UINT32";
            case GgufType::Bool: return "BOOL";
            default: return "?" + std::to_string(static_cast<unsigned>(t));
        }
    };
    return v.is_array() ? "ARRAY[" + name(v.elem_type) + "]" : name(v.type);
}

std::string hex(const std::uint8_t* p, std::size_t n) {
    static const char* d = "0123456789abcdef";
    std::string s;
    for (std::size_t i = 0; i < n; ++i) {
        s += d[p[i] >> 4];
        s += d[p[i] & 15];
    }
    return s;
}

/// Compare `got` (in order) with the manifest entries `want`; "" when equal,
/// else the first difference.
std::string compare_kvs(const std::vector<MetaKv>& got, const QJsonArray& want) {
    const std::size_t n = std::max<std::size_t>(got.size(), static_cast<std::size_t>(want.size()));
    for (std::size_t i = 0; i < n; ++i) {
        if (i >= got.size()) return "missing KV " + want[int(i)].toObject()["key"].toString().toStdString();
        if (i >= static_cast<std::size_t>(want.size())) return "extra KV " + got[i].key;
        const auto w = want[int(i)].toObject();
        const auto& g = got[i];
        if (g.key != w["key"].toString().toStdString())
            return "KV " + std::to_string(i) + ": key " + g.key + ", expected " + w["key"].toString().toStdString();
        if (type_words(g.value) != w["type"].toString().toStdString())
            return g.key + ": type " + type_words(g.value) + ", expected " + w["type"].toString().toStdString();
        const auto bytes = gguf_encode_kv(g);
        const std::size_t skip = 8 + g.key.size() + 4;  // key length, key, value type
        if (w.contains("sha256")) {
            const auto sha = detail::Sha256::of(bytes.data() + skip, bytes.size() - skip);
            if (sha != w["sha256"].toString().toStdString()) {
                std::string detail;
                if (g.value.is_string()) detail = " (value \"" + g.value.str.substr(0, 80) + "\")";
                if (g.value.is_array()) detail = " (count " + std::to_string(g.value.size()) + ")";
                return g.key + ": sha256 differs" + detail;
            }
        } else if (w.contains("raw")) {
            if (hex(bytes.data() + skip, bytes.size() - skip) != w["raw"].toString().toStdString())
                return g.key + ": value " + hex(bytes.data() + skip, bytes.size() - skip) + ", expected " +
                       w["raw"].toString().toStdString();
        } else {
            return g.key + ": manifest entry has neither sha256 nor raw";
        }
    }
    return {};
}



}  // namespace
