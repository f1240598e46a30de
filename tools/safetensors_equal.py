#!/usr/bin/python3
# SPDX-License-Identifier: MIT OR Apache-2.0
"""Are two safetensors files equal tensor by tensor (names, dtypes, shapes,
bytes)? Header layout and tensor order may differ. Standard library only.
Exit 0 when equal; 1 with a line per difference otherwise."""
import json
import struct
import sys


def read(path):
    with open(path, "rb") as f:
        data = f.read()
    (n,) = struct.unpack("<Q", data[:8])
    header = json.loads(data[8:8 + n])
    base = 8 + n
    out = {}
    for name, t in header.items():
        if name == "__metadata__":
            continue
        b, e = t["data_offsets"]
        out[name] = (t["dtype"], t["shape"], data[base + b:base + e])
    return out


def main():
    a, b = read(sys.argv[1]), read(sys.argv[2])
    bad = []
    for name in sorted(set(a) | set(b)):
        if name not in a or name not in b:
            bad.append(f"{name}: only in {'first' if name in a else 'second'} file")
        elif a[name][:2] != b[name][:2]:
            bad.append(f"{name}: {a[name][0]}{a[name][1]} vs {b[name][0]}{b[name][1]}")
        elif a[name][2] != b[name][2]:
            bad.append(f"{name}: bytes differ")
    for line in bad:
        print(line)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
