#!/usr/bin/env python3
"""Gives `rsatool-rsa` the library name `rsatool_rsa` everywhere (issue 51, item 1).

    python3 .ci/rename-rsa-lib.py [--no-fmt] [--dry-run]     (from the repository root)

Before, the package `rsatool-rsa` had `[lib] name = "rsa"`, the workspace called the dependency
`rsa`, and the facades (compat/rsa-0.10, compat/rsa-0.9, themselves libraries named `rsa`)
called it `rsatool`, the CLI's package name. A crate that patched a facade in and ran `cargo
doc` got `output filename collision` (cargo issue 6313). After:

- rsa/Cargo.toml: no `[lib]` name override (the package's default library name, `rsatool_rsa`);
- the workspace dependency and every member's (and fuzz/'s) is keyed `rsatool-rsa`
  (`rsatool-rsa.workspace = true`), features `rsa/x` become `rsatool-rsa/x`;
- in the members (and fuzz/), Rust paths to the crate become `rsatool_rsa::...`: code, tests,
  examples, benches, doc comments and their doc tests; and so in the Markdown files outside
  compat/ (prose and Rust code blocks);
- in the facades (and compat/shared), where `rsa` is the facade's own name and stays: the
  dependency `rsatool = { package = "rsatool-rsa", ... }` becomes `rsatool-rsa = { ... }`, its
  features `rsatool/x` `rsatool-rsa/x`, the paths `rsatool::...` `rsatool_rsa::...`;
- a few sentences that say what the library is called;
- then `cargo fmt` (the longer name moves line breaks) on the workspace, the facades and fuzz/.

What is renamed in Rust text is the crate path only: `rsa` directly before `::`, not preceded
by a letter, digit, `_` or `:` (so `aws_lc_rs::rsa::`, `rsa_rows::`, `rsa09::` stay), and
`use rsa;` / `use rsa as x;` / `extern crate rsa`. Left alone: `rsa` in prose, strings such as
"rsa", `rsa/src` paths, `-p rsatool-rsa`, identifiers; a module `rsa` inside a nested use tree
(`use openssl::{rsa::Rsa, ..}`); paths that name RustCrypto's crate or another library's `rsa`
module (code blocks that mention RustCrypto, the porting guide's "before" examples, and PROTECT
below: inline code followed by "in RustCrypto", AWS-LC's `rsa::KeyPair`). Not rewrapped: a doc
comment line the longer name pushes past 100 columns (rustfmt leaves comments alone). Left for a
person: prose that calls the library `rsa` without a path; the script lists the `rsa::` it left.

Idempotent: a second run changes nothing. Prints each file changed and how many replacements.
"""
import argparse
import bisect
import os
import re
import subprocess
import sys
import tomllib

OLD, NEW = "rsa", "rsatool_rsa"
PKG = "rsatool-rsa"

# The crate path `rsa::`, `::rsa::` at the start of a path, `use rsa;`, `use rsa as`,
# `extern crate rsa`.
RUST_PATH = [
    (re.compile(r"(?<![\w:])rsa(?=::)"), NEW),
    (re.compile(r"(?<![\w:])::rsa(?=::)"), "::" + NEW),
    (re.compile(r"(?<![\w:])((?:pub(?:\([\w: ]+\))?\s+)?use\s+)rsa(?=\s*(?:;|\bas\b))"), r"\1" + NEW),
    (re.compile(r"\bextern\s+crate\s+rsa\b"), "extern crate " + NEW),
]
# The facades' name for rsatool-rsa: `rsatool` (only in compat/, where no other crate has it).
FACADE_PATH = [
    (re.compile(r"(?<![\w:-])rsatool(?=::)"), NEW),
    (re.compile(r"(?<![\w:])((?:pub(?:\([\w: ]+\))?\s+)?use\s+)rsatool(?=\s*(?:;|\bas\b))"), r"\1" + NEW),
    (re.compile(r"\bextern\s+crate\s+rsatool\b(?!-)"), "extern crate " + NEW),
    # intra-doc link target: [rsatool-rsa](rsatool)
    (re.compile(r"\]\(rsatool\)"), "](" + NEW + ")"),
]
# Spans in which `rsa::` is not ours: RustCrypto's crate, AWS-LC's module.
PROTECT = [
    re.compile(r"`rsa::[^`\n]*` in RustCrypto"),
    re.compile(r"RustCrypto(?:'s)? `rsa::[^`\n]*`"),
    re.compile(r"AWS-LC \(`rsa::[^`\n]*`"),
]
# Sentences that say what the library is called: (file, old regex, new text, regex of the new
# sentence). The new text never matches the old regex.
PHRASES = [
    ("ARCHITECTURE.md", r"`rsatool-rsa` \(lib name `rsa`\)", "`rsatool-rsa` (lib name `rsatool_rsa`)",
     r"\(lib name `rsatool_rsa`\)"),
    ("rsa/docs/porting.md", r"\(`rsatool-rsa`, whose(\s+)library is also named `rsa`\)",
     r"(`rsatool-rsa`, whose\1library is `rsatool_rsa`)", r"whose\s+library is `rsatool_rsa`"),
    ("rsa/src/error.rs", r"Everything that can go wrong in `rsa`\.",
     "Everything that can go wrong in `rsatool_rsa`.", r"wrong in `rsatool_rsa`"),
    ("nostd-check/src/lib.rs", r"that `bignum` and `rsa` work", "that `bignum` and `rsatool_rsa` work",
     r"`bignum` and `rsatool_rsa` work"),
    ("benches/Cargo.toml", r"renamed: `rsa` here is ours\.", "renamed (ours is `rsatool_rsa`).",
     r"ours is `rsatool_rsa`"),
    ("compat/rsa-0.9/Cargo.toml", r"our RSA library \(lib name `rsa` too, hence the rename\)",
     "our RSA library (`rsatool-rsa`, library `rsatool_rsa`)", r"library `rsatool_rsa`"),
]

SKIP_DIRS = {"target", ".git", "corpus", "artifacts", "coverage", "node_modules"}
FENCE = re.compile(r"^(\s*)(`{3,}|~{3,})\s*([^`]*)$")


def walk(top, exts):
    for d, dirs, files in os.walk(top):
        dirs[:] = sorted(x for x in dirs if x not in SKIP_DIRS and not x.startswith("."))
        for f in sorted(files):
            if f.endswith(exts):
                yield os.path.join(d, f)


# The start of a `use` item (in code, or in a doc comment's example).
USE = re.compile(r"(?m)^[ \t]*(?://[/!][ \t]?)?(?:#[ \t]*)?(?:pub(?:\([^)]*\))?[ \t]+)?use[ \t]+(?=[\w:{])")


def in_nested_use(text, pos):
    """Whether pos is inside the braces of a `use` tree (`use openssl::{rsa::Rsa, ..}`), where a
    path is relative to its parent, not the crate root."""
    starts = [m.start() for m in USE.finditer(text, 0, pos)]
    if not starts:
        return False
    seg = text[starts[-1]:pos]
    return ";" not in seg and seg.count("{") > seg.count("}")


def sub_all(text, rules, skip_lines=()):
    """Apply rules outside PROTECT's spans, nested use trees and the lines (numbers from 0) in
    skip_lines; returns (text, count)."""
    count = 0
    for rx, repl in rules:
        spans = [m.span() for p in PROTECT for m in p.finditer(text)]
        starts = [0] + [m.end() for m in re.finditer("\n", text)]

        def f(m):
            nonlocal count
            line = bisect.bisect_right(starts, m.start()) - 1
            if (line in skip_lines or any(a <= m.start() < b for a, b in spans)
                    or in_nested_use(m.string, m.start())):
                return m.group(0)
            count += 1
            return m.expand(repl)
        text = rx.sub(f, text)
    return text, count


def rust_block(info):
    """A fence info string whose block rustdoc compiles (or shows as Rust)."""
    tags = {t.strip() for t in info.replace(" ", ",").split(",") if t.strip()}
    return not tags or "rust" in tags or tags <= {"no_run", "should_panic", "compile_fail", "edition2024",
                                                 "edition2021", "ignore"}


def rename_text(text, doc_of, rules):
    """Rename in text, skipping fenced code blocks that are not Rust or that mention RustCrypto
    (the porting guide's "before" examples). doc_of(line) gives the Markdown text of a line (for
    Rust: a doc comment's text; None for a code line, renamed as code)."""
    lines = text.splitlines(keepends=True)
    skip, i = set(), 0
    while i < len(lines):
        doc = doc_of(lines[i])
        m = FENCE.match(doc.rstrip("\n")) if doc is not None else None
        if not m:
            i += 1
            continue
        # a fenced block: up to its closing fence (or the end of the doc comment)
        fence = m.group(2)
        j = i + 1
        while j < len(lines):
            d = doc_of(lines[j])
            if d is None:
                break
            j += 1
            if d.strip().startswith(fence):
                break
        if not rust_block(m.group(3).strip()) or "RustCrypto" in "".join(lines[i + 1:j]):
            skip.update(range(i, j))
        i = j
    return sub_all(text, rules, skip)


RUST_DOC = re.compile(r"^\s*//[/!] ?(.*)$", re.S)


def rust_doc_of(line):
    m = RUST_DOC.match(line)
    return m.group(1) if m else None


def rename_rust(text, rules):
    return rename_text(text, rust_doc_of, rules)


def rename_markdown(text, rules):
    return rename_text(text, lambda line: line, rules)


def rekey_dep(text, old_key, package_check):
    """`old_key = { ... }` dependency lines (any section) whose table says `package = "rsatool-rsa"`
    (or, with package_check False, `workspace = true`) and `old_key.workspace = true` lines:
    keyed `rsatool-rsa`, without the `package` entry. Returns (text, count)."""
    count = 0

    def table(m):
        nonlocal count
        body = m.group(2)
        if re.search(r'\bpackage\s*=\s*"rsatool-rsa"', body):
            body = re.sub(r'\s*\bpackage\s*=\s*"rsatool-rsa"\s*,?', "", body)
            body = re.sub(r",\s*}", " }", body)
        elif package_check or not re.search(r"\bworkspace\s*=\s*true\b", body):
            return m.group(0)
        count += 1
        return f"{m.group(1)}{PKG} = {{ {body.lstrip()}"

    text = re.sub(rf"(?m)^(\s*){re.escape(old_key)}\s*=\s*\{{(.*)$", table, text)
    if not package_check:
        text, n = re.subn(rf"(?m)^(\s*){re.escape(old_key)}\.workspace\s*=\s*true", rf"\1{PKG}.workspace = true", text)
        count += n
    return text, count


def rename_features(text, old_key):
    """`"rsa/x"`, `"rsa?/x"`, `"dep:rsa"` in a manifest: `rsatool-rsa`."""
    k = re.escape(old_key)
    text, a = re.subn(rf'"{k}(\??/)', rf'"{PKG}\1', text)
    text, b = re.subn(rf'"dep:{k}"', f'"dep:{PKG}"', text)
    return text, a + b


def drop_lib_name(text):
    """rsa/Cargo.toml: `[lib] name = "rsa"` gone (the section too if that was all of it)."""
    new, n = re.subn(r'(?m)^\[lib\]\nname = "rsa"\n(?:\n(?=\[))?', "", text)
    if n:
        return new, n
    new, n = re.subn(r'(?ms)^(\[lib\]\n(?:(?!\[)[^\n]*\n)*?)name = "rsa"\n', r"\1", text)
    return new, n


class Changes:
    def __init__(self, dry):
        self.dry, self.files = dry, []

    def write(self, path, old, new, n):
        if new == old:
            return
        self.files.append((path, n))
        if not self.dry:
            with open(path, "w") as f:
                f.write(new)


def read(path):
    with open(path) as f:
        return f.read()


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--no-fmt", action="store_true", help="do not run cargo fmt afterwards")
    ap.add_argument("--dry-run", action="store_true", help="print what would change, write nothing")
    args = ap.parse_args()
    if not (os.path.isfile("Cargo.toml") and os.path.isfile("rsa/Cargo.toml")):
        sys.exit("rename-rsa-lib: run from the repository root")
    if tomllib.loads(read("rsa/Cargo.toml"))["package"]["name"] != PKG:
        sys.exit("rename-rsa-lib: rsa/Cargo.toml is not the rsatool-rsa package")
    ch = Changes(args.dry_run)
    notes = []

    # 1. Manifests.
    root = tomllib.loads(read("Cargo.toml"))
    members = list(root["workspace"]["members"])
    text = read("rsa/Cargo.toml")
    new, n = drop_lib_name(text)
    ch.write("rsa/Cargo.toml", text, new, n)
    text = read("Cargo.toml")
    new, n = rekey_dep(text, OLD, package_check=True)
    ch.write("Cargo.toml", text, new, n)
    for d in members + ["fuzz"]:
        path = os.path.join(d, "Cargo.toml")
        if d == "rsa" or not os.path.isfile(path):
            continue
        text = read(path)
        new, n = rekey_dep(text, OLD, package_check=False)
        new, n2 = rekey_dep(new, OLD, package_check=True)
        if n + n2:  # its `rsa` was ours: so are its features' `rsa/...`
            new, n3 = rename_features(new, OLD)
            n += n2 + n3
        ch.write(path, text, new, n)
        if re.search(r"(?m)^\[(?:[\w.-]*\.)?dependencies\.rsa\]", new):
            notes.append(f"{path}: a [dependencies.rsa] table: rename it by hand")
    facades = [d for d in ("compat/rsa-0.10", "compat/rsa-0.9") if os.path.isdir(d)]
    for d in facades:
        path = os.path.join(d, "Cargo.toml")
        text = read(path)
        new, n = rekey_dep(text, "rsatool", package_check=True)
        new, n2 = rename_features(new, "rsatool")
        ch.write(path, text, new, n + n2)

    # 2. Rust sources: the members and fuzz/ (crate `rsa`), the facades and compat/shared
    # (crate `rsatool`).
    for d in members + ["fuzz"]:
        if d == "fuzz" and not os.path.isdir(d):
            continue
        for path in walk(d, (".rs",)):
            text = read(path)
            new, n = rename_rust(text, RUST_PATH)
            ch.write(path, text, new, n)
    for d in facades + ["compat/shared"]:
        if not os.path.isdir(d):
            continue
        for path in walk(d, (".rs",)):
            text = read(path)
            new, n = rename_rust(text, FACADE_PATH)
            ch.write(path, text, new, n)

    # 3. Markdown: outside compat/ the crate `rsa`; in compat/ only the facades' `rsatool`.
    for path in walk(".", (".md",)):
        path = os.path.relpath(path)
        rules = FACADE_PATH if path.startswith("compat" + os.sep) else RUST_PATH
        text = read(path)
        new, n = rename_markdown(text, rules)
        ch.write(path, text, new, n)

    # 4. Sentences about the name (after the rules above, over what they wrote).
    for path, old, repl, done in PHRASES:
        if not os.path.isfile(path):
            notes.append(f"{path}: not there (it had a sentence about the library's name)")
            continue
        text = read(path)
        new, n = re.subn(old, repl, text)
        if n:
            ch.write(path, text, new, n)
        elif not re.search(done, text):
            notes.append(f"{path}: its sentence about the library's name has changed: check it by hand")

    # Merge entries for a file written twice (step 4 after step 2 or 3).
    merged = {}
    for path, n in ch.files:
        merged[path] = merged.get(path, 0) + n
    verb = "would change" if args.dry_run else "changed"
    print(f"rename-rsa-lib: {len(merged)} files {verb}")
    for path, n in sorted(merged.items()):
        print(f"  {n:4d}  {path}")

    # 5. Formatting: a longer crate name moves line breaks and the order of `use` lines.
    if not args.no_fmt and not args.dry_run:
        cmds = [["cargo", "fmt", "--all"]]
        cmds += [["cargo", "fmt", "--manifest-path", f"{d}/Cargo.toml"] for d in facades]
        if os.path.isfile("fuzz/Cargo.toml"):
            cmds.append(["cargo", "fmt", "--manifest-path", "fuzz/Cargo.toml"])
        for cmd in cmds:
            r = subprocess.run(cmd)
            if r.returncode != 0:
                sys.exit(f"rename-rsa-lib: {' '.join(cmd)} failed")
        print("rename-rsa-lib: cargo fmt run on the workspace, " + ", ".join(facades + ["fuzz"]))

    # 6. What is left for a person: `rsa::` paths still in the members' Rust text.
    left = []
    for d in [] if args.dry_run else members + ["fuzz"]:
        for path in walk(d, (".rs",)) if os.path.isdir(d) else []:
            for i, line in enumerate(read(path).splitlines(), 1):
                if re.search(r"(?<![\w:])rsa::", line):
                    left.append(f"{path}:{i}: {line.strip()}")
    if left:
        notes.append("`rsa::` left (protected as not ours; check):\n    " + "\n    ".join(left))
    for note in notes:
        print("rename-rsa-lib: note: " + note)


if __name__ == "__main__":
    main()
