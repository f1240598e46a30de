#!/usr/bin/python3
"""Tiny PEFT LoRA adapter folders for `amn convert ADAPTER --to gguf[:T] --base BASE`, and what
llama.cpp's convert_lora_to_gguf.py (34af94c) writes for them: tests/core/hf_lora_reference.json
(per case: the sha256 of the whole file per --outtype f32 / f16 / bf16 / q8_0).

  hf_lora_models.py OUT --shared SHARED_FIXTURES [--inputs-only] [--cases A,B] [--bad]
      [--llama-cpp /work/llama/src --shim /tmp/hf_shim] [--write-reference FILE]

--bad also writes OUT/bad/<name>/: the first case's adapter broken one way each (BAD below) and
OUT/bases/FooBase (an architecture no converter knows), for the refusals.

Writes OUT/bases/<base>/config.json (the converter reads only the base's config.json) and
OUT/<case>/ laid out as PEFT's save_pretrained leaves an adapter:
- adapter_config.json: LoraConfig.to_dict() as PEFT 0.1x serializes it (json.dump, indent 2,
  sorted keys), with peft_type "LORA", task_type "CAUSAL_LM", r, lora_alpha, target_modules;
- adapter_model.safetensors: `base_model.model.<module path>.lora_A.weight` [r, in] and
  `.lora_B.weight` [out, r] for every target module of every layer, in the training dtype,
  `__metadata__` {"format": "pt"}, tensors in name order (safetensors' serialization order);
- README.md: PEFT's model card front matter (base_model, library_name: peft) for one case;
- one case saved as adapter_model.bin (torch.save, save_pretrained(safe_serialization=False)).
Values: 0.02·N(0,1) (lora_B 0.01·N), numpy RandomState seeded from sha256("<case>/<tensor>").

Bases: Llama-2-7b-hf (llama, 4 heads: Q and K permuted), Meta-Llama-3-8B-Instruct (llama, GQA:
K permuted with 2 KV heads), Qwen3-0.6B (qwen3, head_dim 16) — config.json of the shared
hf-gguf fixtures —, Qwen2.5-0.5B (qwen2; tests/core/hf_arch_dense.py's config) and Qwen3-30B-A3B
(qwen3moe, 4 experts: every expert's gate/up/down adapted, stacked into 3-D lora_a/lora_b;
tests/core/hf_arch_moe.py's config).

--write-reference runs convert_lora_to_gguf.py from --llama-cpp through the transformers
stand-in of --shim (sys.path first, as its run_convert.py does). Debian has no `safetensors`
Python package: a stand-in `safetensors.torch.load_file` (numpy reader; keys in name order
like safetensors' own) is put on sys.path for that run only.
"""
import argparse
import hashlib
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from hf_arch_dense import qwen2  # noqa: E402
from hf_arch_moe import qwen3moe  # noqa: E402
from hf_arch_models import to_bf16_bytes  # noqa: E402

OUTTYPES = ["f32", "f16", "bf16", "q8_0"]
ATTN = ["q_proj", "k_proj", "v_proj", "o_proj"]
MLP = ["gate_proj", "up_proj", "down_proj"]

# case: (base, dtype, r, lora_alpha, target_modules, extra): extra "readme" = PEFT's README.md model card,
# "bin" = adapter_model.bin (torch.save of the state dict in reverse name order: the converter keeps
# the dict's order) instead of adapter_model.safetensors, "mergekit" = also what mergekit-extract-lora
# adds: token embeddings as lora_embedding_A [r, vocab] / lora_embedding_B [hidden, r] (→ token_embd,
# lora_a transposed), norms saved whole (written as they are), a `.base_layer.weight` (skipped);
# "all-linears": every 2-D linear of the decoder layers of tests/core/hf_arch_models.py's case `base`
# adapted (target_modules as PEFT's "all-linear"), for the rows whose class reshapes them; "alora" = an
# activated LoRA (adapter_config.json's alora_invocation_tokens → adapter.alora.invocation_tokens).
CASES = {
    "Llama-2-7b-sql-lora": ("Llama-2-7b-hf", "F32", 8, 16, ["q_proj", "k_proj", "v_proj", "o_proj"], ""),
    "Llama-3-8B-Instruct-chat-LoRA": ("Meta-Llama-3-8B-Instruct", "BF16", 4, 8, ATTN + MLP, "readme"),
    "Qwen2.5-0.5B-lora": ("Qwen2.5-0.5B", "F16", 16, 32, ["q_proj", "v_proj"], ""),
    "Llama-2-7b-mergekit-lora": ("Llama-2-7b-hf", "F32", 8, 8, ["v_proj", "down_proj"], "mergekit"),
    "gpt2-lora": ("gpt2", "F32", 8, 16, [], "all-linears"),                         # Conv1D: transposed
    "ERNIE-4.5-0.3B-lora": ("ERNIE-4.5-0.3B", "F32", 8, 16, [], "all-linears"),     # fused qkv / up_gate cut
    "falcon-40b-lora": ("falcon-40b", "F32", 8, 16, [], "all-linears"),             # query_key_value regrouped
    "internlm2-chat-1_8b-lora": ("internlm2-chat-1_8b", "F32", 8, 16, [], "all-linears"),  # wqkv regrouped, split
    "Qwen3-0.6B-alora": ("Qwen3-0.6B", "F16", 8, 16, ["q_proj", "v_proj"], "alora"),
    "Qwen2.5-0.5B-pt-lora": ("Qwen2.5-0.5B", "F16", 8, 8, ["k_proj", "o_proj"], "bin"),
    "Qwen3-0.6B-math-lora": ("Qwen3-0.6B", "F32", 32, 64, ATTN + MLP, ""),
    "Qwen3-30B-A3B-experts-lora": ("Qwen3-30B-A3B", "BF16", 8, 16, ["q_proj", "k_proj"] + MLP, ""),
}


def arch_case(base):
    import hf_arch_models
    return hf_arch_models.CASES[base](base)


def base_config(base, shared):
    if CASES_BY_BASE.get(base) == "all-linears":
        return arch_case(base)[0]
    if base == "Qwen2.5-0.5B":
        return qwen2(base)[0]
    if base == "Qwen3-30B-A3B":
        return qwen3moe(base)[0]
    with open(os.path.join(shared, "hf-gguf", "inputs", base, "config.json")) as f:
        return json.load(f)


CASES_BY_BASE = {v[0]: v[5] for v in CASES.values()}


def all_linears(base):
    """{HF module path: (out, in)} of every 2-D weight of the decoder layers (no norms, embeddings, routers)."""
    out = {}
    for n, s in arch_case(base)[1].items():
        if len(s) != 2 or not n.endswith(".weight") or "norm" in n or "embed" in n or n.endswith("mlp.gate.weight"):
            continue
        if any(k in n for k in ("layers.", "h.", "layer.")):
            out[n[:-len(".weight")]] = tuple(s)
    return out


def module_shapes(cfg, module):
    """(out, in) of a linear of one decoder layer."""
    h, nh = cfg["hidden_size"], cfg["num_attention_heads"]
    nkv = cfg.get("num_key_value_heads") or nh
    hd = cfg.get("head_dim") or h // nh
    ff = cfg.get("moe_intermediate_size") or cfg["intermediate_size"]
    return {"q_proj": (nh * hd, h), "k_proj": (nkv * hd, h), "v_proj": (nkv * hd, h), "o_proj": (h, nh * hd),
            "gate_proj": (ff, h), "up_proj": (ff, h), "down_proj": (h, ff)}[module]


def rand(case, name, shape, scale):
    seed = int.from_bytes(hashlib.sha256(f"{case}/{name}".encode()).digest()[:4], "little")
    return (np.random.RandomState(seed).standard_normal(shape) * scale).astype(np.float32)


def write_safetensors(path, tensors, dtype):
    header, off, blobs = {}, 0, []
    for name in sorted(tensors):
        a = np.ascontiguousarray(tensors[name], dtype=np.float32)
        b = to_bf16_bytes(a) if dtype == "BF16" else a.astype(np.float16).tobytes() if dtype == "F16" else a.tobytes()
        header[name] = {"dtype": dtype, "shape": list(a.shape), "data_offsets": [off, off + len(b)]}
        blobs.append(b)
        off += len(b)
    header["__metadata__"] = {"format": "pt"}
    h = json.dumps(header, separators=(",", ":")).encode()
    h += b" " * (-len(h) % 8)  # safetensors pads the header to 8 bytes
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(h)) + h)
        for b in blobs:
            f.write(b)


def adapter_config(base, r, alpha, targets):
    # LoraConfig fields as PEFT writes them (save_pretrained → to_dict → json, sorted keys).
    return {
        "alpha_pattern": {}, "auto_mapping": None, "base_model_name_or_path": base, "bias": "none",
        "fan_in_fan_out": False, "inference_mode": True, "init_lora_weights": True, "layer_replication": None,
        "layers_pattern": None, "layers_to_transform": None, "loftq_config": {}, "lora_alpha": alpha,
        "lora_dropout": 0.05, "megatron_config": None, "megatron_core": "megatron.core", "modules_to_save": None,
        "peft_type": "LORA", "r": r, "rank_pattern": {}, "revision": None, "target_modules": sorted(targets),
        "task_type": "CAUSAL_LM", "use_dora": False, "use_rslora": False,
    }


def make_case(out, shared, case):
    base, dtype, r, alpha, targets, extra = CASES[case]
    cfg = base_config(base, shared)
    bd = os.path.join(out, "bases", base)
    os.makedirs(bd, exist_ok=True)
    with open(os.path.join(bd, "config.json"), "w") as f:
        json.dump(cfg, f, indent=2)
        f.write("\n")
    d = os.path.join(out, case)
    os.makedirs(d, exist_ok=True)
    if extra == "all-linears":
        targets = sorted({m.rsplit(".", 1)[1] for m in all_linears(base)})
    ac = adapter_config(base, r, alpha, targets)
    if extra == "alora":
        ac["alora_invocation_tokens"] = [151644, 872, 198]
    with open(os.path.join(d, "adapter_config.json"), "w") as f:
        json.dump(ac, f, indent=2, sort_keys=True)
    tensors = {}
    if extra == "all-linears":
        for mod, (o, n) in all_linears(base).items():
            p = "base_model.model." + mod
            tensors[p + ".lora_A.weight"] = rand(case, p + ".lora_A.weight", (r, n), 0.02)
            tensors[p + ".lora_B.weight"] = rand(case, p + ".lora_B.weight", (o, r), 0.01)
    for i in range(0 if extra == "all-linears" else cfg["num_hidden_layers"]):
        for m in targets:
            part = "self_attn" if m in ATTN else "mlp"
            experts = [f".experts.{x}" for x in range(cfg["num_experts"])] if part == "mlp" and cfg.get("num_experts") else [""]
            for e in experts:
                p = f"base_model.model.model.layers.{i}.{part}{e}.{m}"
                o, n = module_shapes(cfg, m)
                tensors[p + ".lora_A.weight"] = rand(case, p + ".lora_A.weight", (r, n), 0.02)
                tensors[p + ".lora_B.weight"] = rand(case, p + ".lora_B.weight", (o, r), 0.01)
    if extra == "mergekit":
        p = "base_model.model.model."
        for name, shape in ((p + "embed_tokens.lora_embedding_A", (r, cfg["vocab_size"])),
                            (p + "embed_tokens.lora_embedding_B", (cfg["hidden_size"], r)),
                            (p + "layers.0.input_layernorm.weight", (cfg["hidden_size"],)), (p + "norm.weight", (cfg["hidden_size"],)),
                            (p + "layers.1.mlp.down_proj.base_layer.weight", (cfg["hidden_size"], cfg["intermediate_size"]))):
            tensors[name] = rand(case, name, shape, 0.02)
    if extra == "bin":
        import torch
        tt = {"F32": torch.float32, "F16": torch.float16, "BF16": torch.bfloat16}[dtype]
        torch.save({k: torch.from_numpy(tensors[k]).to(tt) for k in sorted(tensors, reverse=True)},
                   os.path.join(d, "adapter_model.bin"))
    else:
        write_safetensors(os.path.join(d, "adapter_model.safetensors"), tensors, dtype)
    if extra == "readme":
        with open(os.path.join(d, "README.md"), "w") as f:
            f.write(f"---\nbase_model: meta-llama/{base}\nlibrary_name: peft\n---\n\n# Model Card for Model ID\n")
    return d, bd


def read_safetensors(path):
    with open(path, "rb") as f:
        n = struct.unpack("<Q", f.read(8))[0]
        h = json.loads(f.read(n))
        data = f.read()
    out = {}
    for k, t in h.items():
        if k == "__metadata__":
            continue
        a, b = t["data_offsets"]
        assert t["dtype"] == "F32"
        out[k] = np.frombuffer(data[a:b], dtype=np.float32).reshape(t["shape"])
    return out


# name: (adapter_config.json changes, tensor edit)
def _drop_b(t):
    del t["base_model.model.model.layers.1.self_attn.v_proj.lora_B.weight"]


def _rank(t):
    k = "base_model.model.model.layers.0.self_attn.k_proj.lora_B.weight"
    t[k] = np.zeros((t[k].shape[0], t[k].shape[1] + 1), np.float32)


def _lm_head(t):
    t["base_model.model.lm_head.weight"] = np.zeros((32000, 32), np.float32)


def _foo(t):
    t["base_model.model.model.layers.0.self_attn.foo_proj.lora_A.weight"] = np.zeros((8, 32), np.float32)
    t["base_model.model.model.layers.0.self_attn.foo_proj.lora_B.weight"] = np.zeros((32, 8), np.float32)


def _magnitude(t):
    t["base_model.model.model.layers.0.self_attn.q_proj.lora_magnitude_vector"] = np.ones((32,), np.float32)


BAD = {
    "dora": ({"use_dora": True}, _magnitude),
    "prefix-tuning": ({"peft_type": "PREFIX_TUNING"}, None),
    "alpha-pattern": ({"alpha_pattern": {"q_proj": 32}}, None),
    "no-alpha": ({"lora_alpha": None}, None),
    "lonely-lora-a": ({}, _drop_b),
    "rank-mismatch": ({}, _rank),
    "modules-to-save": ({"modules_to_save": ["lm_head"]}, _lm_head),
    "unknown-module": ({}, _foo),
}


def make_bad(out, shared):
    first = next(iter(CASES))
    good, _ = make_case(out, shared, first)
    for name, (cfg_changes, edit) in BAD.items():
        d = os.path.join(out, "bad", name)
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(good, "adapter_config.json")) as f:
            cfg = json.load(f)
        for k, v in cfg_changes.items():
            if v is None:
                del cfg[k]
            else:
                cfg[k] = v
        with open(os.path.join(d, "adapter_config.json"), "w") as f:
            json.dump(cfg, f, indent=2, sort_keys=True)
        t = read_safetensors(os.path.join(good, "adapter_model.safetensors"))
        if edit:
            edit(t)
        write_safetensors(os.path.join(d, "adapter_model.safetensors"), t, "F32")
    foo = os.path.join(out, "bases", "FooBase")
    os.makedirs(foo, exist_ok=True)
    cfg = base_config("Llama-2-7b-hf", shared)
    cfg["architectures"] = ["FooForCausalLM"]
    with open(os.path.join(foo, "config.json"), "w") as f:
        json.dump(cfg, f, indent=2)


# The stand-in safetensors.torch for the reference run (Debian has no safetensors package).
STANDIN = '''
import json, struct
import numpy as np
import torch
_DT = {"F32": np.float32, "F16": np.float16, "BF16": np.uint16}
def load_file(path, device="cpu"):
    with open(path, "rb") as f:
        n = struct.unpack("<Q", f.read(8))[0]
        h = json.loads(f.read(n))
        data = f.read()
    out = {}
    for k in sorted(x for x in h if x != "__metadata__"):
        t = h[k]
        a, b = t["data_offsets"]
        v = np.frombuffer(data[a:b], dtype=_DT[t["dtype"]]).reshape(t["shape"]).copy()
        x = torch.from_numpy(v.astype(np.int16)).view(torch.bfloat16) if t["dtype"] == "BF16" else torch.from_numpy(v)
        out[k] = x
    return out
'''

RUNNER = '''
import runpy, sys
sys.path.insert(0, sys.argv[1])          # stand-in safetensors
sys.path.insert(0, sys.argv[2])          # hf_shim: transformers stand-in and run_convert's helpers
import run_convert as rc
import torch
llama = sys.argv[3]
sys.path.insert(0, llama)
if not hasattr(torch, "float8_e4m3fn"):
    torch.float8_e4m3fn = torch.uint8
if not hasattr(torch, "float8_e5m2"):
    torch.float8_e5m2 = torch.uint8
rc._add_dtype_itemsize()
sys.argv = [llama + "/convert_lora_to_gguf.py", *sys.argv[4:]]
runpy.run_path(llama + "/convert_lora_to_gguf.py", run_name="__main__")
'''


def convert(adapter, base, outtype, out_file, llama_cpp, shim):
    """Runs the converter; out_file None: its default output (in the adapter folder), whose name is returned."""
    tmp = tempfile.mkdtemp(prefix="lora-ref-")
    try:
        os.makedirs(os.path.join(tmp, "safetensors"))
        with open(os.path.join(tmp, "safetensors", "__init__.py"), "w") as f:
            f.write("")
        with open(os.path.join(tmp, "safetensors", "torch.py"), "w") as f:
            f.write(STANDIN)
        with open(os.path.join(tmp, "runner.py"), "w") as f:
            f.write(RUNNER)
        before = set(os.listdir(adapter))
        subprocess.run(["/usr/bin/python3", os.path.join(tmp, "runner.py"), tmp, shim, llama_cpp, os.path.basename(adapter),
                        "--base", base, "--outtype", outtype] + (["--outfile", out_file] if out_file else []),
                       cwd=os.path.dirname(adapter), check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        if out_file is None:
            made = sorted(set(os.listdir(adapter)) - before)
            for m in made:
                os.remove(os.path.join(adapter, m))
            return made[0]
    finally:
        shutil.rmtree(tmp)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--shared", required=True)
    ap.add_argument("--inputs-only", action="store_true")
    ap.add_argument("--llama-cpp", default="/work/llama/src")
    ap.add_argument("--shim", default="/tmp/hf_shim")
    ap.add_argument("--write-reference")
    ap.add_argument("--cases")
    ap.add_argument("--bad", action="store_true")
    a = ap.parse_args()
    todo = a.cases.split(",") if a.cases else list(CASES)
    ref = {"converter": "llama.cpp convert_lora_to_gguf.py 34af94c", "cases": {}}
    if a.write_reference and os.path.exists(a.write_reference):
        with open(a.write_reference) as f:
            ref = json.load(f)
    for case in todo:
        d, bd = make_case(a.out, a.shared, case)
        if a.inputs_only:
            continue
        shas = {}
        for t in OUTTYPES:
            o = os.path.join(a.out, f"{case}.{t}.gguf")
            convert(d, bd, t, o, a.llama_cpp, a.shim)
            with open(o, "rb") as f:
                shas[t] = hashlib.sha256(f.read()).hexdigest()
            print(case, t, shas[t])
        default_name = convert(d, bd, "f16", None, a.llama_cpp, a.shim)
        base, dtype, r, alpha, targets, extra = CASES[case]
        ref["cases"][case] = {"base": base, "dtype": dtype, "r": r, "lora_alpha": alpha, "sha256": shas,
                              "default_name_f16": default_name}
    if a.bad:
        make_bad(a.out, a.shared)
    if a.write_reference:
        ref["cases"] = {c: ref["cases"][c] for c in CASES if c in ref["cases"]}
        with open(a.write_reference, "w") as f:
            json.dump(ref, f, indent=1)
            f.write("\n")


if __name__ == "__main__":
    main()
