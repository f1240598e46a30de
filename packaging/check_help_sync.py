#!/usr/bin/python3
# SPDX-License-Identifier: MIT OR Apache-2.0
"""Keep the man pages and shell completions in step with `--help`.

`amn --help` and `amn help COMMAND` are the source of truth. Every command
and alias they list, every option they print (`--long` and `-x`) and every
value they list for `--to` (dtypes, llama-quantize file types, safetensors
schemes) must appear

  - in the man page source docs/man/amn.1.scd, in that command's `## ` section,
  - in packaging/completions/amn.bash, in that command's `opts="..."`,
  - in packaging/completions/_amn (zsh), in that command's `(verb|alias)` case,
  - in packaging/completions/amn.fish, on a `__fish_seen_subcommand_from`
    line naming that command.

Every option `anamnesis --help` prints must appear in docs/man/anamnesis.1.scd.
Rendered pages (--rendered DIR) must render with `man --warnings -l` silently
and carry the project version.

Exit 0 when in step; 1 with one line per missing item, naming the file and
section to edit. Standard library only.

usage: check_help_sync.py --amn AMN --source-dir SRC [--anamnesis APP]
                          [--rendered DIR] [--version X.Y.Z]
"""
import argparse
import gzip
import os
import re
import subprocess
import sys

OPT_RE = re.compile(r"(?<![\w-])(--[a-z][a-z0-9-]*|-[a-zA-Z])(?![\w-])")


def run(cmd, env=None):
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    if r.returncode != 0:
        sys.exit(f"check_help_sync: {' '.join(cmd)} exited {r.returncode}: {r.stderr.strip()}")
    return r.stdout


def options_in(text):
    return set(OPT_RE.findall(text))


def words_in(text):
    return set(re.findall(r"[A-Za-z0-9_:.-]+", text))


def amn_commands(top_help):
    """[[canonical, alias...]] from the `commands:` block of `amn --help`."""
    groups, inside = [], False
    for line in top_help.splitlines():
        if line.strip() == "commands:":
            inside = True
            continue
        if inside:
            if not line.strip():
                break
            m = re.match(r"^  ([a-z]+(?:, [a-z]+)*)(?:\s{2,}|$)", line)
            if m:
                groups.append(m.group(1).split(", "))
    return groups


def to_values(verb, text):
    """Values `--to` accepts, as the help lists them."""
    vals = set()
    for m in re.finditer(r"--to ([a-z0-9]+(?:\|[a-z0-9]+)+)", text):
        vals.update(m.group(1).split("|"))
    # forget: llama-quantize file types (FTYPE paragraph) and scheme names (SCHEME block).
    m = re.search(r"^FTYPE\b.*?(?=^\s*$)", text, re.M | re.S)
    if m:
        vals.update(re.findall(r"\b(?:[A-Z]+[0-9][A-Z0-9_]*|BF16)\b", m.group(0)))
    m = re.search(r"^SCHEME\b[^\n]*\n(.*?)(?=^\s*$)", text, re.M | re.S)
    if m:
        for line in m.group(1).splitlines():
            s = re.match(r"^  ([a-z0-9][a-z0-9-]*(?:, [a-z0-9][a-z0-9-]*)*),?(?:\s{2,}|$)", line)
            if s:
                vals.update(v.strip() for v in s.group(1).split(","))
    return vals


def split_sections(text, head_re):
    """{heading text: body} for headings matched by head_re (one group)."""
    out = {}
    marks = [(m.start(), m.end(), m.group(1)) for m in head_re.finditer(text)]
    for i, (s, e, name) in enumerate(marks):
        end = marks[i + 1][0] if i + 1 < len(marks) else len(text)
        out[name] = text[e:end]
    return out


def find_section(sections, names, sep):
    """Body of the section whose heading lists any of `names`."""
    for head, body in sections.items():
        if set(n.strip() for n in head.split(sep)) & set(names):
            return head, body
    return None, None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--amn", required=True)
    ap.add_argument("--anamnesis")
    ap.add_argument("--source-dir", required=True)
    ap.add_argument("--rendered")
    ap.add_argument("--version")
    a = ap.parse_args()
    src = a.source_dir
    rel = lambda p: os.path.relpath(p, src)  # noqa: E731
    paths = {
        "man": os.path.join(src, "docs/man/amn.1.scd"),
        "bash": os.path.join(src, "packaging/completions/amn.bash"),
        "zsh": os.path.join(src, "packaging/completions/_amn"),
        "fish": os.path.join(src, "packaging/completions/amn.fish"),
    }
    text = {k: open(p, encoding="utf-8").read() for k, p in paths.items()}
    missing = []

    man_sections = split_sections(text["man"], re.compile(r"^## (.+)$", re.M))
    bash_sections = {}
    for m in re.finditer(r"^\s*([a-z|]+)\)\s*\n\s*opts=\"([^\"]*)\"", text["bash"], re.M):
        bash_sections[m.group(1)] = m.group(2)
    zsh_sections = split_sections(text["zsh"], re.compile(r"^\s*\(([a-z|]+)\)\s*$", re.M))
    zsh_sections = {k: v.split(";;")[0] for k, v in zsh_sections.items()}
    fish_opts, fish_verbs = {}, set()
    for line in text["fish"].splitlines():
        m = re.match(r"complete -c amn -n \"__fish_seen_subcommand_from ([a-z ]+)\"(.*)", line)
        if not m:
            continue
        rest = m.group(2)
        opts = {"--" + x for x in re.findall(r"(?:^|\s)-l ([\w-]+)", rest)}
        opts |= {"-" + x for x in re.findall(r"(?:^|\s)-s (\w)", rest)}
        for v in m.group(1).split():
            fish_opts.setdefault(v, set()).update(opts)
            fish_opts.setdefault(v + ":text", set()).add(rest)
    for m in re.finditer(r"-a '([a-z ]+)'|-a ([a-z]+) ", text["fish"]):
        fish_verbs.update((m.group(1) or m.group(2)).split())

    top = run([a.amn, "--help"])
    groups = amn_commands(top)
    if len(groups) < 5:
        sys.exit(f"check_help_sync: could not read the commands from `amn --help`:\n{top}")
    for opt in sorted(options_in(top)):
        where = [k for k in ("man", "bash", "zsh", "fish")
                 if not re.search(r"(?<![\w-])" + re.escape(opt) + r"(?![\w-])", text[k])
                 and not (k == "fish" and opt.startswith("--") and f"-l {opt[2:]}" in text[k])]
        for k in where:
            missing.append(f"`amn --help` option {opt}: missing in {rel(paths[k])}")
    bash_cmds = re.search(r'commands="([^"]*)"', text["bash"])
    bash_cmds = set(bash_cmds.group(1).split()) if bash_cmds else set()
    zsh_cmds = set(re.findall(r"^\s*'([a-z]+):", text["zsh"], re.M))

    checked = 0
    for names in groups:
        verb = names[0]
        if verb == "help":
            continue
        help_text = run([a.amn, "help", verb])
        for alias in names[1:]:
            if run([a.amn, "help", alias]) != help_text:
                missing.append(f"`amn help {alias}` differs from `amn help {verb}` (alias not wired in app/amn/help.cc)")
        opts = options_in(help_text)
        values = to_values(verb, help_text)
        label = ", ".join(names)

        # Commands and aliases are offered by each completion.
        for n in names:
            if n not in bash_cmds:
                missing.append(f"command {n}: missing in {rel(paths['bash'])} commands=\"...\"")
            if n not in zsh_cmds:
                missing.append(f"command {n}: missing in {rel(paths['zsh'])} commands=(...)")
            if n not in fish_verbs:
                missing.append(f"command {n}: missing in {rel(paths['fish'])} (complete ... -a '{n}')")

        # Man page: the command's own section.
        head, body = find_section(man_sections, names, ",")
        if body is None:
            missing.append(f"command {label}: no '## {label}' section in {rel(paths['man'])}")
            body = ""
        elif set(n.strip() for n in head.split(",")) != set(names):
            missing.append(f"command {label}: man section heading is '## {head}' in {rel(paths['man'])}")
        man_opts, man_words = options_in(body), words_in(body)

        bhead, bopts = find_section(bash_sections, names, "|")
        bopts = set((bopts or "").split())
        if bhead is None:
            missing.append(f"command {label}: no '{'|'.join(names)})' case with opts=\"...\" in {rel(paths['bash'])}")
        elif set(bhead.split("|")) != set(names):
            missing.append(f"command {label}: bash case is '{bhead})' in {rel(paths['bash'])}")
        zhead, zbody = find_section(zsh_sections, names, "|")
        zbody = zbody or ""
        if zhead is None:
            missing.append(f"command {label}: no '({'|'.join(names)})' case in {rel(paths['zsh'])}")
        elif set(zhead.split("|")) != set(names):
            missing.append(f"command {label}: zsh case is '({zhead})' in {rel(paths['zsh'])}")
        zopts = options_in(zbody)
        fopts = set.intersection(*(fish_opts.get(n, set()) for n in names))

        for opt in sorted(opts):
            lacks = []
            if opt not in man_opts:
                lacks.append(f"{rel(paths['man'])} (section '## {head or label}')")
            if opt not in bopts:
                lacks.append(f"{rel(paths['bash'])} (case {'|'.join(names)}) opts=\"...\")")
            if opt not in zopts:
                lacks.append(f"{rel(paths['zsh'])} (case ({'|'.join(names)}))")
            if opt not in fopts:
                flag = f"-l {opt[2:]}" if opt.startswith("--") else f"-s {opt[1:]}"
                lacks.append(f"{rel(paths['fish'])} (complete -c amn -n \"__fish_seen_subcommand_from "
                             f"{' '.join(names)}\" {flag} ...)")
            for w in lacks:
                missing.append(f"amn {verb}: option {opt} (from `amn help {verb}`) missing in {w}")
            checked += 1

        # Values of --to: in the man section and in each completion file.
        fish_text = " ".join(fish_opts.get(verb + ":text", set()))
        for v in sorted(values):
            plain = v.split(":")[-1]
            pat = re.compile(r"(?<![\w-])" + re.escape(plain) + r"(?![\w-])")
            lacks = []
            if plain not in man_words:
                lacks.append(f"{rel(paths['man'])} (section '## {head or label}')")
            if not pat.search(text["bash"]):
                lacks.append(rel(paths["bash"]))
            if not pat.search(text["zsh"]):
                lacks.append(rel(paths["zsh"]))
            if not pat.search(text["fish"]) and not pat.search(fish_text):
                lacks.append(rel(paths["fish"]))
            for w in lacks:
                missing.append(f"amn {verb}: --to value {v} (from `amn help {verb}`) missing in {w}")
            checked += 1

    # Man page: exit codes and environment named in the help and the code.
    for needle, why in (("# EXIT STATUS", "exit codes"), ("# ENVIRONMENT", "environment"),
                        ("# EXAMPLES", "examples"), ("OLLAMA_MODELS", "ollama store variable")):
        if needle not in text["man"]:
            missing.append(f"{rel(paths['man'])}: no {why} ({needle})")

    # The desktop application.
    if a.anamnesis:
        env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
        app_help = run([a.anamnesis, "--help"], env=env)
        app_man = open(os.path.join(src, "docs/man/anamnesis.1.scd"), encoding="utf-8").read()
        for opt in sorted(options_in("\n".join(line for line in app_help.splitlines() if line.startswith("  -")))):
            if not re.search(r"(?<![\w-])" + re.escape(opt) + r"(?![\w-])", app_man):
                missing.append(f"anamnesis: option {opt} (from `anamnesis --help`) missing in docs/man/anamnesis.1.scd")
            checked += 1

    # Rendered pages: clean under man(1), versioned.
    if a.rendered:
        for page in ("amn.1.gz", "anamnesis.1.gz"):
            p = os.path.join(a.rendered, page)
            if not os.path.exists(p):
                if page == "anamnesis.1.gz" and not a.anamnesis:
                    continue
                missing.append(f"rendered man page {p} is missing (is scdoc installed?)")
                continue
            env = dict(os.environ, MANWIDTH="80", MAN_KEEP_FORMATTING="0", LC_ALL="C.UTF-8")
            r = subprocess.run(["man", "--warnings", "-l", p], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, env=env)
            if r.returncode != 0 or r.stderr.strip():
                missing.append(f"{page}: man --warnings -l reports: {r.stderr.strip() or r.returncode}")
            if a.version:
                with gzip.open(p, "rt", encoding="utf-8") as f:
                    if f"anamnesis {a.version}" not in f.read():
                        missing.append(f"{page}: does not carry the version 'anamnesis {a.version}'")

    if missing:
        print(f"check_help_sync: {len(missing)} item(s) out of step with --help:")
        for m in missing:
            print("  " + m)
        print("Add them to the files named (see the comment at the top of each), then rerun "
              "`ctest -R packaging.help_sync`.")
        return 1
    print(f"check_help_sync: {len(groups)} commands, {checked} options/values in step "
          f"(man page, bash, zsh, fish)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
