#!/usr/bin/env python3
"""Latency benchmark of the graph-backed `code.*` tools (issue 6's speed targets).

Usage: python3 scripts/bench_nav.py [TREE ...] [--runs N] [--only LABEL,...]
  TREE      corpus trees under $NAVEGADOR_CORPUS (default ~/.cache/navegador-corpus),
            laid out by ../shared/corpus/fetch.sh; default: jdk linux; `spring-endpoints`
            generates a Spring tree with 5,000 endpoints (the corpora have none)
  --runs N  timed passes over each sample (default 1); passed to the example
  --only    run only the cases whose label starts with one of these (e.g. find_symbol)

Each tree is ingested once into $NAVEGADOR_BENCH_CACHE/<tree>.db (default
~/.cache/navegador-bench; the Linux ingest takes minutes and GBs of RAM, so the graph is
reused while it exists; delete it to re-ingest). The graph is always outside the tree
(`--db`), so nothing is written into the corpus. Then
`cargo run --release -p navegador-nav --example bench -- TREE DB` samples symbols from the
graph deterministically, warms up, and times `navegador_nav::call` per tool: p50/p95/max,
result sizes, and a digest of all answers (equal digests = equal answers).

Targets (issue 6): find_symbol exact p50 <= 1 ms, trace_callers recursive max_depth 3
p50 <= 20 ms, list_endpoints over the whole tree <= 50 ms.
"""
import os, subprocess, sys, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.environ.get("NAVEGADOR_CORPUS", os.path.expanduser("~/.cache/navegador-corpus"))
CACHE = os.environ.get("NAVEGADOR_BENCH_CACHE", os.path.expanduser("~/.cache/navegador-bench"))
NAVEGADOR = os.path.join(ROOT, "target", "release", "navegador")
BENCH = os.path.join(ROOT, "target", "release", "examples", "bench")
TARGETS = {"find_symbol exact": 1.0, "trace_callers recursive d3": 20.0, "list_endpoints whole tree": 50.0}


def ingest(tree, db):
    if os.path.exists(db):
        print(f"# reusing graph {db} (delete it to re-ingest)", flush=True)
        return
    if not os.path.exists(NAVEGADOR):
        subprocess.run(["cargo", "build", "--release", "-p", "navegador-cli"], cwd=ROOT, check=True)
    os.makedirs(CACHE, exist_ok=True)
    tmp = db + ".partial"
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(tmp + suffix):
            os.remove(tmp + suffix)
    print(f"# ingesting {tree} into {db} ...", flush=True)
    t = time.time()
    subprocess.run([NAVEGADOR, "ingest", tree, "--db", tmp], check=True, stdout=subprocess.DEVNULL)
    os.rename(tmp, db)
    print(f"# ingest took {time.time() - t:.0f}s", flush=True)


def spring_endpoints(controllers=100, per=50):
    """A generated Spring tree with controllers x per endpoints (the corpora have none), in
    the bench cache: `spring-endpoints` as a TREE name."""
    root = os.path.join(CACHE, "spring-endpoints")
    src = os.path.join(root, "src", "main", "java", "demo")
    os.makedirs(src, exist_ok=True)
    verbs = ["GetMapping", "PostMapping", "PutMapping", "DeleteMapping"]
    for c in range(controllers):
        lines = ["package demo;", "import org.springframework.web.bind.annotation.*;", "@RestController",
                 f'@RequestMapping("/api/c{c}")', f"public class C{c}Controller {{"]
        for m in range(per):
            lines.append(f'    @{verbs[m % 4]}("/items/{{id}}/m{m}")')
            lines.append(f"    public String m{m}(long id) {{ return helper{m}(id); }}")
            lines.append(f'    private String helper{m}(long id) {{ return "x"; }}')
        lines.append("}")
        with open(os.path.join(src, f"C{c}Controller.java"), "w") as f:
            f.write("\n".join(lines) + "\n")
    return root


def main():
    args = sys.argv[1:]
    extra = []
    trees = []
    i = 0
    while i < len(args):
        if args[i] in ("--runs", "--only"):
            extra += [args[i], args[i + 1]]
            i += 2
        else:
            trees.append(args[i])
            i += 1
    trees = trees or ["jdk", "linux"]
    subprocess.run(["cargo", "build", "--release", "-p", "navegador-nav", "--example", "bench"], cwd=ROOT, check=True)
    for name in trees:
        tree = spring_endpoints() if name == "spring-endpoints" else os.path.join(CORPUS, name)
        if not os.path.isdir(tree):
            sys.exit(f"no tree {tree}: run ../shared/corpus/fetch.sh first")
        db = os.path.join(CACHE, f"{name}.db")
        ingest(tree, db)
        load = os.getloadavg()
        print(f"\n## {name}  (nproc {os.cpu_count()}, load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f})", flush=True)
        out = subprocess.run([BENCH, tree, db] + extra, check=True, stdout=subprocess.PIPE, text=True).stdout
        print(out, end="")
        for line in out.splitlines()[1:]:
            for label, limit in TARGETS.items():
                if line.startswith(label):
                    p50 = float(line[len(label):].split()[1])
                    print(f"#   target {label}: p50 {p50:.3f} ms <= {limit:g} ms: {'met' if p50 <= limit else 'NOT met'}")
        load = os.getloadavg()
        print(f"# load average after: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}", flush=True)


if __name__ == "__main__":
    main()
