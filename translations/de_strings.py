# German strings for anamnesis_de.ts, keyed by (context, source).
# Applied by fill_ts.py after `ninja update_translations`; a plural entry is
# a list [singular, plural].
W = "amn::ui::ConvertWizard"
M = "amn::ui::MainWindow"
S = "amn::ui::SummaryView"
D = "amn::ui::TensorDetail"
T = "amn::ui::TensorTreeModel"
L = "amn::ui::LetheChart"
V = "amn::ui::ModelView"
P = "amn::ui::ValuePreviewPanel"
DE = {
    ("amn::ui::BreakdownChart", "%1 in total"): "%1 insgesamt",
    ("amn::ui::BreakdownChart", "%1\n%2 of %3 (%4), %Ln tensor(s)"): ["%1\n%2 von %3 (%4), %Ln Tensor", "%1\n%2 von %3 (%4), %Ln Tensoren"],
    ("amn::ui::BreakdownChart", "%1 — %2 (%3)"): "%1 — %2 (%3)",
    # The words of a bits-per-weight figure, as the scheme texts spell them
    # (chart_util::elideKeepingBits keeps the figure whole).
    ("amn::ui::BitsFigure", "bits per weight"): "Bit pro Gewicht",
    ("amn::ui::BitsFigure", "bits"): "Bit",
    ("amn::ui::BitsFigure", "bpw"): "Bit/Gew.",

    (W, "Convert %1"): "%1 konvertieren",
    (W, "&Convert"): "&Konvertieren",
    (W, "Conversion running"): "Konvertierung läuft",
    (W, "A conversion is still running. Cancel it? No partial file is left behind."):
        "Eine Konvertierung läuft noch. Abbrechen? Es bleibt keine unvollständige Datei zurück.",
    (W, "Source"): "Quelle",
    (W, "The model to remember (dequantize)."): "Das Modell, das erinnert (dequantisiert) wird.",
    (W, "%1, %Ln file(s), %2 — %3, %4 parameters"):
        ["%1, %Ln Datei, %2 — %3, %4 Parameter", "%1, %Ln Dateien, %2 — %3, %4 Parameter"],
    (W, "%Ln output tensor(s)"): ["%Ln Ausgabetensor", "%Ln Ausgabetensoren"],
    (W, "Scheme: none (unquantized tensors are cast or copied)."):
        "Schema: keines (nicht quantisierte Tensoren werden umgewandelt oder kopiert).",
    (W, "Scheme: %1"): "Schema: %1",
    (W, "%Ln tensor(s) cannot be converted, for example:\n%1"):
        ["%Ln Tensor kann nicht konvertiert werden:\n%1", "%Ln Tensoren können nicht konvertiert werden, zum Beispiel:\n%1"],
    (W, "Target"): "Ziel",
    (W, "What to write. The core writes safetensors."): "Was geschrieben wird. Der Kern schreibt safetensors.",
    (W, "&Automatic: dequantized tensors as BF16, the others keep their dtype (lossless)"):
        "&Automatisch: dequantisierte Tensoren als BF16, die übrigen behalten ihren Datentyp (verlustfrei)",
    (W, "Every float tensor as &BF16 safetensors"): "Jeden Gleitkommatensor als &BF16-safetensors",
    (W, "Every float tensor as &F16 safetensors"): "Jeden Gleitkommatensor als &F16-safetensors",
    (W, "Every float tensor as F&32 safetensors (exact dequantized values, twice the size)"):
        "Jeden Gleitkommatensor als F&32-safetensors (exakte dequantisierte Werte, doppelte Größe)",
    (W, "Integer and boolean tensors are always copied unchanged. Quantization companions (scales, zero points) are consumed and not written."):
        "Ganzzahl- und Wahrheitswert-Tensoren werden immer unverändert kopiert. Begleittensoren der Quantisierung "
        "(Skalen, Nullpunkte) werden verbraucht und nicht geschrieben.",
    (W, "Options"): "Optionen",
    (W, "Where to write. Output goes to a temporary file first and is renamed when complete."):
        "Wohin geschrieben wird. Die Ausgabe entsteht zuerst in einer temporären Datei und wird erst umbenannt, wenn sie vollständig ist.",
    (W, "&Output (a .safetensors file, or a folder):"): "&Ausgabe (eine .safetensors-Datei oder ein Ordner):",
    (W, "&Browse…"): "&Durchsuchen …",
    (W, "O&verwrite existing files"): "Vorhandene Dateien ü&berschreiben",
    (W, "Output file"): "Ausgabedatei",
    (W, "safetensors (*.safetensors)"): "safetensors (*.safetensors)",
    (W, "Summary"): "Zusammenfassung",
    (W, "Check, then convert."): "Prüfen, dann konvertieren.",
    (W, "Converting"): "Konvertierung",
    (W, "Runs in the background on all cores. Cancel stops within a second and leaves no partial file."):
        "Läuft im Hintergrund auf allen Kernen. Abbrechen hält binnen einer Sekunde an und hinterlässt keine unvollständige Datei.",
    (W, "Cancel conversion"): "Konvertierung abbrechen",
    (W, "Done"): "Fertig",
    (W, "The model is remembered."): "Das Modell ist erinnert.",
    (W, "Open output &folder"): "Ausgabe&ordner öffnen",
    (W, "&Open the result in anamnesis"): "&Ergebnis in anamnesis öffnen",
    (W, "Choose an output path."): "Wählen Sie einen Ausgabepfad.",
    (W, "%1 exists. Tick “Overwrite existing files” or choose another path."):
        "%1 existiert bereits. Aktivieren Sie „Vorhandene Dateien überschreiben“ oder wählen Sie einen anderen Pfad.",
    (W, "%1 safetensors"): "%1-safetensors",
    (W, "safetensors, dequantized tensors as BF16, others unchanged"): "safetensors, dequantisierte Tensoren als BF16, übrige unverändert",
    (W, "Output"): "Ausgabe",
    (W, " (overwrite)"): " (überschreiben)",
    (W, "Tensors"): "Tensoren",
    (W, "%1 written, %2 dequantized"): "%1 geschrieben, %2 dequantisiert",
    (W, "Predicted size"): "Erwartete Größe",
    (W, "%1 of tensor data (input: %2)"): "%1 Tensordaten (Eingabe: %2)",
    (W, "%1 free on %2"): "%1 frei auf %2",
    (W, "— not enough space"): "— nicht genug Platz",
    (W, "Disk space"): "Speicherplatz",
    (W, "Starting…"): "Wird gestartet …",
    (W, "%1 of %2 written — %3/s — %4 left"): "%1 von %2 geschrieben — %3/s — noch %4",
    (W, "Wrote %1 in %2 s."): "%1 in %2 s geschrieben.",
    (W, "Remembered %Ln tensor(s), %1 of tensor data, in %2 s.\n\nWritten:\n%3"):
        ["%Ln Tensor erinnert, %1 Tensordaten, in %2 s.\n\nGeschrieben:\n%3",
         "%Ln Tensoren erinnert, %1 Tensordaten, in %2 s.\n\nGeschrieben:\n%3"],
    (W, "Try again"): "Erneut versuchen",
    (W, "Cancelled. No output file was written."): "Abgebrochen. Es wurde keine Ausgabedatei geschrieben.",
    (W, "Conversion failed"): "Konvertierung fehlgeschlagen",
    (W, "No output file was written."): "Es wurde keine Ausgabedatei geschrieben.",
    # Plan and run errors: the plain first line from the core's error code.
    (W, "The plan could not be made."): "Der Plan konnte nicht erstellt werden.",
    (W, "The chosen options do not fit this model."): "Die gewählten Optionen passen nicht zu diesem Modell.",
    (W, "The chosen options do not fit tensor %1."): "Die gewählten Optionen passen nicht zu Tensor %1.",
    (W, "Tensor %1 cannot be converted this way."): "Tensor %1 lässt sich so nicht konvertieren.",
    (W, "The model is already quantized: tick “Re-quantize an already quantized input”, or start from the BF16/F16/F32 model."):
        "Das Modell ist bereits quantisiert: Aktivieren Sie „Bereits quantisierte Eingabe neu quantisieren“ oder gehen Sie vom "
        "BF16/F16/F32-Modell aus.",
    (W, "anamnesis cannot make this conversion of this model yet."):
        "anamnesis kann diese Konvertierung dieses Modells noch nicht ausführen.",
    (W, "A tensor's size does not fit the chosen type's blocks."):
        "Die Größe eines Tensors passt nicht in die Blöcke des gewählten Typs.",
    (W, "The size of tensor %1 does not fit the chosen type's blocks."):
        "Die Größe des Tensors %1 passt nicht in die Blöcke des gewählten Typs.",
    (W, "The model holds a data type anamnesis does not know."): "Das Modell enthält einen Datentyp, den anamnesis nicht kennt.",
    (W, "A file the options name could not be read (missing, or no permission?)."):
        "Eine in den Optionen genannte Datei konnte nicht gelesen werden (fehlt sie, oder fehlt die Berechtigung?).",
    (W, "A file the plan reads is damaged, or not of the kind expected."):
        "Eine Datei, die der Plan liest, ist beschädigt oder nicht von der erwarteten Art.",
    (W, "A quantized tensor lacks the scales it needs, or they do not fit."):
        "Einem quantisierten Tensor fehlen die nötigen Skalen, oder sie passen nicht.",
    (W, "There is not enough memory to plan the conversion."): "Der Speicher reicht nicht, um die Konvertierung zu planen.",
    (W, "The conversion failed."): "Die Konvertierung ist fehlgeschlagen.",
    (W, "The output could not be written (is the folder writable, is the disk full?)."):
        "Die Ausgabe konnte nicht geschrieben werden (ist der Ordner beschreibbar, ist die Platte voll?).",
    (W, "The output exists already: tick “Overwrite existing files” or choose another path."):
        "Die Ausgabe existiert bereits: Aktivieren Sie „Vorhandene Dateien überschreiben“ oder wählen Sie einen anderen Pfad.",
    (W, "Tensor %1 holds something this conversion cannot take."):
        "Tensor %1 enthält etwas, das diese Konvertierung nicht annimmt.",
    (W, "The model's data could not be read as its header declares: the file may have changed since it was opened, or be damaged."):
        "Die Daten des Modells ließen sich nicht so lesen, wie ihr Header sie angibt: Die Datei hat sich seit dem Öffnen "
        "vielleicht geändert, oder sie ist beschädigt.",
    (W, "There is not enough memory for the conversion."): "Der Speicher reicht nicht für die Konvertierung.",
    (W, "Cancelling…"): "Wird abgebrochen …",
    (W, "< &Back"): "< &Zurück",
    (W, "&Next >"): "&Weiter >",
    (W, "Cancel"): "Abbrechen",
    (W, "&Finish"): "&Fertigstellen",
    (W, "Cancel Conversion"): "Konvertierung abbrechen",
    (W, "Keep Running"): "Weiterlaufen lassen",
    (W, "Close"): "Schließen",

    ("amn::ui::HistogramChart", "No statistics yet"): "Noch keine Statistik",
    ("amn::ui::HistogramChart", "dequantized value"): "dequantisierter Wert",
    ("amn::ui::HistogramChart", "count"): "Anzahl",
    ("amn::ui::HistogramChart", "count (log scale)"): "Anzahl (logarithmisch)",
    ("amn::ui::HistogramChart", "[%1, %2): %3 values"): "[%1, %2): %3 Werte",

    (L, "Lethe took %1 of %2 (%3): stored bits per weight by layer"):
        "Lethe nahm %1 von %2 (%3): Bits pro Gewicht",
    (L, "Nothing is quantized: every tensor keeps its stored precision"):
        "Nichts ist quantisiert: jeder Tensor behält seine gespeicherte Genauigkeit",
    (L, "quantized layer"): "quantisierte Schicht",
    (L, "full precision"): "volle Genauigkeit",
    (L, "BF16 = 16 bits"): "BF16 = 16 Bit",
    (L, "bits per weight"): "Bits pro Gewicht",
    (L, "layer (hover a bar for its tensors)"): "Schicht (Maus über einen Balken zeigt seine Tensoren)",
    (L, "No tensors"): "Keine Tensoren",
    (L, "<b>%1</b> — %Ln tensor(s)"): ["<b>%1</b> — %Ln Tensor", "<b>%1</b> — %Ln Tensoren"],
    (L, "%1 bits per weight (BF16: 16)"): "%1 Bits pro Gewicht (BF16: 16)",
    (L, "stored %1, as BF16 %2, saved %3"): "gespeichert %1, als BF16 %2, gespart %3",
    (L, "%1 bits"): "%1 Bit",
    (L, "saved %1"): "%1 gespart",
    (L, "… and %Ln more"): ["… und %Ln weiterer", "… und %Ln weitere"],
    (L, "outside the numbered layers"): "außerhalb der nummerierten Schichten",
    (L, "other"): "übrige",

    (M, "anamnesis"): "anamnesis",
    (M, "<h2>Drop a model here</h2><p>safetensors (also sharded, or a folder), GGUF, NPY/NPZ, PyTorch .pth, ONNX</p><p>or use <b>File ▸ Open</b> (%1). Opening reads headers only.</p>"):
        "<h2>Modell hierher ziehen</h2><p>safetensors (auch aufgeteilt oder als Ordner), GGUF, NPY/NPZ, PyTorch .pth, ONNX</p>"
        "<p>oder <b>Datei ▸ Öffnen</b> (%1) verwenden. Beim Öffnen werden nur die Kopfdaten gelesen.</p>",
    (M, "Conversion running"): "Konvertierung läuft",
    (M, "A conversion is still running. Cancel it and quit? No partial file is left behind."):
        "Eine Konvertierung läuft noch. Abbrechen und beenden? Es bleibt keine unvollständige Datei zurück.",
    (M, "&File"): "&Datei",
    (M, "Cancel and Quit"): "Abbrechen und beenden",
    (M, "Keep Running"): "Weiterlaufen lassen",
    (M, "Close"): "Schließen",
    (M, "&Open…"): "Ö&ffnen …",
    (M, "Open model"): "Modell öffnen",
    (M, "Model files (*.safetensors *.json *.gguf *.npz *.npy *.pth *.pt *.bin *.onnx);;All files (*)"):
        "Modelldateien (*.safetensors *.json *.gguf *.npz *.npy *.pth *.pt *.bin *.onnx);;Alle Dateien (*)",
    (M, "Open &Folder…"): "&Ordner öffnen …",
    (M, "Open model folder"): "Modellordner öffnen",
    (M, "Open &Recent"): "&Zuletzt geöffnet",
    (M, "&Convert…"): "&Konvertieren …",
    (M, "&Close Tab"): "Reiter &schließen",
    (M, "&Quit"): "&Beenden",
    (M, "&Edit"): "&Bearbeiten",
    (M, "&Find Tensor"): "Tensor &suchen",
    (M, "Copy Tensor &Name"): "Tensor&namen kopieren",
    (M, "Copied %1"): "%1 kopiert",
    (M, "&View"): "&Ansicht",
    (M, "&Overview"): "Ü&berblick",
    (M, "What &Lethe Took"): "Was &Lethe nahm",
    (M, "&Tensor"): "&Tensor",
    (M, "&Metadata"): "&Metadaten",
    (M, "&Next Model"): "&Nächstes Modell",
    (M, "&Help"): "&Hilfe",
    (M, "&About anamnesis"): "Ü&ber anamnesis",
    (M, "About anamnesis"): "Über anamnesis",
    (M, "(none)"): "(keine)",
    (M, "&Clear List"): "Liste &leeren",
    (M, "Opening %1…"): "%1 wird geöffnet …",
    (M, "Could not open %1"): "%1 konnte nicht geöffnet werden",
    (M, "Could not open model"): "Modell konnte nicht geöffnet werden",
    (M, "%1 could not be opened."): "%1 konnte nicht geöffnet werden.",
    (M, "%Ln model(s) could not be opened."): ["%Ln Modell konnte nicht geöffnet werden.", "%Ln Modelle konnten nicht geöffnet werden."],
    (M, "%1: %2"): "%1: %2",
    (M, "The file could not be read as a model."): "Die Datei konnte nicht als Modell gelesen werden.",
    (M, "The file could not be read (missing, or no permission?)."): "Die Datei konnte nicht gelesen werden (fehlt sie, oder fehlt die Berechtigung?).",
    (M, "The file is incomplete — it ends too early (a partial download?)."):
        "Die Datei ist unvollständig — sie endet zu früh (ein abgebrochener Download?).",
    (M, "The file is incomplete — it ends before tensor %1's data (a partial download?)."):
        "Die Datei ist unvollständig — sie endet vor den Daten des Tensors %1 (ein abgebrochener Download?).",
    (M, "The file is damaged, or not a model file of the kind its name says."):
        "Die Datei ist beschädigt oder keine Modelldatei der Art, die ihr Name angibt.",
    (M, "The file declares more than anamnesis accepts (a safety limit)."):
        "Die Datei gibt mehr an, als anamnesis annimmt (eine Sicherheitsgrenze).",
    (M, "The file uses something anamnesis does not support yet."): "Die Datei verwendet etwas, das anamnesis noch nicht unterstützt.",
    (M, "A quantized tensor lacks the scales it needs, or they do not fit."):
        "Einem quantisierten Tensor fehlen die nötigen Skalen, oder sie passen nicht.",
    (M, "The file contains Python code that is not safe to load; it was not run."):
        "Die Datei enthält Python-Code, der nicht sicher geladen werden kann; er wurde nicht ausgeführt.",
    (M, "This is not a regular file or model folder."): "Dies ist keine reguläre Datei und kein Modellordner.",
    (M, "There is not enough memory to open the file."): "Der Speicher reicht nicht, um die Datei zu öffnen.",
    (M, "The file could not be opened."): "Die Datei konnte nicht geöffnet werden.",
    (M, "About &Qt"): "Über &Qt",
    (M, "<h3>anamnesis %1</h3><p>Parse any tensor format, recover any precision.</p><p>Inspect quantized model files, remember (dequantize) and forget (quantize) them.</p><p>Licence: MIT OR Apache-2.0</p><p>Built with Qt %2 (running on Qt %3).</p>"):
        "<h3>anamnesis %1</h3><p>Jedes Tensorformat lesen, jede Genauigkeit zurückgewinnen.</p>"
        "<p>Quantisierte Modelldateien untersuchen, erinnern (dequantisieren) und vergessen (quantisieren).</p>"
        "<p>Lizenz: MIT OR Apache-2.0</p><p>Erstellt mit Qt %2 (läuft mit Qt %3).</p>",
    (M, "Opened %1: %Ln tensor(s) in %2 ms"): ["%1 geöffnet: %Ln Tensor in %2 ms", "%1 geöffnet: %Ln Tensoren in %2 ms"],
    (M, "%1 — anamnesis"): "%1 — anamnesis",

    ("amn::ui::MetadataView", "Filter keys and values"): "Schlüssel und Werte filtern",
    ("amn::ui::MetadataView", "Key"): "Schlüssel",
    ("amn::ui::MetadataView", "Value"): "Wert",
    ("amn::ui::MetadataView", "File metadata (%1)"): "Metadaten der Datei (%1)",
    ("amn::ui::MetadataView", "quantization_config (%1)"): "quantization_config (%1)",
    ("amn::ui::MetadataView", "Notes"): "Hinweise",
    ("amn::ui::MetadataView", "Pickle globals (%1)"): "Pickle-Globals (%1)",
    ("amn::ui::MetadataView", "%1 — %2, referenced %3×"): "%1 — %2, %3× referenziert",
    ("amn::ui::MetadataView", "allowed"): "erlaubt",
    ("amn::ui::MetadataView", "refused"): "abgelehnt",
    ("amn::ui::MetadataView", "error"): "Fehler",
    ("amn::ui::MetadataView", "This file carries no metadata."): "Diese Datei enthält keine Metadaten.",
    ("amn::ui::MetadataView", "array of %Ln string(s)"): ["Array mit %Ln Zeichenkette", "Array mit %Ln Zeichenketten"],
    ("amn::ui::MetadataView", "array of %Ln array(s)"): ["Array mit %Ln Array", "Array mit %Ln Arrays"],
    ("amn::ui::MetadataView", "array of %Ln %1 value(s)"): ["Array mit %Ln %1-Wert", "Array mit %Ln %1-Werten"],
    ("amn::ui::MetadataView", "Show full value…"): "Ganzen Wert anzeigen …",
    ("amn::ui::MetadataView", "Copy value"): "Wert kopieren",
    ("amn::ui::MetadataView", "Copy name"): "Namen kopieren",
    ("amn::ui::MetadataValueDialog", "Value of %1"): "Wert von %1",
    ("amn::ui::MetadataValueDialog", "&Copy"): "&Kopieren",

    (V, "Filter tensors (Ctrl+F)"): "Tensoren filtern (Strg+F)",
    (V, "Re&gex"): "Re&gulärer Ausdruck",
    (V, "Treat the filter as a regular expression"): "Den Filter als regulären Ausdruck behandeln",
    (V, "&Copy Name"): "Namen &kopieren",
    (V, "&Expand All"): "Alle &aufklappen",
    (V, "C&ollapse All"): "Alle &zuklappen",
    (V, "Con&vert…"): "Kon&vertieren …",
    (V, "Overview"): "Überblick",
    (V, "What Lethe Took"): "Was Lethe nahm",
    (V, "Tensor"): "Tensor",
    (V, "Metadata"): "Metadaten",
    (V, "%Ln tensor(s)"): ["%Ln Tensor", "%Ln Tensoren"],
    (V, "Invalid regular expression"): "Ungültiger regulärer Ausdruck",

    ("amn::ui::Shape", "scalar"): "Skalar",

    (S, "Stored bytes by dtype"): "Gespeicherte Bytes nach Datentyp",
    (S, "not convertible"): "nicht konvertierbar",
    (S, "unquantized"): "nicht quantisiert",
    (S, "companions not written"): "nicht geschriebene Begleittensoren",
    (S, "Stored bytes by scheme"): "Gespeicherte Bytes nach Schema",
    (S, "Format"): "Format",
    (S, "%1, %Ln file(s), %2"): ["%1, %Ln Datei, %2", "%1, %Ln Dateien, %2"],
    (S, "%1 — %Ln tensor(s)"): ["%1 — %Ln Tensor", "%1 — %Ln Tensoren"],
    (S, "Split set"): "Geteilte Datei",
    (S, "%Ln part(s), read as one model:"): ["%Ln Teil, als ein Modell gelesen:", "%Ln Teile, als ein Modell gelesen:"],
    (S, "%1 — %2, %Ln tensor(s)"): ["%1 — %2, %Ln Tensor", "%1 — %2, %Ln Tensoren"],
    (S, "Scheme"): "Schema",
    (S, "none: the tensors are not quantized"): "keines: die Tensoren sind nicht quantisiert",
    (S, "Config"): "Konfiguration",
    (S, 'quant_method "%1" in %2'): "quant_method „%1“ in %2",
    (S, "Tensors"): "Tensoren",
    (S, "%1 stored: %2 quantized, %3, %4 passthrough, %5 unsupported → %6"):
        "%1 gespeichert: %2 quantisiert, %3, %4 durchgereicht, %5 nicht unterstützt → %6",
    (S, "%Ln companion(s)"): ["%Ln Begleittensor", "%Ln Begleittensoren"],
    (S, "%Ln output tensor(s)"): ["%Ln Ausgabetensor", "%Ln Ausgabetensoren"],
    (S, "Parameters"): "Parameter",
    (S, "%1 (%2 quantized)"): "%1 (%2 quantisiert)",
    (S, "Size"): "Größe",
    (S, "%1 now → %2 as BF16"): "%1 jetzt → %2 als BF16",
    (S, "Lethe took"): "Lethe nahm",
    (S, "%1 of %2 (%3) — %4 bits per weight instead of 16"): "%1 von %2 (%3) — %4 Bits pro Gewicht statt 16",
    (S, "nothing: no tensor is quantized"): "nichts: kein Tensor ist quantisiert",
    (S, "Opened in"): "Geöffnet in",
    (S, "Pickle scan"): "Pickle-Prüfung",
    (S, "%1 (%Ln global(s) referenced, nothing executed)"):
        ["%1 (%Ln Global referenziert, nichts ausgeführt)", "%1 (%Ln Globals referenziert, nichts ausgeführt)"],
    (S, "%1 ms (headers only)"): "%1 ms (nur Kopfdaten)",
    (S, "… and %Ln more"): ["… und %Ln weiterer", "… und %Ln weitere"],
    (S, "Not convertible"): "Nicht konvertierbar",
    (S, "Notes"): "Hinweise",

    (D, "Select a tensor in the tree."): "Wählen Sie einen Tensor im Baum.",
    (D, "Stored tensor"): "Gespeicherter Tensor",
    (D, "Dtype"): "Datentyp",
    (D, "Shape"): "Form",
    (D, "Size"): "Größe",
    (D, "Role"): "Rolle",
    (D, "Compute statistics"): "Statistik berechnen",
    (D, "statistics %p%"): "Statistik %p %",
    (D, "min"): "Min.",
    (D, "max"): "Max.",
    (D, "mean"): "Mittelwert",
    (D, "std"): "Std.-Abw.",
    (D, "zeros"): "Nullen",
    (D, "NaN"): "NaN",
    (D, "±Inf"): "±Inf",
    (D, "values"): "Werte",
    (D, "Written as BF16 loses"): "Als BF16 geschrieben gehen verloren",
    (D, "Written as F16 loses"): "Als F16 geschrieben gehen verloren",
    (D, "Measured against the exact f32 dequantized values: root-mean-square error, largest absolute error and signal-to-quantization-noise ratio."):
        "Gemessen an den exakten dequantisierten f32-Werten: mittlerer quadratischer Fehler (Wurzel), größter absoluter Fehler "
        "und Signal-Quantisierungsrausch-Verhältnis.",
    (D, "Group"): "Gruppe",
    (D, "%Ln tensor(s)"): ["%Ln Tensor", "%Ln Tensoren"],
    (D, "Parameters"): "Parameter",
    (D, "Stored"): "Gespeichert",
    (D, "As BF16"): "Als BF16",
    (D, "Scheme"): "Schema",
    (D, "Bits per weight"): "Bits pro Gewicht",
    (D, "%1 stored, 16 as BF16"): "%1 gespeichert, 16 als BF16",
    (D, "Error"): "Fehler",
    (D, "Used by"): "Verwendet von",
    (D, "no output tensor (not written)"): "keinem Ausgabetensor (wird nicht geschrieben)",
    (D, "Statistics are available for output tensors."): "Statistiken gibt es für Ausgabetensoren.",
    (D, "Computing…"): "Wird berechnet …",
    (D, "Statistics failed: %1"): "Statistik fehlgeschlagen: %1",
    (D, "%1 (%2 %)"): "%1 (%2 %)",
    (D, "nothing: every value is exact"): "nichts: jeder Wert ist exakt",
    (D, "Lethe took (estimate)"): "Lethe nahm (Schätzung)",
    (D, "Estimated by re-quantizing the dequantized values with the same scheme "
        "(round to nearest) and comparing. The original weights are not in the file: "
        "values already on the scheme's grid come back unchanged."):
        "Geschätzt, indem die dequantisierten Werte mit demselben Schema erneut quantisiert "
        "(Runden zum nächsten Wert) und verglichen werden. Die ursprünglichen Gewichte sind nicht in der Datei: "
        "Werte, die schon auf dem Raster des Schemas liegen, kommen unverändert zurück.",
    (D, "not quantized"): "nicht quantisiert",
    ("amn::ui::SchemeText", "not quantized"): "nicht quantisiert",
    (D, "not measurable: %1"): "nicht messbar: %1",
    (D, "not measurable yet for %1"): "für %1 noch nicht messbar",
    (D, "no further loss: the values are already on the scheme's grid"):
        "kein weiterer Verlust: die Werte liegen schon auf dem Raster des Schemas",
    (D, "RMSE %1, max abs error %2, SQNR %3 dB"): "RMSE %1, größter absoluter Fehler %2, SQNR %3 dB",
    (D, "%Ln value(s) overflow to ±Inf"): ["%Ln Wert läuft über nach ±Inf", "%Ln Werte laufen über nach ±Inf"],
    (D, "No finite values."): "Keine endlichen Werte.",
    (D, "&Log scale"): "&Logarithmisch",
    (D, "Logarithmic count axis for the histogram: shows rare values in the tails"):
        "Logarithmische Anzahl-Achse im Histogramm: zeigt seltene Werte in den Ausläufern",

    (T, "Name"): "Name",
    (T, "Dtype / scheme"): "Datentyp / Schema",
    (T, "Shape"): "Form",
    (T, "Parameters"): "Parameter",
    (T, "Stored"): "Gespeichert",
    (T, "As BF16"): "Als BF16",
    (T, "Dotted tensor name, grouped by component"): "Tensorname mit Punkten, nach Bestandteilen gruppiert",
    (T, "Stored dtype and the quantization scheme that reads it"): "Gespeicherter Datentyp und das Quantisierungsschema, das ihn liest",
    (T, "Output shape (row-major), or the stored shape for companions"):
        "Ausgabeform (zeilenweise), bei Begleittensoren die gespeicherte Form",
    (T, "Number of elements"): "Anzahl der Elemente",
    (T, "Bytes in the file, companions included"): "Bytes in der Datei, einschließlich Begleittensoren",
    (T, "Bytes after dequantizing to BF16"): "Bytes nach dem Dequantisieren zu BF16",
    (T, "error"): "Fehler",
    (T, "%1 · %2 (dropped)"): "%1 · %2 (entfällt)",
    (T, "%Ln tensor(s)"): ["%Ln Tensor", "%Ln Tensoren"],
    (T, "Consumed by no output tensor: conversion drops it."): "Von keinem Ausgabetensor verwendet: die Konvertierung lässt ihn weg.",

    ("main", "Inspect ML model files and remember (dequantize) them."): "ML-Modelldateien untersuchen und erinnern (dequantisieren).",
    ("main", "User interface language (e.g. de), default: the system locale."):
        "Sprache der Oberfläche (z. B. de), Vorgabe: die Systemeinstellung.",
    ("main", "locale"): "Sprache",
    ("main", "Render screenshots of the first model into DIR and quit."):
        "Bildschirmfotos des ersten Modells in VERZEICHNIS speichern und beenden.",
    ("main", "DIR"): "VERZEICHNIS",
    ("main", "Model files or folders to open."): "Zu öffnende Modelldateien oder -ordner.",
    ("main", "Open a new window even when anamnesis is already running."):
        "Ein neues Fenster öffnen, auch wenn anamnesis bereits läuft.",
    # Round 2: forget in the wizard, Convert button, GGUF overview.
    (W, "The model to convert."): "Das zu konvertierende Modell.",
    (W, "Remember (dequantize) to safetensors, or forget (quantize) to GGUF or a safetensors scheme."):
        "Erinnern (dequantisieren) zu safetensors oder vergessen (quantisieren) zu GGUF oder einem safetensors-Schema.",
    (W, "Remember"): "Erinnern",
    (W, "Forget"): "Vergessen",
    (W, "&GGUF file type (as llama-quantize):"): "&GGUF-Dateityp (wie llama-quantize):",
    (W, "%1 (needs an importance matrix)"): "%1 (braucht eine Wichtigkeitsmatrix)",
    (W, "&Safetensors scheme (transformers, vLLM):"): "&Safetensors-Schema (transformers, vLLM):",
    (W, "Forgetting measures what is lost: after the run, the error of every tensor (RMSE, SQNR)."):
        "Vergessen misst, was verloren geht: nach dem Lauf den Fehler jedes Tensors (RMSE, SQNR).",
    (W, "&Output (a file, or a folder):"): "&Ausgabe (eine Datei oder ein Ordner):",
    (W, "GGUF options"): "GGUF-Optionen",
    (W, "&Pure: the file type's type for every quantized tensor (--pure)"):
        "&Pur: der Typ des Dateityps für jeden quantisierten Tensor (--pure)",
    (W, "by the file type's rules"): "nach den Regeln des Dateityps",
    (W, "Output tensor type:"): "Typ des Ausgabetensors:",
    (W, "Token embedding type:"): "Typ der Token-Einbettung:",
    (W, "REGEX=TYPE; … e.g. attn_v=Q8_0"): "REGEX=TYP; … z. B. attn_v=Q8_0",
    (W, "--tensor-type: the first pattern found in a tensor's name gives its type. Separate several with “;”."):
        "--tensor-type: das erste Muster, das im Namen eines Tensors vorkommt, bestimmt seinen Typ. Mehrere mit „;“ trennen.",
    (W, "&Tensor types:"): "&Tensortypen:",
    (W, "none"): "keine",
    (W, "Choose…"): "Wählen …",
    (W, "&Importance matrix:"): "&Wichtigkeitsmatrix:",
    (W, "Importance matrix"): "Wichtigkeitsmatrix",
    (W, "Importance matrix (*.gguf *.dat);;All files (*)"): "Wichtigkeitsmatrix (*.gguf *.dat);;Alle Dateien (*)",
    (W, "Scheme options"): "Schema-Optionen",
    (W, "Block size (bnb-nf4, bnb-fp4):"): "Blockgröße (bnb-nf4, bnb-fp4):",
    (W, "&Double quant: absmax quantized to 8 bits"): "Doppelte &Quantisierung: absmax auf 8 Bit quantisiert",
    (W, "channel (FP8_DYNAMIC)"): "Kanal (FP8_DYNAMIC)",
    (W, "tensor (FP8)"): "Tensor (FP8)",
    (W, "block 128×128 (FP8_BLOCK)"): "Block 128×128 (FP8_BLOCK)",
    (W, "Granularity (fp8):"): "Granularität (fp8):",
    (W, "Power-of-two scales (ue8m0)"): "Skalen als Zweierpotenzen (ue8m0)",
    (W, "channel"): "Kanal",
    (W, "Group size (w4a16, w8a16, mlx):"): "Gruppengröße (w4a16, w8a16, mlx):",
    (W, "REGEX; … tensors never quantized"): "REGEX; … nie quantisierte Tensoren",
    (W, "&Keep:"): "Be&halten:",
    (W, "&Re-quantize an already quantized input (the errors compound)"):
        "Bereits quantisierte Eingabe &neu quantisieren (die Fehler summieren sich)",
    (W, "GGUF (*.gguf)"): "GGUF (*.gguf)",
    (W, "safetensors (*.safetensors);;All files (*)"): "safetensors (*.safetensors);;Alle Dateien (*)",
    (W, "Tensor"): "Tensor",
    (W, "Shape"): "Form",
    (W, "Stored"): "Gespeichert",
    (W, "Written as"): "Geschrieben als",
    (W, "Bits/weight"): "Bits/Gewicht",
    (W, "Size"): "Größe",
    (W, "Why"): "Warum",
    (W, "&Try again"): "&Erneut versuchen",
    (W, "Open output fo&lder"): "Ausgabe&ordner öffnen",
    (W, "RMSE"): "RMSE",
    (W, "Max abs error"): "Max. abs. Fehler",
    (W, "SQNR (dB)"): "SQNR (dB)",
    (W, "The model has forgotten; here is what it lost."): "Das Modell hat vergessen; das hat es verloren.",
    (W, "%1 needs an importance matrix: choose one (llama-imatrix output)."):
        "%1 braucht eine Wichtigkeitsmatrix: wählen Sie eine (Ausgabe von llama-imatrix).",
    (W, "The importance matrix %1 does not exist."): "Die Wichtigkeitsmatrix %1 existiert nicht.",
    (W, "GGUF %1 (llama-quantize file type)"): "GGUF %1 (Dateityp von llama-quantize)",
    (W, "safetensors, %1"): "safetensors, %1",
    (W, "%Ln tensor(s), %1 re-encoded"): ["%Ln Tensor, %1 neu kodiert", "%Ln Tensoren, %1 neu kodiert"],
    (W, "Estimated size"): "Geschätzte Größe",
    (W, "%1 of tensor data (input: %2), %3 bits per weight"): "%1 Tensordaten (Eingabe: %2), %3 Bit pro Gewicht",
    (W, "Cannot forget"): "Vergessen nicht möglich",
    (W, "planning every tensor's type…"): "Typ jedes Tensors wird geplant …",
    (W, "exact"): "exakt",
    (W, "Written:\n%1"): "Geschrieben:\n%1",
    (W, "Remembered %Ln tensor(s), %1 of tensor data, in %2 s."):
        ["%Ln Tensor erinnert, %1 Tensordaten, in %2 s.", "%Ln Tensoren erinnert, %1 Tensordaten, in %2 s."],
    (W, "Forgot %Ln tensor(s) to %1: %2 bits per weight, %3 written in %4 s."):
        ["%Ln Tensor zu %1 vergessen: %2 Bit pro Gewicht, %3 geschrieben in %4 s.",
         "%Ln Tensoren zu %1 vergessen: %2 Bit pro Gewicht, %3 geschrieben in %4 s."],
    (W, "Warning: %1"): "Warnung: %1",
    ("amn::ui::LossChart", "Measured loss per tensor: SQNR (higher is better), mean %1 dB"):
        "Gemessener Verlust je Tensor: SQNR (höher ist besser), Mittel %1 dB",
    ("amn::ui::LossChart", "mean"): "Mittel",
    ("amn::ui::LossChart", "SQNR (dB)"): "SQNR (dB)",
    ("amn::ui::LossChart", "%Ln tensor(s) in file order (hover a bar for its name)"):
        ["%Ln Tensor in Dateireihenfolge (Balken überfahren für den Namen)", "%Ln Tensoren in Dateireihenfolge (Balken überfahren für den Namen)"],
    ("amn::ui::LossChart", "No tensor was quantized"): "Kein Tensor wurde quantisiert",
    ("amn::ui::LossChart", "%1 dB"): "%1 dB",
    ("amn::ui::LossChart", "exact"): "exakt",
    ("amn::ui::LossChart", "<b>%1</b><br>%2, %3 bits per weight<br>RMSE %4, SQNR %5"):
        "<b>%1</b><br>%2, %3 Bit pro Gewicht<br>RMSE %4, SQNR %5",
    (M, "Remember (dequantize) or forget (quantize) the current model"):
        "Das aktuelle Modell erinnern (dequantisieren) oder vergessen (quantisieren)",
    (M, "Main Toolbar"): "Hauptwerkzeugleiste",
    (S, "Con&vert…"): "Kon&vertieren …",
    (S, "Remember (dequantize) or forget (quantize) this model"): "Dieses Modell erinnern (dequantisieren) oder vergessen (quantisieren)",
    (S, "Architecture"): "Architektur",
    (S, "Name"): "Name",
    (S, "Size label"): "Größenangabe",
    (S, "Context length"): "Kontextlänge",
    (S, "File type"): "Dateityp",
    (S, "unknown"): "unbekannt",
    (W, "REGEX; … quantize exactly the 2-D weights matching"): "REGEX; … genau die passenden 2-D-Gewichte quantisieren",
    (W, "O&nly:"): "N&ur:",
    # Tensor detail round 2: value preview, .npy export, GGUF → Hugging Face folder, Lethe reasons
    (W, "One safetensors fi&le (GGUF tensor names)"): "Eine safetensors-Dat&ei (GGUF-Tensornamen)",
    (W, "&Hugging Face folder (config.json + safetensors, transformers names)"):
        "&Hugging-Face-Ordner (config.json + safetensors, transformers-Namen)",
    (W, "As amn remember --layout hf: a folder transformers can load, with llama.cpp's Q/K permutation undone."):
        "Wie amn remember --layout hf: ein Ordner, den transformers laden kann, mit rückgängig gemachter Q/K-Permutation von llama.cpp.",
    (W, "… and %Ln more"): ["… und %Ln weiterer", "… und %Ln weitere"],
    (W, "Layout"): "Aufbau",
    (W, "Hugging Face folder for %1 (%2): config.json + safetensors"): "Hugging-Face-Ordner für %1 (%2): config.json + safetensors",
    (W, "Tokenizer files alone (a vocab-only GGUF, %1): %2"): "Nur die Tokenizer-Dateien (ein GGUF nur mit Vokabular, %1): %2",
    (W, "Target names"): "Zielnamen",
    (W, "Cannot convert"): "Konvertierung nicht möglich",
    (W, "Hugging Face folder (config.json + safetensors, transformers names)"):
        "Hugging-Face-Ordner (config.json + safetensors, transformers-Namen)",
    (W, "Hugging Face folder: %1"): "Hugging-Face-Ordner: %1",
    (D, "&Histogram"): "&Histogramm",
    (D, "&Values"): "&Werte",
    ("amn::ui::SchemeText", "not measurable for %1: ggml quantizes it only with an importance matrix, which the file does not carry"):
        "für %1 nicht messbar: ggml quantisiert diesen Typ nur mit einer Importance-Matrix, die die Datei nicht enthält",
    ("amn::ui::SchemeText", "not measurable for %1: a row is not a whole number of blocks"):
        "für %1 nicht messbar: eine Zeile ist keine ganze Zahl von Blöcken",
    (P, "Export as .&npy…"): "Als .&npy exportieren…",
    (P, "Write the whole dequantized tensor as a NumPy .npy file"): "Den ganzen dequantisierten Tensor als NumPy-.npy-Datei schreiben",
    (P, "as F32"): "als F32",
    (P, "as F16"): "als F16",
    (P, "Value type of the .npy file (BF16 has no NumPy type)"): "Werttyp der .npy-Datei (BF16 hat keinen NumPy-Typ)",
    (P, "export %p%"): "Export %p%",
    (P, "Cancel"): "Abbrechen",
    (P, "Values are shown for output tensors."): "Werte werden für Ausgabetensoren gezeigt.",
    (P, "Reading values…"): "Werte werden gelesen…",
    (P, "Values could not be read: %1"): "Die Werte konnten nicht gelesen werden: %1",
    (P, "First %1 × %2 of %3 × %4 values (rows × columns, dequantized)"):
        "Erste %1 × %2 von %3 × %4 Werten (Zeilen × Spalten, dequantisiert)",
    (P, "Export as .npy"): "Als .npy exportieren",
    (P, "NumPy array (*.npy)"): "NumPy-Array (*.npy)",
    (P, "Written: %1 (%2)"): "Geschrieben: %1 (%2)",
    (P, "Export cancelled; no file written."): "Export abgebrochen; keine Datei geschrieben.",
    (P, "Export failed: %1"): "Export fehlgeschlagen: %1",
}

# Scheme descriptions and "not measurable" reasons, worded from the core's
# typed values (widgets/schemetext.cc). Type and format names stay as they are.
X = "amn::ui::SchemeText"
DE.update({
    (X, "%1×%2 blocks"): "%1×%2-Blöcke",
    (X, "ModelOpt FP8 (%1), per-channel %2 scale applied in BF16"): "ModelOpt FP8 (%1), %2-Skala je Kanal, in BF16 angewandt",
    (X, "ModelOpt FP8 (%1), per-tensor %2 scale applied in BF16"): "ModelOpt FP8 (%1), %2-Skala je Tensor, in BF16 angewandt",
    (X, "per-tensor"): "je Tensor",
    (X, "per-channel"): "je Kanal",
    (X, "per-expert"): "je Experte",
    (X, "group %1"): "Gruppe %1",
    (X, "compressed-tensors W8A%1 (float-quantized), FP8 %2, %3, %4 scales"):
        "compressed-tensors W8A%1 (float-quantized), FP8 %2, %3, %4-Skalen",
    (X, "per-tensor scale"): "eine Skala je Tensor",
    (X, "per-channel scales"): "Skalen je Kanal",
    (X, "per-expert scales"): "Skalen je Experte",
    (X, "group %1 scales"): "Skalen je Gruppe von %1",
    (X, "FP8 (%1), %2, %3 scales"): "FP8 (%1), %2, %3-Skalen",
    (X, "FP8 (%1), %2, %3 scales (powers of two, UE8M0)"): "FP8 (%1), %2, %3-Skalen (Zweierpotenzen, UE8M0)",
    (X, "asymmetric"): "asymmetrisch",
    (X, "symmetric"): "symmetrisch",
    (X, "compressed-tensors W%1A%2 (%3), int%1 %4, %5"): "compressed-tensors W%1A%2 (%3), int%1 %4, %5",
    (X, ", act-order"): ", Aktivierungsreihenfolge (act-order)",
    (X, ", %1 scales"): ", %1-Skalen",
    (X, "per-channel (no groups)"): "je Kanal (keine Gruppen)",
    (X, "AWQ GEMM %1-bit, %2, zero points, %3 scales"): "AWQ GEMM %1 Bit, %2, Nullpunkte, %3-Skalen",
    (X, "GPTQ %1-bit"): "GPTQ %1 Bit",
    (X, ", %Ln group(s)"): [", %Ln Gruppe", ", %Ln Gruppen"],
    (X, ", per-channel (no groups)"): ", je Kanal (keine Gruppen)",
    (X, ", group %1"): ", Gruppe %1",
    (X, ", symmetric"): ", symmetrisch",
    (X, ", asymmetric"): ", asymmetrisch",
    (X, ", gptq_v2 zero points"): ", gptq_v2-Nullpunkte",
    (X, "bitsandbytes %1, blocksize %2"): "bitsandbytes %1, Blockgröße %2",
    (X, ", double-quant (nested blocksize %1)"): ", doppelt quantisiert (innere Blockgröße %1)",
    (X, ", compute %1"): ", Rechentyp %1",
    (X, "GGUF %1"): "GGUF %1",
    (X, "GGUF %1 (%2-element blocks of %3 bytes, %4 bits per weight)"):
        "GGUF %1 (Blöcke zu %2 Elementen in %3 Bytes, %4 Bit pro Gewicht)",
    (X, "E2M1 with an %1 scale per %2"): "E2M1 mit einer %1-Skala je %2",
    (X, "compressed-tensors %1 W4A%2 (%3-pack-quantized), %4"): "compressed-tensors %1 W4A%2 (%3-pack-quantized), %4",
    (X, ", %1 global scale"): ", globale %1-Skala",
    (X, "ModelOpt %1, %2"): "ModelOpt %1, %2",
    (X, "ModelOpt %1, %2 and a %3 second-level scale"): "ModelOpt %1, %2 und einer %3-Skala zweiter Stufe",
    (X, "ModelOpt %1, %2 and an %3 second-level scale"): "ModelOpt %1, %2 und einer %3-Skala zweiter Stufe",
    (X, "%1 (gpt-oss experts), %2, transformers' [E, in, out] layout"):
        "%1 (gpt-oss-Experten), %2, Anordnung [E, in, out] wie in transformers",
    (X, "%1, %2"): "%1, %2",
    (X, "bitsandbytes LLM.int8, row-wise %1 absmax (SCB)"): "bitsandbytes LLM.int8, %1-Absolutmaximum je Zeile (SCB)",
    (X, "ONNX %1, %2, block %3, %4 absmax"): "ONNX %1, %2, Block %3, %4-Absolutmaximum",
    (X, "per axis %1"): "je Index der Achse %1",
    (X, "block %1"): "Block %1",
    (X, ", act order (g_idx)"): ", Act-Order (g_idx)",
    (X, "ONNX %1, %2 %3-bit, %4, %5 scales"): "ONNX %1, %2 %3 Bit, %4, %5-Skalen",
    (X, "quantized"): "quantisiert",
    (X, "kept"): "beibehalten",
    (X, "not quantized, kept %1"): "nicht quantisiert, bleibt %1",
    (X, "set by --token-embedding-type"): "durch --token-embedding-type",
    (X, "set by --output-tensor-type"): "durch --output-tensor-type",
    (X, "set by --tensor-type"): "durch --tensor-type",
    (X, "%1 default"): "Standard von %1",
    (X, "%1 mix rule"): "Mischregel von %1",
    (X, "--pure: the file type's type"): "--pure: der Typ des Dateityps",
    (X, "file type %1"): "Dateityp %1",
    (X, "; fallback: the row does not fit the type's blocks"): "; Ersatztyp: die Zeile passt nicht in die Blöcke des Typs",
    (X, "companion"): "Begleiter",
    (X, "passthrough"): "durchgereicht",
    (X, "unsupported"): "nicht unterstützt",
    (X, "not measurable yet for %1"): "für %1 noch nicht messbar",
    (X, "not measurable: the tensor cannot be decoded"): "nicht messbar: der Tensor lässt sich nicht dekodieren",
    (X, "not quantized: nothing to measure"): "nicht quantisiert: nichts zu messen",
    # Hugging Face folder → GGUF (issue 23): Overview and wizard.
    (W, "Remember (dequantize) to safetensors, convert to GGUF for llama.cpp, or forget (quantize) to a safetensors scheme."):
        "Erinnern (dequantisieren) zu safetensors, zu GGUF für llama.cpp konvertieren oder vergessen (quantisieren) "
        "zu einem safetensors-Schema.",
    (W, "&GGUF file type (as llama-quantize, in one pass):"): "&GGUF-Dateityp (wie llama-quantize, in einem Durchgang):",
    (W, "GGUF for llama.cpp"): "GGUF für llama.cpp",
    (W, "As convert_hf_to_gguf.py &writes it:"): "Wie convert_hf_to_gguf.py es sc&hreibt:",
    (W, "As amn convert --to gguf:TYPE: the bytes llama.cpp's converter writes."):
        "Wie amn convert --to gguf:TYP: die Bytes, die der Konverter von llama.cpp schreibt.",
    (W, "auto"): "auto",
    (W, "auto (%1 for this model)"): "auto (%1 für dieses Modell)",
    (W, "As amn forget --to gguf:FTYPE: the converter's lossless output quantized by llama-quantize's rules, without the intermediate file."):
        "Wie amn forget --to gguf:DATEITYP: die verlustfreie Ausgabe des Konverters, nach den Regeln von llama-quantize "
        "quantisiert, ohne Zwischendatei.",
    (W, "GGUF output needs a GGUF input or a Hugging Face folder (config.json beside the safetensors)."):
        "GGUF-Ausgabe braucht eine GGUF-Eingabe oder einen Hugging-Face-Ordner (config.json neben den safetensors).",
    (W, "The model is a GGUF for llama.cpp now."): "Das Modell ist jetzt ein GGUF für llama.cpp.",
    (W, "GGUF %1 (as convert_hf_to_gguf.py + llama-quantize, in one pass)"):
        "GGUF %1 (wie convert_hf_to_gguf.py + llama-quantize, in einem Durchgang)",
    (W, "GGUF %1 (as convert_hf_to_gguf.py --outtype %2)"): "GGUF %1 (wie convert_hf_to_gguf.py --outtype %2)",
    (W, "GGUF"): "GGUF",
    (W, "Converted %Ln tensor(s) to GGUF %1 as convert_hf_to_gguf.py writes it: %2 written in %3 s."):
        ["%Ln Tensor zu GGUF %1 konvertiert, wie convert_hf_to_gguf.py es schreibt: %2 geschrieben in %3 s.",
         "%Ln Tensoren zu GGUF %1 konvertiert, wie convert_hf_to_gguf.py es schreibt: %2 geschrieben in %3 s."],
    (X, "--outtype %1"): "--outtype %1",
    (X, "kept %1 by the converter's rules"): "bleibt %1 nach den Regeln des Konverters",
    (X, "Cannot become a GGUF: %1"): "Kann kein GGUF werden: %1",
    (X, "%1 (%2), tokenizer %3 / %4, auto → %5"): "%1 (%2), Tokenizer %3 / %4, auto → %5",
    (X, "Note: %1"): "Hinweis: %1",
    (S, "GGUF"): "GGUF",
    (S, "reading the tokenizer…"): "Tokenizer wird gelesen …",
    # A PEFT adapter folder (widgets/summaryview.cc adapterText).
    (S, "Adapter"): "Adapter",
    (S, "PEFT adapter"): "PEFT-Adapter",
    (S, "PEFT %1"): "PEFT %1",
    (S, ", rank %1"): ", Rang %1",
    (S, ", alpha %1"): ", Alpha %1",
    (S, ", scale %1 (alpha/√r: rsLoRA)"): ", Skalierung %1 (Alpha/√r: rsLoRA)",
    (S, ", scale %1 (alpha/r)"): ", Skalierung %1 (Alpha/r)",
    (S, ", DoRA"): ", DoRA",
    (S, "%Ln adapted module(s): %1"): ["%Ln angepasstes Modul: %1", "%Ln angepasste Module: %1"],
    (S, "no target modules named"): "keine Zielmodule genannt",
    (S, "base model %1"): "Basismodell %1",
    (S, "becomes a GGUF LoRA adapter with its base model's folder (amn convert … --to gguf --base BASE_DIR)"):
        "wird mit dem Ordner seines Basismodells ein GGUF-LoRA-Adapter (amn convert … --to gguf --base BASE_DIR)",
    (S, "no GGUF form: %1"): "keine GGUF-Form: %1",
})

from de_strings_reasons import REASONS  # noqa: E402  (why a tensor got its type: the plan tooltips)
DE.update(REASONS)
from de_strings_remote import REMOTE  # noqa: E402  (issue 34: the remote-model strings)
DE.update(REMOTE)
from de_strings_notices import NOTICES  # noqa: E402  (issue 31: the core's notices and tensor errors)
DE.update(NOTICES)
from de_strings_wizard_adapters import WIZARD_ADAPTERS  # noqa: E402  (the wizard's mmproj and LoRA adapter targets)
DE.update(WIZARD_ADAPTERS)
