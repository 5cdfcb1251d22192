"""Load test of the streamable HTTP transport: N concurrent clients (official Python SDK),
each its own MCP session, each making M tool calls on the fixture graph. Fails on any
error; prints p50/p99 latency. Usage: load.py NAVEGADOR_BIN [clients] [calls] [--db URL]
(--db: the graph in that database, e.g. a postgres:// URL, instead of the workspace file)."""

import asyncio
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from mcp import Client

sys.path.insert(0, str(Path(__file__).resolve().parent))
from conftest import HERE, start_http  # noqa: E402

CALLS = [
    ("function", {"name": "User.rename", "depth": 2}),
    ("class", {"name": "User"}),
    ("context", {"file": "app/models.py"}),
    ("explain", {"name": "Base"}),
    ("blast_radius", {"name": "Base.save"}),
    ("search", {"query": "clean"}),
    ("query", {"cypher": "MATCH (c:Class)-[:INHERITS]->(b:Class) RETURN c.name AS sub, b.name AS base"}),
    ("get_rationale", {"name": "Base.save"}),
    ("find_owners", {"name": "User"}),
    ("search_knowledge", {"query": "validate"}),
]


async def client(url: str, calls: int, latencies: list[float], errors: list[str]) -> None:
    async with Client(url) as c:
        for i in range(calls):
            name, args = CALLS[i % len(CALLS)]
            t = time.perf_counter()
            try:
                r = await c.call_tool(name, args)
                if r.is_error:
                    errors.append(f"{name}: {r.content[0].text}")
            except Exception as e:  # a transport or protocol failure is an error too
                errors.append(f"{name}: {e!r}")
            latencies.append(time.perf_counter() - t)


async def run(url: str, clients: int, calls: int):
    latencies: list[float] = []
    errors: list[str] = []
    t = time.perf_counter()
    await asyncio.gather(*(client(url, calls, latencies, errors) for _ in range(clients)))
    return latencies, errors, time.perf_counter() - t


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process (Linux), to tell server cost from client cost."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return float("nan")


def main() -> int:
    args = sys.argv[1:]
    db: list[str] = []
    if "--db" in args:  # a graph elsewhere (a postgres:// URL): indexed into, then served from
        i = args.index("--db")
        db = ["--db", args[i + 1]]
        del args[i : i + 2]
    binary = args[0]
    clients = int(args[1]) if len(args) > 1 else 50
    calls = int(args[2]) if len(args) > 2 else 100
    with tempfile.TemporaryDirectory() as d:
        root = Path(d) / "repo"
        shutil.copytree(HERE / "fixture", root)
        subprocess.run([binary, "ingest", str(root), *db], check=True, capture_output=True)
        server = start_http(binary, root, *db)
        try:
            latencies, errors, wall = asyncio.run(run(server.url, clients, calls))
            server_cpu = cpu_seconds(server.proc.pid)
        finally:
            code = server.stop()
    lat = sorted(latencies)
    p = lambda q: lat[min(len(lat) - 1, int(q * len(lat)))] * 1000  # noqa: E731
    print(
        f"load{' (PostgreSQL)' if db else ''}: {clients} clients x {calls} calls = {len(lat)} calls in {wall:.1f}s "
        f"({len(lat) / wall:.0f}/s), errors {len(errors)}, "
        f"p50 {p(0.50):.1f} ms, p99 {p(0.99):.1f} ms, mean {statistics.mean(lat) * 1000:.1f} ms; "
        f"server CPU {server_cpu:.1f} s ({server_cpu / len(lat) * 1000:.2f} ms/call), "
        f"client CPU {time.process_time():.1f} s"
    )
    for e in errors[:10]:
        print("  error:", e)
    if errors or len(lat) != clients * calls or code != 0:
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
