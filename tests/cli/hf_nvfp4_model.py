#!/usr/bin/python3
# SPDX-License-Identifier: MIT OR Apache-2.0
"""Write a tiny Llama-architecture Hugging Face folder with ModelOpt NVFP4
linear layers (the layout of nvidia/*-FP4 exports), for test_cli_hf_gguf.

usage: hf_nvfp4_model.py OUT_DIR TOKENIZER_DIR

OUT_DIR's last component names the model. TOKENIZER_DIR holds a Llama-2
SentencePiece tokenizer (tokenizer.model, tokenizer.json,
tokenizer_config.json), copied as is: the shared fixture
hf-gguf/inputs/Llama-2-7b-hf. Weights are seeded (numpy RandomState 7),
hidden 64 so that every NVFP4 row holds a multiple of 64 values (GGUF NVFP4
blocks), 4 heads / 2 KV heads (llama's Q/K permutation of weights and
scales), BF16 embeddings, norms and lm_head; per layer weight U8 [out, in/2],
weight_scale F8_E4M3 [out, in/16] (finite, positive), weight_scale_2 F32 []
and input_scale F32 [] (one layer's input_scale exactly 1: left out of the
GGUF as trivial).

Reference (llama.cpp convert_hf_to_gguf.py at 34af94c, the shared hf_shim):
  cd PARENT && python3 hf_shim/run_convert.py LLAMA_CPP MODEL --outtype f16 --outfile X.gguf
"""
import json
import shutil
import struct
import sys
from pathlib import Path

import numpy as np


def bf16(a):
    u = np.ascontiguousarray(a, dtype=np.float32).view(np.uint32)
    r = ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)
    return r


def save(path, tensors):
    header, blobs, off = {"__metadata__": {"format": "pt"}}, [], 0
    for name in sorted(tensors):
        dtype, shape, data = tensors[name]
        b = data.tobytes()
        header[name] = {"dtype": dtype, "shape": list(shape), "data_offsets": [off, off + len(b)]}
        blobs.append(b)
        off += len(b)
    h = json.dumps(header, separators=(",", ":")).encode()
    h += b" " * ((8 - len(h) % 8) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(h)) + h)
        for b in blobs:
            f.write(b)


def main():
    out, tok = Path(sys.argv[1]), Path(sys.argv[2])
    out.mkdir(parents=True, exist_ok=True)
    rng = np.random.RandomState(7)
    hidden, inter, layers, heads, kv, vocab = 64, 128, 2, 4, 2, 32000
    head_dim = hidden // heads
    t = {}
    t["model.embed_tokens.weight"] = ("BF16", (vocab, hidden), bf16(rng.normal(0, 0.02, (vocab, hidden))))
    t["lm_head.weight"] = ("BF16", (vocab, hidden), bf16(rng.normal(0, 0.02, (vocab, hidden))))
    t["model.norm.weight"] = ("BF16", (hidden,), bf16(1 + rng.normal(0, 0.02, hidden)))
    shapes = {"self_attn.q_proj": (hidden, hidden), "self_attn.k_proj": (kv * head_dim, hidden),
              "self_attn.v_proj": (kv * head_dim, hidden), "self_attn.o_proj": (hidden, hidden),
              "mlp.gate_proj": (inter, hidden), "mlp.up_proj": (inter, hidden), "mlp.down_proj": (hidden, inter)}
    for l in range(layers):
        p = f"model.layers.{l}."
        t[p + "input_layernorm.weight"] = ("BF16", (hidden,), bf16(1 + rng.normal(0, 0.02, hidden)))
        t[p + "post_attention_layernorm.weight"] = ("BF16", (hidden,), bf16(1 + rng.normal(0, 0.02, hidden)))
        for m, (o, i) in shapes.items():
            n = p + m
            t[n + ".weight"] = ("U8", (o, i // 2), rng.randint(0, 256, (o, i // 2)).astype(np.uint8))
            # E4M3 bytes 0x08..0x6f: positive, finite, normal
            t[n + ".weight_scale"] = ("F8_E4M3", (o, i // 16), rng.randint(0x08, 0x70, (o, i // 16)).astype(np.uint8))
            t[n + ".weight_scale_2"] = ("F32", (), np.array(rng.uniform(1e-4, 1e-3), dtype=np.float32))
            isc = 1.0 if (l == 0 and m == "mlp.down_proj") else rng.uniform(0.01, 0.1)
            t[n + ".input_scale"] = ("F32", (), np.array(isc, dtype=np.float32))
    save(out / "model.safetensors", t)
    qc = {"config_groups": {"group_0": {"input_activations": {"dynamic": False, "num_bits": 4, "type": "float", "group_size": 16},
                                        "weights": {"dynamic": False, "num_bits": 4, "type": "float", "group_size": 16},
                                        "targets": ["Linear"]}},
          "ignore": ["lm_head"], "quant_algo": "NVFP4", "producer": {"name": "modelopt", "version": "0.46.0rc2"},
          "quant_method": "modelopt"}
    cfg = {"architectures": ["LlamaForCausalLM"], "bos_token_id": 1, "eos_token_id": 2, "hidden_act": "silu",
           "hidden_size": hidden, "intermediate_size": inter, "max_position_embeddings": 4096, "model_type": "llama",
           "num_attention_heads": heads, "num_hidden_layers": layers, "num_key_value_heads": kv,
           "quantization_config": qc, "rms_norm_eps": 1e-05, "rope_theta": 10000.0, "tie_word_embeddings": False,
           "torch_dtype": "bfloat16", "vocab_size": vocab}
    (out / "config.json").write_text(json.dumps(cfg, indent=2) + "\n")
    (out / "hf_quant_config.json").write_text(json.dumps({"producer": {"name": "modelopt", "version": "0.46.0rc2"},
                                                          "quantization": {"quant_algo": "NVFP4", "group_size": 16,
                                                                           "exclude_modules": ["lm_head"]}}, indent=4))
    for f in ("tokenizer.model", "tokenizer.json", "tokenizer_config.json"):
        shutil.copy(tok / f, out / f)


if __name__ == "__main__":
    main()
