#!/usr/bin/python3
"""German strings of the core's notices (amn::Notice: the plan's, catalog's,
layout's and runs' warnings) and of why a tensor cannot be converted
(amn::TensorError), worded by widgets/noticetext.cc; merged into de_strings.DE."""
X = "amn::ui::SchemeText"
SV = "amn::ui::SummaryView"
BC = "amn::ui::BreakdownChart"

NOTICES = {
    (X, "the quantization config"): "die Quantisierungskonfiguration",
    (X, "re-quantizing tensors that were already quantized compounds their error "
        "(start from F32/F16/BF16 when you can)"):
        "erneutes Quantisieren bereits quantisierter Tensoren häuft ihre Fehler an "
        "(beginnen Sie nach Möglichkeit mit F32/F16/BF16)",
    (X, "%1: %Ln value(s) dequantize to a non-finite number (left out of the loss)"):
        ["%1: %Ln Wert wird zu einer nicht endlichen Zahl dequantisiert (beim Verlust ausgelassen)",
         "%1: %Ln Werte werden zu einer nicht endlichen Zahl dequantisiert (beim Verlust ausgelassen)"],
    (X, "%1: key “%2” occurs %Ln times; the last one is used, as Python's json (and so transformers) reads it"):
        ["%1: Schlüssel „%2“ kommt %Ln-mal vor; der letzte gilt, wie Pythons json (und damit transformers) ihn liest",
         "%1: Schlüssel „%2“ kommt %Ln-mal vor; der letzte gilt, wie Pythons json (und damit transformers) ihn liest"],
    (X, "%1: key “%2” occurs more than once; the last one is used, as Python's json (and so transformers) reads it"):
        "%1: Schlüssel „%2“ kommt mehrfach vor; der letzte gilt, wie Pythons json (und damit transformers) ihn liest",
    (X, "%1: quantization_config.quant_method is “%2”, but no tensor is quantized that way (nor any other): "
        "the tensors are believed and copied as stored"):
        "%1: quantization_config.quant_method ist „%2“, aber kein Tensor ist so (oder anders) quantisiert: "
        "den Tensoren wird geglaubt, sie werden wie gespeichert kopiert",
    (X, "%1: quantization_config.quant_method is “%2”, but the tensors are %3%4: the tensors are believed, "
        "dequantized as %3"):
        "%1: quantization_config.quant_method ist „%2“, aber die Tensoren sind %3%4: den Tensoren wird geglaubt, "
        "dequantisiert als %3",
    (X, "%1: quantization_config.fmt is “%2”, but the FP8 weights are stored as %3: the tensors' dtype is "
        "believed, it decides the decoding"):
        "%1: quantization_config.fmt ist „%2“, aber die FP8-Gewichte sind als %3 gespeichert: dem Datentyp der "
        "Tensoren wird geglaubt, er entscheidet die Dekodierung",
    (X, "%1: %2; ignored: no FP8 weight here has block scales (the scale shapes are believed)"):
        "%1: %2; ignoriert: kein FP8-Gewicht hier hat Blockskalen (den Formen der Skalen wird geglaubt)",
    (X, "not carried into config.json (no equivalent for %1 here): %2"):
        "nicht in config.json übernommen (keine Entsprechung für %1 hier): %2",
    (X, "no tokenizer written: the GGUF has no tokenizer.ggml.model"):
        "kein Tokenizer geschrieben: das GGUF hat kein tokenizer.ggml.model",
    (X, "no tokenizer written: %1"): "kein Tokenizer geschrieben: %1",
    (X, "no tokenizer.model written (tokenizer.json is): %1"):
        "kein tokenizer.model geschrieben (tokenizer.json schon): %1",
    (X, "The model is already quantized (%1): tick “Re-quantize an already quantized input”, or start from the "
        "BF16/F16/F32 model."):
        "Das Modell ist bereits quantisiert (%1): Aktivieren Sie „Bereits quantisierte Eingabe neu quantisieren“ "
        "oder gehen Sie vom BF16/F16/F32-Modell aus.",
    (X, "%Ln quantized tensor(s)"): ["%Ln quantisierter Tensor", "%Ln quantisierte Tensoren"],
    # Why a tensor cannot be converted (amn::TensorErrorKind), then the core's technical detail.
    (X, "a data type anamnesis does not know"): "ein Datentyp, den anamnesis nicht kennt",
    (X, "stored in a layout anamnesis cannot decode"): "in einem Layout gespeichert, das anamnesis nicht dekodieren kann",
    (X, "a tensor it needs (scales, zero points …) is missing"):
        "ein Tensor, den es braucht (Skalen, Nullpunkte …), fehlt",
    (X, "its tensors do not fit together (type, shape or values)"):
        "seine Tensoren passen nicht zusammen (Typ, Form oder Werte)",
    (X, "a variant of its scheme anamnesis does not support yet"):
        "eine Variante seines Schemas, die anamnesis noch nicht unterstützt",
    (X, "the quantization config is malformed or contradicts the tensors"):
        "die Quantisierungskonfiguration ist fehlerhaft oder widerspricht den Tensoren",
    (X, "a quantization scheme anamnesis cannot dequantize"):
        "ein Quantisierungsschema, das anamnesis nicht dequantisieren kann",
    (X, "Cannot be converted: %1 — %2"): "Nicht konvertierbar: %1 — %2",
    (X, "Cannot be converted: %1 — %2: %3"): "Nicht konvertierbar: %1 — %2: %3",
    # The summary: the model's warnings, the scheme legend's figure.
    (SV, "Warnings"): "Warnungen",
    (SV, "%1 bits per weight"): "%1 Bit pro Gewicht",
    (SV, "%1 bpw"): "%1 Bit/Gew.",
    (BC, " — %1, %2 (%3)"): " — %1, %2 (%3)",
}
