// SPDX-License-Identifier: MIT OR Apache-2.0
#include "anamnesis/plan.hpp"

#include "anamnesis/error.hpp"
#include "plan/schemes/facts.hpp"
#include "plan/schemes/scheme.hpp"

#include <algorithm>
#include <cctype>
#include <cstring>

namespace amn {

std::string_view role_name(Role r) noexcept {
    switch (r) {
        case Role::Quantized: return "quantized";
        case Role::Companion: return "companion";
        case Role::Passthrough: return "passthrough";
        case Role::Unsupported: return "unsupported";
    }
    return "?";
}

std::string_view companion_role_name(CompanionRole r) noexcept {
    switch (r) {
        case CompanionRole::None: return "";
        case CompanionRole::Scale: return "scale";
        case CompanionRole::GlobalScale: return "global scale";
        case CompanionRole::ActivationScale: return "activation scale";
        case CompanionRole::NestedScale: return "nested scale";
        case CompanionRole::ZeroPoint: return "zero point";
        case CompanionRole::Bias: return "bias";
        case CompanionRole::GroupIndex: return "group index";
        case CompanionRole::Codebook: return "codebook";
        case CompanionRole::QuantState: return "quant state";
        case CompanionRole::Layout: return "layout";
        case CompanionRole::Payload: return "payload";
    }
    return "?";
}

std::vector<Recipe::InputRange> Recipe::consumed_inputs(std::uint64_t row0, std::uint64_t nrows) const {
    const auto ins = inputs();
    const std::uint64_t n = rows();
    if (ins.empty() || n == 0 || nrows == 0) return {};
    if (payload_is_row_major()) {
        const auto& in = ins[0];
        const std::uint64_t rb = in.len / n;  // payload bytes per row
        const std::uint64_t end = std::min(n, row0 + nrows);
        if (row0 >= end) return {};
        return {{in.shard, in.offset + row0 * rb, (end - row0) * rb}};
    }
    if (row0 + nrows >= n) return ins;
    return {};
}

void Recipe::copy_rows(std::uint64_t, std::uint64_t, std::uint8_t*) const {
    throw Error(ErrorCode::Unsupported, "this recipe has no lossless copy");
}

std::uint64_t LogicalTensor::numel() const noexcept {
    std::uint64_t n = 1;
    for (auto d : shape) n *= d;
    return n;
}

std::string_view tensor_error_kind_name(TensorErrorKind k) noexcept {
    switch (k) {
        case TensorErrorKind::None: return "";
        case TensorErrorKind::UnknownDtype: return "unknown-dtype";
        case TensorErrorKind::UnsupportedLayout: return "unsupported-layout";
        case TensorErrorKind::MissingCompanion: return "missing-companion";
        case TensorErrorKind::BadCompanion: return "bad-companion";
        case TensorErrorKind::UnsupportedVariant: return "unsupported-variant";
        case TensorErrorKind::ConfigConflict: return "config-conflict";
        case TensorErrorKind::UnknownScheme: return "unknown-scheme";
    }
    return "";
}

std::string TensorError::message() const {
    if (empty()) return "";
    return scheme.empty() ? detail : scheme + ": " + detail;
}

std::size_t Plan::error_count() const noexcept {
    return static_cast<std::size_t>(std::count_if(tensors.begin(), tensors.end(), [](const auto& t) { return !t.error.empty(); }));
}

namespace detail {

PlanBuilder::PlanBuilder(const Catalog& catalog, Plan& plan, const PlanOptions& options)
    : cat_(catalog), plan_(plan), options_(options), claimed_(catalog.tensors.size(), false) {
    plan_.roles.assign(catalog.tensors.size(), Role::Passthrough);
}

std::size_t PlanBuilder::find_unclaimed(std::string_view name) const {
    auto i = cat_.find(name);
    if (!i || claimed_[*i]) return npos;
    return *i;
}

void PlanBuilder::add_quantized(LogicalTensor lt, std::shared_ptr<const QuantRecipe> recipe, std::size_t payload,
                                const std::vector<std::size_t>& companions) {
    lt.params = recipe->params();
    lt.recipe = std::move(recipe);
    lt.sources.clear();
    lt.sources.push_back(payload);
    lt.sources.insert(lt.sources.end(), companions.begin(), companions.end());
    lt.stored_bytes = 0;
    for (auto s : lt.sources) lt.stored_bytes += cat_.tensors[s].nbytes;
    lt.shard = cat_.tensors[payload].shard;
    lt.quantized = true;
    claimed_[payload] = true;
    plan_.roles[payload] = Role::Quantized;
    for (auto c : companions) {
        claimed_[c] = true;
        plan_.roles[c] = Role::Companion;
    }
    plan_.tensors.push_back(std::move(lt));
}

void PlanBuilder::consume(std::size_t i) {
    claimed_[i] = true;
    plan_.roles[i] = Role::Companion;
}

void PlanBuilder::add_error(std::size_t payload, std::string name, TensorError error, const std::vector<std::size_t>& companions) {
    LogicalTensor lt;
    lt.name = std::move(name);
    lt.shape = cat_.tensors[payload].shape;
    lt.error = std::move(error);
    lt.sources.push_back(payload);
    lt.sources.insert(lt.sources.end(), companions.begin(), companions.end());
    for (auto s : lt.sources) lt.stored_bytes += cat_.tensors[s].nbytes;
    lt.shard = cat_.tensors[payload].shard;
    claimed_[payload] = true;
    plan_.roles[payload] = Role::Unsupported;
    for (auto c : companions) {
        claimed_[c] = true;
        plan_.roles[c] = Role::Companion;
    }
    plan_.tensors.push_back(std::move(lt));
}

void PlanBuilder::add_passthrough(std::size_t i, std::shared_ptr<const Recipe> recipe) {
    const auto& t = cat_.tensors[i];
    LogicalTensor lt;
    lt.name = t.name;
    lt.shape = t.shape;
    lt.sources = {i};
    lt.stored_bytes = t.nbytes;
    lt.shard = t.shard;
    lt.recipe = std::move(recipe);
    claimed_[i] = true;
    plan_.roles[i] = Role::Passthrough;
    plan_.tensors.push_back(std::move(lt));
}

void PlanBuilder::note(std::string text) { plan_.notes.push_back(std::move(text)); }

void PlanBuilder::consume_runtime_scales(std::initializer_list<std::string_view> suffixes, bool scalars_only) {
    std::size_t n = 0;
    std::string first;
    for (std::size_t i = 0; i < cat_.tensors.size(); ++i) {
        if (claimed_[i] || (scalars_only && cat_.tensors[i].numel() != 1)) continue;
        const auto& name = cat_.tensors[i].name;
        if (std::none_of(suffixes.begin(), suffixes.end(), [&](std::string_view s) { return name.ends_with(s); })) continue;
        consume(i);
        if (n++ == 0) first = name;
    }
    if (n)
        note(std::to_string(n) + " KV-cache scale tensor(s) (" + first + (n > 1 ? ", …" : "") +
             ") dropped: they serve the quantized runtime's KV cache, which a dequantized model and llama.cpp do not "
             "have (convert_hf_to_gguf.py stops on them)");
}
void PlanBuilder::warn(Notice notice) {
    if (std::find(plan_.warnings.begin(), plan_.warnings.end(), notice) == plan_.warnings.end())
        plan_.warnings.push_back(std::move(notice));
}

void PlanBuilder::finish() {
    for (std::size_t i = 0; i < cat_.tensors.size(); ++i) {
        if (claimed_[i]) continue;
        const auto& t = cat_.tensors[i];
        if (t.dtype == DType::Unknown || !dtype_info(t.dtype)) {
            add_error(i, t.name, {TensorErrorKind::UnknownDtype, "", "unknown dtype '" + t.dtype_name + "': cannot convert"});
            continue;
        }
        add_passthrough(i, make_passthrough(cat_, i));
    }
    // Logical tensors in the catalog order of their payloads.
    std::stable_sort(plan_.tensors.begin(), plan_.tensors.end(),
                     [](const LogicalTensor& a, const LogicalTensor& b) { return a.sources[0] < b.sources[0]; });
    plan_.companion_roles.assign(cat_.tensors.size(), CompanionRole::None);
    for (std::size_t i = 0; i < cat_.tensors.size(); ++i)
        if (plan_.roles[i] == Role::Companion) plan_.companion_roles[i] = companion_role_of(cat_.tensors[i].name);
    for (const auto& lt : plan_.tensors) {
        if (!lt.quantized || !lt.params) continue;
        const std::string id = scheme_id(*lt.params);
        auto it = std::find_if(plan_.schemes.begin(), plan_.schemes.end(), [&](const SchemeUse& s) { return s.id == id; });
        if (it == plan_.schemes.end()) plan_.schemes.push_back({id, describe(*lt.params), 1});
        else ++it->tensors;
    }
}

}  // namespace detail

namespace {

std::size_t claimed_payloads(const Plan& plan) {
    return static_cast<std::size_t>(std::count_if(plan.tensors.begin(), plan.tensors.end(),
                                                  [](const LogicalTensor& lt) { return lt.quantized || !lt.error.empty(); }));
}

// quant_method `m` (lower case) names family `f`. compressed-tensors leaves
// its float-quantized FP8 layers to the fp8 detector (facts.cc).
bool method_names(std::string_view m, std::string_view f) {
    return detail::quant_method_is(m, f) || (f == "fp8" && detail::quant_method_is(m, "compressed-tensors"));
}

// config.json's quant_method against what detection found in the tensors:
// the tensors are believed (they decide the bytes), with a warning.
void check_quant_method(const Catalog& cat, const std::vector<std::string_view>& claimed, Plan& plan) {
    auto m = cat.qconfig("quant_method");
    if (!m || *m == "null" || cat.format == Format::Gguf) return;
    std::string lower = *m;
    std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    bool known = false;
    for (const auto& f : detail::scheme_facts()) known |= detail::quant_method_is(lower, f.family);
    if (!known) return;
    for (auto f : claimed)
        if (method_names(lower, f)) return;
    Notice n;
    n.kind = NoticeKind::QuantMethodMismatch;
    n.file = cat.config_path;
    n.detail = *m;
    for (auto f : claimed) n.found += (n.found.empty() ? "" : ", ") + std::string(f);
    if (!claimed.empty())
        for (const auto& s : plan.schemes) n.found_words += (n.found_words.empty() ? "" : "; ") + s.description;
    plan.warnings.push_back(std::move(n));
}

}  // namespace

Plan make_plan(const Catalog& catalog) { return make_plan(catalog, PlanOptions{}); }

Plan make_plan(const Catalog& catalog, const PlanOptions& options) {
    Plan plan;
    detail::PlanBuilder b(catalog, plan, options);
    std::vector<std::string_view> claimed;  // families whose detector claimed payloads
    for (const auto& f : detail::scheme_facts()) {  // gguf, compressed-tensors, modelopt, mxfp4, fp8, gptq, awq, bnb4, bnb-int8
        if (!f.detect) continue;
        const std::size_t before = claimed_payloads(plan);
        f.detect(b);
        if (claimed_payloads(plan) > before) claimed.push_back(f.family);
    }
    detail::detect_known_unsupported(b);
    detail::detect_strided_storage(b);  // strided / big-endian / offset layouts (NPY, PyTorch views)
    b.finish();
    check_quant_method(catalog, claimed, plan);
    return plan;
}

}  // namespace amn
