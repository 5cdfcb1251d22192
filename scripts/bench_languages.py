#!/usr/bin/env python3
"""Per-language figures on real corpora, a benchmark (not a test): for each language's
pack, on one real tree,

  - definition recall against Universal Ctags on the same files: the share of ctags'
    functions, methods, classes, interfaces, structs, enums (and traits, unions) that we
    extract as a Class/Function/Method of that name whose range holds ctags' line;
  - files with a syntax error (our diagnostic), as a share of the files;
  - extraction speed (files/s of `dump_facts`, one thread);
  - the share of call sites resolved (exact/inferred/ambiguous vs all, from an ingest).

Usage: python3 scripts/bench_languages.py [python typescript ...] [--no-ingest]
  needs: cargo build --release --bin navegador --example dump_facts -p navegador-lang ...
         (the script builds the example itself), ctags (Universal Ctags, JSON output)
  NAVEGADOR_CORPUS=DIR (default ~/.cache/navegador-corpus); the Rust and C trees are
  crates of the local cargo registry (~/.cargo/registry/src).
Prints a markdown table for docs/languages.md and docs/BENCHMARKS.md.
"""
import glob, json, os, sqlite3, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.environ.get("NAVEGADOR_CORPUS", os.path.expanduser("~/.cache/navegador-corpus"))
REGISTRY = (glob.glob(os.path.expanduser("~/.cargo/registry/src/*/")) or [""])[0]
DUMP = os.path.join(ROOT, "target", "release", "examples", "dump_facts")
NAV = os.path.join(ROOT, "target", "release", "navegador")

# language -> (tree, ctags language, ctags kinds that are definitions, our extensions)
LANGS = {
    "python": (f"{CORPUS}/django/django", "Python", {"class", "function", "member"}, ("py",)),
    "typescript": (f"{CORPUS}/effect/src", "TypeScript", {"class", "function", "interface", "enum", "method"}, ("ts",)),
    "javascript": (f"{CORPUS}/react-native/Libraries", "JavaScript", {"class", "function", "method", "getter", "setter", "generator"}, ("js",)),
    "java": (f"{CORPUS}/jdk/java.base", "Java", {"class", "interface", "enum", "method", "annotation"}, ("java",)),
    "go": (f"{CORPUS}/go/net", "Go", {"func", "struct", "interface", "methodSpec"}, ("go",)),
    "rust": (f"{REGISTRY}tokio-1.54.1/src", "Rust", {"function", "method", "struct", "enum", "interface"}, ("rs",)),
    "c": (f"{REGISTRY}ring-0.17.14/crypto", "C", {"function", "struct", "union", "enum"}, ("c",)),
}


def ctags_defs(tree, lang, kinds, exts):
    out = subprocess.run(["ctags", "-R", f"--languages={lang}", "--output-format=json", "--fields=+nK", "-f", "-", "."],
                         cwd=tree, capture_output=True, text=True, check=True).stdout
    defs = []
    for line in out.splitlines():
        t = json.loads(line)
        path = t.get("path", "").removeprefix("./")
        if t.get("kind") in kinds and path.rsplit(".", 1)[-1] in exts:
            defs.append((path, t["name"], t["line"]))
    return defs


def our_facts(tree, exts):
    t0 = time.perf_counter()
    out = subprocess.run([DUMP, tree], capture_output=True, text=True, check=True).stdout
    secs = time.perf_counter() - t0
    defs, files, broken, cur = {}, 0, 0, None
    for line in out.splitlines():
        if line.startswith("=== "):
            cur = line[4:]
            files += cur.rsplit(".", 1)[-1] in exts
            continue
        if cur is None or cur.rsplit(".", 1)[-1] not in exts:
            continue
        s = line.lstrip()
        head = s.split(" ", 2)
        if head[0] in ("Class", "Function", "Method") and len(head) > 1:
            name = head[1].replace("::", ".").rsplit(".", 1)[-1]
            rng = next((w for w in s.split() if w.startswith("L") and "-" in w), None)
            if rng:
                a, b = rng[1:].split("-")
                defs.setdefault((cur, name), []).append((int(a), int(b)))
        elif s.startswith("diagnostic") and "syntax error" in s:
            broken += 1
    return defs, files, broken, secs


def resolved_share(tree, exts):
    with tempfile.TemporaryDirectory() as tmp:
        db = os.path.join(tmp, "g.db")
        subprocess.run([NAV, "ingest", tree, "--db", db, "--json"], check=True, capture_output=True)
        con = sqlite3.connect(db)
        rows = con.execute("SELECT file_path, status FROM refs WHERE kind = 'call'").fetchall()
        con.close()
    rows = [s for p, s in rows if p.rsplit(".", 1)[-1] in exts]
    return sum(s != "unresolved" for s in rows) / max(len(rows), 1), len(rows)


def main():
    names = [a for a in sys.argv[1:] if not a.startswith("-")] or list(LANGS)
    ingest = "--no-ingest" not in sys.argv
    subprocess.run(["cargo", "build", "--release", "-q", "-p", "navegador-lang", "--example", "dump_facts"], cwd=ROOT, check=True)
    if ingest and not os.path.exists(NAV):
        sys.exit("build first: cargo build --release --bin navegador")
    print(f"machine: {os.cpu_count()} cores; ctags: {subprocess.run(['ctags', '--version'], capture_output=True, text=True).stdout.splitlines()[0]}")
    print("| language | tree | files | ctags definitions | recall | files with a syntax error | files/s (1 thread) | call sites resolved |")
    print("|---|---|---|---|---|---|---|---|")
    for name in names:
        tree, lang, kinds, exts = LANGS[name]
        if not os.path.isdir(tree):
            print(f"| {name} | {tree} missing | | | | | | |")
            continue
        theirs = ctags_defs(tree, lang, kinds, exts)
        ours, files, broken, secs = our_facts(tree, exts)
        found = sum(any(a <= line <= b for a, b in ours.get((p, n), [])) for p, n, line in theirs)
        share, sites = resolved_share(tree, exts) if ingest else (float("nan"), 0)
        short = tree.replace(CORPUS + "/", "").replace(REGISTRY, "crates.io/")
        print(f"| {name} | {short} | {files} | {len(theirs)} | {found / max(len(theirs), 1):.3f} | "
              f"{broken} ({broken / max(files, 1):.1%}) | {files / secs:.0f} | {share:.3f} of {sites} |", flush=True)


if __name__ == "__main__":
    main()
