#!/usr/bin/python3
# SPDX-License-Identifier: MIT OR Apache-2.0
"""Independent reference for `--layout hf` (tests/core/test_hf_layout.cc).

Written from llama.cpp's convert_hf_to_gguf.py as documented (not shared
with the C++ code):
- LlamaModel.permute: the HF rows of a Q/K projection viewed as
  [n_head, 2, rows / n_head / 2, *rest], axes 1 and 2 swapped, reshaped back
  (K uses num_key_value_heads).
- The Llama 3 RoPE factors (`rope_freqs.weight`), computed in torch float32
  as LlamaModel.generate_extra_tensors does.

Modes:
  permute OUT_DIR ROWS COLS N_HEAD      write hf.bin (a known matrix, f32) and
                                        gguf.bin (= permute(hf)), row-major
  rope OUT.bin FACTOR BASE DIM          write the f32 Llama 3 RoPE factors
  check HF.safetensors GGUF.safetensors N_HEAD N_KV_HEAD
                                        the --layout hf output against the plain
                                        (GGUF-named) output: permute(q_proj) ==
                                        attn_q, permute(k_proj) == attn_k, every
                                        other tensor byte-identical under its HF
                                        name. Prints "ok N" or the first mismatch.
"""
import json
import math
import struct
import sys

import numpy as np


def permute(w, n_head):
    return w.reshape(n_head, 2, w.shape[0] // n_head // 2, *w.shape[1:]).swapaxes(1, 2).reshape(w.shape)


def read_safetensors(path):
    with open(path, "rb") as f:
        n = struct.unpack("<Q", f.read(8))[0]
        header = json.loads(f.read(n))
        data = f.read()
    dtypes = {"F32": np.float32, "F16": np.float16, "BF16": np.uint16, "I32": np.int32}
    out = {}
    for name, info in header.items():
        if name == "__metadata__":
            continue
        b, e = info["data_offsets"]
        out[name] = np.frombuffer(data[b:e], dtype=dtypes[info["dtype"]]).reshape(info["shape"])
    return out


GGUF_TO_HF = {
    "attn_norm": "input_layernorm",
    "attn_q": "self_attn.q_proj",
    "attn_k": "self_attn.k_proj",
    "attn_v": "self_attn.v_proj",
    "attn_output": "self_attn.o_proj",
    "ffn_norm": "post_attention_layernorm",
    "ffn_gate": "mlp.gate_proj",
    "ffn_up": "mlp.up_proj",
    "ffn_down": "mlp.down_proj",
}


def hf_name(gguf):
    top = {"token_embd.weight": "model.embed_tokens.weight", "output_norm.weight": "model.norm.weight",
           "output.weight": "lm_head.weight"}
    if gguf in top:
        return top[gguf]
    _, layer, part, suffix = gguf.split(".")
    return f"model.layers.{layer}.{GGUF_TO_HF[part]}.{suffix}"


def main():
    mode = sys.argv[1]
    if mode == "permute":
        out, rows, cols, n_head = sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
        hf = (np.arange(rows * cols, dtype=np.float32) * np.float32(0.25) - np.float32(7)).reshape(rows, cols)
        if cols == 1:
            hf = hf.reshape(rows)
        np.ascontiguousarray(hf).tofile(out + "/hf.bin")
        np.ascontiguousarray(permute(hf, n_head)).tofile(out + "/gguf.bin")
    elif mode == "rope":
        import torch
        out, factor, base, dim = sys.argv[2], float(sys.argv[3]), float(sys.argv[4]), int(sys.argv[5])
        freqs = 1.0 / (base ** (torch.arange(0, dim, 2, dtype=torch.float32) / dim))
        low_freq_factor, high_freq_factor, old_context_len = 1.0, 4.0, 8192
        low_freq_wavelen = old_context_len / low_freq_factor
        high_freq_wavelen = old_context_len / high_freq_factor
        factors = []
        for freq in freqs:
            wavelen = 2 * math.pi / freq
            if wavelen < high_freq_wavelen:
                factors.append(1)
            elif wavelen > low_freq_wavelen:
                factors.append(factor)
            else:
                smooth = (old_context_len / wavelen - low_freq_factor) / (high_freq_factor - low_freq_factor)
                factors.append(1 / ((1 - smooth) / factor + smooth))
        torch.tensor(factors, dtype=torch.float32).numpy().tofile(out)
    elif mode == "check":
        hf = read_safetensors(sys.argv[2])
        gg = read_safetensors(sys.argv[3])
        n_head, n_kv = int(sys.argv[4]), int(sys.argv[5])
        if len(hf) != len(gg):
            print(f"tensor counts differ: {len(hf)} vs {len(gg)}")
            return 1
        for name, g in gg.items():
            h = hf.get(hf_name(name))
            if h is None:
                print(f"missing {hf_name(name)} for {name}")
                return 1
            if ".attn_q." in name:
                h = permute(h, n_head)
            elif ".attn_k." in name:
                h = permute(h, n_kv)
            if h.shape != g.shape or h.dtype != g.dtype or h.tobytes() != g.tobytes():
                print(f"{name}: values differ")
                return 1
        print(f"ok {len(gg)}")
    else:
        print("unknown mode")
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
