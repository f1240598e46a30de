#!/usr/bin/python3
# SPDX-License-Identifier: MIT OR Apache-2.0
"""Write a >= GIB GiB `.npz` (np.savez, stored) and `.pth` (torch.save of a
state_dict) for tests/bench/npz_pth_e2e.sh.

Usage: /usr/bin/python3 make_big_npz_pth.py OUT_DIR [GIB]

The state dict looks like a small decoder: an embedding, N layers of
attention and MLP matrices, norms, and a few shapes that stress the
converter's chunking: a ViT-style `[1, N, D]` position embedding (one
outermost row), a long 1-D vector, an F16 and an I64 tensor. Layers are
added until the total reaches GIB GiB. Values are random (the bench times
copies, not arithmetic).
"""
import collections
import os
import sys

import numpy as np
import torch

out = sys.argv[1]
gib = float(sys.argv[2]) if len(sys.argv) > 2 else 1.0
os.makedirs(out, exist_ok=True)
rng = np.random.default_rng(7)
D, F, V = 2048, 5632, 32000


def f32(*shape):
    return rng.standard_normal(shape, dtype=np.float32)


sd = collections.OrderedDict()
sd["embed_tokens.weight"] = f32(V, D)
sd["pos_embed"] = f32(1, 8192, D)          # one outermost row of 64 MiB
sd["freq_table"] = f32(1 << 24)             # 1-D, 64 MiB
sd["router.scale"] = f32(64, D).astype(np.float16)
sd["token_ids"] = rng.integers(0, V, (1 << 20,), dtype=np.int64)
total = sum(a.nbytes for a in sd.values())
layer = 0
while total < gib * (1 << 30):
    p = f"layers.{layer}."
    for n in ("q_proj", "k_proj", "v_proj", "o_proj"):
        sd[p + "self_attn." + n + ".weight"] = f32(D, D)
    sd[p + "mlp.gate_proj.weight"] = f32(F, D)
    sd[p + "mlp.up_proj.weight"] = f32(F, D)
    sd[p + "mlp.down_proj.weight"] = f32(D, F)
    sd[p + "input_layernorm.weight"] = f32(D)
    sd[p + "post_attention_layernorm.weight"] = f32(D)
    total = sum(a.nbytes for a in sd.values())
    layer += 1
sd["norm.weight"] = f32(D)

np.savez(os.path.join(out, "model.npz"), **sd)
torch.save(collections.OrderedDict((k, torch.from_numpy(v)) for k, v in sd.items()), os.path.join(out, "model.pth"))
print(f"{len(sd)} tensors, {total / (1 << 30):.2f} GiB, {layer} layers -> {out}/model.npz, {out}/model.pth")
