#!/usr/bin/python3
# SPDX-License-Identifier: MIT OR Apache-2.0
"""Are the tensors of a Hugging Face folder written by `amn remember X.gguf
--layout hf` the original folder's? Every tensor of BACK must exist in ORIG
under the same name (ORIG's `language_model.` prefix of multimodal classes
removed; GPT-2's `transformer.` prefix, which transformers writes and the
original openai-community checkpoint lacks, optional) with the same shape, and equal values as float32 — except RMSNorm
weights of the `+1` architectures (--norm-plus-one: the converter stored
w + 1 — in f32, or in F16 for an F16 original —, the way back subtracts 1:
within half an ulp of w + 1, 2^-24 · (|w| + 1) · 2 in f32, 2^-11 · (|w| + 1) · 2
in F16), and Gemma 3's embedding, which the converter cuts to the tokenizer's
size (--embedding-cut: BACK's rows are ORIG's leading rows), XLM-RoBERTa's
position embeddings, whose first N rows the converter cut (--position-offset N:
BACK's first N rows are zeros, the rest ORIG's), and Mamba's and Qwen3-Next's A_log, which the converter turned
into A = -exp(A_log) (--a-log-by-exp: -torch.exp of BACK's A_log equals -torch.exp of ORIG's bit for bit,
torch 1.13 being the converter's; the floats themselves may differ where several give one A). ORIG may
hold tensors BACK lacks (what the converter drops: a tied lm_head, vision
towers, MTP layers). Prints "ok N tensors" or the first difference; exit 1
on a difference. numpy only; safetensors read from its documented layout.

usage: hf_folder_values.py BACK_DIR ORIG_DIR [--norm-plus-one] [--embedding-cut] [--position-offset N]
    [--a-log-by-exp]
"""
import glob
import json
import os
import struct
import sys

import numpy as np

DTYPES = {"F32": np.float32, "F16": np.float16, "BF16": np.uint16, "F64": np.float64}


def load(folder):
    out = {}
    for path in sorted(glob.glob(os.path.join(folder, "*.safetensors"))):
        with open(path, "rb") as f:
            n = struct.unpack("<Q", f.read(8))[0]
            header = json.loads(f.read(n))
            data = f.read()
        for name, info in header.items():
            if name == "__metadata__":
                continue
            b, e = info["data_offsets"]
            if info["dtype"] not in DTYPES:
                continue
            a = np.frombuffer(data[b:e], dtype=DTYPES[info["dtype"]])
            if info["dtype"] == "BF16":
                a = (a.astype(np.uint32) << 16).view(np.float32)
            out[name] = (a.astype(np.float32).reshape(info["shape"]), info["dtype"])
    return out


def main():
    back, orig = load(sys.argv[1]), load(sys.argv[2])
    plus_one = "--norm-plus-one" in sys.argv[3:]
    cut = "--embedding-cut" in sys.argv[3:]
    offset = int(sys.argv[sys.argv.index("--position-offset") + 1]) if "--position-offset" in sys.argv else 0
    a_log = "--a-log-by-exp" in sys.argv[3:]
    orig = {n[len("language_model."):] if n.startswith("language_model.") else n: v for n, v in orig.items()}
    if not back:
        print("no tensors in", sys.argv[1])
        return 1
    for name, (v, _) in back.items():
        if name not in orig and name.startswith("transformer.") and name[len("transformer."):] in orig:
            orig[name] = orig[name[len("transformer."):]]
        if name not in orig:
            print(f"{name}: not a tensor of the original folder")
            return 1
        w, wdtype = orig[name]
        if cut and name.endswith("embed_tokens.weight") and v.shape[1:] == w.shape[1:] and v.shape[0] <= w.shape[0]:
            w = w[:v.shape[0]]
        if offset and name.endswith("embeddings.position_embeddings.weight") and v.shape[1:] == w.shape[1:]:
            if v.shape[0] != w.shape[0] or v[:offset].any():
                print(f"{name}: the first {offset} rows are not zeros over the original's {w.shape[0]} rows")
                return 1
            v, w = v[offset:], w[offset:]
        if v.shape != w.shape:
            print(f"{name}: shape {list(v.shape)} vs the original's {list(w.shape)}")
            return 1
        if a_log and name.endswith(".A_log"):
            import torch
            v, w = (-torch.exp(torch.from_numpy(v.copy()))).numpy(), (-torch.exp(torch.from_numpy(w.copy()))).numpy()
        if plus_one and (name.endswith("norm.weight") or name.startswith("mtp.pre_fc_norm_")):  # Qwen3-Next's MTP enorm/hnorm
            bad = np.abs(v - w) > (2.0 ** -10 if wdtype == "F16" else 2.0 ** -23) * (np.abs(w) + 1)
        else:
            bad = v.view(np.uint32) != w.view(np.uint32)
        if bad.any():
            i = int(np.argmax(bad.ravel()))
            print(f"{name}: element {i} = {v.ravel()[i]!r} vs the original's {w.ravel()[i]!r}")
            return 1
    print(f"ok {len(back)} tensors")
    return 0


if __name__ == "__main__":
    sys.exit(main())
