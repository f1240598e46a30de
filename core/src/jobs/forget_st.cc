// SPDX-License-Identifier: MIT OR Apache-2.0
// Forget to safetensors schemes (bitsandbytes, compressed-tensors, DeepSeek
// FP8): choose the Linear weights, encode each weight in row chunks with its
// scheme's encoder object (forget_st_encoder.hpp) on the runner
// (exec/run_output_plan.hpp), write payload + companions
// under the library's names through the safetensors sink of the output set
// (safetensors_set.hpp, shared with remember), pass every
// other tensor through, write config.json with the library's
// quantization_config. The round trip of each weight is measured on the spot
// when StForgetOptions::measure_loss asks for it.
// The schemes (parsing, names, labels, quantization_config, encoders): the
// rows of forget_st_rows.hpp; what is read and config.json: forget_st_input.cc;
// which tensors are quantized: forget_st_select.cc.
#include "anamnesis/forget_st.hpp"

#include "anamnesis/error.hpp"
#include "anamnesis/json_writer.hpp"
#include "util/json_util.hpp"
#include "jobs/safetensors_output.hpp"
#include "jobs/forget_st_internal.hpp"
#include "jobs/forget_st_encoder.hpp"
#include "jobs/forget_st_rows.hpp"
#include "jobs/forget_st_mlx_gpt_oss.hpp"
#include "jobs/forget_st_mlx_tree.hpp"
#include "plan/layout_recipes.hpp"
#include "jobs/forget_st_mlx_recipe.hpp"

#include <algorithm>
#include <atomic>
#include <array>
#include <cctype>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <functional>
#include <limits>
#include <map>
#include <numeric>
#include <memory>
#include <regex>
#include <set>

namespace fs = std::filesystem;

namespace amn {
namespace {

using u64 = std::uint64_t;

using forget_st_internal::Choice;
using forget_st_internal::OutSpec;
using forget_st_internal::classify;
using forget_st_internal::is_conv1d_model;
using detail::ascii_lower;
using forget_st_internal::module_of;
using forget_st_internal::out_specs;
using forget_st_internal::st_scheme_row;
using forget_st_internal::StSchemeRow;

// ---- the job -----------------------------------------------------------------------

struct Entry {
    std::size_t lt = 0;           // plan.tensors index
    ForgetTensor info;
    bool quantize = false;
    bool linear_kept = false;
    DType wdtype = DType::F32;    // dtype the weight is stored in (decides bytes)
    DType out_dtype = DType::Unknown;  // kept: output dtype
    std::vector<OutSpec> outs;    // quantized: stored tensors; kept: one
    std::uint32_t shard = 0;
    std::vector<std::size_t> sink_index;  // per out, index in its writer
    QuantParams scheme;           // the options' scheme, or the model's own for this weight (MLX)
    std::string override_json;    // MLX: what `quantization` records for this module, or empty
    // Quantized by repacking the input's own codes (the row's repack_encoder), or null.
    std::shared_ptr<const detail::QuantGroups> repack;
};

struct Prepared {
    std::vector<Entry> entries;
    std::vector<std::string> ignore;
};

// MLX (OutputLayout::MlxLm): the input as mlx-lm's model holds it — experts
// stacked (sanitize), the model type, the dtype every float tensor is cast to.
struct MlxView {
    bool on = false;
    std::string model_type;
    std::optional<DType> cast;
    std::optional<Plan> plan;
    std::optional<forget_st_internal::MlxRecipe> recipe;  // --quant-predicate
    bool gpt_oss = false;  // load_model quantized the experts (mxfp4): every other module gets its own entry
};

MlxView mlx_view(const Catalog& cat, const forget_st_internal::StInput& in, const StForgetOptions& opt) {
    MlxView v;
    v.on = st_scheme_row(opt.scheme).layout == forget_st_internal::OutputLayout::MlxLm;
    if (!v.on) {
        if (opt.dtype) throw Error(ErrorCode::Usage, "--dtype applies to --to mlx only (mlx_lm.convert's --dtype)");
        if (!opt.quant_predicate.empty())
            throw Error(ErrorCode::Usage, "--quant-predicate applies to --to mlx only (mlx_lm.convert's --quant-predicate)");
        return v;
    }
    if (opt.dtype && *opt.dtype != DType::F16 && *opt.dtype != DType::BF16 && *opt.dtype != DType::F32)
        throw Error(ErrorCode::Usage, "--dtype must be float16, bfloat16 or float32 (mlx_lm.convert)");
    const auto facts = forget_st_internal::mlx_model_facts(in.config_json());
    v.model_type = facts.model_type;
    // mlx_lm.convert reads torch_dtype from the model's own config.json; a
    // GGUF's is made here (its torch_dtype a guess), so only --dtype casts it.
    v.cast = opt.dtype ? opt.dtype : cat.format == Format::Gguf ? std::nullopt : facts.cast_dtype;
    if (std::string why = forget_st_internal::mlx_refuse_model(v.model_type, in.plan()); !why.empty())
        throw Error(ErrorCode::Unsupported, why, cat.path);
    v.gpt_oss = forget_st_internal::mlx_model_class(v.model_type) == "gpt_oss";
    if (v.gpt_oss && cat.format == Format::Gguf)
        throw Error(ErrorCode::Unsupported, "gpt-oss to MLX is written from the original MXFP4 safetensors checkpoint, not a GGUF",
                    cat.path);
    if (v.gpt_oss && !opt.quant_predicate.empty())
        throw Error(ErrorCode::Usage, "--quant-predicate with gpt-oss's MXFP4 experts is not written by amn yet");
    v.plan = v.gpt_oss ? forget_st_internal::gpt_oss_sanitize(cat, in.plan()) : forget_st_internal::mlx_lm_sanitize(in.plan(), facts);
    if (!opt.quant_predicate.empty()) {
        const auto& p = std::get<MlxParams>(opt.scheme);
        if (p.mode != MlxMode::Affine)
            throw Error(ErrorCode::Usage, "--quant-predicate takes MLX affine quantization only (mlx_lm.convert: \"Quant "
                                          "predicates only support 'affine' quantization.\"), not " + std::string(mlx_mode_name(p.mode)));
        if (opt.quant_predicate_group_size && *opt.quant_predicate_group_size != p.group_size)
            throw Error(ErrorCode::Usage, "--quant-predicate: the recorded group size " +
                                              std::to_string(*opt.quant_predicate_group_size) + " is not the scheme's " +
                                              std::to_string(p.group_size));
        v.recipe = forget_st_internal::mlx_recipe(opt.quant_predicate, *v.plan, v.model_type, p.group_size,
                                                  opt.quant_predicate_group_size);
    }
    return v;
}

// generation_config.json of the input: beside its config.json, or (GGUF) the
// one its Hugging Face layout writes.
std::optional<std::string> generation_config(const Catalog& cat, const forget_st_internal::StInput& in) {
    for (const auto& [name, text] : in.side_files())
        if (name == "generation_config.json") return text;
    if (cat.config_path.empty()) return std::nullopt;
    const fs::path p = fs::path(cat.config_path).parent_path() / "generation_config.json";
    std::error_code ec;
    if (!fs::is_regular_file(p, ec)) return std::nullopt;
    std::ifstream f(p, std::ios::binary);
    std::string text((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    if (!f.good() && !f.eof()) throw Error(ErrorCode::Io, "cannot read generation_config.json", p.string());
    return text;
}

// One output tensor of mlx-lm's layout: entry, index in its outs, shard.
struct MlxSlot {
    std::size_t entry = 0, out = 0, shard = 0;
};

// mlx-lm's shards (utils.py make_shards l.642-663): the tensors in
// module-tree order, a new shard when the next tensor would pass 5 GiB of
// data (strictly greater; a first tensor over the limit leaves shard 1
// empty, as mlx-lm does).
std::vector<MlxSlot> mlx_shards(const std::vector<Entry>& entries, std::string (*key)(const std::string&, const std::string&),
                                const std::string& model_type) {
    struct Item {
        std::string key;
        MlxSlot slot;
        u64 bytes;
    };
    std::vector<Item> items;
    for (std::size_t k = 0; k < entries.size(); ++k)
        for (std::size_t j = 0; j < entries[k].outs.size(); ++j) {
            const auto& o = entries[k].outs[j];
            u64 n = 1;
            for (auto d : o.shape) n *= d;
            items.push_back({key(model_type, o.name), {k, j, 0}, dtype_bytes(o.dtype, n).value_or(0)});
        }
    std::stable_sort(items.begin(), items.end(), [](const Item& a, const Item& b) { return a.key < b.key; });
    constexpr u64 kLimit = u64{5} << 30;
    std::vector<MlxSlot> out;
    std::size_t shard = 0;
    u64 size = 0;
    for (auto& it : items) {
        if (size + it.bytes > kLimit) {
            ++shard;
            size = 0;
        }
        size += it.bytes;
        it.slot.shard = shard;
        out.push_back(it.slot);
    }
    return out;
}

// The group size of an MLX scheme (its selection depends on it); 0 otherwise.
u64 mlx_group_size(const QuantParams& s) {
    const auto* p = std::get_if<MlxParams>(&s);
    return p ? p->group_size : 0;
}

std::vector<std::regex> compile(const std::vector<std::string>& res, const char* flag) {
    std::vector<std::regex> out;
    for (const auto& r : res) {
        try {
            out.emplace_back(r, std::regex::ECMAScript);
        } catch (const std::regex_error& e) {
            throw Error(ErrorCode::Usage, std::string(flag) + " '" + r + "' is not a valid regular expression: " + e.what());
        }
    }
    return out;
}

DType stored_float(const LogicalTensor& lt) {
    if (lt.quantized) return DType::BF16;
    const auto d = lt.recipe ? lt.recipe->lossless_dtype() : std::nullopt;
    if (!d) return DType::BF16;
    return *d;
}

// The stored BF16 tensor holding a weight to quantize as it is (the usual
// input: the quantizer may read its bits without decoding), or null.
const TensorInfo* stored_bf16_tensor(const Catalog& cat, const LogicalTensor& lt, DType wdtype, u64 numel) {
    if (lt.quantized || wdtype != DType::BF16 || lt.recipe->scheme_id() != "passthrough" || lt.sources.size() != 1)
        return nullptr;
    const TensorInfo& ti = cat.tensors[lt.sources[0]];
    const std::uint8_t* base = cat.data(ti);
    if (ti.dtype != DType::BF16 || ti.nbytes != numel * 2 || !base || reinterpret_cast<std::uintptr_t>(base) % 2 != 0)
        return nullptr;
    return &ti;
}

// Error{Unsupported} for an input whose tensor `e` is quantized and would be
// decoded (no --requantize); names the options that repack its codes when
// the scheme has any.
[[noreturn]] void refuse_quantized_input(const Catalog& cat, const Plan& plan, const StForgetOptions& opt, const Entry& e) {
    const StSchemeRow& row = st_scheme_row(opt.scheme);
    std::string schemes;
    for (const auto& s : plan.schemes) schemes += (schemes.empty() ? "" : ", ") + s.id;
    // Where the scheme could repack the tensor's codes with other options: say which.
    std::string hint;
    const auto g = row.repack_fits && e.lt < plan.tensors.size() ? plan.tensors[e.lt].recipe->quant_groups() : nullptr;
    if (g) {
        using Kind = detail::QuantGroups::Kind;
        const auto& tr = g->traits();
        const std::string to = tr.kind == Kind::Affine  ? "mlx:" + std::to_string(tr.bits) + " --group-size " + std::to_string(tr.group)
                               : tr.kind == Kind::Mxfp4 ? std::string("mlx:mxfp4")
                                                        : std::string("mlx:nvfp4");
        hint = "; " + e.info.name + ": its codes (" + tr.what + ") are repacked losslessly by --to " + to;
    }
    // No tensor in the error itself: the input as a whole is refused, typed
    // for the front ends that word that case (Error::notice()).
    Notice n{.kind = NoticeKind::AlreadyQuantized, .file = cat.path, .detail = schemes};
    n.count = static_cast<std::uint64_t>(
        std::count_if(plan.tensors.begin(), plan.tensors.end(), [](const LogicalTensor& lt) { return lt.quantized; }));
    throw Error(ErrorCode::Unsupported,
                "the input is already quantized (" + (schemes.empty() ? std::string("quantized tensors") : schemes) +
                    "): pass --requantize to decode it and quantize again (the errors compound), or start from "
                    "the BF16/F16/F32 model" + hint,
                cat.path)
        .with_notice(std::move(n));
}

Prepared prepare(const Catalog& cat, const Plan& plan, const std::optional<std::string>& config_json,
                 const StForgetOptions& opt, const MlxView& mlx) {
    if (ascii_lower(opt.output).ends_with(".gguf"))
        throw Error(ErrorCode::Usage,
                    "output " + opt.output + ": " + st_scheme_label(opt.scheme) +
                        " writes safetensors (a folder or a .safetensors file); for GGUF use --to gguf:FTYPE",
                    cat.path);
    for (const auto& lt : plan.tensors)
        if (!lt.error.empty()) throw Error(ErrorCode::Unsupported, lt.error.message(), cat.path, lt.name);
    // A scheme that repacks nothing refuses a quantized input before anything else.
    if (!opt.requantize && !st_scheme_row(opt.scheme).repack_fits)
        for (std::size_t i = 0; i < plan.tensors.size(); ++i)
            if (plan.tensors[i].quantized) {
                Entry e;
                e.lt = plan.tensors.size();  // no tensor to name
                refuse_quantized_input(cat, plan, opt, e);
            }
    const auto only = compile(opt.only, "--only");
    const auto keep = compile(opt.keep, "--keep");

    Prepared p;
    std::set<std::string> ignore;
    const bool conv1d_model = is_conv1d_model(config_json);
    const StSchemeRow& row = st_scheme_row(opt.scheme);
    for (std::size_t i = 0; i < plan.tensors.size(); ++i) {
        const auto& lt = plan.tensors[i];
        Entry e;
        e.lt = i;
        e.shard = lt.shard;
        const DType sd = stored_float(lt);
        const bool is_float = lt.quantized || sd == DType::F32 || sd == DType::F16 || sd == DType::BF16 || sd == DType::F64;
        Choice c = row.selection == forget_st_internal::Selection::MlxLm
                       ? forget_st_internal::classify_mlx(lt, is_float, only, keep, mlx_group_size(opt.scheme))
                       : classify(lt, is_float, only, keep, row.bitsandbytes, conv1d_model);
        // gpt-oss's experts: quantized by load_model (mxfp4) from the stored codes, whatever the scheme.
        const bool preset = mlx.gpt_oss && lt.quantized && forget_st_internal::gpt_oss_expert_weight(lt.name);
        if (preset) c = Choice{true, false, StRule::Quantized};
        // A module mlx-lm cannot quantize (deepseek_v2's MoEGate: no to_quantized).
        if (mlx.on && c.quantize && !forget_st_internal::mlx_module_quantizable(mlx.model_type, module_of(lt.name)))
            c = Choice{false, false, StRule::KeptRouter};
        e.quantize = c.quantize;
        e.linear_kept = c.linear;
        e.scheme = opt.scheme;
        auto& t = e.info;
        t.name = lt.name;
        t.shape = lt.shape;
        t.numel = lt.numel();
        t.source = lt.quantized ? cat.tensors.at(lt.sources.at(0)).dtype : sd;
        if (e.quantize) {
            // Rows of the last axis (a stacked [E, out, in] expert weight: E·out rows, as mx.quantize).
            const u64 C = lt.shape.back(), R = C ? lt.numel() / C : 0;
            // A decoded (--requantize) weight is the BF16 model `remember` writes, then cast as any float
            // tensor (mlx_lm.convert's astype: deepseek_v3.py's FP8 dequant gives BF16, cast to the dtype).
            e.wdtype = mlx.cast ? *mlx.cast : lt.quantized ? DType::BF16 : sd == DType::F64 ? DType::F32 : sd;
            if (row.refuse_row && !preset)
                if (std::string why = row.refuse_row(opt.scheme, C); !why.empty())
                    throw Error(ErrorCode::Usage, why, cat.path, lt.name);
            // The model's own quant predicate (qwen3_moe routers: affine 8-bit, group 64).
            // --quant-predicate's recipe replaces it (quantize_model l.856).
            if (preset) {
                e.scheme = forget_st_internal::gpt_oss_expert_params();
            } else if (mlx.on)
                if (auto ov = mlx.recipe ? std::optional(forget_st_internal::mlx_recipe_override(*mlx.recipe, module_of(lt.name)))
                                         : forget_st_internal::mlx_quant_override(mlx.model_type, module_of(lt.name))) {
                    if (C % ov->params.group_size)
                        throw Error(ErrorCode::Usage,
                                    "mlx-lm's " + mlx.model_type + " model quantizes " + module_of(lt.name) + " with group size " +
                                        std::to_string(ov->params.group_size) + ", which does not divide its rows of " +
                                        std::to_string(C) + " (mx.quantize refuses it)",
                                    cat.path, lt.name);
                    e.scheme = ov->params;
                    e.override_json = ov->json;
                }
            // quantize_model on a model load_model quantized: every module its own entry (l.862-874).
            if (mlx.gpt_oss && !preset && e.override_json.empty()) e.override_json = st_quantization_config(opt.scheme, {});
            // Codes the scheme stores as they are (a GGUF Q4_0 weight to MLX
            // affine 4-bit, group 32): repacked, nothing rounded.
            if (auto g = row.repack_fits && lt.recipe ? lt.recipe->quant_groups() : nullptr) {
                if (auto sd = row.repack_fits(e.scheme, *g, t.repack)) {
                    if (*sd != DType::U8) e.wdtype = *sd;
                    e.repack = std::move(g);
                    t.repack = Repack::Lossless;
                    t.copied = true;
                }
            }
            if (preset && !e.repack)
                throw Error(ErrorCode::Unsupported, "gpt-oss's MXFP4 experts do not repack into MLX mxfp4 (group 32)", cat.path, lt.name);
            e.outs = out_specs(e.scheme, lt.name, R, C, e.wdtype);
            // A stacked weight's outputs keep its leading axes: [E, out, …].
            if (lt.shape.size() > 2)
                for (auto& o : e.outs)
                    if (!o.shape.empty() && o.shape[0] == R && o.shape.size() == 2) {
                        std::vector<u64> sh(lt.shape.begin(), lt.shape.end() - 1);
                        sh.push_back(o.shape[1]);
                        o.shape = std::move(sh);
                    }
            t.target = e.outs[0].dtype;
            t.st_rule = StRule::Quantized;
            for (const auto& o : e.outs)
                if (!o.tail) t.bytes += *dtype_bytes(o.dtype, [&] { u64 n = 1; for (auto d : o.shape) n *= d; return n; }());
        } else {
            t.st_rule = c.rule;
            const bool plain_float = sd == DType::F32 || sd == DType::F16 || sd == DType::BF16;
            // The model's cast_predicate (deepseek_v3's e_score_correction_bias stays as stored); a decoded
            // (--requantize) tensor is cast as any float one.
            const bool cast = mlx.cast && (plain_float || lt.quantized) &&
                              forget_st_internal::mlx_cast_applies(mlx.model_type, lt.name);
            e.out_dtype = cast ? *mlx.cast : lt.quantized ? DType::BF16 : sd;
            t.copied = !lt.quantized && e.out_dtype == sd;
            t.target = e.out_dtype;
            t.bytes = dtype_bytes(e.out_dtype, t.numel).value_or(0);
            e.outs.push_back({lt.name, e.out_dtype, lt.shape});
            if (c.linear) ignore.insert(module_of(lt.name));
        }
        p.entries.push_back(std::move(e));
    }
    // A quantized input is decoded only under --requantize (codes repacked as they are need none).
    if (!opt.requantize)
        for (const auto& e : p.entries)
            if (plan.tensors[e.lt].quantized && !e.repack) refuse_quantized_input(cat, plan, opt, e);
    if (std::none_of(p.entries.begin(), p.entries.end(), [](const Entry& e) { return e.quantize; }))
        throw Error(ErrorCode::Usage,
                    "no tensor to quantize: no 2-D float Linear weight of the transformer blocks" +
                        std::string(opt.only.empty() ? "" : " matches --only") + " (see --only/--keep)",
                    cat.path);
    // Output names must not collide (a companion named like an input tensor).
    std::set<std::string> names;
    for (const auto& e : p.entries)
        for (const auto& o : e.outs)
            if (!names.insert(o.name).second)
                throw Error(ErrorCode::Usage, "two output tensors would be called " + o.name, cat.path, o.name);
    p.ignore.assign(ignore.begin(), ignore.end());
    return p;
}

}  // namespace

// ---- plan / run ---------------------------------------------------------------------------------

std::vector<ForgetTensor> plan_st_forget(const Catalog& cat, const Plan& input_plan, const StForgetOptions& opt) {
    const forget_st_internal::StInput in(cat, input_plan);
    const MlxView mlx = mlx_view(cat, in, opt);
    auto p = prepare(cat, mlx.plan ? *mlx.plan : in.plan(), in.config_json(), opt, mlx);
    std::vector<ForgetTensor> out;
    for (auto& e : p.entries) out.push_back(std::move(e.info));
    return out;
}

StForgetResult forget_to_safetensors(const Catalog& cat, const Plan& input_plan, const StForgetOptions& opt,
                                     const ProgressFn& progress, const std::atomic<bool>* cancel) {
    const forget_st_internal::StInput in(cat, input_plan);  // a GGUF input: its Hugging Face layout
    const MlxView mlx = mlx_view(cat, in, opt);
    const Plan& plan = mlx.plan ? *mlx.plan : in.plan();
    Prepared p = prepare(cat, plan, in.config_json(), opt, mlx);
    StForgetResult res;
    res.loss_measured = opt.measure_loss;
    res.quantization_config =
        st_quantization_config(mlx.gpt_oss ? QuantParams(forget_st_internal::gpt_oss_expert_params()) : opt.scheme, p.ignore);
    // mlx-lm appends the model predicate's per-module parameters to
    // `quantization`, in module-tree order (quantize_model l.875-879).
    if (mlx.on) {
        std::vector<std::pair<std::string, std::string>> ov;
        for (const auto& e : p.entries)
            if (e.quantize && !e.override_json.empty()) {
                std::string member;
                JsonWriter::escape_to(member, module_of(e.info.name));
                ov.emplace_back(st_scheme_row(opt.scheme).tree_order_key(mlx.model_type, e.info.name),
                                member + ":" + e.override_json);
            }
        std::sort(ov.begin(), ov.end());
        auto& qc = res.quantization_config;
        for (const auto& [k, member] : ov) qc.insert(qc.size() - 1, "," + member);
    }
    for (const auto& e : p.entries)
        if (!e.quantize && e.linear_kept) res.kept.push_back(e.info.name);
    if (opt.requantize)
        for (const auto& e : p.entries)
            if (e.quantize && plan.tensors[e.lt].quantized && !e.repack) {
                res.warnings.push_back(Notice{.kind = NoticeKind::Requantized});  // count 0: not counted
                break;
            }

    const bool mlx_layout = st_scheme_row(opt.scheme).layout == forget_st_internal::OutputLayout::MlxLm;
    const std::string config_json = mlx_layout
        ? forget_st_internal::mlx_config_with(in.config_json(), res.quantization_config, generation_config(cat, in))
        : forget_st_internal::config_with(in.config_json(), res.quantization_config) + "\n";
    // The output set: one shard per input shard (MLX: mlx-lm's), index.json,
    // config.json, tokenizer files, committed together (safetensors_output.hpp).
    detail::SafetensorsOutputPlan out;
    out.files = {opt.output.empty() ? default_st_output_path(cat, opt.scheme) : opt.output, opt.force, true, {}, std::nullopt};
    out.metadata = {{"format", mlx_layout ? "mlx" : "pt"}};
    out.order = mlx_layout ? SafetensorsWriter::DataOrder::MlxSaveSafetensors : SafetensorsWriter::DataOrder::Upstream;
    out.config_json = config_json;
    out.side_files = in.side_files();
    for (auto& w : in.warnings()) res.warnings.push_back(std::move(w));
    if (mlx_layout) {
        // mlx-lm's layout: every output tensor in its module-tree order, cut
        // into shards of at most 5 GiB of data (save_model / make_shards),
        // added in that order: the order MLX's writer emplaces them.
        const auto mlx_slots = mlx_shards(p.entries, *st_scheme_row(opt.scheme).tree_order_key, mlx.model_type);
        out.files.shards = mlx_slots.empty() ? 1 : mlx_slots.back().shard + 1;
        out.files.index_always = true;
        u64 parameters = 0;
        for (auto& e : p.entries) {
            e.sink_index.assign(e.outs.size(), 0);
            if (forget_st_internal::mlx_leaf_parameter(mlx.model_type, e.info.name)) parameters += e.info.numel;
        }
        for (const auto& s : mlx_slots) {
            auto& e = p.entries[s.entry];
            const auto& o = e.outs[s.out];
            e.sink_index[s.out] = out.tensors.size();
            out.tensors.push_back({s.shard, o.name, o.dtype, o.shape});
        }
        out.mlx_index_parameters = parameters;
    } else {
        for (auto& e : p.entries)
            for (const auto& o : e.outs) {
                e.sink_index.push_back(out.tensors.size());
                out.tensors.push_back({e.shard, o.name, o.dtype, o.shape, o.tail});
            }
    }

    // The runner's plan, one tensor per entry. Every tensor streams in row
    // chunks (quantized weights: a multiple of the quantizer's row
    // granularity; a weight that needs a tensor-wide value first — FP8 per
    // tensor, double quant — gets a first pass over its chunks). Unit weight =
    // input f32 bytes.
    out.run.tensors.reserve(p.entries.size());
    for (const auto& e : p.entries) {
        const LogicalTensor& lt = plan.tensors[e.lt];
        const Recipe& r = *lt.recipe;
        exec::OutputTensor o;
        o.name = e.info.name;
        o.recipe = lt.recipe;
        // A decoded weight cast to another dtype than BF16: its values through BF16 first (see wdtype).
        const DType cast_to = e.quantize ? e.wdtype : e.out_dtype;
        if (lt.quantized && !e.repack && cast_to != DType::BF16)
            o.recipe = detail::make_round_through_recipe(lt.recipe, DType::BF16);
        o.sink_tensors = e.sink_index;
        o.bytes = e.info.bytes;
        o.numel = e.info.numel;
        const bool run = r.rows() != 0 && e.info.numel != 0;
        if (e.repack) {
            o.cols = e.info.shape.back();
            if (run) o.rows = e.info.numel / o.cols, o.row_weight = o.cols * 4, o.granularity = 1;
            o.encoding = st_scheme_row(opt.scheme).repack_encoder(e.scheme, e.repack, e.wdtype);
        } else if (e.quantize) {
            const u64 C = e.info.shape.back(), R = C ? e.info.numel / C : 0;
            auto enc = forget_st_internal::weight_encoder(e.scheme, R, C, e.wdtype, nullptr, opt.measure_loss);
            o.cols = C;
            o.stored = stored_bf16_tensor(cat, lt, e.wdtype, e.info.numel);
            // A decoded (--requantize) weight is quantized as the BF16 model
            // `remember` writes: values rounded to BF16 first.
            if (lt.quantized) o.round_to = e.wdtype;
            // mlx_lm.convert's cast (astype) before quantizing.
            else if (mlx.cast && stored_float(lt) != e.wdtype) o.round_to = e.wdtype;
            if (run) o.rows = R, o.row_weight = C * 4, o.granularity = std::lcm(enc->row_granularity(), std::max<u64>(1, r.row_granularity()));
            o.encoding = std::move(enc);
        } else {
            if (lt.quantized) o.encoding = exec::EncodeType{e.out_dtype, std::max<u64>(1, r.row_elems())};
            else if (e.out_dtype != stored_float(lt)) o.encoding = exec::EncodeType{e.out_dtype, std::max<u64>(1, r.row_elems())};
            else o.encoding = exec::CopyRows{};
            if (run) o.rows = r.rows(), o.row_weight = r.row_elems() * 4, o.granularity = std::max<u64>(1, r.row_granularity());
        }
        out.run.tensors.push_back(std::move(o));
    }
    // The tensors run in batches of about 64 · chunk_bytes elements (2^29 by
    // default), in order, so that what a quantizer holds whole (double-quant
    // absmax, zero points: ≤ 1/64 of its elements) is freed batch by batch.
    // A batch with a first pass is smaller (8 · chunk_bytes elements): its input
    // pages stay mapped from the first pass to the second (not released and
    // faulted in again), which bounds what they add to the resident set.
    out.batch_elems = 64 * std::max<u64>(1, opt.chunk_bytes);
    out.prepass_batch_elems = 8 * std::max<u64>(1, opt.chunk_bytes);
    const auto written = detail::write_safetensors_plan(cat, std::move(out), {opt.threads, opt.chunk_bytes}, progress, cancel);
    const auto& ran = written.run;
    res.files = written.files;
    res.file_bytes = written.file_bytes;

    for (std::size_t k = 0; k < p.entries.size(); ++k) {
        auto& e = p.entries[k];
        auto& t = e.info;
        res.input_numel += t.numel;
        std::vector<std::string> names;
        for (const auto& o : e.outs) names.push_back(o.name);
        res.stored.push_back(std::move(names));
        if (e.quantize) {
            t.bytes += ran.tail_bytes[k];
            const auto& l = ran.loss[k];
            res.nonfinite += l.nonfinite;
            if (opt.measure_loss && !e.repack) detail::store_loss(t, l);
            if (l.nonfinite)
                res.warnings.push_back(Notice{.kind = NoticeKind::NonFiniteDequantized, .tensor = t.name, .count = l.nonfinite});
        }
        res.tensors.push_back(std::move(t));
    }
    return res;
}

}  // namespace amn
