#!/usr/bin/python3
"""Fill the .ts files after `ninja update_translations`.

Usage: fill_ts.py translations/anamnesis_de.ts   German from de_strings.py;
                                                  exits 1 listing (context, source)
                                                  pairs without a German string.
       fill_ts.py --english translations/anamnesis_en.ts
                                                  English plural forms only
                                                  ("%n tensor(s)" → "tensor"/"tensors");
                                                  other entries stay unfinished
                                                  (lrelease then keeps the source text).
"""
import os
import sys
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from de_strings import DE  # noqa: E402

english = sys.argv[1] == "--english"
path = sys.argv[2] if english else sys.argv[1]


def english_forms(src):
    """Singular and plural of an English "(s)" source text."""
    one = (src.replace("value(s) overflow", "value overflows")
           .replace("value(s) dequantize to", "value dequantizes to").replace("tensor(s) cannot be", "tensor cannot be")
           .replace("tensor(s) are already quantized in the input: re-quantizing compounds their",
                    "tensor is already quantized in the input: re-quantizing compounds its")
           .replace("value(s) or their round trip are", "value or its round trip is")
           .replace("value(s) are", "value is"))
    many = src.replace("value(s) overflow", "values overflow").replace("tensor(s) cannot be", "tensors cannot be")
    return [one.replace("(s)", ""), many.replace("(s)", "s")]


tree = ET.parse(path)
missing = []
for ctx in tree.getroot().findall("context"):
    cname = ctx.find("name").text
    for msg in ctx.findall("message"):
        src = msg.find("source").text
        tr = msg.find("translation")
        if english:
            if msg.get("numerus") != "yes":
                continue
            de = english_forms(src)
        else:
            de = DE.get((cname, src))
        if de is None:
            missing.append((cname, src))
            continue
        for child in list(tr):
            tr.remove(child)
        tr.text = None
        tr.attrib.pop("type", None)
        if msg.get("numerus") == "yes":
            forms = de if isinstance(de, list) else [de, de]
            for f in forms:
                ET.SubElement(tr, "numerusform").text = f
        else:
            tr.text = de
ET.indent(tree, space="    ")
with open(path, "wb") as f:
    f.write(b'<?xml version="1.0" encoding="utf-8"?>\n<!DOCTYPE TS>\n')
    tree.write(f, encoding="utf-8", xml_declaration=False)
    f.write(b"\n")
for m in missing:
    print("missing German string:", m, file=sys.stderr)
sys.exit(1 if missing else 0)
