// SPDX-License-Identifier: MIT OR Apache-2.0
#include "anamnesis/gguf_ftype.hpp"
#include "anamnesis/hf_layout.hpp"
#include "cli.hpp"

#include <string>
#include <vector>

namespace amn::cli {

namespace {

// The converter's outtypes, from their table: "F32 F16 BF16 Q8_0".
std::string outtype_help() {
    std::string r;
    for (const auto& o : converter_outtypes()) r += (r.empty() ? "" : " ") + std::string(o.name);
    return r;
}

// Words after `lead`, wrapped at 86 columns with continuation lines indented to `indent`.
std::string wrap(std::string lead, const std::vector<std::string>& words, std::size_t indent) {
    std::string out = lead, line = lead;
    for (const auto& w : words) {
        if (line.size() + 1 + w.size() > 86 && line.size() > indent) {
            out += "\n" + std::string(indent, ' ');
            line = std::string(indent, ' ');
        } else if (!line.empty() && line.back() != ' ') {
            out += ' ';
            line += ' ';
        }
        out += w;
        line += w;
    }
    return out;
}

// The GGUF architectures --layout hf writes back, from the architecture table.
std::string layout_hf_help() {
    std::vector<std::string> words;
    const auto& archs = hf_layout_architectures();
    for (std::size_t i = 0; i < archs.size(); ++i)
        words.push_back((i == 0 ? "(" : "") + std::string(archs[i]) + (i + 1 == archs.size() ? "):" : ","));
    return wrap("  --layout hf   GGUF input", words, 16) + "\n";
}

// llama-quantize's file types, from the file-type table: those offered
// without an importance matrix (F32, F16, BF16 first, then by id), the
// aliases, then those that need one.
std::string ftype_help() {
    std::vector<std::string> plain, imatrix;
    for (const char* f : {"F32", "F16", "BF16"}) plain.emplace_back(f);
    for (const auto& t : llama_file_types()) {
        if (!t.offered || t.name == "F32" || t.name == "F16" || t.name == "BF16") continue;
        (llama_ftype_needs_imatrix(t.id) ? imatrix : plain).emplace_back(t.name);
    }
    plain.back() += " (Q3_K, Q4_K, Q5_K = the _M mixes);";
    imatrix.emplace_back("need --imatrix");
    return wrap("FTYPE (llama-quantize's names):", plain, 7) + "\n" + wrap("       ", imatrix, 7) + "\n\n";
}

}  // namespace

void print_help(std::FILE* out, std::string_view verb) {
    if (verb == "parse") {
        std::fputs(
            "usage: amn parse MODEL [--json] [--kv]\n\n"
            "List every stored tensor: name, dtype, shape, size and role (quantized,\n"
            "scale, companion, passthrough, unsupported).\n\n"
            "MODEL  a .safetensors file, a *.safetensors.index.json, a .gguf (any part of a\n"
            "       split set NAME-00001-of-00003.gguf opens the whole set), .npy, .npz,\n"
            "       .pth/.pt, an ollama:NAME[:TAG] model, or a folder holding one of them;\n"
            "       or remote, only its headers downloaded: an https:// URL of such a file,\n"
            "       or a Hugging Face repository hf://ORG/REPO[@REVISION][/PATH]\n\n"
            "  --json   machine-readable output (keys documented in README.md)\n"
            "  --kv     also print the file's metadata key/values (GGUF: every key with its\n"
            "           type; long arrays summarised; with --json, complete values)\n",
            out);
    } else if (verb == "inspect" || verb == "info") {
        std::fputs(
            "usage: amn inspect MODEL [--json] [--scan]      (alias: info)\n\n"
            "Summarise a model: format, quantization scheme(s) in words, tensor counts by\n"
            "role, size now and as BF16, and what Lethe took (bytes quantization saved).\n"
            "A PEFT adapter folder (adapter_config.json): rank, alpha and scale, the target\n"
            "modules, the base model, and the GGUF adapter it becomes (or why not).\n\n"
            "MODEL  as for amn parse: a local file or folder, an https:// URL, or\n"
            "       hf://ORG/REPO[@REVISION][/PATH] (headers only travel: HTTP range\n"
            "       requests; HF_ENDPOINT, HF_TOKEN or the token file, HF_HUB_DOWNLOAD_TIMEOUT,\n"
            "       HTTPS_PROXY and NO_PROXY as huggingface_hub reads them)\n\n"
            "  --json   machine-readable output (keys documented in README.md; a remote\n"
            "           model adds \"remote\": the bytes fetched and the requests)\n"
            "  --scan   list every global the file's pickles reference (PyTorch .pth,\n"
            "           NumPy object arrays) with a verdict, building nothing; exit 0\n"
            "           when only allowlisted globals appear, 1 otherwise\n",
            out);
    } else if (verb == "convert") {
        std::fputs(
            "usage: amn convert MODEL --to safetensors|bf16|f16|f32 [-o OUT] [--layout hf] [--force] [--threads N] [--quiet]\n"
            "       amn convert DIR --to gguf[:TYPE] [-o OUT.gguf] [--mmproj] [--vocab-only] [--vocab-pre NAME] [--no-mtp]\n"
            "                   [--split-max-size N[K|M|G]] [--split-max-tensors N] [--no-tensor-first-split]\n"
            "                   [--dry-run] [--force] [--threads N] [--quiet]\n"
            "       amn convert ADAPTER_DIR --to gguf[:TYPE] --base BASE_DIR [-o OUT.gguf]\n"
            "                   [--dry-run] [--force] [--threads N] [--quiet]\n"
            "       amn convert X.gguf --to gguf [-o OUT] [--split-max-size N[K|M|G] | --split-max-tensors N]\n"
            "                   [--no-tensor-first-split] [--dry-run] [--force] [--quiet]\n\n"
            "Rewrite MODEL (any readable format) as safetensors. --to safetensors keeps\n"
            "every stored dtype (lossless; quantized tensors are dequantized to BF16);\n"
            "--to bf16|f16|f32 is `amn remember --to …`. Options as for remember.\n\n"
            "--to gguf[:TYPE]: a Hugging Face model folder (config.json, model*.safetensors\n"
            "[+ index], tokenizer files) becomes the GGUF llama.cpp's convert_hf_to_gguf.py\n"
            "writes, byte for byte: tensor names, Q/K permutation, MoE experts stacked, the\n"
            "general.* metadata, the architecture's key/values and the tokenizer. Quantized\n"
            "folders (FP8, GPTQ, AWQ, bitsandbytes, compressed-tensors, ModelOpt) are\n"
            "dequantized first. DIR may also be its model.safetensors or index.json.\n",
            out);
        std::fprintf(out,
            "TYPE (the converter's outtype): %s, or auto (the default:\n"
            "     BF16 when the weights are BF16, else F16). For llama-quantize's file\n"
            "     types use amn forget.\n\n", outtype_help().c_str());
        std::fputs(
            "  -o, --outfile OUT.gguf    output file (default: beside DIR, named as the converter\n"
            "                            names it, e.g. Meta-Llama-3-8B-Instruct-BF16.gguf)\n"
            "  --mmproj                  write the vision projector instead (mmproj-NAME-TYPE.gguf, as\n"
            "                            convert_hf_to_gguf.py --mmproj) for llama.cpp's mtmd tools:\n"
            "                            Gemma 3 (SigLIP) and Qwen2-VL / Qwen2.5-VL folders\n"
            "  --vocab-only              write the key/values and tokenizer only, no tensors\n"
            "  --vocab-pre NAME          the tokenizer.ggml.pre to write (llama-bpe, qwen2, gpt-2 …)\n"
            "                            instead of the one detected\n"
            "  --no-mtp, --no-nextn      leave out the multi-token prediction block (Qwen3-Next's\n"
            "                            mtp.*), as the converter's option: a folder without it converts\n"
            "  --split-max-size N[K|M|G] parts of at most N bytes of tensor data each (K, M, G =\n"
            "                            10^3, 10^6, 10^9), named OUT-00001-of-0000N.gguf, as the\n"
            "                            converter cuts and names them (one part: the plain file)\n"
            "  --split-max-tensors N     parts of at most N tensors each\n"
            "  --no-tensor-first-split   part 1 holds the key/values only\n"
            "  --dry-run, -n             list every tensor with its GGUF name, type and why (and the\n"
            "                            parts with their sizes)\n"
            "  --force, --threads N, --quiet   as for remember\n\n"
            "ADAPTER_DIR --to gguf[:TYPE] --base BASE_DIR: a PEFT LoRA adapter folder\n"
            "(adapter_config.json, adapter_model.safetensors) becomes the GGUF adapter\n"
            "llama.cpp's convert_lora_to_gguf.py writes, byte for byte (for llama-cli's\n"
            "adapter option, llama-export-lora): lora_A/lora_B as .lora_a/.lora_b under the\n"
            "base's GGUF names, B's rows permuted with llama's Q/K (cut or regrouped where\n"
            "the base's class splits a fused tensor), experts stacked, adapter.lora.alpha,\n"
            "general.* from the adapter folder. Only BASE_DIR/config.json is read. TYPE: F32\n"
            "(the default, as the converter's), F16, BF16, Q8_0 (a lora_b whose rank is not a\n"
            "multiple of 32 stays F16). DoRA, modules_to_save (whole embeddings) and\n"
            "alpha_pattern are refused; the converter's base-model-id (a config from the Hub)\n"
            "is not available: download its config.json and pass --base.\n"
            "  --base BASE_DIR           the base model's folder (its config.json)\n"
            "  -o, --outfile OUT.gguf    default: beside ADAPTER_DIR, named as the converter\n"
            "                            names it (e.g. Llama-3-8B-Instruct-chat-F16-LoRA.gguf)\n\n"
            "X.gguf --to gguf: the GGUF's tensors copied as they are (no type changes; for those\n"
            "use amn forget). A split set (any part X-00002-of-00003.gguf names it) becomes one\n"
            "file, as llama-gguf-split merges it (default OUT: X.gguf beside the parts);\n"
            "with --split-max-size or --split-max-tensors a GGUF (one file or a set) is cut into\n"
            "OUT-00001-of-0000N.gguf … as llama-gguf-split cuts it (sizes count tensor\n"
            "bytes padded to 32; --split-max-tensors defaults to 128 there; OUT is the prefix,\n"
            "default the input's name); --dry-run lists the files and their sizes.\n",
            out);
    } else if (verb == "forget" || verb == "quantize") {
        std::fputs(
            "usage: amn forget MODEL --to gguf:FTYPE [-o OUT.gguf] [--pure] [--tensor-type REGEX=TYPE]...\n"
            "                  [--output-tensor-type TYPE] [--token-embedding-type TYPE] [--imatrix FILE]\n"
            "                  [--keep-split | --split-max-size N[K|M|G] | --split-max-tensors N]\n"
            "                  [--no-tensor-first-split]\n"
            "                  [--dry-run] [--report] [--json] [--force] [--threads N] [--quiet]\n"
            "       (alias: quantize)\n\n"
            "Quantize a GGUF model the way llama.cpp's llama-quantize does, byte for byte:\n"
            "the same type for every tensor, the same blocks, the same key/values\n"
            "(general.file_type and general.quantization_version set). Quantized inputs\n"
            "are dequantized first (a warning says the error compounds). Written to a\n"
            "temporary file and renamed when complete; Ctrl-C leaves nothing behind.\n"
            "MODEL may also be a Hugging Face folder: then the output is what\n"
            "convert_hf_to_gguf.py (outtype bf16 for BF16 weights, f16 for F16, else f32)\n"
            "followed by llama-quantize writes, in one pass without the intermediate file.\n"
            "An MLX folder's codes that the chosen type holds as they are — affine 4/5/8-bit\n"
            "with groups of 32 and F16-exact scales and biases as Q4_1/Q5_1 (Q4_0/Q5_0/Q8_0\n"
            "when every bias is -2^(bits-1)*scale), mxfp4 as MXFP4, nvfp4 as NVFP4 — are\n"
            "repacked losslessly instead; --dry-run says per tensor which, and why not.\n\n",
            out);
        std::fputs(ftype_help().c_str(), out);
        std::fputs(
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
            "  --no-mtp, --no-nextn      Hugging Face input: leave out the MTP block (Qwen3-Next)\n"
            "  --keep-split              a split GGUF input (any part names the set): one output\n"
            "                            per input part, OUT-00001-of-0000N.gguf …, as\n"
            "                            llama-quantize --keep-split writes them (OUT less .gguf)\n"
            "  --split-max-size N[K|M|G], --split-max-tensors N, --no-tensor-first-split\n"
            "                            cut the output into parts OUT-00001-of-0000N.gguf … as\n"
            "                            llama-gguf-split cuts the file llama-quantize writes\n"
            "  --dry-run, -n             print each tensor's type and why (and the parts), write nothing\n"
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
            "      --group-size 128|channel  columns per scale (default 128; must divide every row)\n"
            "  mlx, mlx:BITS             MLX (mlx-lm, mlx_lm.convert -q): affine mx.quantize, BITS 2, 3,\n"
            "                            4 (default), 5, 6, 8: weight U32, scales, biases; every Linear\n"
            "                            and Embedding weight (lm_head, embeddings, routers too) whose\n"
            "                            rows the group divides; config.json quantization, format: mlx\n"
            "      --group-size 32|64|128    elements per scale and bias (default 64)\n"
            "      --dtype float16|bfloat16|float32  cast every float tensor first (mlx_lm.convert's\n"
            "                            --dtype; default: config.json's torch_dtype, as it does;\n"
            "                            a --requantize input's weights decoded to BF16 first)\n"
            "      --quant-predicate mixed_2_6|mixed_3_4|mixed_3_6|mixed_4_6  mlx_lm.convert's mixed\n"
            "                            recipes (affine): lm_head, and v_proj/down_proj of the first and\n"
            "                            last eighth of the layers and every third between, 6 bits (4 for\n"
            "                            mixed_3_4), the rest 2, 3 or 4; a quantization entry per module\n"
            "      MoE experts stacked into switch_mlp [experts, out, in] (mixtral, qwen2_moe,\n"
            "      qwen3_moe, olmoe, deepseek_v2, deepseek_v3/kimi_k2 with kv_b_proj split into\n"
            "      embed_q/unembed_out: mlx-lm's sanitize); qwen3_moe and gpt_oss routers 8-bit\n"
            "      group 64 (their predicates), deepseek's MoEGate routers float (not a Linear);\n"
            "      gpt_oss's MXFP4 experts kept as mxfp4 (its original checkpoint; codes copied);\n"
            "      a model_type mlx-lm has no model for, or other MoE experts, is an error\n"
            "  mlx:mxfp4, mlx:nvfp4,     MLX's fp modes (mlx_lm.convert's q-mode): E2M1 codes with an\n"
            "  mlx:mxfp8                 E8M0 scale per 32 / an E4M3 scale per 16, E4M3 codes with an\n"
            "                            E8M0 scale per 32: weight U32, scales U8 (no biases)\n"
            "      Lossless from a GGUF: Q4_0/Q4_1 with mlx:4, Q5_0/Q5_1 with mlx:5, Q8_0 with mlx:8\n"
            "      (--group-size 32), MXFP4 with mlx:mxfp4, NVFP4 with mlx:nvfp4: the codes and\n"
            "      scales repacked as they are (F16 scales), nothing rounded, no --requantize;\n"
            "      --dry-run says per tensor \"lossless\" or why it is re-quantized\n\n"
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
            "  --to DTYPE    dtype of dequantized tensors (default bf16; MLX layers: the\n"
            "                dtype mx.dequantize returns, their scales'); when given, other\n"
            "                floating-point tensors are converted too (round-to-nearest-even)\n"
            "  -o OUT        output file (*.safetensors) or folder; default: beside the input,\n"
            "                quantization suffix replaced (model-fp8.safetensors → model-bf16.safetensors;\n"
            "                a model folder → <folder>-bf16/ with config.json and tokenizer files)\n",
            out);
        std::fputs(layout_hf_help().c_str(), out);
        std::fputs(
            "                Hugging Face tensor names, llama.cpp's Q/K row permutation and\n"
            "                Gemma's norm +1 undone, stacked experts split per expert, GPT-2's\n"
            "                Conv1D orientation, config.json from the GGUF key/values;\n"
            "                default output: a folder <stem>-bf16/ that transformers can load\n"
            "                (a vocab-only GGUF: its tokenizer files alone, into <stem>-tokenizer/)\n"
            "                (--layout gguf, the default, keeps the GGUF names and values)\n"
            "                MLX (mlx-lm) input: MoE switch_mlp stacks split back into the\n"
            "                Hugging Face experts mlx-lm stacked (mixtral experts.N.w1/w2/w3,\n"
            "                qwen2_moe/qwen3_moe/olmoe/deepseek experts.N.*_proj, deepseek_v3's\n"
            "                kv_b_proj, gpt_oss's gate_up_proj); the rest as\n"
            "                remember writes it\n"
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
            "MODEL may be remote: an https:// URL or hf://ORG/REPO[@REVISION][/PATH]. parse\n"
            "and inspect download only its headers; remember, convert and forget (given an\n"
            "output path) download its files first, resumably, into $AMN_DOWNLOAD_DIR or\n"
            "$HF_HOME/anamnesis (HF_ENDPOINT, HF_TOKEN, HF_HUB_DOWNLOAD_TIMEOUT, HTTPS_PROXY)\n\n"
            "environment: AMN_SIMD_TARGET=AVX2 (or AVX3, SSE4, ...) runs every kernel on that\n"
            "  SIMD target instead of the best one; the output bytes are the same\n"
            "exit codes: 0 ok, 1 error (one line on stderr), 2 usage\n",
            out);
    }
}

}  // namespace amn::cli
