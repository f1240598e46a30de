#!/usr/bin/python3
# SPDX-License-Identifier: MIT OR Apache-2.0
"""Records tests/cli/data/mlx_convert_moe_reference.json: the sha256 of the
files the real `python3 -m mlx_lm convert --hf-path IN --mlx-path OUT -q ...`
writes for the folders of `mlx_folders.py --hf` and the shared Mixtral
fixture (MoE experts stacked into switch_mlp by mlx-lm's sanitize, the dtype
cast of convert.py).

usage: PYTHONPATH=/work/mlx/pyenv/site:/work/mlx/pyenv/stubs:/work/mlx/mlx-lm \\
       mlx_convert_record.py SHARED_FIXTURES WORK_DIR > tests/cli/data/mlx_convert_moe_reference.json
"""
import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
# (input: "hf:<mlx_folders.py --hf case>" or "fixture:<hf-gguf/inputs folder>", amn forget options)
CASES = [
    ("hf:qwen3_moe-f32", ["--to", "mlx"]),
    ("hf:qwen3_moe-f32", ["--to", "mlx:8", "--group-size", "32"]),
    ("hf:qwen3_moe-f32", ["--to", "mlx:mxfp4"]),
    ("hf:qwen3_moe-f32", ["--to", "mlx", "--dtype", "float16"]),
    ("hf:qwen2_moe-f16", ["--to", "mlx"]),
    ("hf:qwen2_moe-f16", ["--to", "mlx:3", "--group-size", "32"]),
    ("hf:llama-f32-f16-as-bf16", ["--to", "mlx"]),
    ("hf:llama-f32-f16-as-bf16", ["--to", "mlx:6", "--group-size", "32", "--dtype", "float32"]),
    ("hf:llama-f32-f16-as-bf16", ["--to", "mlx:nvfp4", "--dtype", "float16"]),
    ("fixture:Mixtral-8x7B-v0.1", ["--to", "mlx", "--group-size", "32"]),
    ("fixture:Mixtral-8x7B-v0.1", ["--to", "mlx"]),
    # mlx_lm.convert --quant-predicate: every recipe on a dense llama and on qwen3_moe (switch_mlp, its router's own
    # predicate replaced); "group_size": null per module unless --q-group-size is given.
    ("hf:llama-10-layers-f16", ["--to", "mlx", "--quant-predicate", "mixed_2_6"]),
    ("hf:llama-10-layers-f16", ["--to", "mlx", "--quant-predicate", "mixed_3_4"]),
    ("hf:llama-10-layers-f16", ["--to", "mlx", "--quant-predicate", "mixed_3_6", "--group-size", "32"]),
    ("hf:llama-10-layers-f16", ["--to", "mlx", "--quant-predicate", "mixed_4_6"]),
    ("hf:qwen3_moe-f32", ["--to", "mlx", "--quant-predicate", "mixed_2_6", "--group-size", "32"]),
    ("hf:qwen3_moe-f32", ["--to", "mlx", "--quant-predicate", "mixed_3_4"]),
    ("hf:qwen3_moe-f32", ["--to", "mlx", "--quant-predicate", "mixed_3_6"]),
    ("hf:qwen3_moe-f32", ["--to", "mlx:8", "--quant-predicate", "mixed_4_6", "--dtype", "float16"]),
    # olmoe: experts stacked as qwen's (olmoe.py sanitize), q/k norms in its attention.
    ("hf:olmoe-bf16", ["--to", "mlx"]),
    ("hf:olmoe-bf16", ["--to", "mlx:6", "--group-size", "32", "--dtype", "float32"]),
    # deepseek_v2: experts stacked (deepseek_v2.py sanitize), MoEGate routers float, MLA's modules in its order.
    ("hf:deepseek_v2-f32", ["--to", "mlx"]),
    ("hf:deepseek_v2-f32", ["--to", "mlx:8", "--group-size", "32", "--quant-predicate", "mixed_3_6"]),
    # deepseek_v3: experts stacked, kv_b_proj split per head into embed_q [H, kv_lora, nope] (float at group 64: nope
    # is 32) and unembed_out [H, v, kv_lora] (mla.py MultiLinear, quantized 3-D), MoEGate float with its
    # e_score_correction_bias never cast (cast_predicate); kimi_k2 (MODEL_REMAPPING → deepseek_v3): q_proj without
    # a q LoRA, stored BF16, its model.layers.61.* and rotary_emb.inv_freq dropped.
    ("hf:deepseek_v3-f32", ["--to", "mlx"]),
    ("hf:deepseek_v3-f32", ["--to", "mlx:8", "--group-size", "32"]),
    ("hf:deepseek_v3-f32", ["--to", "mlx:mxfp4"]),
    ("hf:deepseek_v3-f32", ["--to", "mlx", "--quant-predicate", "mixed_3_6"]),
    ("hf:kimi_k2-bf16", ["--to", "mlx"]),
    ("hf:kimi_k2-bf16", ["--to", "mlx:6", "--group-size", "32", "--dtype", "float16"]),
    # deepseek_v3 as DeepSeek ships it (E4M3 with 128×128 weight_scale_inv): mlx-lm's sanitize dequantizes to BF16,
    # amn under --requantize (its FP8 decode rounded to BF16).
    ("hf:deepseek_v3-fp8", ["--to", "mlx", "--requantize"]),
    ("hf:deepseek_v3-fp8", ["--to", "mlx:8", "--group-size", "32", "--requantize"]),
    # gpt_oss's original checkpoint (MXFP4 experts): load_model quantizes the experts as mxfp4 from the stored codes
    # (gpt_oss.py sanitize: gate_up rows ::2 → gate_proj, 1::2 → up_proj), convert -q the rest, each with its own
    # `quantization` entry (the router 8-bit g64: its quant_predicate); no --requantize (the codes are kept).
    ("hf:gpt_oss-mxfp4", ["--to", "mlx"]),
    ("hf:gpt_oss-mxfp4", ["--to", "mlx:8", "--group-size", "32"]),
    ("hf:gpt_oss-mxfp4", ["--to", "mlx:mxfp4"]),
    ("hf:gpt_oss-mxfp4", ["--to", "mlx", "--dtype", "float16"]),
]


def mlx_lm_args(amn):
    """amn forget's options → mlx_lm.convert's."""
    out, a = ["-q"], list(amn)
    scheme = a[a.index("--to") + 1]
    mode = scheme.split(":")[1] if ":" in scheme else "4"
    if mode in ("mxfp4", "nvfp4", "mxfp8"):
        out += ["--q-mode", mode]
    else:
        out += ["--q-bits", mode]
    if "--group-size" in a:
        out += ["--q-group-size", a[a.index("--group-size") + 1]]
    if "--dtype" in a:
        out += ["--dtype", a[a.index("--dtype") + 1]]
    if "--quant-predicate" in a:
        out += ["--quant-predicate", a[a.index("--quant-predicate") + 1]]
    return out


def main():
    shared, work = Path(sys.argv[1]), Path(sys.argv[2])
    hf = work / "hf"
    subprocess.run([sys.executable, str(HERE / "mlx_folders.py"), "--hf", str(hf)], check=True, stdout=subprocess.DEVNULL)
    cases = []
    for i, (inp, amn) in enumerate(CASES):
        kind, name = inp.split(":", 1)
        src = hf / name if kind == "hf" else shared / "hf-gguf" / "inputs" / name
        out = work / f"out{i}"
        subprocess.run([sys.executable, "-m", "mlx_lm", "convert", "--hf-path", str(src), "--mlx-path", str(out)] +
                       mlx_lm_args(amn), check=True, stdout=subprocess.DEVNULL, env=os.environ)
        files = {f: hashlib.sha256((out / f).read_bytes()).hexdigest()
                 for f in ("model.safetensors", "model.safetensors.index.json", "config.json")}
        cases.append({"input": inp, "amn": amn, "mlx_lm_convert": mlx_lm_args(amn), "files": files})
    doc = {"about": "sha256 of the files the real `python3 -m mlx_lm convert --hf-path IN --mlx-path OUT <mlx_lm_convert>` "
                    "writes (mlx-lm d78bf58e on MLX 846d17622 built from source for the CPU, Linux x86-64, libstdc++; "
                    "transformers and huggingface_hub stubbed, so tokenizer files and README.md are not compared) for "
                    "IN = tests/cli/mlx_folders.py --hf's folder (hf:NAME) or ../shared/fixtures/hf-gguf/inputs/NAME "
                    "(fixture:NAME): MoE experts stacked into switch_mlp (sanitize), qwen3_moe routers 8-bit g64 "
                    "(its quant_predicate) unless --quant-predicate's mixed recipe replaces it, every float tensor cast to "
                    "torch_dtype or --dtype (deepseek_v3's e_score_correction_bias kept: its cast_predicate), "
                    "deepseek_v3's kv_b_proj split into embed_q / unembed_out (MultiLinear), gpt_oss's MXFP4 experts kept as "
                    "mxfp4 (gate_up de-interleaved) with a per-module quantization config. "
                    "`amn forget IN <amn>` must write these bytes. Recorded by tests/cli/mlx_convert_record.py.",
           "cases": cases}
    print(json.dumps(doc, indent=1))


if __name__ == "__main__":
    main()
