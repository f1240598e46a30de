// SPDX-License-Identifier: MIT OR Apache-2.0
#include "anamnesis/lethe_layers.hpp"

#include <algorithm>
#include <map>

namespace amn {

std::string layer_of(const std::string& name) {
    std::size_t start = 0;
    while (start <= name.size()) {
        std::size_t end = name.find('.', start);
        if (end == std::string::npos) end = name.size();
        const bool digits = end > start &&
                            std::all_of(name.begin() + static_cast<std::ptrdiff_t>(start),
                                        name.begin() + static_cast<std::ptrdiff_t>(end),
                                        [](char c) { return c >= '0' && c <= '9'; });
        // The last component is the tensor itself ("weight", or an NPZ "0"): not a layer.
        if (digits && end < name.size()) return name.substr(0, end);
        start = end + 1;
    }
    return {};
}

double LayerLethe::bits_per_weight() const noexcept {
    return parameters ? 8.0 * static_cast<double>(stored_bytes) / static_cast<double>(parameters) : 0.0;
}

std::uint64_t LayerLethe::saved_bytes() const noexcept {
    return bf16_bytes > stored_bytes ? bf16_bytes - stored_bytes : 0;
}

std::vector<LayerLethe> lethe_by_layer(const Plan& plan) {
    std::vector<LayerLethe> out;
    std::map<std::string, std::size_t> index;
    for (const auto& lt : plan.tensors) {
        const std::string key = layer_of(lt.name);
        auto it = index.find(key);
        if (it == index.end()) {
            it = index.emplace(key, out.size()).first;
            out.push_back(LayerLethe{});
            out.back().layer = key;
        }
        auto& l = out[it->second];
        ++l.tensors;
        l.quantized_tensors += lt.quantized;
        const std::uint64_t n = lt.numel();
        l.parameters += n;
        l.stored_bytes += lt.stored_bytes;
        l.bf16_bytes += 2 * n;
    }
    // Numbered layers by (prefix, number); the un-numbered group last.
    auto number = [](const std::string& k) -> std::uint64_t {
        const auto dot = k.rfind('.');
        const std::string tail = dot == std::string::npos ? k : k.substr(dot + 1);
        std::uint64_t v = 0;
        for (char c : tail) v = v * 10 + static_cast<std::uint64_t>(c - '0');
        return v;
    };
    auto prefix = [](const std::string& k) {
        const auto dot = k.rfind('.');
        return dot == std::string::npos ? std::string{} : k.substr(0, dot);
    };
    std::stable_sort(out.begin(), out.end(), [&](const LayerLethe& a, const LayerLethe& b) {
        if (a.layer.empty() != b.layer.empty()) return b.layer.empty();
        if (a.layer.empty()) return false;
        const auto pa = prefix(a.layer), pb = prefix(b.layer);
        if (pa != pb) return pa < pb;
        return number(a.layer) < number(b.layer);
    });
    return out;
}

}  // namespace amn
