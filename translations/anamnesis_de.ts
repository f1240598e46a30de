<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de_DE">
    <context>
        <name>amn::ui::BitsFigure</name>
        <message>
            <source>bits per weight</source>
            <translation>Bit pro Gewicht</translation>
        </message>
        <message>
            <source>bits</source>
            <translation>Bit</translation>
        </message>
        <message>
            <source>bpw</source>
            <translation>Bit/Gew.</translation>
        </message>
    </context>
    <context>
        <name>amn::ui::BreakdownChart</name>
        <message>
            <source>%1 in total</source>
            <translation>%1 insgesamt</translation>
        </message>
        <message>
            <source>%1 — %2 (%3)</source>
            <translation>%1 — %2 (%3)</translation>
        </message>
        <message numerus="yes">
            <source>%1
%2 of %3 (%4), %Ln tensor(s)</source>
            <translation>
                <numerusform>%1
%2 von %3 (%4), %Ln Tensor</numerusform>
                <numerusform>%1
%2 von %3 (%4), %Ln Tensoren</numerusform>
            </translation>
        </message>
        <message>
            <source> — %1, %2 (%3)</source>
            <translation> — %1, %2 (%3)</translation>
        </message>
    </context>
    <context>
        <name>amn::ui::ConvertWizard</name>
        <message>
            <source>Convert %1</source>
            <translation>%1 konvertieren</translation>
        </message>
        <message>
            <source>&amp;Convert</source>
            <translation>&amp;Konvertieren</translation>
        </message>
        <message>
            <source>Conversion running</source>
            <translation>Konvertierung läuft</translation>
        </message>
        <message>
            <source>A conversion is still running. Cancel it? No partial file is left behind.</source>
            <translation>Eine Konvertierung läuft noch. Abbrechen? Es bleibt keine unvollständige Datei zurück.</translation>
        </message>
        <message>
            <source>Source</source>
            <translation>Quelle</translation>
        </message>
        <message>
            <source>Scheme: none (unquantized tensors are cast or copied).</source>
            <translation>Schema: keines (nicht quantisierte Tensoren werden umgewandelt oder kopiert).</translation>
        </message>
        <message>
            <source>Scheme: %1</source>
            <translation>Schema: %1</translation>
        </message>
        <message>
            <source>Target</source>
            <translation>Ziel</translation>
        </message>
        <message>
            <source>&amp;Automatic: dequantized tensors as BF16, the others keep their dtype (lossless)</source>
            <translation>&amp;Automatisch: dequantisierte Tensoren als BF16, die übrigen behalten ihren Datentyp (verlustfrei)</translation>
        </message>
        <message>
            <source>Every float tensor as &amp;BF16 safetensors</source>
            <translation>Jeden Gleitkommatensor als &amp;BF16-safetensors</translation>
        </message>
        <message>
            <source>Every float tensor as &amp;F16 safetensors</source>
            <translation>Jeden Gleitkommatensor als &amp;F16-safetensors</translation>
        </message>
        <message>
            <source>Every float tensor as F&amp;32 safetensors (exact dequantized values, twice the size)</source>
            <translation>Jeden Gleitkommatensor als F&amp;32-safetensors (exakte dequantisierte Werte, doppelte Größe)</translation>
        </message>
        <message>
            <source>Integer and boolean tensors are always copied unchanged. Quantization companions (scales, zero points) are consumed and not written.</source>
            <translation>Ganzzahl- und Wahrheitswert-Tensoren werden immer unverändert kopiert. Begleittensoren der Quantisierung (Skalen, Nullpunkte) werden verbraucht und nicht geschrieben.</translation>
        </message>
        <message>
            <source>Options</source>
            <translation>Optionen</translation>
        </message>
        <message>
            <source>Where to write. Output goes to a temporary file first and is renamed when complete.</source>
            <translation>Wohin geschrieben wird. Die Ausgabe entsteht zuerst in einer temporären Datei und wird erst umbenannt, wenn sie vollständig ist.</translation>
        </message>
        <message>
            <source>&amp;Browse…</source>
            <translation>&amp;Durchsuchen …</translation>
        </message>
        <message>
            <source>O&amp;verwrite existing files</source>
            <translation>Vorhandene Dateien ü&amp;berschreiben</translation>
        </message>
        <message>
            <source>Output file</source>
            <translation>Ausgabedatei</translation>
        </message>
        <message>
            <source>Summary</source>
            <translation>Zusammenfassung</translation>
        </message>
        <message>
            <source>Check, then convert.</source>
            <translation>Prüfen, dann konvertieren.</translation>
        </message>
        <message>
            <source>Converting</source>
            <translation>Konvertierung</translation>
        </message>
        <message>
            <source>Runs in the background on all cores. Cancel stops within a second and leaves no partial file.</source>
            <translation>Läuft im Hintergrund auf allen Kernen. Abbrechen hält binnen einer Sekunde an und hinterlässt keine unvollständige Datei.</translation>
        </message>
        <message>
            <source>Done</source>
            <translation>Fertig</translation>
        </message>
        <message>
            <source>The model is remembered.</source>
            <translation>Das Modell ist erinnert.</translation>
        </message>
        <message>
            <source>&amp;Open the result in anamnesis</source>
            <translation>&amp;Ergebnis in anamnesis öffnen</translation>
        </message>
        <message>
            <source>Choose an output path.</source>
            <translation>Wählen Sie einen Ausgabepfad.</translation>
        </message>
        <message>
            <source>%1 exists. Tick “Overwrite existing files” or choose another path.</source>
            <translation>%1 existiert bereits. Aktivieren Sie „Vorhandene Dateien überschreiben“ oder wählen Sie einen anderen Pfad.</translation>
        </message>
        <message>
            <source>%1 safetensors</source>
            <translation>%1-safetensors</translation>
        </message>
        <message>
            <source>safetensors, dequantized tensors as BF16, others unchanged</source>
            <translation>safetensors, dequantisierte Tensoren als BF16, übrige unverändert</translation>
        </message>
        <message>
            <source>Output</source>
            <translation>Ausgabe</translation>
        </message>
        <message>
            <source> (overwrite)</source>
            <translation> (überschreiben)</translation>
        </message>
        <message>
            <source>Tensors</source>
            <translation>Tensoren</translation>
        </message>
        <message>
            <source>%1 written, %2 dequantized</source>
            <translation>%1 geschrieben, %2 dequantisiert</translation>
        </message>
        <message>
            <source>Predicted size</source>
            <translation>Erwartete Größe</translation>
        </message>
        <message>
            <source>%1 of tensor data (input: %2)</source>
            <translation>%1 Tensordaten (Eingabe: %2)</translation>
        </message>
        <message>
            <source>%1 free on %2</source>
            <translation>%1 frei auf %2</translation>
        </message>
        <message>
            <source>— not enough space</source>
            <translation>— nicht genug Platz</translation>
        </message>
        <message>
            <source>Disk space</source>
            <translation>Speicherplatz</translation>
        </message>
        <message>
            <source>Starting…</source>
            <translation>Wird gestartet …</translation>
        </message>
        <message>
            <source>%1 of %2 written — %3/s — %4 left</source>
            <translation>%1 von %2 geschrieben — %3/s — noch %4</translation>
        </message>
        <message>
            <source>Wrote %1 in %2 s.</source>
            <translation>%1 in %2 s geschrieben.</translation>
        </message>
        <message>
            <source>Cancelled. No output file was written.</source>
            <translation>Abgebrochen. Es wurde keine Ausgabedatei geschrieben.</translation>
        </message>
        <message>
            <source>Conversion failed</source>
            <translation>Konvertierung fehlgeschlagen</translation>
        </message>
        <message>
            <source>Cancelling…</source>
            <translation>Wird abgebrochen …</translation>
        </message>
        <message>
            <source>&lt; &amp;Back</source>
            <translation>&lt; &amp;Zurück</translation>
        </message>
        <message>
            <source>&amp;Next &gt;</source>
            <translation>&amp;Weiter &gt;</translation>
        </message>
        <message>
            <source>Cancel</source>
            <translation>Abbrechen</translation>
        </message>
        <message>
            <source>&amp;Finish</source>
            <translation>&amp;Fertigstellen</translation>
        </message>
        <message>
            <source>Cancel Conversion</source>
            <translation>Konvertierung abbrechen</translation>
        </message>
        <message>
            <source>Keep Running</source>
            <translation>Weiterlaufen lassen</translation>
        </message>
        <message>
            <source>Close</source>
            <translation>Schließen</translation>
        </message>
        <message>
            <source>The model to convert.</source>
            <translation>Das zu konvertierende Modell.</translation>
        </message>
        <message>
            <source>Remember (dequantize) to safetensors, or forget (quantize) to GGUF or a safetensors scheme.</source>
            <translation>Erinnern (dequantisieren) zu safetensors oder vergessen (quantisieren) zu GGUF oder einem safetensors-Schema.</translation>
        </message>
        <message>
            <source>Remember</source>
            <translation>Erinnern</translation>
        </message>
        <message>
            <source>Forget</source>
            <translation>Vergessen</translation>
        </message>
        <message>
            <source>&amp;GGUF file type (as llama-quantize):</source>
            <translation>&amp;GGUF-Dateityp (wie llama-quantize):</translation>
        </message>
        <message>
            <source>%1 (needs an importance matrix)</source>
            <translation>%1 (braucht eine Wichtigkeitsmatrix)</translation>
        </message>
        <message>
            <source>&amp;Safetensors scheme (transformers, vLLM):</source>
            <translation>&amp;Safetensors-Schema (transformers, vLLM):</translation>
        </message>
        <message>
            <source>Forgetting measures what is lost: after the run, the error of every tensor (RMSE, SQNR).</source>
            <translation>Vergessen misst, was verloren geht: nach dem Lauf den Fehler jedes Tensors (RMSE, SQNR).</translation>
        </message>
        <message>
            <source>&amp;Output (a file, or a folder):</source>
            <translation>&amp;Ausgabe (eine Datei oder ein Ordner):</translation>
        </message>
        <message>
            <source>GGUF options</source>
            <translation>GGUF-Optionen</translation>
        </message>
        <message>
            <source>&amp;Pure: the file type's type for every quantized tensor (--pure)</source>
            <translation>&amp;Pur: der Typ des Dateityps für jeden quantisierten Tensor (--pure)</translation>
        </message>
        <message>
            <source>by the file type's rules</source>
            <translation>nach den Regeln des Dateityps</translation>
        </message>
        <message>
            <source>Output tensor type:</source>
            <translation>Typ des Ausgabetensors:</translation>
        </message>
        <message>
            <source>Token embedding type:</source>
            <translation>Typ der Token-Einbettung:</translation>
        </message>
        <message>
            <source>REGEX=TYPE; … e.g. attn_v=Q8_0</source>
            <translation>REGEX=TYP; … z. B. attn_v=Q8_0</translation>
        </message>
        <message>
            <source>--tensor-type: the first pattern found in a tensor's name gives its type. Separate several with “;”.</source>
            <translation>--tensor-type: das erste Muster, das im Namen eines Tensors vorkommt, bestimmt seinen Typ. Mehrere mit „;“ trennen.</translation>
        </message>
        <message>
            <source>&amp;Tensor types:</source>
            <translation>&amp;Tensortypen:</translation>
        </message>
        <message>
            <source>none</source>
            <translation>keine</translation>
        </message>
        <message>
            <source>Choose…</source>
            <translation>Wählen …</translation>
        </message>
        <message>
            <source>&amp;Importance matrix:</source>
            <translation>&amp;Wichtigkeitsmatrix:</translation>
        </message>
        <message>
            <source>Importance matrix</source>
            <translation>Wichtigkeitsmatrix</translation>
        </message>
        <message>
            <source>Importance matrix (*.gguf *.dat);;All files (*)</source>
            <translation>Wichtigkeitsmatrix (*.gguf *.dat);;Alle Dateien (*)</translation>
        </message>
        <message>
            <source>Scheme options</source>
            <translation>Schema-Optionen</translation>
        </message>
        <message>
            <source>Block size (bnb-nf4, bnb-fp4):</source>
            <translation>Blockgröße (bnb-nf4, bnb-fp4):</translation>
        </message>
        <message>
            <source>&amp;Double quant: absmax quantized to 8 bits</source>
            <translation>Doppelte &amp;Quantisierung: absmax auf 8 Bit quantisiert</translation>
        </message>
        <message>
            <source>channel (FP8_DYNAMIC)</source>
            <translation>Kanal (FP8_DYNAMIC)</translation>
        </message>
        <message>
            <source>tensor (FP8)</source>
            <translation>Tensor (FP8)</translation>
        </message>
        <message>
            <source>block 128×128 (FP8_BLOCK)</source>
            <translation>Block 128×128 (FP8_BLOCK)</translation>
        </message>
        <message>
            <source>Granularity (fp8):</source>
            <translation>Granularität (fp8):</translation>
        </message>
        <message>
            <source>Power-of-two scales (ue8m0)</source>
            <translation>Skalen als Zweierpotenzen (ue8m0)</translation>
        </message>
        <message>
            <source>channel</source>
            <translation>Kanal</translation>
        </message>
        <message>
            <source>REGEX; … tensors never quantized</source>
            <translation>REGEX; … nie quantisierte Tensoren</translation>
        </message>
        <message>
            <source>&amp;Keep:</source>
            <translation>Be&amp;halten:</translation>
        </message>
        <message>
            <source>&amp;Re-quantize an already quantized input (the errors compound)</source>
            <translation>Bereits quantisierte Eingabe &amp;neu quantisieren (die Fehler summieren sich)</translation>
        </message>
        <message>
            <source>GGUF (*.gguf)</source>
            <translation>GGUF (*.gguf)</translation>
        </message>
        <message>
            <source>safetensors (*.safetensors);;All files (*)</source>
            <translation>safetensors (*.safetensors);;Alle Dateien (*)</translation>
        </message>
        <message>
            <source>Tensor</source>
            <translation>Tensor</translation>
        </message>
        <message>
            <source>Shape</source>
            <translation>Form</translation>
        </message>
        <message>
            <source>Stored</source>
            <translation>Gespeichert</translation>
        </message>
        <message>
            <source>Written as</source>
            <translation>Geschrieben als</translation>
        </message>
        <message>
            <source>Bits/weight</source>
            <translation>Bits/Gewicht</translation>
        </message>
        <message>
            <source>Size</source>
            <translation>Größe</translation>
        </message>
        <message>
            <source>Why</source>
            <translation>Warum</translation>
        </message>
        <message>
            <source>&amp;Try again</source>
            <translation>&amp;Erneut versuchen</translation>
        </message>
        <message>
            <source>Open output fo&amp;lder</source>
            <translation>Ausgabe&amp;ordner öffnen</translation>
        </message>
        <message>
            <source>RMSE</source>
            <translation>RMSE</translation>
        </message>
        <message>
            <source>Max abs error</source>
            <translation>Max. abs. Fehler</translation>
        </message>
        <message>
            <source>SQNR (dB)</source>
            <translation>SQNR (dB)</translation>
        </message>
        <message>
            <source>The model has forgotten; here is what it lost.</source>
            <translation>Das Modell hat vergessen; das hat es verloren.</translation>
        </message>
        <message>
            <source>%1 needs an importance matrix: choose one (llama-imatrix output).</source>
            <translation>%1 braucht eine Wichtigkeitsmatrix: wählen Sie eine (Ausgabe von llama-imatrix).</translation>
        </message>
        <message>
            <source>The importance matrix %1 does not exist.</source>
            <translation>Die Wichtigkeitsmatrix %1 existiert nicht.</translation>
        </message>
        <message>
            <source>GGUF %1 (llama-quantize file type)</source>
            <translation>GGUF %1 (Dateityp von llama-quantize)</translation>
        </message>
        <message>
            <source>safetensors, %1</source>
            <translation>safetensors, %1</translation>
        </message>
        <message>
            <source>Estimated size</source>
            <translation>Geschätzte Größe</translation>
        </message>
        <message>
            <source>%1 of tensor data (input: %2), %3 bits per weight</source>
            <translation>%1 Tensordaten (Eingabe: %2), %3 Bit pro Gewicht</translation>
        </message>
        <message>
            <source>Cannot forget</source>
            <translation>Vergessen nicht möglich</translation>
        </message>
        <message>
            <source>planning every tensor's type…</source>
            <translation>Typ jedes Tensors wird geplant …</translation>
        </message>
        <message>
            <source>exact</source>
            <translation>exakt</translation>
        </message>
        <message>
            <source>Written:
%1</source>
            <translation>Geschrieben:
%1</translation>
        </message>
        <message>
            <source>Warning: %1</source>
            <translation>Warnung: %1</translation>
        </message>
        <message>
            <source>REGEX; … quantize exactly the 2-D weights matching</source>
            <translation>REGEX; … genau die passenden 2-D-Gewichte quantisieren</translation>
        </message>
        <message>
            <source>O&amp;nly:</source>
            <translation>N&amp;ur:</translation>
        </message>
        <message numerus="yes">
            <source>%1, %Ln file(s), %2 — %3, %4 parameters</source>
            <translation>
                <numerusform>%1, %Ln Datei, %2 — %3, %4 Parameter</numerusform>
                <numerusform>%1, %Ln Dateien, %2 — %3, %4 Parameter</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%Ln output tensor(s)</source>
            <translation>
                <numerusform>%Ln Ausgabetensor</numerusform>
                <numerusform>%Ln Ausgabetensoren</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%Ln tensor(s) cannot be converted, for example:
%1</source>
            <translation>
                <numerusform>%Ln Tensor kann nicht konvertiert werden:
%1</numerusform>
                <numerusform>%Ln Tensoren können nicht konvertiert werden, zum Beispiel:
%1</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%Ln tensor(s), %1 re-encoded</source>
            <translation>
                <numerusform>%Ln Tensor, %1 neu kodiert</numerusform>
                <numerusform>%Ln Tensoren, %1 neu kodiert</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>Remembered %Ln tensor(s), %1 of tensor data, in %2 s.</source>
            <translation>
                <numerusform>%Ln Tensor erinnert, %1 Tensordaten, in %2 s.</numerusform>
                <numerusform>%Ln Tensoren erinnert, %1 Tensordaten, in %2 s.</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>Forgot %Ln tensor(s) to %1: %2 bits per weight, %3 written in %4 s.</source>
            <translation>
                <numerusform>%Ln Tensor zu %1 vergessen: %2 Bit pro Gewicht, %3 geschrieben in %4 s.</numerusform>
                <numerusform>%Ln Tensoren zu %1 vergessen: %2 Bit pro Gewicht, %3 geschrieben in %4 s.</numerusform>
            </translation>
        </message>
        <message>
            <source>One safetensors fi&amp;le (GGUF tensor names)</source>
            <translation>Eine safetensors-Dat&amp;ei (GGUF-Tensornamen)</translation>
        </message>
        <message>
            <source>&amp;Hugging Face folder (config.json + safetensors, transformers names)</source>
            <translation>&amp;Hugging-Face-Ordner (config.json + safetensors, transformers-Namen)</translation>
        </message>
        <message>
            <source>As amn remember --layout hf: a folder transformers can load, with llama.cpp's Q/K permutation undone.</source>
            <translation>Wie amn remember --layout hf: ein Ordner, den transformers laden kann, mit rückgängig gemachter Q/K-Permutation von llama.cpp.</translation>
        </message>
        <message numerus="yes">
            <source>… and %Ln more</source>
            <translation>
                <numerusform>… und %Ln weiterer</numerusform>
                <numerusform>… und %Ln weitere</numerusform>
            </translation>
        </message>
        <message>
            <source>Layout</source>
            <translation>Aufbau</translation>
        </message>
        <message>
            <source>Hugging Face folder for %1 (%2): config.json + safetensors</source>
            <translation>Hugging-Face-Ordner für %1 (%2): config.json + safetensors</translation>
        </message>
        <message>
            <source>Target names</source>
            <translation>Zielnamen</translation>
        </message>
        <message>
            <source>Cannot convert</source>
            <translation>Konvertierung nicht möglich</translation>
        </message>
        <message>
            <source>Hugging Face folder (config.json + safetensors, transformers names)</source>
            <translation>Hugging-Face-Ordner (config.json + safetensors, transformers-Namen)</translation>
        </message>
        <message>
            <source>Hugging Face folder: %1</source>
            <translation>Hugging-Face-Ordner: %1</translation>
        </message>
        <message>
            <source>The plan could not be made.</source>
            <translation>Der Plan konnte nicht erstellt werden.</translation>
        </message>
        <message>
            <source>The chosen options do not fit this model.</source>
            <translation>Die gewählten Optionen passen nicht zu diesem Modell.</translation>
        </message>
        <message>
            <source>The chosen options do not fit tensor %1.</source>
            <translation>Die gewählten Optionen passen nicht zu Tensor %1.</translation>
        </message>
        <message>
            <source>Tensor %1 cannot be converted this way.</source>
            <translation>Tensor %1 lässt sich so nicht konvertieren.</translation>
        </message>
        <message>
            <source>The model is already quantized: tick “Re-quantize an already quantized input”, or start from the BF16/F16/F32 model.</source>
            <translation>Das Modell ist bereits quantisiert: Aktivieren Sie „Bereits quantisierte Eingabe neu quantisieren“ oder gehen Sie vom BF16/F16/F32-Modell aus.</translation>
        </message>
        <message>
            <source>anamnesis cannot make this conversion of this model yet.</source>
            <translation>anamnesis kann diese Konvertierung dieses Modells noch nicht ausführen.</translation>
        </message>
        <message>
            <source>A tensor's size does not fit the chosen type's blocks.</source>
            <translation>Die Größe eines Tensors passt nicht in die Blöcke des gewählten Typs.</translation>
        </message>
        <message>
            <source>The size of tensor %1 does not fit the chosen type's blocks.</source>
            <translation>Die Größe des Tensors %1 passt nicht in die Blöcke des gewählten Typs.</translation>
        </message>
        <message>
            <source>The model holds a data type anamnesis does not know.</source>
            <translation>Das Modell enthält einen Datentyp, den anamnesis nicht kennt.</translation>
        </message>
        <message>
            <source>A file the options name could not be read (missing, or no permission?).</source>
            <translation>Eine in den Optionen genannte Datei konnte nicht gelesen werden (fehlt sie, oder fehlt die Berechtigung?).</translation>
        </message>
        <message>
            <source>A file the plan reads is damaged, or not of the kind expected.</source>
            <translation>Eine Datei, die der Plan liest, ist beschädigt oder nicht von der erwarteten Art.</translation>
        </message>
        <message>
            <source>A quantized tensor lacks the scales it needs, or they do not fit.</source>
            <translation>Einem quantisierten Tensor fehlen die nötigen Skalen, oder sie passen nicht.</translation>
        </message>
        <message>
            <source>There is not enough memory to plan the conversion.</source>
            <translation>Der Speicher reicht nicht, um die Konvertierung zu planen.</translation>
        </message>
        <message>
            <source>The conversion failed.</source>
            <translation>Die Konvertierung ist fehlgeschlagen.</translation>
        </message>
        <message>
            <source>The output could not be written (is the folder writable, is the disk full?).</source>
            <translation>Die Ausgabe konnte nicht geschrieben werden (ist der Ordner beschreibbar, ist die Platte voll?).</translation>
        </message>
        <message>
            <source>The output exists already: tick “Overwrite existing files” or choose another path.</source>
            <translation>Die Ausgabe existiert bereits: Aktivieren Sie „Vorhandene Dateien überschreiben“ oder wählen Sie einen anderen Pfad.</translation>
        </message>
        <message>
            <source>Tensor %1 holds something this conversion cannot take.</source>
            <translation>Tensor %1 enthält etwas, das diese Konvertierung nicht annimmt.</translation>
        </message>
        <message>
            <source>The model's data could not be read as its header declares: the file may have changed since it was opened, or be damaged.</source>
            <translation>Die Daten des Modells ließen sich nicht so lesen, wie ihr Header sie angibt: Die Datei hat sich seit dem Öffnen vielleicht geändert, oder sie ist beschädigt.</translation>
        </message>
        <message>
            <source>There is not enough memory for the conversion.</source>
            <translation>Der Speicher reicht nicht für die Konvertierung.</translation>
        </message>
        <message>
            <source>No output file was written.</source>
            <translation>Es wurde keine Ausgabedatei geschrieben.</translation>
        </message>
        <message>
            <source>Remember (dequantize) to safetensors, convert to GGUF for llama.cpp, or forget (quantize) to a safetensors scheme.</source>
            <translation>Erinnern (dequantisieren) zu safetensors, zu GGUF für llama.cpp konvertieren oder vergessen (quantisieren) zu einem safetensors-Schema.</translation>
        </message>
        <message>
            <source>&amp;GGUF file type (as llama-quantize, in one pass):</source>
            <translation>&amp;GGUF-Dateityp (wie llama-quantize, in einem Durchgang):</translation>
        </message>
        <message>
            <source>GGUF for llama.cpp</source>
            <translation>GGUF für llama.cpp</translation>
        </message>
        <message>
            <source>As convert_hf_to_gguf.py &amp;writes it:</source>
            <translation>Wie convert_hf_to_gguf.py es sc&amp;hreibt:</translation>
        </message>
        <message>
            <source>As amn convert --to gguf:TYPE: the bytes llama.cpp's converter writes.</source>
            <translation>Wie amn convert --to gguf:TYP: die Bytes, die der Konverter von llama.cpp schreibt.</translation>
        </message>
        <message>
            <source>auto</source>
            <translation>auto</translation>
        </message>
        <message>
            <source>auto (%1 for this model)</source>
            <translation>auto (%1 für dieses Modell)</translation>
        </message>
        <message>
            <source>As amn forget --to gguf:FTYPE: the converter's lossless output quantized by llama-quantize's rules, without the intermediate file.</source>
            <translation>Wie amn forget --to gguf:DATEITYP: die verlustfreie Ausgabe des Konverters, nach den Regeln von llama-quantize quantisiert, ohne Zwischendatei.</translation>
        </message>
        <message>
            <source>GGUF output needs a GGUF input or a Hugging Face folder (config.json beside the safetensors).</source>
            <translation>GGUF-Ausgabe braucht eine GGUF-Eingabe oder einen Hugging-Face-Ordner (config.json neben den safetensors).</translation>
        </message>
        <message>
            <source>The model is a GGUF for llama.cpp now.</source>
            <translation>Das Modell ist jetzt ein GGUF für llama.cpp.</translation>
        </message>
        <message>
            <source>GGUF %1 (as convert_hf_to_gguf.py + llama-quantize, in one pass)</source>
            <translation>GGUF %1 (wie convert_hf_to_gguf.py + llama-quantize, in einem Durchgang)</translation>
        </message>
        <message>
            <source>GGUF %1 (as convert_hf_to_gguf.py --outtype %2)</source>
            <translation>GGUF %1 (wie convert_hf_to_gguf.py --outtype %2)</translation>
        </message>
        <message>
            <source>GGUF</source>
            <translation>GGUF</translation>
        </message>
        <message numerus="yes">
            <source>Converted %Ln tensor(s) to GGUF %1 as convert_hf_to_gguf.py writes it: %2 written in %3 s.</source>
            <translation>
                <numerusform>%Ln Tensor zu GGUF %1 konvertiert, wie convert_hf_to_gguf.py es schreibt: %2 geschrieben in %3 s.</numerusform>
                <numerusform>%Ln Tensoren zu GGUF %1 konvertiert, wie convert_hf_to_gguf.py es schreibt: %2 geschrieben in %3 s.</numerusform>
            </translation>
        </message>
        <message>
            <source>Group size (w4a16, w8a16, mlx):</source>
            <translation>Gruppengröße (w4a16, w8a16, mlx):</translation>
        </message>
        <message>
            <source>The vision projector is a GGUF for llama.cpp now (mmproj).</source>
            <translation>Der Vision-Projektor ist jetzt ein GGUF für llama.cpp (mmproj).</translation>
        </message>
        <message>
            <source>The adapter is a GGUF LoRA adapter for llama.cpp now.</source>
            <translation>Der Adapter ist jetzt ein GGUF-LoRA-Adapter für llama.cpp.</translation>
        </message>
        <message numerus="yes">
            <source>Converted %Ln tensor(s) to a GGUF vision projector (mmproj) %1 as convert_hf_to_gguf.py --mmproj writes it: %2 written in %3 s.</source>
            <translation>
                <numerusform>%Ln Tensor zu einem GGUF-Vision-Projektor (mmproj) %1 konvertiert, wie convert_hf_to_gguf.py --mmproj ihn schreibt: %2 geschrieben in %3 s.</numerusform>
                <numerusform>%Ln Tensoren zu einem GGUF-Vision-Projektor (mmproj) %1 konvertiert, wie convert_hf_to_gguf.py --mmproj ihn schreibt: %2 geschrieben in %3 s.</numerusform>
            </translation>
        </message>
        <message>
            <source>llama.cpp loads it beside the text model: llama-mtmd-cli -m MODEL.gguf --mmproj %1</source>
            <translation>llama.cpp lädt ihn neben dem Textmodell: llama-mtmd-cli -m MODELL.gguf --mmproj %1</translation>
        </message>
        <message numerus="yes">
            <source>Converted %Ln tensor(s) to a GGUF LoRA adapter %1 as convert_lora_to_gguf.py writes it: %2 written in %3 s.</source>
            <translation>
                <numerusform>%Ln Tensor zu einem GGUF-LoRA-Adapter %1 konvertiert, wie convert_lora_to_gguf.py ihn schreibt: %2 geschrieben in %3 s.</numerusform>
                <numerusform>%Ln Tensoren zu einem GGUF-LoRA-Adapter %1 konvertiert, wie convert_lora_to_gguf.py ihn schreibt: %2 geschrieben in %3 s.</numerusform>
            </translation>
        </message>
        <message>
            <source>llama.cpp applies it to the base model: llama-cli -m BASE.gguf --lora %1</source>
            <translation>llama.cpp wendet ihn auf das Basismodell an: llama-cli -m BASIS.gguf --lora %1</translation>
        </message>
        <message>
            <source>LoRA adapter options</source>
            <translation>Optionen des LoRA-Adapters</translation>
        </message>
        <message>
            <source>the base model's folder</source>
            <translation>der Ordner des Basismodells</translation>
        </message>
        <message>
            <source>&amp;Base model:</source>
            <translation>&amp;Basismodell:</translation>
        </message>
        <message>
            <source>Only the base model's config.json is read: its architecture names the adapter's tensors in GGUF (as convert_lora_to_gguf.py --base). The base's weights are not needed.</source>
            <translation>Nur die config.json des Basismodells wird gelesen: Seine Architektur benennt die Tensoren des Adapters im GGUF (wie convert_lora_to_gguf.py --base). Die Gewichte des Basismodells werden nicht gebraucht.</translation>
        </message>
        <message>
            <source>Base model folder</source>
            <translation>Ordner des Basismodells</translation>
        </message>
        <message>
            <source>Choose the base model's folder (the one holding its config.json).</source>
            <translation>Wählen Sie den Ordner des Basismodells (den mit seiner config.json).</translation>
        </message>
        <message>
            <source>%1 holds no config.json: choose the base model's folder.</source>
            <translation>%1 enthält keine config.json: Wählen Sie den Ordner des Basismodells.</translation>
        </message>
        <message>
            <source>GGUF vision projector (mmproj) %1 (as convert_hf_to_gguf.py --mmproj --outtype %2)</source>
            <translation>GGUF-Vision-Projektor (mmproj) %1 (wie convert_hf_to_gguf.py --mmproj --outtype %2)</translation>
        </message>
        <message>
            <source>GGUF LoRA adapter %1 (as convert_lora_to_gguf.py --outtype %2)</source>
            <translation>GGUF-LoRA-Adapter %1 (wie convert_lora_to_gguf.py --outtype %2)</translation>
        </message>
        <message>
            <source>Base model</source>
            <translation>Basismodell</translation>
        </message>
        <message>
            <source>%1 (its config.json)</source>
            <translation>%1 (seine config.json)</translation>
        </message>
        <message>
            <source>&amp;Vision projector (mmproj) instead of the text model, as --mmproj writes it</source>
            <translation>&amp;Vision-Projektor (mmproj) statt des Textmodells, wie --mmproj ihn schreibt</translation>
        </message>
        <message>
            <source>As amn convert --to gguf:TYPE --mmproj: the vision tower and projector llama-mtmd-cli loads beside the text GGUF (--mmproj FILE).</source>
            <translation>Wie amn convert --to gguf:TYP --mmproj: Vision-Encoder und Projektor, die llama-mtmd-cli neben dem Text-GGUF lädt (--mmproj DATEI).</translation>
        </message>
        <message>
            <source>GGUF LoRA adapter for llama.cpp</source>
            <translation>GGUF-LoRA-Adapter für llama.cpp</translation>
        </message>
        <message>
            <source>GGUF &amp;LoRA adapter, as convert_lora_to_gguf.py writes it:</source>
            <translation>GGUF-&amp;LoRA-Adapter, wie convert_lora_to_gguf.py ihn schreibt:</translation>
        </message>
        <message>
            <source>As amn convert ADAPTER --to gguf:TYPE --base BASE: the adapter llama.cpp loads with --lora. The base model's folder is chosen on the next page.</source>
            <translation>Wie amn convert ADAPTER --to gguf:TYP --base BASIS: der Adapter, den llama.cpp mit --lora lädt. Den Ordner des Basismodells wählen Sie auf der nächsten Seite.</translation>
        </message>
        <message>
            <source>Rank %1</source>
            <translation>Rang %1</translation>
        </message>
        <message>
            <source>Rank not given</source>
            <translation>Rang nicht angegeben</translation>
        </message>
        <message>
            <source>alpha %1</source>
            <translation>Alpha %1</translation>
        </message>
        <message numerus="yes">
            <source>%Ln adapted module(s)</source>
            <translation>
                <numerusform>%Ln angepasstes Modul</numerusform>
                <numerusform>%Ln angepasste Module</numerusform>
            </translation>
        </message>
        <message>
            <source>trained on %1</source>
            <translation>trainiert auf %1</translation>
        </message>
        <message>
            <source>Cannot become a GGUF adapter: %1</source>
            <translation>Kann kein GGUF-Adapter werden: %1</translation>
        </message>
        <message>
            <source>No vision projector: %1</source>
            <translation>Kein Vision-Projektor: %1</translation>
        </message>
        <message>
            <source>Tokenizer files alone (a vocab-only GGUF, %1): %2</source>
            <translation>Nur die Tokenizer-Dateien (ein GGUF nur mit Vokabular, %1): %2</translation>
        </message>
    </context>
    <context>
        <name>amn::ui::HistogramChart</name>
        <message>
            <source>No statistics yet</source>
            <translation>Noch keine Statistik</translation>
        </message>
        <message>
            <source>dequantized value</source>
            <translation>dequantisierter Wert</translation>
        </message>
        <message>
            <source>count</source>
            <translation>Anzahl</translation>
        </message>
        <message>
            <source>[%1, %2): %3 values</source>
            <translation>[%1, %2): %3 Werte</translation>
        </message>
        <message>
            <source>count (log scale)</source>
            <translation>Anzahl (logarithmisch)</translation>
        </message>
    </context>
    <context>
        <name>amn::ui::LetheChart</name>
        <message>
            <source>Lethe took %1 of %2 (%3): stored bits per weight by layer</source>
            <translation>Lethe nahm %1 von %2 (%3): Bits pro Gewicht</translation>
        </message>
        <message>
            <source>Nothing is quantized: every tensor keeps its stored precision</source>
            <translation>Nichts ist quantisiert: jeder Tensor behält seine gespeicherte Genauigkeit</translation>
        </message>
        <message>
            <source>quantized layer</source>
            <translation>quantisierte Schicht</translation>
        </message>
        <message>
            <source>full precision</source>
            <translation>volle Genauigkeit</translation>
        </message>
        <message>
            <source>BF16 = 16 bits</source>
            <translation>BF16 = 16 Bit</translation>
        </message>
        <message>
            <source>bits per weight</source>
            <translation>Bits pro Gewicht</translation>
        </message>
        <message>
            <source>layer (hover a bar for its tensors)</source>
            <translation>Schicht (Maus über einen Balken zeigt seine Tensoren)</translation>
        </message>
        <message>
            <source>No tensors</source>
            <translation>Keine Tensoren</translation>
        </message>
        <message>
            <source>%1 bits per weight (BF16: 16)</source>
            <translation>%1 Bits pro Gewicht (BF16: 16)</translation>
        </message>
        <message>
            <source>stored %1, as BF16 %2, saved %3</source>
            <translation>gespeichert %1, als BF16 %2, gespart %3</translation>
        </message>
        <message>
            <source>%1 bits</source>
            <translation>%1 Bit</translation>
        </message>
        <message>
            <source>saved %1</source>
            <translation>%1 gespart</translation>
        </message>
        <message>
            <source>outside the numbered layers</source>
            <translation>außerhalb der nummerierten Schichten</translation>
        </message>
        <message>
            <source>other</source>
            <translation>übrige</translation>
        </message>
        <message numerus="yes">
            <source>&lt;b&gt;%1&lt;/b&gt; — %Ln tensor(s)</source>
            <translation>
                <numerusform>&lt;b&gt;%1&lt;/b&gt; — %Ln Tensor</numerusform>
                <numerusform>&lt;b&gt;%1&lt;/b&gt; — %Ln Tensoren</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>… and %Ln more</source>
            <translation>
                <numerusform>… und %Ln weiterer</numerusform>
                <numerusform>… und %Ln weitere</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>amn::ui::LossChart</name>
        <message>
            <source>Measured loss per tensor: SQNR (higher is better), mean %1 dB</source>
            <translation>Gemessener Verlust je Tensor: SQNR (höher ist besser), Mittel %1 dB</translation>
        </message>
        <message>
            <source>mean</source>
            <translation>Mittel</translation>
        </message>
        <message>
            <source>SQNR (dB)</source>
            <translation>SQNR (dB)</translation>
        </message>
        <message>
            <source>No tensor was quantized</source>
            <translation>Kein Tensor wurde quantisiert</translation>
        </message>
        <message>
            <source>%1 dB</source>
            <translation>%1 dB</translation>
        </message>
        <message>
            <source>exact</source>
            <translation>exakt</translation>
        </message>
        <message>
            <source>&lt;b&gt;%1&lt;/b&gt;&lt;br&gt;%2, %3 bits per weight&lt;br&gt;RMSE %4, SQNR %5</source>
            <translation>&lt;b&gt;%1&lt;/b&gt;&lt;br&gt;%2, %3 Bit pro Gewicht&lt;br&gt;RMSE %4, SQNR %5</translation>
        </message>
        <message numerus="yes">
            <source>%Ln tensor(s) in file order (hover a bar for its name)</source>
            <translation>
                <numerusform>%Ln Tensor in Dateireihenfolge (Balken überfahren für den Namen)</numerusform>
                <numerusform>%Ln Tensoren in Dateireihenfolge (Balken überfahren für den Namen)</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>amn::ui::MainWindow</name>
        <message>
            <source>anamnesis</source>
            <translation>anamnesis</translation>
        </message>
        <message>
            <source>Conversion running</source>
            <translation>Konvertierung läuft</translation>
        </message>
        <message>
            <source>A conversion is still running. Cancel it and quit? No partial file is left behind.</source>
            <translation>Eine Konvertierung läuft noch. Abbrechen und beenden? Es bleibt keine unvollständige Datei zurück.</translation>
        </message>
        <message>
            <source>&amp;File</source>
            <translation>&amp;Datei</translation>
        </message>
        <message>
            <source>&amp;Open…</source>
            <translation>Ö&amp;ffnen …</translation>
        </message>
        <message>
            <source>Open model</source>
            <translation>Modell öffnen</translation>
        </message>
        <message>
            <source>Open &amp;Folder…</source>
            <translation>&amp;Ordner öffnen …</translation>
        </message>
        <message>
            <source>Open model folder</source>
            <translation>Modellordner öffnen</translation>
        </message>
        <message>
            <source>Open &amp;Recent</source>
            <translation>&amp;Zuletzt geöffnet</translation>
        </message>
        <message>
            <source>&amp;Convert…</source>
            <translation>&amp;Konvertieren …</translation>
        </message>
        <message>
            <source>&amp;Close Tab</source>
            <translation>Reiter &amp;schließen</translation>
        </message>
        <message>
            <source>&amp;Quit</source>
            <translation>&amp;Beenden</translation>
        </message>
        <message>
            <source>&amp;Edit</source>
            <translation>&amp;Bearbeiten</translation>
        </message>
        <message>
            <source>&amp;Find Tensor</source>
            <translation>Tensor &amp;suchen</translation>
        </message>
        <message>
            <source>Copy Tensor &amp;Name</source>
            <translation>Tensor&amp;namen kopieren</translation>
        </message>
        <message>
            <source>Copied %1</source>
            <translation>%1 kopiert</translation>
        </message>
        <message>
            <source>&amp;View</source>
            <translation>&amp;Ansicht</translation>
        </message>
        <message>
            <source>&amp;Overview</source>
            <translation>Ü&amp;berblick</translation>
        </message>
        <message>
            <source>What &amp;Lethe Took</source>
            <translation>Was &amp;Lethe nahm</translation>
        </message>
        <message>
            <source>&amp;Tensor</source>
            <translation>&amp;Tensor</translation>
        </message>
        <message>
            <source>&amp;Metadata</source>
            <translation>&amp;Metadaten</translation>
        </message>
        <message>
            <source>&amp;Next Model</source>
            <translation>&amp;Nächstes Modell</translation>
        </message>
        <message>
            <source>&amp;Help</source>
            <translation>&amp;Hilfe</translation>
        </message>
        <message>
            <source>&amp;About anamnesis</source>
            <translation>Ü&amp;ber anamnesis</translation>
        </message>
        <message>
            <source>About anamnesis</source>
            <translation>Über anamnesis</translation>
        </message>
        <message>
            <source>(none)</source>
            <translation>(keine)</translation>
        </message>
        <message>
            <source>&amp;Clear List</source>
            <translation>Liste &amp;leeren</translation>
        </message>
        <message>
            <source>Opening %1…</source>
            <translation>%1 wird geöffnet …</translation>
        </message>
        <message>
            <source>Could not open %1</source>
            <translation>%1 konnte nicht geöffnet werden</translation>
        </message>
        <message>
            <source>Could not open model</source>
            <translation>Modell konnte nicht geöffnet werden</translation>
        </message>
        <message>
            <source>%1 could not be opened.</source>
            <translation>%1 konnte nicht geöffnet werden.</translation>
        </message>
        <message>
            <source>%1 — anamnesis</source>
            <translation>%1 — anamnesis</translation>
        </message>
        <message>
            <source>Cancel and Quit</source>
            <translation>Abbrechen und beenden</translation>
        </message>
        <message>
            <source>Keep Running</source>
            <translation>Weiterlaufen lassen</translation>
        </message>
        <message>
            <source>Close</source>
            <translation>Schließen</translation>
        </message>
        <message>
            <source>Remember (dequantize) or forget (quantize) the current model</source>
            <translation>Das aktuelle Modell erinnern (dequantisieren) oder vergessen (quantisieren)</translation>
        </message>
        <message>
            <source>Main Toolbar</source>
            <translation>Hauptwerkzeugleiste</translation>
        </message>
        <message>
            <source>&lt;h3&gt;anamnesis %1&lt;/h3&gt;&lt;p&gt;Parse any tensor format, recover any precision.&lt;/p&gt;&lt;p&gt;Inspect quantized model files, remember (dequantize) and forget (quantize) them.&lt;/p&gt;&lt;p&gt;Licence: MIT OR Apache-2.0&lt;/p&gt;&lt;p&gt;Built with Qt %2 (running on Qt %3).&lt;/p&gt;</source>
            <translation>&lt;h3&gt;anamnesis %1&lt;/h3&gt;&lt;p&gt;Jedes Tensorformat lesen, jede Genauigkeit zurückgewinnen.&lt;/p&gt;&lt;p&gt;Quantisierte Modelldateien untersuchen, erinnern (dequantisieren) und vergessen (quantisieren).&lt;/p&gt;&lt;p&gt;Lizenz: MIT OR Apache-2.0&lt;/p&gt;&lt;p&gt;Erstellt mit Qt %2 (läuft mit Qt %3).&lt;/p&gt;</translation>
        </message>
        <message>
            <source>About &amp;Qt</source>
            <translation>Über &amp;Qt</translation>
        </message>
        <message>
            <source>The file could not be read as a model.</source>
            <translation>Die Datei konnte nicht als Modell gelesen werden.</translation>
        </message>
        <message>
            <source>The file could not be read (missing, or no permission?).</source>
            <translation>Die Datei konnte nicht gelesen werden (fehlt sie, oder fehlt die Berechtigung?).</translation>
        </message>
        <message>
            <source>The file is incomplete — it ends too early (a partial download?).</source>
            <translation>Die Datei ist unvollständig — sie endet zu früh (ein abgebrochener Download?).</translation>
        </message>
        <message>
            <source>The file is incomplete — it ends before tensor %1's data (a partial download?).</source>
            <translation>Die Datei ist unvollständig — sie endet vor den Daten des Tensors %1 (ein abgebrochener Download?).</translation>
        </message>
        <message>
            <source>The file is damaged, or not a model file of the kind its name says.</source>
            <translation>Die Datei ist beschädigt oder keine Modelldatei der Art, die ihr Name angibt.</translation>
        </message>
        <message>
            <source>The file declares more than anamnesis accepts (a safety limit).</source>
            <translation>Die Datei gibt mehr an, als anamnesis annimmt (eine Sicherheitsgrenze).</translation>
        </message>
        <message>
            <source>The file uses something anamnesis does not support yet.</source>
            <translation>Die Datei verwendet etwas, das anamnesis noch nicht unterstützt.</translation>
        </message>
        <message>
            <source>A quantized tensor lacks the scales it needs, or they do not fit.</source>
            <translation>Einem quantisierten Tensor fehlen die nötigen Skalen, oder sie passen nicht.</translation>
        </message>
        <message>
            <source>The file contains Python code that is not safe to load; it was not run.</source>
            <translation>Die Datei enthält Python-Code, der nicht sicher geladen werden kann; er wurde nicht ausgeführt.</translation>
        </message>
        <message>
            <source>This is not a regular file or model folder.</source>
            <translation>Dies ist keine reguläre Datei und kein Modellordner.</translation>
        </message>
        <message>
            <source>There is not enough memory to open the file.</source>
            <translation>Der Speicher reicht nicht, um die Datei zu öffnen.</translation>
        </message>
        <message>
            <source>The file could not be opened.</source>
            <translation>Die Datei konnte nicht geöffnet werden.</translation>
        </message>
        <message>
            <source>%1: %2</source>
            <translation>%1: %2</translation>
        </message>
        <message numerus="yes">
            <source>Opened %1: %Ln tensor(s) in %2 ms</source>
            <translation>
                <numerusform>%1 geöffnet: %Ln Tensor in %2 ms</numerusform>
                <numerusform>%1 geöffnet: %Ln Tensoren in %2 ms</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%Ln model(s) could not be opened.</source>
            <translation>
                <numerusform>%Ln Modell konnte nicht geöffnet werden.</numerusform>
                <numerusform>%Ln Modelle konnten nicht geöffnet werden.</numerusform>
            </translation>
        </message>
        <message>
            <source>&lt;h2&gt;Drop a model here&lt;/h2&gt;&lt;p&gt;safetensors (also sharded, or a folder), GGUF, NPY/NPZ, PyTorch .pth, ONNX&lt;/p&gt;&lt;p&gt;or use &lt;b&gt;File ▸ Open&lt;/b&gt; (%1). Opening reads headers only.&lt;/p&gt;</source>
            <translation>&lt;h2&gt;Modell hierher ziehen&lt;/h2&gt;&lt;p&gt;safetensors (auch aufgeteilt oder als Ordner), GGUF, NPY/NPZ, PyTorch .pth, ONNX&lt;/p&gt;&lt;p&gt;oder &lt;b&gt;Datei ▸ Öffnen&lt;/b&gt; (%1) verwenden. Beim Öffnen werden nur die Kopfdaten gelesen.&lt;/p&gt;</translation>
        </message>
        <message>
            <source>Model files (*.safetensors *.json *.gguf *.npz *.npy *.pth *.pt *.bin *.onnx);;All files (*)</source>
            <translation>Modelldateien (*.safetensors *.json *.gguf *.npz *.npy *.pth *.pt *.bin *.onnx);;Alle Dateien (*)</translation>
        </message>
        <message>
            <source>Open &amp;URL…</source>
            <translation>&amp;URL öffnen…</translation>
        </message>
        <message>
            <source>Open URL</source>
            <translation>URL öffnen</translation>
        </message>
        <message>
            <source>A model file's URL (https://…) or a Hugging Face repository (hf://ORG/REPO[@REVISION][/PATH]).
Only its headers are downloaded; it opens read-only.</source>
            <translation>Die URL einer Modelldatei (https://…) oder ein Hugging-Face-Repository (hf://ORG/REPO[@REVISION][/PFAD]).
Nur die Kopfdaten werden geladen; es öffnet sich schreibgeschützt.</translation>
        </message>
        <message>
            <source>Not a URL: it must start with https://, http:// or hf://.</source>
            <translation>Keine URL: sie muss mit https://, http:// oder hf:// beginnen.</translation>
        </message>
        <message>
            <source>The server did not give the model (a gated or private repository, a missing token, a wrong address, or no connection: the details say which).</source>
            <translation>Der Server hat das Modell nicht geliefert (ein geschütztes oder privates Repository, ein fehlendes Token, eine falsche Adresse oder keine Verbindung: die Details sagen, was davon).</translation>
        </message>
        <message>
            <source>Convert</source>
            <translation>Umwandeln</translation>
        </message>
        <message>
            <source>%1 is a remote model: only its headers were downloaded. Download it to convert it.</source>
            <translation>%1 ist ein entferntes Modell: nur seine Kopfdaten wurden geladen. Laden Sie es herunter, um es umzuwandeln.</translation>
        </message>
        <message>
            <source>Cancel</source>
            <translation>Abbrechen</translation>
        </message>
        <message>
            <source>Stop opening (a remote model's download stops at once)</source>
            <translation>Öffnen abbrechen (das Laden eines entfernten Modells endet sofort)</translation>
        </message>
        <message>
            <source>Opening cancelled</source>
            <translation>Öffnen abgebrochen</translation>
        </message>
    </context>
    <context>
        <name>amn::ui::MetadataValueDialog</name>
        <message>
            <source>Value of %1</source>
            <translation>Wert von %1</translation>
        </message>
        <message>
            <source>&amp;Copy</source>
            <translation>&amp;Kopieren</translation>
        </message>
    </context>
    <context>
        <name>amn::ui::MetadataView</name>
        <message>
            <source>Filter keys and values</source>
            <translation>Schlüssel und Werte filtern</translation>
        </message>
        <message>
            <source>Key</source>
            <translation>Schlüssel</translation>
        </message>
        <message>
            <source>Value</source>
            <translation>Wert</translation>
        </message>
        <message>
            <source>File metadata (%1)</source>
            <translation>Metadaten der Datei (%1)</translation>
        </message>
        <message>
            <source>quantization_config (%1)</source>
            <translation>quantization_config (%1)</translation>
        </message>
        <message>
            <source>Notes</source>
            <translation>Hinweise</translation>
        </message>
        <message>
            <source>This file carries no metadata.</source>
            <translation>Diese Datei enthält keine Metadaten.</translation>
        </message>
        <message>
            <source>Pickle globals (%1)</source>
            <translation>Pickle-Globals (%1)</translation>
        </message>
        <message>
            <source>%1 — %2, referenced %3×</source>
            <translation>%1 — %2, %3× referenziert</translation>
        </message>
        <message>
            <source>allowed</source>
            <translation>erlaubt</translation>
        </message>
        <message>
            <source>refused</source>
            <translation>abgelehnt</translation>
        </message>
        <message>
            <source>error</source>
            <translation>Fehler</translation>
        </message>
        <message numerus="yes">
            <source>array of %Ln string(s)</source>
            <translation>
                <numerusform>Array mit %Ln Zeichenkette</numerusform>
                <numerusform>Array mit %Ln Zeichenketten</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>array of %Ln array(s)</source>
            <translation>
                <numerusform>Array mit %Ln Array</numerusform>
                <numerusform>Array mit %Ln Arrays</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>array of %Ln %1 value(s)</source>
            <translation>
                <numerusform>Array mit %Ln %1-Wert</numerusform>
                <numerusform>Array mit %Ln %1-Werten</numerusform>
            </translation>
        </message>
        <message>
            <source>Copy value</source>
            <translation>Wert kopieren</translation>
        </message>
        <message>
            <source>Show full value…</source>
            <translation>Ganzen Wert anzeigen …</translation>
        </message>
        <message>
            <source>Copy name</source>
            <translation>Namen kopieren</translation>
        </message>
    </context>
    <context>
        <name>amn::ui::ModelView</name>
        <message>
            <source>Filter tensors (Ctrl+F)</source>
            <translation>Tensoren filtern (Strg+F)</translation>
        </message>
        <message>
            <source>Re&amp;gex</source>
            <translation>Re&amp;gulärer Ausdruck</translation>
        </message>
        <message>
            <source>Treat the filter as a regular expression</source>
            <translation>Den Filter als regulären Ausdruck behandeln</translation>
        </message>
        <message>
            <source>&amp;Copy Name</source>
            <translation>Namen &amp;kopieren</translation>
        </message>
        <message>
            <source>&amp;Expand All</source>
            <translation>Alle &amp;aufklappen</translation>
        </message>
        <message>
            <source>C&amp;ollapse All</source>
            <translation>Alle &amp;zuklappen</translation>
        </message>
        <message>
            <source>Con&amp;vert…</source>
            <translation>Kon&amp;vertieren …</translation>
        </message>
        <message>
            <source>Overview</source>
            <translation>Überblick</translation>
        </message>
        <message>
            <source>What Lethe Took</source>
            <translation>Was Lethe nahm</translation>
        </message>
        <message>
            <source>Tensor</source>
            <translation>Tensor</translation>
        </message>
        <message>
            <source>Metadata</source>
            <translation>Metadaten</translation>
        </message>
        <message>
            <source>Invalid regular expression</source>
            <translation>Ungültiger regulärer Ausdruck</translation>
        </message>
        <message numerus="yes">
            <source>%Ln tensor(s)</source>
            <translation>
                <numerusform>%Ln Tensor</numerusform>
                <numerusform>%Ln Tensoren</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>amn::ui::SchemeText</name>
        <message>
            <source>bitsandbytes LLM.int8, row-wise %1 absmax (SCB)</source>
            <translation>bitsandbytes LLM.int8, %1-Absolutmaximum je Zeile (SCB)</translation>
        </message>
        <message>
            <source>not measurable yet for %1</source>
            <translation>für %1 noch nicht messbar</translation>
        </message>
        <message>
            <source>not measurable: the tensor cannot be decoded</source>
            <translation>nicht messbar: der Tensor lässt sich nicht dekodieren</translation>
        </message>
        <message>
            <source>not quantized: nothing to measure</source>
            <translation>nicht quantisiert: nichts zu messen</translation>
        </message>
        <message>
            <source>%1×%2 blocks</source>
            <translation>%1×%2-Blöcke</translation>
        </message>
        <message>
            <source>ModelOpt FP8 (%1), per-channel %2 scale applied in BF16</source>
            <translation>ModelOpt FP8 (%1), %2-Skala je Kanal, in BF16 angewandt</translation>
        </message>
        <message>
            <source>ModelOpt FP8 (%1), per-tensor %2 scale applied in BF16</source>
            <translation>ModelOpt FP8 (%1), %2-Skala je Tensor, in BF16 angewandt</translation>
        </message>
        <message>
            <source>per-tensor</source>
            <translation>je Tensor</translation>
        </message>
        <message>
            <source>per-channel</source>
            <translation>je Kanal</translation>
        </message>
        <message>
            <source>per-expert</source>
            <translation>je Experte</translation>
        </message>
        <message>
            <source>group %1</source>
            <translation>Gruppe %1</translation>
        </message>
        <message>
            <source>compressed-tensors W8A%1 (float-quantized), FP8 %2, %3, %4 scales</source>
            <translation>compressed-tensors W8A%1 (float-quantized), FP8 %2, %3, %4-Skalen</translation>
        </message>
        <message>
            <source>per-tensor scale</source>
            <translation>eine Skala je Tensor</translation>
        </message>
        <message>
            <source>per-channel scales</source>
            <translation>Skalen je Kanal</translation>
        </message>
        <message>
            <source>per-expert scales</source>
            <translation>Skalen je Experte</translation>
        </message>
        <message>
            <source>group %1 scales</source>
            <translation>Skalen je Gruppe von %1</translation>
        </message>
        <message>
            <source>FP8 (%1), %2, %3 scales</source>
            <translation>FP8 (%1), %2, %3-Skalen</translation>
        </message>
        <message>
            <source>asymmetric</source>
            <translation>asymmetrisch</translation>
        </message>
        <message>
            <source>symmetric</source>
            <translation>symmetrisch</translation>
        </message>
        <message>
            <source>compressed-tensors W%1A%2 (%3), int%1 %4, %5</source>
            <translation>compressed-tensors W%1A%2 (%3), int%1 %4, %5</translation>
        </message>
        <message>
            <source>, act-order</source>
            <translation>, Aktivierungsreihenfolge (act-order)</translation>
        </message>
        <message>
            <source>, %1 scales</source>
            <translation>, %1-Skalen</translation>
        </message>
        <message>
            <source>per-channel (no groups)</source>
            <translation>je Kanal (keine Gruppen)</translation>
        </message>
        <message>
            <source>AWQ GEMM %1-bit, %2, zero points, %3 scales</source>
            <translation>AWQ GEMM %1 Bit, %2, Nullpunkte, %3-Skalen</translation>
        </message>
        <message>
            <source>GPTQ %1-bit</source>
            <translation>GPTQ %1 Bit</translation>
        </message>
        <message numerus="yes">
            <source>, %Ln group(s)</source>
            <translation>
                <numerusform>, %Ln Gruppe</numerusform>
                <numerusform>, %Ln Gruppen</numerusform>
            </translation>
        </message>
        <message>
            <source>, per-channel (no groups)</source>
            <translation>, je Kanal (keine Gruppen)</translation>
        </message>
        <message>
            <source>, group %1</source>
            <translation>, Gruppe %1</translation>
        </message>
        <message>
            <source>, symmetric</source>
            <translation>, symmetrisch</translation>
        </message>
        <message>
            <source>, asymmetric</source>
            <translation>, asymmetrisch</translation>
        </message>
        <message>
            <source>, gptq_v2 zero points</source>
            <translation>, gptq_v2-Nullpunkte</translation>
        </message>
        <message>
            <source>bitsandbytes %1, blocksize %2</source>
            <translation>bitsandbytes %1, Blockgröße %2</translation>
        </message>
        <message>
            <source>, double-quant (nested blocksize %1)</source>
            <translation>, doppelt quantisiert (innere Blockgröße %1)</translation>
        </message>
        <message>
            <source>, compute %1</source>
            <translation>, Rechentyp %1</translation>
        </message>
        <message>
            <source>GGUF %1</source>
            <translation>GGUF %1</translation>
        </message>
        <message>
            <source>GGUF %1 (%2-element blocks of %3 bytes, %4 bits per weight)</source>
            <translation>GGUF %1 (Blöcke zu %2 Elementen in %3 Bytes, %4 Bit pro Gewicht)</translation>
        </message>
        <message>
            <source>E2M1 with an %1 scale per %2</source>
            <translation>E2M1 mit einer %1-Skala je %2</translation>
        </message>
        <message>
            <source>compressed-tensors %1 W4A%2 (%3-pack-quantized), %4</source>
            <translation>compressed-tensors %1 W4A%2 (%3-pack-quantized), %4</translation>
        </message>
        <message>
            <source>, %1 global scale</source>
            <translation>, globale %1-Skala</translation>
        </message>
        <message>
            <source>ModelOpt %1, %2</source>
            <translation>ModelOpt %1, %2</translation>
        </message>
        <message>
            <source>ModelOpt %1, %2 and a %3 second-level scale</source>
            <translation>ModelOpt %1, %2 und einer %3-Skala zweiter Stufe</translation>
        </message>
        <message>
            <source>ModelOpt %1, %2 and an %3 second-level scale</source>
            <translation>ModelOpt %1, %2 und einer %3-Skala zweiter Stufe</translation>
        </message>
        <message>
            <source>%1 (gpt-oss experts), %2, transformers' [E, in, out] layout</source>
            <translation>%1 (gpt-oss-Experten), %2, Anordnung [E, in, out] wie in transformers</translation>
        </message>
        <message>
            <source>%1, %2</source>
            <translation>%1, %2</translation>
        </message>
        <message>
            <source>quantized</source>
            <translation>quantisiert</translation>
        </message>
        <message>
            <source>companion</source>
            <translation>Begleiter</translation>
        </message>
        <message>
            <source>passthrough</source>
            <translation>durchgereicht</translation>
        </message>
        <message>
            <source>unsupported</source>
            <translation>nicht unterstützt</translation>
        </message>
        <message>
            <source>kept</source>
            <translation>beibehalten</translation>
        </message>
        <message>
            <source>not quantized, kept %1</source>
            <translation>nicht quantisiert, bleibt %1</translation>
        </message>
        <message>
            <source>set by --token-embedding-type</source>
            <translation>durch --token-embedding-type</translation>
        </message>
        <message>
            <source>set by --output-tensor-type</source>
            <translation>durch --output-tensor-type</translation>
        </message>
        <message>
            <source>set by --tensor-type</source>
            <translation>durch --tensor-type</translation>
        </message>
        <message>
            <source>%1 default</source>
            <translation>Standard von %1</translation>
        </message>
        <message>
            <source>--pure: the file type's type</source>
            <translation>--pure: der Typ des Dateityps</translation>
        </message>
        <message>
            <source>file type %1</source>
            <translation>Dateityp %1</translation>
        </message>
        <message>
            <source>; fallback: the row does not fit the type's blocks</source>
            <translation>; Ersatztyp: die Zeile passt nicht in die Blöcke des Typs</translation>
        </message>
        <message>
            <source>%1 mix rule</source>
            <translation>Mischregel von %1</translation>
        </message>
        <message>
            <source>not quantized</source>
            <translation>nicht quantisiert</translation>
        </message>
        <message>
            <source>not measurable for %1: ggml quantizes it only with an importance matrix, which the file does not carry</source>
            <translation>für %1 nicht messbar: ggml quantisiert diesen Typ nur mit einer Importance-Matrix, die die Datei nicht enthält</translation>
        </message>
        <message>
            <source>not measurable for %1: a row is not a whole number of blocks</source>
            <translation>für %1 nicht messbar: eine Zeile ist keine ganze Zahl von Blöcken</translation>
        </message>
        <message>
            <source>--outtype %1</source>
            <translation>--outtype %1</translation>
        </message>
        <message>
            <source>kept %1 by the converter's rules</source>
            <translation>bleibt %1 nach den Regeln des Konverters</translation>
        </message>
        <message>
            <source>Cannot become a GGUF: %1</source>
            <translation>Kann kein GGUF werden: %1</translation>
        </message>
        <message>
            <source>%1 (%2), tokenizer %3 / %4, auto → %5</source>
            <translation>%1 (%2), Tokenizer %3 / %4, auto → %5</translation>
        </message>
        <message>
            <source>Note: %1</source>
            <translation>Hinweis: %1</translation>
        </message>
        <message>
            <source>quantized: %1</source>
            <translation>quantisiert: %1</translation>
        </message>
        <message>
            <source>kept: 1-D</source>
            <translation>beibehalten: 1-D</translation>
        </message>
        <message>
            <source>kept: fused 3-D experts (not nn.Linear weights: neither transformers' bitsandbytes nor llm-compressor quantizes them)</source>
            <translation>beibehalten: zusammengefasste 3-D-Experten (keine nn.Linear-Gewichte: weder bitsandbytes in transformers noch llm-compressor quantisiert sie)</translation>
        </message>
        <message>
            <source>kept: not 2-D</source>
            <translation>beibehalten: nicht 2-D</translation>
        </message>
        <message>
            <source>kept: not a weight</source>
            <translation>beibehalten: kein Gewicht</translation>
        </message>
        <message>
            <source>kept: empty</source>
            <translation>beibehalten: leer</translation>
        </message>
        <message>
            <source>kept: not float</source>
            <translation>beibehalten: kein Gleitkommatyp</translation>
        </message>
        <message>
            <source>kept: --keep</source>
            <translation>beibehalten: --keep</translation>
        </message>
        <message>
            <source>kept: not matched by --only</source>
            <translation>beibehalten: passt zu keinem --only</translation>
        </message>
        <message>
            <source>kept: Conv1D (llm-compressor quantizes nn.Linear only)</source>
            <translation>beibehalten: Conv1D (llm-compressor quantisiert nur nn.Linear)</translation>
        </message>
        <message>
            <source>kept: embedding</source>
            <translation>beibehalten: Embedding</translation>
        </message>
        <message>
            <source>kept: norm</source>
            <translation>beibehalten: Norm</translation>
        </message>
        <message>
            <source>kept: lm_head</source>
            <translation>beibehalten: lm_head</translation>
        </message>
        <message>
            <source>kept: router</source>
            <translation>beibehalten: Router</translation>
        </message>
        <message>
            <source>kept: not a block Linear</source>
            <translation>beibehalten: kein Linear eines Blocks</translation>
        </message>
        <message>
            <source> (decoded to BF16)</source>
            <translation> (zu BF16 dekodiert)</translation>
        </message>
        <message>
            <source>1-D tensor</source>
            <translation>1-D-Tensor</translation>
        </message>
        <message>
            <source>not a weight</source>
            <translation>kein Gewicht</translation>
        </message>
        <message>
            <source>norm</source>
            <translation>Norm</translation>
        </message>
        <message>
            <source>set by --leave-output-tensor</source>
            <translation>durch --leave-output-tensor</translation>
        </message>
        <message>
            <source>llama-quantize never quantizes “%1” tensors</source>
            <translation>llama-quantize quantisiert „%1“-Tensoren nie</translation>
        </message>
        <message>
            <source>position embeddings</source>
            <translation>Positionseinbettungen</translation>
        </message>
        <message>
            <source>token types</source>
            <translation>Tokentypen</translation>
        </message>
        <message>
            <source>output tensor: --output-tensor-type</source>
            <translation>Ausgabetensor: --output-tensor-type</translation>
        </message>
        <message>
            <source>token embeddings tied to the output: --output-tensor-type</source>
            <translation>an die Ausgabe gebundene Token-Einbettungen: --output-tensor-type</translation>
        </message>
        <message>
            <source>the output tensor gets more bits</source>
            <translation>der Ausgabetensor bekommt mehr Bits</translation>
        </message>
        <message>
            <source>token embeddings tied to the output get more bits</source>
            <translation>an die Ausgabe gebundene Token-Einbettungen bekommen mehr Bits</translation>
        </message>
        <message>
            <source>expert tensor</source>
            <translation>Expertentensor</translation>
        </message>
        <message>
            <source>not an expert tensor</source>
            <translation>kein Expertentensor</translation>
        </message>
        <message>
            <source>token embeddings: --token-embedding-type</source>
            <translation>Token-Einbettungen: --token-embedding-type</translation>
        </message>
        <message>
            <source>token embeddings</source>
            <translation>Token-Einbettungen</translation>
        </message>
        <message>
            <source>attn_v gets more bits</source>
            <translation>attn_v bekommt mehr Bits</translation>
        </message>
        <message>
            <source>attn_v of a 70B model</source>
            <translation>attn_v eines 70B-Modells</translation>
        </message>
        <message>
            <source>attn_v of an 8-expert model</source>
            <translation>attn_v eines Modells mit 8 Experten</translation>
        </message>
        <message>
            <source>attn_k of an 8-expert model</source>
            <translation>attn_k eines Modells mit 8 Experten</translation>
        </message>
        <message>
            <source>attn_output of an 8-expert model</source>
            <translation>attn_output eines Modells mit 8 Experten</translation>
        </message>
        <message>
            <source>ffn_down of the first layers</source>
            <translation>ffn_down der ersten Schichten</translation>
        </message>
        <message>
            <source>ffn_down of layer %1 of %2</source>
            <translation>ffn_down der Schicht %1 von %2</translation>
        </message>
        <message>
            <source>ffn_gate of a middle layer</source>
            <translation>ffn_gate einer mittleren Schicht</translation>
        </message>
        <message>
            <source>ffn_up of a middle layer</source>
            <translation>ffn_up einer mittleren Schicht</translation>
        </message>
        <message>
            <source>%1, kept %2</source>
            <translation>%1, bleibt %2</translation>
        </message>
        <message>
            <source>set by --tensor-type “%1”=%2</source>
            <translation>durch --tensor-type „%1“=%2</translation>
        </message>
        <message>
            <source>%1 default: %2</source>
            <translation>Standard von %1: %2</translation>
        </message>
        <message>
            <source>%1 mix rule, %2: %3</source>
            <translation>Mischregel von %1, %2: %3</translation>
        </message>
        <message>
            <source>--pure: %1</source>
            <translation>--pure: %1</translation>
        </message>
        <message>
            <source>file type %1: %2</source>
            <translation>Dateityp %1: %2</translation>
        </message>
        <message>
            <source>%1 repacked as it is stored</source>
            <translation>%1 so umgepackt, wie es gespeichert ist</translation>
        </message>
        <message>
            <source>; fallback: a row of %1 is not a multiple of %2 (%3) → %4</source>
            <translation>; Ersatztyp: eine Zeile von %1 ist kein Vielfaches von %2 (%3) → %4</translation>
        </message>
        <message numerus="yes">
            <source>%Ln tensor(s) are already quantized in the input: re-quantizing compounds their error (start from F32/F16/BF16 when you can)</source>
            <translation>
                <numerusform>%Ln Tensor ist in der Eingabe bereits quantisiert: erneutes Quantisieren häuft seine Fehler an (beginnen Sie nach Möglichkeit mit F32/F16/BF16)</numerusform>
                <numerusform>%Ln Tensoren sind in der Eingabe bereits quantisiert: erneutes Quantisieren häuft ihre Fehler an (beginnen Sie nach Möglichkeit mit F32/F16/BF16)</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%1: %Ln value(s) or their round trip are not finite (left out of the loss)</source>
            <translation>
                <numerusform>%1: %Ln Wert oder sein Hin- und Rückweg ist nicht endlich (beim Verlust ausgelassen)</numerusform>
                <numerusform>%1: %Ln Werte oder ihr Hin- und Rückweg sind nicht endlich (beim Verlust ausgelassen)</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%1: %Ln value(s) are not finite (NaN/±inf)</source>
            <translation>
                <numerusform>%1: %Ln Wert ist nicht endlich (NaN/±inf)</numerusform>
                <numerusform>%1: %Ln Werte sind nicht endlich (NaN/±inf)</numerusform>
            </translation>
        </message>
        <message>
            <source>FP8 (%1), %2, %3 scales (powers of two, UE8M0)</source>
            <translation>FP8 (%1), %2, %3-Skalen (Zweierpotenzen, UE8M0)</translation>
        </message>
        <message>
            <source>MLX affine %1-bit, group %2, %3 scales and biases</source>
            <translation>MLX affin %1 Bit, Gruppe %2, %3-Skalen und -Biases</translation>
        </message>
        <message>
            <source>MLX MXFP4, E2M1 with an E8M0 scale per %1</source>
            <translation>MLX MXFP4, E2M1 mit einer E8M0-Skala je %1</translation>
        </message>
        <message>
            <source>MLX NVFP4, E2M1 with an E4M3 scale per %1</source>
            <translation>MLX NVFP4, E2M1 mit einer E4M3-Skala je %1</translation>
        </message>
        <message>
            <source>MLX MXFP8, E4M3 with an E8M0 scale per %1</source>
            <translation>MLX MXFP8, E4M3 mit einer E8M0-Skala je %1</translation>
        </message>
        <message>
            <source>kept: the group size does not divide its rows</source>
            <translation>beibehalten: die Gruppengröße teilt seine Zeilen nicht</translation>
        </message>
        <message>
            <source>ONNX %1, %2, block %3, %4 absmax</source>
            <translation>ONNX %1, %2, Block %3, %4-Absolutmaximum</translation>
        </message>
        <message>
            <source>per axis %1</source>
            <translation>je Index der Achse %1</translation>
        </message>
        <message>
            <source>block %1</source>
            <translation>Block %1</translation>
        </message>
        <message>
            <source>ONNX %1, %2 %3-bit, %4, %5 scales</source>
            <translation>ONNX %1, %2 %3 Bit, %4, %5-Skalen</translation>
        </message>
        <message>
            <source>lossless: the input's codes and scales repacked</source>
            <translation>verlustfrei: Codes und Skalen der Eingabe umgepackt</translation>
        </message>
        <message>
            <source>re-quantized: the input's codes are of another kind, width or group size</source>
            <translation>neu quantisiert: die Codes der Eingabe sind von anderer Art, Breite oder Gruppengröße</translation>
        </message>
        <message>
            <source>re-quantized: a scale or bias of the input is not exact in F16</source>
            <translation>neu quantisiert: eine Skala oder ein Bias der Eingabe ist in F16 nicht exakt darstellbar</translation>
        </message>
        <message>
            <source>re-quantized: the input's biases are not −2^(bits−1)·scale, as %1 has them</source>
            <translation>neu quantisiert: die Biases der Eingabe sind nicht −2^(Bits−1)·Skala, wie %1 sie hat</translation>
        </message>
        <message>
            <source>re-quantized: a negative E4M3 scale (GGUF's are unsigned)</source>
            <translation>neu quantisiert: eine negative E4M3-Skala (die von GGUF sind vorzeichenlos)</translation>
        </message>
        <message>
            <source>lossless repack</source>
            <translation>verlustfrei umgepackt</translation>
        </message>
        <message>
            <source>the quantization config</source>
            <translation>die Quantisierungskonfiguration</translation>
        </message>
        <message>
            <source>re-quantizing tensors that were already quantized compounds their error (start from F32/F16/BF16 when you can)</source>
            <translation>erneutes Quantisieren bereits quantisierter Tensoren häuft ihre Fehler an (beginnen Sie nach Möglichkeit mit F32/F16/BF16)</translation>
        </message>
        <message numerus="yes">
            <source>%1: %Ln value(s) dequantize to a non-finite number (left out of the loss)</source>
            <translation>
                <numerusform>%1: %Ln Wert wird zu einer nicht endlichen Zahl dequantisiert (beim Verlust ausgelassen)</numerusform>
                <numerusform>%1: %Ln Werte werden zu einer nicht endlichen Zahl dequantisiert (beim Verlust ausgelassen)</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%1: key “%2” occurs %Ln times; the last one is used, as Python's json (and so transformers) reads it</source>
            <translation>
                <numerusform>%1: Schlüssel „%2“ kommt %Ln-mal vor; der letzte gilt, wie Pythons json (und damit transformers) ihn liest</numerusform>
                <numerusform>%1: Schlüssel „%2“ kommt %Ln-mal vor; der letzte gilt, wie Pythons json (und damit transformers) ihn liest</numerusform>
            </translation>
        </message>
        <message>
            <source>%1: key “%2” occurs more than once; the last one is used, as Python's json (and so transformers) reads it</source>
            <translation>%1: Schlüssel „%2“ kommt mehrfach vor; der letzte gilt, wie Pythons json (und damit transformers) ihn liest</translation>
        </message>
        <message>
            <source>%1: quantization_config.quant_method is “%2”, but no tensor is quantized that way (nor any other): the tensors are believed and copied as stored</source>
            <translation>%1: quantization_config.quant_method ist „%2“, aber kein Tensor ist so (oder anders) quantisiert: den Tensoren wird geglaubt, sie werden wie gespeichert kopiert</translation>
        </message>
        <message>
            <source>%1: quantization_config.quant_method is “%2”, but the tensors are %3%4: the tensors are believed, dequantized as %3</source>
            <translation>%1: quantization_config.quant_method ist „%2“, aber die Tensoren sind %3%4: den Tensoren wird geglaubt, dequantisiert als %3</translation>
        </message>
        <message>
            <source>%1: quantization_config.fmt is “%2”, but the FP8 weights are stored as %3: the tensors' dtype is believed, it decides the decoding</source>
            <translation>%1: quantization_config.fmt ist „%2“, aber die FP8-Gewichte sind als %3 gespeichert: dem Datentyp der Tensoren wird geglaubt, er entscheidet die Dekodierung</translation>
        </message>
        <message>
            <source>%1: %2; ignored: no FP8 weight here has block scales (the scale shapes are believed)</source>
            <translation>%1: %2; ignoriert: kein FP8-Gewicht hier hat Blockskalen (den Formen der Skalen wird geglaubt)</translation>
        </message>
        <message>
            <source>not carried into config.json (no equivalent for %1 here): %2</source>
            <translation>nicht in config.json übernommen (keine Entsprechung für %1 hier): %2</translation>
        </message>
        <message>
            <source>no tokenizer written: the GGUF has no tokenizer.ggml.model</source>
            <translation>kein Tokenizer geschrieben: das GGUF hat kein tokenizer.ggml.model</translation>
        </message>
        <message>
            <source>no tokenizer written: %1</source>
            <translation>kein Tokenizer geschrieben: %1</translation>
        </message>
        <message>
            <source>no tokenizer.model written (tokenizer.json is): %1</source>
            <translation>kein tokenizer.model geschrieben (tokenizer.json schon): %1</translation>
        </message>
        <message>
            <source>The model is already quantized (%1): tick “Re-quantize an already quantized input”, or start from the BF16/F16/F32 model.</source>
            <translation>Das Modell ist bereits quantisiert (%1): Aktivieren Sie „Bereits quantisierte Eingabe neu quantisieren“ oder gehen Sie vom BF16/F16/F32-Modell aus.</translation>
        </message>
        <message numerus="yes">
            <source>%Ln quantized tensor(s)</source>
            <translation>
                <numerusform>%Ln quantisierter Tensor</numerusform>
                <numerusform>%Ln quantisierte Tensoren</numerusform>
            </translation>
        </message>
        <message>
            <source>a data type anamnesis does not know</source>
            <translation>ein Datentyp, den anamnesis nicht kennt</translation>
        </message>
        <message>
            <source>stored in a layout anamnesis cannot decode</source>
            <translation>in einem Layout gespeichert, das anamnesis nicht dekodieren kann</translation>
        </message>
        <message>
            <source>a tensor it needs (scales, zero points …) is missing</source>
            <translation>ein Tensor, den es braucht (Skalen, Nullpunkte …), fehlt</translation>
        </message>
        <message>
            <source>its tensors do not fit together (type, shape or values)</source>
            <translation>seine Tensoren passen nicht zusammen (Typ, Form oder Werte)</translation>
        </message>
        <message>
            <source>a variant of its scheme anamnesis does not support yet</source>
            <translation>eine Variante seines Schemas, die anamnesis noch nicht unterstützt</translation>
        </message>
        <message>
            <source>the quantization config is malformed or contradicts the tensors</source>
            <translation>die Quantisierungskonfiguration ist fehlerhaft oder widerspricht den Tensoren</translation>
        </message>
        <message>
            <source>a quantization scheme anamnesis cannot dequantize</source>
            <translation>ein Quantisierungsschema, das anamnesis nicht dequantisieren kann</translation>
        </message>
        <message>
            <source>Cannot be converted: %1 — %2</source>
            <translation>Nicht konvertierbar: %1 — %2</translation>
        </message>
        <message>
            <source>Cannot be converted: %1 — %2: %3</source>
            <translation>Nicht konvertierbar: %1 — %2: %3</translation>
        </message>
        <message>
            <source>, act order (g_idx)</source>
            <translation>, Act-Order (g_idx)</translation>
        </message>
    </context>
    <context>
        <name>amn::ui::Shape</name>
        <message>
            <source>scalar</source>
            <translation>Skalar</translation>
        </message>
    </context>
    <context>
        <name>amn::ui::SummaryView</name>
        <message>
            <source>Stored bytes by dtype</source>
            <translation>Gespeicherte Bytes nach Datentyp</translation>
        </message>
        <message>
            <source>not convertible</source>
            <translation>nicht konvertierbar</translation>
        </message>
        <message>
            <source>unquantized</source>
            <translation>nicht quantisiert</translation>
        </message>
        <message>
            <source>companions not written</source>
            <translation>nicht geschriebene Begleittensoren</translation>
        </message>
        <message>
            <source>Stored bytes by scheme</source>
            <translation>Gespeicherte Bytes nach Schema</translation>
        </message>
        <message>
            <source>Format</source>
            <translation>Format</translation>
        </message>
        <message>
            <source>Scheme</source>
            <translation>Schema</translation>
        </message>
        <message>
            <source>none: the tensors are not quantized</source>
            <translation>keines: die Tensoren sind nicht quantisiert</translation>
        </message>
        <message>
            <source>Config</source>
            <translation>Konfiguration</translation>
        </message>
        <message>
            <source>quant_method "%1" in %2</source>
            <translation>quant_method „%1“ in %2</translation>
        </message>
        <message>
            <source>Tensors</source>
            <translation>Tensoren</translation>
        </message>
        <message>
            <source>Parameters</source>
            <translation>Parameter</translation>
        </message>
        <message>
            <source>%1 (%2 quantized)</source>
            <translation>%1 (%2 quantisiert)</translation>
        </message>
        <message>
            <source>Size</source>
            <translation>Größe</translation>
        </message>
        <message>
            <source>%1 now → %2 as BF16</source>
            <translation>%1 jetzt → %2 als BF16</translation>
        </message>
        <message>
            <source>Lethe took</source>
            <translation>Lethe nahm</translation>
        </message>
        <message>
            <source>%1 of %2 (%3) — %4 bits per weight instead of 16</source>
            <translation>%1 von %2 (%3) — %4 Bits pro Gewicht statt 16</translation>
        </message>
        <message>
            <source>nothing: no tensor is quantized</source>
            <translation>nichts: kein Tensor ist quantisiert</translation>
        </message>
        <message>
            <source>Opened in</source>
            <translation>Geöffnet in</translation>
        </message>
        <message>
            <source>%1 ms (headers only)</source>
            <translation>%1 ms (nur Kopfdaten)</translation>
        </message>
        <message>
            <source>Not convertible</source>
            <translation>Nicht konvertierbar</translation>
        </message>
        <message>
            <source>Notes</source>
            <translation>Hinweise</translation>
        </message>
        <message>
            <source>Pickle scan</source>
            <translation>Pickle-Prüfung</translation>
        </message>
        <message>
            <source>Con&amp;vert…</source>
            <translation>Kon&amp;vertieren …</translation>
        </message>
        <message>
            <source>Remember (dequantize) or forget (quantize) this model</source>
            <translation>Dieses Modell erinnern (dequantisieren) oder vergessen (quantisieren)</translation>
        </message>
        <message>
            <source>Architecture</source>
            <translation>Architektur</translation>
        </message>
        <message>
            <source>Name</source>
            <translation>Name</translation>
        </message>
        <message>
            <source>Size label</source>
            <translation>Größenangabe</translation>
        </message>
        <message>
            <source>Context length</source>
            <translation>Kontextlänge</translation>
        </message>
        <message>
            <source>File type</source>
            <translation>Dateityp</translation>
        </message>
        <message>
            <source>unknown</source>
            <translation>unbekannt</translation>
        </message>
        <message>
            <source>%1 stored: %2 quantized, %3, %4 passthrough, %5 unsupported → %6</source>
            <translation>%1 gespeichert: %2 quantisiert, %3, %4 durchgereicht, %5 nicht unterstützt → %6</translation>
        </message>
        <message numerus="yes">
            <source>%1, %Ln file(s), %2</source>
            <translation>
                <numerusform>%1, %Ln Datei, %2</numerusform>
                <numerusform>%1, %Ln Dateien, %2</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%1 — %Ln tensor(s)</source>
            <translation>
                <numerusform>%1 — %Ln Tensor</numerusform>
                <numerusform>%1 — %Ln Tensoren</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%Ln companion(s)</source>
            <translation>
                <numerusform>%Ln Begleittensor</numerusform>
                <numerusform>%Ln Begleittensoren</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%Ln output tensor(s)</source>
            <translation>
                <numerusform>%Ln Ausgabetensor</numerusform>
                <numerusform>%Ln Ausgabetensoren</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%1 (%Ln global(s) referenced, nothing executed)</source>
            <translation>
                <numerusform>%1 (%Ln Global referenziert, nichts ausgeführt)</numerusform>
                <numerusform>%1 (%Ln Globals referenziert, nichts ausgeführt)</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>… and %Ln more</source>
            <translation>
                <numerusform>… und %Ln weiterer</numerusform>
                <numerusform>… und %Ln weitere</numerusform>
            </translation>
        </message>
        <message>
            <source>GGUF</source>
            <translation>GGUF</translation>
        </message>
        <message>
            <source>reading the tokenizer…</source>
            <translation>Tokenizer wird gelesen …</translation>
        </message>
        <message numerus="yes">
            <source>%1 — %2, %Ln tensor(s)</source>
            <translation>
                <numerusform>%1 — %2, %Ln Tensor</numerusform>
                <numerusform>%1 — %2, %Ln Tensoren</numerusform>
            </translation>
        </message>
        <message>
            <source>Split set</source>
            <translation>Geteilte Datei</translation>
        </message>
        <message numerus="yes">
            <source>%Ln part(s), read as one model:</source>
            <translation>
                <numerusform>%Ln Teil, als ein Modell gelesen:</numerusform>
                <numerusform>%Ln Teile, als ein Modell gelesen:</numerusform>
            </translation>
        </message>
        <message>
            <source>A remote model: download it to convert it</source>
            <translation>Ein entferntes Modell: laden Sie es herunter, um es umzuwandeln</translation>
        </message>
        <message>
            <source>%1 (remote: headers only, %2 downloaded)</source>
            <translation>%1 (entfernt: nur Kopfdaten, %2 geladen)</translation>
        </message>
        <message>
            <source>%1 bits per weight</source>
            <translation>%1 Bit pro Gewicht</translation>
        </message>
        <message>
            <source>%1 bpw</source>
            <translation>%1 Bit/Gew.</translation>
        </message>
        <message>
            <source>Warnings</source>
            <translation>Warnungen</translation>
        </message>
        <message>
            <source>PEFT adapter</source>
            <translation>PEFT-Adapter</translation>
        </message>
        <message>
            <source>PEFT %1</source>
            <translation>PEFT %1</translation>
        </message>
        <message>
            <source>, rank %1</source>
            <translation>, Rang %1</translation>
        </message>
        <message>
            <source>, alpha %1</source>
            <translation>, Alpha %1</translation>
        </message>
        <message>
            <source>, scale %1 (alpha/√r: rsLoRA)</source>
            <translation>, Skalierung %1 (Alpha/√r: rsLoRA)</translation>
        </message>
        <message>
            <source>, scale %1 (alpha/r)</source>
            <translation>, Skalierung %1 (Alpha/r)</translation>
        </message>
        <message>
            <source>, DoRA</source>
            <translation>, DoRA</translation>
        </message>
        <message numerus="yes">
            <source>%Ln adapted module(s): %1</source>
            <translation>
                <numerusform>%Ln angepasstes Modul: %1</numerusform>
                <numerusform>%Ln angepasste Module: %1</numerusform>
            </translation>
        </message>
        <message>
            <source>no target modules named</source>
            <translation>keine Zielmodule genannt</translation>
        </message>
        <message>
            <source>base model %1</source>
            <translation>Basismodell %1</translation>
        </message>
        <message>
            <source>becomes a GGUF LoRA adapter with its base model's folder (amn convert … --to gguf --base BASE_DIR)</source>
            <translation>wird mit dem Ordner seines Basismodells ein GGUF-LoRA-Adapter (amn convert … --to gguf --base BASE_DIR)</translation>
        </message>
        <message>
            <source>no GGUF form: %1</source>
            <translation>keine GGUF-Form: %1</translation>
        </message>
        <message>
            <source>Adapter</source>
            <translation>Adapter</translation>
        </message>
    </context>
    <context>
        <name>amn::ui::TensorDetail</name>
        <message>
            <source>Select a tensor in the tree.</source>
            <translation>Wählen Sie einen Tensor im Baum.</translation>
        </message>
        <message>
            <source>Stored tensor</source>
            <translation>Gespeicherter Tensor</translation>
        </message>
        <message>
            <source>Dtype</source>
            <translation>Datentyp</translation>
        </message>
        <message>
            <source>Shape</source>
            <translation>Form</translation>
        </message>
        <message>
            <source>Size</source>
            <translation>Größe</translation>
        </message>
        <message>
            <source>Role</source>
            <translation>Rolle</translation>
        </message>
        <message>
            <source>Compute statistics</source>
            <translation>Statistik berechnen</translation>
        </message>
        <message>
            <source>statistics %p%</source>
            <translation>Statistik %p %</translation>
        </message>
        <message>
            <source>min</source>
            <translation>Min.</translation>
        </message>
        <message>
            <source>max</source>
            <translation>Max.</translation>
        </message>
        <message>
            <source>mean</source>
            <translation>Mittelwert</translation>
        </message>
        <message>
            <source>std</source>
            <translation>Std.-Abw.</translation>
        </message>
        <message>
            <source>zeros</source>
            <translation>Nullen</translation>
        </message>
        <message>
            <source>NaN</source>
            <translation>NaN</translation>
        </message>
        <message>
            <source>±Inf</source>
            <translation>±Inf</translation>
        </message>
        <message>
            <source>values</source>
            <translation>Werte</translation>
        </message>
        <message>
            <source>Written as BF16 loses</source>
            <translation>Als BF16 geschrieben gehen verloren</translation>
        </message>
        <message>
            <source>Written as F16 loses</source>
            <translation>Als F16 geschrieben gehen verloren</translation>
        </message>
        <message>
            <source>Measured against the exact f32 dequantized values: root-mean-square error, largest absolute error and signal-to-quantization-noise ratio.</source>
            <translation>Gemessen an den exakten dequantisierten f32-Werten: mittlerer quadratischer Fehler (Wurzel), größter absoluter Fehler und Signal-Quantisierungsrausch-Verhältnis.</translation>
        </message>
        <message>
            <source>Group</source>
            <translation>Gruppe</translation>
        </message>
        <message>
            <source>Parameters</source>
            <translation>Parameter</translation>
        </message>
        <message>
            <source>Stored</source>
            <translation>Gespeichert</translation>
        </message>
        <message>
            <source>As BF16</source>
            <translation>Als BF16</translation>
        </message>
        <message>
            <source>Scheme</source>
            <translation>Schema</translation>
        </message>
        <message>
            <source>Bits per weight</source>
            <translation>Bits pro Gewicht</translation>
        </message>
        <message>
            <source>%1 stored, 16 as BF16</source>
            <translation>%1 gespeichert, 16 als BF16</translation>
        </message>
        <message>
            <source>Error</source>
            <translation>Fehler</translation>
        </message>
        <message>
            <source>Used by</source>
            <translation>Verwendet von</translation>
        </message>
        <message>
            <source>no output tensor (not written)</source>
            <translation>keinem Ausgabetensor (wird nicht geschrieben)</translation>
        </message>
        <message>
            <source>Statistics are available for output tensors.</source>
            <translation>Statistiken gibt es für Ausgabetensoren.</translation>
        </message>
        <message>
            <source>Computing…</source>
            <translation>Wird berechnet …</translation>
        </message>
        <message>
            <source>Statistics failed: %1</source>
            <translation>Statistik fehlgeschlagen: %1</translation>
        </message>
        <message>
            <source>%1 (%2 %)</source>
            <translation>%1 (%2 %)</translation>
        </message>
        <message>
            <source>nothing: every value is exact</source>
            <translation>nichts: jeder Wert ist exakt</translation>
        </message>
        <message>
            <source>RMSE %1, max abs error %2, SQNR %3 dB</source>
            <translation>RMSE %1, größter absoluter Fehler %2, SQNR %3 dB</translation>
        </message>
        <message>
            <source>No finite values.</source>
            <translation>Keine endlichen Werte.</translation>
        </message>
        <message>
            <source>&amp;Log scale</source>
            <translation>&amp;Logarithmisch</translation>
        </message>
        <message>
            <source>Logarithmic count axis for the histogram: shows rare values in the tails</source>
            <translation>Logarithmische Anzahl-Achse im Histogramm: zeigt seltene Werte in den Ausläufern</translation>
        </message>
        <message>
            <source>Estimated by re-quantizing the dequantized values with the same scheme (round to nearest) and comparing. The original weights are not in the file: values already on the scheme's grid come back unchanged.</source>
            <translation>Geschätzt, indem die dequantisierten Werte mit demselben Schema erneut quantisiert (Runden zum nächsten Wert) und verglichen werden. Die ursprünglichen Gewichte sind nicht in der Datei: Werte, die schon auf dem Raster des Schemas liegen, kommen unverändert zurück.</translation>
        </message>
        <message>
            <source>Lethe took (estimate)</source>
            <translation>Lethe nahm (Schätzung)</translation>
        </message>
        <message>
            <source>no further loss: the values are already on the scheme's grid</source>
            <translation>kein weiterer Verlust: die Werte liegen schon auf dem Raster des Schemas</translation>
        </message>
        <message numerus="yes">
            <source>%Ln tensor(s)</source>
            <translation>
                <numerusform>%Ln Tensor</numerusform>
                <numerusform>%Ln Tensoren</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%Ln value(s) overflow to ±Inf</source>
            <translation>
                <numerusform>%Ln Wert läuft über nach ±Inf</numerusform>
                <numerusform>%Ln Werte laufen über nach ±Inf</numerusform>
            </translation>
        </message>
        <message>
            <source>&amp;Histogram</source>
            <translation>&amp;Histogramm</translation>
        </message>
        <message>
            <source>&amp;Values</source>
            <translation>&amp;Werte</translation>
        </message>
        <message>
            <source>A remote model: only its headers were downloaded, so there are no values to measure.</source>
            <translation>Ein entferntes Modell: nur seine Kopfdaten wurden geladen, es gibt also keine Werte zu messen.</translation>
        </message>
    </context>
    <context>
        <name>amn::ui::TensorTreeModel</name>
        <message>
            <source>Name</source>
            <translation>Name</translation>
        </message>
        <message>
            <source>Dtype / scheme</source>
            <translation>Datentyp / Schema</translation>
        </message>
        <message>
            <source>Shape</source>
            <translation>Form</translation>
        </message>
        <message>
            <source>Parameters</source>
            <translation>Parameter</translation>
        </message>
        <message>
            <source>Stored</source>
            <translation>Gespeichert</translation>
        </message>
        <message>
            <source>As BF16</source>
            <translation>Als BF16</translation>
        </message>
        <message>
            <source>Dotted tensor name, grouped by component</source>
            <translation>Tensorname mit Punkten, nach Bestandteilen gruppiert</translation>
        </message>
        <message>
            <source>Stored dtype and the quantization scheme that reads it</source>
            <translation>Gespeicherter Datentyp und das Quantisierungsschema, das ihn liest</translation>
        </message>
        <message>
            <source>Output shape (row-major), or the stored shape for companions</source>
            <translation>Ausgabeform (zeilenweise), bei Begleittensoren die gespeicherte Form</translation>
        </message>
        <message>
            <source>Number of elements</source>
            <translation>Anzahl der Elemente</translation>
        </message>
        <message>
            <source>Bytes in the file, companions included</source>
            <translation>Bytes in der Datei, einschließlich Begleittensoren</translation>
        </message>
        <message>
            <source>Bytes after dequantizing to BF16</source>
            <translation>Bytes nach dem Dequantisieren zu BF16</translation>
        </message>
        <message>
            <source>error</source>
            <translation>Fehler</translation>
        </message>
        <message>
            <source>%1 · %2 (dropped)</source>
            <translation>%1 · %2 (entfällt)</translation>
        </message>
        <message>
            <source>Consumed by no output tensor: conversion drops it.</source>
            <translation>Von keinem Ausgabetensor verwendet: die Konvertierung lässt ihn weg.</translation>
        </message>
        <message numerus="yes">
            <source>%Ln tensor(s)</source>
            <translation>
                <numerusform>%Ln Tensor</numerusform>
                <numerusform>%Ln Tensoren</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>amn::ui::ValuePreviewPanel</name>
        <message>
            <source>Export as .&amp;npy…</source>
            <translation>Als .&amp;npy exportieren…</translation>
        </message>
        <message>
            <source>Write the whole dequantized tensor as a NumPy .npy file</source>
            <translation>Den ganzen dequantisierten Tensor als NumPy-.npy-Datei schreiben</translation>
        </message>
        <message>
            <source>as F32</source>
            <translation>als F32</translation>
        </message>
        <message>
            <source>as F16</source>
            <translation>als F16</translation>
        </message>
        <message>
            <source>Value type of the .npy file (BF16 has no NumPy type)</source>
            <translation>Werttyp der .npy-Datei (BF16 hat keinen NumPy-Typ)</translation>
        </message>
        <message>
            <source>export %p%</source>
            <translation>Export %p%</translation>
        </message>
        <message>
            <source>Cancel</source>
            <translation>Abbrechen</translation>
        </message>
        <message>
            <source>Values are shown for output tensors.</source>
            <translation>Werte werden für Ausgabetensoren gezeigt.</translation>
        </message>
        <message>
            <source>Reading values…</source>
            <translation>Werte werden gelesen…</translation>
        </message>
        <message>
            <source>Values could not be read: %1</source>
            <translation>Die Werte konnten nicht gelesen werden: %1</translation>
        </message>
        <message>
            <source>First %1 × %2 of %3 × %4 values (rows × columns, dequantized)</source>
            <translation>Erste %1 × %2 von %3 × %4 Werten (Zeilen × Spalten, dequantisiert)</translation>
        </message>
        <message>
            <source>Export as .npy</source>
            <translation>Als .npy exportieren</translation>
        </message>
        <message>
            <source>NumPy array (*.npy)</source>
            <translation>NumPy-Array (*.npy)</translation>
        </message>
        <message>
            <source>Written: %1 (%2)</source>
            <translation>Geschrieben: %1 (%2)</translation>
        </message>
        <message>
            <source>Export cancelled; no file written.</source>
            <translation>Export abgebrochen; keine Datei geschrieben.</translation>
        </message>
        <message>
            <source>Export failed: %1</source>
            <translation>Export fehlgeschlagen: %1</translation>
        </message>
        <message>
            <source>Downloading the rows shown…</source>
            <translation>Die gezeigten Zeilen werden geladen…</translation>
        </message>
    </context>
    <context>
        <name>main</name>
        <message>
            <source>Inspect ML model files and remember (dequantize) them.</source>
            <translation>ML-Modelldateien untersuchen und erinnern (dequantisieren).</translation>
        </message>
        <message>
            <source>User interface language (e.g. de), default: the system locale.</source>
            <translation>Sprache der Oberfläche (z. B. de), Vorgabe: die Systemeinstellung.</translation>
        </message>
        <message>
            <source>locale</source>
            <translation>Sprache</translation>
        </message>
        <message>
            <source>Render screenshots of the first model into DIR and quit.</source>
            <translation>Bildschirmfotos des ersten Modells in VERZEICHNIS speichern und beenden.</translation>
        </message>
        <message>
            <source>DIR</source>
            <translation>VERZEICHNIS</translation>
        </message>
        <message>
            <source>Model files or folders to open.</source>
            <translation>Zu öffnende Modelldateien oder -ordner.</translation>
        </message>
        <message>
            <source>Open a new window even when anamnesis is already running.</source>
            <translation>Ein neues Fenster öffnen, auch wenn anamnesis bereits läuft.</translation>
        </message>
    </context>
</TS>
