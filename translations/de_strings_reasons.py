#!/usr/bin/python3
"""German strings of the forget plans' reasons (why a tensor is quantized,
kept, or got its GGUF type: the plan table's tooltips and the run's typed
warnings), merged into de_strings.DE."""
X = "amn::ui::SchemeText"

REASONS = {}

# Forget to safetensors: why a tensor is quantized or kept, worded from the
# core's typed rule (amn::StRule) for the plan table's tooltip.
REASONS.update({
    (X, "lossless repack"): "verlustfrei umgepackt",
    (X, "lossless: the input's codes and scales repacked"): "verlustfrei: Codes und Skalen der Eingabe umgepackt",
    (X, "re-quantized: the input's codes are of another kind, width or group size"):
        "neu quantisiert: die Codes der Eingabe sind von anderer Art, Breite oder Gruppengröße",
    (X, "re-quantized: a scale or bias of the input is not exact in F16"):
        "neu quantisiert: eine Skala oder ein Bias der Eingabe ist in F16 nicht exakt darstellbar",
    (X, "re-quantized: the input's biases are not −2^(bits−1)·scale, as %1 has them"):
        "neu quantisiert: die Biases der Eingabe sind nicht −2^(Bits−1)·Skala, wie %1 sie hat",
    (X, "re-quantized: a negative E4M3 scale (GGUF's are unsigned)"):
        "neu quantisiert: eine negative E4M3-Skala (die von GGUF sind vorzeichenlos)",
    (X, "quantized: %1"): "quantisiert: %1",
    (X, "kept: 1-D"): "beibehalten: 1-D",
    (X, "kept: fused 3-D experts (not nn.Linear weights: neither transformers' bitsandbytes nor llm-compressor quantizes them)"):
        "beibehalten: zusammengefasste 3-D-Experten (keine nn.Linear-Gewichte: weder bitsandbytes in transformers noch "
        "llm-compressor quantisiert sie)",
    (X, "kept: not 2-D"): "beibehalten: nicht 2-D",
    (X, "kept: not a weight"): "beibehalten: kein Gewicht",
    (X, "kept: empty"): "beibehalten: leer",
    (X, "kept: not float"): "beibehalten: kein Gleitkommatyp",
    (X, "kept: --keep"): "beibehalten: --keep",
    (X, "kept: not matched by --only"): "beibehalten: passt zu keinem --only",
    (X, "kept: Conv1D (llm-compressor quantizes nn.Linear only)"):
        "beibehalten: Conv1D (llm-compressor quantisiert nur nn.Linear)",
    (X, "kept: embedding"): "beibehalten: Embedding",
    (X, "kept: norm"): "beibehalten: Norm",
    (X, "kept: lm_head"): "beibehalten: lm_head",
    (X, "kept: router"): "beibehalten: Router",
    (X, "kept: not a block Linear"): "beibehalten: kein Linear eines Blocks",
    (X, "kept: the group size does not divide its rows"): "beibehalten: die Gruppengröße teilt seine Zeilen nicht",
    (X, "MLX affine %1-bit, group %2, %3 scales and biases"): "MLX affin %1 Bit, Gruppe %2, %3-Skalen und -Biases",
    (X, "MLX MXFP4, E2M1 with an E8M0 scale per %1"): "MLX MXFP4, E2M1 mit einer E8M0-Skala je %1",
    (X, "MLX NVFP4, E2M1 with an E4M3 scale per %1"): "MLX NVFP4, E2M1 mit einer E4M3-Skala je %1",
    (X, "MLX MXFP8, E4M3 with an E8M0 scale per %1"): "MLX MXFP8, E4M3 mit einer E8M0-Skala je %1",
    (X, " (decoded to BF16)"): " (zu BF16 dekodiert)",
})

# Forget / convert to GGUF (issue 22): why a tensor got its type, worded from
# the typed GgufTypeReason (the tooltip), and the run's typed warnings.
REASONS.update({
    (X, "1-D tensor"): "1-D-Tensor",
    (X, "not a weight"): "kein Gewicht",
    (X, "norm"): "Norm",
    (X, "set by --leave-output-tensor"): "durch --leave-output-tensor",
    (X, "llama-quantize never quantizes “%1” tensors"): "llama-quantize quantisiert „%1“-Tensoren nie",
    (X, "position embeddings"): "Positionseinbettungen",
    (X, "token types"): "Tokentypen",
    (X, "output tensor: --output-tensor-type"): "Ausgabetensor: --output-tensor-type",
    (X, "token embeddings tied to the output: --output-tensor-type"):
        "an die Ausgabe gebundene Token-Einbettungen: --output-tensor-type",
    (X, "the output tensor gets more bits"): "der Ausgabetensor bekommt mehr Bits",
    (X, "token embeddings tied to the output get more bits"): "an die Ausgabe gebundene Token-Einbettungen bekommen mehr Bits",
    (X, "expert tensor"): "Expertentensor",
    (X, "not an expert tensor"): "kein Expertentensor",
    (X, "token embeddings: --token-embedding-type"): "Token-Einbettungen: --token-embedding-type",
    (X, "token embeddings"): "Token-Einbettungen",
    (X, "attn_v gets more bits"): "attn_v bekommt mehr Bits",
    (X, "attn_v of a 70B model"): "attn_v eines 70B-Modells",
    (X, "attn_v of an 8-expert model"): "attn_v eines Modells mit 8 Experten",
    (X, "attn_k of an 8-expert model"): "attn_k eines Modells mit 8 Experten",
    (X, "attn_output of an 8-expert model"): "attn_output eines Modells mit 8 Experten",
    (X, "ffn_down of the first layers"): "ffn_down der ersten Schichten",
    (X, "ffn_down of layer %1 of %2"): "ffn_down der Schicht %1 von %2",
    (X, "ffn_gate of a middle layer"): "ffn_gate einer mittleren Schicht",
    (X, "ffn_up of a middle layer"): "ffn_up einer mittleren Schicht",
    (X, "%1, kept %2"): "%1, bleibt %2",
    (X, "set by --tensor-type “%1”=%2"): "durch --tensor-type „%1“=%2",
    (X, "%1 default: %2"): "Standard von %1: %2",
    (X, "%1 mix rule, %2: %3"): "Mischregel von %1, %2: %3",
    (X, "--pure: %1"): "--pure: %1",
    (X, "file type %1: %2"): "Dateityp %1: %2",
    (X, "%1 repacked as it is stored"): "%1 so umgepackt, wie es gespeichert ist",
    (X, "; fallback: a row of %1 is not a multiple of %2 (%3) → %4"):
        "; Ersatztyp: eine Zeile von %1 ist kein Vielfaches von %2 (%3) → %4",
    (X, "%Ln tensor(s) are already quantized in the input: re-quantizing compounds their error "
        "(start from F32/F16/BF16 when you can)"):
        ["%Ln Tensor ist in der Eingabe bereits quantisiert: erneutes Quantisieren häuft seine Fehler an "
         "(beginnen Sie nach Möglichkeit mit F32/F16/BF16)",
         "%Ln Tensoren sind in der Eingabe bereits quantisiert: erneutes Quantisieren häuft ihre Fehler an "
         "(beginnen Sie nach Möglichkeit mit F32/F16/BF16)"],
    (X, "%1: %Ln value(s) or their round trip are not finite (left out of the loss)"):
        ["%1: %Ln Wert oder sein Hin- und Rückweg ist nicht endlich (beim Verlust ausgelassen)",
         "%1: %Ln Werte oder ihr Hin- und Rückweg sind nicht endlich (beim Verlust ausgelassen)"],
    (X, "%1: %Ln value(s) are not finite (NaN/±inf)"):
        ["%1: %Ln Wert ist nicht endlich (NaN/±inf)", "%1: %Ln Werte sind nicht endlich (NaN/±inf)"],
})
