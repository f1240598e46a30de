// SPDX-License-Identifier: MIT OR Apache-2.0
// PEFT LoRA adapter folder → GGUF adapter (lora_to_gguf.hpp): a layout
// transform of the adapter's plan driven by the base's architecture row
// (arch/arch_table.hpp), the general.* metadata of the adapter folder
// (arch/general_kvs.hpp); written by the one GGUF runner (gguf_output.hpp).
//
// convert_lora_to_gguf.py's flow (its LoraModel over the base's model class):
//   get_tensors     → the adapter's tensors (load_file: names sorted) by their
//                     base name ("base_model.model." and ".lora_A/B" dropped),
//                     filtered as the class filters base names; norms yielded
//                     at once, pairs (LoraTorchTensor(A, B)) after the loop in
//                     order of first appearance;
//   prepare_tensors → modify_tensors of the class on the pair (the Q/K
//                     permutation moves B's rows, experts stack A's and B's),
//                     then `.lora_a` = A, `.lora_b` = B and the type rule;
//   prepare_metadata→ general.type = adapter, adapter.type = lora, general.*
//                     (metadata.py over the adapter folder), adapter.lora.alpha,
//                     general.quantization_version. No hparams, no tokenizer.
#include "anamnesis/lora_to_gguf.hpp"

#include "anamnesis/catalog.hpp"
#include "anamnesis/error.hpp"
#include "anamnesis/gguf_ftype.hpp"
#include "anamnesis/hf_layout.hpp"
#include "anamnesis/plan.hpp"
#include "arch/arch_table.hpp"
#include "arch/general_kvs.hpp"
#include "jobs/gguf_output.hpp"
#include "jobs/lora_config.hpp"
#include "plan/layout_recipes.hpp"
#include "sink/output_files.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <unordered_map>

namespace fs = std::filesystem;

namespace amn {
namespace detail {
namespace {

std::string in_dir(const std::string& dir, const char* name) { return (fs::path(dir) / name).string(); }

std::string adapter_weights(const std::string& adapter_dir) {
    std::error_code ec;
    for (const char* n : {"adapter_model.safetensors", "adapter_model.bin"})
        if (fs::is_regular_file(in_dir(adapter_dir, n), ec)) return in_dir(adapter_dir, n);
    throw Error(ErrorCode::Io, "no adapter_model.safetensors (or adapter_model.bin) beside adapter_config.json", adapter_dir);
}

DType parse_lora_outtype(const std::string& s) {
    std::string up = s;
    std::transform(up.begin(), up.end(), up.begin(), [](unsigned char ch) { return static_cast<char>(std::toupper(ch)); });
    if (up.empty()) return DType::F32;  // convert_lora_to_gguf's default
    for (const auto& o : converter_outtypes())
        if (up == o.name) return o.type;
    if (up == "AUTO")
        throw Error(ErrorCode::Usage,
                    "--outtype auto is not available for adapters (convert_lora_to_gguf fails on it); choose F32, F16, BF16 or Q8_0");
    throw Error(ErrorCode::Usage, "unknown GGUF output type '" + s + "' (convert_lora_to_gguf's: F32, F16, BF16, Q8_0)");
}

// get_base_tensor_name
std::string base_tensor_name(std::string n) {
    auto replace_all = [&](std::string_view from, std::string_view to) {
        for (std::size_t p = n.find(from); p != std::string::npos; p = n.find(from, p + to.size())) n.replace(p, from.size(), to);
    };
    replace_all("base_model.model.", "");
    replace_all(".lora_A.weight", ".weight");
    replace_all(".lora_B.weight", ".weight");
    replace_all(".lora_embedding_A", ".weight");
    replace_all(".lora_embedding_B", ".weight");
    return n;
}

struct Pair {
    std::string base;                 // the base tensor's (filtered) HF name
    std::optional<std::size_t> a, b;  // plan indices
};

// One output tensor before its type.
struct OutTensor {
    std::string name;
    std::vector<std::uint64_t> shape;
    std::shared_ptr<const Recipe> recipe;
    DType source = DType::F32;
};

struct LoraModel {
    std::string adapter_dir;
    std::unique_ptr<arch::HfConfig> base_cfg;
    const arch::ArchRow* row = nullptr;
    LoraConfig config;
    std::vector<OutTensor> tensors;
};

// One adapted module after the class's modify_tensors (a LoraTorchTensor op): A and B with their shapes.
struct PairPart {
    std::shared_ptr<const Recipe> a, b;
    std::vector<std::uint64_t> shape_a, shape_b;
};

PairPart transform_pair(const Catalog& cat, const LogicalTensor& sa, const LogicalTensor& sb, const arch::MappedTensor& mt,
                        const arch::ArchRow& row) {
    PairPart p{sa.recipe, sb.recipe, sa.shape, sb.shape};
    const auto& tr = mt.transform;
    try {
        switch (tr.kind) {
            case arch::TensorTransform::Kind::None: break;
            case arch::TensorTransform::Kind::PermuteQK:  // LlamaModel.permute: reshape/swapaxes move B's rows only
                p.b = make_row_gather_recipe(p.b, sb.shape, llama_permute_source_rows(sb.shape[0], tr.n_head));
                break;
            case arch::TensorTransform::Kind::Transpose:  // GPT-2's Conv1D: LoraTorchTensor.transpose(1, 0) = (B^T, A^T)
                p.a = make_transpose_recipe(sb.recipe, sb.shape[0], sb.shape[1]);
                p.b = make_transpose_recipe(sa.recipe, sa.shape[0], sa.shape[1]);
                p.shape_a = {sb.shape[1], sb.shape[0]};
                p.shape_b = {sa.shape[1], sa.shape[0]};
                break;
            case arch::TensorTransform::Kind::RegroupQkv:  // Falcon/NeoX/Bloom query_key_value: view/index/cat regroup B's rows
                p.b = make_row_gather_recipe(p.b, sb.shape, arch::qkv_regroup_source_rows(tr.n_head, tr.n_kv_head, tr.head_dim));
                break;
            case arch::TensorTransform::Kind::QkvzPart:  // Qwen3-Next's in_proj_qkvz: B's rows regrouped, then qkv or z
                p.b = make_row_gather_recipe(p.b, sb.shape, arch::qwen3next_qkvz_source_rows(tr.n_head, tr.head_dim, tr.n_kv_head));
                if (tr.row_end > sb.shape[0] || tr.row_begin >= tr.row_end)
                    throw Error(ErrorCode::Malformed, "in_proj_qkvz's lora_B " + shape_to_string(sb.shape) + " does not split");
                p.b = make_row_range_recipe(p.b, tr.row_begin, tr.row_end - tr.row_begin);
                p.shape_b[0] = tr.row_end - tr.row_begin;
                break;
            case arch::TensorTransform::Kind::GroupedQkvPart:  // InternLM2's wqkv: B's rows regrouped, then q, k or v
                p.b = make_row_gather_recipe(p.b, sb.shape, arch::internlm2_qkv_source_rows(tr.n_head, tr.n_kv_head, tr.head_dim));
                [[fallthrough]];
            case arch::TensorTransform::Kind::SliceDim1:  // a fused 2-D tensor split by rows: split(dim=0) cuts B, keeps A
                if (tr.row_end > sb.shape[0] || tr.row_begin >= tr.row_end)
                    throw Error(ErrorCode::Malformed, "rows " + std::to_string(tr.row_begin) + " … " + std::to_string(tr.row_end) +
                                                          " of lora_B " + shape_to_string(sb.shape));
                p.b = make_row_range_recipe(p.b, tr.row_begin, tr.row_end - tr.row_begin);
                p.shape_b[0] = tr.row_end - tr.row_begin;
                break;
            default:
                throw Error(ErrorCode::Unsupported,
                            "the base architecture reshapes this tensor in a way convert_lora_to_gguf's LoraTorchTensor does not "
                            "follow (per-head slices, 3-D expert slices, norm shifts): not supported for adapters");
        }
    } catch (const Error& e) {
        throw e.with_tensor(sb.name).with_file(cat.path);
    }
    if (mt.name.starts_with("token_embd.")) {  // llm_build_inp_embd wants lora_a transposed
        if (row.trim_embd_to_vocab)
            throw Error(ErrorCode::Unsupported,
                        "an embedding LoRA of an architecture whose embedding the converter cuts to the tokenizer's size", cat.path,
                        sa.name);
        p.a = make_transpose_recipe(p.a, p.shape_a[0], p.shape_a[1]);
        std::swap(p.shape_a[0], p.shape_a[1]);
    }
    return p;
}

// Every pair through the base's TensorMapper (the class's modify_tensors): `.lora_a`, `.lora_b` per GGUF name.
void map_pairs(const Catalog& cat, const Plan& plan, const std::vector<Pair>& pairs, LoraModel& m) {
    std::unordered_map<std::string, const Pair*> by_base;
    for (const auto& p : pairs) by_base[p.base] = &p;
    // No tokenizer (its one use, Gemma 3's embedding cut, is refused for adapters in transform_pair).
    arch::TensorMapper mapper(*m.row, *m.base_cfg, std::string());
    for (const auto& p : pairs) {
        const auto& la = plan.tensors[*p.a];
        const auto& lb = plan.tensors[*p.b];
        const std::vector<std::uint64_t> shape{lb.shape[0], la.shape[1]};  // LoraTorchTensor.shape: (out, in)
        std::vector<arch::MappedTensor> mts;
        try {
            mts = mapper.add(p.base, shape);
        } catch (const Error& e) {  // name the adapter's tensor, and the base tensor it adapts
            throw Error(e.code(), "adapts " + p.base + ": " + e.message() + " (base architecture " + std::string(m.row->gguf) + ")",
                        cat.path, lb.name);
        }
        if (mts.empty() && p.base == "lm_head.weight")
            throw Error(ErrorCode::Unsupported, "lm_head is present in adapter, but is ignored in base model (tied embeddings)",
                        cat.path, lb.name);
        for (const auto& mt : mts) {
            std::vector<std::shared_ptr<const Recipe>> as, bs;
            PairPart part;
            for (const auto& src : mt.sources) {
                const auto it = by_base.find(src);
                if (it == by_base.end())
                    throw Error(ErrorCode::Malformed, "the architecture table names a tensor the adapter lacks", cat.path, src);
                part = transform_pair(cat, plan.tensors[*it->second->a], plan.tensors[*it->second->b], mt, *m.row);
                as.push_back(part.a);
                bs.push_back(part.b);
            }
            OutTensor a{mt.name + ".lora_a", part.shape_a, nullptr, DType::F32};
            OutTensor b{mt.name + ".lora_b", part.shape_b, nullptr, DType::F32};
            if (mt.stacked) {  // torch.stack of LoraTorchTensors: the A's and the B's, each along a new dim 0
                a.shape.insert(a.shape.begin(), mt.sources.size());
                b.shape.insert(b.shape.begin(), mt.sources.size());
                a.recipe = make_stack_recipe(std::move(as), "experts stacked");
                b.recipe = make_stack_recipe(std::move(bs), "experts stacked");
            } else {
                a.recipe = as.at(0);
                b.recipe = bs.at(0);
            }
            m.tensors.push_back(std::move(a));
            m.tensors.push_back(std::move(b));
        }
    }
    mapper.finish();
}

LoraModel build_model(const Catalog& cat, const Plan& plan, const std::string& adapter_dir, const LoraGgufOptions& opt) {
    LoraModel m;
    m.adapter_dir = adapter_dir;
    m.config = read_lora_config(adapter_dir);
    if (opt.base.empty())
        throw Error(ErrorCode::Usage,
                    "--base BASE_DIR is needed: the base model's config.json" +
                        (m.config.base_name_or_path.empty() ? std::string()
                                                            : " (adapter_config.json names '" + m.config.base_name_or_path +
                                                                  "'; amn does not download it)"),
                    adapter_dir);
    const std::string base_config = in_dir(opt.base, "config.json");
    std::error_code ec;
    if (!fs::is_regular_file(base_config, ec))
        throw Error(ErrorCode::Io, "no config.json in the base model folder (--base)", opt.base);
    m.base_cfg = std::make_unique<arch::HfConfig>(arch::HfConfig::load(base_config));
    m.row = &arch::hf_arch_for_config(*m.base_cfg);

    // load_file's order: names sorted (a PyTorch checkpoint: its own order).
    std::vector<std::size_t> order(plan.tensors.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    if (cat.format == Format::Safetensors)
        std::sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) { return plan.tensors[x].name < plan.tensors[y].name; });

    std::vector<Pair> pairs;
    std::unordered_map<std::string, std::size_t> pair_of;
    for (const std::size_t i : order) {
        const auto& lt = plan.tensors[i];
        if (!lt.error.empty()) throw Error(ErrorCode::Unsupported, lt.error.message(), cat.path, lt.name);
        const auto base = arch::filter_tensor_name(*m.row, base_tensor_name(lt.name), m.base_cfg.get());
        if (!base) continue;
        const auto half = lora_half(lt.name);
        if (!half) {
            if (lt.name.find(".base_layer.weight") != std::string::npos) continue;
            if (lt.name.find("_layernorm") != std::string::npos || lt.name.find(".norm") != std::string::npos) {
                // mergekit-extract-lora's norms: written as they are.
                arch::TensorMapper mapper(*m.row, *m.base_cfg, std::string());
                for (const auto& mt : mapper.add(*base, lt.shape)) {
                    if (mt.transform.kind != arch::TensorTransform::Kind::None || mt.stacked || lt.shape.size() != 1)
                        throw Error(ErrorCode::Unsupported, "a norm the base architecture transforms: not supported for adapters",
                                    cat.path, lt.name);
                    m.tensors.push_back({mt.name, lt.shape, lt.recipe, DType::F32});
                }
                continue;
            }
            const bool embeddings = lt.name.find(".embed_tokens.weight") != std::string::npos || lt.name.find(".lm_head.weight") != std::string::npos;
            throw Error(ErrorCode::Unsupported,
                        embeddings ? "not a lora_A or lora_B tensor: embeddings saved whole in the adapter (new tokens added "
                                     "during fine tuning, modules_to_save); see llama.cpp PR 9948"
                                   : "not a lora_A or lora_B tensor (modules_to_save, DoRA magnitude vectors and other PEFT "
                                     "tensors have no GGUF adapter form)",
                        cat.path, lt.name);
        }
        if (lt.shape.size() != 2) throw Error(ErrorCode::Malformed, "a LoRA tensor must be 2-D, got " + shape_to_string(lt.shape), cat.path, lt.name);
        auto [it, fresh] = pair_of.try_emplace(*base, pairs.size());
        if (fresh) pairs.push_back({*base, std::nullopt, std::nullopt});
        (half->a ? pairs[it->second].a : pairs[it->second].b) = i;
    }
    for (const auto& p : pairs) {
        if (!p.a || !p.b)
            throw Error(ErrorCode::Malformed, std::string(p.a ? "lora_A without its lora_B" : "lora_B without its lora_A"), cat.path,
                        plan.tensors[p.a ? *p.a : *p.b].name);
        const auto& a = plan.tensors[*p.a];
        const auto& b = plan.tensors[*p.b];
        if (a.shape[0] != b.shape[1])
            throw Error(ErrorCode::SizeMismatch,
                        "rank mismatch: lora_A is " + shape_to_string(a.shape) + " (rank " + std::to_string(a.shape[0]) + "), lora_B is " +
                            shape_to_string(b.shape) + " (rank " + std::to_string(b.shape[1]) + ")",
                        cat.path, b.name);
    }
    map_pairs(cat, plan, pairs, m);
    return m;
}

arch::ParamCounts param_counts(const LoraModel& m) {
    arch::ParamCounter counter;
    counter.add_all(m.tensors);
    return counter.counts();
}

struct Converted {
    LoraModel model;
    DType outtype = DType::F32;
    GgufOutputPlan plan;
    arch::GeneralNaming naming;
    arch::ParamCounts counts;
    std::vector<GgufWarning> warnings;
};

Converted convert_plan(const Catalog& cat, const std::string& adapter_dir, const LoraGgufOptions& opt) {
    const DType outtype = parse_lora_outtype(opt.outtype);
    PlanOptions po;
    po.f32_products = true;
    const Plan plan = make_plan(cat, po);
    Converted c{build_model(cat, plan, adapter_dir, opt), outtype, {}, {}, {}, {}};
    for (auto& t : c.model.tensors) {
        GgufOutputTensor o = converter_output_tensor(cat, t.name, t.shape, arch::converter_type(*c.model.row, t.name, t.shape, outtype),
                                                     t.source, outtype);
        // Not copied: every value through the encoder (BF16 quiets NaNs as gguf-py does).
        o.recipe = t.recipe;
        c.plan.tensors.push_back(std::move(o));
    }
    c.counts = param_counts(c.model);
    auto general = arch::general_kvs(arch::read_general_inputs(adapter_dir, c.counts));
    c.naming = general.naming;
    auto& kvs = c.plan.kvs;
    kvs.push_back({"general.architecture", MetaValue::string(std::string(c.model.row->gguf))});
    for (auto& kv : general.kvs) {
        if (kv.key == "general.type") {  // LoraModel.set_type
            kvs.push_back({"general.type", MetaValue::string("adapter")});
            kvs.push_back({"adapter.type", MetaValue::string("lora")});
        } else {
            kvs.push_back(std::move(kv));
        }
    }
    kvs.push_back({"adapter.lora.alpha", MetaValue::f32(c.model.config.alpha)});
    if (c.model.config.alora_tokens) {
        std::vector<MetaValue> ids;
        for (auto id : *c.model.config.alora_tokens) ids.push_back(MetaValue::u32(id));
        kvs.push_back({"adapter.alora.invocation_tokens", MetaValue::array(GgufType::U32, ids)});
    }
    kvs.push_back({"general.quantization_version", MetaValue::u32(2)});
    std::vector<std::string> log = general.warnings;
    log.insert(log.end(), c.model.config.warnings.begin(), c.model.config.warnings.end());
    c.warnings = converter_log(std::move(log));
    c.plan.pad_without_tensors = true;  // write_tensors_to_file pads even when no tensor is left
    c.plan.dims_as_given = true;  // gguf-py: n_dims = len(shape)
    return c;
}

std::string output_path(const Catalog& cat, const std::string& adapter_dir, const LoraGgufOptions& opt, const Converted& c) {
    std::string path = opt.output;
    if (path.empty()) {
        path = beside_folder(adapter_dir,
                             arch::default_gguf_name(c.naming, std::string(converter_outtype_of(c.outtype)->name), c.counts));
    }
    refuse_input_as_output(cat, path);
    return path;
}

Catalog open_adapter(const std::string& adapter_dir) {
    std::error_code ec;
    if (!fs::is_directory(adapter_dir, ec)) throw Error(ErrorCode::NotRegularFile, "not a directory (a PEFT adapter folder is needed)", adapter_dir);
    read_lora_config(adapter_dir);  // its errors before the weights'
    return open_model(adapter_weights(adapter_dir));
}

}  // namespace
}  // namespace detail

bool is_lora_adapter_dir(const std::string& path) {
    std::error_code ec;
    return fs::is_directory(path, ec) && fs::is_regular_file(fs::path(path) / "adapter_config.json", ec);
}

std::vector<ForgetTensor> plan_lora_gguf(const std::string& adapter_dir, const LoraGgufOptions& opt, std::vector<GgufOutputFile>* files) {
    const Catalog cat = detail::open_adapter(adapter_dir);
    auto c = detail::convert_plan(cat, adapter_dir, opt);
    const std::string path = detail::output_path(cat, adapter_dir, opt, c);
    if (files) *files = detail::gguf_plan_files(c.plan, path);
    return detail::take_planned_tensors(c.plan);
}

std::string default_lora_gguf_output_path(const std::string& adapter_dir, const LoraGgufOptions& opt) {
    const Catalog cat = detail::open_adapter(adapter_dir);
    auto c = detail::convert_plan(cat, adapter_dir, opt);
    LoraGgufOptions o = opt;
    o.output.clear();
    return detail::output_path(cat, adapter_dir, o, c);
}

GgufWriteResult convert_lora_to_gguf(const std::string& adapter_dir, const LoraGgufOptions& opt, const ProgressFn& progress,
                                     const std::atomic<bool>* cancel) {
    const Catalog cat = detail::open_adapter(adapter_dir);
    auto c = detail::convert_plan(cat, adapter_dir, opt);
    detail::GgufRunOptions run;
    run.path = detail::output_path(cat, adapter_dir, opt, c);
    run.force = opt.force;
    run.threads = opt.threads;
    run.chunk_bytes = opt.chunk_bytes;
    return detail::write_converter_plan(cat, std::move(c.plan), std::move(c.warnings), std::move(run), progress, cancel);
}

}  // namespace amn
