#!/usr/bin/python3
"""Check a merge made by llama.cpp's llama-export-lora from amn's GGUF adapter, against PEFT's own
arithmetic done here in Hugging Face space (independent of both converters' tensor layout):

  lora_merge_check.py LLAMA_CPP_SRC BASE.gguf MERGED.gguf ADAPTER_DIR N_HEAD N_KV_HEAD

For every lora_A/lora_B pair of ADAPTER_DIR/adapter_model.safetensors (F32/F16/BF16):
delta = lora_alpha / r · B @ A (PEFT's merge, adapter_config.json's lora_alpha and the pair's
rank), rows permuted as llama.cpp's converter permutes q_proj (N_HEAD) and k_proj (N_KV_HEAD; 0 0 for
none, as for qwen);
MERGED's tensor must equal BASE's + delta (f32, |err| ≤ 1e-6 + 1e-5·|value|), every other tensor
must be unchanged, and at least one tensor must have changed by more than the tolerance.
Prints one line per merged tensor and "ok N merged"; exit 1 on the first mismatch.
"""
import json
import os
import re
import struct
import sys

import numpy as np


def read_st(path):
    with open(path, "rb") as f:
        n = struct.unpack("<Q", f.read(8))[0]
        h = json.loads(f.read(n))
        data = f.read()
    out = {}
    for k, t in h.items():
        if k == "__metadata__":
            continue
        a, b = t["data_offsets"]
        raw = data[a:b]
        if t["dtype"] == "BF16":
            v = (np.frombuffer(raw, np.uint16).astype(np.uint32) << 16).view(np.float32)
        else:
            v = np.frombuffer(raw, {"F32": np.float32, "F16": np.float16}[t["dtype"]]).astype(np.float32)
        out[k] = v.reshape(t["shape"]).astype(np.float64)
    return out


def permute(w, n_head):
    return w.reshape(n_head, 2, w.shape[0] // n_head // 2, *w.shape[1:]).swapaxes(1, 2).reshape(w.shape)


GGUF = {"q_proj": "attn_q", "k_proj": "attn_k", "v_proj": "attn_v", "o_proj": "attn_output",
        "gate_proj": "ffn_gate", "up_proj": "ffn_up", "down_proj": "ffn_down"}


def main():
    src, base_p, merged_p, adapter, n_head, n_kv = sys.argv[1:7]
    sys.path.insert(0, os.path.join(src, "gguf-py"))
    from gguf import GGUFReader
    cfg = json.load(open(os.path.join(adapter, "adapter_config.json")))
    lora = read_st(os.path.join(adapter, "adapter_model.safetensors"))
    base = {t.name: np.array(t.data, dtype=np.float32) for t in GGUFReader(base_p).tensors}
    merged = {t.name: np.array(t.data, dtype=np.float32) for t in GGUFReader(merged_p).tensors}
    expect = {k: v.astype(np.float64) for k, v in base.items()}
    for k in lora:
        m = re.fullmatch(r"base_model\.model\.model\.layers\.(\d+)\.\w+\.(\w+)\.lora_A\.weight", k)
        if not m:
            continue
        a, b = lora[k], lora[k.replace("lora_A", "lora_B")]
        delta = cfg["lora_alpha"] / a.shape[0] * (b @ a)
        if m.group(2) == "q_proj" and int(n_head):
            delta = permute(delta, int(n_head))
        elif m.group(2) == "k_proj" and int(n_kv):
            delta = permute(delta, int(n_kv))
        expect[f"blk.{m.group(1)}.{GGUF[m.group(2)]}.weight"] += delta
    changed = 0
    for name, want in expect.items():
        got = merged[name].astype(np.float64)
        err = np.abs(got - want).max()
        if not (np.abs(got - want) <= 1e-6 + 1e-5 * np.abs(want)).all():
            print(f"MISMATCH {name}: max |err| {err:g}")
            sys.exit(1)
        moved = np.abs(got - base[name]).max()
        if moved > 1e-4:
            changed += 1
            print(f"{name}: merged, max |delta| {moved:.3g}, max |err| {err:.2g}")
    if not changed:
        print("nothing merged")
        sys.exit(1)
    print(f"ok {changed} merged")


if __name__ == "__main__":
    main()
