#!/usr/bin/python3
# SPDX-License-Identifier: MIT OR Apache-2.0
"""Write a DeepSeek-V3-shaped FP8 Hugging Face folder (block-scaled experts
the converter dequantizes) for tests/bench/scale_e2e.sh (issue 30).

Usage: make_big_hf_deepseek_fp8.py OUTDIR TOKENIZER_DIR [LAYERS] [EXPERTS] [SHARDS]
  OUTDIR         the folder to make (its name is the model name)
  TOKENIZER_DIR  a BPE tokenizer folder (tokenizer.json, tokenizer_config.json;
                 e.g. the hf-gguf fixture inputs/Qwen3-0.6B); vocab_size follows it
  LAYERS         decoder layers (default 4): layer 0 dense, the rest MoE
  EXPERTS        routed experts per MoE layer (default 64), one shared expert
  SHARDS         model-0000i-of-0000N.safetensors files (default 4)

Shape (DeepSeek-V3's, shrunk): hidden 1024, 8 heads, MLA with q_lora_rank
256, kv_lora_rank 128, qk_nope 64, qk_rope 32, v 64; dense intermediate
2816, expert intermediate 512; sigmoid router with e_score_correction_bias.
As deepseek-ai/DeepSeek-V3 ships it: every Linear weight of the layers
F8_E4M3 with an F32 `weight_scale_inv` per 128×128 block
(quantization_config fp8, e4m3, weight_block_size [128, 128]); embeddings,
lm_head, norms, router and biases BF16. Values 0.02·N(0,1) (norms 1 + …),
numpy default_rng(0): a weight is cast to E4M3 after dividing each block by
its scale (absmax / 448), as DeepSeek's FP8 export does. Written tensor by
tensor (bounded memory), each shard in name order."""
import json
import os
import shutil
import struct
import sys

import numpy as np

out, tokdir = sys.argv[1], sys.argv[2]
L = int(sys.argv[3]) if len(sys.argv) > 3 else 4
E = int(sys.argv[4]) if len(sys.argv) > 4 else 64
nshards = int(sys.argv[5]) if len(sys.argv) > 5 else 4
H, NH, QL, KVL, NOPE, ROPE, VD, FF, MFF = 1024, 8, 256, 128, 64, 32, 64, 2816, 512
os.makedirs(out, exist_ok=True)
with open(os.path.join(tokdir, "tokenizer.json"), encoding="utf-8") as f:
    tok = json.load(f)
V = max(max(tok["model"]["vocab"].values()), max((a["id"] for a in tok.get("added_tokens", [])), default=0)) + 1
V = (V + 127) // 128 * 128

fp8 = {}    # name → shape of an FP8 weight (with its weight_scale_inv)
plain = {}  # name → shape of a BF16 tensor
plain.update({"model.embed_tokens.weight": (V, H), "model.norm.weight": (H,), "lm_head.weight": (V, H)})
for i in range(L):
    p = f"model.layers.{i}."
    plain.update({p + "input_layernorm.weight": (H,), p + "post_attention_layernorm.weight": (H,),
                  p + "self_attn.q_a_layernorm.weight": (QL,), p + "self_attn.kv_a_layernorm.weight": (KVL,)})
    fp8.update({p + "self_attn.q_a_proj.weight": (QL, H), p + "self_attn.q_b_proj.weight": (NH * (NOPE + ROPE), QL),
                p + "self_attn.kv_a_proj_with_mqa.weight": (KVL + ROPE, H),
                p + "self_attn.kv_b_proj.weight": (NH * (NOPE + VD), KVL), p + "self_attn.o_proj.weight": (H, NH * VD)})
    if i == 0:
        fp8.update({p + "mlp.gate_proj.weight": (FF, H), p + "mlp.up_proj.weight": (FF, H), p + "mlp.down_proj.weight": (H, FF)})
    else:
        plain.update({p + "mlp.gate.weight": (E, H), p + "mlp.gate.e_score_correction_bias": (E,)})
        fp8.update({p + "mlp.shared_experts.gate_proj.weight": (MFF, H), p + "mlp.shared_experts.up_proj.weight": (MFF, H),
                    p + "mlp.shared_experts.down_proj.weight": (H, MFF)})
        for x in range(E):
            q = p + f"mlp.experts.{x}."
            fp8.update({q + "gate_proj.weight": (MFF, H), q + "up_proj.weight": (MFF, H), q + "down_proj.weight": (H, MFF)})

entries = {}  # name → (dtype, shape, nbytes)
for n, s in plain.items():
    entries[n] = ("BF16", s, int(np.prod(s)) * 2)
for n, s in fp8.items():
    entries[n] = ("F8_E4M3", s, int(np.prod(s)))
    ss = ((s[0] + 127) // 128, (s[1] + 127) // 128)
    entries[n + "_scale_inv"] = ("F32", ss, int(np.prod(ss)) * 4)
names = sorted(entries)
total = sum(e[2] for e in entries.values())

runs, cur, acc = [], [], 0
for n in names:
    cur.append(n)
    acc += entries[n][2]
    if acc >= total * (len(runs) + 1) / nshards and len(runs) < nshards - 1:
        runs.append(cur)
        cur = []
runs.append(cur)
nshards = len(runs)

# E4M3 (finite, no NaN): the 126 non-negative finite codes' values, for a nearest-even cast.
codes = np.arange(0x7F, dtype=np.uint8)
vals = np.array([(2.0 ** (((c >> 3) & 15) - 7)) * (1 + (c & 7) / 8) if (c >> 3) else (2.0 ** -6) * ((c & 7) / 8)
                 for c in codes], dtype=np.float64)


def to_e4m3(x):
    a = np.minimum(np.abs(x).astype(np.float64), 448.0)
    idx = np.clip(np.searchsorted(vals, a), 1, 126)
    lo, hi = vals[idx - 1], vals[idx]
    pick = np.where((a - lo) < (hi - a), idx - 1,
                    np.where((a - lo) > (hi - a), idx, np.where((idx - 1) % 2 == 0, idx - 1, idx)))
    return (pick.astype(np.uint8) | np.where(np.signbit(x), 0x80, 0).astype(np.uint8)).astype(np.uint8)


def bf16(x):
    u = x.astype(np.float32).view(np.uint32)
    return ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)


rng = np.random.default_rng(0)
scales = {}  # FP8 weight name → its f32 values, from the weight's write until its scales' write


def weight(n):
    if n not in scales:
        scales[n] = rng.standard_normal(fp8[n], dtype=np.float32) * np.float32(0.02)
    return scales[n]


def block_scales(x):
    # absmax / 448 per 128×128 block (zero-padded at the edges)
    r, c = x.shape
    pr, pc = (r + 127) // 128 * 128, (c + 127) // 128 * 128
    p = np.zeros((pr, pc), dtype=np.float32)
    p[:r, :c] = np.abs(x)
    return np.maximum(p.reshape(pr // 128, 128, pc // 128, 128).max(axis=(1, 3)), 1e-12).astype(np.float32) / np.float32(448)

weight_map = {}
for si, run in enumerate(runs):
    fname = f"model-{si + 1:05d}-of-{nshards:05d}.safetensors"
    header, off = {"__metadata__": {"format": "pt"}}, 0
    for n in run:
        dt, s, nb = entries[n]
        header[n] = {"dtype": dt, "shape": list(s), "data_offsets": [off, off + nb]}
        off += nb
        weight_map[n] = fname
    h = json.dumps(header, separators=(",", ":")).encode()
    h += b" " * ((8 - (8 + len(h)) % 8) % 8)
    with open(os.path.join(out, fname), "wb") as f:
        f.write(struct.pack("<Q", len(h)))
        f.write(h)
        for n in run:
            dt, s, nb = entries[n]
            if n.endswith("_scale_inv"):
                f.write(block_scales(weight(n[: -len("_scale_inv")])).tobytes())
                continue
            if dt == "F8_E4M3":
                x = weight(n)
                sc = block_scales(x)
                d = np.repeat(np.repeat(sc, 128, axis=0), 128, axis=1)[: s[0], : s[1]]
                f.write(to_e4m3(x / d).tobytes())
                continue
            count = int(np.prod(s))
            for e0 in range(0, count, 1 << 24):
                x = rng.standard_normal(min(1 << 24, count - e0), dtype=np.float32) * np.float32(0.02)
                if len(s) == 1 and not n.endswith("correction_bias"):
                    x += np.float32(1)
                f.write(bf16(x).tobytes())
    for n in run:  # weights whose scales are written: free them
        if n.endswith("_scale_inv"):
            scales.pop(n[: -len("_scale_inv")], None)
with open(os.path.join(out, "model.safetensors.index.json"), "w") as f:
    json.dump({"metadata": {"total_size": total}, "weight_map": weight_map}, f, indent=2)
    f.write("\n")

cfg = {"architectures": ["DeepseekV3ForCausalLM"], "attention_bias": False, "attention_dropout": 0.0,
       "bos_token_id": 0, "eos_token_id": 1, "ep_size": 1, "first_k_dense_replace": 1, "hidden_act": "silu",
       "hidden_size": H, "initializer_range": 0.02, "intermediate_size": FF, "kv_lora_rank": KVL,
       "max_position_embeddings": 163840, "model_type": "deepseek_v3", "moe_intermediate_size": MFF,
       "moe_layer_freq": 1, "n_group": 8, "n_routed_experts": E, "n_shared_experts": 1, "norm_topk_prob": True,
       "num_attention_heads": NH, "num_experts_per_tok": 8, "num_hidden_layers": L, "num_key_value_heads": NH,
       "num_nextn_predict_layers": 0, "q_lora_rank": QL, "qk_nope_head_dim": NOPE, "qk_rope_head_dim": ROPE,
       "quantization_config": {"activation_scheme": "dynamic", "fmt": "e4m3", "quant_method": "fp8",
                               "weight_block_size": [128, 128]},
       "rms_norm_eps": 1e-06,
       "rope_scaling": {"beta_fast": 32, "beta_slow": 1, "factor": 40, "mscale": 1.0, "mscale_all_dim": 1.0,
                        "original_max_position_embeddings": 4096, "type": "yarn"},
       "rope_theta": 10000, "routed_scaling_factor": 2.5, "scoring_func": "sigmoid", "seq_aux": True,
       "tie_word_embeddings": False, "topk_group": 4, "topk_method": "noaux_tc", "torch_dtype": "bfloat16",
       "transformers_version": "4.33.1", "use_cache": True, "v_head_dim": VD, "vocab_size": V}
with open(os.path.join(out, "config.json"), "w") as f:
    json.dump(cfg, f, indent=2)
    f.write("\n")
for t in ("tokenizer.json", "tokenizer_config.json", "generation_config.json"):
    if os.path.exists(os.path.join(tokdir, t)):
        shutil.copyfile(os.path.join(tokdir, t), os.path.join(out, t))
