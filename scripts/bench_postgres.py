#!/usr/bin/env python3
"""The PostgreSQL backend against the SQLite default, in the same run on the same corpus:
full ingest, no-change re-ingest, one-file edit, and Cypher read latency.

Usage: python3 scripts/bench_postgres.py [CORPUS] [--runs N]
CORPUS is a folder under ~/.cache/navegador-corpus (laid out by ../shared/corpus/fetch.sh),
default `django`. The PostgreSQL server is NAVEGADOR_TEST_PG when set, else a throwaway one
started with scripts/pg.sh (on loopback, fsync off: this measures navegador's work and the
wire, not the disk). Prints a markdown table for docs/BENCHMARKS.md."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
BIN = REPO / "target" / "release" / "navegador"
CORPUS = Path.home() / ".cache" / "navegador-corpus"
QUERIES = [
    ("point lookup", "MATCH (f:Function {name: 'get_object_or_404'}) RETURN f.file_path"),
    ("callers, 2 hops", "MATCH (a)-[:CALLS]->(b)-[:CALLS]->(f:Function {name: 'get_object_or_404'}) RETURN count(*)"),
    ("functions by file, top 5", "MATCH (f:File)-[:CONTAINS]->(g:Function) RETURN f.file_path, count(g) AS n ORDER BY n DESC LIMIT 5"),
]


def timed(cmd: list[str]) -> float:
    t = time.perf_counter()
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"{' '.join(cmd[:3])} failed:\n{p.stderr[-2000:]}")
    return time.perf_counter() - t


def main() -> int:
    args = sys.argv[1:]
    runs = 20
    if "--runs" in args:
        i = args.index("--runs")
        runs = int(args[i + 1])
        del args[i : i + 2]
    name = args[0] if args else "django"
    src = CORPUS / name
    if not src.is_dir():
        sys.exit(f"{src} is missing: run ../shared/corpus/fetch.sh first")
    if not BIN.exists():
        sys.exit(f"{BIN} is missing: cargo build --release -p navegador-cli")
    pgdir = None
    base = os.environ.get("NAVEGADOR_TEST_PG")
    if not base:
        pgdir = tempfile.mkdtemp(prefix="navegador-pg-bench.")
        base = subprocess.run(["bash", str(REPO / "scripts/pg.sh"), "start", pgdir], capture_output=True, text=True, check=True).stdout.strip()
    try:
        with tempfile.TemporaryDirectory() as d:
            root = Path(d) / name
            shutil.copytree(src, root, symlinks=True)
            pg = base.rsplit("/", 1)[0] + f"/bench_{name}_{os.getpid()}"
            admin = subprocess.run(["psql", base, "-qc", f"CREATE DATABASE bench_{name}_{os.getpid()}"], capture_output=True, text=True)
            if admin.returncode != 0:
                sys.exit(f"cannot create the benchmark database: {admin.stderr}")
            dbs = {"SQLite": str(Path(d) / "graph.db"), "PostgreSQL": pg}
            rows = []
            edit = next(p for p in sorted(root.rglob("*.py")) if p.stat().st_size > 2000)
            res: dict[str, dict[str, float]] = {k: {} for k in dbs}
            for label, db in dbs.items():
                res[label]["full"] = timed([str(BIN), "ingest", str(root), "--db", db])
                res[label]["nochange"] = timed([str(BIN), "ingest", str(root), "--db", db])
                text = edit.read_text()
                edit.write_text(text + "\n\ndef bench_added():\n    return 1\n")
                res[label]["edit"] = timed([str(BIN), "ingest", str(root), "--db", db])
                edit.write_text(text)
                timed([str(BIN), "ingest", str(root), "--db", db])
                for qname, q in QUERIES:
                    out = subprocess.run(
                        [str(BIN), "query", q, "--db", db, "--repeat", str(runs), "--timeout-ms", "600000"], capture_output=True, text=True, check=True
                    ).stdout
                    res[label][qname] = json.loads(out)["p50_ms"] / 1000
            for key, what in [("full", "full ingest"), ("nochange", "re-ingest, nothing changed"), ("edit", "re-ingest, one file edited")]:
                rows.append((what, res["SQLite"][key], res["PostgreSQL"][key]))
            for qname, _ in QUERIES:
                rows.append((f"Cypher {qname} (p50 of {runs})", res["SQLite"][qname], res["PostgreSQL"][qname]))
            print(f"corpus {name} ({sum(1 for _ in root.rglob('*') if _.is_file())} files), load {os.getloadavg()[0]:.1f}")
            print("| | SQLite | PostgreSQL | PostgreSQL / SQLite |")
            print("|---|---|---|---|")
            for what, a, b in rows:
                unit = lambda s: f"{s:.2f} s" if s >= 1 else f"{s * 1000:.1f} ms"  # noqa: E731
                print(f"| {what} | {unit(a)} | {unit(b)} | {b / a:.2f}x |")
    finally:
        if pgdir:
            subprocess.run(["bash", str(REPO / "scripts/pg.sh"), "stop", pgdir], capture_output=True)
            shutil.rmtree(pgdir, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
