#!/usr/bin/python3
# SPDX-License-Identifier: MIT OR Apache-2.0
"""Rewrite a Hugging Face safetensors folder as transformers writes it with
save_pretrained(safe_serialization=False): pytorch_model-0000N-of-0000M.bin
shards (torch.save of state dicts, PyTorch's ZIP format) and
pytorch_model.bin.index.json; every other file copied. For test_cli_hf_gguf.

usage: hf_pytorch_bin_model.py SRC_DIR OUT_DIR [--reverse]

Tensors keep the shard they have in SRC_DIR's model.safetensors.index.json
(or all go to one file); within a shard the state dict is in name order, or
in reverse name order with --reverse (convert_hf_to_gguf.py reads a .bin
shard in its dict order, a safetensors shard in name order).
"""
import json
import shutil
import struct
import sys
from pathlib import Path

import torch

DTYPES = {"F32": torch.float32, "F16": torch.float16, "BF16": torch.bfloat16, "I32": torch.int32,
          "I64": torch.int64, "U8": torch.uint8, "I8": torch.int8}


def read_safetensors(path):
    data = path.read_bytes()
    n = struct.unpack("<Q", data[:8])[0]
    header = json.loads(data[8:8 + n])
    base = 8 + n
    out = {}
    for name, d in header.items():
        if name == "__metadata__":
            continue
        a, b = d["data_offsets"]
        t = torch.frombuffer(bytearray(data[base + a:base + b]), dtype=DTYPES[d["dtype"]]) if b > a else \
            torch.empty(0, dtype=DTYPES[d["dtype"]])
        out[name] = t.reshape(d["shape"]).clone()
    return out


def main():
    src, out = Path(sys.argv[1]), Path(sys.argv[2])
    reverse = "--reverse" in sys.argv[3:]
    out.mkdir(parents=True, exist_ok=True)
    index = src / "model.safetensors.index.json"
    if index.is_file():
        weight_map = json.loads(index.read_text())["weight_map"]
        files = sorted(set(weight_map.values()))
    else:
        files = ["model.safetensors"]
        weight_map = {n: files[0] for n in read_safetensors(src / files[0])}
    n = len(files)
    new_map, total = {}, 0
    for k, f in enumerate(files):
        tensors = read_safetensors(src / f)
        name = "pytorch_model.bin" if n == 1 else f"pytorch_model-{k + 1:05d}-of-{n:05d}.bin"
        sd = {t: tensors[t] for t in sorted(tensors, reverse=reverse)}
        torch.save(sd, out / name)
        for t, v in sd.items():
            new_map[t] = name
            total += v.numel() * v.element_size()
    if n > 1:
        (out / "pytorch_model.bin.index.json").write_text(
            json.dumps({"metadata": {"total_size": total}, "weight_map": dict(sorted(new_map.items()))}, indent=2) + "\n")
    for p in src.iterdir():
        if p.is_file() and not p.name.startswith("model") :
            shutil.copy(p, out / p.name)


if __name__ == "__main__":
    main()
