#!/usr/bin/python3
# SPDX-License-Identifier: MIT OR Apache-2.0
"""Write the fuzz seeds into OUT_DIR/<target>/, from the repository alone.

Usage: /usr/bin/python3 tests/fuzz/make_seeds.py OUT_DIR

- safetensors: the repository's fixtures/**/*.safetensors of at most 64 KiB;
- gguf: small GGUF v2/v3 files written here, one per ggml type listed in
  core/include/anamnesis/ggml_type_list.hpp plus the plain types, with
  key/values of every GGUF value type (strings, arrays, nested arrays) and a
  custom general.alignment; block contents are random bytes (seeded);
- npy, zip, pth, pickle: fixtures/npz_pth/make_npz_pth_fixtures.py's output
  (NPY, NPZ, PyTorch ZIP and legacy checkpoints, plain pickles and the
  data.pkl of every ZIP checkpoint), without the `wide.*` inputs and
  anything over 64 KiB (16 KiB for pickles, fuzz_pickle's -max_len).

tests/fuzz/make_corpus.sh minimises these (with what a fuzz run has grown)
into tests/fuzz/corpus/. Nothing is read from outside the repository.
"""
import glob
import os
import random
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import zipfile

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = sys.argv[1]
MAX_LEN = 65536
rng = random.Random(14)


def out_dir(target):
    d = os.path.join(OUT, target)
    os.makedirs(d, exist_ok=True)
    return d


# --- safetensors: the repository's own fixtures -----------------------------
n = 0
for path in sorted(glob.glob(os.path.join(TOP, "fixtures", "**", "*.safetensors"), recursive=True)):
    if os.path.getsize(path) <= MAX_LEN:
        rel = os.path.relpath(path, os.path.join(TOP, "fixtures")).replace(os.sep, "_")
        shutil.copyfile(path, os.path.join(out_dir("safetensors"), rel))
        n += 1
print(f"safetensors: {n} seeds")

# --- GGUF: written here -----------------------------------------------------
# ggml block types: (name, id, block elements, block bytes) from the core's own list.
types = []
with open(os.path.join(TOP, "core", "include", "anamnesis", "ggml_type_list.hpp")) as f:
    for m in re.finditer(r"X\((\w+), (\d+), (\d+), (\d+), \w+, \w+\)", f.read()):
        types.append((m.group(1), int(m.group(2)), int(m.group(3)), int(m.group(4))))
# ggml's plain types (ggml.h): F32 0, F16 1, I8 24, I16 25, I32 26, I64 27, F64 28, BF16 30.
types += [("F32", 0, 1, 4), ("F16", 1, 1, 2), ("I8", 24, 1, 1), ("I16", 25, 1, 2),
          ("I32", 26, 1, 4), ("I64", 27, 1, 8), ("F64", 28, 1, 8), ("BF16", 30, 1, 2)]


def gstr(s):
    b = s.encode()
    return struct.pack("<Q", len(b)) + b


def kv(key, vtype, payload):
    return gstr(key) + struct.pack("<I", vtype) + payload


def all_kvs(alignment):
    kvs = [
        kv("general.architecture", 8, gstr("llama")),
        kv("general.name", 8, gstr("fuzz seed \u00e9")),
        kv("general.alignment", 4, struct.pack("<I", alignment)),
        kv("llama.block_count", 4, struct.pack("<I", 1)),
        kv("k.u8", 0, struct.pack("<B", 7)), kv("k.i8", 1, struct.pack("<b", -7)),
        kv("k.u16", 2, struct.pack("<H", 700)), kv("k.i16", 3, struct.pack("<h", -700)),
        kv("k.i32", 5, struct.pack("<i", -70000)), kv("k.f32", 6, struct.pack("<f", 1.5)),
        kv("k.bool", 7, struct.pack("<B", 1)), kv("k.u64", 10, struct.pack("<Q", 1 << 40)),
        kv("k.i64", 11, struct.pack("<q", -(1 << 40))), kv("k.f64", 12, struct.pack("<d", 0.25)),
        kv("tokenizer.ggml.tokens", 9, struct.pack("<IQ", 8, 3) + gstr("<s>") + gstr("a") + gstr("\u2581b")),
        kv("tokenizer.ggml.scores", 9, struct.pack("<IQ", 6, 3) + struct.pack("<3f", 0, -1, -2)),
        kv("k.nested", 9, struct.pack("<IQ", 9, 2) + struct.pack("<IQ", 4, 1) + struct.pack("<I", 5)
           + struct.pack("<IQ", 4, 0)),
    ]
    return kvs


def gguf(version, tensors, alignment=32, with_kvs=True):
    """tensors: [(name, ggml id, dims, data bytes)] laid out as ggml does."""
    kvs = all_kvs(alignment) if with_kvs else []
    if not with_kvs:
        alignment = 32
    head = b"GGUF" + struct.pack("<I", version) + struct.pack("<QQ", len(tensors), len(kvs)) + b"".join(kvs)
    offset, infos, data = 0, b"", b""
    for name, tid, dims, blob in tensors:
        infos += gstr(name) + struct.pack("<I", len(dims)) + b"".join(struct.pack("<Q", d) for d in dims)
        infos += struct.pack("<IQ", tid, offset)
        pad = -len(blob) % alignment
        data += blob + b"\0" * pad
        offset += len(blob) + pad
    head += infos
    head += b"\0" * (-len(head) % alignment)
    return head + data


def tensor(name, tid, block_elems, block_bytes, rows, blocks_per_row):
    blob = bytes(rng.getrandbits(8) for _ in range(rows * blocks_per_row * block_bytes))
    return (name, tid, [block_elems * blocks_per_row, rows], blob)


g = out_dir("gguf")
for name, tid, be, bb in types:
    blocks = 2 if be >= 32 else 16
    ts = [tensor("blk.0.attn_q.weight", tid, be, bb, 2, blocks),
          tensor("output_norm.weight", 0, 1, 4, 1, 8)]
    with open(os.path.join(g, f"{name}.gguf"), "wb") as f:
        f.write(gguf(3, ts, alignment=32))
# variants: v2, alignment 64, no key/values, no tensors, a 3-D and a zero-row tensor
q4k = next(t for t in types if t[0] == "Q4_K")
with open(os.path.join(g, "v2-align64.gguf"), "wb") as f:
    f.write(gguf(2, [tensor("token_embd.weight", 8, 32, 34, 3, 1), tensor("blk.0.ffn_up.weight", *q4k[1:], 1, 1)],
                 alignment=64))
with open(os.path.join(g, "no-kv.gguf"), "wb") as f:
    f.write(gguf(3, [tensor("a", 1, 1, 2, 2, 4)], with_kvs=False))
with open(os.path.join(g, "no-tensors.gguf"), "wb") as f:
    f.write(gguf(3, []))
blob = bytes(rng.getrandbits(8) for _ in range(2 * 3 * 4 * 4))
with open(os.path.join(g, "3d-and-empty.gguf"), "wb") as f:
    f.write(gguf(3, [("blk.0.ffn_gate_exps.weight", 0, [4, 3, 2], blob), ("empty", 0, [4, 0], b"")]))
print(f"gguf: {len(os.listdir(g))} seeds")

# --- NPY / NPZ / PyTorch / ZIP / pickle: the fixture generator ---------------
with tempfile.TemporaryDirectory() as tmp:
    subprocess.run(["/usr/bin/python3", os.path.join(TOP, "fixtures", "npz_pth", "make_npz_pth_fixtures.py"), tmp],
                   check=True, stdout=subprocess.DEVNULL)
    picks = {"npy": (".npy", ".npz"), "pth": (".pth", ".pt", ".bin"), "zip": (".zip", ".npz", ".pth", ".pt"),
             "pickle": (".pkl",)}
    for path in sorted(os.listdir(tmp)):
        full = os.path.join(tmp, path)
        if path.startswith("wide.") or not os.path.isfile(full) or os.path.getsize(full) > MAX_LEN:
            continue
        if path.endswith(".expected.safetensors"):
            continue
        for target, exts in picks.items():
            if path.endswith(exts):
                shutil.copyfile(full, os.path.join(out_dir(target), path))
        # the pickles inside PyTorch ZIP checkpoints seed the pickle machine too
        if path.endswith(".pth") and zipfile.is_zipfile(full):
            try:
                with zipfile.ZipFile(full) as z:
                    for member in z.namelist():
                        if member.endswith("data.pkl") and z.getinfo(member).file_size <= 16384:
                            with open(os.path.join(out_dir("pickle"), path + ".data.pkl"), "wb") as f:
                                f.write(z.read(member))
            except (zipfile.BadZipFile, NotImplementedError, RuntimeError):
                pass  # the deliberately broken archives
for target in ("npy", "pth", "zip", "pickle"):
    print(f"{target}: {len(os.listdir(out_dir(target)))} seeds")
