#!/usr/bin/python3
"""Tiny Hugging Face folders for the architectures the shared hf-gguf fixtures
lack (qwen2 with q/k/v biases, qwen3moe, phi3 with longrope, gpt2), and what
llama.cpp's convert_hf_to_gguf.py writes for them (--outtype f32):
tests/core/hf_arch_reference.json (per case: every non-tokenizer KV in file
order with its type and raw little-endian value, every tensor's name, type,
ne — the shape of the shared manifest's "gguf" objects).

  hf_arch_models.py OUT --shared SHARED_FIXTURES [--inputs-only]
      [--llama-cpp /work/ref/llama.cpp --shim /work/ref/hf_shim] [--write-reference FILE]

--inputs-only writes the folders only (test_arch_table does this at test time:
the JSON holds the converter's answer). Tokenizers are copied from the shared
fixtures at generation time and never committed: Qwen3's tokenizer.json for
qwen2/qwen3moe and (with a note: no GPT-2 tokenizer file is at hand) for gpt2,
Llama 2's tokenizer.model for phi3. Conventions of the shared fixtures: hidden
32, 2 layers, 4 heads, intermediate 64, weights 0.02·N(0,1) (norms 1 + …),
numpy RandomState seeded from sha256("<case>/<tensor>"), stored F32.
"""
import argparse
import hashlib
import json
import os
import shutil
import struct
import subprocess
import sys

import numpy as np

H, L, NH, FF = 32, 2, 4, 64


def rand(case, name, shape, norm=False):
    seed = int.from_bytes(hashlib.sha256(f"{case}/{name}".encode()).digest()[:4], "little")
    v = np.random.RandomState(seed).standard_normal(shape) * 0.02
    return (v + 1.0 if norm else v).astype(np.float32)


def write_safetensors(path, tensors):
    header, off, blobs = {}, 0, []
    for name in sorted(tensors):
        a = np.ascontiguousarray(tensors[name])
        b = a.tobytes()
        header[name] = {"dtype": "F32", "shape": list(a.shape), "data_offsets": [off, off + len(b)]}
        blobs.append(b)
        off += len(b)
    header["__metadata__"] = {"format": "pt"}
    h = json.dumps(header, separators=(",", ":")).encode()
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(h)) + h)
        for b in blobs:
            f.write(b)


def qwen2(case):
    cfg = {"architectures": ["Qwen2ForCausalLM"], "attention_dropout": 0.0, "bos_token_id": 151643, "eos_token_id": 151645,
           "hidden_act": "silu", "hidden_size": H, "initializer_range": 0.02, "intermediate_size": FF,
           "max_position_embeddings": 32768, "max_window_layers": 21, "model_type": "qwen2", "num_attention_heads": NH,
           "num_hidden_layers": L, "num_key_value_heads": 2, "rms_norm_eps": 1e-06, "rope_scaling": None,
           "rope_theta": 1000000.0, "sliding_window": 32768, "tie_word_embeddings": True, "torch_dtype": "bfloat16",
           "use_cache": True, "use_sliding_window": False, "vocab_size": 151936}
    t = {"model.embed_tokens.weight": (151936, H), "model.norm.weight": (H,)}
    for i in range(L):
        p = f"model.layers.{i}."
        t.update({p + "input_layernorm.weight": (H,), p + "post_attention_layernorm.weight": (H,),
                  p + "self_attn.q_proj.weight": (H, H), p + "self_attn.q_proj.bias": (H,),
                  p + "self_attn.k_proj.weight": (16, H), p + "self_attn.k_proj.bias": (16,),
                  p + "self_attn.v_proj.weight": (16, H), p + "self_attn.v_proj.bias": (16,),
                  p + "self_attn.o_proj.weight": (H, H), p + "mlp.gate_proj.weight": (FF, H),
                  p + "mlp.up_proj.weight": (FF, H), p + "mlp.down_proj.weight": (H, FF)})
    return cfg, t, "qwen3"


def qwen3moe(case):
    cfg = {"architectures": ["Qwen3MoeForCausalLM"], "attention_bias": False, "bos_token_id": 151643, "decoder_sparse_step": 1,
           "eos_token_id": 151645, "head_dim": 16, "hidden_act": "silu", "hidden_size": H, "intermediate_size": FF,
           "max_position_embeddings": 40960, "max_window_layers": 48, "mlp_only_layers": [], "model_type": "qwen3_moe",
           "moe_intermediate_size": 16, "norm_topk_prob": True, "num_attention_heads": NH, "num_experts": 4,
           "num_experts_per_tok": 2, "num_hidden_layers": L, "num_key_value_heads": 2, "output_router_logits": False,
           "rms_norm_eps": 1e-06, "rope_scaling": None, "rope_theta": 1000000.0, "router_aux_loss_coef": 0.001,
           "sliding_window": None, "tie_word_embeddings": False, "torch_dtype": "bfloat16", "use_cache": True,
           "use_sliding_window": False, "vocab_size": 151936}
    t = {"model.embed_tokens.weight": (151936, H), "model.norm.weight": (H,), "lm_head.weight": (151936, H)}
    for i in range(L):
        p = f"model.layers.{i}."
        t.update({p + "input_layernorm.weight": (H,), p + "post_attention_layernorm.weight": (H,),
                  p + "self_attn.q_proj.weight": (64, H), p + "self_attn.k_proj.weight": (32, H),
                  p + "self_attn.v_proj.weight": (32, H), p + "self_attn.o_proj.weight": (H, 64),
                  p + "self_attn.q_norm.weight": (16,), p + "self_attn.k_norm.weight": (16,),
                  p + "mlp.gate.weight": (4, H)})
        for x in range(4):
            q = p + f"mlp.experts.{x}."
            t.update({q + "gate_proj.weight": (16, H), q + "up_proj.weight": (16, H), q + "down_proj.weight": (H, 16)})
    return cfg, t, "qwen3"


def phi3(case):
    cfg = {"architectures": ["Phi3ForCausalLM"], "attention_bias": False, "attention_dropout": 0.0, "bos_token_id": 1,
           "embd_pdrop": 0.0, "eos_token_id": 32000, "hidden_act": "silu", "hidden_size": H, "initializer_range": 0.02,
           "intermediate_size": FF, "max_position_embeddings": 131072, "model_type": "phi3", "num_attention_heads": NH,
           "num_hidden_layers": L, "num_key_value_heads": NH, "original_max_position_embeddings": 4096,
           "pad_token_id": 32000, "resid_pdrop": 0.0, "rms_norm_eps": 1e-05,
           "rope_scaling": {"long_factor": [1.0800000429153442, 1.1100000143051147, 1.1399999856948853, 1.340000033378601 + 1e-9],
                            "short_factor": [1.0, 1.0199999809265137, 1.0299999713897705, 1.1 / 3], "type": "longrope"},
           "rope_theta": 10000.0, "sliding_window": 262144, "tie_word_embeddings": False, "torch_dtype": "bfloat16",
           "use_cache": True, "vocab_size": 32064}
    t = {"model.embed_tokens.weight": (32064, H), "model.norm.weight": (H,), "lm_head.weight": (32064, H)}
    for i in range(L):
        p = f"model.layers.{i}."
        t.update({p + "input_layernorm.weight": (H,), p + "post_attention_layernorm.weight": (H,),
                  p + "self_attn.qkv_proj.weight": (3 * H, H), p + "self_attn.o_proj.weight": (H, H),
                  p + "mlp.gate_up_proj.weight": (2 * FF, H), p + "mlp.down_proj.weight": (H, FF)})
    return cfg, t, "llama2"


def gpt2(case):
    cfg = {"activation_function": "gelu_new", "architectures": ["GPT2LMHeadModel"], "attn_pdrop": 0.1, "bos_token_id": 50256,
           "embd_pdrop": 0.1, "eos_token_id": 50256, "initializer_range": 0.02, "layer_norm_epsilon": 1e-05,
           "model_type": "gpt2", "n_ctx": 1024, "n_embd": H, "n_head": NH, "n_layer": L, "n_positions": 1024,
           "resid_pdrop": 0.1, "summary_activation": None, "summary_first_dropout": 0.1, "summary_proj_to_labels": True,
           "summary_type": "cls_index", "summary_use_proj": True, "vocab_size": 151936}
    t = {"wte.weight": (151936, H), "wpe.weight": (1024, H), "ln_f.weight": (H,), "ln_f.bias": (H,)}
    for i in range(L):
        p = f"h.{i}."
        t.update({p + "ln_1.weight": (H,), p + "ln_1.bias": (H,), p + "ln_2.weight": (H,), p + "ln_2.bias": (H,),
                  p + "attn.c_attn.weight": (H, 3 * H), p + "attn.c_attn.bias": (3 * H,),
                  p + "attn.c_proj.weight": (H, H), p + "attn.c_proj.bias": (H,),
                  p + "mlp.c_fc.weight": (H, 4 * H), p + "mlp.c_fc.bias": (4 * H,),
                  p + "mlp.c_proj.weight": (4 * H, H), p + "mlp.c_proj.bias": (H,)})
    return cfg, t, "qwen3"


CASES = {"Qwen2.5-0.5B": qwen2, "Qwen3-30B-A3B": qwen3moe, "Phi-3-mini-128k-instruct": phi3, "gpt2": gpt2}


def make_inputs(out, shared):
    for case, fn in CASES.items():
        cfg, shapes, tok = fn(case)
        d = os.path.join(out, case)
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, "config.json"), "w") as f:
            json.dump(cfg, f, indent=2)
            f.write("\n")
        write_safetensors(os.path.join(d, "model.safetensors"),
                          {n: rand(case, n, s, norm=("norm" in n or "ln_" in n) and n.endswith("weight")) for n, s in shapes.items()})
        if shared:
            src = os.path.join(shared, "hf-gguf", "inputs")
            if tok == "qwen3":
                for fn_ in ("tokenizer.json", "tokenizer_config.json"):
                    shutil.copy(os.path.join(src, "Qwen3-0.6B", fn_), d)
            else:
                shutil.copy(os.path.join(src, "Llama-2-7b-hf", "tokenizer.model"), d)


TYPE_NAMES = {4: "UINT32", 5: "INT32", 6: "FLOAT32", 7: "BOOL", 8: "STRING", 9: "ARRAY"}


def read_gguf(path, llama_cpp):
    sys.path.insert(0, os.path.join(llama_cpp, "gguf-py"))
    from gguf import GGUFReader
    r = GGUFReader(path)
    kvs = []
    for f in r.fields.values():
        if f.name.startswith("tokenizer.") or f.name.startswith("GGUF."):
            continue
        t = f.types[0].value
        e = {"key": f.name, "type": TYPE_NAMES.get(t, str(t))}
        if t == 8:
            e["value"] = bytes(f.parts[f.data[0]]).decode()
        elif t == 9:
            e["value"] = [bytes(f.parts[i]).decode() if f.types[1].value == 8 else f.parts[i].tolist()[0] for i in f.data]
        else:
            e["raw"] = bytes(f.parts[f.data[0]]).hex()
        kvs.append(e)
    tensors = [{"name": t.name, "type": t.tensor_type.name, "ne": [int(x) for x in t.shape]} for t in r.tensors]
    return {"kv": kvs, "tensors": tensors}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--shared")
    ap.add_argument("--inputs-only", action="store_true")
    ap.add_argument("--llama-cpp", default="/work/ref/llama.cpp")
    ap.add_argument("--shim", default="/work/ref/hf_shim")
    ap.add_argument("--write-reference")
    a = ap.parse_args()
    make_inputs(a.out, a.shared)
    if a.inputs_only:
        return
    ref = {"generator": "tests/core/hf_arch_models.py", "llama_cpp_commit": "34af94cd9ab2", "outtype": "f32",
           "notes": "gpt2 uses Qwen3's tokenizer.json (pre 'qwen2'): no GPT-2 tokenizer file was at hand; "
                    "the architecture KVs and tensors do not depend on it.", "cases": {}}
    for case in CASES:
        outf = os.path.join(a.out, case + ".F32.gguf")
        subprocess.run([sys.executable, os.path.join(a.shim, "run_convert.py"), a.llama_cpp, case, "--outtype", "f32",
                        "--outfile", outf], cwd=a.out, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        ref["cases"][case] = read_gguf(outf, a.llama_cpp)
    if a.write_reference:
        with open(a.write_reference, "w") as f:
            json.dump(ref, f, indent=1)
            f.write("\n")


if __name__ == "__main__":
    main()
