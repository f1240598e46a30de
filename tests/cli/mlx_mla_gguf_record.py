#!/usr/bin/python3
# SPDX-License-Identifier: MIT OR Apache-2.0
"""Records tests/cli/data/mlx_mla_gguf_reference.json: an MLX deepseek_v3
folder (MLA: embed_q / unembed_out, switch_mlp) to GGUF. The folder is what
the real `python3 -m mlx_lm convert -q` writes from `mlx_folders.py
--mla-gguf`'s DeepSeek-V3-tiny (model_sha256: `amn forget IN --to mlx` must
write it); its Hugging Face twin is made by MLX itself
(mlx_remember_hf_record.hf_arrays: mx.dequantize per module, switch_mlp cut
per expert, kv_b_proj rebuilt per head from embed_q / unembed_out), saved
with mx.save_safetensors beside config.json (quantization keys removed) and
the tokenizer files, under the MLX folder's own name; llama.cpp's
convert_hf_to_gguf.py (through the hf shim) converts the twin to each
outtype. `amn convert MLX_FOLDER --to gguf:T` must write those bytes. The same
for the unquantized conversion (--dtype float32), whose tensors are recorded.

usage: PYTHONPATH=/work/mlx/pyenv/site:/work/mlx/pyenv/stubs:/work/mlx/mlx-lm \\
       mlx_mla_gguf_record.py SHARED_FIXTURES LLAMA_CPP_SRC SHIM_RUN_CONVERT WORK_DIR \\
       > tests/cli/data/mlx_mla_gguf_reference.json
"""
import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import mlx.core as mx

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from mlx_remember_hf_record import hf_arrays  # noqa: E402

FOLDER = "DeepSeek-V3-tiny-mlx"
OUTTYPES = ["bf16", "q8_0"]
UNQUANTIZED = ["--dtype", "float32"]


def sha(p: Path) -> str:
    return hashlib.sha256(p.read_bytes()).hexdigest()


def convert(shim: Path, llama: Path, parent: Path, outtypes) -> dict:
    out = {}
    for t in outtypes:
        g = parent / f"{t}.gguf"
        subprocess.run([sys.executable, str(shim), str(llama), FOLDER, "--outtype", t, "--outfile", str(g)],
                       cwd=parent, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        out[t] = sha(g)
    return out


def main():
    shared, llama, shim, work = (Path(a) for a in sys.argv[1:5])
    subprocess.run([sys.executable, str(HERE / "mlx_folders.py"), "--mla-gguf", str(work / "hf"), str(shared)], check=True)
    src = work / "hf" / "DeepSeek-V3-tiny"
    mlx = work / "a" / FOLDER
    subprocess.run([sys.executable, "-m", "mlx_lm", "convert", "--hf-path", str(src), "--mlx-path", str(mlx), "-q"],
                   check=True, stdout=subprocess.DEVNULL, env=os.environ)
    twin = work / "b" / FOLDER
    twin.mkdir(parents=True)
    mx.save_safetensors(str(twin / "model.safetensors"), hf_arrays(mlx), metadata={"format": "pt"})
    cfg = json.loads((mlx / "config.json").read_text())
    cfg.pop("quantization", None)
    cfg.pop("quantization_config", None)
    (twin / "config.json").write_text(json.dumps(cfg, indent=2) + "\n")
    for f in ("tokenizer.json", "tokenizer_config.json"):
        shutil.copy(src / f, twin / f)
    out = convert(shim, llama, work / "b", OUTTYPES)
    # Unquantized (--dtype float32: the stored dtype, so mlx_folders.py --stack can rebuild it): its tensors, and the
    # converter on its twin.
    plain = work / "u" / FOLDER
    subprocess.run([sys.executable, "-m", "mlx_lm", "convert", "--hf-path", str(src), "--mlx-path", str(plain)] +
                   UNQUANTIZED, check=True, stdout=subprocess.DEVNULL, env=os.environ)
    tensors = json.loads(subprocess.run([sys.executable, str(HERE / "mlx_folders.py"), "--digest", str(plain)], check=True,
                                        capture_output=True, text=True).stdout)
    twin = work / "ub" / FOLDER
    twin.mkdir(parents=True)
    mx.save_safetensors(str(twin / "model.safetensors"), hf_arrays(plain), metadata={"format": "pt"})
    shutil.copy(plain / "config.json", twin / "config.json")
    for f in ("tokenizer.json", "tokenizer_config.json"):
        shutil.copy(src / f, twin / f)
    plain_out = convert(shim, llama, work / "ub", ["bf16"])
    doc = {"about": "An MLX deepseek_v3 folder to GGUF: `mlx_lm.convert -q` (mlx-lm d78bf58e on MLX 846d17622, CPU) of "
                    "tests/cli/mlx_folders.py --mla-gguf's DeepSeek-V3-tiny wrote model_sha256 (`amn forget IN --to mlx "
                    "-o A/" + FOLDER + "` must write it); its Hugging Face twin made by MLX (mx.dequantize, switch_mlp "
                    "per expert, kv_b_proj from embed_q / unembed_out per head) converted by convert_hf_to_gguf.py "
                    "(llama.cpp 34af94c, hf shim) gave outtypes. `amn convert A/" + FOLDER + " --to gguf:T` must write "
                    "those bytes. unquantized: mlx_lm.convert <mlx_lm_convert> (no -q) wrote mlx_tensors (mlx_folders.py "
                    "--stack rebuilds them), the converter on its twin gave outtypes. "
                    "Recorded by tests/cli/mlx_mla_gguf_record.py.",
           "folder": FOLDER, "model_sha256": sha(mlx / "model.safetensors"), "outtypes": out,
           "unquantized": {"mlx_lm_convert": UNQUANTIZED, "mlx_tensors": tensors, "outtypes": plain_out}}
    print(json.dumps(doc, indent=1))


if __name__ == "__main__":
    main()
