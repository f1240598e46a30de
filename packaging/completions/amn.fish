# fish completion for amn(1), the anamnesis command line.
# Installed as share/fish/vendor_completions.d/amn.fish. Each command's
# options below are checked against `amn help COMMAND` by
# packaging/check_help_sync.py (ctest packaging.help_sync).

set -l amn_commands parse inspect info remember dequantize convert forget quantize help
set -l amn_ftypes F32 F16 BF16 Q8_0 Q4_0 Q4_1 Q5_0 Q5_1 Q2_K Q2_K_S Q3_K Q3_K_S Q3_K_M Q3_K_L Q4_K Q4_K_S Q4_K_M Q5_K Q5_K_S Q5_K_M Q6_K IQ4_NL IQ4_XS IQ3_S IQ3_M IQ3_XS IQ3_XXS IQ2_M IQ2_S IQ2_XS IQ2_XXS IQ1_S IQ1_M TQ1_0 TQ2_0 MXFP4_MOE Q1_0 Q2_0
set -l amn_schemes bnb-nf4 bnb-fp4 bnb-int8 fp8 fp8-block-deepseek w4a16 w4a16-asym w8a16 w8a16-asym mlx mlx:2 mlx:3 mlx:4 mlx:5 mlx:6 mlx:8 mlx:mxfp4 mlx:nvfp4 mlx:mxfp8
set -l amn_targets $amn_schemes gguf:$amn_ftypes
set -l amn_types F32 F16 BF16 Q8_0 Q4_0 Q4_1 Q5_0 Q5_1 Q2_K Q3_K Q4_K Q5_K Q6_K IQ4_NL IQ4_XS IQ3_S IQ3_XXS IQ2_S IQ2_XS IQ2_XXS IQ1_S IQ1_M TQ1_0 TQ2_0 MXFP4 NVFP4

complete -c amn -f
complete -c amn -n "not __fish_seen_subcommand_from $amn_commands" -s V -l version -d 'Version and SIMD target'
complete -c amn -n "not __fish_seen_subcommand_from $amn_commands" -s h -l help -d 'Usage'
complete -c amn -n "not __fish_seen_subcommand_from $amn_commands" -a parse -d 'List the stored tensors'
complete -c amn -n "not __fish_seen_subcommand_from $amn_commands" -a 'inspect info' -d 'Summarise schemes, sizes and what Lethe took'
complete -c amn -n "not __fish_seen_subcommand_from $amn_commands" -a 'remember dequantize' -d 'Dequantize to BF16/F16/F32 safetensors'
complete -c amn -n "not __fish_seen_subcommand_from $amn_commands" -a convert -d 'Rewrite any readable format as safetensors'
complete -c amn -n "not __fish_seen_subcommand_from $amn_commands" -a 'forget quantize' -d 'Quantize to GGUF or safetensors schemes'
complete -c amn -n "not __fish_seen_subcommand_from $amn_commands" -a help -d 'Help for one command'
complete -c amn -n "__fish_seen_subcommand_from help" -a "$amn_commands"

# Every command: MODEL is a file or folder, and --help.
complete -c amn -n "__fish_seen_subcommand_from parse inspect info remember dequantize convert forget quantize" -F
complete -c amn -n "__fish_seen_subcommand_from parse inspect info remember dequantize convert forget quantize" -s h -l help -d 'Help for this command'

# parse
complete -c amn -n "__fish_seen_subcommand_from parse" -l json -d 'Machine-readable output'
complete -c amn -n "__fish_seen_subcommand_from parse" -l kv -d 'Also print the metadata key/values'

# inspect, info
complete -c amn -n "__fish_seen_subcommand_from inspect info" -l json -d 'Machine-readable output'
complete -c amn -n "__fish_seen_subcommand_from inspect info" -l scan -d 'List the globals the pickles reference'

# remember, dequantize
complete -c amn -n "__fish_seen_subcommand_from remember dequantize" -l to -x -a 'bf16 f16 f32' -d 'Dtype of dequantized tensors'
complete -c amn -n "__fish_seen_subcommand_from remember dequantize" -s o -l output -r -F -d 'Output file or folder'
complete -c amn -n "__fish_seen_subcommand_from remember dequantize" -l layout -x -a 'hf gguf' -d 'Tensor names and layout of GGUF input'
complete -c amn -n "__fish_seen_subcommand_from remember dequantize" -s f -l force -d 'Replace existing output files'
complete -c amn -n "__fish_seen_subcommand_from remember dequantize" -l threads -x -d 'Worker threads'
complete -c amn -n "__fish_seen_subcommand_from remember dequantize" -s q -l quiet -d 'No progress or summary'

# convert
complete -c amn -n "__fish_seen_subcommand_from convert" -l to -x -a 'safetensors bf16 f16 f32 gguf gguf:F32 gguf:F16 gguf:BF16 gguf:Q8_0 gguf:auto' -d 'Output dtype, or GGUF for a Hugging Face folder'
complete -c amn -n "__fish_seen_subcommand_from convert" -s o -l output -r -F -d 'Output file or folder'
complete -c amn -n "__fish_seen_subcommand_from convert" -l outfile -r -F -d 'Output GGUF (convert_hf_to_gguf name)'
complete -c amn -n "__fish_seen_subcommand_from convert" -l base -x -a "(__fish_complete_directories)" -d 'GGUF: base model folder of a PEFT LoRA adapter'
complete -c amn -n "__fish_seen_subcommand_from convert" -l mmproj -d 'GGUF: the vision projector (mmproj) instead'
complete -c amn -n "__fish_seen_subcommand_from convert" -l vocab-only -d 'GGUF: key/values and tokenizer only'
complete -c amn -n "__fish_seen_subcommand_from convert" -l vocab-pre -x -d 'GGUF: the tokenizer.ggml.pre to write'
complete -c amn -n "__fish_seen_subcommand_from convert" -l no-mtp -d 'GGUF: leave out the MTP block'
complete -c amn -n "__fish_seen_subcommand_from convert" -l no-nextn -d 'GGUF: leave out the MTP block'
complete -c amn -n "__fish_seen_subcommand_from convert" -l split-max-size -x -d 'GGUF: parts of at most N bytes (K, M, G)'
complete -c amn -n "__fish_seen_subcommand_from convert" -l split-max-tensors -x -d 'GGUF: parts of at most N tensors'
complete -c amn -n "__fish_seen_subcommand_from convert" -l no-tensor-first-split -d 'GGUF: part 1 holds the key/values only'
complete -c amn -n "__fish_seen_subcommand_from convert" -s n -l dry-run -d 'GGUF: list every tensor, write nothing'
complete -c amn -n "__fish_seen_subcommand_from convert" -l layout -x -a 'hf gguf' -d 'Tensor names and layout of GGUF input'
complete -c amn -n "__fish_seen_subcommand_from convert" -s f -l force -d 'Replace existing output files'
complete -c amn -n "__fish_seen_subcommand_from convert" -l threads -x -d 'Worker threads'
complete -c amn -n "__fish_seen_subcommand_from convert" -s q -l quiet -d 'No progress or summary'

# forget, quantize
complete -c amn -n "__fish_seen_subcommand_from forget quantize" -l to -x -a "$amn_targets" -d 'gguf:FTYPE or a safetensors scheme'
complete -c amn -n "__fish_seen_subcommand_from forget quantize" -s o -l output -r -F -d 'Output file or folder'
complete -c amn -n "__fish_seen_subcommand_from forget quantize" -l pure -d 'No mix rules'
complete -c amn -n "__fish_seen_subcommand_from forget quantize" -l tensor-type -x -d 'REGEX=TYPE for matching tensors'
complete -c amn -n "__fish_seen_subcommand_from forget quantize" -l output-tensor-type -x -a "$amn_types" -d 'Type of output.weight'
complete -c amn -n "__fish_seen_subcommand_from forget quantize" -l token-embedding-type -x -a "$amn_types" -d 'Type of token_embd.weight'
complete -c amn -n "__fish_seen_subcommand_from forget quantize" -l imatrix -r -F -d 'Importance matrix from llama-imatrix'
complete -c amn -n "__fish_seen_subcommand_from forget quantize" -l vocab-pre -x -d 'Hugging Face input: the tokenizer.ggml.pre to write'
complete -c amn -n "__fish_seen_subcommand_from forget quantize" -l no-mtp -d 'Hugging Face input: leave out the MTP block'
complete -c amn -n "__fish_seen_subcommand_from forget quantize" -l no-nextn -d 'Hugging Face input: leave out the MTP block'
complete -c amn -n "__fish_seen_subcommand_from forget quantize" -l keep-split -d 'GGUF: one output per part of a split input'
complete -c amn -n "__fish_seen_subcommand_from forget quantize" -l split-max-size -x -d 'GGUF: parts of at most N bytes (K, M, G)'
complete -c amn -n "__fish_seen_subcommand_from forget quantize" -l split-max-tensors -x -d 'GGUF: parts of at most N tensors'
complete -c amn -n "__fish_seen_subcommand_from forget quantize" -l no-tensor-first-split -d 'GGUF: part 1 holds the key/values only'
complete -c amn -n "__fish_seen_subcommand_from forget quantize" -l blocksize -x -a '64 128' -d 'bitsandbytes absmax block'
complete -c amn -n "__fish_seen_subcommand_from forget quantize" -l double-quant -d 'bitsandbytes: absmax quantized to 8 bits'
complete -c amn -n "__fish_seen_subcommand_from forget quantize" -l granularity -x -a 'tensor channel block' -d 'fp8 scale granularity'
complete -c amn -n "__fish_seen_subcommand_from forget quantize" -l ue8m0 -d 'fp8-block-deepseek: power-of-two scales'
complete -c amn -n "__fish_seen_subcommand_from forget quantize" -l group-size -x -a '128 channel' -d 'Columns per scale'
complete -c amn -n "__fish_seen_subcommand_from forget quantize" -l dtype -x -a 'float16 bfloat16 float32' -d 'mlx: cast float tensors first'
complete -c amn -n "__fish_seen_subcommand_from forget quantize" -l quant-predicate -x -a 'mixed_2_6 mixed_3_4 mixed_3_6 mixed_4_6' -d 'mlx: mlx_lm.convert mixed recipe'
complete -c amn -n "__fish_seen_subcommand_from forget quantize" -l keep -x -d 'Never quantize tensors matching REGEX'
complete -c amn -n "__fish_seen_subcommand_from forget quantize" -l only -x -d 'Quantize exactly the 2-D weights matching REGEX'
complete -c amn -n "__fish_seen_subcommand_from forget quantize" -l requantize -d 'Accept an already-quantized input'
complete -c amn -n "__fish_seen_subcommand_from forget quantize" -s n -l dry-run -d 'Print each tensor type and why, write nothing'
complete -c amn -n "__fish_seen_subcommand_from forget quantize" -l report -d 'Per-tensor round-trip error'
complete -c amn -n "__fish_seen_subcommand_from forget quantize" -l json -d 'The report as JSON'
complete -c amn -n "__fish_seen_subcommand_from forget quantize" -s f -l force -d 'Replace an existing output'
complete -c amn -n "__fish_seen_subcommand_from forget quantize" -l threads -x -d 'Worker threads'
complete -c amn -n "__fish_seen_subcommand_from forget quantize" -s q -l quiet -d 'No progress or summary'
