// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// Shared by the GGUF suites (test_gguf, test_gguf_parser, test_gguf_writer,
// test_gguf_ftype, test_forget_gguf): a minimal GGUF writer for synthetic
// files (independent of the parser), a whole-tensor F32 dequantization and
// the path of a shared gguf-real fixture.
#include "anamnesis/catalog.hpp"
#include "anamnesis/plan.hpp"
#include "test_support.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

namespace amn::test_gguf {

// ---- a minimal GGUF writer for synthetic files (independent of the parser) ----
struct GgufBuilder {
    bool be = false;
    std::vector<std::uint8_t> b;

    template <class T>
    void num(T v) {
        std::uint8_t raw[sizeof(T)];
        std::memcpy(raw, &v, sizeof(T));
        if (be) std::reverse(raw, raw + sizeof(T));
        b.insert(b.end(), raw, raw + sizeof(T));
    }
    void str(std::string_view s) {
        num<std::uint64_t>(s.size());
        b.insert(b.end(), s.begin(), s.end());
    }
    void header(std::uint64_t n_tensors, std::uint64_t n_kv, std::uint32_t version = 3) {
        b.insert(b.end(), {'G', 'G', 'U', 'F'});
        num<std::uint32_t>(version);
        num<std::uint64_t>(n_tensors);
        num<std::uint64_t>(n_kv);
    }
    void kv_u32(std::string_view k, std::uint32_t v) { str(k); num<std::uint32_t>(4); num<std::uint32_t>(v); }
    void kv_str(std::string_view k, std::string_view v) { str(k); num<std::uint32_t>(8); str(v); }
    void tensor(std::string_view name, std::vector<std::uint64_t> ne, std::uint32_t type, std::uint64_t offset) {
        str(name);
        num<std::uint32_t>(static_cast<std::uint32_t>(ne.size()));
        for (auto d : ne) num<std::uint64_t>(d);
        num<std::uint32_t>(type);
        num<std::uint64_t>(offset);
    }
    void pad(std::size_t align = 32) {
        while (b.size() % align) b.push_back(0);
    }
    void data(std::size_t n, std::uint8_t fill = 0) { b.insert(b.end(), n, fill); }
};

/// A file of no tensors and one u32 key: the preamble of many bad inputs.
inline GgufBuilder one_u32_key(std::string_view key, std::uint32_t value) {
    GgufBuilder g;
    g.header(0, 1);
    g.kv_u32(key, value);
    return g;
}

/// The path of `name` in the shared fixtures' gguf-real/ (llama-quantize's
/// files), "" when the shared fixtures are missing.
inline std::string gguf_real(const std::string& name) {
    const auto shared = test::shared_fixtures_dir();
    return shared.empty() ? std::string() : shared + "/gguf-real/" + name;
}

inline std::vector<float> dequantize_all(const LogicalTensor& lt) {
    std::vector<float> out(lt.numel());
    if (lt.recipe && lt.recipe->rows()) lt.recipe->dequantize_rows(0, lt.recipe->rows(), out.data());
    return out;
}

}  // namespace amn::test_gguf
