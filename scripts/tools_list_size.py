#!/usr/bin/env python3
"""Size of `tools/list` on both servers (issue 12: each < 30,000 bytes).

Starts `navegador mcp` and `navigation-mcp` (the code.* server) over stdio on a copy of an
empty workspace, asks `tools/list` with plain JSON-RPC (no SDK needed), and prints, per
server, `len(json.dumps(result))` (Python's default separators, the issue's measure), the
compact size, and the size of each tool, largest first.

    python3 scripts/tools_list_size.py [--bin target/release/navegador] [--json]

Exits 1 when a server's listing is 30,000 bytes or more.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile

LIMIT = 30_000
REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def listing(cmd: list[str], env: dict) -> dict:
    init = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
            "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "size", "version": "1"}}}
    msgs = [init, {"jsonrpc": "2.0", "method": "notifications/initialized"},
            {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}]
    p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env, text=True)
    assert p.stdin and p.stdout
    for m in msgs:
        p.stdin.write(json.dumps(m) + "\n")
        p.stdin.flush()
        if "id" in m:
            while True:
                line = p.stdout.readline()
                if not line:
                    raise SystemExit(f"{cmd[0]} closed stdout before answering {m['method']}")
                r = json.loads(line)
                if r.get("id") == m["id"]:
                    break
    p.stdin.close()
    p.wait(timeout=30)
    return r["result"]


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default=os.path.join(REPO, "target/release/navegador"))
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    a = ap.parse_args()
    nav = os.path.join(os.path.dirname(a.bin), "navigation-mcp")
    with tempfile.TemporaryDirectory() as ws:
        db = os.path.join(ws, ".navegador", "graph.db")
        servers = {
            "navegador mcp": ([a.bin, "mcp", "--no-watch", "--workspace-root", ws, "--db", db], dict(os.environ)),
            "navigation-mcp (code.*)": ([nav, "--transport", "stdio"], {**os.environ, "NAVIGATION_MCP_WORKSPACE_ROOT": ws}),
        }
        figures = {}
        for name, (cmd, env) in servers.items():
            res = listing(cmd, env)
            tools = {t["name"]: len(json.dumps(t)) for t in res["tools"]}
            figures[name] = {"bytes": len(json.dumps(res)), "compact": len(json.dumps(res, separators=(",", ":"))),
                             "tools": dict(sorted(tools.items(), key=lambda kv: -kv[1]))}
    if a.json:
        print(json.dumps(figures, indent=1))
    else:
        for name, f in figures.items():
            print(f"{name}: {f['bytes']:,} bytes (json.dumps), {f['compact']:,} compact, {len(f['tools'])} tools")
            for t, n in f["tools"].items():
                print(f"  {n:7,}  {t}")
    over = [n for n, f in figures.items() if f["bytes"] >= LIMIT]
    for n in over:
        print(f"{n}: tools/list is {figures[n]['bytes']:,} bytes, over the {LIMIT:,} budget", file=sys.stderr)
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
