#!/usr/bin/env python3
"""Changes benchmark: `navegador changes` (the impact of the working tree's diff against
HEAD) on a real tree made a git repository and indexed, after a change of 1, 10 and 100
files; the time to the report. `git diff --stat` on the same change, in the same run, is
the peer (what reading the diff alone costs), and `git status --porcelain` (which also
walks the tree for untracked files, as the working-tree report must).

Wall time and CPU time (user + system, the git children included, from getrusage) are both
reported: on a shared machine the wall time is mostly waiting for a core.

Usage: python3 scripts/bench_changes.py [django jdk ...] [--sizes 1,10,100] [--rounds N] [--keep]
  NAVEGADOR_CORPUS=DIR  where the trees are (default ~/.cache/navegador-corpus)
  NAVEGADOR_SCRATCH=DIR where the copies go (default /tmp/navegador-changes); removed
                        after the run unless --keep

Each tree is copied (its own .git left out), committed, and ingested once (the graph holds
HEAD: the usual state before a commit). A change of N files edits one line in a function
body of each of N source files spread over the tree (a `return` line gains a trailing
comment: a `modified` symbol per file); the report is asked `--rounds` times (median kept),
then the change is reverted with `git checkout`.
"""
import json
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.environ.get("NAVEGADOR_BIN", os.path.join(ROOT, "target", "release", "navegador"))
CORPUS = os.environ.get("NAVEGADOR_CORPUS", os.path.expanduser("~/.cache/navegador-corpus"))
SCRATCH = os.environ.get("NAVEGADOR_SCRATCH", "/tmp/navegador-changes")
GIT = ["git", "-c", "user.name=bench", "-c", "user.email=bench@navegador.invalid", "-c", "commit.gpgsign=false",
       "-c", "core.autocrlf=false"]

# tree -> (source extension, the line edited, the comment appended to it)
TREES = {
    "django": (".py", re.compile(r"^\s+return\b.*[^\\,(\[{]$"), "  # nav-bench"),
    "jdk": (".java", re.compile(r"^\s+return\b.*;$"), " // nav-bench"),
    "flask": (".py", re.compile(r"^\s+return\b.*[^\\,(\[{]$"), "  # nav-bench"),
}


def run(cmd, cwd, **kw):
    return subprocess.run(cmd, cwd=cwd, check=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw)


def cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def timed(cmd, cwd, out=None) -> tuple[float, float]:
    """(wall, cpu) seconds of one run; its stdout appended to `out` when given."""
    c0, t0 = cpu(), time.perf_counter()
    p = subprocess.run(cmd, cwd=cwd, check=True, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    wall, used = time.perf_counter() - t0, cpu() - c0
    if out is not None:
        out.append(p.stdout)
    return wall, used


def prepare(name: str) -> str:
    src = os.path.join(CORPUS, name)
    if not os.path.isdir(src):
        sys.exit(f"no corpus at {src}: lay it out there or set NAVEGADOR_CORPUS")
    tree = os.path.join(SCRATCH, name)
    shutil.rmtree(tree, ignore_errors=True)
    shutil.copytree(src, tree, symlinks=True, ignore=shutil.ignore_patterns(".git", ".navegador"))
    with open(os.path.join(tree, ".gitignore"), "a") as f:
        f.write("\n.navegador/\n")
    run([*GIT, "init", "-q"], tree)
    run([*GIT, "add", "-A"], tree)
    run([*GIT, "commit", "-q", "-m", "base"], tree)
    t, c = timed([BIN, "ingest", "."], tree)
    print(f"{name}: committed and ingested in {t:.1f} s ({c:.1f} s CPU)", flush=True)
    return tree


def candidates(tree: str, ext: str, line_re) -> list[tuple[str, int]]:
    """(file, line index) of every tracked source file with an editable body line, sorted."""
    files = run(["git", "ls-files", f"*{ext}"], tree).stdout.split()
    out = []
    for rel in sorted(files):
        if "/test" in rel or rel.startswith("test"):
            continue
        try:
            lines = open(os.path.join(tree, rel), encoding="utf-8").read().split("\n")
        except (UnicodeDecodeError, OSError):
            continue
        for i, l in enumerate(lines):
            if line_re.match(l) and '"""' not in l and "'''" not in l:
                out.append((rel, i))
                break
    return out


def change(tree: str, picks: list[tuple[str, int]], comment: str) -> None:
    for rel, i in picks:
        p = os.path.join(tree, rel)
        lines = open(p, encoding="utf-8").read().split("\n")
        lines[i] += comment
        open(p, "w", encoding="utf-8").write("\n".join(lines))


def bench(name: str, sizes: list[int], rounds: int) -> list[dict]:
    ext, line_re, comment = TREES[name]
    tree = prepare(name)
    pool = candidates(tree, ext, line_re)
    rows = []
    for n in sizes:
        step = max(1, len(pool) // n)
        picks = pool[::step][:n]
        change(tree, picks, comment)
        ours, stat, status, out = [], [], [], []
        for _ in range(rounds):
            ours.append(timed([BIN, "changes", "--json", "--limit", "20"], tree, out))
            stat.append(timed(["git", "diff", "--stat"], tree))
            status.append(timed(["git", "status", "--porcelain"], tree))
        report = json.loads(out[-1])
        med = lambda xs, i: statistics.median(x[i] for x in xs)  # noqa: E731
        row = {"tree": name, "files": len(picks), "symbols": report["symbols_total"], "risk": report["risk"],
               "changes": (med(ours, 0), med(ours, 1)), "git_diff_stat": (med(stat, 0), med(stat, 1)),
               "git_status": (med(status, 0), med(status, 1))}
        rows.append(row)
        ms = lambda p: f"{p[0]*1000:6.0f} ms ({p[1]*1000:5.0f} CPU)"  # noqa: E731
        print(f"{name:8} {row['files']:4} files {row['symbols']:5} symbols  changes {ms(row['changes'])}  "
              f"git diff --stat {ms(row['git_diff_stat'])}  git status {ms(row['git_status'])}", flush=True)
        run(["git", "checkout", "-q", "--", "."], tree)
    return rows


def main() -> None:
    args = sys.argv[1:]
    sizes, rounds, keep, names = [1, 10, 100], 3, False, []
    it = iter(args)
    for a in it:
        if a == "--sizes":
            sizes = [int(x) for x in next(it).split(",")]
        elif a == "--rounds":
            rounds = int(next(it))
        elif a == "--keep":
            keep = True
        elif a in TREES:
            names.append(a)
        else:
            sys.exit(f"unknown argument {a}; trees: {', '.join(TREES)}")
    os.makedirs(SCRATCH, exist_ok=True)
    try:
        for name in names or ["django"]:
            bench(name, sizes, rounds)
    finally:
        if not keep:
            for name in names or ["django"]:
                shutil.rmtree(os.path.join(SCRATCH, name), ignore_errors=True)


if __name__ == "__main__":
    main()
