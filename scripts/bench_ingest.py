#!/usr/bin/env python3
"""Ingest benchmark on real third-party trees (../shared/corpus/fetch.sh), with ctags -R on
the same tree in the same run as the peer.

Usage: python3 scripts/bench_ingest.py [django jdk linux ...]
  NAVEGADOR_CORPUS=DIR  where fetch.sh put the trees (default ~/.cache/navegador-corpus)
Prints a markdown table: full ingest wall time, files/s, peak RSS, ctags wall time and the
ratio; no-change re-ingest; re-ingest after editing one file.
"""
import os, resource, subprocess, sys, tempfile, time, json

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.path.join(ROOT, "target", "release", "navegador")
CORPUS = os.environ.get("NAVEGADOR_CORPUS", os.path.expanduser("~/.cache/navegador-corpus"))
EDIT = {  # one representative file per tree for the single-edit measurement
    "django": "django/db/models/query.py",
    "flask": "src/flask/app.py",
    "jdk": "java.base/java/util/ArrayList.java",
    "linux": "kernel/sched/core.c",
    "go": "net/http/server.go",
    "effect": "src/Effect.ts",
}


def run(cmd):
    """Runs cmd, returns (wall seconds, peak RSS MiB of that child, stdout)."""
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    t0 = time.perf_counter()
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    wall = time.perf_counter() - t0
    if p.returncode != 0:
        sys.exit(f"failed: {' '.join(cmd)}\n{p.stderr}")
    # ru_maxrss of RUSAGE_CHILDREN is the max over all children so far: run each measured
    # command in a fresh wrapper to isolate it.
    return wall, p.stdout


def measured(cmd):
    wrapper = [sys.executable, "-c",
               "import resource,subprocess,sys,time;t=time.perf_counter();"
               "p=subprocess.run(sys.argv[1:],stdout=subprocess.PIPE,stderr=subprocess.DEVNULL);"
               "w=time.perf_counter()-t;"
               "print(w, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, p.returncode);"
               "sys.stderr.write(p.stdout.decode(errors='replace'))"] + cmd
    p = subprocess.run(wrapper, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    wall, rss_kb, rc = p.stdout.split()
    if rc != "0":
        sys.exit(f"failed ({rc}): {' '.join(cmd)}")
    return float(wall), int(rss_kb) / 1024, p.stderr


def main():
    names = sys.argv[1:] or ["django", "jdk"]
    if not os.path.exists(BIN):
        sys.exit("build first: cargo build --release --bin navegador")
    print(f"machine: {os.cpu_count()} cores; navegador {BIN}")
    print("| tree | files | full ingest | files/s | peak RSS | ctags -R | ratio | no-change | one edit |")
    print("|---|---|---|---|---|---|---|---|---|")
    for name in names:
        tree = os.path.join(CORPUS, name)
        if not os.path.isdir(tree):
            sys.exit(f"{tree} missing: run ../shared/corpus/fetch.sh {name}")
        with tempfile.TemporaryDirectory() as tmp:
            db = os.path.join(tmp, "graph.db")
            wall, rss, out = measured([BIN, "ingest", tree, "--db", db, "--json"])
            summary = json.loads(out)
            files = summary["files"]
            noop, _, _ = measured([BIN, "ingest", tree, "--db", db, "--json"])
            edit_path = os.path.join(tree, EDIT.get(name, ""))
            one = float("nan")
            if os.path.isfile(edit_path):
                orig = open(edit_path, "rb").read()
                comment = b"\n# navegador bench edit\n" if edit_path.endswith(".py") else b"\n// navegador bench edit\n"
                try:
                    open(edit_path, "wb").write(orig + comment)
                    one, _, _ = measured([BIN, "ingest", tree, "--db", db, "--json"])
                finally:
                    open(edit_path, "wb").write(orig)
                    measured([BIN, "ingest", tree, "--db", db, "--json"])
            tags = os.path.join(tmp, "tags")
            cwall, crss, _ = measured(["ctags", "-R", "-f", tags, tree])
            print(f"| {name} | {files} | {wall:.2f} s | {files / wall:.0f} | {rss:.0f} MiB | {cwall:.2f} s | "
                  f"{wall / cwall:.2f}x | {noop:.3f} s | {one:.3f} s |", flush=True)


if __name__ == "__main__":
    main()
