#!/usr/bin/python3
# SPDX-License-Identifier: MIT OR Apache-2.0
"""MLX (mlx-lm) quantized folders beyond the shared fixtures, with what
`amn remember` must write for each — computed here with numpy from MLX's
documented arithmetic, independently of the C++ (a different formulation:
numpy's bit unpacking of the whole row, vectorised float32 operations with
rounding to the dtype after each one).

usage: mlx_folders.py OUT_DIR
       mlx_folders.py --hf OUT_DIR   (Hugging Face folders for mlx_lm.convert: see HF_CASES)
       mlx_folders.py --unstack REMEMBERED_MLX_DIR OUT_DIR   (see unstack())
       mlx_folders.py --from-hf HF_DIR OUT_DIR --bits B --group-size G
       mlx_folders.py --exact-values MLX_DIR F32_DIR   (see exact_values())

The second form writes an MLX folder of a Hugging Face folder (safetensors,
F16/BF16/F32): every 2-D `.weight` whose last dim G divides, norms aside,
quantized with MLX's affine algorithm (mlx/backend/cpu/quantized.cpp
`quantize`, in float32), the rest and the tokenizer files copied.

Writes OUT_DIR/<case>/{config.json, model*.safetensors[, index]} and
OUT_DIR/<case>.expected.safetensors (the dequantized tensors in mx.dequantize's
result dtype, every other tensor as stored). Facts (ml-explore/mlx 846d1762;
../shared/fixtures/mlx/README.md gives them with line numbers):
  * P.weight U32 [..., out, in·bits/32]: each row an LSB-first bit stream of
    the words' little-endian bytes; P.scales / P.biases [..., out, in/G];
  * affine: w = rnd(rnd(q·s) + b), each op in float32 then rounded to the
    scales' dtype (BF16 nearest even, NaN → 0x7FC0; F16 IEEE; F32 none);
  * mxfp4/nvfp4: E2M1 codes, 8 per word low nibble first; mxfp8: E4M3 bytes;
    scale 2^(e−127) (E8M0) or the E4M3 byte (0x7F/0xFF = ±480); BF16 result
    rnd_bf16(value × scale).
"""
import json
import struct
import sys
from pathlib import Path

import numpy as np

ST_DTYPE = {np.dtype(np.uint32): "U32", np.dtype(np.uint8): "U8", np.dtype(np.float32): "F32",
            np.dtype(np.float16): "F16"}


def bf16_round(x: np.ndarray) -> np.ndarray:
    """float32 → bfloat16 (nearest even; any NaN → 0x7FC0) as uint16 bits."""
    u = np.ascontiguousarray(x, np.float32).view(np.uint32).astype(np.uint64)
    r = ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)
    nan = np.isnan(x)
    r[nan] = 0x7FC0
    return r


def bf16_float(bits: np.ndarray) -> np.ndarray:
    return (bits.astype(np.uint32) << 16).view(np.float32)


class Tensor:
    def __init__(self, dtype: str, shape, raw: bytes):
        self.dtype, self.shape, self.raw = dtype, list(shape), raw


def of_array(a: np.ndarray, bf16: bool = False) -> Tensor:
    if bf16:
        return Tensor("BF16", a.shape, np.ascontiguousarray(a, np.uint16).tobytes())
    return Tensor(ST_DTYPE[a.dtype], a.shape, np.ascontiguousarray(a).tobytes())


def write_st(path: Path, tensors: dict, metadata: dict | None):
    header, off, blobs = {}, 0, []
    if metadata is not None:
        header["__metadata__"] = metadata
    for name, t in tensors.items():
        header[name] = {"dtype": t.dtype, "shape": t.shape, "data_offsets": [off, off + len(t.raw)]}
        off += len(t.raw)
        blobs.append(t.raw)
    h = json.dumps(header, separators=(",", ":")).encode()
    h += b" " * (-len(h) % 8)
    path.write_bytes(struct.pack("<Q", len(h)) + h + b"".join(blobs))


def pack_codes(codes: np.ndarray, bits: int) -> np.ndarray:
    """[..., in] codes → [..., in·bits/32] uint32 words (LSB-first stream)."""
    lead, n = codes.shape[:-1], codes.shape[-1]
    b = ((codes[..., None].astype(np.uint16) >> np.arange(bits, dtype=np.uint16)) & 1).astype(np.uint8)
    stream = b.reshape(*lead, n * bits)
    by = np.packbits(stream, axis=-1, bitorder="little")
    return np.ascontiguousarray(by).view(np.uint32).reshape(*lead, n * bits // 32)


def unpack_codes(words: np.ndarray, bits: int, n: int) -> np.ndarray:
    by = np.ascontiguousarray(words).view(np.uint8)
    stream = np.unpackbits(by, axis=-1, bitorder="little")[..., : n * bits]
    st = stream.reshape(*words.shape[:-1], n, bits).astype(np.uint16)
    return (st << np.arange(bits, dtype=np.uint16)).sum(-1).astype(np.uint8)


E2M1 = np.array([0, .5, 1, 1.5, 2, 3, 4, 6, -0.0, -.5, -1, -1.5, -2, -3, -4, -6], np.float32)


def e4m3_mlx(code: np.ndarray) -> np.ndarray:
    """E4M3FN decoded from its fields; 0x7F/0xFF → ±480 as MLX's FromFP8 reads them."""
    c = code.astype(np.int32)
    e, m = (c >> 3) & 15, c & 7
    mag = np.where(e == 0, m / 8.0 * 2.0 ** -6, (1 + m / 8.0) * 2.0 ** (e - 7)).astype(np.float32)
    return np.where(c & 128, -mag, mag).astype(np.float32)


def e8m0_scale(e: np.ndarray) -> np.ndarray:
    s = np.ldexp(np.float32(1), e.astype(np.int32) - 127).astype(np.float32)
    return np.where(e == 255, np.float32(np.inf), s).astype(np.float32)


def round_to(dtype: str, x: np.ndarray) -> np.ndarray:
    if dtype == "BF16":
        return bf16_float(bf16_round(x))
    if dtype == "F16":
        return x.astype(np.float16).astype(np.float32)
    return x.astype(np.float32)


def affine_layer(rng, lead, out, inn, bits, G, dtype):
    """Returns stored tensors (weight, scales, biases) and the expected array (float32 values)."""
    codes = rng.integers(0, 2 ** bits, size=(*lead, out, inn), dtype=np.uint8)
    ng = inn // G
    s = rng.normal(0, 0.02, size=(*lead, out, ng)).astype(np.float32)
    b = rng.normal(0, 0.05, size=(*lead, out, ng)).astype(np.float32)
    s[..., 0, 0] = -abs(s[..., 0, 0])  # negative scales, as mx.quantize writes them
    s, b = round_to(dtype, s), round_to(dtype, b)
    q = unpack_codes(pack_codes(codes, bits), bits, inn)
    assert (q == codes).all()
    sr, br = np.repeat(s, G, -1), np.repeat(b, G, -1)
    y = round_to(dtype, round_to(dtype, q.astype(np.float32) * sr) + br)

    def store(a):
        if dtype == "BF16":
            return of_array(bf16_round(a), bf16=True)
        return of_array(a.astype(np.float16 if dtype == "F16" else np.float32))
    return {"weight": of_array(pack_codes(codes, bits)), "scales": store(s), "biases": store(b)}, store(y)


def fp_layer(rng, lead, out, inn, mode):
    G = {"mxfp4": 32, "nvfp4": 16, "mxfp8": 32}[mode]
    bits = 8 if mode == "mxfp8" else 4
    codes = rng.integers(0, 2 ** bits, size=(*lead, out, inn), dtype=np.uint8)
    ng = inn // G
    if mode == "nvfp4":
        sc = rng.integers(0, 256, size=(*lead, out, ng), dtype=np.uint8)
        sc[..., 0, 0] = 0x7F
        scale = e4m3_mlx(sc)
    else:
        sc = rng.integers(100, 140, size=(*lead, out, ng), dtype=np.uint8)
        sc[..., 0, 0] = 0
        scale = e8m0_scale(sc)
    vals = e4m3_mlx(codes) if mode == "mxfp8" else E2M1[codes]
    y = bf16_round(vals * np.repeat(scale, G, -1))
    return {"weight": of_array(pack_codes(codes, bits)), "scales": of_array(sc)}, of_array(y, bf16=True)


CASES = {
    # name: (dtype of the float tensors, config quantization, layers: path → (lead, out, in, override or None))
    "affine-f32-5bit": ("F32", {"group_size": 32, "bits": 5, "mode": "affine"},
                        {"model.layers.0.self_attn.q_proj": ((), 64, 128, None),
                         "model.layers.0.mlp.down_proj": ((), 64, 256, {"group_size": 64, "bits": 2, "mode": "affine"}),
                         "model.layers.0.mlp.up_proj": ((), 96, 128, {"group_size": 128, "bits": 6, "mode": "affine"}),
                         "model.embed_tokens": ((), 80, 128, {"group_size": 32, "bits": 8})}),
    "affine-bf16-moe-switch": ("BF16", {"group_size": 64, "bits": 4},
                               {"model.layers.0.mlp.switch_mlp.gate_proj": ((4,), 32, 128, None),
                                "model.layers.0.mlp.switch_mlp.down_proj": ((4,), 128, 64, {"group_size": 32, "bits": 3, "mode": "affine"}),
                                "model.layers.0.mlp.gate": ((), 4, 128, None)}),
    "affine-f16-6bit-g16": ("F16", {"group_size": 16, "bits": 6, "mode": "affine"},
                            {"lm_head": ((), 48, 64, None)}),
    "mxfp4": ("BF16", {"group_size": 32, "bits": 4, "mode": "mxfp4"},
              {"model.layers.0.self_attn.o_proj": ((), 64, 128, None), "lm_head": ((), 32, 64, None)}),
    "nvfp4": ("BF16", {"group_size": 16, "bits": 4, "mode": "nvfp4"},
              {"model.layers.0.self_attn.v_proj": ((), 32, 64, None)}),
}


def make_case(root: Path, name: str, seed: int):
    dtype, quant, layers = CASES[name]
    rng = np.random.default_rng(seed)
    folder = root / name
    folder.mkdir(parents=True, exist_ok=True)
    stored, expected = {}, {}
    mode = quant.get("mode", "affine")
    qconf = dict(quant)
    for path, (lead, out, inn, override) in layers.items():
        p = dict(quant)
        if override:
            p.update(override)
            qconf[path] = override
        pm = p.get("mode", "affine")
        if pm == "affine":
            st, y = affine_layer(rng, lead, out, inn, p["bits"], p["group_size"], dtype)
        else:
            st, y = fp_layer(rng, lead, out, inn, pm)
        for k, t in st.items():
            stored[f"{path}.{k}"] = t
        expected[f"{path}.weight"] = y
    # plain tensors: a norm and a Linear's own bias, copied as stored
    norm = rng.normal(1, 0.1, size=(128,)).astype(np.float32)
    t = of_array(bf16_round(norm), bf16=True) if dtype == "BF16" else of_array(norm.astype(np.float16 if dtype == "F16" else np.float32))
    stored["model.norm.weight"] = expected["model.norm.weight"] = t
    if mode == "affine":
        bias = rng.normal(0, 0.1, size=(64,)).astype(np.float32)
        t = of_array(bf16_round(bias), bf16=True) if dtype == "BF16" else of_array(bias.astype(np.float16 if dtype == "F16" else np.float32))
        stored["model.layers.0.self_attn.q_proj.bias"] = expected["model.layers.0.self_attn.q_proj.bias"] = t
    ordered = dict(sorted(stored.items()))
    if name == "affine-bf16-moe-switch":  # sharded as mlx-lm's save_model does, with an index
        names = list(ordered)
        half = len(names) // 2
        shards = [dict((k, ordered[k]) for k in names[:half]), dict((k, ordered[k]) for k in names[half:])]
        wmap = {}
        for i, sh in enumerate(shards):
            fn = f"model-{i + 1:05d}-of-{len(shards):05d}.safetensors"
            write_st(folder / fn, sh, {"format": "mlx"})
            wmap.update({k: fn for k in sh})
        total = sum(len(t.raw) for t in ordered.values())
        (folder / "model.safetensors.index.json").write_text(
            json.dumps({"metadata": {"total_size": total}, "weight_map": dict(sorted(wmap.items()))}, indent=4))
    else:
        write_st(folder / "model.safetensors", ordered, {"format": "mlx"})
    tdt = {"BF16": "bfloat16", "F16": "float16", "F32": "float32"}[dtype]
    cfg = {"architectures": ["LlamaForCausalLM"], "model_type": "llama", "hidden_size": 128,
           "quantization": qconf, "torch_dtype": tdt}
    if name != "affine-f32-5bit":  # an older mlx-lm: no quantization_config copy
        cfg["quantization_config"] = qconf
    (folder / "config.json").write_text(json.dumps(dict(sorted(cfg.items())), indent=4))
    write_st(root / f"{name}.expected.safetensors", dict(sorted(expected.items())), None)


def read_st(path: Path) -> dict:
    data = path.read_bytes()
    (n,) = struct.unpack_from("<Q", data, 0)
    hdr = json.loads(data[8:8 + n])
    hdr.pop("__metadata__", None)
    return {k: Tensor(v["dtype"], v["shape"], data[8 + n + v["data_offsets"][0]:8 + n + v["data_offsets"][1]])
            for k, v in hdr.items()}


def as_f32(t: Tensor) -> np.ndarray:
    if t.dtype == "BF16":
        return bf16_float(np.frombuffer(t.raw, np.uint16)).reshape(t.shape)
    return np.frombuffer(t.raw, {"F16": np.float16, "F32": np.float32}[t.dtype]).astype(np.float32).reshape(t.shape)


def mlx_quantize(w: np.ndarray, bits: int, G: int, dtype: str):
    """MLX's affine quantizer per group of G (float32), scales/biases rounded to dtype after."""
    lead = w.shape[:-1]
    g = w.reshape(*lead, w.shape[-1] // G, G)
    w_max, w_min = g.max(-1), g.min(-1)
    n_bins = np.float32(2 ** bits - 1)
    mask = np.abs(w_min) > np.abs(w_max)
    scale = np.maximum((w_max - w_min) / n_bins, np.float32(1e-7)).astype(np.float32)
    scale = np.where(mask, scale, -scale).astype(np.float32)
    edge = np.where(mask, w_min, w_max).astype(np.float32)
    q0 = np.rint(edge / scale)
    nz = q0 != 0
    scale = np.where(nz, edge / np.where(nz, q0, 1), scale).astype(np.float32)
    bias = np.where(nz, edge, 0).astype(np.float32)
    q = np.clip(np.rint((g - bias[..., None]) / scale[..., None]), 0, n_bins).astype(np.uint8)
    return q.reshape(w.shape), round_to(dtype, scale), round_to(dtype, bias)


def from_hf(src: Path, dst: Path, bits: int, G: int):
    import shutil
    dst.mkdir(parents=True, exist_ok=True)
    tensors = {}
    for f in sorted(src.glob("*.safetensors")):
        tensors.update(read_st(f))
    out = {}
    for name, t in tensors.items():
        quant = (len(t.shape) == 2 and name.endswith(".weight") and "norm" not in name and t.shape[-1] % G == 0
                 and t.dtype in ("BF16", "F16", "F32"))
        if not quant:
            out[name] = t
            continue
        q, s, b = mlx_quantize(as_f32(t), bits, G, t.dtype)
        path = name[: -len(".weight")]

        def store(a):
            if t.dtype == "BF16":
                return of_array(bf16_round(a), bf16=True)
            return of_array(a.astype(np.float16 if t.dtype == "F16" else np.float32))
        out[name] = of_array(pack_codes(q, bits))
        out[path + ".scales"], out[path + ".biases"] = store(s), store(b)
    write_st(dst / "model.safetensors", dict(sorted(out.items())), {"format": "mlx"})
    cfg = json.loads((src / "config.json").read_text())
    cfg["quantization"] = cfg["quantization_config"] = {"group_size": G, "bits": bits, "mode": "affine"}
    (dst / "config.json").write_text(json.dumps(dict(sorted(cfg.items())), indent=4))
    for f in src.iterdir():
        if f.name.startswith("tokenizer") or f.name in ("special_tokens_map.json", "generation_config.json"):
            shutil.copy(f, dst / f.name)


def exact_values(mlx: Path, ref: Path) -> int:
    """Every quantized module of the MLX folder `mlx`, its codes and scales
    taken as exact numbers (affine q·s + b, E2M1 × E8M0 / E4M3 in float32:
    q·s is exact for F16 scales, so one rounding at most), equals the float32
    tensor of the same name in the folder `ref` (`amn remember X.gguf
    --layout hf --to f32` of the GGUF the MLX folder was repacked from: ggml's
    dequantization), as numbers (−0 = +0). Prints each mismatch; the exit
    code counts them."""
    tensors, refs = {}, {}
    for f in sorted(mlx.glob("*.safetensors")):
        tensors.update(read_st(f))
    for f in sorted(ref.glob("*.safetensors")):
        refs.update(read_st(f))
    cfg = json.loads((mlx / "config.json").read_text())["quantization"]
    bad = checked = 0
    for name, t in tensors.items():
        if not name.endswith(".weight") or name[: -len(".weight")] + ".scales" not in tensors:
            continue
        path = name[: -len(".weight")]
        q = cfg.get(path) if isinstance(cfg.get(path), dict) else cfg
        mode, bits, G = q.get("mode", "affine"), q["bits"], q["group_size"]
        words = np.frombuffer(t.raw, np.uint32).reshape(t.shape)
        n = t.shape[-1] * 32 // bits
        codes = unpack_codes(words, bits, n)
        sc = tensors[path + ".scales"]
        if mode == "affine":
            s = np.repeat(as_f32(sc), G, axis=-1)
            b = np.repeat(as_f32(tensors[path + ".biases"]), G, axis=-1)
            w = (codes.astype(np.float32) * s + b).astype(np.float32)
        else:
            raw = np.frombuffer(sc.raw, np.uint8).reshape(sc.shape)
            scale = e8m0_scale(raw) if mode == "mxfp4" else e4m3_mlx(raw)
            w = (E2M1[codes] * np.repeat(scale, G, axis=-1)).astype(np.float32)
        r = refs.get(name)
        checked += 1
        if r is None or r.dtype != "F32" or list(r.shape) != list(w.shape):
            print(f"{name}: no F32 {list(w.shape)} tensor in {ref}")
            bad += 1
            continue
        want = np.frombuffer(r.raw, np.float32).reshape(w.shape)
        # Equal as numbers: ggml's (q − 8)·d is −0 where q = 8 and d < 0, q·s + b is +0 there.
        if not np.array_equal(w, want):
            print(f"{name}: {int((w != want).sum())} values differ")
            bad += 1
    print(f"{checked} quantized modules checked, {bad} differ")
    return min(bad, 100) if checked else 101


# Hugging Face folders for `mlx_lm.convert -q` (references recorded from the
# real tool: tests/cli/data/mlx_convert_moe_reference.json): MoE models whose
# experts mlx-lm's sanitize stacks into switch_mlp, and dense ones whose
# stored dtypes differ from config.json's torch_dtype (convert.py's cast).
# name: (config.json, tensors: name → (shape, stored dtype)); weights
# N(0, 0.02) (norms N(1, 0.1)), seeded by name.
def hf_case_qwen3_moe(H=64, L=2, E=4, F=64, V=256):
    cfg = {"architectures": ["Qwen3MoeForCausalLM"], "decoder_sparse_step": 1, "head_dim": 16, "hidden_size": H,
           "intermediate_size": 128, "max_position_embeddings": 4096, "mlp_only_layers": [], "model_type": "qwen3_moe",
           "moe_intermediate_size": F, "norm_topk_prob": True, "num_attention_heads": 4, "num_experts": E,
           "num_experts_per_tok": 2, "num_hidden_layers": L, "num_key_value_heads": 2, "rms_norm_eps": 1e-06,
           "rope_theta": 1000000.0, "tie_word_embeddings": False, "torch_dtype": "bfloat16", "vocab_size": V}
    t = {"model.embed_tokens.weight": (V, H), "model.norm.weight": (H,), "lm_head.weight": (V, H)}
    for i in range(L):
        p = f"model.layers.{i}."
        t.update({p + "input_layernorm.weight": (H,), p + "post_attention_layernorm.weight": (H,),
                  p + "self_attn.q_proj.weight": (64, H), p + "self_attn.k_proj.weight": (32, H),
                  p + "self_attn.v_proj.weight": (32, H), p + "self_attn.o_proj.weight": (H, 64),
                  p + "self_attn.q_norm.weight": (16,), p + "self_attn.k_norm.weight": (16,),
                  p + "mlp.gate.weight": (E, H)})
        for x in range(E):
            q = p + f"mlp.experts.{x}."
            t.update({q + "gate_proj.weight": (F, H), q + "up_proj.weight": (F, H), q + "down_proj.weight": (H, F)})
    return cfg, {k: (v, "F32") for k, v in t.items()}


def hf_case_qwen2_moe(H=64, L=2, E=4, F=64, S=128, V=256):
    cfg = {"architectures": ["Qwen2MoeForCausalLM"], "decoder_sparse_step": 1, "hidden_size": H, "intermediate_size": 128,
           "max_position_embeddings": 8192, "model_type": "qwen2_moe", "moe_intermediate_size": F, "norm_topk_prob": False,
           "num_attention_heads": 4, "num_experts": E, "num_experts_per_tok": 2, "num_hidden_layers": L,
           "num_key_value_heads": 4, "rms_norm_eps": 1e-06, "rope_theta": 1000000.0, "shared_expert_intermediate_size": S,
           "tie_word_embeddings": False, "torch_dtype": "bfloat16", "vocab_size": V}
    t = {"model.embed_tokens.weight": (V, H), "model.norm.weight": (H,), "lm_head.weight": (V, H)}
    for i in range(L):
        p = f"model.layers.{i}."
        t.update({p + "input_layernorm.weight": (H,), p + "post_attention_layernorm.weight": (H,),
                  p + "self_attn.q_proj.weight": (H, H), p + "self_attn.q_proj.bias": (H,),
                  p + "self_attn.k_proj.weight": (H, H), p + "self_attn.k_proj.bias": (H,),
                  p + "self_attn.v_proj.weight": (H, H), p + "self_attn.v_proj.bias": (H,),
                  p + "self_attn.o_proj.weight": (H, H), p + "mlp.gate.weight": (E, H),
                  p + "mlp.shared_expert.gate_proj.weight": (S, H), p + "mlp.shared_expert.up_proj.weight": (S, H),
                  p + "mlp.shared_expert.down_proj.weight": (H, S), p + "mlp.shared_expert_gate.weight": (1, H)})
        for x in range(E):
            q = p + f"mlp.experts.{x}."
            t.update({q + "gate_proj.weight": (F, H), q + "up_proj.weight": (F, H), q + "down_proj.weight": (H, F)})
    return cfg, {k: (v, "F16") for k, v in t.items()}


def hf_case_llama_mixed(H=64, L=1, FF=128, V=256):
    """Dense llama, config torch_dtype bfloat16, tensors F32 and F16 (kept norms of both, quantized weights of both)."""
    cfg = {"architectures": ["LlamaForCausalLM"], "hidden_size": H, "intermediate_size": FF, "model_type": "llama",
           "num_attention_heads": 4, "num_hidden_layers": L, "num_key_value_heads": 4, "rms_norm_eps": 1e-05,
           "rope_theta": 10000.0, "tie_word_embeddings": False, "torch_dtype": "bfloat16", "vocab_size": V}
    t = {"model.embed_tokens.weight": ((V, H), "F16"), "model.norm.weight": ((H,), "F32"), "lm_head.weight": ((V, H), "F32")}
    for i in range(L):
        p = f"model.layers.{i}."
        t.update({p + "input_layernorm.weight": ((H,), "F32"), p + "post_attention_layernorm.weight": ((H,), "F16"),
                  p + "self_attn.q_proj.weight": ((H, H), "F32"), p + "self_attn.k_proj.weight": ((H, H), "F16"),
                  p + "self_attn.v_proj.weight": ((H, H), "F32"), p + "self_attn.o_proj.weight": ((H, H), "F32"),
                  p + "mlp.gate_proj.weight": ((FF, H), "F32"), p + "mlp.up_proj.weight": ((FF, H), "F16"),
                  p + "mlp.down_proj.weight": ((H, FF), "F32")})
    return cfg, t


def hf_case_llama_layers(H=64, L=10, FF=128, V=256):
    """Dense llama of 10 layers, F16 (mlx_lm.convert's mixed recipes: layers 0, 3, 6, 8, 9 get the high bits)."""
    cfg = {"architectures": ["LlamaForCausalLM"], "hidden_size": H, "intermediate_size": FF, "model_type": "llama",
           "num_attention_heads": 4, "num_hidden_layers": L, "num_key_value_heads": 2, "rms_norm_eps": 1e-05,
           "rope_theta": 10000.0, "tie_word_embeddings": False, "torch_dtype": "float16", "vocab_size": V}
    t = {"model.embed_tokens.weight": (V, H), "model.norm.weight": (H,), "lm_head.weight": (V, H)}
    for i in range(L):
        p = f"model.layers.{i}."
        t.update({p + "input_layernorm.weight": (H,), p + "post_attention_layernorm.weight": (H,),
                  p + "self_attn.q_proj.weight": (H, H), p + "self_attn.k_proj.weight": (32, H),
                  p + "self_attn.v_proj.weight": (32, H), p + "self_attn.o_proj.weight": (H, H),
                  p + "mlp.gate_proj.weight": (FF, H), p + "mlp.up_proj.weight": (FF, H), p + "mlp.down_proj.weight": (H, FF)})
    return cfg, {k: (v, "F16") for k, v in t.items()}


def hf_case_olmoe(H=64, L=2, E=4, F=64, V=256):
    """OLMoE (OlmoeForCausalLM): q/k norms over all heads, experts mlp.experts.E.*_proj, untied, stored BF16."""
    cfg = {"architectures": ["OlmoeForCausalLM"], "attention_bias": False, "clip_qkv": None, "hidden_size": H,
           "intermediate_size": F, "max_position_embeddings": 4096, "model_type": "olmoe", "norm_topk_prob": False,
           "num_attention_heads": 4, "num_experts": E, "num_experts_per_tok": 2, "num_hidden_layers": L,
           "num_key_value_heads": 4, "rms_norm_eps": 1e-05, "rope_theta": 10000.0, "tie_word_embeddings": False,
           "torch_dtype": "bfloat16", "vocab_size": V}
    t = {"model.embed_tokens.weight": (V, H), "model.norm.weight": (H,), "lm_head.weight": (V, H)}
    for i in range(L):
        p = f"model.layers.{i}."
        t.update({p + "input_layernorm.weight": (H,), p + "post_attention_layernorm.weight": (H,),
                  p + "self_attn.q_proj.weight": (H, H), p + "self_attn.k_proj.weight": (H, H),
                  p + "self_attn.v_proj.weight": (H, H), p + "self_attn.o_proj.weight": (H, H),
                  p + "self_attn.q_norm.weight": (H,), p + "self_attn.k_norm.weight": (H,), p + "mlp.gate.weight": (E, H)})
        for x in range(E):
            q = p + f"mlp.experts.{x}."
            t.update({q + "gate_proj.weight": (F, H), q + "up_proj.weight": (F, H), q + "down_proj.weight": (H, F)})
    return cfg, {k: (v, "BF16") for k, v in t.items()}


def hf_case_deepseek_v2(H=64, L=3, E=4, F=64, V=256):
    """DeepSeek-V2 (MLA with a q LoRA, layer 0 dense, then MoE with a shared expert and MoEGate routers), stored F32."""
    cfg = {"architectures": ["DeepseekV2ForCausalLM"], "first_k_dense_replace": 1, "hidden_size": H,
           "intermediate_size": 128, "kv_lora_rank": 64, "max_position_embeddings": 4096, "model_type": "deepseek_v2",
           "moe_intermediate_size": F, "moe_layer_freq": 1, "n_routed_experts": E, "n_shared_experts": 1,
           "norm_topk_prob": False, "num_attention_heads": 4, "num_experts_per_tok": 2, "num_hidden_layers": L,
           "num_key_value_heads": 4, "q_lora_rank": 64, "qk_nope_head_dim": 32, "qk_rope_head_dim": 16,
           "rms_norm_eps": 1e-06, "rope_scaling": {"beta_fast": 32, "beta_slow": 1, "factor": 40, "mscale": 0.707,
           "mscale_all_dim": 0.707, "original_max_position_embeddings": 4096, "type": "yarn"}, "rope_theta": 10000,
           "routed_scaling_factor": 1.0, "tie_word_embeddings": False, "topk_method": "greedy", "torch_dtype": "bfloat16",
           "v_head_dim": 32, "vocab_size": V}
    t = {"model.embed_tokens.weight": (V, H), "model.norm.weight": (H,), "lm_head.weight": (V, H)}
    for i in range(L):
        p = f"model.layers.{i}."
        t.update({p + "input_layernorm.weight": (H,), p + "post_attention_layernorm.weight": (H,),
                  p + "self_attn.q_a_proj.weight": (64, H), p + "self_attn.q_a_layernorm.weight": (64,),
                  p + "self_attn.q_b_proj.weight": (4 * 48, 64), p + "self_attn.kv_a_proj_with_mqa.weight": (64 + 16, H),
                  p + "self_attn.kv_a_layernorm.weight": (64,), p + "self_attn.kv_b_proj.weight": (4 * (32 + 32), 64),
                  p + "self_attn.o_proj.weight": (H, 4 * 32)})
        if i == 0:
            t.update({p + "mlp.gate_proj.weight": (128, H), p + "mlp.up_proj.weight": (128, H), p + "mlp.down_proj.weight": (H, 128)})
            continue
        t.update({p + "mlp.gate.weight": (E, H), p + "mlp.shared_experts.gate_proj.weight": (F, H),
                  p + "mlp.shared_experts.up_proj.weight": (F, H), p + "mlp.shared_experts.down_proj.weight": (H, F)})
        for x in range(E):
            q = p + f"mlp.experts.{x}."
            t.update({q + "gate_proj.weight": (F, H), q + "up_proj.weight": (F, H), q + "down_proj.weight": (H, F)})
    return cfg, {k: (v, "F32") for k, v in t.items()}


def hf_case_deepseek_v3(H=64, L=3, E=4, F=64, V=256, model_type="deepseek_v3", q_lora=64, mtp=False, dt="F32"):
    """DeepSeek-V3 (MLA: kv_b_proj mlx-lm splits into embed_q / unembed_out; layer 0 dense, then MoE with a shared
    expert and MoEGate routers with an F32 e_score_correction_bias mlx-lm does not cast). mtp: Kimi-K2-like extras
    mlx-lm drops (model.layers.61.*, a rotary_emb.inv_freq), q_lora None: a plain q_proj."""
    cfg = {"architectures": ["DeepseekV3ForCausalLM"], "first_k_dense_replace": 1, "hidden_size": H,
           "intermediate_size": 128, "kv_lora_rank": 64, "max_position_embeddings": 4096, "model_type": model_type,
           "moe_intermediate_size": F, "moe_layer_freq": 1, "n_group": 1, "n_routed_experts": E, "n_shared_experts": 1,
           "norm_topk_prob": True, "num_attention_heads": 4, "num_experts_per_tok": 2, "num_hidden_layers": L,
           "num_key_value_heads": 4, "q_lora_rank": q_lora, "qk_nope_head_dim": 32, "qk_rope_head_dim": 16,
           "rms_norm_eps": 1e-06, "rope_scaling": {"beta_fast": 32, "beta_slow": 1, "factor": 40, "mscale": 1.0,
           "mscale_all_dim": 1.0, "original_max_position_embeddings": 4096, "type": "yarn"}, "rope_theta": 10000,
           "routed_scaling_factor": 2.5, "scoring_func": "sigmoid", "tie_word_embeddings": False, "topk_group": 1,
           "topk_method": "noaux_tc", "torch_dtype": "bfloat16", "v_head_dim": 32, "vocab_size": V}
    t = {"model.embed_tokens.weight": (V, H), "model.norm.weight": (H,), "lm_head.weight": (V, H)}
    for i in range(L):
        p = f"model.layers.{i}."
        t.update({p + "input_layernorm.weight": (H,), p + "post_attention_layernorm.weight": (H,),
                  p + "self_attn.kv_a_proj_with_mqa.weight": (64 + 16, H), p + "self_attn.kv_a_layernorm.weight": (64,),
                  p + "self_attn.kv_b_proj.weight": (4 * (32 + 32), 64), p + "self_attn.o_proj.weight": (H, 4 * 32)})
        if q_lora:
            t.update({p + "self_attn.q_a_proj.weight": (q_lora, H), p + "self_attn.q_a_layernorm.weight": (q_lora,),
                      p + "self_attn.q_b_proj.weight": (4 * 48, q_lora)})
        else:
            t[p + "self_attn.q_proj.weight"] = (4 * 48, H)
        if i == 0:
            t.update({p + "mlp.gate_proj.weight": (128, H), p + "mlp.up_proj.weight": (128, H), p + "mlp.down_proj.weight": (H, 128)})
            continue
        t.update({p + "mlp.gate.weight": (E, H), p + "mlp.gate.e_score_correction_bias": (E,),
                  p + "mlp.shared_experts.gate_proj.weight": (F, H), p + "mlp.shared_experts.up_proj.weight": (F, H),
                  p + "mlp.shared_experts.down_proj.weight": (H, F)})
        for x in range(E):
            q = p + f"mlp.experts.{x}."
            t.update({q + "gate_proj.weight": (F, H), q + "up_proj.weight": (F, H), q + "down_proj.weight": (H, F)})
    if mtp:
        t.update({"model.layers.61.enorm.weight": (H,), "model.layers.61.eh_proj.weight": (H, 2 * H),
                  "model.layers.61.mlp.experts.0.gate_proj.weight": (F, H),
                  "model.layers.0.self_attn.rotary_emb.inv_freq": (8,)})
    return cfg, {k: (v, "F32" if "e_score_correction_bias" in k else dt) for k, v in t.items()}


def hf_case_deepseek_v3_fp8():
    """deepseek_v3 as DeepSeek ships it: every 2-D Linear weight of the layers (kv_b_proj and the experts too, the
    MoEGate not) E4M3 with an F32 weight_scale_inv per 128×128 block, the rest BF16 (mlx-lm's sanitize dequantizes)."""
    cfg, t = hf_case_deepseek_v3(dt="BF16")
    cfg["quantization_config"] = {"activation_scheme": "dynamic", "fmt": "e4m3", "quant_method": "fp8",
                                  "weight_block_size": [128, 128]}
    out = {}
    for k, (shape, dt) in t.items():
        if k.startswith("model.layers.") and k.endswith(".weight") and len(shape) == 2 and not k.endswith("mlp.gate.weight"):
            out[k] = (shape, "F8_E4M3")
            out[k + "_scale_inv"] = (((shape[0] + 127) // 128, (shape[1] + 127) // 128), "F32")
        else:
            out[k] = (shape, dt)
    return cfg, out


def hf_case_kimi_k2():
    return hf_case_deepseek_v3(L=2, model_type="kimi_k2", q_lora=None, mtp=True, dt="BF16")


from mlx_hf_gpt_oss import hf_case_gpt_oss, hf_case_gpt_oss_bf16  # noqa: E402 (kept apart: this file is at its size limit)

HF_CASES = {"qwen3_moe-f32": hf_case_qwen3_moe, "qwen2_moe-f16": hf_case_qwen2_moe, "llama-f32-f16-as-bf16": hf_case_llama_mixed,
            "llama-10-layers-f16": hf_case_llama_layers, "olmoe-bf16": hf_case_olmoe,
            "deepseek_v2-f32": hf_case_deepseek_v2, "deepseek_v3-f32": hf_case_deepseek_v3, "kimi_k2-bf16": hf_case_kimi_k2,
            "deepseek_v3-fp8": hf_case_deepseek_v3_fp8, "gpt_oss-mxfp4": hf_case_gpt_oss,
            "gpt_oss-bf16": hf_case_gpt_oss_bf16}


def make_mla_gguf_case(root: Path, shared: Path):
    """DeepSeek-V3-tiny: the deepseek_v3 folder with Qwen3's vocabulary (151936 rows) and its tokenizer files from
    SHARED/hf-gguf/inputs/Qwen3-0.6B, so that llama.cpp's converter can read its MLX folder's twin."""
    import shutil
    def case():
        cfg, t = hf_case_deepseek_v3(V=151936)
        cfg.update({"bos_token_id": 151643, "eos_token_id": 151645})
        return cfg, t
    HF_CASES["DeepSeek-V3-tiny"] = case
    make_hf_case(root, "DeepSeek-V3-tiny")
    for f in ("tokenizer.json", "tokenizer_config.json"):
        shutil.copy(shared / "hf-gguf" / "inputs" / "Qwen3-0.6B" / f, root / "DeepSeek-V3-tiny" / f)


def make_hf_case(root: Path, name: str):
    import zlib
    cfg, tensors = HF_CASES[name]()
    folder = root / name
    folder.mkdir(parents=True, exist_ok=True)
    out = {}
    for k, (shape, dt) in sorted(tensors.items()):
        rng = np.random.default_rng(zlib.crc32(f"{name}/{k}".encode()))
        norm = k.endswith("norm.weight")
        a = (rng.normal(1.0, 0.1, size=shape) if norm else rng.normal(0.0, 0.02, size=shape)).astype(np.float32)
        if k.endswith("down_proj.weight") and len(shape) == 2:
            a[0, :8] *= 50.0  # an outlier group
        if dt == "F8_E4M3":  # any E4M3FN code but NaN (0x7f, 0xff), either sign
            codes = rng.integers(0, 0x7f, size=shape, dtype=np.uint8) | (rng.integers(0, 2, size=shape, dtype=np.uint8) << 7)
            out[k] = Tensor(dt, shape, codes.tobytes())
        elif dt == "U8" and k.endswith("_blocks"):  # any two E2M1 nibbles
            out[k] = Tensor(dt, shape, rng.integers(0, 256, size=shape, dtype=np.uint8).tobytes())
        elif dt == "U8":  # E8M0 scales 2^-8 … 2^-4
            out[k] = Tensor(dt, shape, rng.integers(119, 124, size=shape, dtype=np.uint8).tobytes())
        elif k.endswith("weight_scale_inv"):
            out[k] = of_array(rng.uniform(0.002, 0.02, size=shape).astype(np.float32))
        else:
            out[k] = of_array(a) if dt == "F32" else of_array(a.astype(np.float16)) if dt == "F16" else of_array(bf16_round(a), bf16=True)
    write_st(folder / "model.safetensors", out, {"format": "pt"})
    (folder / "config.json").write_text(json.dumps(cfg, indent=2) + "\n")


def unstack(src: Path, dst: Path):
    """A dequantized MLX MoE folder (`amn remember`: switch_mlp [E, out, in]) as the
    Hugging Face folder mlx-lm's sanitize stacked: one tensor per expert under
    its Hugging Face name (mixtral w1/w2/w3), everything else and the side files as they are."""
    import shutil
    dst.mkdir(parents=True, exist_ok=True)
    cfg = json.loads((src / "config.json").read_text())
    mixtral = cfg.get("model_type") == "mixtral"
    names = {"gate_proj": "w1", "down_proj": "w2", "up_proj": "w3"} if mixtral else None
    tensors = {}
    for f in sorted(src.glob("*.safetensors")):
        tensors.update(read_st(f))
    out = {}
    for k, t in tensors.items():
        if ".switch_mlp." not in k or len(t.shape) != 3:
            out[k] = t
            continue
        pre, proj = k.split(".switch_mlp.")
        proj = proj[: -len(".weight")]
        E, per = t.shape[0], len(t.raw) // t.shape[0]
        base = pre + ".experts."
        for e in range(E):
            out[f"{base}{e}.{names[proj] if names else proj}.weight"] = Tensor(t.dtype, t.shape[1:], t.raw[e * per:(e + 1) * per])
    write_st(dst / "model.safetensors", dict(sorted(out.items())), {"format": "pt"})
    for f in src.iterdir():
        if not f.name.endswith(".safetensors") and f.name != "model.safetensors.index.json" and f.is_file():
            shutil.copy(f, dst / f.name)


def stack(src: Path, dst: Path):
    """The folder `mlx_lm.convert` without -q writes for a qwen2_moe / qwen3_moe /
    deepseek_v3 folder whose tensors are already in its torch_dtype (or --dtype): the
    experts `mlp.experts.E.<proj>.weight` stacked into `mlp.switch_mlp.<proj>.weight`
    [E, out, in] (sanitize's mx.stack), deepseek_v3's kv_b_proj split per head into
    embed_q / unembed_out, the rest as stored, metadata format mlx,
    config.json as it was. Its tensors, not its bytes (MLX's data order), are mlx-lm's."""
    import re
    import shutil
    dst.mkdir(parents=True, exist_ok=True)
    tensors = {}
    for f in sorted(src.glob("*.safetensors")):
        tensors.update(read_st(f))
    out, groups = {}, {}
    for k, t in tensors.items():
        m = re.fullmatch(r"(model\.layers\.\d+\.mlp)\.experts\.(\d+)\.(\w+)\.weight", k)
        if m:
            groups.setdefault(f"{m[1]}.switch_mlp.{m[3]}.weight", {})[int(m[2])] = t
        else:
            out[k] = t
    for k, g in groups.items():
        parts = [g[e] for e in range(len(g))]
        out[k] = Tensor(parts[0].dtype, [len(parts)] + list(parts[0].shape), b"".join(p.raw for p in parts))
    cfg = json.loads((src / "config.json").read_text())
    if cfg.get("model_type") in ("deepseek_v3", "kimi_k2"):
        # deepseek_v3.py sanitize: kv_b_proj [H·(nope + v), R] → embed_q [H, R, nope] (transposed), unembed_out [H, v, R].
        H, nope = cfg["num_attention_heads"], cfg["qk_nope_head_dim"]
        for k in [k for k in out if k.endswith(".self_attn.kv_b_proj.weight")]:
            t = out.pop(k)
            a = np.frombuffer(t.raw, {2: np.uint16, 4: np.uint32}[len(t.raw) // (t.shape[0] * t.shape[1])])
            a = a.reshape(H, t.shape[0] // H, t.shape[1])
            for name, part in (("embed_q", a[:, :nope, :].transpose(0, 2, 1)), ("unembed_out", a[:, nope:, :])):
                part = np.ascontiguousarray(part)
                out[k.replace("kv_b_proj", name)] = Tensor(t.dtype, list(part.shape), part.tobytes())
    write_st(dst / "model.safetensors", dict(sorted(out.items())), {"format": "mlx"})
    shutil.copy(src / "config.json", dst / "config.json")


def digest(folder: Path) -> dict:
    """name → [dtype, shape, sha256 of the bytes] of every tensor of the folder's *.safetensors."""
    import hashlib
    tensors = {}
    for f in sorted(folder.glob("*.safetensors")):
        tensors.update(read_st(f))
    return {k: [t.dtype, list(t.shape), hashlib.sha256(t.raw).hexdigest()] for k, t in sorted(tensors.items())}


def main():
    if sys.argv[1] == "--stack":
        stack(Path(sys.argv[2]), Path(sys.argv[3]))
        return
    if sys.argv[1] == "--digest":
        print(json.dumps(digest(Path(sys.argv[2])), indent=1))
        return
    if sys.argv[1] == "--unstack":
        unstack(Path(sys.argv[2]), Path(sys.argv[3]))
        return
    if sys.argv[1] == "--hf":
        root = Path(sys.argv[2])
        for name in HF_CASES:
            make_hf_case(root, name)
        print("\n".join(HF_CASES))
        return
    if sys.argv[1] == "--mla-gguf":
        make_mla_gguf_case(Path(sys.argv[2]), Path(sys.argv[3]))
        return
    if sys.argv[1] == "--exact-values":
        sys.exit(exact_values(Path(sys.argv[2]), Path(sys.argv[3])))
    if sys.argv[1] == "--from-hf":
        a = sys.argv[2:]
        from_hf(Path(a[0]), Path(a[1]), int(a[a.index("--bits") + 1]), int(a[a.index("--group-size") + 1]))
        return
    root = Path(sys.argv[1])
    for i, name in enumerate(CASES):
        make_case(root, name, 1000 + i)
    print("\n".join(CASES))


if __name__ == "__main__":
    main()
