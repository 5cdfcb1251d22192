"""Hostile Cypher against a long-lived server: a grammar-based generator of queries that
build big values, loop long, multiply rows or plan huge patterns, plus mutations of them,
sent as `query` calls by several clients at once to one `navegador mcp` HTTP server
running under a memory cap (`prlimit --as`).

The run fails on a crash, on a call answered later than the server's time budget + 10%
(plus what a trivial call took meanwhile, at most half the budget: on a machine shared
with other work the scheduler's delay is not the engine's), on a transport error, and
when the server's resident memory is not back under a bound after a batch. The pytest test (`test_cypher_budgets.py`) runs it for a fixed time in CI;
a longer run:

    .venv-test/bin/python tests/mcp/cypher_fuzz.py target/release/navegador \\
        --seconds 1800 --seed 7 [--clients 4]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from mcp import Client

sys.path.insert(0, str(Path(__file__).resolve().parent))
from conftest import start_http  # noqa: E402

MIB = 1 << 20
# The server's budgets during the run, and the cap on its address space.
TIMEOUT_MS = 2000
QUERY_MIB = 128
POOL_MIB = 384
ADDRESS_SPACE = 3 << 30
# A call answered later than this hung: the budget plus 10%.
LATE = TIMEOUT_MS / 1000 * 1.1
# After a batch the server must hold no more than this above what it held at the start.
RSS_SLACK = 192 * MIB


def make_repo(root: Path, modules: int = 40, functions: int = 40) -> None:
    """A Python package large enough for products of MATCHes to be hostile: modules of
    functions calling the next one, a class per module, imports between modules."""
    pkg = root / "pkg"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    for m in range(modules):
        lines = [f"from pkg.m{(m + 1) % modules} import f_{(m + 1) % modules}_0", ""]
        for f in range(functions):
            callee = f"f_{m}_{f + 1}" if f + 1 < functions else f"f_{(m + 1) % modules}_0"
            lines += [f"def f_{m}_{f}(x):", f'    """Function {f} of module {m}."""', f"    return {callee}(x) + 1", ""]
        lines += [f"class C{m}:", "    def run(self):", f"        return f_{m}_0(1)", ""]
        (pkg / f"m{m}.py").write_text("\n".join(lines))


class Gen:
    """Queries from a small grammar whose productions are the shapes that cost: doubling
    and growing accumulators, big ranges, nested loops, products of patterns,
    variable-length expansions, subqueries, sorting, wide patterns, and the plain ones."""

    def __init__(self, seed: int) -> None:
        self.r = random.Random(seed)

    def n(self, *choices: int) -> int:
        return self.r.choice(choices)

    def scalar(self, depth: int) -> str:
        r = self.r
        if depth <= 0:
            return r.choice(["1", "x", "'a'", "2.5", "null", "true", "size('abc')"])
        return r.choice(
            [
                lambda: f"{self.scalar(depth - 1)} + {self.scalar(depth - 1)}",
                lambda: f"size({self.listy(depth - 1)})",
                lambda: f"reduce(a = 0, y IN {self.listy(depth - 1)} | a + 1)",
                lambda: f"CASE WHEN {self.scalar(depth - 1)} IS NULL THEN 1 ELSE 2 END",
                lambda: f"toString({self.scalar(depth - 1)})",
                lambda: f"size(toUpper(reduce(s = 'ab', y IN range(1, {self.n(10, 20, 26, 40)}) | s + s)))",
                lambda: f"all(y IN {self.listy(depth - 1)} WHERE y IS NOT NULL)",
                lambda: "COUNT { MATCH (a:Function)-[:CALLS*]->(b) RETURN b }",
            ]
        )()

    def listy(self, depth: int) -> str:
        r = self.r
        big = self.n(10, 1000, 100000, 3000000, 100000000)
        if depth <= 0:
            return r.choice([f"range(1, {big})", "[1, 2, 3]", "[]", "split('a,b,c', ',')"])
        return r.choice(
            [
                lambda: f"[y IN {self.listy(depth - 1)} | {self.scalar(depth - 1)}]",
                lambda: f"[y IN {self.listy(depth - 1)} WHERE y > 1 | [y, y]]",
                lambda: f"{self.listy(depth - 1)} + {self.listy(depth - 1)}",
                lambda: f"reduce(l = [1], y IN range(1, {self.n(8, 20, 24, 40)}) | l + l)",
                lambda: f"range(1, {big}, {self.n(1, 2, 7)})",
                lambda: f"tail({self.listy(depth - 1)})",
                lambda: "[(a:Function)-[:CALLS*]->(b) | b.name]",
                lambda: f"split(reduce(s = 'a', y IN range(1, {self.n(10, 22, 30)}) | s + s), '')",
            ]
        )()

    def pattern(self) -> str:
        r = self.r
        node = lambda v: r.choice([f"({v})", f"({v}:Function)", f"({v}:Class)", f"({v}:Nope)", f"({v} {{name: 'f_1_1'}})"])  # noqa: E731
        rel = lambda: r.choice(["-->", "<--", "--", "-[:CALLS]->", "-[:CALLS*]->", "-[*1..4]-", "-[:CALLS*2..]->"])  # noqa: E731
        parts = []
        for i in range(self.n(1, 1, 2, 3, 4)):
            p = node(f"a{i}")
            for k in range(self.n(0, 0, 1, 2)):
                p += rel() + node(f"b{i}_{k}")
            parts.append(p)
        return ", ".join(parts)

    def query(self) -> str:
        r = self.r
        shapes = [
            lambda: f"RETURN {self.scalar(2)} AS v",
            lambda: f"RETURN size({self.listy(2)}) AS n",
            lambda: f"RETURN size(reduce(s = '', x IN range(1, {self.n(1000, 2000000)}) | s + 'aaaaaaaaaa')) AS n",
            lambda: f"RETURN size(reduce(s = 'a', x IN range(1, {self.n(20, 30, 40)}) | s + s)) AS n",
            lambda: f"MATCH {self.pattern()} RETURN count(*) AS n",
            lambda: f"MATCH {self.pattern()} RETURN * LIMIT {self.n(1, 10, 1000000)}",
            lambda: f"MATCH {self.pattern()} WITH * ORDER BY rand() RETURN count(*) AS n",
            lambda: f"MATCH {self.pattern()} WITH collect(a0) AS l UNWIND l AS x UNWIND l AS y RETURN count(*) AS n",
            lambda: "MATCH (a), (b), (c) WITH a, b, c WHERE a <> b RETURN count(*) AS n",
            lambda: f"UNWIND range(1, {self.n(1000, 1999999, 10000000)}) AS x WITH x ORDER BY x DESC RETURN x LIMIT 1",
            lambda: f"UNWIND {self.listy(1)} AS x RETURN DISTINCT x % 7 AS k, collect(x)[0..3] AS some",
            lambda: "MATCH " + ", ".join(f"(n{i}:Nope)" for i in range(self.n(100, 2000, 6000))) + " RETURN 1",
            lambda: "MATCH (a:Function) WHERE EXISTS { (a)-[:CALLS*]->(b) WHERE b.name STARTS WITH 'f' } RETURN count(a) AS n",
            lambda: "MATCH p = shortestPath((a:Function {name: 'f_0_0'})-[*]-(b:Class)) RETURN length(p) AS n",
            lambda: "MATCH (a:Function), (b:Import) WITH a, b LIMIT 50 WHERE $missing RETURN 1",
            lambda: f"WITH 1 AS {r.choice(['delete', 'set', 'detach', '`delete`'])} RETURN 1 AS one",
            lambda: f"RETURN {self.scalar(1)} AS v UNION ALL MATCH {self.pattern()} RETURN count(*) AS v",
            lambda: "MATCH (f:Function {name: 'f_1_1'})-[:CALLS]->(g) RETURN g.name AS g",
            lambda: f"RETURN replace(reduce(s = 'ab', x IN range(1, {self.n(10, 20, 24)}) | s + s), 'a', 'aaaaaaaa') AS s",
        ]
        q = r.choice(shapes)()
        if r.random() < 0.25:
            q = self.mutate(q)
        return q

    def mutate(self, q: str) -> str:
        r = self.r
        tokens = ["(", ")", "[", "]", "*", "..", "|", ",", "range(1, 9999999)", "+", " s + s ", "reduce(", "-->", "`", "'", "$x"]
        q = list(q)
        for _ in range(r.randint(1, 3)):
            at = r.randrange(len(q) + 1)
            kind = r.randrange(3)
            if kind == 0 and q:
                del q[at : at + r.randint(1, 6)]
            elif kind == 1:
                q[at:at] = list(r.choice(tokens))
            elif q:
                src = r.randrange(len(q))
                q[at:at] = q[src : src + r.randint(1, 12)]
        return "".join(q)


def classify(text: str) -> str:
    for word, kind in [
        ("memory budget", "memory"),
        ("memory shared by concurrent queries", "pool"),
        ("time budget", "time"),
        ("too complex", "complexity"),
        ("syntax error", "syntax"),
        ("reserved word", "syntax"),
        ("ParameterMissing", "parameter"),
        ("the first row alone carries", "answer size"),
        ("intermediate result exceeded", "rows"),
    ]:
        if word in text:
            return kind
    return "other error"


def rss(pid: int) -> int:
    m = re.search(r"VmRSS:\s+(\d+) kB", Path(f"/proc/{pid}/status").read_text())
    return int(m.group(1)) * 1024 if m else 0


@dataclass
class Report:
    calls: int = 0
    outcomes: dict[str, int] = field(default_factory=dict)
    late: list[str] = field(default_factory=list)
    # The slowest `RETURN 1` answered while a batch ran: the machine's own delay.
    slowest_probe: float = 0.0
    failures: list[str] = field(default_factory=list)
    rss_after_batches: list[int] = field(default_factory=list)
    rss_start: int = 0
    slowest: float = 0.0
    others: list[str] = field(default_factory=list)

    def problems(self, alive: bool) -> list[str]:
        out = [f"late ({LATE:.1f} s + the probe's allowed): {q}" for q in self.late[:5]]
        out += [f"failed: {f}" for f in self.failures[:5]]
        bound = self.rss_start + RSS_SLACK
        out += [f"resident {r / MIB:.0f} MiB after a batch, bound {bound / MIB:.0f} MiB" for r in self.rss_after_batches if r > bound][:3]
        if not alive:
            out.append("the server died")
        return out

    def summary(self) -> str:
        kinds = ", ".join(f"{k} {v}" for k, v in sorted(self.outcomes.items()))
        peak = max(self.rss_after_batches, default=0)
        return (
            f"{self.calls} calls: {kinds}; slowest answer {self.slowest:.2f} s (slowest probe "
            f"{self.slowest_probe:.2f} s); resident "
            f"{self.rss_start / MIB:.0f} MiB at start, at most {peak / MIB:.0f} MiB after a batch"
        )


async def fuzz(url: str, pid: int, seconds: float, seed: int, clients: int, batch: int = 6) -> Report:
    rep = Report(rss_start=rss(pid))
    end = time.monotonic() + seconds
    gens = [Gen(seed * 1000 + i) for i in range(clients)]

    async def worker(c: Client, gen: Gen, took_all: list[tuple[float, str, str]]) -> None:
        for _ in range(batch):
            q = gen.query()
            t = time.perf_counter()
            try:
                r = await c.call_tool("query", {"cypher": q})
                kind = classify(r.content[0].text) if r.is_error else "ok"
                if kind == "other error" and len(rep.others) < 5:
                    rep.others.append(f"{q[:100]} -> {r.content[0].text[:200]}")
            except Exception as e:  # a transport or protocol failure
                rep.failures.append(f"{q[:120]}: {e!r}")
                kind = "transport error"
            took = time.perf_counter() - t
            rep.slowest = max(rep.slowest, took)
            took_all.append((took, kind, q))
            rep.calls += 1
            rep.outcomes[kind] = rep.outcomes.get(kind, 0) + 1

    async def probe(c: Client, done: asyncio.Event) -> float:
        slowest = 0.0
        while not done.is_set():
            t = time.perf_counter()
            await c.call_tool("query", {"cypher": "RETURN 1 AS one"})
            slowest = max(slowest, time.perf_counter() - t)
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(done.wait(), 0.1)
        return slowest

    async def batch_run(opened: list[Client], prober: Client) -> None:
        took_all: list[tuple[float, str, str]] = []
        done = asyncio.Event()
        probing = asyncio.create_task(probe(prober, done))
        await asyncio.gather(*(worker(c, g, took_all) for c, g in zip(opened, gens)))
        done.set()
        allowed = LATE + min(await probing, TIMEOUT_MS / 1000 / 2)
        rep.slowest_probe = max(rep.slowest_probe, allowed - LATE)
        rep.late += [f"{t:.2f} s ({k}, {allowed:.2f} s allowed): {q[:160]}" for t, k, q in took_all if t > allowed]

    async with contextlib.AsyncExitStack() as stack:
        opened = [await stack.enter_async_context(Client(url)) for _ in range(clients)]
        prober = await stack.enter_async_context(Client(url))
        while time.monotonic() < end:
            await batch_run(opened, prober)
            await asyncio.sleep(0.2)  # memory goes back to the system right after answers
            rep.rss_after_batches.append(rss(pid))
    return rep


# What a normal client asks while hostile queries run (`test_cypher_budgets.py`).
NORMAL = [
    ("query", {"cypher": "MATCH (f:Function {name: 'f_1_1'})-[:CALLS]->(g) RETURN g.name AS g"}),
    ("function", {"name": "f_1_1"}),
    ("search", {"query": "f_2_3"}),
]


def normal_calls(url: str, seconds: float) -> list[tuple[str, float, str | None]]:
    """Calls `NORMAL` in turn for `seconds`, a pause of 50 ms between calls: each call's
    name, round trip and problem (None when answered). Run in a process of its own, so
    the round trip is not also the time its process spent on other clients' answers."""

    async def run() -> list[tuple[str, float, str | None]]:
        out: list[tuple[str, float, str | None]] = []
        async with Client(url) as c:
            end = time.monotonic() + seconds
            i = 0
            while time.monotonic() < end:
                name, args = NORMAL[i % len(NORMAL)]
                i += 1
                t = time.perf_counter()
                try:
                    r = await c.call_tool(name, args)
                    problem = r.content[0].text[:200] if r.is_error else None
                except Exception as e:
                    problem = repr(e)
                out.append((name, time.perf_counter() - t, problem))
                await asyncio.sleep(0.05)
        return out

    return asyncio.run(run())


def server_args() -> list[str]:
    return [
        "--read-only",
        "--query-timeout-ms",
        str(TIMEOUT_MS),
        "--max-query-memory-mb",
        str(QUERY_MIB),
        "--query-memory-pool-mb",
        str(POOL_MIB),
    ]


def capped() -> list[str]:
    return ["prlimit", f"--as={ADDRESS_SPACE}"]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("binary")
    ap.add_argument("--seconds", type=float, default=120)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--clients", type=int, default=4)
    a = ap.parse_args()
    if shutil.which("prlimit") is None:
        print("prlimit (util-linux) is needed to cap the server's memory", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as d:
        root = Path(d) / "repo"
        make_repo(root)
        subprocess.run([a.binary, "ingest", str(root)], check=True, capture_output=True)
        server = start_http(a.binary, root, *server_args(), wrapper=capped())
        try:
            rep = asyncio.run(fuzz(server.url, server.proc.pid, a.seconds, a.seed, a.clients))
            alive = server.proc.poll() is None
        finally:
            server.stop()
    print(rep.summary())
    for o in rep.others:
        print("   other error:", o)
    problems = rep.problems(alive)
    for p in problems:
        print("  ", p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
