#!/bin/sh
# SPDX-License-Identifier: MIT OR Apache-2.0
# Issue 9 bench: memory of typed GGUF metadata. Writes a GGUF holding a
# 256 000-token vocabulary (tokenizer.ggml.tokens: strings of 1–16 bytes,
# tokenizer.ggml.scores: f32, tokenizer.ggml.token_type: i32) and one small
# F32 tensor, then prints wall time, CPU time and peak RSS of `amn parse`,
# `amn parse --json --kv` and `amn inspect` for each amn given (e.g. a build
# of main and a build of a branch, to compare).
# Usage: tests/bench/gguf_vocab_meta.sh [amn ...]   (default build/release/app/amn/amn)
set -eu
[ $# -gt 0 ] || set -- build/release/app/amn/amn
DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT
/usr/bin/python3 - "$DIR" <<'PY'
import os, struct, sys
import numpy as np
d = sys.argv[1]
V = 256000
rng = np.random.default_rng(9)

def s(b):
    return struct.pack("<Q", len(b)) + b

path = os.path.join(d, "vocab256k.gguf")
lens = rng.integers(1, 17, V)
letters = rng.integers(97, 123, int(lens.sum()), dtype=np.uint8).tobytes()
tokens, at = [], 0
for i, n in enumerate(lens):
    tokens.append(letters[at:at + n] + b"%d" % i)  # unique
    at += n
kv = bytearray()
kv += s(b"general.architecture") + struct.pack("<I", 8) + s(b"llama")
kv += s(b"general.name") + struct.pack("<I", 8) + s(b"vocab-256k")
kv += s(b"tokenizer.ggml.model") + struct.pack("<I", 8) + s(b"llama")
kv += s(b"tokenizer.ggml.tokens") + struct.pack("<IIQ", 9, 8, V) + b"".join(s(t) for t in tokens)
kv += s(b"tokenizer.ggml.scores") + struct.pack("<IIQ", 9, 6, V) + (-np.arange(V, dtype=np.float32) / 7).tobytes()
kv += s(b"tokenizer.ggml.token_type") + struct.pack("<IIQ", 9, 5, V) + rng.integers(1, 7, V, dtype=np.int32).tobytes()
head = b"GGUF" + struct.pack("<IQQ", 3, 1, 6) + bytes(kv)
head += s(b"output_norm.weight") + struct.pack("<IQIQ", 1, 64, 0, 0)
head += bytes((-len(head)) % 32)
with open(path, "wb") as f:
    f.write(head + np.ones(64, np.float32).tobytes())
print("file: %d tokens, %.1f MiB" % (V, os.path.getsize(path) / 2**20))

PY
# Measured with /usr/bin/time (not from the generator: a forked Python's
# pages would count in the child's peak RSS).
for amn in "$@"; do
    for args in "parse" "parse --json --kv" "inspect"; do
        # shellcheck disable=SC2086
        /usr/bin/time -f "%e %U %S %M %x" -o "$DIR/t" "$amn" $args "$DIR/vocab256k.gguf" >/dev/null 2>&1 || true
        read -r wall user sys rss code < "$DIR/t"
        printf '%-36s %-18s %5.2f s wall %5.2f s cpu %7.1f MiB peak RSS  exit %s\n' "$amn" "$args" "$wall" \
            "$(echo "$user + $sys" | bc)" "$(echo "scale=1; $rss / 1024" | bc)" "$code"
    done
done
