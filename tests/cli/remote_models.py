#!/usr/bin/python3
# SPDX-License-Identifier: MIT OR Apache-2.0
"""The files test_cli_remote serves (issue 34), written into ROOT:

    remote_models.py ROOT SHARED_FIXTURES AMN

files/big.gguf            a 1 GiB GGUF (llama, a 60 000-token vocabulary: a header of
                          about 1.3 MiB), its tensor data a hole (sparse file)
files/big_st/             a 1 GiB model in three safetensors shards (sparse) with its
                          index and a config.json
files/bad_header.safetensors   a header length larger than the file
files/fixtures/…          links to shared fixtures: a GGUF, an HF folder with one
                          safetensors file, a sharded HF folder, a .pth, an .npz
files/split/…             a split GGUF set (amn forget --split-max-tensors 8)
repos/org/llama           Hub repository: the sharded HF folder
repos/org/gated, org/cdn  Hub repositories holding the GGUF
repos/org/ggufs           two GGUF files (a folder that names no one model)
repos/org/onnx            an ONNX model with external data
"""
import json
import os
import shutil
import struct
import subprocess
import sys


def gguf_string(s):
    b = s.encode()
    return struct.pack("<Q", len(b)) + b


def write_big_gguf(path, n_vocab=60000, n_tensors=16, rows=4096, cols=8192):
    kv = []
    kv.append(gguf_string("general.architecture") + struct.pack("<I", 8) + gguf_string("llama"))
    kv.append(gguf_string("general.name") + struct.pack("<I", 8) + gguf_string("big-sparse"))
    kv.append(gguf_string("llama.block_count") + struct.pack("<I", 4) + struct.pack("<I", n_tensors))
    kv.append(gguf_string("tokenizer.ggml.model") + struct.pack("<I", 8) + gguf_string("llama"))
    toks = b"".join(gguf_string("tok%06d" % i) for i in range(n_vocab))
    kv.append(gguf_string("tokenizer.ggml.tokens") + struct.pack("<IIQ", 9, 8, n_vocab) + toks)
    kv.append(gguf_string("tokenizer.ggml.scores") + struct.pack("<IIQ", 9, 6, n_vocab) + struct.pack("<%df" % n_vocab, *([0.0] * n_vocab)))
    kv.append(gguf_string("tokenizer.ggml.token_type") + struct.pack("<IIQ", 9, 5, n_vocab) + struct.pack("<%di" % n_vocab, *([1] * n_vocab)))
    infos = []
    nbytes = rows * cols * 2  # F16
    for i in range(n_tensors):
        infos.append(gguf_string("blk.%d.ffn_up.weight" % i) + struct.pack("<I", 2) + struct.pack("<QQ", cols, rows) +
                     struct.pack("<I", 1) + struct.pack("<Q", i * nbytes))
    head = b"GGUF" + struct.pack("<IQQ", 3, n_tensors, len(kv)) + b"".join(kv) + b"".join(infos)
    data_offset = (len(head) + 31) // 32 * 32
    with open(path, "wb") as f:
        f.write(head)
        f.truncate(data_offset + n_tensors * nbytes)
    return data_offset


def write_sparse_safetensors(path, tensors):
    """tensors: [(name, shape)] in F16; data left a hole."""
    header, off = {}, 0
    for name, shape in tensors:
        n = 2
        for d in shape:
            n *= d
        header[name] = {"dtype": "F16", "shape": shape, "data_offsets": [off, off + n]}
        off += n
    text = json.dumps(header, separators=(",", ":")).encode()
    text += b" " * ((8 - len(text) % 8) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)) + text)
        f.truncate(8 + len(text) + off)


def write_big_st(d):
    os.makedirs(d, exist_ok=True)
    hidden, inter, layers = 2048, 5632, 12
    weight_map, shards = {}, [[], [], []]
    for l in range(layers):
        for n, shape in (("self_attn.q_proj", [hidden, hidden]), ("self_attn.k_proj", [hidden, hidden]),
                         ("self_attn.v_proj", [hidden, hidden]), ("self_attn.o_proj", [hidden, hidden]),
                         ("mlp.gate_proj", [inter, hidden]), ("mlp.up_proj", [inter, hidden]),
                         ("mlp.down_proj", [hidden, inter]), ("input_layernorm", [hidden]),
                         ("post_attention_layernorm", [hidden])):
            shards[l * 3 // layers].append(("model.layers.%d.%s.weight" % (l, n), shape))
    shards[0].insert(0, ("model.embed_tokens.weight", [32000, hidden]))
    shards[2].append(("model.norm.weight", [hidden]))
    for i, ts in enumerate(shards):
        name = "model-%05d-of-%05d.safetensors" % (i + 1, len(shards))
        write_sparse_safetensors(os.path.join(d, name), ts)
        for t, _ in ts:
            weight_map[t] = name
    total = sum(os.path.getsize(os.path.join(d, "model-%05d-of-00003.safetensors" % (i + 1))) for i in range(3))
    with open(os.path.join(d, "model.safetensors.index.json"), "w") as f:
        json.dump({"metadata": {"total_size": total}, "weight_map": weight_map}, f, indent=2)
    with open(os.path.join(d, "config.json"), "w") as f:
        json.dump({"architectures": ["LlamaForCausalLM"], "model_type": "llama", "hidden_size": hidden,
                   "intermediate_size": inter, "num_hidden_layers": layers, "num_attention_heads": 16,
                   "num_key_value_heads": 16, "vocab_size": 32000, "rms_norm_eps": 1e-5,
                   "torch_dtype": "float16"}, f, indent=2)


def link(src, dst):
    os.makedirs(os.path.dirname(dst), exist_ok=True)
    if not os.path.lexists(dst):
        os.symlink(os.path.abspath(src), dst)


def main():
    root, shared, amn = sys.argv[1], sys.argv[2], sys.argv[3]
    files = os.path.join(root, "files")
    os.makedirs(files, exist_ok=True)
    write_big_gguf(os.path.join(files, "big.gguf"))
    write_big_st(os.path.join(files, "big_st"))
    with open(os.path.join(files, "bad_header.safetensors"), "wb") as f:
        f.write(struct.pack("<Q", 1 << 20) + b'{"a":' + b" " * 91)
    gguf = os.path.join(shared, "gguf-real", "tiny-llama-Q4_K_M.gguf")
    hf = os.path.join(shared, "hf-gguf", "inputs")
    fx = os.path.join(files, "fixtures")
    link(gguf, os.path.join(fx, "tiny-llama-Q4_K_M.gguf"))
    for name in ("Qwen3-0.6B", "Llama-2-7b-hf"):
        for f in sorted(os.listdir(os.path.join(hf, name))):
            link(os.path.join(hf, name, f), os.path.join(fx, name, f))
    link(os.path.join(shared, "reference", "pth", "algzoo_rnn_small", "input", "algzoo_rnn_small.pth"),
         os.path.join(fx, "algzoo_rnn_small.pth"))
    link(os.path.join(shared, "reference", "npz", "gemma_scope_small", "input", "gemma_scope_small.npz"),
         os.path.join(fx, "gemma_scope_small.npz"))
    split = os.path.join(files, "split")
    os.makedirs(split, exist_ok=True)
    subprocess.run([amn, "forget", os.path.join(shared, "gguf-real", "tiny-llama-F16.gguf"), "--to", "gguf:Q8_0",
                    "--split-max-tensors", "8", "-o", os.path.join(split, "tiny.gguf"), "--quiet"], check=True)
    repos = os.path.join(root, "repos", "org")
    for f in sorted(os.listdir(os.path.join(hf, "Llama-2-7b-hf"))):
        link(os.path.join(hf, "Llama-2-7b-hf", f), os.path.join(repos, "llama", f))
    link(gguf, os.path.join(repos, "gated", "tiny-llama-Q4_K_M.gguf"))
    link(gguf, os.path.join(repos, "cdn", "tiny-llama-Q4_K_M.gguf"))
    link(gguf, os.path.join(repos, "ggufs", "tiny-llama-Q4_K_M.gguf"))
    link(os.path.join(shared, "gguf-real", "tiny-llama-Q8_0.gguf"), os.path.join(repos, "ggufs", "tiny-llama-Q8_0.gguf"))
    onnx = os.path.join(shared, "onnx", "onnx-external-data")
    for base, _, fs in os.walk(onnx):
        for f in fs:
            rel = os.path.relpath(os.path.join(base, f), onnx)
            # copied: the ONNX reader refuses external data reached through a symbolic link
            os.makedirs(os.path.dirname(os.path.join(repos, "onnx", rel)), exist_ok=True)
            shutil.copyfile(os.path.join(base, f), os.path.join(repos, "onnx", rel))


if __name__ == "__main__":
    main()
