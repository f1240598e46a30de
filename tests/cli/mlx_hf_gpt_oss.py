# SPDX-License-Identifier: MIT OR Apache-2.0
"""The gpt-oss Hugging Face case of mlx_folders.py --hf (see HF_CASES there)."""
def hf_case_gpt_oss(H=64, L=2, E=4, F=64, V=256, bf16=False):
    """gpt-oss's original checkpoint (openai/gpt-oss-20b's config.json, shrunk): attention with biases and sinks, a
    biased router, experts as MXFP4 (U8 _blocks [E, rows, in/32, 16] of nibble pairs, U8 E8M0 _scales
    [E, rows, in/32]; gate_up rows interleaved gate, up), the rest BF16. bf16: the dequantized form (unsloth's
    gpt-oss-20b-BF16): gate_up_proj [E, H, 2·F] and down_proj [E, F, H] BF16, no quantization_config (mlx-lm cannot
    load it)."""
    cfg = {"architectures": ["GptOssForCausalLM"], "attention_bias": True, "attention_dropout": 0.0,
           "eos_token_id": 200002, "experts_per_token": 2, "head_dim": 16, "hidden_act": "silu", "hidden_size": H,
           "initial_context_length": 4096, "initializer_range": 0.02, "intermediate_size": F,
           "layer_types": ["sliding_attention", "full_attention"][:L] * (L // 2 or 1), "max_position_embeddings": 131072,
           "model_type": "gpt_oss", "num_attention_heads": 4, "num_experts_per_tok": 2, "num_hidden_layers": L,
           "num_key_value_heads": 2, "num_local_experts": E, "output_router_logits": False, "pad_token_id": 199999,
           "quantization_config": {"modules_to_not_convert": ["model.layers.*.self_attn", "model.layers.*.mlp.router",
                                                              "model.embed_tokens", "lm_head"], "quant_method": "mxfp4"},
           "rms_norm_eps": 1e-05,
           "rope_scaling": {"beta_fast": 32.0, "beta_slow": 1.0, "factor": 32.0, "original_max_position_embeddings": 4096,
                            "rope_type": "yarn", "truncate": False},
           "rope_theta": 150000, "router_aux_loss_coef": 0.9, "sliding_window": 128, "swiglu_limit": 7.0,
           "tie_word_embeddings": False, "transformers_version": "4.55.0.dev0", "use_cache": True, "vocab_size": V}
    if bf16:
        del cfg["quantization_config"]
    t = {"model.embed_tokens.weight": ((V, H), "BF16"), "model.norm.weight": ((H,), "BF16"), "lm_head.weight": ((V, H), "BF16")}
    for i in range(L):
        p = f"model.layers.{i}."
        for k, s in {"input_layernorm.weight": (H,), "post_attention_layernorm.weight": (H,),
                     "self_attn.q_proj.weight": (64, H), "self_attn.q_proj.bias": (64,),
                     "self_attn.k_proj.weight": (32, H), "self_attn.k_proj.bias": (32,),
                     "self_attn.v_proj.weight": (32, H), "self_attn.v_proj.bias": (32,),
                     "self_attn.o_proj.weight": (H, 64), "self_attn.o_proj.bias": (H,),
                     "self_attn.sinks": (4,), "mlp.router.weight": (E, H), "mlp.router.bias": (E,),
                     "mlp.experts.gate_up_proj_bias": (E, 2 * F), "mlp.experts.down_proj_bias": (E, H)}.items():
            t[p + k] = (s, "BF16")
        if bf16:
            t.update({p + "mlp.experts.gate_up_proj": ((E, H, 2 * F), "BF16"), p + "mlp.experts.down_proj": ((E, F, H), "BF16")})
            continue
        t.update({p + "mlp.experts.gate_up_proj_blocks": ((E, 2 * F, H // 32, 16), "U8"),
                  p + "mlp.experts.gate_up_proj_scales": ((E, 2 * F, H // 32), "U8"),
                  p + "mlp.experts.down_proj_blocks": ((E, H, F // 32, 16), "U8"),
                  p + "mlp.experts.down_proj_scales": ((E, H, F // 32), "U8")})
    return cfg, t



def hf_case_gpt_oss_bf16():
    return hf_case_gpt_oss(bf16=True)
