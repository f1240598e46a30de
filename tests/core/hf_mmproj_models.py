#!/usr/bin/python3
"""Tiny multimodal Hugging Face folders with whole vision towers, and what llama.cpp's
`convert_hf_to_gguf.py --mmproj` (34af94c) writes for them: tests/core/hf_mmproj_reference.json
(per case: the default mmproj file name and the sha256 of the mmproj file per --outtype
f32 / f16 / bf16 / q8_0; the sha256 of the text GGUF at bf16, which --mmproj leaves as it is).

  hf_mmproj_models.py OUT --shared SHARED_FIXTURES [--inputs-only]
      [--llama-cpp /work/llama/src --shim /tmp/hf_shim] [--write-reference FILE]

The text parts are hf_arch_dense.py's gemma3_mm (google/gemma-3-4b-it's layout, Llama 2's
SentencePiece files) and qwen2_5_vl (Qwen/Qwen2.5-VL-3B-Instruct's, Qwen3's tokenizer.json); the
vision towers are the real models' modules with their dimensions shrunk, named and shaped as
transformers saves them:
- gemma-3-4b-pt: Gemma3ForConditionalGeneration, a SigLIP tower (patch conv with bias, learned
  position embeddings, 2 pre-norm blocks with q/k/v/out projections and a GELU fc1/fc2 MLP, post
  layernorm) and the projector (mm_input_projection_weight [vision, text], mm_soft_emb_norm);
  preprocessor_config.json with image_seq_length 4, so the projector's scale factor (64/16)/2 = 2
  is written (the converter writes it only when it is not 4).
- Qwen2.5-VL-7B-Instruct: Qwen2_5_VLForConditionalGeneration, a Conv3D patch embedding
  [C, 3, 2, 14, 14] (split by the converter into two Conv2D), 4 blocks with RMSNorm, a fused qkv
  (split into q/k/v), a SiLU gate/up/down MLP with biases, window attention with full attention at
  blocks 1 and 3 (n_wa_pattern 2), the patch merger (ln_q, mlp.0, mlp.2).
- Qwen2-VL-2B-Instruct: Qwen2VLForConditionalGeneration, LayerNorm with biases, fc1/fc2 MLP,
  embed_dim / mlp_ratio config keys (the converter's intermediate_size is then the vision
  config's hidden_size).
Weights BF16, seeded as hf_arch_models.py does (numpy RandomState from sha256("<case>/<tensor>")).
The Qwen towers have ≥ 3 blocks: gguf-py maps `merger.mlp.2` through the block map, so a tower
of fewer blocks cannot be converted at all.
"""
import argparse
import hashlib
import json
import os
import subprocess
import sys
import tempfile

from hf_arch_dense import H, gemma3_mm, qwen2_5_vl
from hf_arch_models import make_inputs_for

VH, VFF, VNH = 16, 32, 2          # vision width, MLP width, heads
CLIP_MEAN, CLIP_STD = [0.48145466, 0.4578275, 0.40821073], [0.26862954, 0.26130258, 0.27577711]


def gemma3_vision(case):
    cfg, t, tok, dtype = gemma3_mm(case)
    cfg["vision_config"] = {"attention_dropout": 0.0, "hidden_act": "gelu_pytorch_tanh", "hidden_size": VH, "image_size": 64,
                            "intermediate_size": VFF, "layer_norm_eps": 1e-06, "model_type": "siglip_vision_model",
                            "num_attention_heads": VNH, "num_channels": 3, "num_hidden_layers": 2, "patch_size": 16,
                            "torch_dtype": "bfloat16", "vision_use_head": False}
    cfg["mm_tokens_per_image"] = 4
    t = {k: v for k, v in t.items() if k.startswith("language_model.")}
    p = "vision_tower.vision_model."
    t.update({p + "embeddings.patch_embedding.weight": (VH, 3, 16, 16), p + "embeddings.patch_embedding.bias": (VH,),
              p + "embeddings.position_embedding.weight": (16, VH),
              p + "post_layernorm.weight": (VH,), p + "post_layernorm.bias": (VH,),
              "multi_modal_projector.mm_input_projection_weight": (VH, H),
              "multi_modal_projector.mm_soft_emb_norm.weight": (VH,)})
    for i in range(2):
        b = f"{p}encoder.layers.{i}."
        for n in ("layer_norm1", "layer_norm2"):
            t.update({b + n + ".weight": (VH,), b + n + ".bias": (VH,)})
        for n in ("q_proj", "k_proj", "v_proj", "out_proj"):
            t.update({b + "self_attn." + n + ".weight": (VH, VH), b + "self_attn." + n + ".bias": (VH,)})
        t.update({b + "mlp.fc1.weight": (VFF, VH), b + "mlp.fc1.bias": (VFF,), b + "mlp.fc2.weight": (VH, VFF),
                  b + "mlp.fc2.bias": (VH,)})
    pre = {"do_convert_rgb": None, "do_normalize": True, "do_pan_and_scan": None, "do_rescale": True, "do_resize": True,
           "image_mean": [0.5, 0.5, 0.5], "image_processor_type": "Gemma3ImageProcessor", "image_seq_length": 4,
           "image_std": [0.5, 0.5, 0.5], "processor_class": "Gemma3Processor", "resample": 2, "rescale_factor": 0.00392156862745098,
           "size": {"height": 64, "width": 64}}
    return cfg, t, tok, dtype, pre


def qwen_visual(t, depth, rms, fc):
    t = {k: v for k, v in t.items() if not k.startswith("visual.")}
    t["visual.patch_embed.proj.weight"] = (VH, 3, 2, 14, 14)
    for i in range(depth):
        b = f"visual.blocks.{i}."
        t.update({b + "norm1.weight": (VH,), b + "norm2.weight": (VH,),
                  b + "attn.qkv.weight": (3 * VH, VH), b + "attn.qkv.bias": (3 * VH,),
                  b + "attn.proj.weight": (VH, VH), b + "attn.proj.bias": (VH,)})
        if not rms:
            t.update({b + "norm1.bias": (VH,), b + "norm2.bias": (VH,)})
        if fc:
            t.update({b + "mlp.fc1.weight": (4 * VH, VH), b + "mlp.fc1.bias": (4 * VH,),
                      b + "mlp.fc2.weight": (VH, 4 * VH), b + "mlp.fc2.bias": (VH,)})
        else:
            for n, s in (("gate_proj", (VFF, VH)), ("up_proj", (VFF, VH)), ("down_proj", (VH, VFF))):
                t.update({b + f"mlp.{n}.weight": s, b + f"mlp.{n}.bias": (s[0],)})
    t.update({"visual.merger.ln_q.weight": (VH,), "visual.merger.mlp.0.weight": (4 * VH, 4 * VH),
              "visual.merger.mlp.0.bias": (4 * VH,), "visual.merger.mlp.2.weight": (H, 4 * VH), "visual.merger.mlp.2.bias": (H,)})
    if not rms:
        t["visual.merger.ln_q.bias"] = (VH,)
    return t


QWEN_PRE = {"do_convert_rgb": True, "do_normalize": True, "do_rescale": True, "do_resize": True, "image_mean": CLIP_MEAN,
            "image_processor_type": "Qwen2VLImageProcessor", "image_std": CLIP_STD, "max_pixels": 12845056, "merge_size": 2,
            "min_pixels": 3136, "patch_size": 14, "processor_class": "Qwen2_5_VLProcessor", "resample": 3,
            "rescale_factor": 0.00392156862745098, "temporal_patch_size": 2}


def qwen2_5_vl_vision(case):
    cfg, t, tok, dtype = qwen2_5_vl(case)
    cfg["vision_config"] = {"depth": 4, "fullatt_block_indexes": [1, 3], "hidden_act": "silu", "hidden_size": VH, "in_channels": 3,
                            "in_chans": 3, "intermediate_size": VFF, "model_type": "qwen2_5_vl", "num_heads": VNH,
                            "out_hidden_size": H, "patch_size": 14, "spatial_merge_size": 2, "spatial_patch_size": 14,
                            "temporal_patch_size": 2, "tokens_per_second": 2, "window_size": 112}
    return cfg, qwen_visual(t, 4, True, False), tok, dtype, QWEN_PRE


def qwen2_vl_vision(case):
    cfg, t, tok, dtype = qwen2_5_vl(case)
    cfg["architectures"] = ["Qwen2VLForConditionalGeneration"]
    cfg["model_type"] = "qwen2_vl"
    cfg["rope_scaling"] = {"mrope_section": [2, 1, 1], "rope_type": "default", "type": "default"}
    cfg["vision_config"] = {"depth": 3, "embed_dim": VH, "hidden_act": "quick_gelu", "hidden_size": H, "in_channels": 3,
                            "in_chans": 3, "mlp_ratio": 4, "model_type": "qwen2_vl", "num_heads": VNH, "patch_size": 14,
                            "spatial_merge_size": 2, "spatial_patch_size": 14, "temporal_patch_size": 2}
    pre = dict(QWEN_PRE, processor_class="Qwen2VLProcessor")
    return cfg, qwen_visual(t, 3, False, True), tok, dtype, pre


CASES = {"gemma-3-4b-pt": gemma3_vision, "Qwen2.5-VL-7B-Instruct": qwen2_5_vl_vision, "Qwen2-VL-2B-Instruct": qwen2_vl_vision}
OUTTYPES = ["f32", "f16", "bf16", "q8_0"]


def make_inputs(out, shared):
    for case, fn in CASES.items():
        cfg, shapes, tok, dtype, pre = fn(case)
        make_inputs_for(out, shared, case, cfg, shapes, tok, dtype)
        with open(os.path.join(out, case, "preprocessor_config.json"), "w") as f:
            json.dump(pre, f, indent=2)
            f.write("\n")


def write_png(path, w=56, h=56):
    """A seeded RGB PNG for llama-mtmd-cli (test_cli_hf_mmproj's mtmd row): zlib + crc32 only."""
    import struct
    import zlib
    import numpy as np
    px = np.random.RandomState(0).randint(0, 256, (h, w, 3)).astype(np.uint8)
    raw = b"".join(b"\x00" + px[y].tobytes() for y in range(h))

    def chunk(t, d):
        return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d) & 0xFFFFFFFF)
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)) +
                chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


def sha256(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--shared")
    ap.add_argument("--inputs-only", action="store_true")
    ap.add_argument("--llama-cpp", default="/work/llama/src")
    ap.add_argument("--shim", default="/tmp/hf_shim")
    ap.add_argument("--write-reference")
    a = ap.parse_args()
    make_inputs(a.out, a.shared)
    write_png(os.path.join(a.out, "image.png"))
    if a.inputs_only:
        return
    ref = {"generator": "tests/core/hf_mmproj_models.py", "llama_cpp_commit": "34af94cd9ab2",
           "notes": "mmproj: convert_hf_to_gguf.py --mmproj --outtype T, the whole file's sha256; mmproj_name: its default "
                    "file name (--outfile a directory); text_sha256: the text GGUF at --outtype bf16.", "cases": {}}

    def convert(case, *args):
        subprocess.run([sys.executable, os.path.join(a.shim, "run_convert.py"), a.llama_cpp, case, *args],
                       cwd=a.out, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    for case in CASES:
        entry = {"mmproj": {}, "mmproj_name": {}}
        for outtype in OUTTYPES:
            with tempfile.TemporaryDirectory(dir=a.out) as d:
                convert(case, "--outtype", outtype, "--mmproj", "--outfile", d + "/")
                [name] = os.listdir(d)
                entry["mmproj_name"][outtype] = name
                entry["mmproj"][outtype] = sha256(os.path.join(d, name))
        text = os.path.join(a.out, f"{case}.text.gguf")
        convert(case, "--outtype", "bf16", "--outfile", text)
        entry["text_sha256"] = {"bf16": sha256(text)}
        os.remove(text)
        ref["cases"][case] = entry
    if a.write_reference:
        with open(a.write_reference, "w") as f:
            json.dump(ref, f, indent=1)
            f.write("\n")


if __name__ == "__main__":
    main()
