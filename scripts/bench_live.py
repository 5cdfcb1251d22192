#!/usr/bin/env python3
"""Live-edit benchmark: the MCP server (`navegador mcp`, live index on) on a scratch copy of a
real tree, a sequence of edits, each followed by a graph-backed call through the official
MCP SDK; the time from the save to an answer that reflects the edit. `rg -w` (`grep -rnw` where rg is
missing) answering the same question on the same tree right after the same save is the peer.

Usage: .venv-test/bin/python scripts/bench_live.py [flask django jdk ...] [--rounds N] [--cli]
  NAVEGADOR_CORPUS=DIR  where the trees are (default ~/.cache/navegador-corpus)
  NAVEGADOR_SCRATCH=DIR where the copies go (default /tmp/navegador-live); removed after
  --cli                 also time the CLI's nothing-changed and one-file re-ingest on the copy

The sequence, on one file of each tree (`EDIT`): a comment at the top (the answer's line of
a known symbol moves by one), a new function and a call to it (`code.trace_callers` lists
the caller), a body change that drops the call (no caller left), a rename (the old name is
gone, the new one found), a deleted file (its symbol gone). Each answer is checked; a stale
answer is retried until fresh (up to 60 s) and counted as stale.
"""
import asyncio
import os
import shutil
import statistics
import subprocess
import sys
import time
import json

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.environ.get("NAVEGADOR_BIN", os.path.join(ROOT, "target", "release", "navegador"))
CORPUS = os.environ.get("NAVEGADOR_CORPUS", os.path.expanduser("~/.cache/navegador-corpus"))
SCRATCH = os.environ.get("NAVEGADOR_SCRATCH", "/tmp/navegador-live")

# tree -> (file edited, a symbol defined in it, a file deleted, a symbol only that file defines)
EDIT = {
    "flask": ("src/flask/app.py", "Flask", "src/flask/logging.py", "has_level_handler"),
    "django": ("django/db/models/query.py", "QuerySet", "django/utils/termcolors.py", "make_style"),
    "jdk": ("java.base/java/util/ArrayList.java", "ArrayList", "java.base/java/util/StringJoiner.java", "StringJoiner"),
}


def new_functions(path: str, tag: str, call: bool) -> tuple[str, str, str]:
    """Source of two functions (callee, caller) to append, and their names."""
    callee, caller = f"nav_bench_callee_{tag}", f"nav_bench_caller_{tag}"
    if path.endswith(".py"):
        body = f"{callee}()" if call else "2"
        return f"\n\ndef {callee}():\n    return 1\n\n\ndef {caller}():\n    return {body}\n", callee, caller
    body = f"{callee}()" if call else "2"
    return (f"\n    static int {callee}() {{ return 1; }}\n    static int {caller}() {{ return {body}; }}\n", callee, caller)


def append(text: str, path: str, snippet: str) -> str:
    if path.endswith(".py"):
        return text + snippet
    end = text.rstrip().rfind("}")  # inside the file's (last) class
    return text[:end] + snippet + text[end:]


PEER = ["rg", "-n", "-w", "--no-messages"] if shutil.which("rg") else ["grep", "-rnw", "--include=*.py", "--include=*.java"]


def rg_peer(tree: str, word: str) -> float:
    """The peer: a text search for the word the check looks for (rg, else grep -rnw)."""
    t0 = time.perf_counter()
    subprocess.run([*PEER, word, tree], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - t0


async def live(name: str, tree: str, rounds: int) -> list[dict]:
    from mcp import Client
    from mcp.client.stdio import StdioServerParameters

    rel, known, gone_file, gone_symbol = EDIT[name]
    path = os.path.join(tree, rel)
    params = StdioServerParameters(command=BIN, args=["mcp", "--workspace-root", tree], cwd=tree,
                                   env={**os.environ, "NAVEGADOR_LOG": os.environ.get("NAVEGADOR_LOG", "warn")})
    rows = []
    async with Client(params) as c:
        async def call(tool, args):
            r = await c.call_tool(tool, args)
            return r.structured_content

        t0 = time.perf_counter()
        while True:
            env = await call("code.find_symbol", {"symbol": known, "path": rel})
            if not any(e["code"] == "INDEX_INCOMPLETE" for e in env["errors"]):
                break
            await asyncio.sleep(0.2)
        first = time.perf_counter() - t0
        print(f"{name}: first index {first:.1f} s", file=sys.stderr)

        def line_of(env):
            items = [i for i in env["data"]["items"] if i["symbol"] == known and i["path"] == rel]
            return items[0]["line"] if items else None

        async def timed(kind, write, tool, args, check, word):
            write()
            t = time.perf_counter()
            stale = 0
            while True:
                env = await call(tool, args)
                if check(env):
                    break
                stale += 1
                if time.perf_counter() - t > 60:
                    raise SystemExit(f"{name}/{kind}: no fresh answer after 60 s: {json.dumps(env)[:400]}")
            wall = time.perf_counter() - t
            peer = rg_peer(tree, word)
            rows.append({"tree": name, "edit": kind, "ms": wall * 1000, "stale": stale, "rg_ms": peer * 1000})
            print(f"  {kind:<12} {wall*1000:8.1f} ms  stale={stale}  rg {peer*1000:6.1f} ms", file=sys.stderr)

        def put(text):
            with open(path, "w") as f:
                f.write(text)

        for r in range(rounds):
            text = open(path).read()
            line0 = line_of(await call("code.find_symbol", {"symbol": known, "path": rel}))
            comment = "# navegador live bench\n" if rel.endswith(".py") else "// navegador live bench\n"
            text = comment + text
            await timed("comment", lambda: put(text), "code.find_symbol", {"symbol": known, "path": rel},
                        lambda e: line_of(e) == line0 + 1, known)
            snippet, callee, caller = new_functions(rel, str(r), True)
            with_call = append(text, rel, snippet)
            await timed("new+call", lambda: put(with_call), "code.trace_callers", {"path": rel, "symbol": callee},
                        lambda e: caller in [i.get("caller", "").rsplit(".", 1)[-1] for i in e["data"]["items"]], callee)
            no_call = with_call.replace(f"return {callee}()", "return 2")
            await timed("body", lambda: put(no_call), "code.trace_callers", {"path": rel, "symbol": callee},
                        lambda e: not e["data"]["items"] and not e["errors"], callee)
            renamed = no_call.replace(callee, callee + "_renamed")
            await timed("rename", lambda: put(renamed), "code.find_symbol", {"symbol": callee + "_renamed"},
                        lambda e: e["data"]["totalMatched"] == 1, callee + "_renamed")
        gone = os.path.join(tree, gone_file)
        await timed("delete file", lambda: os.unlink(gone), "code.find_symbol", {"symbol": gone_symbol, "path": "."},
                    lambda e: all(i["path"] != gone_file for i in e["data"]["items"]), gone_symbol)
    return rows


def cli(name: str, tree: str) -> dict:
    """The CLI's re-ingest on the copy the server indexed: nothing changed, one file."""
    rel = EDIT[name][0]
    path = os.path.join(tree, rel)

    def ingest():
        t0 = time.perf_counter()
        subprocess.run([BIN, "ingest", tree, "--json"], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        return time.perf_counter() - t0

    ingest()
    noop = statistics.median(ingest() for _ in range(3))
    one = []
    for i in range(3):
        with open(path, "a") as f:
            f.write(f"\n{'#' if rel.endswith('.py') else '//'} navegador cli bench {i}\n")
        one.append(ingest())
    return {"noop": noop, "one": statistics.median(one)}


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    rounds = 1
    if "--rounds" in sys.argv:
        rounds = int(sys.argv[sys.argv.index("--rounds") + 1])
        args.remove(str(rounds))
    names = args or ["flask", "django"]
    if not os.path.exists(BIN):
        sys.exit("build first: cargo build --release -p navegador-cli")
    print(f"machine: {os.cpu_count()} cores; navegador {BIN}")
    print(f"| tree | edit | save -> fresh answer (ms) | stale answers | peer `{' '.join(PEER[:2])}` (ms) |")
    print("|---|---|---|---|---|")
    summary = []
    for name in names:
        src = os.path.join(CORPUS, name)
        if not os.path.isdir(src):
            sys.exit(f"{src} missing")
        tree = os.path.join(SCRATCH, name)
        shutil.rmtree(tree, ignore_errors=True)
        os.makedirs(SCRATCH, exist_ok=True)
        subprocess.run(["cp", "-r", src, tree], check=True)
        try:
            rows = asyncio.run(live(name, tree, rounds))
            for r in rows:
                print(f"| {name} | {r['edit']} | {r['ms']:.0f} | {r['stale']} | {r['rg_ms']:.0f} |")
            ms = [r["ms"] for r in rows]
            line = f"{name}: p50 {statistics.median(ms):.0f} ms, max {max(ms):.0f} ms, stale {sum(r['stale'] for r in rows)}, peer p50 {statistics.median(r['rg_ms'] for r in rows):.0f} ms"
            if "--cli" in sys.argv:
                c = cli(name, tree)
                line += f"; CLI re-ingest: nothing changed {c['noop']:.2f} s, one file {c['one']:.2f} s"
            summary.append(line)
        finally:
            shutil.rmtree(tree, ignore_errors=True)
    print()
    for s in summary:
        print(s)


if __name__ == "__main__":
    main()
