// SPDX-License-Identifier: MIT OR Apache-2.0
// Hugging Face folder → vision projector GGUF (hf_to_mmproj.hpp), as
// convert_hf_to_gguf.py --mmproj writes it (MmprojModel, conversion/base.py):
//   index_tensors   → HF tensors in (sorted shard file, sorted name) order,
//                     the class's filter_tensors keeping the vision tower and
//                     the projector only;
//   prepare_tensors → modify_tensors (renames, Qwen2-VL's qkv and Conv3D
//                     splits, Gemma 3's norm + 1), the type rule with the
//                     class's tensor_force_quant;
//   prepare_metadata→ general.architecture "clip", general.type "mmproj",
//                     general.* (metadata.py, the mmproj's own parameter
//                     count), general.file_type, the clip.* hparams,
//                     general.quantization_version; no tokenizer.
#include "jobs/hf_to_mmproj.hpp"

#include "anamnesis/error.hpp"
#include "anamnesis/gguf_ftype.hpp"
#include "anamnesis/hf_to_gguf.hpp"
#include "arch/general_kvs.hpp"
#include "arch/mmproj_table.hpp"
#include "arch/model_naming.hpp"
#include "jobs/hf_to_gguf_model.hpp"
#include "plan/layout_recipes.hpp"

#include <algorithm>
#include <filesystem>

namespace fs = std::filesystem;

namespace amn::detail {
namespace {

struct Out {
    std::string name;
    std::string hf;  // the filtered HF name (tensor_force_quant reads it)
    std::vector<std::uint64_t> shape;
    std::shared_ptr<const Recipe> recipe;
    const TensorInfo* stored = nullptr;
};

std::string model_dir_of(const Catalog& cat) {
    if (!cat.config_path.empty()) return fs::path(cat.config_path).parent_path().string();
    return fs::path(cat.shards.at(0).path).parent_path().string();
}

// --outtype; "auto" as ModelBase.__init__ guesses it over the tensors the
// class keeps (filter_tensors runs while indexing): the first of ≥ 2
// dimensions in index order that is BF16 or F16 (a dequantized one is f32), else F16.
DType outtype_of(const std::string& outtype, std::optional<DType> first_half) {
    std::string up = outtype;
    std::transform(up.begin(), up.end(), up.begin(), [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
    if (up == "AUTO" || up.empty()) return first_half.value_or(DType::F16);
    for (const auto& o : converter_outtypes())
        if (o.name == up) return o.type;
    throw Error(ErrorCode::Usage, "unknown GGUF output type '" + outtype + "' for --mmproj (F32, F16, BF16, Q8_0, auto)");
}

struct Setup {
    std::unique_ptr<arch::HfConfig> cfg;
    const arch::MmprojRow* row = nullptr;
    arch::MmprojHparams hp;
    std::string dir;
};

Setup setup(const Catalog& cat) {
    if (!is_hf_gguf_input(cat))
        throw Error(ErrorCode::Unsupported, "--mmproj needs a Hugging Face model folder: config.json beside safetensors weights", cat.path);
    Setup s;
    s.dir = model_dir_of(cat);
    s.cfg = std::make_unique<arch::HfConfig>(*cat.config_json, cat.config_path);
    s.row = &arch::mmproj_row_for_config(*s.cfg);
    s.hp = arch::mmproj_hparams(*s.row, *s.cfg, s.dir);
    return s;
}

std::vector<Out> build_tensors(const Catalog& cat, const Setup& s, std::optional<DType>& first_half) {
    PlanOptions po;
    po.f32_products = true;
    const Plan plan = make_plan(cat, po);
    std::vector<arch::HfTensorRef> refs;
    std::vector<std::size_t> idx;
    for (std::size_t i = 0; i < plan.tensors.size(); ++i) {
        const auto& lt = plan.tensors[i];
        if (!arch::mmproj_filter(*s.row, lt.name)) continue;
        if (!lt.error.empty()) throw Error(ErrorCode::Unsupported, lt.error.message(), cat.path, lt.name);
        const auto& payload = cat.tensors.at(lt.sources.at(0));
        refs.push_back({fs::path(cat.shards.at(payload.shard).path).filename().string(), lt.name});
        idx.push_back(i);
    }
    std::vector<Out> out;
    for (const std::size_t k : index_order(cat, refs)) {
        const auto& lt = plan.tensors[idx[k]];
        const std::string name = *arch::mmproj_filter(*s.row, lt.name);
        std::vector<arch::MmprojTensor> mts;
        try {
            mts = arch::mmproj_tensors(*s.row, s.hp, name, lt.shape);
        } catch (const Error& e) {
            throw e.with_tensor(lt.name).with_file(cat.path);
        }
        const TensorInfo& st = cat.tensors.at(lt.sources.at(0));
        if (!first_half && !lt.quantized && lt.shape.size() >= 2 && (st.dtype == DType::BF16 || st.dtype == DType::F16))
            first_half = st.dtype;
        for (auto& mt : mts) {
            Out o;
            o.name = mt.name;
            o.hf = name;
            o.shape = mt.shape;
            o.recipe = lt.recipe;
            if (mt.slice_dim) {
                o.recipe = make_dim_slice_recipe(o.recipe, lt.shape, *mt.slice_dim, mt.begin, mt.end);
            } else if (mt.add_one) {
                // The converter keeps F16 inputs F16 (and adds in F16); others are f32 by then.
                o.recipe = make_add_one_recipe(o.recipe, !lt.quantized && st.dtype == DType::F16 ? DType::F16 : DType::F32);
            } else if (!lt.quantized && !st.big_endian && st.strides.empty() && st.storage_offset_elems == 0) {
                o.stored = &st;
            }
            out.push_back(std::move(o));
        }
    }
    if (out.empty()) throw Error(ErrorCode::Unsupported, "no vision tower tensors in the weights (--mmproj)", cat.path);
    return out;
}

arch::ParamCounts counts_of(const std::vector<Out>& ts) {
    arch::ParamCounter c;
    c.add_all(ts);
    return c.counts();
}

std::string default_path_for(const std::string& dir, const arch::GeneralNaming& n, const std::string& type) {
    for (const char* f : {"name", "basename", "finetune", "version"})
        if (n.non_string.count(f))
            throw Error(ErrorCode::Unsupported, std::string("the model card's ") + f + " is not a string: no default file name (give -o)",
                        (fs::path(dir) / "README.md").string());
    const std::string name =
        "mmproj-" + arch::naming_convention(n.name, n.basename, n.finetune, n.version, std::nullopt, type) + ".gguf";
    return beside_folder(dir, name);
}

}  // namespace

MmprojPlan mmproj_converter_plan(const Catalog& cat, const std::string& outtype_text) {
    const Setup s = setup(cat);
    std::optional<DType> first_half;
    std::vector<Out> ts = build_tensors(cat, s, first_half);
    const DType outtype = outtype_of(outtype_text, first_half);
    const auto* ot = converter_outtype_of(outtype);
    if (!ot) throw Error(ErrorCode::Usage, "no converter file type for " + dtype_name(outtype));

    MmprojPlan r;
    auto& kvs = r.plan.kvs;
    kvs.push_back({"general.architecture", MetaValue::string("clip")});
    const auto general = arch::general_kvs(arch::read_general_inputs(s.dir, counts_of(ts)));
    for (const auto& kv : general.kvs)
        kvs.push_back(kv.key == "general.type" ? MetaKv{"general.type", MetaValue::string("mmproj")} : kv);  // MmprojModel.set_type
    kvs.push_back({"general.file_type", MetaValue::u32(ot->ftype)});
    kvs.insert(kvs.end(), s.hp.kvs.begin(), s.hp.kvs.end());
    kvs.push_back({"general.quantization_version", MetaValue::u32(2)});
    r.warnings = converter_log(general.warnings);
    r.default_path = default_path_for(s.dir, general.naming, converter_output_type(ot->ftype));

    for (auto& t : ts) {
        GgufOutputTensor o = converter_output_tensor(cat, t.name, t.shape, arch::mmproj_type(*s.row, t.hf, t.name, t.shape, outtype),
                                                     t.stored ? t.stored->dtype : DType::F32, outtype);
        // As the text GGUF: stored bytes kept, except BF16 (gguf-py quiets signaling NaNs).
        o.info.copied = t.stored && t.stored->dtype == o.info.target && o.info.target != DType::BF16;
        o.stored = o.info.copied ? t.stored : nullptr;
        o.recipe = t.recipe;
        r.plan.tensors.push_back(std::move(o));
    }
    r.plan.pad_without_tensors = false;
    r.plan.dims_as_given = true;  // gguf-py: n_dims = len(shape)
    return r;
}

std::string default_mmproj_path(const Catalog& cat, const std::string& type) {
    return mmproj_converter_plan(cat, type).default_path;
}

}  // namespace amn::detail
