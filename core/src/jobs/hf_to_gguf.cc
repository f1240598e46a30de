// SPDX-License-Identifier: MIT OR Apache-2.0
// Hugging Face folder → GGUF (hf_to_gguf.hpp): a layout transform of the plan
// driven by the architecture table (arch/arch_table.hpp), the general.*
// metadata (arch/general_kvs.hpp) and the tokenizer (tokenizer/vocab.hpp);
// written by the one GGUF runner (gguf_output.hpp).
//
// The converter's flow (conversion/base.py), which fixes the order of
// everything:
//   index_tensors   → HF tensors in (sorted shard file, sorted name) order;
//   dequant_model   → quantized modules replaced in place (FP8, ModelOpt,
//                     compressed-tensors int/float) or appended after the
//                     rest (GPTQ, compressed-tensors pack-quantized);
//   prepare_tensors → generated tensors first, then every HF tensor through
//                     modify_tensors (names, Q/K permutation, expert stacks)
//                     and the type rule;
//   prepare_metadata→ general.type, general.* (metadata.py), the
//                     architecture's hparams with general.file_type inside,
//                     general.quantization_version; then the tokenizer.
#include "anamnesis/hf_to_gguf.hpp"

#include "anamnesis/error.hpp"
#include "anamnesis/gguf_ftype.hpp"
#include "anamnesis/hf_layout.hpp"
#include "anamnesis/remember.hpp"
#include "arch/arch_table.hpp"
#include "arch/arch_text_params.hpp"
#include "arch/class_tensors.hpp"
#include "arch/general_kvs.hpp"
#include "arch/model_naming.hpp"
#include "jobs/gguf_output.hpp"
#include "plan/layout_recipes.hpp"
#include "jobs/hf_to_gguf_model.hpp"
#include "jobs/hf_to_mmproj.hpp"
#include "jobs/forget_st_mlx_tree.hpp"
#include "sink/output_files.hpp"
#include "tokenizer/vocab.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <unordered_map>

namespace fs = std::filesystem;

namespace amn {
namespace detail {
namespace {

// The general.file_type of a converter output type (converter_outtypes()).
std::uint32_t ftype_of(DType outtype) {
    if (const auto* o = converter_outtype_of(outtype)) return o->ftype;
    throw Error(ErrorCode::Usage, "no converter file type for " + dtype_name(outtype));
}

// "F32, F16, BF16, Q8_0" (converter_outtypes()).
std::string outtype_list() {
    std::string r;
    for (const auto& o : converter_outtypes()) r += (r.empty() ? "" : ", ") + std::string(o.name);
    return r;
}

// Quantization schemes whose dequantized `.weight` the converter creates
// (appended after every other tensor) instead of replacing a stored
// `.weight` in place.
bool created_by_converter(const LogicalTensor& lt, const Catalog& cat) {
    if (!lt.quantized) return false;
    const auto* a = lt.params ? std::get_if<AffineParams>(&*lt.params) : nullptr;
    return !cat.find(lt.name).has_value() && a &&
           (a->packing == AffinePacking::Gptq || a->packing == AffinePacking::CtPackQuantized);
}

// The converter's `auto` (ModelBase.__init__): the first stored tensor of
// ≥ 2 dimensions in index order that is BF16 or F16 decides; nullopt = none.
std::optional<DType> first_half_float(const Catalog& cat) {
    std::vector<arch::HfTensorRef> refs;
    refs.reserve(cat.tensors.size());
    for (const auto& t : cat.tensors)
        refs.push_back({fs::path(cat.shards.at(t.shard).path).filename().string(), t.name});
    for (const std::size_t i : index_order(cat, refs)) {
        const auto& t = cat.tensors[i];
        if (t.shape.size() < 2) continue;
        if (t.dtype == DType::BF16 || t.dtype == DType::F16) return t.dtype;
    }
    return std::nullopt;
}

std::string model_dir(const Catalog& cat) {
    if (!cat.config_path.empty()) return fs::path(cat.config_path).parent_path().string();
    return fs::path(cat.shards.at(0).path).parent_path().string();
}

void require_hf_folder(const Catalog& cat) {
    if ((cat.format != Format::Safetensors && cat.format != Format::Pth) || !cat.config_json)
        throw Error(ErrorCode::Unsupported,
                    "a Hugging Face → GGUF conversion needs a model folder: config.json beside safetensors weights", cat.path);
}

// config.json against the weights: what llama.cpp would only find when it
// loads the file (a wrong embedding width, vocabulary or layer count) is
// refused here, naming config.json, the key and the tensor.

/// The vocabulary size the converter pads config.json's vocab_size to (Mamba / Mamba-2), else nullopt.
std::optional<std::uint64_t> vocab_rows(const HfModel& m) {
    const bool mamba = m.row->vocab == tok::VocabStyle::Mamba, mamba2 = m.row->vocab == tok::VocabStyle::Mamba2;
    return mamba || mamba2 ? arch::detail::ssm_padded_vocab_size(*m.cfg, mamba2) : std::nullopt;
}

void check_config_against_weights(const HfModel& m) {
    const auto& cfg = *m.cfg;
    const std::string& file = cfg.file();
    const HfModel::Tensor* embd = nullptr;
    std::vector<bool> layers;
    const auto blocks = config_int(cfg, {"n_layers", "num_hidden_layers", "n_layer", "num_layers"});
    if (blocks && blocks->second >= 0 && blocks->second < (1 << 20)) layers.assign(static_cast<std::size_t>(blocks->second), false);
    for (const auto& t : m.tensors) {
        if (t.name == "token_embd.weight") embd = &t;
        if (t.name.rfind("blk.", 0) == 0) {
            const std::size_t end = t.name.find('.', 4);
            const std::string id = t.name.substr(4, end == std::string::npos ? std::string::npos : end - 4);
            if (!id.empty() && id.size() < 9 && std::all_of(id.begin(), id.end(), [](char c) { return c >= '0' && c <= '9'; })) {
                const std::size_t b = std::stoul(id);
                if (b < layers.size()) layers[b] = true;
            }
        }
    }
    if (blocks && !layers.empty()) {
        std::size_t have = 0;
        for (bool b : layers) have += b;
        if (have != layers.size()) {
            std::size_t first = 0;
            while (first < layers.size() && layers[first]) ++first;
            throw Error(ErrorCode::Malformed,
                        blocks->first + " is " + std::to_string(blocks->second) + " but the weights hold " + std::to_string(have) +
                            " layer(s): no tensor of layer " + std::to_string(first),
                        file);
        }
    }
    if (embd && embd->shape.size() == 2) {
        if (const auto h = config_int(cfg, {"hidden_size", "n_embd", "dim"}); h && h->second != static_cast<std::int64_t>(embd->shape[1]))
            throw Error(ErrorCode::Malformed,
                        h->first + " is " + std::to_string(h->second) + " but " + embd->hf + " is " + shape_to_string(embd->shape) +
                            " (" + std::to_string(embd->shape[1]) + " wide)",
                        file);
        const std::uint64_t rows = embd->rows_in_file ? embd->rows_in_file : embd->shape[0];
        auto v = config_int(cfg, {"vocab_size"});
        if (const auto padded = vocab_rows(m); v && padded) v->second = static_cast<std::int64_t>(*padded);  // Mamba's
        if (v && v->second != static_cast<std::int64_t>(rows))
            throw Error(ErrorCode::Malformed,
                        "vocab_size is " + std::to_string(v->second) + " but " + embd->hf + " has " + std::to_string(rows) + " rows",
                        file);
    }
}

HfModel build_model(const Catalog& cat, const Plan& input_plan, bool vocab_only, bool no_mtp) {
    // An MLX folder's stacked experts (mlx-lm's switch_mlp) under the Hugging
    // Face names the tables map, one expert per tensor (stacked again below),
    // deepseek_v3's embed_q / unembed_out rejoined into kv_b_proj; quantized or not.
    std::optional<Plan> unstacked;
    if (is_mlx_folder(cat, input_plan))
        unstacked = forget_st_internal::mlx_lm_unsanitize(input_plan, forget_st_internal::mlx_model_facts(cat.config_json).model_type);
    const Plan& plan = unstacked ? *unstacked : input_plan;
    HfModel m;
    m.dir = model_dir(cat);
    m.cfg = std::make_unique<arch::HfConfig>(*cat.config_json, cat.config_path);
    m.row = &arch::hf_arch_for_config(*m.cfg);
    if (no_mtp && !arch::classes::supports_mtp_export(*m.row))
        throw Error(ErrorCode::Usage,
                    "--no-mtp / --no-nextn are not supported for " + arch::detect_hf_architecture(*m.cfg) +
                        " (convert_hf_to_gguf.py takes them only for a class with an MTP block: Qwen3NextForCausalLM here)",
                    cat.config_path);
    m.cfg->set_no_mtp(no_mtp);
    m.extras = arch::generate_extra_tensors(*m.row, *m.cfg);
    m.half = first_half_float(cat);
    std::vector<bool> done(plan.tensors.size(), false);
    if (!vocab_only) repack_nvfp4(cat, plan, m, done);
    if (!vocab_only) repack_mxfp4(cat, plan, m, done);
    if (vocab_only) {
        m.tensors.clear();
        return m;
    }

    for (const auto& g : m.extras.tensors) {
        HfModel::Tensor t;
        t.name = g.name;
        t.shape = g.shape;
        t.recipe = make_constant_recipe(g.data, "generated by the converter");
        m.tensors.push_back(std::move(t));
    }

    // model_tensors after dequant_model: in place in index order, then the
    // created ones in the order of their payloads.
    std::vector<arch::HfTensorRef> refs;
    std::vector<std::size_t> logical;
    std::vector<arch::HfTensorRef> created_refs;
    std::vector<std::size_t> created;
    for (std::size_t i = 0; i < plan.tensors.size(); ++i) {
        const auto& lt = plan.tensors[i];
        if (done[i]) continue;
        if (!lt.error.empty()) throw Error(ErrorCode::Unsupported, lt.error.message(), cat.path, lt.name);
        const auto& payload = cat.tensors.at(lt.sources.at(0));
        const std::string file = fs::path(cat.shards.at(payload.shard).path).filename().string();
        if (created_by_converter(lt, cat)) {
            created_refs.push_back({file, payload.name});
            created.push_back(i);
        } else {
            refs.push_back({file, lt.name});
            logical.push_back(i);
        }
    }
    std::vector<std::size_t> order;
    for (const std::size_t k : index_order(cat, refs)) order.push_back(logical[k]);
    for (const std::size_t k : index_order(cat, created_refs)) order.push_back(created[k]);

    std::unordered_map<std::string, std::size_t> by_hf_name;  // filtered HF name → plan index
    arch::TensorMapper mapper(*m.row, *m.cfg, m.dir);
    for (const std::size_t i : order) {
        const auto& lt = plan.tensors[i];
        const auto name = arch::filter_tensor_name(*m.row, lt.name, m.cfg.get());
        if (!name) continue;  // the converter drops it (multimodal parts)
        if (m.row->hparams == arch::HparamsRule::Cohere2 && name->ends_with(".bias")) {
            // Cohere2Model.modify_tensors: llama.cpp has no Cohere2 biases; all-zero ones are dropped, others refused.
            if (!lt.recipe) throw Error(ErrorCode::Unsupported, lt.error.message(), cat.path, lt.name);
            std::vector<float> v(static_cast<std::size_t>(lt.recipe->rows() * lt.recipe->row_elems()));
            lt.recipe->dequantize_rows(0, lt.recipe->rows(), v.data());
            for (float x : v)
                if (x != 0.0f)
                    throw Error(ErrorCode::Unsupported, "Cohere2 bias tensor is not zero (the converter refuses it: llama.cpp has no Cohere2 biases)",
                                cat.path, lt.name);
            continue;
        }
        by_hf_name[*name] = i;
        for (auto& mt : mapper.add(*name, lt.shape)) {
            std::vector<std::shared_ptr<const Recipe>> parts;
            bool quantized = false;
            const TensorInfo* stored = nullptr;
            std::uint64_t rows_in_file = 0;
            for (const auto& src : mt.sources) {
                const auto it = by_hf_name.find(src);
                if (it == by_hf_name.end())
                    throw Error(ErrorCode::Malformed, "the architecture table names a source tensor the folder lacks", cat.path, src);
                const auto& s = plan.tensors[it->second];
                auto r = s.recipe;
                quantized |= s.quantized;
                switch (mt.transform.kind) {
                    case arch::TensorTransform::Kind::None:
                        if (mt.sources.size() == 1 && !s.quantized) {
                            const auto& st = cat.tensors.at(s.sources.at(0));
                            if (!st.big_endian && st.strides.empty() && st.storage_offset_elems == 0) stored = &st;
                        }
                        break;
                    case arch::TensorTransform::Kind::PermuteQK: {
                        const std::uint64_t rows = s.shape.empty() ? 1 : s.shape[0];
                        try {
                            r = make_row_gather_recipe(r, s.shape, llama_permute_source_rows(rows, mt.transform.n_head));
                        } catch (const Error& e) {
                            throw e.with_tensor(s.name).with_file(cat.path);
                        }
                        break;
                    }
                    case arch::TensorTransform::Kind::RegroupQkv: {  // Falcon's query_key_value
                        const auto& tr = mt.transform;
                        try {
                            r = make_row_gather_recipe(r, s.shape, arch::qkv_regroup_source_rows(tr.n_head, tr.n_kv_head, tr.head_dim));
                        } catch (const Error& e) {
                            throw e.with_tensor(s.name).with_file(cat.path);
                        }
                        break;
                    }
                    // InternLM2's wqkv (q, k or v) / Qwen3-Next's in_proj_qkvz (attn_qkv or attn_gate): rows
                    // regrouped, then the part's range.
                    case arch::TensorTransform::Kind::GroupedQkvPart:
                    case arch::TensorTransform::Kind::QkvzPart: {
                        const auto& tr = mt.transform;
                        try {
                            r = make_row_gather_recipe(
                                r, s.shape,
                                tr.kind == arch::TensorTransform::Kind::QkvzPart
                                    ? arch::qwen3next_qkvz_source_rows(tr.n_head, tr.head_dim, tr.n_kv_head)
                                    : arch::internlm2_qkv_source_rows(tr.n_head, tr.n_kv_head, tr.head_dim));
                            r = detail::make_row_range_recipe(r, tr.row_begin, tr.row_end - tr.row_begin);
                        } catch (const Error& e) {
                            throw e.with_tensor(s.name).with_file(cat.path);
                        }
                        break;
                    }
                    case arch::TensorTransform::Kind::Transpose:
                        if (s.shape.size() != 2)
                            throw Error(ErrorCode::Malformed, "a transposed weight must be 2-D, got " + shape_to_string(s.shape),
                                        cat.path, s.name);
                        r = make_transpose_recipe(r, s.shape[0], s.shape[1]);
                        break;
                    case arch::TensorTransform::Kind::AddOne: {
                        // The converter keeps F16 inputs F16 (and adds in F16); others are f32 by then.
                        const bool f16 = !s.quantized && cat.tensors.at(s.sources.at(0)).dtype == DType::F16;
                        r = make_add_one_recipe(r, f16 ? DType::F16 : DType::F32);
                        break;
                    }
                    case arch::TensorTransform::Kind::NegExp: {  // MambaModel: A = -torch.exp(A_log)
                        if (!s.quantized && cat.tensors.at(s.sources.at(0)).dtype == DType::F16)
                            throw Error(ErrorCode::Unsupported,
                                        "an F16 A_log: torch 1.13 (the converter's torch here) has no CPU exp for Half and fails",
                                        cat.path, s.name);
                        try {
                            r = make_neg_exp_recipe(r);
                        } catch (const Error& e) {
                            throw e.with_tensor(s.name).with_file(cat.path);
                        }
                        break;
                    }
                    case arch::TensorTransform::Kind::HeadRows:
                    case arch::TensorTransform::Kind::HeadRowsTransposed: {
                        const auto& tr = mt.transform;
                        try {
                            if (s.shape.size() != 2) throw Error(ErrorCode::Malformed, "kv_b_proj must be 2-D, got " + shape_to_string(s.shape));
                            r = make_head_rows_recipe(r, tr.n_head, tr.row_begin, tr.row_end,
                                                      tr.kind == arch::TensorTransform::Kind::HeadRowsTransposed);
                        } catch (const Error& e) {
                            throw e.with_tensor(s.name).with_file(cat.path);
                        }
                        break;
                    }
                    case arch::TensorTransform::Kind::ExpertTransposeStrided:
                    case arch::TensorTransform::Kind::StridedCols: {
                        const auto& tr = mt.transform;
                        try {
                            if (tr.kind == arch::TensorTransform::Kind::StridedCols) r = make_strided_cols_recipe(r, tr.n_head, tr.row_begin);
                            else r = make_expert_transpose_recipe(r, s.shape, tr.n_head, tr.row_begin);
                        } catch (const Error& e) {
                            throw e.with_tensor(s.name).with_file(cat.path);
                        }
                        break;
                    }
                    case arch::TensorTransform::Kind::ExpertTransposeRows: {  // Llama 4's fused experts
                        const auto& tr = mt.transform;
                        try {
                            if (s.shape.size() != 3) throw Error(ErrorCode::Malformed, "fused experts must be 3-D, got " + shape_to_string(s.shape));
                            r = make_expert_transpose_recipe(r, s.shape, 1, 0);  // [E, A, B] → [E, B, A]
                            if (tr.row_begin != 0 || tr.row_end != s.shape[2])
                                r = make_expert_rows_recipe(r, s.shape[0], s.shape[2], tr.row_begin, tr.row_end);
                        } catch (const Error& e) {
                            throw e.with_tensor(s.name).with_file(cat.path);
                        }
                        break;
                    }
                    case arch::TensorTransform::Kind::LeadingRows:
                        r = make_leading_rows_recipe(r, mt.transform.row_end);
                        rows_in_file = s.shape.empty() ? 0 : s.shape[0];
                        break;
                    case arch::TensorTransform::Kind::SliceDim1: {
                        // Rows [row_begin, row_end) of dim -2: of the whole tensor (2-D: a fused qkv or gate/up
                        // projection) or of every expert (3-D [E, 2F, H]: a fused gate_up stack).
                        const auto& tr = mt.transform;
                        try {
                            if (s.shape.size() == 2) r = detail::make_row_range_recipe(r, tr.row_begin, tr.row_end - tr.row_begin);
                            else if (s.shape.size() == 3) r = make_expert_rows_recipe(r, s.shape[0], s.shape[1], tr.row_begin, tr.row_end);
                            else throw Error(ErrorCode::Malformed, "a sliced tensor must be 2-D or 3-D, got " + shape_to_string(s.shape));
                        } catch (const Error& e) {
                            throw e.with_tensor(s.name).with_file(cat.path);
                        }
                        break;
                    }
                }
                parts.push_back(std::move(r));
            }
            HfModel::Tensor t;
            t.name = mt.name;
            t.hf = mt.sources.empty() ? std::string() : mt.sources[0];
            t.shape = mt.shape;
            t.recipe = mt.stacked ? make_stack_recipe(std::move(parts), "experts stacked") : parts.at(0);
            t.stored = mt.stacked ? nullptr : stored;
            t.rows_in_file = rows_in_file;
            t.quantized = quantized;
            if (m.row->hparams == arch::HparamsRule::Mamba && t.name == "output.weight")  // MambaModel: a tied lm_head
                if (const auto e = std::find_if(m.tensors.begin(), m.tensors.end(), [](const auto& x) { return x.name == "token_embd.weight"; });
                    e != m.tensors.end() && e->shape == t.shape && recipes_equal(*e->recipe, *t.recipe))
                    continue;
            m.tensors.push_back(std::move(t));
        }
    }
    mapper.finish();
    check_config_against_weights(m);
    return m;
}

// Key/values: general.architecture, the ones generated with the tensors,
// general.* (type, sampling, names, card), hparams around general.file_type,
// general.quantization_version, the tokenizer.
// The parameter counts gguf-py takes its size label from: every tensor the
// converter writes, by GGUF name and element shape (ne order).
arch::ParamCounts param_counts(const HfModel& m) {
    arch::ParamCounter counter;
    counter.add_all(m.tensors);
    return counter.counts();
}

// Beside the model folder (never inside it), named as the converter names
// its default output: `type` ("BF16", "Q4_K_M") or, for --vocab-only, none.
std::string default_path(const HfModel& m, const arch::GeneralNaming& naming, const std::string& type, bool vocab_only) {
    const std::string name =
        vocab_only ? arch::naming_convention(naming.name, naming.basename, naming.finetune, naming.version, std::nullopt,
                                             std::nullopt, std::string("vocab")) + ".gguf"
                   : arch::default_gguf_name(naming, type, param_counts(m));
    return beside_folder(m.dir, name);
}

std::vector<MetaKv> build_kvs(const Catalog& cat, const HfModel& m, std::uint32_t ftype,
                              const std::optional<std::string>& vocab_pre, std::vector<std::string>& warnings,
                              arch::GeneralNaming* naming_out) {
    std::vector<MetaKv> kvs;
    kvs.push_back({"general.architecture", MetaValue::string(std::string(m.row->gguf))});
    for (const auto& kv : m.extras.kvs) kvs.push_back(kv);

    const auto general = arch::general_kvs(arch::read_general_inputs(m.dir, param_counts(m)));
    kvs.insert(kvs.end(), general.kvs.begin(), general.kvs.end());
    warnings.insert(warnings.end(), general.warnings.begin(), general.warnings.end());
    if (naming_out) *naming_out = general.naming;

    const auto hp = arch::hparam_kvs(*m.row, *m.cfg, m.dir);
    kvs.insert(kvs.end(), hp.before_file_type.begin(), hp.before_file_type.end());
    if (hp.file_type) kvs.push_back({"general.file_type", MetaValue::u32(ftype)});
    kvs.insert(kvs.end(), hp.after_file_type.begin(), hp.after_file_type.end());
    kvs.push_back({"general.quantization_version", MetaValue::u32(2)});

    tok::VocabRequest vr;
    vr.dir = m.dir;
    vr.style = m.row->vocab;
    if (const auto vs = m.cfg->get("vocab_size"); vs && vs->is_uint64()) vr.vocab_size = std::uint64_t(*vs);
    else if (vs && vs->is_int64() && std::int64_t(*vs) >= 0) vr.vocab_size = static_cast<std::uint64_t>(std::int64_t(*vs));
    if (const auto padded = vocab_rows(m)) vr.vocab_size = padded;
    vr.config_json = *cat.config_json;
    vr.pre_override = vocab_pre;
    auto vocab = tok::gguf_vocab(vr);
    warnings.insert(warnings.end(), vocab.warnings.begin(), vocab.warnings.end());
    // gguf-py's add_key_value: a key written again keeps its first place (Phi2Model writes add_bos_token early).
    for (auto& kv : vocab.kvs) {
        auto same = std::find_if(kvs.begin(), kvs.end(), [&](const MetaKv& k) { return k.key == kv.key; });
        if (same != kvs.end()) same->value = std::move(kv.value);
        else kvs.push_back(std::move(kv));
    }
    return kvs;
}

DType parse_outtype(const std::string& s, const HfModel& m) {
    std::string up = s;
    std::transform(up.begin(), up.end(), up.begin(), [](unsigned char ch) { return static_cast<char>(std::toupper(ch)); });
    for (const auto& o : converter_outtypes())
        if (up == o.name) return o.type;
    if (up == "AUTO" || up.empty()) return m.half.value_or(DType::F16);
    if (parse_llama_file_type(up))
        throw Error(ErrorCode::Usage, "convert writes convert_hf_to_gguf's types (" + outtype_list() + ", auto); for " + up +
                                          " use amn forget DIR --to gguf:" + up + " (the converter and llama-quantize in one pass)");
    throw Error(ErrorCode::Usage, "unknown GGUF output type '" + s + "' (convert_hf_to_gguf's: " + outtype_list() + ", auto)");
}

// The converter's plan: every tensor with its type.
struct Converted {
    HfModel model;
    DType outtype = DType::BF16;
    std::uint32_t ftype = 0;  // general.file_type written
    GgufOutputPlan plan;
    arch::GeneralNaming naming;
    std::vector<GgufWarning> warnings;
};

// The plan with the converter's arithmetic (f32 products).
Plan converter_plan(const Catalog& cat) {
    require_hf_folder(cat);
    PlanOptions o;
    o.f32_products = true;
    return make_plan(cat, o);
}

Converted convert_plan(const Catalog& cat, DType outtype_or_unknown, const std::string& outtype_text, bool vocab_only,
                       const std::optional<std::string>& vocab_pre, bool no_mtp = false) {
    const Plan plan = converter_plan(cat);
    Converted c{build_model(cat, plan, vocab_only, no_mtp), DType::Unknown, 0, {}, {}, {}};
    c.outtype = outtype_or_unknown != DType::Unknown ? outtype_or_unknown : parse_outtype(outtype_text, c.model);
    for (auto& t : c.model.tensors) {
        GgufOutputTensor o = converter_output_tensor(cat, t.name, t.shape,
                                                     t.raw ? t.raw_type : arch::converter_type(*c.model.row, t.name, t.shape, c.outtype),
                                                     t.raw ? t.raw_type : t.stored ? t.stored->dtype : DType::F32, c.outtype);
        if (t.raw) o.info.gguf_reason->rule = TypeRule::ConverterRepacked;
        // Bytes as stored, except BF16: gguf-py's BF16 writer sets the quiet bit
        // of a signaling NaN (0x7F81 → 0x7FC1), so BF16 → BF16 is not a bit copy;
        // those go through f32_to_bf16, which does the same.
        o.info.copied = (t.stored && t.stored->dtype == o.info.target && o.info.target != DType::BF16) || t.raw != nullptr;
        o.stored = o.info.copied ? t.stored : nullptr;
        o.raw = t.raw;
        o.recipe = t.raw ? make_raw_decode_recipe(t.raw, t.raw_type, t.shape) : t.recipe;
        c.plan.tensors.push_back(std::move(o));
    }
    std::vector<std::string> log = c.model.warnings;
    // prepare_metadata: NVFP4 weights make an F32/F16/BF16 file MOSTLY_NVFP4 (39), MXFP4 ones MOSTLY_MXFP4_MOE (38).
    const bool q8 = c.outtype == DType::Q8_0;
    const std::uint32_t ftype = c.model.nvfp4 && !q8 ? 39u : c.model.mxfp4 && !q8 ? 38u : ftype_of(c.outtype);
    c.ftype = ftype;
    c.plan.kvs = build_kvs(cat, c.model, ftype, vocab_pre, log, &c.naming);
    c.warnings = converter_log(std::move(log));
    c.plan.pad_without_tensors = false;  // gguf-py writes a --vocab-only file unpadded
    c.plan.dims_as_given = true;         // gguf-py: n_dims = len(shape) ([1, H] stays 2-D)
    return c;
}

}  // namespace

HfConverterPlan hf_gguf_converter_plan(const Catalog& cat, DType outtype, const std::optional<std::string>& vocab_pre, bool no_mtp) {
    Converted c = convert_plan(cat, outtype, "", false, vocab_pre, no_mtp);
    return {std::move(c.plan), std::move(c.warnings)};
}

GgufSource hf_gguf_lossless_source(const Catalog& cat, const std::optional<std::string>& vocab_pre, bool no_mtp) {
    // Lossless instead of auto: F32 when no BF16/F16 tensor decides.
    require_hf_folder(cat);
    const DType lossless = first_half_float(cat).value_or(DType::F32);
    Converted c = convert_plan(cat, lossless, "", false, vocab_pre, no_mtp);
    GgufSource src;
    src.kvs = std::move(c.plan.kvs);
    src.warnings = std::move(c.warnings);
    for (std::size_t i = 0; i < c.plan.tensors.size(); ++i) {
        auto& o = c.plan.tensors[i];
        const auto& t = c.model.tensors[i];
        GgufSourceTensor s;
        s.name = o.info.name;
        s.shape = o.info.shape;
        s.dtype = o.info.target;
        // The values as the intermediate file holds them.
        s.recipe = t.raw ? o.recipe : make_round_through_recipe(t.recipe, o.info.target);
        s.stored = o.stored;
        s.raw = t.raw;
        s.quantized = t.quantized;
        src.tensors.push_back(std::move(s));
    }
    return src;
}

}  // namespace detail

HfGgufInfo describe_hf_gguf(const Catalog& cat) {
    HfGgufInfo info;
    info.is_hf_folder = is_hf_gguf_input(cat);
    if (!info.is_hf_folder) {
        info.error = "not a Hugging Face model folder (config.json beside safetensors weights)";
        return info;
    }
    try {
        arch::HfConfig cfg(*cat.config_json, cat.config_path);
        info.hf_architecture = arch::detect_hf_architecture(cfg);
        const auto& row = arch::hf_arch_for_config(cfg);
        info.gguf_architecture = std::string(row.gguf);
        const auto half = detail::first_half_float(cat);
        info.default_outtype = dtype_name(half.value_or(DType::F16));
        for (const auto& lt : make_plan(cat).tensors)
            if (!lt.error.empty()) throw Error(ErrorCode::Unsupported, lt.error.message(), cat.path, lt.name);
        tok::VocabRequest vr;
        vr.dir = detail::model_dir(cat);
        vr.style = row.vocab;
        if (const auto vs = cfg.get("vocab_size"); vs && (vs->is_uint64() || vs->is_int64()))
            vr.vocab_size = static_cast<std::uint64_t>(vs->is_uint64() ? std::uint64_t(*vs) : std::uint64_t(std::int64_t(*vs)));
        vr.config_json = *cat.config_json;
        const auto vocab = tok::gguf_vocab(vr);
        info.tokenizer_model = vocab.model;
        info.tokenizer_pre = vocab.pre;
        info.warnings = detail::converter_log(vocab.warnings);
    } catch (const Error& e) {
        info.error = e.what();
    }
    // The vision projector convert --mmproj writes, for a folder with a vision_config.
    try {
        const arch::HfConfig cfg(*cat.config_json, cat.config_path);
        if (const auto vc = cfg.top("vision_config"); vc && vc->is_object()) {
            info.has_vision = true;
            if (info.error.empty()) info.text_output = default_hf_gguf_output_path(cat, "auto");
            info.mmproj_output = default_hf_mmproj_output_path(cat, "auto");
        }
    } catch (const Error& e) {
        info.mmproj_error = e.what();
    }
    return info;
}

namespace {
std::string converter_output(const Catalog& cat, const HfGgufOptions& opt, detail::Converted& c);
std::string converter_output(const Catalog& cat, const HfGgufOptions& opt, detail::GgufOutputPlan& plan,
                             std::vector<GgufWarning>& warnings, const std::string& default_path);

// --mmproj: the vision projector (hf_to_mmproj.hpp); the converter writes no vocabulary into it.
detail::MmprojPlan mmproj_plan(const Catalog& cat, const HfGgufOptions& opt) {
    if (opt.vocab_only || opt.vocab_pre)
        throw Error(ErrorCode::Usage, "--mmproj writes the vision projector, which has no vocabulary: no --vocab-only / --vocab-pre");
    return detail::mmproj_converter_plan(cat, opt.outtype);
}
}  // namespace

std::vector<ForgetTensor> plan_hf_gguf(const Catalog& cat, const HfGgufOptions& opt, std::vector<GgufOutputFile>* files) {
    if (opt.mmproj) {
        auto m = mmproj_plan(cat, opt);
        const std::string path = converter_output(cat, opt, m.plan, m.warnings, m.default_path);
        if (files) *files = detail::gguf_plan_files(m.plan, path);
        return detail::take_planned_tensors(m.plan);
    }
    auto c = detail::convert_plan(cat, DType::Unknown, opt.outtype, opt.vocab_only, opt.vocab_pre, opt.no_mtp);
    const std::string path = converter_output(cat, opt, c);
    if (files) *files = detail::gguf_plan_files(c.plan, path);
    return detail::take_planned_tensors(c.plan);
}

bool is_hf_gguf_input(const Catalog& cat) {
    return (cat.format == Format::Safetensors || cat.format == Format::Pth) && cat.config_json.has_value();
}

std::string resolve_hf_outtype(const Catalog& cat, const std::string& outtype) {
    std::string t = outtype;
    std::transform(t.begin(), t.end(), t.begin(), [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
    if (t == "AUTO" || t.empty()) return dtype_name(detail::first_half_float(cat).value_or(DType::F16));
    for (const auto& o : converter_outtypes())
        if (t == o.name) return std::string(o.name);
    throw Error(ErrorCode::Usage, "unknown GGUF output type '" + outtype + "' (convert_hf_to_gguf's: " + detail::outtype_list() + ", auto)");
}

std::string default_hf_gguf_output_path(const Catalog& cat, const std::string& type_or_auto) {
    std::string lower = type_or_auto;
    std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    const std::string type = lower == "auto" ? resolve_hf_outtype(cat, lower) : type_or_auto;
    try {
        // The tensors as the converter writes them (no tokenizer read): the size label counts those.
        const detail::HfModel m = detail::build_model(cat, detail::converter_plan(cat), false, false);
        const auto g = arch::general_kvs(arch::read_general_inputs(m.dir, detail::param_counts(m)));
        return detail::default_path(m, g.naming, type, false);
    } catch (const Error&) {
        const fs::path dir = detail::model_dir(cat);
        return detail::beside_folder(dir.string(), dir.filename().string() + "-" + type + ".gguf");
    }
}

std::string default_hf_mmproj_output_path(const Catalog& cat, const std::string& type) {
    return detail::default_mmproj_path(cat, type);
}

namespace {

// The converter's output plan, cut into its parts when asked
// (--split-max-size / --split-max-tensors / --no-tensor-first-split);
// returns the output path (`default_path` unless -o).
std::string converter_output(const Catalog& cat, const HfGgufOptions& opt, detail::GgufOutputPlan& plan,
                             std::vector<GgufWarning>& warnings, const std::string& default_path) {
    if (opt.split.keep_split) throw Error(ErrorCode::Usage, "--keep-split is llama-quantize's (forget of a split GGUF), not the converter's");
    if (opt.split.any() && opt.vocab_only)
        throw Error(ErrorCode::Usage, "--vocab-only writes no tensors: there is nothing to split");
    const std::string path = !opt.output.empty() ? opt.output : default_path;
    if (opt.split.any()) {
        std::vector<detail::GgufPartTensor> ts;
        for (const auto& t : plan.tensors) ts.push_back({t.info.name, t.info.bytes, 0});
        bool one_part = false;
        plan.parts = detail::cut_gguf_parts(detail::GgufPartRule::Converter, opt.split, plan.kvs, ts, path, 0, &one_part);
        if (one_part) warnings.push_back(detail::converter_log({"Model fails split requirements, not splitting"}).at(0));
        // write_tensors_to_file pads every part after its tensor infos, an
        // empty first part (--no-tensor-first-split) too.
        plan.pad_without_tensors = true;
        for (const auto& p : plan.parts) detail::refuse_input_as_output(cat, p.path);
        if (plan.parts.size() == 1) plan.parts.clear();  // one file after all: the plain file
    } else {
        detail::refuse_input_as_output(cat, path);
    }
    return path;
}

std::string converter_output(const Catalog& cat, const HfGgufOptions& opt, detail::Converted& c) {
    const std::string def = !opt.output.empty() ? std::string()
                                                : detail::default_path(c.model, c.naming,
                                                                       opt.vocab_only ? std::string() : converter_output_type(c.ftype),
                                                                       opt.vocab_only);
    return converter_output(cat, opt, c.plan, c.warnings, def);
}

}  // namespace

GgufWriteResult convert_hf_to_gguf(const Catalog& cat, const HfGgufOptions& opt, const ProgressFn& progress,
                                    const std::atomic<bool>* cancel) {
    detail::GgufRunOptions run;
    run.force = opt.force;
    run.threads = opt.threads;
    run.chunk_bytes = opt.chunk_bytes;
    if (opt.mmproj) {
        auto m = mmproj_plan(cat, opt);
        run.path = converter_output(cat, opt, m.plan, m.warnings, m.default_path);
        return detail::write_converter_plan(cat, std::move(m.plan), std::move(m.warnings), std::move(run), progress, cancel);
    }
    auto c = detail::convert_plan(cat, DType::Unknown, opt.outtype, opt.vocab_only, opt.vocab_pre, opt.no_mtp);
    run.path = converter_output(cat, opt, c);
    return detail::write_converter_plan(cat, std::move(c.plan), std::move(c.warnings), std::move(run), progress, cancel);
}

}  // namespace amn
