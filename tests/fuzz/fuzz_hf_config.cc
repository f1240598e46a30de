// SPDX-License-Identifier: MIT OR Apache-2.0
// libFuzzer target for the config.json → GGUF key/value mapping of the
// architecture table (core/src/arch/): HfConfig (Python-json semantics,
// text_config merge), detect_hf_architecture / hf_arch_for_config,
// hparam_kvs, generate_extra_tensors (rope_freqs, Phi-3 rope factors) and
// TensorMapper over a fixed set of HF tensor names (attention, MLP, norms,
// Mixtral, Qwen, DeepSeek and gpt-oss experts, GPT-2 Conv1D, Q/K permutation
// shapes, DeepSeek's kv_b_proj split, Gemma's norms) with
// converter_type for what it emits. Every HF → GGUF row is tried with the
// same config, not only the one its `architectures` names, so the fuzzer
// needs not guess class names. Any input must map or raise amn::Error —
// never crash, hang, overflow or allocate by a size the config declares.
// Build and seed corpus: tests/fuzz/README.md.
#include "anamnesis/error.hpp"
#include "arch/arch_table.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace {

struct Named {
    std::string_view name;
    std::vector<std::uint64_t> shape;
};

const std::vector<Named>& names() {
    static const std::vector<Named> v = {
        {"model.embed_tokens.weight", {32, 16}},
        {"model.layers.0.input_layernorm.weight", {16}},
        {"model.layers.0.self_attn.q_proj.weight", {16, 16}},
        {"model.layers.0.self_attn.k_proj.weight", {8, 16}},
        {"model.layers.0.self_attn.q_proj.bias", {16}},
        {"model.layers.0.self_attn.q_norm.weight", {4}},
        {"model.layers.0.mlp.gate_proj.weight", {32, 16}},
        {"model.layers.0.mlp.down_proj.weight", {16, 32}},
        {"model.layers.0.block_sparse_moe.gate.weight", {2, 16}},
        {"model.layers.0.block_sparse_moe.experts.0.w1.weight", {32, 16}},
        {"model.layers.0.block_sparse_moe.experts.0.w2.weight", {16, 32}},
        {"model.layers.0.block_sparse_moe.experts.0.w3.weight", {32, 16}},
        {"model.layers.0.block_sparse_moe.experts.1.w1.weight", {32, 16}},
        {"model.layers.0.block_sparse_moe.experts.1.w2.weight", {16, 32}},
        {"model.layers.0.block_sparse_moe.experts.1.w3.weight", {32, 16}},
        {"model.layers.1.mlp.experts.0.down_proj.weight", {16, 32}},
        {"model.layers.1.mlp.experts.0.gate_proj.weight", {32, 16}},
        {"model.layers.1.mlp.experts.0.up_proj.weight", {32, 16}},
        {"model.layers.1.mlp.experts.gate_up_proj", {2, 64, 16}},
        {"model.layers.1.self_attn.o_proj.weight", {16, 16}},
        {"model.layers.1.self_attn.qkv_proj.weight", {48, 16}},
        {"model.layers.1.mlp.gate_up_proj.weight", {64, 16}},
        {"model.layers.1.rotary_emb.inv_freq", {8}},
        {"model.layers.4000000000.self_attn.q_proj.weight", {16, 16}},
        {"h.0.attn.c_attn.weight", {16, 48}},
        {"h.0.mlp.c_fc.weight", {16, 64}},
        {"transformer.wte.weight", {32, 16}},
        {"model.norm.weight", {16}},
        {"lm_head.weight", {32, 16}},
        {"vision_tower.blocks.0.weight", {4, 4}},
        // Gemma norms (+ 1), DeepSeek MLA and MTP, gpt-oss experts and sinks.
        {"model.layers.0.pre_feedforward_layernorm.weight", {16}},
        {"model.layers.0.self_attn.kv_b_proj.weight", {64, 8}},
        {"model.layers.0.self_attn.kv_a_proj_with_mqa.weight", {12, 16}},
        {"model.layers.0.mlp.gate.e_score_correction_bias", {2}},
        {"model.layers.1.mlp.shared_experts.up_proj.weight", {32, 16}},
        {"model.layers.2.eh_proj.weight", {16, 32}},
        {"model.layers.0.self_attn.sinks", {4}},
        {"model.layers.0.mlp.experts.gate_up_proj_bias", {2, 64}},
        {"model.layers.0.mlp.experts.down_proj", {2, 32, 16}},
        {"model.layers.0.mlp.experts.gate_up_proj_blocks", {2, 64, 1, 16}},
    };
    return v;
}

void exercise(const amn::arch::ArchRow& row, const amn::arch::HfConfig& cfg) {
    using namespace amn::arch;
    try {
        (void)hparam_kvs(row, cfg);
    } catch (const amn::Error&) {
    }
    try {
        (void)generate_extra_tensors(row, cfg);
    } catch (const amn::Error&) {
    }
    try {
        TensorMapper m(row, cfg);
        for (const Named& n : names()) {
            try {
                const auto name = filter_tensor_name(row, n.name);
                if (!name) continue;
                for (const MappedTensor& t : m.add(*name, n.shape))
                    for (const amn::DType d : {amn::DType::BF16, amn::DType::Q8_0, amn::DType::TQ1_0})
                        (void)converter_type(row, t.name, t.shape, d);
            } catch (const amn::Error&) {
            }
        }
        m.finish();
    } catch (const amn::Error&) {
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace amn::arch;
    try {
        const HfConfig cfg(std::string_view(reinterpret_cast<const char*>(data), size), "config.json");
        try {
            (void)detect_hf_architecture(cfg);
            exercise(hf_arch_for_config(cfg), cfg);
        } catch (const amn::Error&) {
        }
        for (const ArchRow& row : arch_rows())
            if (!row.hf_classes.empty()) exercise(row, cfg);
    } catch (const amn::Error&) {
    }
    return 0;
}
