#!/usr/bin/env python3
"""Cypher benchmark on the graph of the JDK class library (issue 3, "Speed").

Usage: python3 scripts/bench_cypher.py [--db PATH] [--runs N]
  --db PATH   reuse an ingested graph (default: ingest $NAVEGADOR_CORPUS/jdk, default
              ~/.cache/navegador-corpus/jdk, into a temp DB first)
  --runs N    timed runs per query (default 50; aggregations run 5 times)
NAVEGADOR_BIN=PATH benchmarks another build (e.g. main's, for a before/after pair).
Each query runs inside one `navegador query --repeat N` process: the store is opened once,
one warm-up run fills SQLite's page cache and the store's stats cache, then N timed runs.
Prints a markdown table of p50/p99 against the targets.
"""
import json, os, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.environ.get("NAVEGADOR_BIN", os.path.join(ROOT, "target", "release", "navegador"))
CORPUS = os.environ.get("NAVEGADOR_CORPUS", os.path.expanduser("~/.cache/navegador-corpus"))

# (name, query, target p50 ms, aggregation?)
QUERIES = [
    ("point lookup by name", "MATCH (m:Method {qualified_name: 'java.util.ArrayList.trimToSize'}) RETURN m.name, m.file_path, m.line_start", 1, False),
    ("point lookup by name (any label)", "MATCH (c {name: 'ConcurrentHashMap'}) RETURN c.qualified_name", 1, False),
    ("callers of a method", "MATCH (c)-[:CALLS]->(m:Method {qualified_name: 'java.util.ArrayList.trimToSize'}) RETURN c.qualified_name", 5, False),
    ("2-hop callers (callers of callers)", "MATCH (x)-[:CALLS]->()-[:CALLS]->(m:Method {qualified_name: 'java.util.ArrayList.trimToSize'}) RETURN DISTINCT x.qualified_name", 5, False),
    ("2-hop neighbourhood, any type and direction", "MATCH (m:Method {qualified_name: 'java.util.ArrayList.trimToSize'})-[*2]-(x) RETURN count(DISTINCT x)", 5, False),
    ("[:CALLS*1..3] from a method", "MATCH (m:Method {qualified_name: 'java.util.ArrayList.removeIf'})-[:CALLS*1..3]->(x) RETURN count(DISTINCT x)", 20, False),
    ("count by label", "MATCH (n) RETURN labels(n)[0] AS label, count(*) AS n ORDER BY n DESC", 1000, True),
    ("count of one label", "MATCH (n:Class) RETURN count(n)", 1000, True),
    ("count by relationship type", "MATCH ()-[r]->() RETURN type(r), count(*)", 1000, True),
    ("top-10 most-called", "MATCH ()-[:CALLS]->(f:Method) RETURN f.qualified_name AS f, count(*) AS calls ORDER BY calls DESC LIMIT 10", 1000, True),
    # the catalog: schema procedures and a misspelt label (0 rows and a warning)
    ("CALL db.labels()", "CALL db.labels()", 5, False),
    ("CALL db.propertyKeys()", "CALL db.propertyKeys()", 5, False),
    ("misspelt label (warned)", "MATCH (m:Methd {name: 'trimToSize'}) RETURN m.qualified_name", 5, False),
]


def main():
    args = sys.argv[1:]
    db = args[args.index("--db") + 1] if "--db" in args else None
    runs = int(args[args.index("--runs") + 1]) if "--runs" in args else 50
    if db is None:
        db = os.path.join(tempfile.mkdtemp(prefix="bench-cypher-"), "graph.db")
        t = time.perf_counter()
        subprocess.run([BIN, "ingest", os.path.join(CORPUS, "jdk"), "--db", db, "--json"],
                       check=True, stdout=subprocess.DEVNULL)
        print(f"ingested jdk into {db} in {time.perf_counter() - t:.0f} s", file=sys.stderr)
    print("| query | rows | p50 ms | p99 ms | target p50 | met |")
    print("|---|---:|---:|---:|---:|---|")
    for name, q, target, agg in QUERIES:
        n = 5 if agg else runs
        p = subprocess.run([BIN, "query", q, "--db", db, "--repeat", str(n), "--timeout-ms", "120000",
                            "--max-rows", "100000"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        if p.returncode != 0:
            print(f"| {name} | error: {p.stderr.strip().splitlines()[0]} | | | {target} | no |")
            continue
        r = json.loads(p.stdout)
        met = "yes" if r["p50_ms"] <= target else "no"
        print(f"| {name} | {r['rows']} | {r['p50_ms']:.2f} | {r['p99_ms']:.2f} | {target} | {met} |", flush=True)


if __name__ == "__main__":
    main()
