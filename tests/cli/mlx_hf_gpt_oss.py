# SPDX-License-Identifier: MIT OR Apache-2.0
"""The gpt-oss Hugging Face case of mlx_folders.py --hf (see HF_CASES there)."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "core"))
from hf_arch_moe import gpt_oss_config  # noqa: E402 (the config tests/core/hf_arch_models.py's gpt-oss case has)


def hf_case_gpt_oss(H=64, L=2, E=4, F=64, V=256, bf16=False):
    """gpt-oss's original checkpoint (openai/gpt-oss-20b's config.json, shrunk): attention with biases and sinks, a
    biased router, experts as MXFP4 (U8 _blocks [E, rows, in/32, 16] of nibble pairs, U8 E8M0 _scales
    [E, rows, in/32]; gate_up rows interleaved gate, up), the rest BF16. bf16: the dequantized form (unsloth's
    gpt-oss-20b-BF16): gate_up_proj [E, H, 2·F] and down_proj [E, F, H] BF16, no quantization_config (mlx-lm cannot
    load it)."""
    cfg = gpt_oss_config(not bf16, hidden=H, ff=F, layers=L, heads=4, experts=E, vocab=V, eos=200002, pad=199999)
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
