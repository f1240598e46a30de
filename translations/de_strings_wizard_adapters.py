#!/usr/bin/python3
"""German strings of the conversion wizard's vision projector (amn convert
--mmproj) and GGUF LoRA adapter (amn convert ADAPTER --base BASE) targets,
merged into de_strings.DE."""
W = "amn::ui::ConvertWizard"

WIZARD_ADAPTERS = {
    # Target page: the vision projector of a multimodal folder.
    (W, "&Vision projector (mmproj) instead of the text model, as --mmproj writes it"):
        "&Vision-Projektor (mmproj) statt des Textmodells, wie --mmproj ihn schreibt",
    (W, "As amn convert --to gguf:TYPE --mmproj: the vision tower and projector llama-mtmd-cli loads beside the text GGUF (--mmproj FILE)."):
        "Wie amn convert --to gguf:TYP --mmproj: Vision-Encoder und Projektor, die llama-mtmd-cli neben dem Text-GGUF lädt "
        "(--mmproj DATEI).",
    (W, "No vision projector: %1"): "Kein Vision-Projektor: %1",
    # Target page: a PEFT LoRA adapter folder.
    (W, "GGUF LoRA adapter for llama.cpp"): "GGUF-LoRA-Adapter für llama.cpp",
    (W, "GGUF &LoRA adapter, as convert_lora_to_gguf.py writes it:"):
        "GGUF-&LoRA-Adapter, wie convert_lora_to_gguf.py ihn schreibt:",
    (W, "As amn convert ADAPTER --to gguf:TYPE --base BASE: the adapter llama.cpp loads with --lora. "
        "The base model's folder is chosen on the next page."):
        "Wie amn convert ADAPTER --to gguf:TYP --base BASIS: der Adapter, den llama.cpp mit --lora lädt. "
        "Den Ordner des Basismodells wählen Sie auf der nächsten Seite.",
    (W, "Rank %1"): "Rang %1",
    (W, "Rank not given"): "Rang nicht angegeben",
    (W, "alpha %1"): "Alpha %1",
    (W, "%Ln adapted module(s)"): ["%Ln angepasstes Modul", "%Ln angepasste Module"],
    (W, "trained on %1"): "trainiert auf %1",
    (W, "Cannot become a GGUF adapter: %1"): "Kann kein GGUF-Adapter werden: %1",
    # Options page: the base model.
    (W, "LoRA adapter options"): "Optionen des LoRA-Adapters",
    (W, "the base model's folder"): "der Ordner des Basismodells",
    (W, "&Base model:"): "&Basismodell:",
    (W, "Only the base model's config.json is read: its architecture names the adapter's tensors in GGUF "
        "(as convert_lora_to_gguf.py --base). The base's weights are not needed."):
        "Nur die config.json des Basismodells wird gelesen: Seine Architektur benennt die Tensoren des Adapters im GGUF "
        "(wie convert_lora_to_gguf.py --base). Die Gewichte des Basismodells werden nicht gebraucht.",
    (W, "Base model folder"): "Ordner des Basismodells",
    (W, "Choose the base model's folder (the one holding its config.json)."):
        "Wählen Sie den Ordner des Basismodells (den mit seiner config.json).",
    (W, "%1 holds no config.json: choose the base model's folder."):
        "%1 enthält keine config.json: Wählen Sie den Ordner des Basismodells.",
    # Summary page.
    (W, "GGUF vision projector (mmproj) %1 (as convert_hf_to_gguf.py --mmproj --outtype %2)"):
        "GGUF-Vision-Projektor (mmproj) %1 (wie convert_hf_to_gguf.py --mmproj --outtype %2)",
    (W, "GGUF LoRA adapter %1 (as convert_lora_to_gguf.py --outtype %2)"):
        "GGUF-LoRA-Adapter %1 (wie convert_lora_to_gguf.py --outtype %2)",
    (W, "Base model"): "Basismodell",
    (W, "%1 (its config.json)"): "%1 (seine config.json)",
    # Done page.
    (W, "The vision projector is a GGUF for llama.cpp now (mmproj)."):
        "Der Vision-Projektor ist jetzt ein GGUF für llama.cpp (mmproj).",
    (W, "The adapter is a GGUF LoRA adapter for llama.cpp now."):
        "Der Adapter ist jetzt ein GGUF-LoRA-Adapter für llama.cpp.",
    (W, "Converted %Ln tensor(s) to a GGUF vision projector (mmproj) %1 as convert_hf_to_gguf.py --mmproj writes it: "
        "%2 written in %3 s."):
        ["%Ln Tensor zu einem GGUF-Vision-Projektor (mmproj) %1 konvertiert, wie convert_hf_to_gguf.py --mmproj ihn "
         "schreibt: %2 geschrieben in %3 s.",
         "%Ln Tensoren zu einem GGUF-Vision-Projektor (mmproj) %1 konvertiert, wie convert_hf_to_gguf.py --mmproj ihn "
         "schreibt: %2 geschrieben in %3 s."],
    (W, "llama.cpp loads it beside the text model: llama-mtmd-cli -m MODEL.gguf --mmproj %1"):
        "llama.cpp lädt ihn neben dem Textmodell: llama-mtmd-cli -m MODELL.gguf --mmproj %1",
    (W, "Converted %Ln tensor(s) to a GGUF LoRA adapter %1 as convert_lora_to_gguf.py writes it: %2 written in %3 s."):
        ["%Ln Tensor zu einem GGUF-LoRA-Adapter %1 konvertiert, wie convert_lora_to_gguf.py ihn schreibt: "
         "%2 geschrieben in %3 s.",
         "%Ln Tensoren zu einem GGUF-LoRA-Adapter %1 konvertiert, wie convert_lora_to_gguf.py ihn schreibt: "
         "%2 geschrieben in %3 s."],
    (W, "llama.cpp applies it to the base model: llama-cli -m BASE.gguf --lora %1"):
        "llama.cpp wendet ihn auf das Basismodell an: llama-cli -m BASIS.gguf --lora %1",
}
