#!/usr/bin/python3
"""Fill anamnesis_de.ts from de_strings.py after `ninja update_translations`.

Usage: fill_ts.py translations/anamnesis_de.ts
Exits 1 and lists the (context, source) pairs that have no German string yet.
"""
import os
import sys
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from de_strings import DE  # noqa: E402

path = sys.argv[1]
tree = ET.parse(path)
missing = []
for ctx in tree.getroot().findall("context"):
    cname = ctx.find("name").text
    for msg in ctx.findall("message"):
        src = msg.find("source").text
        tr = msg.find("translation")
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
