#!/usr/bin/python3
"""German strings of the remote-model UI (issue 34: File → Open URL…, a
dropped link, hf:// ids), merged into de_strings.DE."""
M = "amn::ui::MainWindow"
S = "amn::ui::SummaryView"
D = "amn::ui::TensorDetail"
P = "amn::ui::ValuePreviewPanel"

REMOTE = {
    (M, "Open &URL…"): "&URL öffnen…",
    (M, "Open URL"): "URL öffnen",
    (M, "A model file's URL (https://…) or a Hugging Face repository (hf://ORG/REPO[@REVISION][/PATH]).\n"
        "Only its headers are downloaded; it opens read-only."):
        "Die URL einer Modelldatei (https://…) oder ein Hugging-Face-Repository (hf://ORG/REPO[@REVISION][/PFAD]).\n"
        "Nur die Kopfdaten werden geladen; es öffnet sich schreibgeschützt.",
    (M, "Not a URL: it must start with https://, http:// or hf://."):
        "Keine URL: sie muss mit https://, http:// oder hf:// beginnen.",
    (M, "Convert"): "Umwandeln",
    (M, "%1 is a remote model: only its headers were downloaded. Download it to convert it."):
        "%1 ist ein entferntes Modell: nur seine Kopfdaten wurden geladen. Laden Sie es herunter, um es umzuwandeln.",
    (M, "The server did not give the model (a gated or private repository, a missing token, a wrong address, "
        "or no connection: the details say which)."):
        "Der Server hat das Modell nicht geliefert (ein geschütztes oder privates Repository, ein fehlendes Token, "
        "eine falsche Adresse oder keine Verbindung: die Details sagen, was davon).",
    (D, "A remote model: only its headers were downloaded, so there are no values to measure."):
        "Ein entferntes Modell: nur seine Kopfdaten wurden geladen, es gibt also keine Werte zu messen.",
    (P, "Downloading the rows shown…"): "Die gezeigten Zeilen werden geladen…",
    (S, "A remote model: download it to convert it"): "Ein entferntes Modell: laden Sie es herunter, um es umzuwandeln",
    (S, "%1 (remote: headers only, %2 downloaded)"): "%1 (entfernt: nur Kopfdaten, %2 geladen)",
    (M, "Cancel"): "Abbrechen",
    (M, "Stop opening (a remote model's download stops at once)"): "Öffnen abbrechen (das Laden eines entfernten Modells endet sofort)",
    (M, "Opening cancelled"): "Öffnen abgebrochen",
}
