// SPDX-License-Identifier: MIT OR Apache-2.0
// The mmproj rows (mmproj_table.hpp): MmprojModel, Gemma3VisionModel and
// Qwen2VLVisionModel of convert_hf_to_gguf.py (34af94c) as data and rules.
#include "arch/mmproj_table.hpp"

#include "anamnesis/catalog.hpp"
#include "anamnesis/error.hpp"
#include "arch/arch_values.hpp"
#include "util/json_dom.hpp"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>

namespace fs = std::filesystem;

namespace amn::arch {
namespace {

using amn::detail::json_get;
using simdjson::dom::element;

// gguf-py tensor_mapping.py, MODEL_ARCH.MMPROJ entries these checkpoints use.
constexpr MmprojName kGemma3Names[] = {
    {"vision_tower.vision_model.embeddings.patch_embedding", "v.patch_embd"},
    {"vision_tower.vision_model.embeddings.position_embedding", "v.position_embd"},
    {"vision_tower.vision_model.encoder.layers.{bid}.layer_norm1", "v.blk.{bid}.ln1"},
    {"vision_tower.vision_model.encoder.layers.{bid}.layer_norm2", "v.blk.{bid}.ln2"},
    {"vision_tower.vision_model.encoder.layers.{bid}.self_attn.q_proj", "v.blk.{bid}.attn_q"},
    {"vision_tower.vision_model.encoder.layers.{bid}.self_attn.k_proj", "v.blk.{bid}.attn_k"},
    {"vision_tower.vision_model.encoder.layers.{bid}.self_attn.v_proj", "v.blk.{bid}.attn_v"},
    {"vision_tower.vision_model.encoder.layers.{bid}.self_attn.out_proj", "v.blk.{bid}.attn_out"},
    {"vision_tower.vision_model.encoder.layers.{bid}.mlp.fc1", "v.blk.{bid}.ffn_up"},
    {"vision_tower.vision_model.encoder.layers.{bid}.mlp.fc2", "v.blk.{bid}.ffn_down"},
    {"vision_tower.vision_model.post_layernorm", "v.post_ln"},
    {"multi_modal_projector.mm_input_projection", "mm.input_projection"},
    {"multi_modal_projector.mm_soft_emb_norm", "mm.soft_emb_norm"},
};
constexpr MmprojName kQwen2VLNames[] = {
    {"visual.patch_embed.proj", "v.patch_embd"},
    {"visual.blocks.{bid}.norm1", "v.blk.{bid}.ln1"},
    {"visual.blocks.{bid}.norm2", "v.blk.{bid}.ln2"},
    {"visual.blocks.{bid}.attn.q", "v.blk.{bid}.attn_q"},
    {"visual.blocks.{bid}.attn.k", "v.blk.{bid}.attn_k"},
    {"visual.blocks.{bid}.attn.v", "v.blk.{bid}.attn_v"},
    {"visual.blocks.{bid}.attn.proj", "v.blk.{bid}.attn_out"},
    {"visual.blocks.{bid}.mlp.gate_proj", "v.blk.{bid}.ffn_gate"},
    {"visual.blocks.{bid}.mlp.up_proj", "v.blk.{bid}.ffn_up"},
    {"visual.blocks.{bid}.mlp.down_proj", "v.blk.{bid}.ffn_down"},
    {"visual.blocks.{bid}.mlp.fc1", "v.blk.{bid}.ffn_up"},
    {"visual.blocks.{bid}.mlp.fc2", "v.blk.{bid}.ffn_down"},
    {"visual.merger.ln_q", "v.post_ln"},
    {"visual.merger.mlp.{bid}", "mm.{bid}"},
};
constexpr std::string_view kGemma3Classes[] = {"Gemma3ForConditionalGeneration"};
constexpr std::string_view kQwen2VLClasses[] = {"Qwen2VLModel", "Qwen2VLForConditionalGeneration",
                                                "Qwen2_5_VLForConditionalGeneration"};
constexpr MmprojRow kRows[] = {
    {kGemma3Classes, MmprojRule::Gemma3, kGemma3Names},
    {kQwen2VLClasses, MmprojRule::Qwen2VL, kQwen2VLNames},
};

// A template with "{bid}" against a name: the block id, or nullopt.
std::optional<std::uint64_t> match_template(std::string_view tpl, std::string_view name) {
    const std::size_t at = tpl.find("{bid}");
    if (at == std::string_view::npos) return name == tpl ? std::optional<std::uint64_t>(UINT64_MAX) : std::nullopt;
    const std::string_view head = tpl.substr(0, at), tail = tpl.substr(at + 5);
    if (name.size() <= head.size() + tail.size() || !name.starts_with(head) || !name.ends_with(tail)) return std::nullopt;
    const std::string_view id = name.substr(head.size(), name.size() - head.size() - tail.size());
    if (id.empty() || id.size() > 9) return std::nullopt;
    std::uint64_t v = 0;
    for (char c : id) {
        if (c < '0' || c > '9') return std::nullopt;
        v = v * 10 + static_cast<std::uint64_t>(c - '0');
    }
    if (id.size() > 1 && id[0] == '0') return std::nullopt;  // str(bid) never has leading zeros
    return v;
}

// TensorNameMap.get_name(name, try_suffixes=(".weight", ".bias")).
std::optional<std::string> map_name(const MmprojRow& row, std::uint64_t block_count, std::string_view name) {
    for (const std::string_view suffix : {std::string_view(".weight"), std::string_view(".bias")}) {
        if (!name.ends_with(suffix)) continue;
        const std::string_view base = name.substr(0, name.size() - suffix.size());
        for (const auto& n : row.names) {
            const auto bid = match_template(n.hf, base);
            if (!bid) continue;
            if (*bid == UINT64_MAX) return std::string(n.gguf) + std::string(suffix);
            if (*bid >= block_count) continue;
            std::string g(n.gguf);
            g.replace(g.find("{bid}"), 5, std::to_string(*bid));
            return g + std::string(suffix);
        }
    }
    return std::nullopt;
}

// A JSON file of the model folder, or nullopt when absent.
std::optional<amn::detail::JsonDoc> read_json(const std::string& dir, const char* name) {
    const std::string path = (fs::path(dir) / name).string();
    std::error_code ec;
    if (!fs::is_regular_file(path, ec)) return std::nullopt;
    std::ifstream f(path, std::ios::binary);
    if (!f) throw Error(ErrorCode::Io, "cannot open the file", path);
    std::string text((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    if (f.bad()) throw Error(ErrorCode::Io, "cannot read the file", path);
    return amn::detail::JsonDoc(text, path, name);
}

// MmprojModel.preprocessor_config: preprocessor_config.json ({**cfg,
// **cfg["media_proc_cfg"]}) then processor_config.json ({**cfg,
// **cfg["image_processor"]}), later members winning.
class Preprocessor {
public:
    explicit Preprocessor(const std::string& dir)
        : dir_(dir), pre_(read_json(dir, "preprocessor_config.json")), proc_(read_json(dir, "processor_config.json")) {}
    std::optional<std::pair<element, std::string>> get(std::string_view key) const {
        for (const auto* doc : {&proc_, &pre_}) {
            if (!*doc) continue;
            const char* inner = doc == &proc_ ? "image_processor" : "media_proc_cfg";
            if (const auto in = json_get((*doc)->root(), inner); in && in->is_object())
                if (const auto v = json_get(*in, key)) return std::pair{*v, (*doc)->file()};
            if (const auto v = json_get((*doc)->root(), key)) return std::pair{*v, (*doc)->file()};
        }
        return std::nullopt;
    }
    std::string file() const {
        return pre_ ? pre_->file() : proc_ ? proc_->file() : (fs::path(dir_) / "preprocessor_config.json").string();
    }

private:
    std::string dir_;
    std::optional<amn::detail::JsonDoc> pre_, proc_;
};

// gguf-py add_array of a list of numbers: element type from the first (float → F32, int → INT32).
MetaValue number_array(element e, std::string_view key, const std::string& file) {
    if (!e.is_array()) throw Error(ErrorCode::BadJson, std::string(key) + ": expected a list of numbers", file);
    std::vector<detail::PyNum> v;
    for (element x : e.get_array()) v.push_back(detail::num(x, key, file));
    if (v.empty()) throw Error(ErrorCode::Malformed, std::string(key) + " is an empty list", file);
    std::vector<MetaValue> items;
    const bool ints = v[0].is_int;
    for (const auto& x : v) {
        if (ints && !x.is_int) throw Error(ErrorCode::BadJson, std::string(key) + ": a float in a list of integers", file);
        if (ints && (x.i < INT32_MIN || x.i > INT32_MAX)) throw Error(ErrorCode::BadJson, std::string(key) + ": out of the INT32 range", file);
        items.push_back(ints ? MetaValue::i32(static_cast<std::int32_t>(x.i)) : detail::f32(x.d, key, file));
    }
    return MetaValue::array(ints ? GgufType::I32 : GgufType::F32, items);
}

// The vision config after the class's __init__ renames: a value by the first present key (null counts as present).
struct VisionConfig {
    element obj;
    std::string file;
    MmprojRule rule;
    bool qwen2vl_embed = false;  // Qwen2-VL: embed_dim present (hidden_size ↔ intermediate_size)

    // A present key: its name and value (nullopt: None, as the renames set an absent one).
    struct Found {
        std::string key;
        std::optional<element> value;
    };
    std::optional<Found> raw(std::string_view key) const {
        if (rule == MmprojRule::Qwen2VL) {
            // Qwen2VLVisionModel.__init__: num_attention_heads = num_heads, num_hidden_layers = depth,
            // and for Qwen2-VL intermediate_size = hidden_size, hidden_size = embed_dim.
            auto alias = [&](std::string_view from) {
                return Found{"vision_config." + std::string(from), json_get(obj, from)};
            };
            if (key == "num_attention_heads") return alias("num_heads");
            if (key == "num_hidden_layers") return alias("depth");
            if (qwen2vl_embed && key == "intermediate_size") return alias("hidden_size");
            if (qwen2vl_embed && key == "hidden_size") return alias("embed_dim");
        }
        if (const auto v = json_get(obj, key)) return Found{"vision_config." + std::string(key), *v};
        return std::nullopt;
    }
    // find_vparam(keys): the first present key; missing or None → the named error.
    std::pair<std::string, element> find(std::initializer_list<std::string_view> keys) const {
        return find(std::span<const std::string_view>(keys.begin(), keys.size()));
    }
    std::pair<std::string, element> find(std::span<const std::string_view> keys) const {
        std::string names;
        for (const auto k : keys) {
            if (auto v = raw(k)) {
                if (!v->value || v->value->is_null()) detail::missing(v->key, file);
                return {v->key, *v->value};
            }
            names += (names.empty() ? "vision_config." : " / vision_config.") + std::string(k);
        }
        detail::missing(names, file);
    }
    MetaValue u32(std::span<const std::string_view> keys) const {
        const auto [k, v] = find(keys);
        return detail::u32(v, k, file);
    }
    MetaValue u32(std::initializer_list<std::string_view> keys) const {
        const auto [k, v] = find(keys);
        return detail::u32(v, k, file);
    }
};

constexpr std::string_view kBlockKeys[] = {"n_layers", "num_hidden_layers", "n_layer", "num_layers",
                                                                 "depth", "layers", "encoder_layers", "vt_num_hidden_layers"};

}  // namespace

std::span<const MmprojRow> mmproj_rows() noexcept { return kRows; }

std::string supported_mmproj_architectures() {
    std::string r;
    for (const auto& row : kRows)
        for (const auto c : row.hf_classes) r += (r.empty() ? "" : ", ") + std::string(c);
    return r;
}

const MmprojRow& mmproj_row_for_config(const HfConfig& cfg) {
    const std::string cls = detect_hf_architecture(cfg);
    const MmprojRow* found = nullptr;
    for (const auto& row : kRows)
        for (const auto c : row.hf_classes)
            if (c == cls) found = &row;
    if (!found)
        throw Error(ErrorCode::Unsupported,
                    cls + " has no vision projector amn writes (--mmproj: " + supported_mmproj_architectures() + ")", cfg.file());
    const auto vc = cfg.top("vision_config");
    if (!vc || !vc->is_object())
        throw Error(ErrorCode::Unsupported, "no vision tower: config.json has no vision_config object (--mmproj needs one)", cfg.file());
    return *found;
}

MmprojHparams mmproj_hparams(const MmprojRow& row, const HfConfig& cfg, const std::string& model_dir) {
    const std::string& file = cfg.file();
    const auto vobj = cfg.top("vision_config");
    if (!vobj || !vobj->is_object())
        throw Error(ErrorCode::Unsupported, "no vision tower: config.json has no vision_config object (--mmproj needs one)", file);
    VisionConfig vc{*vobj, file, row.rule, row.rule == MmprojRule::Qwen2VL && json_get(*vobj, "embed_dim").has_value()};
    MmprojHparams hp;

    // MmprojModel.__init__: the text width ({**hparams, **text_config}), the block count of the tensor map.
    std::optional<element> text = cfg.get("hidden_size");
    if (!text) text = cfg.get("n_embd");
    const std::int64_t n_embd_text = text && !text->is_null() ? detail::integer(*text, "hidden_size", file) : 0;
    if (n_embd_text <= 0) detail::missing("hidden_size (text_config.hidden_size: n_embd not found)", file);
    for (const auto k : kBlockKeys)
        if (const auto v = json_get(*vobj, k)) {
            if (!v->is_null()) {
                const auto n = detail::integer(*v, "vision_config." + std::string(k), file);
                hp.block_count = n > 0 ? static_cast<std::uint64_t>(n) : 0;
            }
            break;
        }

    auto& kvs = hp.kvs;
    kvs.push_back({"clip.has_vision_encoder", MetaValue::boolean(true)});
    kvs.push_back({"clip.vision.projection_dim", detail::u32(detail::PyNum{true, n_embd_text, double(n_embd_text)}, "hidden_size", file)});
    const bool qwen = row.rule == MmprojRule::Qwen2VL;
    std::int64_t image_size = 560;  // Qwen2VLVisionModel's default
    if (qwen && !json_get(*vobj, "image_size")) {
        kvs.push_back({"clip.vision.image_size", MetaValue::u32(560)});
    } else {
        const auto [k, v] = vc.find({"image_size"});
        kvs.push_back({"clip.vision.image_size", detail::u32(v, k, file)});
        image_size = detail::integer(v, k, file);
    }
    const auto [pk, pv] = vc.find({"patch_size"});
    kvs.push_back({"clip.vision.patch_size", detail::u32(pv, pk, file)});
    kvs.push_back({"clip.vision.embedding_length", vc.u32({"hidden_size", "width", "vt_hidden_size"})});
    kvs.push_back({"clip.vision.feed_forward_length", vc.u32({"intermediate_size", "vt_intermediate_size"})});
    kvs.push_back({"clip.vision.block_count", vc.u32(kBlockKeys)});
    kvs.push_back({"clip.vision.attention.head_count", vc.u32({"num_attention_heads", "num_heads", "heads", "vt_num_attention_heads"})});
    const Preprocessor pre(model_dir);
    for (const auto key : {"image_mean", "image_std"}) {
        const auto v = pre.get(key);
        if (!v) throw Error(ErrorCode::Malformed, std::string("no key '") + key + "' in preprocessor_config.json / processor_config.json", pre.file());
        kvs.push_back({std::string("clip.vision.") + key, number_array(v->first, key, v->second)});
    }

    if (row.rule == MmprojRule::Gemma3) {
        kvs.push_back({"clip.projector_type", MetaValue::string("gemma3")});
        const auto eps = json_get(*vobj, "layer_norm_eps");
        if (eps && eps->is_null()) detail::missing("vision_config.layer_norm_eps", file);
        kvs.push_back({"clip.vision.attention.layer_norm_epsilon",
                       eps ? detail::f32(*eps, "vision_config.layer_norm_eps", file) : detail::f32(1e-6, "layer_norm_eps", file)});
        kvs.push_back({"clip.use_gelu", MetaValue::boolean(true)});
        // proj_scale_factor = (image_size // patch_size) // int(sqrt(image_seq_length)), written unless 0 or 4.
        std::int64_t seq = 256;
        std::string seq_file = file;
        if (const auto s = pre.get("image_seq_length")) {
            seq = detail::integer(s->first, "image_seq_length", s->second);
            seq_file = s->second;
        }
        if (seq < 0) throw Error(ErrorCode::Malformed, "image_seq_length is negative", seq_file);
        const auto per_side = static_cast<std::int64_t>(std::sqrt(static_cast<double>(seq)));
        const std::int64_t patch = detail::integer(pv, pk, file);
        if (per_side == 0 || patch == 0)
            throw Error(ErrorCode::Malformed, per_side == 0 ? "image_seq_length gives 0 tokens per side" : "vision_config.patch_size is 0",
                        per_side == 0 ? seq_file : file);
        auto floordiv = [](std::int64_t a, std::int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); };
        const std::int64_t scale = floordiv(floordiv(image_size, patch), per_side);
        if (scale > 0 && scale != 4)
            kvs.push_back({"clip.vision.projector.scale_factor", detail::u32(detail::PyNum{true, scale, double(scale)}, "scale_factor", file)});
    } else {
        const auto mt = cfg.top("model_type");
        const std::string model_type = mt && mt->is_string() ? std::string(std::string_view(*mt)) : std::string();
        if (model_type == "qwen2_vl") {
            kvs.push_back({"clip.projector_type", MetaValue::string("qwen2vl_merger")});
        } else if (model_type == "qwen2_5_vl") {
            kvs.push_back({"clip.projector_type", MetaValue::string("qwen2.5vl_merger")});
            kvs.push_back({"clip.use_silu", MetaValue::boolean(true)});
            const auto fa = json_get(*vobj, "fullatt_block_indexes");
            if (!fa || fa->is_null()) detail::missing("vision_config.fullatt_block_indexes", file);
            if (!fa->is_array() || fa->get_array().size() == 0)
                throw Error(ErrorCode::BadJson, "vision_config.fullatt_block_indexes: expected a non-empty list of integers", file);
            std::vector<std::int64_t> idx;
            for (element x : fa->get_array()) idx.push_back(detail::integer(x, "vision_config.fullatt_block_indexes", file));
            const std::int64_t n_wa = idx[0] + 1;
            for (std::size_t i = 1; i < idx.size(); ++i)
                if (idx[i] - idx[i - 1] != n_wa)
                    throw Error(ErrorCode::Malformed, "vision_config.fullatt_block_indexes is not evenly spaced (Invalid fullatt_block_indexes)", file);
            kvs.push_back({"clip.vision.n_wa_pattern", detail::u32(detail::PyNum{true, n_wa, double(n_wa)}, "fullatt_block_indexes", file)});
        } else {
            throw Error(ErrorCode::Malformed, "model_type '" + model_type + "' is not qwen2_vl or qwen2_5_vl (Unknown QwenVL model type)", file);
        }
        const auto eps = cfg.top("rms_norm_eps");
        if (eps && eps->is_null()) detail::missing("rms_norm_eps", file);
        kvs.push_back({"clip.vision.attention.layer_norm_epsilon",
                       eps ? detail::f32(*eps, "rms_norm_eps", file) : detail::f32(1e-6, "rms_norm_eps", file)});
    }
    return hp;
}

std::optional<std::string> mmproj_filter(const MmprojRow& row, std::string_view hf_name) {
    std::string name(hf_name);
    if (row.rule == MmprojRule::Gemma3) {
        if (name.find("vision_model.head.") != std::string::npos) return std::nullopt;
        if (!name.starts_with("multi_modal_projector.") && !name.starts_with("vision_tower.") &&
            !name.starts_with("multimodal_projector.") && !name.starts_with("vision_model."))
            return std::nullopt;
        for (std::size_t at; (at = name.find("_weight")) != std::string::npos;) name.replace(at, 7, ".weight");
    } else if (!name.starts_with("visual.")) {
        return std::nullopt;
    }
    // MmprojModel.filter_tensors, then ModelBase's.
    if (name.find("language_model.") != std::string::npos) return std::nullopt;
    if (name.ends_with("e_score_correction_bias")) name.replace(name.size() - 23, 23, "e_score_correction.bias");
    return name;
}

std::vector<MmprojTensor> mmproj_tensors(const MmprojRow& row, const MmprojHparams& hp, std::string_view name,
                                         std::span<const std::uint64_t> shape) {
    auto mapped = [&](std::string_view n) {
        auto g = map_name(row, hp.block_count, n);
        if (!g) throw Error(ErrorCode::Unsupported, "cannot map tensor (no vision projector name for it)", "", std::string(name));
        return *g;
    };
    std::vector<MmprojTensor> out;
    if (row.rule == MmprojRule::Qwen2VL && name.find(".qkv.") != std::string_view::npos) {
        const std::uint64_t c3 = shape.empty() ? 0 : shape[0];
        if (c3 % 3 != 0 || shape.size() > 2)
            throw Error(ErrorCode::Malformed, "a fused qkv must have 3·C rows, got " + shape_to_string(shape),
                        "", std::string(name));
        const std::uint64_t c = c3 / 3;
        const char* parts[] = {"q", "k", "v"};
        for (std::uint64_t i = 0; i < 3; ++i) {
            std::string n(name);
            n.replace(n.find(".qkv."), 5, std::string(".") + parts[i] + ".");
            MmprojTensor t;
            t.name = mapped(n);
            t.shape.assign(shape.begin(), shape.end());
            t.shape[0] = c;
            t.slice_dim = 0;
            t.begin = i * c;
            t.end = (i + 1) * c;
            out.push_back(std::move(t));
        }
        return out;
    }
    if (row.rule == MmprojRule::Qwen2VL && name.find("patch_embed.proj.weight") != std::string_view::npos) {
        if (shape.size() != 5)
            throw Error(ErrorCode::Malformed, "the Conv3D patch embedding must be 5-D, got " + shape_to_string(shape),
                        "", std::string(name));
        if (shape[2] != 2)
            throw Error(ErrorCode::Malformed, "temporal_patch_size is " + std::to_string(shape[2]) + " (the converter splits only 2)", "",
                        std::string(name));
        for (std::uint64_t t = 0; t < 2; ++t) {
            MmprojTensor o;
            o.name = t == 0 ? "v.patch_embd.weight" : "v.patch_embd.weight.1";
            o.shape = {shape[0], shape[1], shape[3], shape[4]};
            o.slice_dim = 2;
            o.begin = t;
            o.end = t + 1;
            out.push_back(std::move(o));
        }
        return out;
    }
    MmprojTensor t;
    t.name = mapped(name);
    t.shape.assign(shape.begin(), shape.end());
    t.add_one = row.rule == MmprojRule::Gemma3 && name.find("soft_emb_norm.weight") != std::string_view::npos;
    out.push_back(std::move(t));
    return out;
}

DType mmproj_type(const MmprojRow& row, std::string_view hf_name, std::string_view gguf_name, std::span<const std::uint64_t> shape,
                  DType outtype) {
    std::optional<DType> force;
    if (row.rule == MmprojRule::Gemma3 && hf_name.find("input_projection") != std::string_view::npos) force = DType::F16;
    else if (row.rule == MmprojRule::Gemma3 && hf_name.find(".embeddings.") != std::string_view::npos) force = DType::F32;
    else if (row.rule == MmprojRule::Qwen2VL && gguf_name.find(".position_embd.") != std::string_view::npos) force = DType::F32;
    else if (gguf_name.find(".patch_embd.weight") != std::string_view::npos || gguf_name.find(".patch_merger.weight") != std::string_view::npos)
        force = outtype == DType::F16 ? DType::F16 : DType::F32;
    if (shape.size() <= 1 || gguf_name.ends_with("_norm.weight")) return DType::F32;
    if (!force && (gguf_name == "v.position_embd.weight" || !gguf_name.ends_with(".weight"))) return DType::F32;
    const DType t = force.value_or(outtype);
    if (t == DType::Q8_0 && (shape.empty() || shape.back() % 32 != 0)) return DType::F16;  // gguf-py QuantError → F16
    return t;
}

}  // namespace amn::arch
