#!/usr/bin/python3
# SPDX-License-Identifier: MIT OR Apache-2.0
"""Folders for test_cli_hf_gguf's schemesDequantizedRoute: a tiny plain Llama
folder, and the dequantized twin of a quantized folder, decoded here with
numpy from the libraries' documented formulas (never by amn).

usage: hf_scheme_folders.py base OUT TOKENIZER_DIR bf16|f16 HIDDEN INTERMEDIATE
       hf_scheme_folders.py dequantize Q D [--near F]
       hf_scheme_folders.py diff A.gguf B.gguf

base: OUT's last component names the model; seeded (numpy RandomState 24),
2 layers, 4 heads / 2 KV heads, vocab 32000 (TOKENIZER_DIR: the Llama-2
SentencePiece files of the shared fixture hf-gguf/inputs/Llama-2-7b-hf).
HIDDEN 192, INTERMEDIATE 320 give partial 128x128 FP8 blocks on both axes
(k/v: 96 x 192, down: 192 x 320) and partial double-quant absmax blocks;
128 / 256 give rows that 128-groups divide (compressed-tensors W4A16/W8A16).

dequantize: D gets Q's tokenizer/generation files, config.json without
quantization_config, every quantized module replaced by one F32 `<m>.weight`
(other tensors byte for byte). Tensor order is the order in which
convert_hf_to_gguf.py (34af94c) hands Q's tensors on: sorted names, except
compressed-tensors pack-quantized, whose dequantized weights the converter
appends after every other tensor — those go to a second shard (the converter
sorts by (shard file, name)), which gives the same order for D.
Decoders (all products in float32, rounded once unless said):
- bitsandbytes 4-bit (`dequantize_4bit`; NF4/FP4 codes as its kernels hold
  them, high nibble first): w[i] = code[nib(i)] * absmax[i // blocksize];
  FP4 as dDequantizeFP4Tree: (magnitude * absmax) * sign, code 8 -> -0.0
  (the CUDA/C++ kernels; the torch-only CPU fallback's table has +0.0 there —
  the one place the two differ, in the sign of a zero);
  double quant (`dequantize_blockwise` of the absmax, then `+= offset`):
  absmax[b] = (nested_quant_map[u8[b]] * nested_absmax[b // 256]) + offset.
- bitsandbytes LLM.int8 (`int8_vectorwise_dequant`):
  (f32(CB) * SCB[row]) * f32(7.874015718698502e-3), left to right.
- FP8 (compressed-tensors float-quantized, DeepSeek `fp8` weight_block_size):
  the converter's `dequant_simple`: f32(e4m3) * f32(scale) (tensor, [out,1]
  channel, or blocks repeated and cropped).
- compressed-tensors pack-quantized (the converter's `dequant_packed`):
  u = (packed[r, k // p] >> bits * (k % p)) & mask; offset 2^(bits-1), or the
  stored zero-point field (weight_zero_point[r // p, g] >> bits * (r % p)) &
  mask; w = f32(u - offset) * f32(scale[r, k // group]).
- AWQ GEMM (AutoAWQ `dequantize_gemm`, scales upcast to f32): nibble i of word
  j = column 8j + [0,2,4,6,1,3,5,7][i]; w[n, k] = f32(q[k, n] - z[k // g, n])
  * f32(scale[k // g, n]), transposed to [out, in].

--near F (the plain folder Q was made from): a gross-error guard, so that a
decoder and amn cannot agree on a wrong reading — every dequantized weight
within a quarter of its tensor's largest |F| value of F (each format here
rounds to within 1/6 of it: FP4's widest half gap; 8-bit far less); exit 1
naming the tensor otherwise.

diff: exit 0 when the files are byte-identical, else 1 and one line naming
the first differing key/value or tensor (name, type, first differing element).
"""
import json
import os
import shutil
import struct
import sys
from pathlib import Path

import numpy as np

from hf_scheme_decoders import DECODERS, files_to_copy


def bf16(a):
    u = np.ascontiguousarray(a, dtype=np.float32).view(np.uint32)
    return ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)


def read_folder(d):
    """{name: (dtype, shape, raw bytes)} over every *.safetensors of d."""
    t = {}
    for f in sorted(Path(d).glob("*.safetensors")):
        b = f.read_bytes()
        n = struct.unpack("<Q", b[:8])[0]
        for k, v in json.loads(b[8:8 + n]).items():
            if k == "__metadata__":
                continue
            a, e = v["data_offsets"]
            t[k] = (v["dtype"], v["shape"], b[8 + n + a:8 + n + e])
    return t


def save(path, tensors):
    header, blobs, off = {"__metadata__": {"format": "pt"}}, [], 0
    for name in sorted(tensors):
        dtype, shape, raw = tensors[name]
        header[name] = {"dtype": dtype, "shape": list(shape), "data_offsets": [off, off + len(raw)]}
        blobs.append(raw)
        off += len(raw)
    h = json.dumps(header, separators=(",", ":")).encode()
    h += b" " * ((8 - len(h) % 8) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(h)) + h)
        for b in blobs:
            f.write(b)


def base(out, tok, dt, hidden, inter):
    out.mkdir(parents=True, exist_ok=True)
    rng = np.random.RandomState(24)
    layers, heads, kv, vocab = 2, 4, 2, 32000
    half = (lambda a: ("BF16", bf16(a))) if dt == "bf16" else (lambda a: ("F16", np.asarray(a, np.float16)))
    t = {}

    def put(name, a):
        d, v = half(a)
        t[name] = (d, a.shape, v.tobytes())

    put("model.embed_tokens.weight", rng.normal(0, 0.02, (vocab, hidden)))
    put("lm_head.weight", rng.normal(0, 0.02, (vocab, hidden)))
    put("model.norm.weight", 1 + rng.normal(0, 0.02, hidden))
    shapes = {"self_attn.q_proj": (hidden, hidden), "self_attn.k_proj": (kv * hidden // heads, hidden),
              "self_attn.v_proj": (kv * hidden // heads, hidden), "self_attn.o_proj": (hidden, hidden),
              "mlp.gate_proj": (inter, hidden), "mlp.up_proj": (inter, hidden), "mlp.down_proj": (hidden, inter)}
    for layer in range(layers):
        p = f"model.layers.{layer}."
        put(p + "input_layernorm.weight", 1 + rng.normal(0, 0.02, hidden))
        put(p + "post_attention_layernorm.weight", 1 + rng.normal(0, 0.02, hidden))
        for m, shape in shapes.items():
            put(p + m + ".weight", rng.normal(0, 0.05, shape))
    save(out / "model.safetensors", t)
    cfg = {"architectures": ["LlamaForCausalLM"], "bos_token_id": 1, "eos_token_id": 2, "hidden_act": "silu",
           "hidden_size": hidden, "intermediate_size": inter, "max_position_embeddings": 4096, "model_type": "llama",
           "num_attention_heads": heads, "num_hidden_layers": layers, "num_key_value_heads": kv,
           "rms_norm_eps": 1e-05, "rope_theta": 10000.0, "tie_word_embeddings": False,
           "torch_dtype": "bfloat16" if dt == "bf16" else "float16", "vocab_size": vocab}
    (out / "config.json").write_text(json.dumps(cfg, indent=2) + "\n")
    for f in ("tokenizer.model", "tokenizer.json", "tokenizer_config.json", "special_tokens_map.json",
              "generation_config.json"):
        if (tok / f).exists():
            shutil.copyfile(tok / f, out / f)


def check_near(made, f):
    """Exit 1 when a dequantized weight is further than max|F| / 4 from F."""
    t = read_folder(f)
    for name, (_, shape, raw) in sorted(made.items()):
        dt, fshape, _ = t[name]
        x = (np.frombuffer(t[name][2], np.uint16).astype(np.uint32) << 16).view(np.float32) if dt == "BF16" else \
            np.frombuffer(t[name][2], np.float16).astype(np.float32)
        y = np.frombuffer(raw, np.float32)
        err = float(np.max(np.abs(y.astype(np.float64) - x))) if list(fshape) == list(shape) else float("inf")
        if not err <= float(np.max(np.abs(x))) / 4:
            raise SystemExit(f"{name}: decoded {shape} is {err} from {f}'s {fshape} (max |F| {np.max(np.abs(x))})")


def dequantize(q, d, near=None):
    cfg = json.loads((q / "config.json").read_text())
    qc = cfg.pop("quantization_config")
    method = qc["quant_method"]
    if method == "compressed-tensors":
        method += ":" + qc["format"]
    if method not in DECODERS:
        raise SystemExit("no decoder for " + method)
    t = read_folder(q)
    plain, made = DECODERS[method](t, qc)
    d.mkdir(parents=True, exist_ok=True)
    if method == "compressed-tensors:pack-quantized":  # appended by the converter: a second shard
        files = {"model-00001-of-00002.safetensors": plain, "model-00002-of-00002.safetensors": made}
        index = {"metadata": {}, "weight_map": {k: f for f, ts in files.items() for k in ts}}
        (d / "model.safetensors.index.json").write_text(json.dumps(index, indent=2, sort_keys=True))
        for f, ts in files.items():
            save(d / f, ts)
    else:
        save(d / "model.safetensors", {**plain, **made})
    (d / "config.json").write_text(json.dumps(cfg, indent=2) + "\n")
    for f in files_to_copy(os.listdir(q)):
        shutil.copyfile(q / f, d / f)
    if near:
        check_near(made, near)
    print("wrote", d, len(plain), "tensors kept,", len(made), "dequantized")


if __name__ == "__main__":
    cmd = sys.argv[1]
    if cmd == "base":
        base(Path(sys.argv[2]), Path(sys.argv[3]), sys.argv[4], int(sys.argv[5]), int(sys.argv[6]))
    elif cmd == "dequantize":
        dequantize(Path(sys.argv[2]), Path(sys.argv[3]), Path(sys.argv[5]) if sys.argv[4:5] == ["--near"] else None)
    elif cmd == "diff":
        from gguf_first_difference import first_difference
        msg = first_difference(sys.argv[2], sys.argv[3])
        if msg:
            print(msg)
            sys.exit(1)
        print("byte-identical")
    else:
        raise SystemExit(__doc__)
