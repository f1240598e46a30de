// SPDX-License-Identifier: MIT OR Apache-2.0
// The converter's index order, config.json integers, and the FP4 repacks of
// Hugging Face folder → GGUF (hf_to_gguf_model.hpp).
#include "jobs/hf_to_gguf_model.hpp"

#include "anamnesis/error.hpp"
#include "plan/layout_recipes.hpp"
#include "plan/mxfp4_repack.hpp"
#include "plan/nvfp4_repack.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>

namespace fs = std::filesystem;

namespace amn::detail {

std::vector<std::size_t> index_order(const Catalog& cat, const std::vector<arch::HfTensorRef>& refs) {
    if (cat.format != Format::Pth) return arch::converter_order(refs);
    std::vector<std::size_t> order(refs.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return refs[a].file < refs[b].file; });
    return order;
}

std::optional<std::pair<std::string, std::int64_t>> config_int(const arch::HfConfig& cfg,
                                                              std::initializer_list<std::string_view> keys) {
    const std::vector<std::string_view> k(keys);
    const auto f = cfg.find(k);
    if (!f) return std::nullopt;
    const auto& e = f->second;
    if (e.is_int64()) return std::pair{std::string(f->first), std::int64_t(e)};
    if (e.is_uint64()) return std::pair{std::string(f->first), static_cast<std::int64_t>(std::uint64_t(e))};
    return std::nullopt;  // the hparams reader names a mistyped value
}

// `_generate_nvfp4_tensors`: every NVFP4 linear repacked, each followed by
// its `.scale` (weight_scale_2) and `.input_scale` unless the value is within
// 1e-6 of 1 (`_scale_is_trivial`); before every other tensor.
void repack_nvfp4(const Catalog& cat, const Plan& plan, HfModel& m, std::vector<bool>& done) {
    std::vector<arch::HfTensorRef> refs;
    std::vector<std::size_t> idx;
    for (std::size_t i = 0; i < plan.tensors.size(); ++i) {
        const auto& lt = plan.tensors[i];
        const auto* p = lt.params ? std::get_if<Fp4Params>(&*lt.params) : nullptr;
        if (!p || p->format != Fp4Format::Nvfp4) continue;
        const auto& payload = cat.tensors.at(lt.sources.at(0));
        refs.push_back({fs::path(cat.shards.at(payload.shard).path).filename().string(), lt.name});
        idx.push_back(i);
    }
    if (idx.empty()) return;
    m.nvfp4 = true;
    const auto blocks = m.cfg->find(std::vector<std::string_view>{"n_layers", "num_hidden_layers", "n_layer", "num_layers"});
    const std::uint64_t block_count = blocks && blocks->second.is_uint64() ? std::uint64_t(blocks->second)
                                      : blocks && blocks->second.is_int64() && std::int64_t(blocks->second) > 0
                                          ? static_cast<std::uint64_t>(std::int64_t(blocks->second))
                                          : 0;
    auto head_count = [&](std::initializer_list<std::string_view> keys) -> std::uint64_t {
        const auto f = m.cfg->find(std::vector<std::string_view>(keys));
        if (f && f->second.is_uint64()) return std::uint64_t(f->second);
        if (f && f->second.is_int64() && std::int64_t(f->second) > 0) return static_cast<std::uint64_t>(std::int64_t(f->second));
        return 0;
    };
    const std::uint64_t n_head = head_count({"n_heads", "num_attention_heads"});
    const std::uint64_t n_kv = head_count({"n_kv_heads", "num_key_value_heads"});
    const bool ct = cat.qconfig("quant_method").value_or("") == "compressed-tensors";
    for (const std::size_t k : index_order(cat, refs)) {
        const auto& lt = plan.tensors[idx[k]];
        done[idx[k]] = true;
        const auto name = arch::filter_tensor_name(*m.row, lt.name, m.cfg.get());
        if (!name) continue;
        if (name->find(".experts.") != std::string::npos)
            throw Error(ErrorCode::Unsupported, "NVFP4 MoE experts are not converted to GGUF yet", cat.path, lt.name);
        const auto gguf = arch::map_tensor_name(*m.row, block_count, *name);
        if (!gguf) throw Error(ErrorCode::Unsupported, "cannot map tensor " + *name + " to " + std::string(m.row->gguf), cat.path, lt.name);
        const std::string stem = lt.name.substr(0, lt.name.size() - std::string(".weight").size());
        const auto w = lt.sources.at(0);
        const auto s = cat.find(stem + ".weight_scale");
        const auto& wt = cat.tensors[w];
        if (!s || wt.shape.size() != 2 || (wt.shape[1] * 2) % 64)
            throw Error(ErrorCode::Unsupported, "NVFP4 rows must hold a multiple of 64 values for GGUF NVFP4", cat.path, lt.name);
        std::vector<std::uint64_t> from;
        if (m.row->permute_qk && n_head) {
            if (name->ends_with("q_proj.weight")) from = llama_permute_source_rows(wt.shape[0], n_head);
            else if (name->ends_with("k_proj.weight")) from = llama_permute_source_rows(wt.shape[0], n_kv && n_kv != n_head ? n_kv : n_head);
        }
        HfModel::Tensor t;
        t.name = *gguf;
        t.hf = lt.name;
        t.shape = {wt.shape[0], wt.shape[1] * 2};
        t.raw = make_nvfp4_repack(cat, wt, cat.tensors[*s], std::move(from));
        t.quantized = true;
        m.tensors.push_back(std::move(t));
        // weight_scale_2 / input_scale (compressed-tensors: 1 / the global scales, in f32).
        auto scalar = [&](const char* modelopt, const char* ct_name) -> std::optional<float> {
            if (ct) {
                if (const auto g = cat.find(stem + ct_name)) return 1.0f / stored_scalar(cat, cat.tensors[*g]);
            } else if (const auto g = cat.find(stem + modelopt)) {
                return stored_scalar(cat, cat.tensors[*g]);
            }
            return std::nullopt;
        };
        const std::string base = gguf->substr(0, gguf->size() - std::string(".weight").size());
        for (const auto& [suffix, v] : {std::pair{".scale", scalar(".weight_scale_2", ".weight_global_scale")},
                                        std::pair{".input_scale", scalar(".input_scale", ".input_global_scale")}}) {
            if (!v || std::abs(static_cast<double>(*v) - 1.0) < 1e-6) continue;
            HfModel::Tensor c;
            c.name = base + suffix;
            c.shape = {1};
            c.recipe = make_constant_recipe({*v}, "NVFP4 per-tensor scale");
            m.tensors.push_back(std::move(c));
        }
    }
}

// GptOssModel.generate_extra_tensors for `quant_method: "mxfp4"`: in index
// order, each `…down_proj_scales` repacked with the last `…down_proj_blocks`
// seen, each `…gate_up_proj_scales` into gate (even rows) and up (odd rows)
// with the last `…gate_up_proj_blocks`; before every other tensor. The
// blocks/scales themselves are written no further (dequant_model is skipped).
void repack_mxfp4(const Catalog& cat, const Plan& plan, HfModel& m, std::vector<bool>& done) {
    if (m.row->hparams != arch::HparamsRule::GptOss || cat.qconfig("quant_method").value_or("") != "mxfp4") return;
    m.mxfp4 = true;
    std::vector<arch::HfTensorRef> refs;
    for (const auto& t : cat.tensors) refs.push_back({fs::path(cat.shards.at(t.shard).path).filename().string(), t.name});
    const auto block_count = config_int(*m.cfg, {"n_layers", "num_hidden_layers", "n_layer", "num_layers"});
    const std::uint64_t blocks_n = block_count && block_count->second > 0 ? static_cast<std::uint64_t>(block_count->second) : 0;
    const TensorInfo *down = nullptr, *gate_up = nullptr;
    for (const std::size_t i : index_order(cat, refs)) {
        const TensorInfo& t = cat.tensors[i];
        auto emit = [&](const TensorInfo* blocks, std::string hf, std::uint64_t stride, std::uint64_t parity) {
            if (!blocks) throw Error(ErrorCode::Malformed, "MXFP4 scales without their blocks before them", cat.path, t.name);
            const auto gguf = arch::map_tensor_name(*m.row, blocks_n, hf);
            if (!gguf) throw Error(ErrorCode::Unsupported, "cannot map tensor " + hf + " to gpt-oss", cat.path, t.name);
            HfModel::Tensor o;
            o.name = *gguf;
            o.hf = blocks->name;
            o.raw = make_mxfp4_repack(cat, *blocks, t, stride, parity);
            o.raw_type = DType::MXFP4;
            o.shape = {blocks->shape[0], blocks->shape[1] / stride, blocks->shape[2] * 32};
            o.quantized = true;
            m.tensors.push_back(std::move(o));
        };
        auto with = [&](std::string_view from, std::string_view to) {
            std::string n = t.name;
            n.replace(n.find(from), from.size(), to);
            return n;
        };
        if (t.name.find("mlp.experts.down_proj_blocks") != std::string::npos) down = &t;
        else if (t.name.find("mlp.experts.down_proj_scales") != std::string::npos) emit(down, with("_scales", ".weight"), 1, 0);
        else if (t.name.find("mlp.experts.gate_up_proj_blocks") != std::string::npos) gate_up = &t;
        else if (t.name.find("mlp.experts.gate_up_proj_scales") != std::string::npos) {
            emit(gate_up, with("gate_up_proj_scales", "gate_proj.weight"), 2, 0);
            emit(gate_up, with("gate_up_proj_scales", "up_proj.weight"), 2, 1);
        }
    }
    for (std::size_t i = 0; i < plan.tensors.size(); ++i)  // the MXFP4 modules themselves
        if (const auto* p = plan.tensors[i].params ? std::get_if<Fp4Params>(&*plan.tensors[i].params) : nullptr;
            p && p->format == Fp4Format::Mxfp4)
            done[i] = true;
}

}  // namespace amn::detail
