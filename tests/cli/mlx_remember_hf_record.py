#!/usr/bin/python3
# SPDX-License-Identifier: MIT OR Apache-2.0
"""Records tests/cli/data/mlx_remember_hf_reference.json: what `amn remember
MLX_DIR --layout hf` must write for MLX MoE folders the real
`python3 -m mlx_lm convert` made from tiny Hugging Face MoE folders
(`mlx_folders.py --hf`, the shared Mixtral fixture): every tensor of the
Hugging Face layout (name, dtype, shape, sha256 of its bytes).

* quantized (`-q ...`): each quantized module dequantized with MLX's own
  `mx.dequantize` (its per-module parameters from config.json's
  `quantization`), each switch_mlp stack [E, out, in] cut into its E experts
  under the model type's transformers names; the other tensors as stored.
  `model_sha256` = sha256 of mlx_lm's model.safetensors (amn forget writes
  the same bytes: mlx_convert_moe_reference.json).
* unquantized (no `-q`, `--dtype` = the stored dtype): `mlx_tensors` = every
  tensor mlx_lm wrote (the stacks), so a test can rebuild that folder
  (`mlx_folders.py --stack`) and prove it holds the same tensors; the Hugging
  Face layout must then be the original folder's tensors byte for byte
  (checked against the folder itself, not recorded).

usage: PYTHONPATH=/work/mlx/pyenv/site:/work/mlx/pyenv/stubs:/work/mlx/mlx-lm \\
       mlx_remember_hf_record.py SHARED_FIXTURES WORK_DIR > tests/cli/data/mlx_remember_hf_reference.json
"""
import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import mlx.core as mx
import numpy as np

HERE = Path(__file__).resolve().parent
# (input, mlx_lm.convert options, amn forget options that write the same folder or None)
CASES = [
    ("hf:qwen3_moe-f32", ["-q", "--q-bits", "4"], ["--to", "mlx"]),
    ("hf:qwen2_moe-f16", ["-q", "--q-bits", "3", "--q-group-size", "32"], ["--to", "mlx:3", "--group-size", "32"]),
    ("fixture:Mixtral-8x7B-v0.1", ["-q", "--q-bits", "4"], ["--to", "mlx"]),
    ("hf:olmoe-bf16", ["-q", "--q-bits", "4"], ["--to", "mlx"]),
    ("hf:deepseek_v2-f32", ["-q", "--q-bits", "4"], ["--to", "mlx"]),
    ("hf:deepseek_v3-f32", ["-q", "--q-bits", "4"], ["--to", "mlx"]),
    ("hf:deepseek_v3-f32", ["-q", "--q-bits", "8", "--q-group-size", "32"], ["--to", "mlx:8", "--group-size", "32"]),
    # gpt_oss (its original MXFP4 checkpoint): the experts back in transformers' dequantized layout (GptOssExperts:
    # gate_up_proj [E, H, 2·I] with gate/up columns interleaved, down_proj [E, I, H], the biases interleaved).
    ("hf:gpt_oss-mxfp4", ["-q", "--q-bits", "4"], ["--to", "mlx"]),
    ("hf:gpt_oss-mxfp4", ["-q", "--q-bits", "8", "--q-group-size", "32"], ["--to", "mlx:8", "--group-size", "32"]),
    ("hf:qwen3_moe-f32", ["--dtype", "float32"], None),
    ("hf:qwen2_moe-f16", ["--dtype", "float16"], None),
    ("hf:deepseek_v3-f32", ["--dtype", "float32"], None),
]
MIXTRAL = {"gate_proj": "w1", "down_proj": "w2", "up_proj": "w3"}
DTYPES = {mx.bfloat16: ("BF16", mx.uint16), mx.float16: ("F16", None), mx.float32: ("F32", None), mx.uint32: ("U32", None)}


def digest(a):
    name, view = DTYPES[a.dtype]
    raw = np.array(a.view(view) if view is not None else a).tobytes()
    return [name, list(a.shape), hashlib.sha256(raw).hexdigest()]


def hf_layout(folder: Path):
    """name → [dtype, shape, sha256] of hf_arrays(folder), sorted by name."""
    return {k: digest(a) for k, a in sorted(hf_arrays(folder).items())}


def hf_arrays(folder: Path):
    """The Hugging Face layout of an MLX folder as MLX arrays: quantized modules through mx.dequantize, switch_mlp
    stacks cut per expert, deepseek_v3's embed_q / unembed_out joined into kv_b_proj."""
    cfg = json.loads((folder / "config.json").read_text())
    q = cfg.get("quantization")
    tensors = {}
    for f in sorted(folder.glob("*.safetensors")):
        tensors.update(mx.load(str(f)))
    out, mats = {}, {}
    for k, a in tensors.items():
        path = k[: -len(".weight")] if k.endswith(".weight") else None
        if k.endswith((".scales", ".biases")) and k.rsplit(".", 1)[0] + ".weight" in tensors and \
                k.rsplit(".", 1)[0] + ".scales" in tensors:
            continue
        if path and path + ".scales" in tensors:
            p = q.get(path) if isinstance(q.get(path), dict) else q
            a = mx.dequantize(a, tensors[path + ".scales"], tensors.get(path + ".biases"), group_size=p["group_size"],
                              bits=p["bits"], mode=p.get("mode", "affine"))
        if k.endswith((".self_attn.embed_q.weight", ".self_attn.unembed_out.weight")):
            mats[k] = a
        elif ".switch_mlp." in k and a.ndim == 3:
            pre, proj = k.split(".switch_mlp.")
            proj = proj[: -len(".weight")]
            hf = MIXTRAL[proj] if cfg["model_type"] == "mixtral" else proj
            for e in range(a.shape[0]):
                out[f"{pre}.experts.{e}.{hf}.weight"] = a[e]
        else:
            out[k] = a
    # gpt_oss.py sanitize inverted: gate_proj / up_proj [E, I, H] → gate_up_proj [E, H, 2·I] (rows interleaved, then
    # transposed), down_proj [E, H, I] → [E, I, H], the biases' columns interleaved.
    if cfg["model_type"] == "gpt_oss":
        for k in [k for k in out if k.endswith(".mlp.experts.gate_proj.weight")]:
            pre = k[: -len("gate_proj.weight")]
            g, u = out.pop(k), out.pop(pre + "up_proj.weight")
            out[pre + "gate_up_proj"] = mx.stack([g, u], axis=2).reshape(g.shape[0], -1, g.shape[2]).swapaxes(1, 2)
            gb, ub = out.pop(pre + "gate_proj.bias"), out.pop(pre + "up_proj.bias")
            out[pre + "gate_up_proj_bias"] = mx.stack([gb, ub], axis=-1).reshape(gb.shape[0], -1)
            out[pre + "down_proj"] = out.pop(pre + "down_proj.weight").swapaxes(1, 2)
            out[pre + "down_proj_bias"] = out.pop(pre + "down_proj.bias")
    # deepseek_v3.py sanitize inverted: kv_b_proj [H·(nope + v), kv_lora] = per head embed_qᵀ [nope, kv_lora] then
    # unembed_out [v, kv_lora], from the (dequantized) MultiLinear weights.
    for k in [k for k in mats if k.endswith(".self_attn.embed_q.weight")]:
        wk, wv = mats.pop(k), mats.pop(k.replace("embed_q", "unembed_out"))
        kv = mx.concatenate([wk.swapaxes(-1, -2), wv], axis=1)
        out[k.replace("embed_q", "kv_b_proj")] = kv.reshape(-1, kv.shape[-1])
    return out


def main():
    shared, work = Path(sys.argv[1]), Path(sys.argv[2])
    hf = work / "hf"
    subprocess.run([sys.executable, str(HERE / "mlx_folders.py"), "--hf", str(hf)], check=True, stdout=subprocess.DEVNULL)
    cases = []
    for i, (inp, conv, amn) in enumerate(CASES):
        kind, name = inp.split(":", 1)
        src = hf / name if kind == "hf" else shared / "hf-gguf" / "inputs" / name
        out = work / f"out{i}"
        subprocess.run([sys.executable, "-m", "mlx_lm", "convert", "--hf-path", str(src), "--mlx-path", str(out)] + conv,
                       check=True, stdout=subprocess.DEVNULL, env=os.environ)
        c = {"input": inp, "mlx_lm_convert": conv}
        if amn:
            c["amn"] = amn
            c["model_sha256"] = hashlib.sha256((out / "model.safetensors").read_bytes()).hexdigest()
            c["hf_tensors"] = hf_layout(out)
        else:
            t = mx.load(str(out / "model.safetensors"))
            c["mlx_tensors"] = {k: digest(t[k]) for k in sorted(t)}
        cases.append(c)
    doc = {"about": "`amn remember MLX_DIR --layout hf` of MLX MoE folders the real `python3 -m mlx_lm convert --hf-path IN "
                    "<mlx_lm_convert>` writes (mlx-lm d78bf58e on MLX 846d17622 built from source for the CPU) from "
                    "IN = tests/cli/mlx_folders.py --hf's folder (hf:NAME) or ../shared/fixtures/hf-gguf/inputs/NAME: "
                    "hf_tensors = [dtype, shape, sha256] of every tensor of the Hugging Face layout, quantized modules "
                    "through mx.dequantize and switch_mlp stacks cut per expert under the transformers names "
                    "(the folder: `amn forget IN <amn>`, whose model.safetensors must have model_sha256); "
                    "mlx_tensors = every tensor of an unquantized conversion (its Hugging Face layout must equal IN's "
                    "tensors). Recorded by tests/cli/mlx_remember_hf_record.py.",
           "cases": cases}
    print(json.dumps(doc, indent=1))


if __name__ == "__main__":
    main()
