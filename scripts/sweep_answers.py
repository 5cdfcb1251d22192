#!/usr/bin/env python3
"""Every tool, many arguments, real corpora, through the official MCP Python SDK: no answer
may be rejected (issue 12, "Schemas are true").

Usage: .venv-test/bin/python scripts/sweep_answers.py [--bin PATH] [--label NAME] [--symbols N]
                                                      [--only TREE,...]
  --symbols  symbols sampled per tree (default 12), every tool asked about each

For each tree (django, flask, gin, rxjs, jdk by default; the graph is built once like
scripts/bench_answers.py builds it, outside the tree), N classes, functions and methods are
sampled from the graph (evenly over node ids: the same every run), and each is asked of all
17 tools with default and non-default arguments (recursive traces, ambiguous edges listed,
a later page, tests left out, source included, fuzzy matches, markdown context). Each answer
is checked by the SDK (which validates structured content against the published output
schema) and again with jsonschema. A tool error (`isError`, e.g. a name that matches
several definitions) is counted, not a failure; a rejected answer or a failed call is.
Exit status 1 when any answer was rejected or any call failed.
"""
from __future__ import annotations

import asyncio
import os
import sqlite3
import sys

from mcp import Client

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_answers import CACHE, CORPUS, ROOT, TREES, ask, ingest, server  # noqa: E402


def sample(db: str, n: int) -> list[dict]:
    """n definitions spread over the graph: {label, name, display, file}."""
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    rows = con.execute(
        "SELECT label, name, json_extract(props, '$.class_name'), file_path FROM nodes "
        "WHERE label IN ('Class', 'Function', 'Method') AND file_path IS NOT NULL AND name <> '' ORDER BY id"
    ).fetchall()
    con.close()
    step = max(len(rows) // max(n, 1), 1)
    out = []
    for label, name, cls, file in rows[::step][:n]:
        display = f"{cls}.{name}" if label == "Method" and cls else name
        out.append({"label": label, "name": name, "display": display, "file": file})
    return out


def calls_for(s: dict) -> list[tuple[str, dict]]:
    f, name, display = s["file"], s["name"], s["display"]
    trace = {"path": f, "symbol": display}
    calls = [
        ("code.find_symbol", {"symbol": name}),
        ("code.find_symbol", {"symbol": name[:4], "match": "fuzzy", "limit": 20}),
        ("code.find_symbol", {"symbol": name, "include_source": True}),
        ("code.trace_callers", trace),
        ("code.trace_callers", {**trace, "recursive": True}),
        ("code.trace_callers", {**trace, "include_ambiguous": True, "limit": 5, "offset": 5}),
        ("code.trace_callers", {**trace, "recursive": True, "max_depth": 5, "include_ambiguous": True, "exclude_tests": True}),
        ("code.trace_callers", {**trace, "min_resolution": "exact"}),
        ("code.trace_symbol", trace),
        ("code.trace_symbol", {**trace, "include_ambiguous": True, "limit": 100}),
        ("code.search_text", {"query": name, "context": 0}),
        ("code.inspect_tree", {"path": os.path.dirname(f) or ".", "max_depth": 1, "include_stats": True}),
        ("context", {"file": f}),
        ("context", {"file": f, "format": "markdown"}),
        ("explain", {"name": name, "file": f}),
        ("blast_radius", {"name": name, "file": f}),
        ("get_rationale", {"name": name, "file": f}),
        ("find_owners", {"name": name, "file": f}),
        ("search", {"query": name}),
        ("search_knowledge", {"query": name}),
        ("query", {"cypher": "MATCH (n {name: $name}) RETURN n.name AS name, labels(n) AS labels, n.file_path AS file LIMIT 20",
                   "params": {"name": name}}),
    ]
    if s["label"] == "Class":
        calls.append(("class", {"name": name, "file": f}))
    else:
        calls.append(("function", {"name": name, "file": f}))
        calls.append(("function", {"name": name, "file": f, "depth": 2}))
    return calls


async def sweep(binary: str, label: str, tree: str, n: int, tally: dict) -> None:
    db = os.path.join(CACHE, f"answers-{label}", f"{tree}.db")
    ingest(binary, tree, db)
    async with Client(server(binary, tree, db)) as c:
        schemas = {t.name: t.output_schema for t in (await c.list_tools()).tools}
        calls = [("code.list_endpoints", {}), ("code.list_endpoints", {"kind": "rest", "limit": 200}), ("code.inspect_tree", {})]
        for s in sample(db, n):
            calls += calls_for(s)
        if tree == "flask":
            calls.append(("ingest", {"path": "."}))
        for tool, args in calls:
            r = await ask(c, schemas, tool, args)
            t = tally.setdefault(tool, {"answers": 0, "tool errors": 0, "rejected": 0, "failed": 0})
            t["answers"] += 1
            if r["rejected"]:
                t["rejected"] += 1
                print(f"REJECTED {tree} {tool} {args}: {r.get('error')}", file=sys.stderr)
            elif r["status"] == "failed":
                t["failed"] += 1
                print(f"FAILED {tree} {tool} {args}: {r.get('error')}", file=sys.stderr)
            elif r["status"] == "tool error":
                t["tool errors"] += 1
    print(f"# {tree}: {len(calls)} calls", file=sys.stderr, flush=True)


def main() -> int:
    args = sys.argv[1:]
    opt = {"--bin": os.path.join(ROOT, "target", "release", "navegador"), "--label": "after", "--symbols": "12", "--only": ",".join(TREES)}
    i = 0
    while i < len(args):
        if args[i] in opt and i + 1 < len(args):
            opt[args[i]] = args[i + 1]
            i += 2
        else:
            print(__doc__, file=sys.stderr)
            return 2
    binary = os.path.abspath(opt["--bin"])
    tally: dict = {}
    for tree in [t for t in opt["--only"].split(",") if t]:
        if not os.path.isdir(os.path.join(CORPUS, tree)):
            print(f"# {tree}: not in {CORPUS}; skipped", file=sys.stderr)
            continue
        asyncio.run(sweep(binary, opt["--label"], tree, int(opt["--symbols"]), tally))
    print("| tool | answers | tool errors | rejected | failed |\n|---|---|---|---|---|")
    for tool, t in sorted(tally.items()):
        print(f"| {tool} | {t['answers']} | {t['tool errors']} | {t['rejected']} | {t['failed']} |")
    total = {k: sum(t[k] for t in tally.values()) for k in ("answers", "tool errors", "rejected", "failed")}
    print(f"\n{total['answers']} answers of {len(tally)} tools: {total['rejected']} rejected, {total['failed']} failed, "
          f"{total['tool errors']} tool errors")
    return 1 if total["rejected"] or total["failed"] else 0


if __name__ == "__main__":
    sys.exit(main())
