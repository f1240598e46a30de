// SPDX-License-Identifier: MIT OR Apache-2.0
// The way back for the architectures with their own key lists (GGUF `gptneox` → transformers
// GPTNeoXForCausalLM, `starcoder` → GPTBigCodeForCausalLM, `mamba` → MambaForCausalLM /
// FalconMambaForCausalLM): config.json, the inverse of core/src/arch/arch_classic_params.cc and
// arch_hybrid_params.cc (conversion/gptneox.py, starcoder.py, mamba.py set_gguf_parameters).
#include "plan/hf_config.hpp"

#include "anamnesis/error.hpp"
#include "anamnesis/json_writer.hpp"
#include "anamnesis/metadata.hpp"

#include <cmath>

namespace amn::detail {

namespace {

/// token_embd.weight rows, else {arch}.vocab_size. \throws Error{Malformed} without either.
std::uint64_t vocab_rows(const GgufKeys& kv, const std::string& a) {
    const Catalog& cat = kv.catalog();
    if (auto e = cat.find("token_embd.weight"); e && !cat.tensors[*e].shape.empty() && cat.tensors[*e].shape[0])
        return cat.tensors[*e].shape[0];
    if (auto v = kv.num(a + "vocab_size"); v && *v >= 1) return static_cast<std::uint64_t>(*v);
    throw Error(ErrorCode::Malformed, "--layout hf: no token_embd.weight and no " + a + "vocab_size", cat.path);
}

/// `name`: the GGUF number at `key`, as its shortest JSON text, when present.
void number(JsonWriter& w, const GgufKeys& kv, const char* name, const std::string& key) {
    if (auto t = kv.number_text(key)) w.key(name).raw(*t);
}

/// The config's end: vocab_size (token_embd.weight rows), the special token ids the tokenizer keys hold,
/// tie_word_embeddings and torch_dtype; the object closed and its text returned.
std::string finish(JsonWriter& w, const GgufKeys& kv, const HfConfigFacts& f, const std::string& a) {
    w.key("vocab_size").value(vocab_rows(kv, a));
    number(w, kv, "bos_token_id", "tokenizer.ggml.bos_token_id");
    number(w, kv, "eos_token_id", "tokenizer.ggml.eos_token_id");
    number(w, kv, "pad_token_id", "tokenizer.ggml.padding_token_id");
    w.key("tie_word_embeddings").value(f.tied);
    const DType dt = f.out_dtype.value_or(DType::BF16);
    w.key("torch_dtype").value(dt == DType::F32 ? "float32" : dt == DType::F16 ? "float16" : "bfloat16");
    w.end_object();
    return w.take();
}

bool has_tensor(const GgufKeys& kv, const char* name) { return kv.catalog().find(name).has_value(); }

}  // namespace

std::string gptneox_config(const arch::ArchRow& row, const GgufKeys& kv, const HfConfigFacts& f) {
    const std::string a = std::string(row.gguf) + ".";
    const Catalog& cat = kv.catalog();
    const std::uint64_t hidden = kv.required_u64(a + "embedding_length"), heads = kv.required_u64(a + "attention.head_count");
    const std::uint64_t rope = kv.required_u64(a + "rope.dimension_count");
    if (hidden % heads || rope > hidden / heads)
        throw Error(ErrorCode::Malformed, "--layout hf: a gptneox GGUF whose rope.dimension_count exceeds the head size", cat.path);
    // int(rotary_pct · head_size) must give the stored count: rope / head_size itself (exact for the even splits).
    const double pct = static_cast<double>(rope) / static_cast<double>(hidden / heads);
    if (static_cast<std::uint64_t>(std::trunc(pct * static_cast<double>(hidden / heads))) != rope)
        throw Error(ErrorCode::Unsupported, "--layout hf: no rotary_pct gives this gptneox rope.dimension_count", cat.path);
    JsonWriter w(2);
    w.begin_object();
    w.key("architectures").begin_array().value(row.hf_class).end_array();
    w.key("model_type").value(row.model_type);
    w.key("hidden_act").value(row.hidden_act);
    w.key("hidden_size").value(hidden);
    w.key("intermediate_size").value(kv.required_u64(a + "feed_forward_length"));
    w.key("num_hidden_layers").value(kv.required_u64(a + "block_count"));
    w.key("num_attention_heads").value(heads);
    w.key("max_position_embeddings").value(kv.required_u64(a + "context_length"));
    w.key("rotary_pct").raw(meta_json(MetaValue::f64(pct)));
    // The converter writes no rope.freq_base: llama.cpp runs GPT-NeoX with its default base, 10000.
    w.key("rotary_emb_base").value(std::uint64_t{10000});
    w.key("rope_theta").value(std::uint64_t{10000});
    if (auto p = kv.num(a + "use_parallel_residual")) w.key("use_parallel_residual").value(*p != 0);
    number(w, kv, "layer_norm_eps", a + "attention.layer_norm_epsilon");
    w.key("attention_bias").value(has_tensor(kv, "blk.0.attn_qkv.bias"));
    return finish(w, kv, f, a);
}

std::string starcoder_config(const arch::ArchRow& row, const GgufKeys& kv, const HfConfigFacts& f) {
    const std::string a = std::string(row.gguf) + ".";
    const Catalog& cat = kv.catalog();
    const std::uint64_t embd = kv.required_u64(a + "embedding_length");
    if (kv.num(a + "attention.head_count_kv").value_or(1) != 1)
        throw Error(ErrorCode::Unsupported, "--layout hf: a starcoder GGUF with more than one KV head (GPTBigCode is multi-query here)",
                    cat.path);
    if (kv.required_u64(a + "feed_forward_length") != 4 * embd)
        throw Error(ErrorCode::Unsupported, "--layout hf: a starcoder feed-forward length other than 4 × embedding_length", cat.path);
    JsonWriter w(2);
    w.begin_object();
    w.key("architectures").begin_array().value(row.hf_class).end_array();
    w.key("model_type").value(row.model_type);
    w.key("activation_function").value(row.hidden_act);
    w.key("n_embd").value(embd);
    w.key("n_inner").value(4 * embd);
    w.key("n_layer").value(kv.required_u64(a + "block_count"));
    w.key("n_head").value(kv.required_u64(a + "attention.head_count"));
    w.key("n_positions").value(kv.required_u64(a + "context_length"));
    w.key("multi_query").value(true);
    number(w, kv, "layer_norm_epsilon", a + "attention.layer_norm_epsilon");
    return finish(w, kv, f, a);
}

std::string bloom_config(const arch::ArchRow& row, const GgufKeys& kv, const HfConfigFacts& f) {
    const std::string a = std::string(row.gguf) + ".";
    const Catalog& cat = kv.catalog();
    const std::uint64_t hidden = kv.required_u64(a + "embedding_length"), heads = kv.required_u64(a + "attention.head_count");
    if (kv.required_u64(a + "feed_forward_length") != 4 * hidden || kv.num(a + "attention.head_count_kv").value_or(double(heads)) != double(heads))
        throw Error(ErrorCode::Unsupported,
                    "--layout hf: a bloom GGUF with a feed-forward length other than 4 × embedding_length or fewer KV heads", cat.path);
    JsonWriter w(2);
    w.begin_object();
    w.key("architectures").begin_array().value(row.hf_class).end_array();
    w.key("model_type").value(row.model_type);
    w.key("hidden_size").value(hidden);
    w.key("n_layer").value(kv.required_u64(a + "block_count"));
    w.key("n_head").value(heads);
    w.key("seq_length").value(kv.required_u64(a + "context_length"));  // the converter's context_length
    number(w, kv, "layer_norm_epsilon", a + "attention.layer_norm_epsilon");
    w.key("apply_residual_connection_post_layernorm").value(false);
    return finish(w, kv, f, a);
}

std::string mamba_config(const arch::ArchRow& row, const GgufKeys& kv, const HfConfigFacts& f) {
    const std::string a = std::string(row.gguf) + ".";
    const bool v2 = row.gguf == "mamba2";
    const std::uint64_t hidden = kv.required_u64(a + "embedding_length"), inner = kv.required_u64(a + "ssm.inner_size");
    if (v2 ? inner % hidden != 0 : inner != 2 * hidden)  // MambaModel asserts expand 2; Mamba2Config has an integer expand
        throw Error(ErrorCode::Unsupported,
                    std::string("--layout hf: a ") + std::string(row.gguf) + " GGUF whose ssm.inner_size is not " +
                        (v2 ? "a multiple of" : "2 ×") + " embedding_length",
                    kv.catalog().path);
    for (const char* k : {"context_length", "feed_forward_length", "attention.head_count"}) kv.mark(a + k);  // the converter's constants
    const bool falcon = kv.num(a + "ssm.dt_b_c_rms").value_or(0) != 0;  // model_type falcon_mamba
    kv.mark(a + "ssm.dt_b_c_rms");
    JsonWriter w(2);
    w.begin_object();
    w.key("architectures").begin_array().value(v2 ? "Mamba2ForCausalLM" : falcon ? "FalconMambaForCausalLM" : "MambaForCausalLM").end_array();
    w.key("model_type").value(v2 ? "mamba2" : falcon ? "falcon_mamba" : "mamba");
    w.key("hidden_act").value(row.hidden_act);
    w.key("hidden_size").value(hidden);
    if (!v2) w.key("intermediate_size").value(inner);
    w.key("expand").value(inner / hidden);
    w.key("num_hidden_layers").value(kv.required_u64(a + "block_count"));
    w.key("state_size").value(kv.required_u64(a + "ssm.state_size"));
    w.key("conv_kernel").value(kv.required_u64(a + "ssm.conv_kernel"));
    const std::uint64_t rank = kv.required_u64(a + "ssm.time_step_rank");
    if (v2) {  // Mamba2Model writes time_step_rank = inner // head_dim: the head count
        if (inner % rank != 0)
            throw Error(ErrorCode::Unsupported, "--layout hf: a mamba2 GGUF whose heads (ssm.time_step_rank) do not divide its inner size",
                        kv.catalog().path);
        w.key("num_heads").value(rank);
        w.key("head_dim").value(inner / rank);
        w.key("n_groups").value(kv.required_u64(a + "ssm.group_count"));
    } else {
        w.key("time_step_rank").value(rank);
    }
    number(w, kv, "layer_norm_epsilon", a + "attention.layer_norm_rms_epsilon");
    w.key("use_bias").value(has_tensor(kv, "blk.0.ssm_in.bias"));
    w.key("use_conv_bias").value(has_tensor(kv, "blk.0.ssm_conv1d.bias"));
    w.key("residual_in_fp32").value(true);
    w.key("pad_vocab_size_multiple").value(1);  // vocab_size is token_embd.weight's rows, already padded
    return finish(w, kv, f, a);
}

}  // namespace amn::detail
