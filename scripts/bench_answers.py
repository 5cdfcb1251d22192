#!/usr/bin/env python3
"""What an agent receives (issue 12's "Speed and size"): fixed agent tasks over real corpora,
asked through the official MCP Python SDK at default arguments, with the size and latency of
each answer, the size of `tools/list`, and the answers the SDK (or jsonschema) rejects.

Usage: .venv-test/bin/python scripts/bench_answers.py [--bin PATH] [--label NAME] [--runs N]
                                                      [--only TREE,...] [--json OUT]
  --bin    the navegador binary (default target/release/navegador)
  --label  names the graph cache and the report column (default: after)
  --runs   timed calls per task (default 3; the size is the same every time)
  --only   run only these trees (django, flask, gin, rxjs, jdk)
  --json   also write every measurement as JSON

Each tree of $NAVEGADOR_CORPUS (default ~/.cache/navegador-corpus) is ingested once by that
binary into $NAVEGADOR_BENCH_CACHE/answers-<label>/<tree>.db (default ~/.cache/navegador-bench;
delete it to re-ingest): the graph is outside the tree, nothing is written into the corpus.
Then one `navegador mcp --no-watch` session per tree answers the tasks. Size is the bytes of
the answer's text content (what an agent reads; the same JSON as the structured content).
Targets at default arguments: p95 answer <= 16 KB, none over 64 KB, tools/list <= 30 KB, no
rejection. Run it with the SDK's virtualenv (`scripts/test.sh` builds .venv-test).
"""
from __future__ import annotations

import asyncio
import json
import os
import statistics
import subprocess
import sys
import time

from jsonschema import Draft202012Validator
from mcp import Client
from mcp.client.stdio import StdioServerParameters

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.environ.get("NAVEGADOR_CORPUS", os.path.expanduser("~/.cache/navegador-corpus"))
CACHE = os.environ.get("NAVEGADOR_BENCH_CACHE", os.path.expanduser("~/.cache/navegador-bench"))
TREES = ["django", "flask", "gin", "rxjs", "jdk"]

# (tree, what the agent wants, tool, arguments). Default arguments only: the targets are
# about what an agent gets without knowing our budget arguments.
TASKS = [
    # Django
    ("django", "callers of a hot helper", "code.trace_callers", {"path": "django/utils/encoding.py", "symbol": "force_str"}),
    ("django", "recursive callers of a hot helper", "code.trace_callers",
     {"path": "django/utils/encoding.py", "symbol": "force_str", "recursive": True}),
    ("django", "callers of a method called through self", "code.trace_callers", {"path": "django/db/models/sql/query.py", "symbol": "Query.join"}),
    ("django", "callers of an overridden method", "code.trace_callers", {"path": "django/db/models/base.py", "symbol": "Model.save"}),
    ("django", "what a view helper calls", "code.trace_symbol", {"path": "django/shortcuts.py", "symbol": "get_object_or_404"}),
    ("django", "definitions of a common name", "code.find_symbol", {"symbol": "Field"}),
    ("django", "text search", "code.search_text", {"query": "def get_queryset"}),
    ("django", "a package's files", "code.inspect_tree", {"path": "django/db"}),
    ("django", "the URL routes", "code.list_endpoints", {}),
    ("django", "function context of a hot helper", "function", {"name": "force_str"}),
    ("django", "a class with many subclasses", "class", {"name": "Field", "file": "django/db/models/fields/__init__.py"}),
    ("django", "context of a small file", "context", {"file": "django/shortcuts.py"}),
    ("django", "context of a big file", "context", {"file": "django/db/models/query.py"}),
    ("django", "blast radius of a utility", "blast_radius", {"name": "force_str"}),
    ("django", "explain a method", "explain", {"name": "Field.deconstruct", "file": "django/db/models/fields/__init__.py"}),
    ("django", "search a concept", "search", {"query": "csrf token"}),
    ("django", "search another concept", "search", {"query": "password hasher"}),
    ("django", "a Cypher count", "query", {"cypher": "MATCH (c:Class)-[:INHERITS]->(b:Class {name: 'Field'}) RETURN c.name AS name, c.file_path AS file LIMIT 100"}),
    ("django", "owners of a file", "find_owners", {"name": "django/shortcuts.py"}),
    ("django", "rationale of a function", "get_rationale", {"name": "force_str"}),
    ("django", "knowledge search", "search_knowledge", {"query": "cache"}),
    # Flask
    ("flask", "callers of a decorator", "code.trace_callers", {"path": "src/flask/sansio/scaffold.py", "symbol": "setupmethod"}),
    ("flask", "callers of a method", "code.trace_callers", {"path": "src/flask/app.py", "symbol": "Flask.make_response"}),
    ("flask", "context of the app module", "context", {"file": "src/flask/app.py"}),
    ("flask", "the app class", "class", {"name": "Flask", "file": "src/flask/app.py"}),
    ("flask", "a method's context", "function", {"name": "Flask.make_response"}),
    ("flask", "the routes", "code.list_endpoints", {}),
    ("flask", "re-index (nothing changed)", "ingest", {"path": "."}),
    # gin
    ("gin", "callers of a method", "code.trace_callers", {"path": "context.go", "symbol": "Context.JSON"}),
    ("gin", "what ServeHTTP calls", "code.trace_symbol", {"path": "gin.go", "symbol": "Engine.ServeHTTP"}),
    ("gin", "blast radius of a constructor", "blast_radius", {"name": "New", "file": "gin.go"}),
    ("gin", "the routes", "code.list_endpoints", {}),
    ("gin", "text search", "code.search_text", {"query": "c.JSON("}),
    # rxjs
    ("rxjs", "callers of an overridden method", "code.trace_callers", {"path": "src/internal/AsyncSubject.ts", "symbol": "AsyncSubject.complete"}),
    ("rxjs", "a class with many subclasses", "class", {"name": "Subject", "file": "src/internal/Subject.ts"}),
    ("rxjs", "recursive callers", "code.trace_callers", {"path": "src/internal/Observable.ts", "symbol": "Observable.subscribe", "recursive": True}),
    ("rxjs", "search an operator", "search", {"query": "switchMap"}),
    ("rxjs", "find a symbol", "code.find_symbol", {"symbol": "pipe"}),
    # JDK
    ("jdk", "callers of a hot helper", "code.trace_callers", {"path": "java.base/java/util/Objects.java", "symbol": "requireNonNull"}),
    ("jdk", "recursive callers of a helper", "code.trace_callers",
     {"path": "java.base/java/util/AbstractList.java", "symbol": "AbstractList.rangeCheckForAdd", "recursive": True}),
    ("jdk", "a class with many subclasses", "class", {"name": "AbstractList", "file": "java.base/java/util/AbstractList.java"}),
    ("jdk", "find a class", "code.find_symbol", {"symbol": "HashMap"}),
    ("jdk", "text search", "code.search_text", {"query": "ConcurrentHashMap"}),
    ("jdk", "a hot helper's context", "function", {"name": "requireNonNull", "file": "java.base/java/util/Objects.java"}),
    ("jdk", "what a method calls", "code.trace_symbol", {"path": "java.base/java/util/HashMap.java", "symbol": "HashMap.putVal"}),
]


def ingest(binary: str, tree: str, db: str) -> None:
    if os.path.exists(db):
        return
    os.makedirs(os.path.dirname(db), exist_ok=True)
    tmp = db + ".partial"
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(tmp + suffix):
            os.remove(tmp + suffix)
    print(f"# ingesting {tree} into {db} ...", file=sys.stderr, flush=True)
    subprocess.run([binary, "ingest", os.path.join(CORPUS, tree), "--db", tmp], check=True, stdout=subprocess.DEVNULL)
    os.rename(tmp, db)


def server(binary: str, tree: str, db: str) -> StdioServerParameters:
    return StdioServerParameters(command=binary, args=["mcp", "--no-watch", "--workspace-root", os.path.join(CORPUS, tree), "--db", db])


def listing_size(tools) -> int:
    """Bytes of the tools/list result as JSON (compact, as the server sends it)."""
    listed = [t.model_dump(mode="json", by_alias=True, exclude_none=True) for t in tools]
    return len(json.dumps({"tools": listed}, separators=(",", ":")).encode())


async def ask(c, schemas: dict, tool: str, args: dict) -> dict:
    """One call: {size, ms, status, rejected} (rejected: the SDK or jsonschema refused it)."""
    t0 = time.perf_counter()
    try:
        r = await c.call_tool(tool, args)
    except Exception as e:  # the SDK's "Invalid structured content" and any other failure
        ms = (time.perf_counter() - t0) * 1000
        rejected = "structured content" in str(e) or "schema" in str(e).lower()
        return {"size": 0, "ms": ms, "status": "rejected" if rejected else "failed", "rejected": rejected, "error": str(e)[:300]}
    ms = (time.perf_counter() - t0) * 1000
    text = "".join(getattr(b, "text", "") for b in r.content)
    out = {"size": len(text.encode()), "ms": ms, "rejected": False}
    if r.is_error:
        out["status"] = "tool error"
        out["error"] = text[:300]
        return out
    s = r.structured_content
    out["status"] = s.get("status", "ok") if isinstance(s, dict) and "tool" in s else "ok"
    schema = schemas.get(tool)
    if schema is not None:
        errors = list(Draft202012Validator(schema).iter_errors(s))
        if errors:
            out["rejected"] = True
            out["error"] = errors[0].message[:300]
    return out


async def run_tree(binary: str, label: str, tree: str, runs: int) -> tuple[list[dict], int]:
    db = os.path.join(CACHE, f"answers-{label}", f"{tree}.db")
    ingest(binary, tree, db)
    rows = []
    async with Client(server(binary, tree, db)) as c:
        tools = (await c.list_tools()).tools
        schemas = {t.name: t.output_schema for t in tools}
        size = listing_size(tools)
        for t, what, tool, args in TASKS:
            if t != tree:
                continue
            calls = [await ask(c, schemas, tool, args) for _ in range(max(runs, 1))]
            first = calls[0]
            rows.append({"tree": tree, "task": what, "tool": tool, "args": args, "size": first["size"],
                         "ms": statistics.median(x["ms"] for x in calls), "status": first["status"],
                         "rejected": any(x["rejected"] for x in calls), "error": first.get("error")})
            print(f"# {tree:6} {tool:20} {first['size']:>8} B {rows[-1]['ms']:8.1f} ms {first['status']:10} {what}",
                  file=sys.stderr, flush=True)
    return rows, size


def pct(values: list[float], p: float) -> float:
    v = sorted(values)
    if not v:
        return 0
    k = (len(v) - 1) * p
    lo, hi = int(k), min(int(k) + 1, len(v) - 1)
    return v[lo] + (v[hi] - v[lo]) * (k - lo)


def report(rows: list[dict], listing: int, label: str) -> str:
    out = [f"### {label}", "", f"tools/list: {listing:,} bytes", "",
           "| tool | tasks | size p50 | size p95 | size max | latency p50 | latency p95 |", "|---|---|---|---|---|---|---|"]
    by_tool: dict[str, list[dict]] = {}
    for r in rows:
        by_tool.setdefault(r["tool"], []).append(r)
    for tool, rs in sorted(by_tool.items()):
        sizes = [r["size"] for r in rs]
        ms = [r["ms"] for r in rs]
        out.append(f"| {tool} | {len(rs)} | {pct(sizes, .5):,.0f} | {pct(sizes, .95):,.0f} | {max(sizes):,} | {pct(ms, .5):.1f} ms | {pct(ms, .95):.1f} ms |")
    sizes = [r["size"] for r in rows]
    out += ["", f"all {len(rows)} tasks: size p50 {pct(sizes, .5):,.0f} B, p95 {pct(sizes, .95):,.0f} B, max {max(sizes):,} B; "
            f"over 16 KB: {sum(s > 16384 for s in sizes)}, over 64 KB: {sum(s > 65536 for s in sizes)}; "
            f"rejected: {sum(r['rejected'] for r in rows)}; failed: {sum(r['status'] == 'failed' for r in rows)}; "
            f"tool errors: {sum(r['status'] == 'tool error' for r in rows)}", ""]
    out += ["| tree | task | tool | bytes | ms | status |", "|---|---|---|---|---|---|"]
    for r in rows:
        flag = " REJECTED" if r["rejected"] else ""
        out.append(f"| {r['tree']} | {r['task']} | {r['tool']} | {r['size']:,} | {r['ms']:.1f} | {r['status']}{flag} |")
    return "\n".join(out)


def main() -> int:
    args = sys.argv[1:]
    opt = {"--bin": os.path.join(ROOT, "target", "release", "navegador"), "--label": "after", "--runs": "3", "--only": ",".join(TREES), "--json": ""}
    i = 0
    while i < len(args):
        if args[i] in opt and i + 1 < len(args):
            opt[args[i]] = args[i + 1]
            i += 2
        else:
            print(__doc__, file=sys.stderr)
            return 2
    binary = os.path.abspath(opt["--bin"])
    if not os.path.exists(binary):
        print(f"{binary} does not exist: build it with `cargo build --release -p navegador-cli`", file=sys.stderr)
        return 2
    rows, listing = [], 0
    for tree in [t for t in opt["--only"].split(",") if t]:
        if not os.path.isdir(os.path.join(CORPUS, tree)):
            print(f"# {tree}: not in {CORPUS} (../shared/corpus/fetch.sh {tree}); skipped", file=sys.stderr)
            continue
        r, listing = asyncio.run(run_tree(binary, opt["--label"], tree, int(opt["--runs"])))
        rows += r
    print(report(rows, listing, opt["--label"]))
    if opt["--json"]:
        with open(opt["--json"], "w") as f:
            json.dump({"label": opt["--label"], "tools_list_bytes": listing, "rows": rows}, f, indent=1)
    return 1 if any(r["rejected"] for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
