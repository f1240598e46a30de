#!/usr/bin/python3
# SPDX-License-Identifier: MIT OR Apache-2.0
"""Does `amn parse --json MODEL.onnx` list exactly the initializers
`onnx.load` finds? For every .onnx file under each PATH (a file or a folder,
searched recursively): the set of (name, dtype, shape) of amn's "tensors"
must equal the set of onnx.load(MODEL, load_external_data=False).graph.
initializer's (name, dtype in amn's names, dims) — none of the Constant-node
tensors, none for a graph without initializers. python3-onnx is the
independent reader; the only shared fact is the table of dtype names below
(ONNX TensorProto.DataType → amn's safetensors-style names).
Prints one line per failing model and "N models ok, M failed"; exit 1 on a
failure or when no model was found.

usage: onnx_parse_check.py AMN PATH... [--jobs N]
"""
import concurrent.futures
import json
import os
import subprocess
import sys

import onnx

# onnx.proto TensorProto.DataType → amn's dtype names (core/include/anamnesis/onnx.hpp).
AMN_NAMES = {1: "F32", 2: "U8", 3: "I8", 4: "U16", 5: "I16", 6: "I32", 7: "I64", 8: "STRING", 9: "BOOL",
             10: "F16", 11: "F64", 12: "U32", 13: "U64", 14: "C64", 15: "C128", 16: "BF16", 17: "F8_E4M3",
             18: "F8_E4M3FNUZ", 19: "F8_E5M2", 20: "F8_E5M2FNUZ", 21: "U4", 22: "I4", 23: "F4", 24: "F8_E8M0",
             25: "U2", 26: "I2"}


def expected(path):
    m = onnx.load(path, load_external_data=False)
    return {(t.name, AMN_NAMES.get(t.data_type, f"ONNX type {t.data_type}"), tuple(t.dims)) for t in m.graph.initializer}


def check(amn, path):
    try:
        want = expected(path)
    except Exception as e:  # noqa: BLE001 — a file onnx itself cannot load is no test of amn
        return None, f"onnx.load failed: {e}"
    r = subprocess.run([amn, "parse", "--json", path], capture_output=True, text=True, timeout=120)
    if r.returncode != 0:
        return False, f"amn exit {r.returncode}: {r.stderr.strip()[:300]}"
    have = {(t["name"], t["dtype"], tuple(t["shape"])) for t in json.loads(r.stdout)["tensors"]}
    if have != want:
        return False, f"missing {sorted(want - have)[:3]} extra {sorted(have - want)[:3]}"
    return True, len(want)


def main():
    args = sys.argv[1:]
    jobs = 2
    if "--jobs" in args:
        i = args.index("--jobs")
        jobs = int(args[i + 1])
        del args[i:i + 2]
    amn, paths = args[0], args[1:]
    models = []
    for p in paths:
        if os.path.isfile(p):
            models.append(p)
        for root, _, files in os.walk(p):
            models += [os.path.join(root, f) for f in files if f.endswith(".onnx")]
    models.sort()
    ok = bad = skipped = tensors = 0
    with concurrent.futures.ThreadPoolExecutor(jobs) as ex:
        for path, (res, info) in zip(models, ex.map(lambda m: check(amn, m), models)):
            if res is None:
                skipped += 1
                print(f"skip {path}: {info}")
            elif res:
                ok += 1
                tensors += info
            else:
                bad += 1
                print(f"FAIL {path}: {info}")
    print(f"{ok} models ok ({tensors} initializers), {bad} failed, {skipped} not loadable by onnx")
    sys.exit(0 if bad == 0 and ok > 0 else 1)


if __name__ == "__main__":
    main()
