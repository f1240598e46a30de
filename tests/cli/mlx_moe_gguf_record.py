#!/usr/bin/python3
# SPDX-License-Identifier: MIT OR Apache-2.0
"""Records tests/cli/data/mlx_moe_arch_gguf_reference.json: what llama.cpp's
convert_hf_to_gguf.py writes for the Hugging Face twin of MLX MoE folders of
the architectures whose experts mlx-lm stacks like Qwen's (olmoe, deepseek_v2,
qwen2_moe), so that `amn convert MLX_DIR --to gguf:T` can be held to it.

For each case:
  1. tests/core/hf_arch_models.py --inputs-only writes the seeded tiny folder
     CASE (with its tokenizer, copied from the shared fixtures);
  2. `amn forget CASE <amn> -o A/CASE-mlx` makes the MLX folder (experts
     stacked into switch_mlp, the bytes mlx_lm.convert writes: the olmoe /
     deepseek_v2 / qwen2_moe cases of mlx_convert_moe_reference.json);
  3. its Hugging Face twin: `amn remember A/CASE-mlx` (mx.dequantize's values:
     mlx_remember_hf_reference.json) with the switch_mlp stacks cut back into
     experts.E.<proj> (tests/cli/mlx_folders.py --unstack), B/CASE-mlx — the
     same folder name, so general.name agrees;
  4. convert_hf_to_gguf.py (through the shared hf_shim) on the twin, per
     outtype: the sha256 of the file.

usage: mlx_moe_gguf_record.py AMN SHARED_FIXTURES LLAMA_CPP_SRC HF_SHIM WORK_DIR \\
       > tests/cli/data/mlx_moe_arch_gguf_reference.json
"""
import hashlib
import json
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
# (tests/core/hf_arch_models.py case, amn forget options)
CASES = [
    ("OLMoE-1B-7B-0924-Instruct", ["--to", "mlx", "--group-size", "32"]),
    ("DeepSeek-V2-Lite", ["--to", "mlx:8", "--group-size", "32"]),
    ("Qwen1.5-MoE-A2.7B", ["--to", "mlx:mxfp4"]),
]
OUTTYPES = ["bf16", "f16", "q8_0"]


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def main():
    amn, shared, llama, shim, work = (Path(a).resolve() for a in sys.argv[1:6])
    inputs, a, rem, b = work / "inputs", work / "a", work / "rem", work / "b"
    for d in (a, rem, b):
        d.mkdir(parents=True, exist_ok=True)
    subprocess.run([sys.executable, str(HERE.parent / "core" / "hf_arch_models.py"), str(inputs), "--shared", str(shared),
                    "--inputs-only", "--cases", ",".join(c for c, _ in CASES)], check=True, stdout=subprocess.DEVNULL)
    cases = []
    for name, opts in CASES:
        mlx = a / f"{name}-mlx"
        subprocess.run([str(amn), "forget", str(inputs / name), *opts, "-o", str(mlx), "-q"], check=True)
        subprocess.run([str(amn), "remember", str(mlx), "-o", str(rem / name), "-q"], check=True)
        subprocess.run([sys.executable, str(HERE / "mlx_folders.py"), "--unstack", str(rem / name), str(b / mlx.name)],
                       check=True)
        outtypes = {}
        for t in OUTTYPES:
            out = work / f"{name}-{t}.gguf"
            subprocess.run([sys.executable, str(shim / "run_convert.py"), str(llama), mlx.name, "--outtype", t,
                            "--outfile", str(out)], cwd=b, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            outtypes[t] = sha256(out)
        cases.append({"case": name, "amn": opts, "outtypes": outtypes})
    json.dump({"about": "sha256 of convert_hf_to_gguf.py (llama.cpp 34af94c, through ../shared/tools/hf_shim) on the "
                        "Hugging Face twin of an MLX MoE folder: `amn forget CASE <amn> -o A/CASE-mlx` of "
                        "tests/core/hf_arch_models.py's seeded folder CASE, `amn remember` of it with its switch_mlp "
                        "stacks cut back into experts (tests/cli/mlx_folders.py --unstack) in B/CASE-mlx (same folder "
                        "name). `amn convert A/CASE-mlx --to gguf:T` must write these bytes in one pass. Recorded by "
                        "tests/cli/mlx_moe_gguf_record.py.",
               "cases": cases}, sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
