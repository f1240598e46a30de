#!/usr/bin/python3
# SPDX-License-Identifier: MIT OR Apache-2.0
"""Reference for test_general_kvs: gguf-py's own code, run on request.

  general_kvs_reference.py GGUF_PY ids TOTAL ID...
      Metadata.get_model_id_components(id, TOTAL) and id_to_title of the
      name and organization, one JSON object per id (a JSON list).
  general_kvs_reference.py GGUF_PY sizes COUNT...
      model_weight_count_rounded_notation(COUNT) and size_label for a few
      expert splits of COUNT (a JSON list).
  general_kvs_reference.py GGUF_PY folders SPEC.json
      SPEC: [{"dir", "total", "shared", "expert", "expert_count",
      "model_name", "outtype"}]. For each folder: what conversion/base.py
      ModelBase.prepare_metadata does (Metadata.load, the name fallback, the
      size label, set_type, set_gguf_meta_model) on a GGUFWriter, every KV
      packed by the writer (so its failures show), and the default file name
      (TextModel.prepare_metadata). Output: a JSON list of
      {"kvs": [[key, type, value]...]} or {"error": text}, plus "fname" or
      "fname_error". Floats are given as the hex of their little-endian f32.
"""
import json
import struct
import sys
from pathlib import Path

sys.path.insert(0, sys.argv[1])
import logging  # noqa: E402

logging.disable(logging.CRITICAL)
import gguf  # noqa: E402
from gguf.metadata import Metadata  # noqa: E402
from gguf.utility import model_weight_count_rounded_notation, naming_convention, size_label  # noqa: E402


def opt(v):
    return v


def ids(total, names):
    out = []
    for n in names:
        full, org, base, fine, ver, size = Metadata.get_model_id_components(n, total)
        out.append({"id": n, "full": full, "org": org, "basename": base, "finetune": fine, "version": ver,
                    "size_label": size, "title": Metadata.id_to_title(full) if full is not None else None,
                    "org_title": Metadata.id_to_title(org) if org is not None else None})
    return out


def sizes(counts):
    out = []
    for c in counts:
        out.append({"count": c, "notation": model_weight_count_rounded_notation(c),
                    "notation3": model_weight_count_rounded_notation(c, min_digits=3),
                    "plain": size_label(c, c, 0, 0),
                    "moe": size_label(c, c // 4, c // 16, 8)})
    return out


def value_json(v, t, sub=None):
    T = gguf.GGUFValueType
    if t == T.STRING:
        return v if isinstance(v, str) else None
    if t == T.FLOAT32:
        return struct.pack("<f", v).hex()
    if t in (T.INT32, T.UINT32):
        return int(v)
    if t == T.BOOL:
        return bool(v)
    if t == T.ARRAY:
        lt = T.get_type(v[0])
        return {"type": lt.name, "items": [value_json(i, lt) for i in v]}
    raise ValueError(t)


def folder(spec):
    res = {}
    try:
        path = Path(spec["dir"])
        total = spec["total"]
        meta = Metadata.load(None, path, spec.get("model_name"), total)
        if meta.name is None:
            meta.name = path.name
        if meta.size_label is None and total > 0:
            meta.size_label = size_label(total, spec["shared"], spec["expert"], spec["expert_count"])
        w = gguf.GGUFWriter(None, "llama")
        w.add_type(gguf.GGUFType.MODEL)
        meta.set_gguf_meta_model(w)
        kvs = []
        for k, v in w.kv_data[0].items():
            if k == "general.architecture":
                continue
            w._pack_val(v.value, v.type, add_vtype=True, sub_type=v.sub_type)  # the writer's own checks
            kvs.append([k, v.type.name, value_json(v.value, v.type)])
        res["kvs"] = kvs
    except Exception as e:  # noqa: BLE001
        res["error"] = f"{type(e).__name__}: {e}"
        return res
    try:
        res["fname"] = naming_convention(meta.name, meta.basename, meta.finetune, meta.version, meta.size_label,
                                         spec["outtype"], model_type="LoRA" if total < 0 else None) + ".gguf"
    except Exception as e:  # noqa: BLE001
        res["fname_error"] = f"{type(e).__name__}: {e}"
    return res


def main():
    mode = sys.argv[2]
    if mode == "ids":
        out = ids(int(sys.argv[3]), sys.argv[4:])
    elif mode == "sizes":
        out = sizes([int(c) for c in sys.argv[3:]])
    elif mode == "folders":
        with open(sys.argv[3], encoding="utf-8") as f:
            out = [folder(s) for s in json.load(f)]
    elif mode == "naming":
        # naming ARGS.json: [[name, basename, finetune, version, size_label, outtype]...]
        with open(sys.argv[3], encoding="utf-8") as f:
            out = [naming_convention(*a) + ".gguf" for a in json.load(f)]
    else:
        raise SystemExit("unknown mode")
    json.dump(out, sys.stdout, ensure_ascii=False)


main()
