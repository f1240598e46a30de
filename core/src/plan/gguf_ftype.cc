// SPDX-License-Identifier: MIT OR Apache-2.0
// llama-quantize's per-tensor type choice and tensor order: an
// independent implementation of the rules of llama.cpp src/llama-quant.cpp
// and tools/quantize/quantize.cpp (constant tables carried over).
#include "anamnesis/gguf_ftype.hpp"

#include "anamnesis/error.hpp"
#include "anamnesis/gguf.hpp"
#include "plan/gguf_ftype_ids.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <numeric>
#include <regex>

namespace amn {
namespace {

using namespace detail::ftype;

bool contains(const std::string& s, std::string_view part) { return s.find(part) != std::string::npos; }

// ---- tensor categories (llama-quant.cpp tensor_get_category) ----
enum class Cat { TokenEmbd, AttnQ, AttnV, AttnK, AttnQkv, AttnKvB, AttnOutput, FfnUp, FfnGate, FfnDown, Output, Other };

bool is_token_embd(const std::string& n) { return n == "token_embd.weight" || n == "per_layer_token_embd.weight"; }

Cat category(const std::string& n) {
    if (n == "output.weight") return Cat::Output;
    if (is_token_embd(n)) return Cat::TokenEmbd;
    if (contains(n, "attn_qkv.weight")) return Cat::AttnQkv;
    if (contains(n, "attn_kv_b.weight")) return Cat::AttnKvB;
    if (contains(n, "attn_v.weight")) return Cat::AttnV;
    if (contains(n, "attn_k.weight")) return Cat::AttnK;
    if (contains(n, "attn_q.weight")) return Cat::AttnQ;
    if (contains(n, "attn_output.weight")) return Cat::AttnOutput;
    if (contains(n, "ffn_up")) return Cat::FfnUp;
    if (contains(n, "ffn_gate")) return Cat::FfnGate;
    if (contains(n, "ffn_down")) return Cat::FfnDown;
    return Cat::Other;
}

bool is_attn_v_like(Cat c) { return c == Cat::AttnV || c == Cat::AttnQkv || c == Cat::AttnKvB; }

// GGUF dims (innermost first) with ggml_n_dims' trailing ones dropped.
std::vector<std::uint64_t> ggml_ne(const std::vector<std::uint64_t>& shape) {
    std::vector<std::uint64_t> ne(shape.rbegin(), shape.rend());
    while (ne.size() > 1 && ne.back() == 1) ne.pop_back();
    if (ne.empty()) ne.push_back(1);
    return ne;
}

std::uint64_t blck(DType t) {
    const DTypeInfo* i = dtype_info(t);
    return i ? i->block_elems : 1;
}

bool is_quantized(DType t) {
    const DTypeInfo* i = dtype_info(t);
    return i && i->is_quantized_block;
}

// Names llama-quantize never quantizes (tensor_allows_quantization), as
// substrings; the reason names the substring.
constexpr std::string_view kNeverQuantized[] = {
    "ffn_gate_inp.weight", "ffn_gate_tid2eid.weight", "altup", "laurel", "per_layer_model_proj", "ssm_conv1d",
    "shortconv.conv.weight", "indexer.k_proj.weight", "indexer.q_proj.weight", "time_mix_first.weight",
    "time_mix_w0.weight", "time_mix_w1.weight", "time_mix_w2.weight", "time_mix_v0.weight", "time_mix_v1.weight",
    "time_mix_v2.weight", "time_mix_a0.weight", "time_mix_a1.weight", "time_mix_a2.weight", "time_mix_g1.weight",
    "time_mix_g2.weight", "time_mix_decay_w1.weight", "time_mix_decay_w2.weight", "time_mix_lerp_fused.weight",
    "attn_rel_b.weight", ".position_embd", "sam.pos_embd", "sam.neck.", "sam.net_", ".rel_pos", ".patch_embd",
    ".patch_merger", "a.rvq.codebook", "mm.a.code_embd",
};

// KeptReason::None when the tensor may be quantized, else why not (and the
// name part for NeverQuantized).
KeptReason quantization_refusal(const TensorDesc& t, const std::vector<std::uint64_t>& ne, const QuantizeRequest& req,
                                std::string& name_part) {
    if (ne.size() < 2) return KeptReason::OneD;
    const std::string& name = t.name;
    // llama's test, wrap-around included: names shorter than 6 bytes without
    // "weight" pass it (npos == size − 6).
    if (name.rfind("weight") != name.size() - 6) return KeptReason::NotWeight;
    if (contains(name, "_norm.weight")) return KeptReason::Norm;
    if (req.leave_output_tensor && name == "output.weight") return KeptReason::LeaveOutputTensor;
    for (auto s : kNeverQuantized)
        if (contains(name, s)) {
            name_part = std::string(s);
            return KeptReason::NeverQuantized;
        }
    if (name == "position_embd.weight") return KeptReason::PositionEmbeddings;
    if (name == "token_types.weight") return KeptReason::TokenTypes;
    return KeptReason::None;
}

// ---- model facts from the key/values ----
struct Model {
    std::string arch;
    int n_layer = 0;
    std::uint32_t n_head = 0, n_head_kv = 0, n_expert = 0;
    bool is_70b = false;
    std::uint32_t n_gqa() const { return n_head_kv == 0 ? 0 : n_head / n_head_kv; }
};

std::optional<std::uint64_t> kv_uint(const std::vector<GgufKv>& kvs, const std::string& key) {
    const GgufValue* v = gguf_find_kv(kvs, key);
    if (!v) return std::nullopt;
    const GgufValue* s = v;
    GgufValue first;
    if (v->is_array()) {  // per-layer counts: layer 0
        if (v->empty()) return std::nullopt;
        first = v->at(0);
        s = &first;
    }
    try {
        return s->as_uint();
    } catch (const Error&) {
        throw Error(ErrorCode::Usage, "metadata key '" + key + "' is a " + std::string(gguf_type_name(s->type)) +
                                          ", not a count");
    }
}

Model model_from(const std::vector<GgufKv>& kvs, bool need) {
    Model m;
    const GgufValue* a = gguf_find_kv(kvs, "general.architecture");
    if (a && a->type == GgufType::String) m.arch = a->str;
    if (m.arch.empty()) {
        if (need) throw Error(ErrorCode::Usage, "the model has no general.architecture, which llama-quantize's rules need");
        return m;
    }
    const auto nl = kv_uint(kvs, m.arch + ".block_count");
    if (!nl && need) throw Error(ErrorCode::Usage, "the model has no " + m.arch + ".block_count, which llama-quantize's rules need");
    m.n_layer = static_cast<int>(nl.value_or(0));
    m.n_head = static_cast<std::uint32_t>(kv_uint(kvs, m.arch + ".attention.head_count").value_or(0));
    m.n_head_kv = static_cast<std::uint32_t>(kv_uint(kvs, m.arch + ".attention.head_count_kv").value_or(m.n_head));
    m.n_expert = static_cast<std::uint32_t>(kv_uint(kvs, m.arch + ".expert_count").value_or(0));
    // llama-model.cpp: LLAMA with 80 layers is the 70B (grouped heads) or the 65B.
    m.is_70b = m.arch == "llama" && m.n_layer == 80 && m.n_head != m.n_head_kv;
    return m;
}

// sscanf(name, "blk.%d.", &layer): the layer or nullopt.
std::optional<int> layer_of(const std::string& name) {
    if (name.compare(0, 4, "blk.") != 0) return std::nullopt;
    const char* start = name.c_str() + 4;
    char* end = nullptr;
    const long v = std::strtol(start, &end, 10);
    if (end == start) return std::nullopt;
    return static_cast<int>(v);
}

// ---- quantization state (quantize_state_impl) ----
struct State {
    const Model& model;
    const QuantizeRequest& req;
    std::uint32_t ftype;
    int n_attention_wv = 0, n_ffn_down = 0, n_ffn_gate = 0, n_ffn_up = 0;
    int i_attention_wv = 0, i_ffn_down = 0, i_ffn_gate = 0, i_ffn_up = 0;
    bool has_tied_embeddings = true;
    std::vector<std::pair<std::regex, DType>> patterns;
    std::vector<std::string> pattern_text;
};

bool use_more_bits(int i_layer, int n_layers) {
    return i_layer < n_layers / 8 || i_layer >= 7 * n_layers / 8 || (i_layer - n_layers / 8) % 3 == 2;
}

std::pair<int, int> layer_info(const State& qs, int i_layer, int n_layer, const std::string& name) {
    const int n_expert = std::max<int>(1, static_cast<int>(qs.model.n_expert));
    if (n_expert > 1) {
        const auto l = layer_of(name);
        if (!l) throw Error(ErrorCode::Malformed, "failed to determine the layer of the tensor (no 'blk.N.')", {}, name);
        if (*l < 0 || *l >= n_layer)
            throw Error(ErrorCode::Malformed, "bad layer " + std::to_string(*l) + ", must be in [0, " + std::to_string(n_layer) + ")",
                        {}, name);
        i_layer = *l;
    }
    return {i_layer, n_layer};
}

// llama_tensor_get_type_impl. `r.mix` (and the layer of FfnDownLayer) is
// set when a rule changes the type.
DType mix_rules(State& qs, DType new_type, const TensorDesc& t, const std::vector<std::uint64_t>& ne, Cat cat,
                GgufTypeReason& r) {
    const std::uint32_t ft = qs.ftype;
    const Model& m = qs.model;
    const std::string& name = t.name;
    const bool falcon = m.arch == "falcon";
    const DType before = new_type;
    auto note = [&](MixRule what) { r.mix = what; };

    auto ft_in = [&](std::initializer_list<std::uint32_t> l) { return std::find(l.begin(), l.end(), ft) != l.end(); };

    if (cat == Cat::Output || (qs.has_tied_embeddings && cat == Cat::TokenEmbd)) {
        const bool output = cat == Cat::Output;
        if (qs.req.output_tensor_type) {
            new_type = *qs.req.output_tensor_type;
            note(output ? MixRule::OutputTensorType : MixRule::TiedEmbeddingsOutputTensorType);
            return new_type;
        }
        const std::uint64_t nx = ne[0];
        const std::uint64_t qk_k = blck(new_type);
        if (ft == MXFP4_MOE) new_type = DType::Q8_0;
        else if (falcon || nx % qk_k != 0) new_type = DType::Q8_0;
        else if (ft_in({IQ2_XXS, IQ2_XS, IQ3_XXS, IQ1_S, IQ2_S, IQ2_M, IQ1_M})) new_type = DType::Q5_K;
        else if (new_type != DType::Q8_0) new_type = DType::Q6_K;
        if (new_type != before) note(output ? MixRule::OutputMoreBits : MixRule::TiedEmbeddingsMoreBits);
    } else if (ft == MXFP4_MOE) {
        const bool bailing_expert = m.arch == "bailingmoe3" &&
                                    (cat == Cat::FfnUp || cat == Cat::FfnGate || cat == Cat::FfnDown);
        const std::uint64_t ne2 = ne.size() > 2 ? ne[2] : 1;
        if (ne2 > 1 && (m.arch != "bailingmoe3" || bailing_expert)) {
            new_type = DType::MXFP4;
            note(MixRule::ExpertTensor);
        } else {
            new_type = DType::Q8_0;
            note(MixRule::NotExpertTensor);
        }
    } else if (cat == Cat::TokenEmbd) {
        if (qs.req.token_embedding_type) {
            new_type = *qs.req.token_embedding_type;
            note(MixRule::TokenEmbeddingType);
        } else {
            if (ft_in({IQ2_XXS, IQ2_XS, IQ1_S, IQ1_M})) new_type = DType::Q2_K;
            else if (ft_in({IQ2_S, IQ2_M})) new_type = DType::IQ3_S;
            else if (ft == IQ3_XXS) new_type = DType::IQ3_S;
            else if (ft_in({TQ1_0, TQ2_0, Q2_0})) new_type = DType::Q4_K;
            if (new_type != before) note(MixRule::TokenEmbeddings);
        }
    } else if (ft_in({IQ2_XXS, IQ2_XS, IQ1_S, IQ2_S, IQ2_M, IQ1_M})) {
        if (is_attn_v_like(cat)) {
            if (m.n_gqa() >= 4 || m.n_expert >= 4) new_type = DType::Q4_K;
            else new_type = ft_in({IQ2_S, IQ2_M}) ? DType::IQ3_S : DType::Q2_K;
            ++qs.i_attention_wv;
            note(MixRule::AttnVMoreBits);
        } else if (m.n_expert == 8 && cat == Cat::AttnK) {
            new_type = DType::Q4_K;
            note(MixRule::AttnK8Experts);
        } else if (cat == Cat::FfnDown) {
            if (qs.i_ffn_down < qs.n_ffn_down / 8) {
                new_type = ft_in({IQ2_S, IQ2_M}) ? DType::IQ3_S : DType::Q2_K;
                note(MixRule::FfnDownFirstLayers);
            }
            ++qs.i_ffn_down;
        } else if (cat == Cat::AttnOutput) {
            if (m.n_expert == 8) {
                new_type = DType::Q5_K;
                note(MixRule::AttnOutput8Experts);
            } else {
                if (ft_in({IQ1_S, IQ1_M})) new_type = DType::IQ2_XXS;
                else if (ft_in({IQ2_S, IQ2_M})) new_type = DType::IQ3_S;
                if (new_type != before) note(MixRule::AttnOutput);
            }
        }
    } else if (is_attn_v_like(cat)) {
        if (ft == Q2_K) new_type = m.n_gqa() >= 4 ? DType::Q4_K : DType::Q3_K;
        else if (ft == Q2_K_S && m.n_gqa() >= 4) new_type = DType::Q4_K;
        else if (ft == IQ3_XXS) new_type = m.n_gqa() >= 4 ? DType::Q4_K : !qs.req.has_imatrix ? DType::IQ3_S : DType::IQ3_XXS;
        else if (ft_in({IQ3_XS, IQ3_S}) && m.n_gqa() >= 4) new_type = DType::Q4_K;
        else if (ft == IQ3_M) new_type = DType::Q4_K;
        else if (ft == Q3_K_M) new_type = qs.i_attention_wv < 2 ? DType::Q5_K : DType::Q4_K;
        else if (ft == Q3_K_L) new_type = DType::Q5_K;
        else if (ft_in({IQ4_NL, IQ4_XS}) && m.n_gqa() >= 4) new_type = DType::Q5_K;
        else if (ft_in({Q4_K_M, Q5_K_M}) && use_more_bits(qs.i_attention_wv, qs.n_attention_wv)) new_type = DType::Q6_K;
        else if (ft == Q4_K_S && qs.i_attention_wv < 4) new_type = DType::Q5_K;
        if (new_type != before) note(MixRule::AttnVMoreBits);
        if (m.is_70b && (new_type == DType::Q3_K || new_type == DType::Q4_K)) {
            new_type = DType::Q5_K;
            note(MixRule::AttnV70B);
        }
        if (m.n_expert == 8) {
            new_type = DType::Q8_0;
            note(MixRule::AttnV8Experts);
        }
        ++qs.i_attention_wv;
    } else if (cat == Cat::AttnK) {
        if (m.n_expert == 8) new_type = DType::Q8_0;
        else if (ft == IQ3_XS) new_type = DType::IQ3_XXS;
        else if (ft == IQ3_XXS) new_type = DType::IQ2_S;
        if (new_type != before) note(MixRule::AttnK);
    } else if (cat == Cat::AttnQ) {
        if (ft == IQ3_XS) new_type = DType::IQ3_XXS;
        else if (ft == IQ3_XXS) new_type = DType::IQ2_S;
        if (new_type != before) note(MixRule::AttnQ);
    } else if (cat == Cat::FfnDown) {
        const auto [i_layer, n_layer] = layer_info(qs, qs.i_ffn_down, qs.n_ffn_down, name);
        if (ft == Q2_K) new_type = DType::Q3_K;
        else if (ft == Q2_K_S) {
            if (i_layer < n_layer / 8) new_type = DType::Q4_K;
        } else if (ft == IQ3_XXS && !qs.req.has_imatrix) {
            new_type = i_layer < n_layer / 8 ? DType::Q4_K : DType::Q3_K;
        } else if (ft == Q3_K_M) {
            new_type = i_layer < n_layer / 16                     ? DType::Q5_K
                       : !falcon || use_more_bits(i_layer, n_layer) ? DType::Q4_K
                                                                    : DType::Q3_K;
        } else if (ft == IQ3_M && (i_layer < n_layer / 8 || (m.n_expert == 8 && use_more_bits(i_layer, n_layer)))) {
            new_type = DType::Q4_K;
        } else if (ft == Q3_K_L) {
            new_type = falcon ? DType::Q4_K : DType::Q5_K;
        } else if (ft == Q4_K_M) {
            if (falcon) {
                new_type = i_layer < n_layer / 16 ? DType::Q6_K : use_more_bits(i_layer, n_layer) ? DType::Q5_K : DType::Q4_K;
            } else if (use_more_bits(i_layer, n_layer)) {
                new_type = DType::Q6_K;
            }
        } else if (i_layer < n_layer / 8 && ft_in({IQ4_NL, IQ4_XS}) && !qs.req.has_imatrix) {
            new_type = DType::Q5_K;
        } else if (ft == Q5_K_M && use_more_bits(i_layer, n_layer)) {
            new_type = DType::Q6_K;
        } else if (ft == Q4_K_S && !falcon && i_layer < n_layer / 8) {
            new_type = DType::Q5_K;
        } else if (ft_in({Q4_0, Q5_0}) && qs.req.has_imatrix && i_layer < n_layer / 8) {
            new_type = ft == Q4_0 ? DType::Q4_1 : DType::Q5_1;
        }
        if (new_type != before) {
            note(MixRule::FfnDownLayer);
            r.layer = i_layer;
            r.n_layers = n_layer;
        }
        ++qs.i_ffn_down;
    } else if (cat == Cat::AttnOutput) {
        if (!falcon) {
            if (m.n_expert == 8) {
                if (ft_in({Q2_K, IQ3_XS, IQ3_XXS, Q3_K_S, Q3_K_M, IQ4_NL, Q4_K_S, Q4_K_M, IQ3_S, IQ3_M, IQ4_XS}))
                    new_type = DType::Q5_K;
            } else {
                if (ft == Q2_K) new_type = DType::Q3_K;
                else if (ft == IQ3_XXS) new_type = DType::IQ3_S;
                else if (ft == Q3_K_M) new_type = DType::Q4_K;
                else if (ft == Q3_K_L) new_type = DType::Q5_K;
                else if (ft == IQ3_M) new_type = DType::Q4_K;
            }
        } else {
            if (ft == Q3_K_L) new_type = DType::Q4_K;
        }
        if (new_type != before) note(MixRule::AttnOutput);
    } else if (cat == Cat::AttnQkv) {
        // Unreachable in llama.cpp too (attn_qkv takes the attn_v branch); kept for parity.
        if (ft_in({Q3_K_M, Q3_K_L, IQ3_M})) new_type = DType::Q4_K;
        else if (ft == Q4_K_M) new_type = DType::Q5_K;
        else if (ft == Q5_K_M) new_type = DType::Q6_K;
        if (new_type != before) note(MixRule::AttnQkv);
    } else if (cat == Cat::FfnGate) {
        const auto [i_layer, n_layer] = layer_info(qs, qs.i_ffn_gate, qs.n_ffn_gate, name);
        if (ft == IQ3_XS && (i_layer >= n_layer / 8 && i_layer < 7 * n_layer / 8)) {
            new_type = DType::IQ3_XXS;
            note(MixRule::FfnGateMiddle);
        }
        ++qs.i_ffn_gate;
    } else if (cat == Cat::FfnUp) {
        const auto [i_layer, n_layer] = layer_info(qs, qs.i_ffn_up, qs.n_ffn_up, name);
        if (ft == IQ3_XS && (i_layer >= n_layer / 8 && i_layer < 7 * n_layer / 8)) {
            new_type = DType::IQ3_XXS;
            note(MixRule::FfnUpMiddle);
        }
        ++qs.i_ffn_up;
    }
    return new_type;
}

// tensor_type_fallback
DType fallback(DType target, const std::vector<std::uint64_t>& ne, const std::string& name, GgufTypeReason& reason) {
    const std::uint64_t ncols = ne[0];
    const std::uint64_t qk = blck(target);
    if (ncols % qk == 0) return target;
    DType r;
    switch (target) {
        case DType::IQ1_S: case DType::IQ1_M: case DType::IQ2_XXS: case DType::IQ2_XS: case DType::IQ2_S:
        case DType::IQ3_XXS: case DType::IQ3_S: case DType::IQ4_XS: r = DType::IQ4_NL; break;
        case DType::Q2_0: case DType::Q2_K: case DType::Q3_K: case DType::TQ1_0: case DType::TQ2_0: r = DType::Q4_0; break;
        case DType::Q4_K: r = DType::Q5_0; break;
        case DType::Q5_K: r = DType::Q5_1; break;
        case DType::Q6_K: r = DType::Q8_0; break;
        default:
            throw Error(ErrorCode::Unsupported,
                        "row of " + std::to_string(ncols) + " elements is not a multiple of " + std::to_string(qk) +
                            " and no tensor type fallback is defined for type " + ggml_type_name(target),
                        {}, name);
    }
    if (ncols % blck(r) != 0) r = DType::F16;  // "must use F16 due to unusual shape"
    reason.fallback = true;
    reason.row = ncols;
    reason.block = qk;
    return r;
}

// tensor_requires_imatrix
bool requires_imatrix(const std::string& name, DType t, std::uint32_t ftype) {
    if (is_token_embd(name) || name == "output.weight") return false;
    switch (t) {
        case DType::IQ3_XXS: case DType::IQ2_XXS: case DType::IQ2_XS: case DType::IQ2_S: case DType::IQ1_M: case DType::IQ1_S:
            return true;
        case DType::Q2_K: return ftype == Q2_K_S;
        default: return false;
    }
}

// ggml_quantize_requires_imatrix
bool ggml_requires_imatrix(DType t) { return t == DType::IQ2_XXS || t == DType::IQ2_XS || t == DType::IQ1_S; }

}  // namespace

// llama_file_types(), llama_file_type(), llama_ftype_name(), parse_llama_file_type(),
// ggml_type_name(), parse_ggml_type(), parse_tensor_type_override(): gguf_ftype_names.cc.

std::vector<std::size_t> llama_quantize_tensor_order(const std::vector<std::string>& names) {
    std::vector<std::size_t> order(names.size());
    std::iota(order.begin(), order.end(), 0);
    std::vector<int> layer(names.size());
    for (std::size_t i = 0; i < names.size(); ++i) layer[i] = layer_of(names[i]).value_or(-1);
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        if (layer[a] != layer[b]) return layer[a] < layer[b];
        return names[a] < names[b];
    });
    return order;
}

std::vector<TensorChoice> choose_gguf_types(const std::vector<TensorDesc>& tensors, const std::vector<GgufKv>& kvs,
                                            const QuantizeRequest& req) {
    const LlamaFileType* ft = llama_file_type(req.ftype);
    if (!ft || ft->default_type == DType::Unknown)
        throw Error(ErrorCode::Usage, "invalid output file type " + std::to_string(req.ftype));
    if (ft->needs_imatrix && !req.has_imatrix) throw Error(ErrorCode::Usage, std::string(kLlamaImatrixRefusal));
    const DType default_type = ft->default_type;
    const bool quantized_default = is_quantized(default_type);
    const Model model = model_from(kvs, quantized_default && !req.pure);

    State qs{model, req, req.ftype, 0, 0, 0, 0, 0, 0, 0, 0, true, {}, {}};
    for (const auto& [p, t] : req.tensor_types) {
        try {
            qs.patterns.emplace_back(std::regex(p), t);
        } catch (const std::regex_error& e) {
            throw Error(ErrorCode::Usage, "tensor type pattern '" + p + "' is not a valid regular expression: " + e.what());
        }
        qs.pattern_text.push_back(p);
    }
    // init_quantize_state_counters
    std::vector<Cat> cats(tensors.size());
    for (std::size_t i = 0; i < tensors.size(); ++i) {
        cats[i] = category(tensors[i].name);
        if (is_attn_v_like(cats[i])) ++qs.n_attention_wv;
        if (cats[i] == Cat::Output) qs.has_tied_embeddings = false;
    }
    qs.n_ffn_down = qs.n_ffn_gate = qs.n_ffn_up = model.n_layer;

    std::vector<std::string> names;
    names.reserve(tensors.size());
    for (const auto& t : tensors) names.push_back(t.name);
    std::vector<TensorChoice> out(tensors.size());
    std::vector<std::size_t> visit(tensors.size());
    std::iota(visit.begin(), visit.end(), 0);
    if (!req.visit_in_given_order) visit = llama_quantize_tensor_order(names);

    for (const std::size_t i : visit) {
        const TensorDesc& t = tensors[i];
        TensorChoice& c = out[i];
        const auto ne = ggml_ne(t.shape);
        GgufTypeReason& r = c.reason;
        r.kept = quantization_refusal(t, ne, req, r.name_part);
        if (r.kept != KeptReason::None) {
            c.type = r.chosen = t.dtype;
            r.rule = TypeRule::Kept;
            continue;
        }
        c.quantizable = true;
        DType nt = default_type;
        if (req.token_embedding_type && cats[i] == Cat::TokenEmbd) {
            nt = *req.token_embedding_type;
            r.rule = TypeRule::TokenEmbeddingType;
        } else if (req.output_tensor_type && cats[i] == Cat::Output) {
            nt = *req.output_tensor_type;
            r.rule = TypeRule::OutputTensorType;
        } else if (quantized_default) {
            bool manual = false;
            for (std::size_t k = 0; k < qs.patterns.size(); ++k) {
                if (std::regex_search(t.name, qs.patterns[k].first)) {
                    nt = qs.patterns[k].second;
                    r.pattern = qs.pattern_text[k];
                    r.rule = TypeRule::TensorType;
                    manual = true;
                    break;
                }
            }
            if (!manual && !req.pure) {
                nt = mix_rules(qs, nt, t, ne, cats[i], r);
                r.rule = r.mix == MixRule::None ? TypeRule::FileTypeDefault : TypeRule::FileTypeMix;
                r.ftype = req.ftype;
            } else if (!manual) {
                r.rule = TypeRule::Pure;
            }
            r.chosen = nt;
            nt = fallback(nt, ne, t.name, r);
        } else {
            r.rule = TypeRule::FileType;
            r.ftype = req.ftype;
        }
        if (r.chosen == DType::Unknown) r.chosen = nt;
        c.type = nt;
        c.requires_imatrix = requires_imatrix(t.name, nt, req.ftype);
    }

    // Refusals, in llama-quantize's order of tensors.
    for (const std::size_t i : visit) {
        const TensorChoice& c = out[i];
        if (!c.quantizable) continue;
        if (c.requires_imatrix && !req.has_imatrix)
            throw Error(ErrorCode::Usage,
                        "this quantization requires an importance matrix (--imatrix): target type " + ggml_type_name(c.type),
                        {}, tensors[i].name);
        if (ggml_requires_imatrix(c.type) && c.type != tensors[i].dtype && (!req.has_imatrix || cats[i] == Cat::TokenEmbd))
            throw Error(ErrorCode::Unsupported,
                        "ggml cannot quantize to " + ggml_type_name(c.type) + " without importance data" +
                            (cats[i] == Cat::TokenEmbd ? std::string(", and an imatrix never covers the token embeddings "
                                                                     "(choose another --token-embedding-type)")
                                                       : std::string()),
                        {}, tensors[i].name);
    }
    return out;
}


bool llama_ftype_needs_imatrix(std::uint32_t id) {
    const LlamaFileType* ft = llama_file_type(id);
    if (!ft || ft->default_type == DType::Unknown) return false;
    if (ft->needs_imatrix) return true;
    // An 8-layer llama (hidden 4096, ffn 11008, GQA 32/8): every mix rule's
    // branch a plain model reaches.
    const std::vector<GgufKv> kvs{{"general.architecture", GgufValue::string("llama")},
                                  {"llama.block_count", GgufValue::u32(8)},
                                  {"llama.attention.head_count", GgufValue::u32(32)},
                                  {"llama.attention.head_count_kv", GgufValue::u32(8)}};
    std::vector<TensorDesc> ts{{"token_embd.weight", {32000, 4096}, DType::F32},
                               {"output.weight", {32000, 4096}, DType::F32}};
    for (int b = 0; b < 8; ++b) {
        const std::string p = "blk." + std::to_string(b) + ".";
        for (const char* n : {"attn_q", "attn_output"}) ts.push_back({p + n + ".weight", {4096, 4096}, DType::F32});
        for (const char* n : {"attn_k", "attn_v"}) ts.push_back({p + n + ".weight", {1024, 4096}, DType::F32});
        for (const char* n : {"ffn_gate", "ffn_up"}) ts.push_back({p + n + ".weight", {11008, 4096}, DType::F32});
        ts.push_back({p + "ffn_down.weight", {4096, 11008}, DType::F32});
    }
    QuantizeRequest req;
    req.ftype = id;
    req.has_imatrix = true;  // choose freely, then look at what was chosen
    for (const auto& c : choose_gguf_types(ts, kvs, req))
        if (c.requires_imatrix || (c.quantizable && ggml_requires_imatrix(c.type))) return true;
    return false;
}

}  // namespace amn
