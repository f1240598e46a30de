#!/usr/bin/python3
"""The mixture-of-experts cases of hf_arch_models.py (as hf_arch_dense.py: config.json, tensor shapes,
tokenizer, dtype): Qwen/OLMoE/DeepSeek/gpt-oss/MiniMax/Granite/ERNIE/GLM experts."""

from hf_arch_dense import FF, H, L, NH, glm_attention  # noqa: F401


def qwen3moe(case):
    cfg = {"architectures": ["Qwen3MoeForCausalLM"], "attention_bias": False, "bos_token_id": 151643, "decoder_sparse_step": 1,
           "eos_token_id": 151645, "head_dim": 16, "hidden_act": "silu", "hidden_size": H, "intermediate_size": FF,
           "max_position_embeddings": 40960, "max_window_layers": 48, "mlp_only_layers": [], "model_type": "qwen3_moe",
           "moe_intermediate_size": 16, "norm_topk_prob": True, "num_attention_heads": NH, "num_experts": 4,
           "num_experts_per_tok": 2, "num_hidden_layers": L, "num_key_value_heads": 2, "output_router_logits": False,
           "rms_norm_eps": 1e-06, "rope_scaling": None, "rope_theta": 1000000.0, "router_aux_loss_coef": 0.001,
           "sliding_window": None, "tie_word_embeddings": False, "torch_dtype": "bfloat16", "use_cache": True,
           "use_sliding_window": False, "vocab_size": 151936}
    t = {"model.embed_tokens.weight": (151936, H), "model.norm.weight": (H,), "lm_head.weight": (151936, H)}
    for i in range(L):
        p = f"model.layers.{i}."
        t.update({p + "input_layernorm.weight": (H,), p + "post_attention_layernorm.weight": (H,),
                  p + "self_attn.q_proj.weight": (64, H), p + "self_attn.k_proj.weight": (32, H),
                  p + "self_attn.v_proj.weight": (32, H), p + "self_attn.o_proj.weight": (H, 64),
                  p + "self_attn.q_norm.weight": (16,), p + "self_attn.k_norm.weight": (16,),
                  p + "mlp.gate.weight": (4, H)})
        for x in range(4):
            q = p + f"mlp.experts.{x}."
            t.update({q + "gate_proj.weight": (16, H), q + "up_proj.weight": (16, H), q + "down_proj.weight": (H, 16)})
    return cfg, t, "qwen3"


def deepseek_v3(case):
    # deepseek-ai/DeepSeek-V3's config.json (BF16 here, no fp8 quantization_config): MLA with q_lora_rank,
    # layer 0 dense, layer 1 MoE (4 routed experts, 1 shared, sigmoid router + e_score_correction_bias),
    # and one Multi-Token-Prediction layer past num_hidden_layers that the converter skips.
    cfg = {"architectures": ["DeepseekV3ForCausalLM"], "attention_bias": False, "attention_dropout": 0.0,
           "aux_loss_alpha": 0.001, "bos_token_id": 151643, "eos_token_id": 151645, "ep_size": 1,
           "first_k_dense_replace": 1, "hidden_act": "silu", "hidden_size": H, "initializer_range": 0.02,
           "intermediate_size": FF, "kv_lora_rank": 32, "max_position_embeddings": 163840, "model_type": "deepseek_v3",
           "moe_intermediate_size": 16, "moe_layer_freq": 1, "n_group": 2, "n_routed_experts": 4, "n_shared_experts": 1,
           "norm_topk_prob": True, "num_attention_heads": NH, "num_experts_per_tok": 2, "num_hidden_layers": L,
           "num_key_value_heads": NH, "num_nextn_predict_layers": 1, "q_lora_rank": 32, "qk_nope_head_dim": 32,
           "qk_rope_head_dim": 16, "rms_norm_eps": 1e-06,
           "rope_scaling": {"beta_fast": 32, "beta_slow": 1, "factor": 40, "mscale": 1.0, "mscale_all_dim": 1.0,
                            "original_max_position_embeddings": 4096, "type": "yarn"},
           "rope_theta": 10000, "routed_scaling_factor": 2.5, "scoring_func": "sigmoid", "seq_aux": True,
           "tie_word_embeddings": False, "topk_group": 1, "topk_method": "noaux_tc", "torch_dtype": "bfloat16",
           "transformers_version": "4.33.1", "use_cache": True, "v_head_dim": 32, "vocab_size": 151936}
    t = {"model.embed_tokens.weight": (151936, H), "model.norm.weight": (H,), "lm_head.weight": (151936, H)}
    for i in range(L + 1):
        p = f"model.layers.{i}."
        t.update({p + "input_layernorm.weight": (H,), p + "post_attention_layernorm.weight": (H,),
                  p + "self_attn.q_a_proj.weight": (32, H), p + "self_attn.q_a_layernorm.weight": (32,),
                  p + "self_attn.q_b_proj.weight": (NH * 48, 32), p + "self_attn.kv_a_proj_with_mqa.weight": (48, H),
                  p + "self_attn.kv_a_layernorm.weight": (32,), p + "self_attn.kv_b_proj.weight": (NH * 64, 32),
                  p + "self_attn.o_proj.weight": (H, NH * 32)})
        if i == 0:
            t.update({p + "mlp.gate_proj.weight": (FF, H), p + "mlp.up_proj.weight": (FF, H), p + "mlp.down_proj.weight": (H, FF)})
        elif i < L:
            t.update({p + "mlp.gate.weight": (4, H), p + "mlp.gate.e_score_correction_bias": (4,),
                      p + "mlp.shared_experts.gate_proj.weight": (16, H), p + "mlp.shared_experts.up_proj.weight": (16, H),
                      p + "mlp.shared_experts.down_proj.weight": (H, 16)})
            for x in range(4):
                q = p + f"mlp.experts.{x}."
                t.update({q + "gate_proj.weight": (16, H), q + "up_proj.weight": (16, H), q + "down_proj.weight": (H, 16)})
        else:  # the MTP layer's own tensors
            t.update({p + "enorm.weight": (H,), p + "hnorm.weight": (H,), p + "eh_proj.weight": (H, 2 * H),
                      p + "shared_head.norm.weight": (H,), p + "mlp.gate_proj.weight": (FF, H),
                      p + "mlp.up_proj.weight": (FF, H), p + "mlp.down_proj.weight": (H, FF)})
    return cfg, t, "qwen3", "BF16"


def deepseek_v2_lite(case):
    # deepseek-ai/DeepSeek-V2-Lite's config.json: no q_lora_rank (a plain q_proj), softmax router, 2 shared
    # experts, yarn with mscale_all_dim 0.707; its 27 layers (llama.cpp tells the Lite model, which has no
    # q_lora_rank, by that layer count).
    cfg = {"architectures": ["DeepseekV2ForCausalLM"], "attention_bias": False, "attention_dropout": 0.0,
           "aux_loss_alpha": 0.001, "bos_token_id": 128000, "eos_token_id": 128001, "first_k_dense_replace": 1,
           "hidden_act": "silu", "hidden_size": H, "initializer_range": 0.02, "intermediate_size": FF,
           "kv_lora_rank": 32, "max_position_embeddings": 163840, "model_type": "deepseek_v2",
           "moe_intermediate_size": 16, "moe_layer_freq": 1, "n_group": 1, "n_routed_experts": 4, "n_shared_experts": 2,
           "norm_topk_prob": False, "num_attention_heads": NH, "num_experts_per_tok": 2, "num_hidden_layers": 27,
           "num_key_value_heads": NH, "pretraining_tp": 1, "q_lora_rank": None, "qk_nope_head_dim": 32,
           "qk_rope_head_dim": 16, "rms_norm_eps": 1e-06,
           "rope_scaling": {"beta_fast": 32, "beta_slow": 1, "factor": 40, "mscale": 0.707, "mscale_all_dim": 0.707,
                            "original_max_position_embeddings": 4096, "type": "yarn"},
           "rope_theta": 10000, "routed_scaling_factor": 1.0, "scoring_func": "softmax", "seq_aux": True,
           "tie_word_embeddings": False, "topk_group": 1, "topk_method": "greedy", "torch_dtype": "bfloat16",
           "transformers_version": "4.33.1", "use_cache": True, "v_head_dim": 32, "vocab_size": 128256}
    t = {"model.embed_tokens.weight": (128256, H), "model.norm.weight": (H,), "lm_head.weight": (128256, H)}
    for i in range(27):
        p = f"model.layers.{i}."
        t.update({p + "input_layernorm.weight": (H,), p + "post_attention_layernorm.weight": (H,),
                  p + "self_attn.q_proj.weight": (NH * 48, H), p + "self_attn.kv_a_proj_with_mqa.weight": (48, H),
                  p + "self_attn.kv_a_layernorm.weight": (32,), p + "self_attn.kv_b_proj.weight": (NH * 64, 32),
                  p + "self_attn.o_proj.weight": (H, NH * 32)})
        if i == 0:
            t.update({p + "mlp.gate_proj.weight": (FF, H), p + "mlp.up_proj.weight": (FF, H), p + "mlp.down_proj.weight": (H, FF)})
        else:
            t.update({p + "mlp.gate.weight": (4, H), p + "mlp.shared_experts.gate_proj.weight": (32, H),
                      p + "mlp.shared_experts.up_proj.weight": (32, H), p + "mlp.shared_experts.down_proj.weight": (H, 32)})
            for x in range(4):
                q = p + f"mlp.experts.{x}."
                t.update({q + "gate_proj.weight": (16, H), q + "up_proj.weight": (16, H), q + "down_proj.weight": (H, 16)})
    return cfg, t, "llama3", "BF16"


def gpt_oss_config(mxfp4, hidden=H, ff=FF, layers=L, heads=NH, experts=4, vocab=128256, eos=128009, pad=128004):
    # openai/gpt-oss-20b's config.json (its quantization_config only with mxfp4), shrunk: 4 experts, top 2
    # (tests/cli/mlx_hf_gpt_oss.py's MLX case too, with its own sizes and Harmony's eos/pad ids).
    cfg = {"architectures": ["GptOssForCausalLM"], "attention_bias": True, "attention_dropout": 0.0,
           "eos_token_id": eos, "experts_per_token": 2, "head_dim": 16, "hidden_act": "silu", "hidden_size": hidden,
           "initial_context_length": 4096, "initializer_range": 0.02, "intermediate_size": ff,
           "layer_types": ["sliding_attention", "full_attention"][:layers] * (layers // 2 or 1), "max_position_embeddings": 131072,
           "model_type": "gpt_oss", "num_attention_heads": heads, "num_experts_per_tok": 2, "num_hidden_layers": layers,
           "num_key_value_heads": 2, "num_local_experts": experts, "output_router_logits": False, "pad_token_id": pad,
           "quantization_config": {"modules_to_not_convert": ["model.layers.*.self_attn", "model.layers.*.mlp.router",
                                                              "model.embed_tokens", "lm_head"], "quant_method": "mxfp4"},
           "rms_norm_eps": 1e-05,
           "rope_scaling": {"beta_fast": 32.0, "beta_slow": 1.0, "factor": 32.0, "original_max_position_embeddings": 4096,
                            "rope_type": "yarn", "truncate": False},
           "rope_theta": 150000, "router_aux_loss_coef": 0.9, "sliding_window": 128, "swiglu_limit": 7.0,
           "tie_word_embeddings": False, "transformers_version": "4.55.0.dev0", "use_cache": True, "vocab_size": vocab}
    if not mxfp4:
        del cfg["quantization_config"]
    return cfg


def gpt_oss_tensors(mxfp4):
    t = {"model.embed_tokens.weight": (128256, H), "model.norm.weight": (H,), "lm_head.weight": (128256, H)}
    for i in range(L):
        p = f"model.layers.{i}."
        t.update({p + "input_layernorm.weight": (H,), p + "post_attention_layernorm.weight": (H,),
                  p + "self_attn.q_proj.weight": (NH * 16, H), p + "self_attn.q_proj.bias": (NH * 16,),
                  p + "self_attn.k_proj.weight": (32, H), p + "self_attn.k_proj.bias": (32,),
                  p + "self_attn.v_proj.weight": (32, H), p + "self_attn.v_proj.bias": (32,),
                  p + "self_attn.o_proj.weight": (H, NH * 16), p + "self_attn.o_proj.bias": (H,),
                  p + "self_attn.sinks": (NH,), p + "mlp.router.weight": (4, H), p + "mlp.router.bias": (4,),
                  p + "mlp.experts.gate_up_proj_bias": (4, 2 * FF), p + "mlp.experts.down_proj_bias": (4, H)})
        if mxfp4:  # [E, rows, in/32, 16] + [E, rows, in/32]
            t.update({p + "mlp.experts.gate_up_proj_blocks": (4, 2 * FF, H // 32, 16),
                      p + "mlp.experts.gate_up_proj_scales": (4, 2 * FF, H // 32),
                      p + "mlp.experts.down_proj_blocks": (4, H, FF // 32, 16),
                      p + "mlp.experts.down_proj_scales": (4, H, FF // 32)})
        else:  # transformers' dequantized layout: [E, in, out]
            t.update({p + "mlp.experts.gate_up_proj": (4, H, 2 * FF), p + "mlp.experts.down_proj": (4, FF, H)})
    return t


def gpt_oss(case):
    return gpt_oss_config(True), gpt_oss_tensors(True), "llama3", "BF16"


def gpt_oss_bf16(case):
    # The dequantized form (as unsloth/gpt-oss-20b-BF16 ships it): gate_up_proj / down_proj in [E, in, out].
    return gpt_oss_config(False), gpt_oss_tensors(False), "llama3", "BF16"


def qwen2moe(case):
    # Qwen/Qwen1.5-MoE-A2.7B's config.json: 4 experts (60 there), a shared expert and its sigmoid gate.
    cfg = {"architectures": ["Qwen2MoeForCausalLM"], "attention_dropout": 0.0, "bos_token_id": 151643,
           "decoder_sparse_step": 1, "eos_token_id": 151643, "hidden_act": "silu", "hidden_size": H,
           "initializer_range": 0.02, "intermediate_size": FF, "max_position_embeddings": 8192, "max_window_layers": 21,
           "model_type": "qwen2_moe", "moe_intermediate_size": 16, "norm_topk_prob": False, "num_attention_heads": NH,
           "num_experts": 4, "num_experts_per_tok": 2, "num_hidden_layers": L, "num_key_value_heads": NH,
           "output_router_logits": False, "rms_norm_eps": 1e-06, "rope_theta": 1000000.0, "router_aux_loss_coef": 0.001,
           "shared_expert_intermediate_size": 32, "sliding_window": 32768, "tie_word_embeddings": False,
           "torch_dtype": "bfloat16", "use_cache": True, "use_sliding_window": False, "vocab_size": 151936}
    t = {"model.embed_tokens.weight": (151936, H), "model.norm.weight": (H,), "lm_head.weight": (151936, H)}
    for i in range(L):
        p = f"model.layers.{i}."
        t.update({p + "input_layernorm.weight": (H,), p + "post_attention_layernorm.weight": (H,),
                  p + "self_attn.q_proj.weight": (H, H), p + "self_attn.q_proj.bias": (H,),
                  p + "self_attn.k_proj.weight": (H, H), p + "self_attn.k_proj.bias": (H,),
                  p + "self_attn.v_proj.weight": (H, H), p + "self_attn.v_proj.bias": (H,),
                  p + "self_attn.o_proj.weight": (H, H), p + "mlp.gate.weight": (4, H),
                  p + "mlp.shared_expert.gate_proj.weight": (32, H), p + "mlp.shared_expert.up_proj.weight": (32, H),
                  p + "mlp.shared_expert.down_proj.weight": (H, 32), p + "mlp.shared_expert_gate.weight": (1, H)})
        for x in range(4):
            q = p + f"mlp.experts.{x}."
            t.update({q + "gate_proj.weight": (16, H), q + "up_proj.weight": (16, H), q + "down_proj.weight": (H, 16)})
    return cfg, t, "qwen3", "BF16"


def olmoe(case):
    # allenai/OLMoE-1B-7B-0924-Instruct's config.json: 4 experts (64 there), full-width q_norm/k_norm.
    cfg = {"architectures": ["OlmoeForCausalLM"], "attention_bias": False, "attention_dropout": 0.0, "clip_qkv": None,
           "eos_token_id": 50279, "hidden_act": "silu", "hidden_size": H, "initializer_range": 0.02,
           "intermediate_size": 16, "max_position_embeddings": 4096, "model_type": "olmoe", "norm_topk_prob": False,
           "num_attention_heads": NH, "num_experts": 4, "num_experts_per_tok": 2, "num_hidden_layers": L,
           "num_key_value_heads": NH, "output_router_logits": False, "pad_token_id": 1, "rms_norm_eps": 1e-05,
           "rope_scaling": None, "rope_theta": 10000.0, "router_aux_loss_coef": 0.01, "tie_word_embeddings": False,
           "torch_dtype": "bfloat16", "use_cache": True, "vocab_size": 128256}
    t = {"model.embed_tokens.weight": (128256, H), "model.norm.weight": (H,), "lm_head.weight": (128256, H)}
    for i in range(L):
        p = f"model.layers.{i}."
        t.update({p + "input_layernorm.weight": (H,), p + "post_attention_layernorm.weight": (H,),
                  p + "self_attn.q_proj.weight": (H, H), p + "self_attn.k_proj.weight": (H, H),
                  p + "self_attn.v_proj.weight": (H, H), p + "self_attn.o_proj.weight": (H, H),
                  p + "self_attn.q_norm.weight": (H,), p + "self_attn.k_norm.weight": (H,), p + "mlp.gate.weight": (4, H)})
        for x in range(4):
            q = p + f"mlp.experts.{x}."
            t.update({q + "gate_proj.weight": (16, H), q + "up_proj.weight": (16, H), q + "down_proj.weight": (H, 16)})
    return cfg, t, "llama3", "BF16"


def minimax_m2(case):
    # MiniMaxAI/MiniMax-M2's config.json (BF16 here; the release is FP8 with 128×128 block scales): 4 experts
    # (256 there) w1/w2/w3 under block_sparse_moe, a sigmoid router with its correction bias, full-width q/k
    # norms, partial rotary (rotary_dim).
    cfg = {"architectures": ["MiniMaxM2ForCausalLM"], "attention_dropout": 0.0, "bos_token_id": 200034,
           "eos_token_id": 200020, "head_dim": 8, "hidden_act": "silu", "hidden_size": H, "initializer_range": 0.02,
           "intermediate_size": 16, "max_position_embeddings": 196608, "model_type": "minimax_m2",
           "num_attention_heads": NH, "num_experts_per_tok": 2, "num_hidden_layers": L, "num_key_value_heads": 2,
           "num_local_experts": 4, "qk_norm_type": "per_layer", "rms_norm_eps": 1e-06, "rope_theta": 5000000,
           "rotary_dim": 4, "scoring_func": "sigmoid", "shared_intermediate_size": 0, "tie_word_embeddings": False,
           "torch_dtype": "bfloat16", "use_qk_norm": True, "vocab_size": 151936}
    t = {"model.embed_tokens.weight": (151936, H), "model.norm.weight": (H,), "lm_head.weight": (151936, H)}
    for i in range(L):
        p = f"model.layers.{i}."
        t.update({p + "input_layernorm.weight": (H,), p + "post_attention_layernorm.weight": (H,),
                  p + "self_attn.q_proj.weight": (H, H), p + "self_attn.k_proj.weight": (16, H),
                  p + "self_attn.v_proj.weight": (16, H), p + "self_attn.o_proj.weight": (H, H),
                  p + "self_attn.q_norm.weight": (H,), p + "self_attn.k_norm.weight": (16,),
                  p + "block_sparse_moe.gate.weight": (4, H), p + "block_sparse_moe.e_score_correction_bias": (4,)})
        for x in range(4):
            q = p + f"block_sparse_moe.experts.{x}."
            t.update({q + "w1.weight": (16, H), q + "w2.weight": (H, 16), q + "w3.weight": (16, H)})
    return cfg, t, "qwen3", "BF16"


def ernie4_5_moe(case):
    # baidu/ERNIE-4.5-21B-A3B-PT's config.json: layer 0 dense (moe_layer_start_index 1), layer 1 with 4 experts
    # (64 there, moe_k 2 of them), two shared experts (their length written as intermediate_size //
    # num_key_value_heads, as the converter computes it), the router's correction bias [1, E] (moe_statics),
    # tied embeddings; the MTP block and norms the converter skips. SentencePiece with add_prefix_space false.
    cfg = {"architectures": ["Ernie4_5_MoeForCausalLM"], "bos_token_id": 1, "eos_token_id": 2, "head_dim": 8,
           "hidden_act": "silu", "hidden_size": H, "intermediate_size": FF, "max_position_embeddings": 131072,
           "model_type": "ernie4_5_moe", "moe_capacity": [4, 4, 4], "moe_gate": "topk", "moe_intermediate_size": 16,
           "moe_k": 2, "moe_layer_end_index": 1, "moe_layer_interval": 1, "moe_layer_start_index": 1,
           "moe_num_experts": 4, "moe_num_shared_experts": 2, "moe_use_aux_free": True, "num_attention_heads": NH,
           "num_hidden_layers": L, "num_key_value_heads": 2, "num_nextn_predict_layers": 1, "pad_token_id": 0,
           "rms_norm_eps": 1e-05, "rope_theta": 500000, "tie_word_embeddings": True, "torch_dtype": "bfloat16",
           "use_bias": False, "use_cache": False, "vocab_size": 32000}
    t = {"model.embed_tokens.weight": (32000, H), "model.norm.weight": (H,)}
    for i in range(L):
        p = f"model.layers.{i}."
        t.update({p + "input_layernorm.weight": (H,), p + "post_attention_layernorm.weight": (H,),
                  p + "self_attn.q_proj.weight": (NH * 8, H), p + "self_attn.k_proj.weight": (16, H),
                  p + "self_attn.v_proj.weight": (16, H), p + "self_attn.o_proj.weight": (H, NH * 8)})
        if i == 0:
            t.update({p + "mlp.gate_proj.weight": (FF, H), p + "mlp.up_proj.weight": (FF, H), p + "mlp.down_proj.weight": (H, FF)})
            continue
        t.update({p + "mlp.gate.weight": (4, H), p + "mlp.moe_statics.e_score_correction_bias": (1, 4),
                  p + "mlp.shared_experts.gate_proj.weight": (32, H), p + "mlp.shared_experts.up_proj.weight": (32, H),
                  p + "mlp.shared_experts.down_proj.weight": (H, 32)})
        for x in range(4):
            q = p + f"mlp.experts.{x}."
            t.update({q + "gate_proj.weight": (16, H), q + "up_proj.weight": (16, H), q + "down_proj.weight": (H, 16)})
    t.update({"model.mtp_block.0.input_layernorm.weight": (H,), "model.mtp_block.0.self_attn.q_proj.weight": (NH * 8, H),
              "model.mtp_emb_norm.0.weight": (H,), "model.mtp_hidden_norm.0.weight": (H,),
              "model.mtp_linear_proj.0.weight": (H, 2 * H)})
    return cfg, t, "llama2-ernie", "BF16"


def granitemoe(case):
    # ibm-granite/granite-3.1-3b-a800m-instruct's config.json as GraniteMoeShared (a shared expert of 32): JetMoE's
    # fused experts input_linear [E, 2F, H] and shared_mlp.input_linear [2S, H] that the converter halves, the
    # router, Granite's multipliers, tied embeddings.
    cfg = {"architectures": ["GraniteMoeSharedForCausalLM"], "attention_bias": False, "attention_dropout": 0.1,
           "attention_multiplier": 0.015625, "bos_token_id": 0, "embedding_multiplier": 12.0, "eos_token_id": 0,
           "hidden_act": "silu", "hidden_size": H, "initializer_range": 0.02, "intermediate_size": 16,
           "logits_scaling": 6.0, "max_position_embeddings": 131072, "model_type": "granitemoeshared",
           "num_attention_heads": NH, "num_experts_per_tok": 2, "num_hidden_layers": L, "num_key_value_heads": 2,
           "num_local_experts": 4, "pad_token_id": 0, "residual_multiplier": 0.22, "rms_norm_eps": 1e-06,
           "rope_scaling": None, "rope_theta": 10000000.0, "shared_intermediate_size": 32, "tie_word_embeddings": True,
           "torch_dtype": "bfloat16", "use_cache": True, "vocab_size": 128256}
    t = {"model.embed_tokens.weight": (128256, H), "model.norm.weight": (H,)}
    for i in range(L):
        p = f"model.layers.{i}."
        t.update({p + "input_layernorm.weight": (H,), p + "post_attention_layernorm.weight": (H,),
                  p + "self_attn.q_proj.weight": (H, H), p + "self_attn.k_proj.weight": (16, H),
                  p + "self_attn.v_proj.weight": (16, H), p + "self_attn.o_proj.weight": (H, H),
                  p + "block_sparse_moe.router.layer.weight": (4, H),
                  p + "block_sparse_moe.input_linear.weight": (4, 32, H), p + "block_sparse_moe.output_linear.weight": (4, H, 16),
                  p + "shared_mlp.input_linear.weight": (64, H), p + "shared_mlp.output_linear.weight": (H, 32)})
    return cfg, t, "llama3", "BF16"


def glm4moe(case):
    # zai-org/GLM-4.5-Air's config.json (use_qk_norm as GLM-4.5): layer 0 dense (first_k_dense_replace 1), layer 1
    # MoE with 4 routed experts (128 there), one shared expert, the sigmoid router's correction bias; and the
    # NextN (MTP) layer 2 (num_nextn_predict_layers 1) with its eh_proj, enorm/hnorm, own embedding and shared head,
    # which the converter writes as a third block.
    cfg = {"architectures": ["Glm4MoeForCausalLM"], "attention_bias": True, "attention_dropout": 0.0,
           "eos_token_id": [151643, 151669, 151671], "first_k_dense_replace": 1, "head_dim": 16, "hidden_act": "silu",
           "hidden_size": H, "initializer_range": 0.02, "intermediate_size": FF, "max_position_embeddings": 131072,
           "model_type": "glm4_moe", "moe_intermediate_size": 16, "n_group": 1, "n_routed_experts": 4,
           "n_shared_experts": 1, "norm_topk_prob": True, "num_attention_heads": NH, "num_experts_per_tok": 2,
           "num_hidden_layers": L, "num_key_value_heads": 2, "num_nextn_predict_layers": 1, "pad_token_id": 151643,
           "partial_rotary_factor": 0.5, "rms_norm_eps": 1e-05, "rope_scaling": None, "rope_theta": 1000000,
           "routed_scaling_factor": 2.5, "tie_word_embeddings": False, "topk_group": 1, "torch_dtype": "bfloat16",
           "transformers_version": "4.54.0", "use_cache": True, "use_qk_norm": True, "vocab_size": 151936}
    t = {"model.embed_tokens.weight": (151936, H), "model.norm.weight": (H,), "lm_head.weight": (151936, H)}
    for i in range(L + 1):
        p = f"model.layers.{i}."
        t.update(glm_attention(p, NH, 2, 16))
        t.update({p + "input_layernorm.weight": (H,), p + "post_attention_layernorm.weight": (H,),
                  p + "self_attn.q_norm.weight": (16,), p + "self_attn.k_norm.weight": (16,)})
        if i == 0:
            t.update({p + "mlp.gate_proj.weight": (FF, H), p + "mlp.up_proj.weight": (FF, H), p + "mlp.down_proj.weight": (H, FF)})
            continue
        t.update({p + "mlp.gate.weight": (4, H), p + "mlp.gate.e_score_correction_bias": (4,),
                  p + "mlp.shared_experts.gate_proj.weight": (16, H), p + "mlp.shared_experts.up_proj.weight": (16, H),
                  p + "mlp.shared_experts.down_proj.weight": (H, 16)})
        for x in range(4):
            q = p + f"mlp.experts.{x}."
            t.update({q + "gate_proj.weight": (16, H), q + "up_proj.weight": (16, H), q + "down_proj.weight": (H, 16)})
        if i == L:  # the NextN layer
            t.update({p + "eh_proj.weight": (H, 2 * H), p + "embed_tokens.weight": (151936, H), p + "enorm.weight": (H,),
                      p + "hnorm.weight": (H,), p + "shared_head.head.weight": (151936, H), p + "shared_head.norm.weight": (H,)})
    return cfg, t, "qwen3-glm", "BF16"


def llama4(case):
    # meta-llama/Llama-4-Maverick-17B-128E-Instruct's config.json (Llama4ForConditionalGeneration: text_config,
    # vision_config) shrunk to 4 layers (llama.cpp makes every 4th a NoPE layer with attention temperature: with fewer
    # it does not run): interleave_moe_layer_step 2 (layers 0, 2 a dense MLP of intermediate_size_mlp, 1, 3 4
    # experts of intermediate_size, 128 there, one per token, and a shared expert), the fused experts stored
    # [E, in, out] (gate_up_proj [E, H, 2F], down_proj [E, F, H]) that the converter transposes and halves,
    # llama3 rope with low_freq_factor == high_freq_factor, chunked attention and NoPE layers (keys llama.cpp
    # derives itself); vision_model / multi_modal_projector tensors the converter drops. Llama 3's tokenizer
    # (Llama 4's is a tiktoken-style BPE of 202048 tokens).
    text = {"attention_bias": False, "attention_chunk_size": 8192, "attention_dropout": 0.0, "attn_scale": 0.1,
            "attn_temperature_tuning": True, "bos_token_id": 128000, "eos_token_id": [128001, 128009],
            "floor_scale": 8192, "for_llm_compressor": False, "head_dim": 8, "hidden_act": "silu", "hidden_size": H,
            "initializer_range": 0.02, "interleave_moe_layer_step": 2, "intermediate_size": 16,
            "intermediate_size_mlp": FF, "max_position_embeddings": 1048576, "model_type": "llama4_text",
            "moe_layers": [1, 3], "no_rope_layers": [1, 1, 1, 0], "num_attention_heads": NH, "num_experts_per_tok": 1,
            "num_hidden_layers": 4, "num_key_value_heads": 2, "num_local_experts": 4, "output_router_logits": False,
            "pad_token_id": 128004, "rms_norm_eps": 1e-05,
            "rope_scaling": {"factor": 16.0, "high_freq_factor": 1.0, "low_freq_factor": 1.0,
                             "original_max_position_embeddings": 8192, "rope_type": "llama3"},
            "rope_theta": 500000.0, "router_aux_loss_coef": 0.001, "router_jitter_noise": 0.0,
            "tie_word_embeddings": False, "torch_dtype": "bfloat16", "use_cache": True, "use_qk_norm": False,
            "vocab_size": 128256}
    cfg = {"architectures": ["Llama4ForConditionalGeneration"], "boi_token_index": 200080, "eoi_token_index": 200081,
           "image_token_index": 200092, "model_type": "llama4", "text_config": text, "tie_word_embeddings": False,
           "torch_dtype": "bfloat16", "transformers_version": "4.51.0.dev0",
           "vision_config": {"hidden_size": 16, "image_size": 336, "model_type": "llama4_vision_model",
                             "num_hidden_layers": 1, "patch_size": 14, "vision_output_dim": 32}}
    p0 = "language_model."
    t = {p0 + "model.embed_tokens.weight": (128256, H), p0 + "model.norm.weight": (H,), p0 + "lm_head.weight": (128256, H),
         "vision_model.patch_embedding.linear.weight": (16, 588), "vision_model.model.layers.0.mlp.fc1.weight": (32, 16),
         "multi_modal_projector.linear_1.weight": (H, 32)}
    for i in range(4):
        p = p0 + f"model.layers.{i}."
        t.update({p + "input_layernorm.weight": (H,), p + "post_attention_layernorm.weight": (H,),
                  p + "self_attn.q_proj.weight": (NH * 8, H), p + "self_attn.k_proj.weight": (16, H),
                  p + "self_attn.v_proj.weight": (16, H), p + "self_attn.o_proj.weight": (H, NH * 8)})
        if i % 2 == 0:
            t.update({p + "feed_forward.gate_proj.weight": (FF, H), p + "feed_forward.up_proj.weight": (FF, H),
                      p + "feed_forward.down_proj.weight": (H, FF)})
            continue
        t.update({p + "feed_forward.router.weight": (4, H), p + "feed_forward.experts.gate_up_proj": (4, H, 32),
                  p + "feed_forward.experts.down_proj": (4, 16, H),
                  p + "feed_forward.shared_expert.gate_proj.weight": (16, H),
                  p + "feed_forward.shared_expert.up_proj.weight": (16, H),
                  p + "feed_forward.shared_expert.down_proj.weight": (H, 16)})
    return cfg, t, "llama3", "BF16"


def qwen3_vl_moe(case):
    # Qwen/Qwen3-VL-30B-A3B-Instruct's config.json: text_config nested (interleaved M-RoPE [24, 20, 20] → [2, 1, 1]),
    # q/k norms, 4 experts (128 there, 8 per token there, 2 here) stored fused as transformers ≥ 4.57 saves them
    # (mlp.experts.gate_up_proj [E, H, 2F], mlp.experts.down_proj [E, F, H]) that the converter transposes and
    # halves, an lm_head, 3 deepstack layers in vision_config; vision tensors under model.visual.* dropped.
    text = {"attention_bias": False, "attention_dropout": 0.0, "bos_token_id": 151643, "decoder_sparse_step": 1,
            "dtype": "bfloat16", "eos_token_id": 151645, "head_dim": 8, "hidden_act": "silu", "hidden_size": H,
            "initializer_range": 0.02, "intermediate_size": FF, "max_position_embeddings": 262144, "mlp_only_layers": [],
            "model_type": "qwen3_vl_moe_text", "moe_intermediate_size": 16, "norm_topk_prob": True,
            "num_attention_heads": NH, "num_experts": 4, "num_experts_per_tok": 2, "num_hidden_layers": L,
            "num_key_value_heads": 2, "rms_norm_eps": 1e-06,
            "rope_scaling": {"mrope_interleaved": True, "mrope_section": [2, 1, 1], "rope_type": "default"},
            "rope_theta": 5000000, "router_aux_loss_coef": 0.001, "tie_word_embeddings": False, "use_cache": True,
            "vocab_size": 151936}
    cfg = {"architectures": ["Qwen3VLMoeForConditionalGeneration"], "image_token_id": 151655, "model_type": "qwen3_vl_moe",
           "text_config": text, "tie_word_embeddings": False, "video_token_id": 151656,
           "vision_config": {"deepstack_visual_indexes": [8, 16, 24], "depth": 1, "hidden_size": 16,
                             "model_type": "qwen3_vl_moe", "out_hidden_size": H},
           "vision_end_token_id": 151653, "vision_start_token_id": 151652}
    p0 = "model.language_model."
    t = {p0 + "embed_tokens.weight": (151936, H), p0 + "norm.weight": (H,), "lm_head.weight": (151936, H),
         "model.visual.patch_embed.proj.weight": (16, 3, 2, 2, 2), "model.visual.blocks.0.norm1.weight": (16,)}
    for i in range(L):
        p = p0 + f"layers.{i}."
        t.update({p + "input_layernorm.weight": (H,), p + "post_attention_layernorm.weight": (H,),
                  p + "self_attn.q_proj.weight": (NH * 8, H), p + "self_attn.k_proj.weight": (16, H),
                  p + "self_attn.v_proj.weight": (16, H), p + "self_attn.o_proj.weight": (H, NH * 8),
                  p + "self_attn.q_norm.weight": (8,), p + "self_attn.k_norm.weight": (8,),
                  p + "mlp.gate.weight": (4, H), p + "mlp.experts.gate_up_proj": (4, H, 32),
                  p + "mlp.experts.down_proj": (4, 16, H)})
    return cfg, t, "qwen3", "BF16"
