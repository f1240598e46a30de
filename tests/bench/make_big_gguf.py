#!/usr/bin/python3
# SPDX-License-Identifier: MIT OR Apache-2.0
"""Write a llama-shaped F16 GGUF for the forget benchmark, the shape of the
model in shared/bench/ggml-quantize.md: n_embd 2048, n_ff 5632, 4 layers,
32/4 heads, vocab 20480 (260,065,280 elements, 520 MB), weights
0.02·N(0,1) with 0.2 % ×8 outliers rounded to F16, norms F32. Written from
the GGUF spec (ggml docs/gguf.md) with numpy only.

usage: make_big_gguf.py OUT.gguf [LAYERS]
"""
import struct
import sys

import numpy as np

out = sys.argv[1]
layers = int(sys.argv[2]) if len(sys.argv) > 2 else 4
E, F, V, H, HKV = 2048, 5632, 20480, 32, 4
rng = np.random.default_rng(5)


def s(x):
    b = x.encode()
    return struct.pack("<Q", len(b)) + b


kv = [("general.architecture", 8, "llama"), ("general.name", 8, "bench-llama"),
      ("llama.block_count", 4, layers), ("llama.context_length", 4, 2048),
      ("llama.embedding_length", 4, E), ("llama.feed_forward_length", 4, F),
      ("llama.attention.head_count", 4, H), ("llama.attention.head_count_kv", 4, HKV),
      ("llama.rope.dimension_count", 4, E // H), ("llama.attention.layer_norm_rms_epsilon", 6, 1e-5),
      ("general.file_type", 4, 1)]
tensors = [("token_embd.weight", (V, E), 1), ("output_norm.weight", (E,), 0), ("output.weight", (V, E), 1)]
for i in range(layers):
    p = f"blk.{i}."
    tensors += [(p + "attn_norm.weight", (E,), 0), (p + "attn_q.weight", (E, E), 1),
                (p + "attn_k.weight", (E // H * HKV, E), 1), (p + "attn_v.weight", (E // H * HKV, E), 1),
                (p + "attn_output.weight", (E, E), 1), (p + "ffn_norm.weight", (E,), 0),
                (p + "ffn_gate.weight", (F, E), 1), (p + "ffn_up.weight", (F, E), 1),
                (p + "ffn_down.weight", (E, F), 1)]

head = b"GGUF" + struct.pack("<IQQ", 3, len(tensors), len(kv))
for k, t, v in kv:
    head += s(k) + struct.pack("<I", t) + (s(v) if t == 8 else struct.pack("<f" if t == 6 else "<I", v))
off = 0
sizes = []
for name, shape, t in tensors:
    n = int(np.prod(shape))
    head += s(name) + struct.pack("<I", len(shape)) + b"".join(struct.pack("<Q", d) for d in reversed(shape))
    head += struct.pack("<IQ", t, off)
    size = n * (4 if t == 0 else 2)
    sizes.append(size)
    off += (size + 31) // 32 * 32
head += b"\0" * (-len(head) % 32)
with open(out, "wb") as f:
    f.write(head)
    for (name, shape, t), size in zip(tensors, sizes):
        n = int(np.prod(shape))
        if t == 0:
            a = (1 + 0.05 * rng.standard_normal(n, dtype=np.float32)).astype("<f4")
        else:
            a = 0.02 * rng.standard_normal(n, dtype=np.float32)
            a[rng.random(n) < 0.002] *= 8
            a = a.astype("<f2")
        f.write(a.tobytes())
        f.write(b"\0" * (-size % 32))
