# bash completion for amn(1), the anamnesis command line.
# Installed as share/bash-completion/completions/amn. Each command's option
# list below is checked against `amn help COMMAND` by
# packaging/check_help_sync.py (ctest packaging.help_sync).

_amn_ftypes="F32 F16 BF16 Q8_0 Q4_0 Q4_1 Q5_0 Q5_1 Q2_K Q2_K_S Q3_K Q3_K_S Q3_K_M Q3_K_L Q4_K Q4_K_S Q4_K_M Q5_K Q5_K_S Q5_K_M Q6_K IQ4_NL IQ4_XS IQ3_S IQ3_M IQ3_XS IQ3_XXS IQ2_M IQ2_S IQ2_XS IQ2_XXS IQ1_S IQ1_M TQ1_0 TQ2_0 MXFP4_MOE Q1_0 Q2_0"
_amn_schemes="bnb-nf4 bnb-fp4 bnb-int8 fp8 fp8-block-deepseek w4a16 w4a16-asym w8a16 w8a16-asym mlx mlx:2 mlx:3 mlx:4 mlx:5 mlx:6 mlx:8 mlx:mxfp4 mlx:nvfp4 mlx:mxfp8"
_amn_types="F32 F16 BF16 Q8_0 Q4_0 Q4_1 Q5_0 Q5_1 Q2_K Q3_K Q4_K Q5_K Q6_K IQ4_NL IQ4_XS IQ3_S IQ3_XXS IQ2_S IQ2_XS IQ2_XXS IQ1_S IQ1_M TQ1_0 TQ2_0 MXFP4 NVFP4"

_amn() {
    local cur prev words cword
    _init_completion -s -n : || return

    local commands="parse inspect info remember dequantize convert forget quantize help"
    local verb="" i
    for ((i = 1; i < cword; i++)); do
        case ${words[i]} in
            -*) ;;
            *) verb=${words[i]}; break ;;
        esac
    done

    if [[ -z $verb ]]; then
        if [[ $cur == -* ]]; then
            COMPREPLY=($(compgen -W "--help -h --version -V" -- "$cur"))
        else
            COMPREPLY=($(compgen -W "$commands" -- "$cur"))
        fi
        return
    fi

    local opts=""
    case $verb in
        parse)
            opts="--json --kv --help" ;;
        inspect|info)
            opts="--json --scan --help" ;;
        remember|dequantize)
            opts="--to -o --output --layout --force -f --threads --quiet -q --help" ;;
        convert)
            opts="--to -o --output --outfile --base --layout --mmproj --vocab-only --vocab-pre --no-mtp --no-nextn --split-max-size --split-max-tensors --no-tensor-first-split --dry-run -n --force -f --threads --quiet -q --help" ;;
        forget|quantize)
            opts="--to -o --output --vocab-pre --no-mtp --no-nextn --keep-split --split-max-size --split-max-tensors --no-tensor-first-split --pure --tensor-type --output-tensor-type --token-embedding-type --imatrix --blocksize --double-quant --granularity --ue8m0 --group-size --dtype --quant-predicate --keep --only --requantize --dry-run -n --report --json --force -f --threads --quiet -q --help" ;;
        help)
            COMPREPLY=($(compgen -W "$commands" -- "$cur"))
            return ;;
        *)
            return ;;
    esac

    case $prev in
        --to)
            case $verb in
                remember|dequantize) COMPREPLY=($(compgen -W "bf16 f16 f32" -- "$cur")) ;;
                convert) COMPREPLY=($(compgen -W "safetensors bf16 f16 f32 gguf gguf:F32 gguf:F16 gguf:BF16 gguf:Q8_0 gguf:auto" -- "$cur"))
                    __ltrim_colon_completions "$cur" ;;
                forget|quantize)
                    local w words_to="$_amn_schemes"
                    for w in $_amn_ftypes; do words_to+=" gguf:$w"; done
                    COMPREPLY=($(compgen -W "$words_to" -- "$cur"))
                    __ltrim_colon_completions "$cur" ;;
            esac
            return ;;
        --layout)
            COMPREPLY=($(compgen -W "hf gguf" -- "$cur")); return ;;
        --output-tensor-type|--token-embedding-type)
            COMPREPLY=($(compgen -W "$_amn_types" -- "$cur")); return ;;
        --granularity)
            COMPREPLY=($(compgen -W "tensor channel block" -- "$cur")); return ;;
        --blocksize)
            COMPREPLY=($(compgen -W "64 128" -- "$cur")); return ;;
        --group-size)
            COMPREPLY=($(compgen -W "128 channel" -- "$cur")); return ;;
        --dtype)
            COMPREPLY=($(compgen -W "float16 bfloat16 float32" -- "$cur")); return ;;
        --quant-predicate)
            COMPREPLY=($(compgen -W "mixed_2_6 mixed_3_4 mixed_3_6 mixed_4_6" -- "$cur")); return ;;
        -o|--output|--outfile|--imatrix)
            _filedir; return ;;
        --threads|--tensor-type|--keep|--only)
            return ;;
    esac

    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$opts" -- "$cur"))
        return
    fi
    # MODEL: files and folders (ollama:NAME is typed by hand).
    _filedir
} &&
    complete -F _amn amn

# ex: filetype=sh
