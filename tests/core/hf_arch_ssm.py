#!/usr/bin/python3
"""The state-space cases of hf_arch_models.py (conversion/mamba.py MambaModel): per case, config.json (the
real model's with its dimensions shrunk), the tensor shapes of its safetensors, the borrowed tokenizer and the
stored dtype; and a_log(), the seeded A_log values (A = -exp(A_log) is what decides these files' bytes)."""
import hashlib

import numpy as np

VOCAB = 151669  # Qwen3's tokenizer.json: 151643 pieces + 26 added tokens (ids up to 151668)


def a_log(case, name, shape):
    """log(1 … d_state) per row as Mamba initializes A_log, plus 0.5·N(0,1) seeded as rand(): values spread
    over [-1.5, 4] where SLEEF's expf and glibc's differ for some (test_torch_exp checks that they do)."""
    seed = int.from_bytes(hashlib.sha256(f"{case}/{name}".encode()).digest()[:4], "little")
    base = np.log(np.arange(1, shape[-1] + 1, dtype=np.float64))
    return (base + 0.5 * np.random.RandomState(seed).standard_normal(shape)).astype(np.float32)


def mamba_layers(prefix, n_layers, d_model, d_state, d_conv, dt_rank):
    d_inner = 2 * d_model
    t = {}
    for i in range(n_layers):
        p = f"{prefix}.layers.{i}."
        t.update({p + "norm.weight": (d_model,), p + "mixer.in_proj.weight": (2 * d_inner, d_model),
                  p + "mixer.conv1d.weight": (d_inner, 1, d_conv), p + "mixer.conv1d.bias": (d_inner,),
                  p + "mixer.x_proj.weight": (dt_rank + 2 * d_state, d_inner), p + "mixer.dt_proj.weight": (d_inner, dt_rank),
                  p + "mixer.dt_proj.bias": (d_inner,), p + "mixer.A_log": (d_inner, d_state), p + "mixer.D": (d_inner,),
                  p + "mixer.out_proj.weight": (d_model, d_inner)})
    return t


def mamba(case):
    # state-spaces/mamba-130m-hf's config.json shrunk: width 36 (inner 72), state 9 — A_log 72 × 9 = 648 values
    # per layer, 40 whole 16-float chunks and 8 more —, time_step_rank ⌈36 / 16⌉ = 3, vocab_size 151669 padded to
    # 151672 (pad_vocab_size_multiple 8: three [PAD] tokens, the embedding's rows), tied embeddings: no lm_head.
    d_model, d_state = 36, 9
    cfg = {"architectures": ["MambaForCausalLM"], "bos_token_id": 0, "conv_kernel": 4, "d_inner": 2 * d_model,
           "d_model": d_model, "eos_token_id": 0, "expand": 2, "fused_add_norm": True, "hidden_act": "silu",
           "hidden_size": d_model, "initializer_range": 0.1, "intermediate_size": 2 * d_model, "layer_norm_epsilon": 1e-05,
           "model_type": "mamba", "n_layer": 3, "num_hidden_layers": 3, "pad_token_id": 0, "pad_vocab_size_multiple": 8,
           "rescale_prenorm_residual": False, "residual_in_fp32": True, "rms_norm": True, "ssm_cfg": {},
           "state_size": d_state, "time_step_floor": 0.0001, "time_step_init_scheme": "random", "time_step_max": 0.1,
           "time_step_min": 0.001, "time_step_rank": 3, "time_step_scale": 1.0, "torch_dtype": "float32",
           "use_bias": False, "use_cache": True, "use_conv_bias": True, "vocab_size": VOCAB}
    t = {"backbone.embeddings.weight": (151672, d_model), "backbone.norm_f.weight": (d_model,)}
    t.update(mamba_layers("backbone", 3, d_model, d_state, 4, 3))
    return cfg, t, "qwen3"


def falcon_mamba(case):
    # tiiuae/falcon-mamba-7b's config.json shrunk (BF16): model_type falcon_mamba (ssm.dt_b_c_rms true), width 26
    # (inner 52), state 13 — A_log 676 values per layer: 42 chunks of 16 and 4 more —, time_step_rank 2, no
    # pad_vocab_size_multiple (8 by default: 151669 → 151672), an lm_head of its own (tie_word_embeddings false).
    d_model, d_state = 26, 13
    cfg = {"architectures": ["FalconMambaForCausalLM"], "bos_token_id": 0, "conv_kernel": 4, "eos_token_id": 11,
           "expand": 16, "hidden_act": "silu", "hidden_size": d_model, "initializer_range": 0.1,
           "intermediate_size": 2 * d_model, "layer_norm_epsilon": 1e-05, "mixer_rms_eps": 1e-06, "model_type": "falcon_mamba",
           "num_hidden_layers": 2, "pad_token_id": 11, "rescale_prenorm_residual": False, "residual_in_fp32": True,
           "state_size": d_state, "tie_word_embeddings": False, "time_step_floor": 0.0001, "time_step_init_scheme": "random",
           "time_step_max": 0.1, "time_step_min": 0.001, "time_step_rank": 2, "time_step_scale": 1.0,
           "torch_dtype": "bfloat16", "use_bias": False, "use_cache": True, "use_conv_bias": True,
           "use_mambapy": False, "vocab_size": VOCAB}
    t = {"backbone.embeddings.weight": (151672, d_model), "backbone.norm_f.weight": (d_model,),
         "lm_head.weight": (151672, d_model)}
    t.update(mamba_layers("backbone", 2, d_model, d_state, 4, 2))
    return cfg, t, "qwen3", "BF16"


def mamba2(case):
    # state-spaces/mamba2-130m's transformers form (Mamba2ForCausalLM) shrunk: width 52 (inner 104), head_dim 4 —
    # 26 heads, so A_log [26] per layer (the converter: [26, 1], then -exp) —, 2 groups of state 8 (the norm
    # [104] → [2, 52]), dt_bias (→ ssm_dt.bias), vocab_size 151669 padded to 151680 (16 by default), an lm_head.
    d_model, d_inner, heads, groups, d_state, k = 52, 104, 26, 2, 8, 4
    cfg = {"architectures": ["Mamba2ForCausalLM"], "bos_token_id": 0, "chunk_size": 256, "conv_kernel": k,
           "eos_token_id": 0, "expand": 2, "head_dim": d_inner // heads, "hidden_act": "silu", "hidden_size": d_model,
           "initializer_range": 0.1, "layer_norm_epsilon": 1e-05, "model_type": "mamba2", "n_groups": groups,
           "norm_before_gate": False, "num_heads": heads, "num_hidden_layers": 2, "pad_token_id": 0,
           "rescale_prenorm_residual": False, "residual_in_fp32": True, "rms_norm": True, "state_size": d_state,
           "tie_word_embeddings": False, "time_step_floor": 0.0001, "time_step_max": 0.1, "time_step_min": 0.001,
           "time_step_rank": 256, "torch_dtype": "float32", "use_bias": False, "use_cache": True, "use_conv_bias": True,
           "vocab_size": VOCAB}
    conv_dim = d_inner + 2 * groups * d_state
    t = {"backbone.embeddings.weight": (151680, d_model), "backbone.norm_f.weight": (d_model,), "lm_head.weight": (151680, d_model)}
    for i in range(2):
        p = f"backbone.layers.{i}."
        t.update({p + "norm.weight": (d_model,), p + "mixer.in_proj.weight": (2 * d_inner + 2 * groups * d_state + heads, d_model),
                  p + "mixer.conv1d.weight": (conv_dim, 1, k), p + "mixer.conv1d.bias": (conv_dim,),
                  p + "mixer.dt_bias": (heads,), p + "mixer.A_log": (heads,), p + "mixer.D": (heads,),
                  p + "mixer.norm.weight": (d_inner,), p + "mixer.out_proj.weight": (d_model, d_inner)})
    return cfg, t, "qwen3"


def qwen3_next(case):
    # Qwen/Qwen3-Next-80B-A3B-Instruct's config.json shrunk (qwen.py Qwen3NextModel): width 64, 4 layers with
    # full_attention_interval 4 — layers 0-2 gated delta-net (8 key heads and 16 value heads of 8, as the real model's
    # 16 and 32 heads of 128 (llama.cpp takes both head sizes from ssm.state_size): in_proj_qkvz [2·64 + 2·128, 64],
    # per key head [q, k, v, z], in_proj_ba [2·16, 64], conv1d [192, 1, 4], A_log and dt_bias [16]),
    # layer 3 gated full attention (q_proj 2 × 4 heads of 16, q/k norms) —, every layer MoE (4 experts of 16, a shared
    # expert of 32 and its gate), and the MTP block (mtp.*: fc, the two pre-fc norms, its norm and one full-attention
    # MoE layer) with no mtp_num_hidden_layers, as the real config: the converter counts it from the tensors.
    # A_log: 3 × 16 values (a_log: log(1 … 16) + noise); for 4 of them glibc's expf differs from torch 1.13's (SLEEF)
    # exp, measured when the reference was recorded, so the files' ssm_a bytes tell the two apart.
    H, nk, nv, hk, hv, K, nh, hd, nkv, E, ff, sff = 64, 8, 16, 8, 8, 4, 4, 16, 2, 4, 16, 32
    cfg = {"architectures": ["Qwen3NextForCausalLM"], "attention_bias": False, "attention_dropout": 0.0,
           "bos_token_id": 151643, "decoder_sparse_step": 1, "eos_token_id": 151645, "full_attention_interval": 4,
           "head_dim": hd, "hidden_act": "silu", "hidden_size": H, "initializer_range": 0.02, "intermediate_size": 96,
           "linear_conv_kernel_dim": K, "linear_key_head_dim": hk, "linear_num_key_heads": nk,
           "linear_num_value_heads": nv, "linear_value_head_dim": hv, "max_position_embeddings": 262144,
           "mlp_only_layers": [], "model_type": "qwen3_next", "moe_intermediate_size": ff, "norm_topk_prob": True,
           "num_attention_heads": nh, "num_experts": E, "num_experts_per_tok": 2, "num_hidden_layers": 4,
           "num_key_value_heads": nkv, "output_router_logits": False, "partial_rotary_factor": 0.25,
           "rms_norm_eps": 1e-06, "rope_scaling": None, "rope_theta": 10000000, "router_aux_loss_coef": 0.001,
           "shared_expert_intermediate_size": sff, "tie_word_embeddings": False, "torch_dtype": "float32",
           "use_cache": True, "use_sliding_window": False, "vocab_size": 151936}

    def attention(p):
        return {p + "self_attn.q_proj.weight": (2 * nh * hd, H), p + "self_attn.k_proj.weight": (nkv * hd, H),
                p + "self_attn.v_proj.weight": (nkv * hd, H), p + "self_attn.o_proj.weight": (H, nh * hd),
                p + "self_attn.q_norm.weight": (hd,), p + "self_attn.k_norm.weight": (hd,)}

    def moe(p):
        t = {p + "mlp.gate.weight": (E, H), p + "mlp.shared_expert_gate.weight": (1, H),
             p + "mlp.shared_expert.gate_proj.weight": (sff, H), p + "mlp.shared_expert.up_proj.weight": (sff, H),
             p + "mlp.shared_expert.down_proj.weight": (H, sff)}
        for x in range(E):
            q = p + f"mlp.experts.{x}."
            t.update({q + "gate_proj.weight": (ff, H), q + "up_proj.weight": (ff, H), q + "down_proj.weight": (H, ff)})
        return t

    t = {"model.embed_tokens.weight": (151936, H), "model.norm.weight": (H,), "lm_head.weight": (151936, H)}
    for i in range(4):
        p = f"model.layers.{i}."
        t.update({p + "input_layernorm.weight": (H,), p + "post_attention_layernorm.weight": (H,)})
        if i == 3:
            t.update(attention(p))
        else:
            q = p + "linear_attn."
            t.update({q + "in_proj_qkvz.weight": (2 * nk * hk + 2 * nv * hv, H), q + "in_proj_ba.weight": (2 * nv, H),
                      q + "conv1d.weight": (2 * nk * hk + nv * hv, 1, K), q + "dt_bias": (nv,), q + "A_log": (nv,),
                      q + "norm.weight": (hv,), q + "out_proj.weight": (H, nv * hv)})
        t.update(moe(p))
    t.update({"mtp.fc.weight": (H, 2 * H), "mtp.pre_fc_norm_embedding.weight": (H,), "mtp.pre_fc_norm_hidden.weight": (H,),
              "mtp.norm.weight": (H,), "mtp.layers.0.input_layernorm.weight": (H,),
              "mtp.layers.0.post_attention_layernorm.weight": (H,)})
    t.update(attention("mtp.layers.0."))
    t.update(moe("mtp.layers.0."))
    return cfg, t, "qwen3"
