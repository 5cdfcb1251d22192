#!/usr/bin/env python3
"""`navegador export` on big graphs: wall time, peak RSS and output size per format, with a
peer measured in the same run (the machine is shared: compare ratios, not seconds). The
peer reads the same `nodes` and `edges` tables with Python's sqlite3 and writes them as JSON
Lines, the least an exporter does.

    python3 scripts/bench_export.py --db jdk=PATH --db django=PATH [--formats jsonl,graphml,...] [--out-dir /tmp/x]

Graphs come from `navegador ingest CORPUS --db PATH` (they are not made here). Outputs are
deleted after each run. Prints a markdown table.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.path.join(ROOT, "target", "release", "navegador")
FORMATS = ["jsonl", "graphml", "dot", "cypher", "mermaid"]

PEER = r"""
import json, sqlite3, sys
c = sqlite3.connect(f"file:{sys.argv[1]}?mode=ro", uri=True)
with open(sys.argv[2], "w") as out:
    for row in c.execute("SELECT id, label, name, qualified_name, file_path, line_start, line_end, props FROM nodes ORDER BY id"):
        p = json.loads(row[7] or "{}")
        p.update({k: v for k, v in zip(("name", "qualified_name", "file_path", "line_start", "line_end"), row[2:7]) if v is not None})
        out.write(json.dumps({"type": "node", "id": row[0], "labels": [row[1]], "properties": p}) + "\n")
    for row in c.execute("SELECT id, src, dst, type, resolution, line, col, props FROM edges ORDER BY id"):
        p = json.loads(row[7] or "{}")
        p.update({k: v for k, v in zip(("resolution", "line", "column"), row[4:7]) if v is not None})
        out.write(json.dumps({"type": "edge", "id": row[0], "label": row[3], "source": row[1], "target": row[2], "properties": p}) + "\n")
"""


def timed(cmd: list[str], out: str) -> dict:
    """Wall seconds, peak RSS (MiB, from GNU time) and output bytes of one run."""
    t0 = time.perf_counter()
    r = subprocess.run(["/usr/bin/time", "-f", "%M", *cmd], capture_output=True, text=True)
    wall = time.perf_counter() - t0
    if r.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed: {r.stderr.strip()[-500:]}")
    rss_kib = int(r.stderr.strip().splitlines()[-1])
    size = os.path.getsize(out)
    os.remove(out)
    return {"s": wall, "rss": rss_kib / 1024, "bytes": size}


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--db", action="append", required=True, help="NAME=PATH of an ingested graph")
    ap.add_argument("--formats", default=",".join(FORMATS))
    ap.add_argument("--out-dir", default=None)
    ap.add_argument("--bin", default=BIN)
    a = ap.parse_args()
    out_dir = a.out_dir or tempfile.mkdtemp(prefix="bench-export-")
    print("| graph | format | nodes+edges | s | peak RSS MiB | output MB | peer s (Python jsonl) | ratio |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for spec in a.db:
        name, path = spec.split("=", 1)
        for fmt in a.formats.split(","):
            out = os.path.join(out_dir, f"{name}.{fmt}")
            peer = timed([sys.executable, "-c", PEER, path, out], out)
            r = subprocess.run([a.bin, "stats", "--json", "--db", path], capture_output=True, text=True, check=True)
            import json

            st = json.loads(r.stdout)
            total = sum(st["labels"].values()) + sum(st["relationships"].values())
            ours = timed([a.bin, "export", "--format", fmt, "--db", path, "--out", out], out)
            print(
                f"| {name} | {fmt} | {total:,} | {ours['s']:.1f} | {ours['rss']:.0f} | {ours['bytes'] / 1e6:.0f} | "
                f"{peer['s']:.1f} | {ours['s'] / peer['s']:.2f} |",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
