// SPDX-License-Identifier: MIT OR Apache-2.0
#include "cli.hpp"

namespace amn::cli {

void print_help(std::FILE* out, std::string_view verb) {
    if (verb == "parse") {
        std::fputs(
            "usage: amn parse MODEL [--json] [--kv]\n\n"
            "List every stored tensor: name, dtype, shape, size and role (quantized,\n"
            "scale, companion, passthrough, unsupported).\n\n"
            "MODEL  a .safetensors file, a *.safetensors.index.json, a .gguf, .npy, .npz,\n"
            "       .pth/.pt, an ollama:NAME[:TAG] model, or a folder holding one of them\n\n"
            "  --json   machine-readable output (keys documented in README.md)\n"
            "  --kv     also print the file's metadata key/values (GGUF: every key with its\n"
            "           type; long arrays summarised; with --json, complete values)\n",
            out);
    } else if (verb == "inspect" || verb == "info") {
        std::fputs(
            "usage: amn inspect MODEL [--json] [--scan]      (alias: info)\n\n"
            "Summarise a model: format, quantization scheme(s) in words, tensor counts by\n"
            "role, size now and as BF16, and what Lethe took (bytes quantization saved).\n\n"
            "  --json   machine-readable output (keys documented in README.md)\n"
            "  --scan   list every global the file's pickles reference (PyTorch .pth,\n"
            "           NumPy object arrays) with a verdict, building nothing; exit 0\n"
            "           when only allowlisted globals appear, 1 otherwise\n",
            out);
    } else if (verb == "convert") {
        std::fputs(
            "usage: amn convert MODEL --to safetensors|bf16|f16|f32 [-o OUT] [--layout hf] [--force] [--threads N] [--quiet]\n"
            "       amn convert DIR --to gguf[:TYPE] [-o OUT.gguf] [--vocab-only] [--vocab-pre NAME]\n"
            "                   [--dry-run] [--force] [--threads N] [--quiet]\n\n"
            "Rewrite MODEL (any readable format) as safetensors. --to safetensors keeps\n"
            "every stored dtype (lossless; quantized tensors are dequantized to BF16);\n"
            "--to bf16|f16|f32 is `amn remember --to …`. Options as for remember.\n\n"
            "--to gguf[:TYPE]: a Hugging Face model folder (config.json, model*.safetensors\n"
            "[+ index], tokenizer files) becomes the GGUF llama.cpp's convert_hf_to_gguf.py\n"
            "writes, byte for byte: tensor names, Q/K permutation, MoE experts stacked, the\n"
            "general.* metadata, the architecture's key/values and the tokenizer. Quantized\n"
            "folders (FP8, GPTQ, AWQ, bitsandbytes, compressed-tensors, ModelOpt) are\n"
            "dequantized first. DIR may also be its model.safetensors or index.json.\n"
            "TYPE (--outtype): F32 F16 BF16 Q8_0, or auto (the default: BF16 when the weights\n"
            "     are BF16, else F16). For llama-quantize's file types use amn forget.\n\n"
            "  -o, --outfile OUT.gguf    output file (default: beside DIR, named as the converter\n"
            "                            names it, e.g. Meta-Llama-3-8B-Instruct-8.0B-BF16.gguf)\n"
            "  --vocab-only              write the key/values and tokenizer only, no tensors\n"
            "  --vocab-pre NAME          the tokenizer.ggml.pre to write (llama-bpe, qwen2, gpt-2 …)\n"
            "                            instead of the one detected\n"
            "  --dry-run, -n             list every tensor with its GGUF name, type and why\n"
            "  --force, --threads N, --quiet   as for remember\n",
            out);
    } else if (verb == "forget" || verb == "quantize") {
        std::fputs(
            "usage: amn forget MODEL --to gguf:FTYPE [-o OUT.gguf] [--pure] [--tensor-type REGEX=TYPE]...\n"
            "                  [--output-tensor-type TYPE] [--token-embedding-type TYPE] [--imatrix FILE]\n"
            "                  [--dry-run] [--report] [--json] [--force] [--threads N] [--quiet]\n"
            "       (alias: quantize)\n\n"
            "Quantize a GGUF model the way llama.cpp's llama-quantize does, byte for byte:\n"
            "the same type for every tensor, the same blocks, the same key/values\n"
            "(general.file_type and general.quantization_version set). Quantized inputs\n"
            "are dequantized first (a warning says the error compounds). Written to a\n"
            "temporary file and renamed when complete; Ctrl-C leaves nothing behind.\n"
            "MODEL may also be a Hugging Face folder: then the output is what\n"
            "convert_hf_to_gguf.py (--outtype bf16 for BF16 weights, f16 for F16, else f32)\n"
            "followed by llama-quantize writes, in one pass without the intermediate file.\n\n"
            "FTYPE (llama-quantize's names): F32 F16 BF16 Q8_0 Q4_0 Q4_1 Q5_0 Q5_1 Q2_K\n"
            "       Q3_K_S Q3_K_M Q3_K_L Q4_K_S Q4_K_M Q5_K_S Q5_K_M Q6_K IQ4_NL IQ4_XS IQ3_S\n"
            "       IQ3_M TQ1_0 TQ2_0 MXFP4_MOE Q1_0 Q2_0 (Q3_K, Q4_K, Q5_K = the _M mixes);\n"
            "       IQ1_S IQ1_M IQ2_XXS IQ2_XS IQ2_S IQ2_M IQ3_XXS IQ3_XS Q2_K_S need --imatrix\n\n"
            "  -o OUT.gguf               output file (default: beside the input,\n"
            "                            tiny-llama-F32.gguf → tiny-llama-Q4_K_M.gguf)\n"
            "  --pure                    no mix rules: FTYPE's type for every quantized tensor\n"
            "  --tensor-type REGEX=TYPE  type for tensors whose name matches REGEX (repeatable;\n"
            "                            the first match wins), e.g. --tensor-type attn_v=Q8_0\n"
            "  --output-tensor-type TYPE    type of output.weight\n"
            "  --token-embedding-type TYPE  type of token_embd.weight\n"
            "  --imatrix FILE            importance matrix from llama-imatrix (GGUF or legacy .dat),\n"
            "                            used as llama-quantize uses it (needed by the IQ1/IQ2 types)\n"
            "  --vocab-pre NAME          Hugging Face input: the tokenizer.ggml.pre to write\n"
            "  --dry-run, -n             print each tensor's type and why, write nothing\n"
            "  --report                  per tensor: type, bits per weight, RMSE, max abs error\n"
            "                            and SQNR of the round trip (what Lethe took, measured;\n"
            "                            only for --report or --json; the same file either way)\n"
            "  --json                    the report as JSON (keys documented in README.md)\n"
            "  --force                   replace an existing output\n"
            "  --threads N               worker threads (default: all cores)\n"
            "  --quiet                   no progress or summary\n"
            "TYPE: a ggml type name (Q4_K, q6_k, Q8_0, F16, BF16, IQ4_XS, MXFP4, NVFP4 …)\n\n"
            "usage: amn forget MODEL --to SCHEME [scheme options] [-o OUT] [--keep REGEX]... [--only REGEX]...\n"
            "                  [--requantize] [--dry-run] [--report] [--json] [--force] [--threads N] [--quiet]\n\n"
            "Quantize a BF16/F16/F32 model (safetensors, .pth, .npz, GGUF: anything amn can\n"
            "remember) to the safetensors checkpoint a serving stack loads, byte for byte what\n"
            "the library writes: tensor names and companions as the library stores them,\n"
            "config.json with its quantization_config, tokenizer and generation files copied,\n"
            "sharded like the input (with index.json). A GGUF is read in its Hugging Face\n"
            "layout (names and config.json as amn remember writes them) and becomes a model\n"
            "folder. Where the reference documents a CPU and a CUDA variant, amn writes the\n"
            "CPU bytes (bitsandbytes' default torch backend, torch's CPU reductions and true\n"
            "divisions; see fixtures quantize-ref-st/README).\n\n"
            "SCHEME (library, what vLLM/transformers read):\n"
            "  bnb-nf4, bnb-fp4          bitsandbytes 4-bit (Linear4bit): weight, weight.absmax,\n"
            "                            weight.quant_map, weight.quant_state.bitsandbytes__nf4|fp4\n"
            "      --blocksize 64|128    absmax block over the flattened weight (default 64)\n"
            "      --double-quant        absmax quantized to 8 bits (weight.nested_absmax, _quant_map)\n"
            "  bnb-int8                  bitsandbytes LLM.int8 (Linear8bitLt): weight I8, SCB, weight_format\n"
            "  fp8                       compressed-tensors float-quantized: weight F8_E4M3, weight_scale\n"
            "      --granularity G       tensor (preset FP8), channel (FP8_DYNAMIC, default),\n"
            "                            block (FP8_BLOCK, 128x128)\n"
            "  fp8-block-deepseek        DeepSeek-V3 block FP8: weight F8_E4M3, weight_scale_inv F32\n"
            "      --ue8m0               power-of-two scales (DeepSeek-V3.1 scale_fmt ue8m0)\n"
            "  w4a16, w4a16-asym,        compressed-tensors pack-quantized INT4/INT8: weight_packed,\n"
            "  w8a16, w8a16-asym         weight_scale, weight_shape (+ weight_zero_point when asym)\n"
            "      --group-size 128|channel  columns per scale (default 128; must divide every row)\n\n"
            "Which tensors: the 2-D Linear weights of the transformer blocks (q/k/v/o_proj,\n"
            "gate/up/down_proj, MoE experts …). Embeddings, lm_head, norms, biases, MoE\n"
            "routers and anything 1-D are kept unchanged (as the libraries' default ignore\n"
            "does); compressed-tensors configs list kept Linear modules under \"ignore\".\n"
            "  --keep REGEX              never quantize tensors whose name matches (repeatable)\n"
            "  --only REGEX              quantize exactly the 2-D weights matching (repeatable)\n"
            "  --requantize              accept an already-quantized input (decoded first; the\n"
            "                            errors compound); without it such an input is an error\n"
            "  -o OUT                    output folder, or OUT.safetensors (default: a sibling\n"
            "                            <model>-<scheme> folder, or <stem>-<scheme>.safetensors)\n"
            "  --dry-run, --report, --json, --force, --threads, --quiet   as above (the round trip\n"
            "                            is measured only for --report or --json; same files)\n"
            "A NaN or infinity in a weight, a group size that does not divide a row, or an\n"
            "unknown scheme is an error that names it (exit 1); nothing is written.\n",
            out);
    } else if (verb == "remember" || verb == "dequantize") {
        std::fputs(
            "usage: amn remember MODEL [--to bf16|f16|f32] [-o OUT] [--layout hf] [--force] [--threads N] [--quiet]\n"
            "       (alias: dequantize)\n\n"
            "Dequantize MODEL to plain safetensors, bit-exact against the scheme's\n"
            "reference library. Written to a temporary file and renamed when complete:\n"
            "a failure or Ctrl-C leaves nothing behind; the input is never modified.\n\n"
            "  --to DTYPE    dtype of dequantized tensors (default bf16); when given, other\n"
            "                floating-point tensors are converted too (round-to-nearest-even)\n"
            "  -o OUT        output file (*.safetensors) or folder; default: beside the input,\n"
            "                quantization suffix replaced (model-fp8.safetensors → model-bf16.safetensors;\n"
            "                a model folder → <folder>-bf16/ with config.json and tokenizer files)\n"
            "  --layout hf   GGUF input (llama, mistral, qwen2, qwen3, gemma, gemma2, gemma3):\n"
            "                Hugging Face tensor names, llama.cpp's Q/K row permutation and\n"
            "                Gemma's norm +1 undone, config.json from the GGUF key/values;\n"
            "                default output: a folder <stem>-bf16/ that transformers can load\n"
            "                (--layout gguf, the default, keeps the GGUF names and values)\n"
            "  --force       replace existing output files\n"
            "  --threads N   worker threads (default: all cores)\n"
            "  --quiet       no progress or summary\n",
            out);
    } else {
        std::fputs(
            "usage: amn COMMAND [options] MODEL\n\n"
            "anamnesis — parse any tensor format, recover any precision.\n\n"
            "commands:\n"
            "  parse                     list the stored tensors\n"
            "  inspect, info             summarise schemes, sizes and what Lethe took\n"
            "  remember, dequantize      dequantize to BF16/F16/F32 safetensors\n"
            "  convert                   rewrite any readable format as safetensors, or a\n"
            "                            Hugging Face folder as GGUF (convert_hf_to_gguf.py)\n"
            "  forget, quantize          quantize to GGUF (llama-quantize's file types) or to\n"
            "                            bitsandbytes / FP8 / compressed-tensors safetensors\n"
            "  help COMMAND              help for one command\n\n"
            "  --version                 version and SIMD target\n\n"
            "exit codes: 0 ok, 1 error (one line on stderr), 2 usage\n",
            out);
    }
}

}  // namespace amn::cli
