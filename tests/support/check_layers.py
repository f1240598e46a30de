#!/usr/bin/python3
# SPDX-License-Identifier: MIT OR Apache-2.0
"""The core's layers hold (issue 31): every #include "…" in core/src and
core/include/anamnesis goes from a folder to one the documented flow allows
(docs/architecture.md, "Layers"):

    types ← util ← source ← plan ← exec ← sink ← jobs
    kernels beside types: kernels use the types' headers (DType, Error, the
    ggml type list), and the type registries (types/*.cc, the rows that
    pair each type with its decoder and encoder) name the kernels; only
    .cc files of types/ may include kernels/
    tokenizer and arch between source and plan

A public header (anamnesis/X.hpp) belongs to the folder that implements it
(PUBLIC below); a new public header must be added there. Prints every edge
the order does not allow, with the file and line, and exits 1 if there is
one; with --graph, prints the folder graph found.

    /usr/bin/python3 tests/support/check_layers.py SOURCE_DIR [--graph]
    /usr/bin/python3 tests/support/check_layers.py --self-test   (it finds planted bad edges)
"""
import os
import re
import sys

# What each folder may include (besides itself).
ALLOWED = {
    "kernels": {"types"},
    "types": {"kernels"},  # from .cc files only (the registries' rows): REGISTRY_ONLY
    "util": {"kernels", "types"},
    "source": {"kernels", "types", "util"},
    "tokenizer": {"kernels", "types", "util", "source"},
    "arch": {"kernels", "types", "util", "source", "tokenizer"},
    "plan": {"kernels", "types", "util", "source", "tokenizer", "arch"},
    "exec": {"kernels", "types", "util", "source", "plan"},
    "sink": {"kernels", "types", "util", "source", "plan", "exec"},
    "jobs": {"kernels", "types", "util", "source", "tokenizer", "arch", "plan", "exec", "sink"},
}

# The folder each public header belongs to (where it is implemented).
PUBLIC = {
    "dtype": "types", "error": "types", "ggml_type_list": "types", "notice": "types", "quant_params": "types",
    "kernels": "kernels", "st_quantize": "kernels",
    "human_bytes": "util", "json_writer": "util",
    "mapped_file": "source", "metadata": "source", "remote": "source", "catalog": "source", "model_name": "source",
    "gguf": "source", "safetensors": "source", "npy": "source", "pth": "source", "zip": "source", "onnx": "source",
    "plan": "plan", "gguf_ftype": "plan", "repack": "plan", "gguf_split_options": "plan", "hf_layout": "plan",
    "executor": "exec",
    "npy_writer": "sink", "output_paths": "sink",
    "remember": "jobs", "forget_gguf": "jobs", "forget_st": "jobs", "gguf_split": "jobs", "hf_to_gguf": "jobs", "lora_to_gguf": "jobs", "lora_adapter": "jobs",
    "inspect": "jobs", "round_trip_estimate": "jobs", "value_stats": "jobs",
    "lethe_layers": "jobs", "remember_size": "jobs",
}

# Edges allowed from .cc files only.
REGISTRY_ONLY = {("types", "kernels")}

INCLUDE = re.compile(r'\s*#\s*include\s+"([^"]+)"')


def folder_of_include(inc, here):
    if inc.startswith("anamnesis/"):
        name = inc[len("anamnesis/"):].rsplit(".", 1)[0]
        return PUBLIC.get(name, "?" + name)
    top = inc.split("/")[0]
    if "/" not in inc:
        return here  # beside the including file
    if top in ALLOWED:
        return top
    # Highway includes inside kernels/ name files by their path below kernels/
    return "kernels" if here == "kernels" else "?" + inc


def self_test():
    """The checker finds a bad edge in a tree made for it (it can fail)."""
    import subprocess
    import tempfile
    with tempfile.TemporaryDirectory() as t:
        for rel, text in (("core/src/plan/p.cc", '#include "jobs/j.hpp"\n'), ("core/src/jobs/j.hpp", "\n"),
                          ("core/src/types/t.hpp", '#include "kernels/k.hpp"\n'), ("core/src/kernels/k.hpp", "\n"),
                          ("core/include/anamnesis/plan.hpp", '#include "anamnesis/forget_gguf.hpp"\n'),
                          ("core/include/anamnesis/forget_gguf.hpp", "\n")):
            os.makedirs(os.path.dirname(os.path.join(t, rel)), exist_ok=True)
            with open(os.path.join(t, rel), "w") as f:
                f.write(text)
        r = subprocess.run([sys.executable, __file__, t], capture_output=True, text=True)
        want = ["plan → jobs", "types → kernels", "plan → jobs (#include \"anamnesis/forget_gguf.hpp\")"]
        missing = [w for w in want if w not in r.stdout]
        if r.returncode != 1 or missing:
            print("self-test: the checker missed", missing or "the exit code", "\n" + r.stdout)
            return 1
    print("self-test: three bad edges found")
    return 0


def main():
    if sys.argv[1] == "--self-test":
        return self_test()
    src_dir = sys.argv[1]
    graph = "--graph" in sys.argv
    core = os.path.join(src_dir, "core")
    files = []
    for base, owner in ((os.path.join(core, "src"), None), (os.path.join(core, "include", "anamnesis"), "public")):
        for d, _, names in os.walk(base):
            for n in names:
                if n.endswith((".cc", ".hpp", ".h", ".inc")):
                    files.append((os.path.join(d, n), owner))
    bad, edges, unknown = [], {}, []
    for path, owner in files:
        if owner == "public":
            name = os.path.basename(path).rsplit(".", 1)[0]
            here = PUBLIC.get(name)
            if here is None:
                unknown.append(path)
                continue
        else:
            here = os.path.relpath(path, os.path.join(core, "src")).split(os.sep)[0]
            if here not in ALLOWED:
                unknown.append(path)
                continue
        with open(path, encoding="utf-8", errors="replace") as f:
            for no, line in enumerate(f, 1):
                m = INCLUDE.match(line)
                if not m:
                    continue
                to = folder_of_include(m.group(1), here)
                if to == here:
                    continue
                edges.setdefault((here, to), 0)
                edges[(here, to)] += 1
                if to not in ALLOWED.get(here, set()) or ((here, to) in REGISTRY_ONLY and not path.endswith(".cc")):
                    bad.append(f"{os.path.relpath(path, src_dir)}:{no}: {here} → {to} (#include \"{m.group(1)}\")")
    if graph:
        for (a, b), n in sorted(edges.items()):
            print(f"{a} → {b}  ({n})")
    for u in unknown:
        print(f"{os.path.relpath(u, src_dir)}: not in a known folder (add it to ALLOWED or PUBLIC in {sys.argv[0]})")
    for b in bad:
        print(b)
    if bad or unknown:
        print(f"{len(bad)} include(s) against the layers, {len(unknown)} file(s) of no known layer")
        return 1
    print(f"layers hold: {sum(edges.values())} include(s) between folders, all allowed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
