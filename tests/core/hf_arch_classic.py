#!/usr/bin/python3
"""The older decoder cases of hf_arch_models.py with their own converter key lists (GPT-NeoX, …): per case,
config.json (the real model's with its dimensions shrunk), the tensor shapes of its safetensors, which
borrowed tokenizer it gets and the stored dtype."""

from hf_arch_dense import FF, H, L, NH

V = 151936  # Qwen3's tokenizer (the borrowed one) and its padded vocab_size


def linear(t, p, rows, cols, bias=True):
    t[p + ".weight"] = (rows, cols)
    if bias:
        t[p + ".bias"] = (rows,)


def layer_norm(t, p):
    t.update({p + ".weight": (H,), p + ".bias": (H,)})
