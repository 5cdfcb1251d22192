#!/usr/bin/env python3
"""Text search benchmark: navegador-search's `search_text` against `rg --json`.

Usage: python3 scripts/bench_search.py [TREE ...] [--runs N]
  TREE      corpus trees under $NAVEGADOR_CORPUS (default ~/.cache/navegador-corpus),
            laid out by ../shared/corpus/fetch.sh; default: jdk linux
  --runs N  timed runs per command (default 5); the median is reported

Both sides do the same work: the whole tree, context 1, every match written out as JSON
(ours through `--example search` with no file limit, rg through `--json`), the same
ignore rules (hidden skipped, .gitignore/.ignore honoured without a git repo, nothing
read above the tree, the hard-ignored names excluded), two threads on this machine.
Both get the tree's absolute path (the server hands the library an absolute root, and
path lookups are a visible share of the kernel time). Output goes to a file, not /dev/null: rg stops at the first match when it writes to
/dev/null. One warm-up run of each command fills the page cache. The totals of matched
files and lines are compared, so a faster answer that found less would show.
"""
import json, os, shutil, statistics, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.environ.get("NAVEGADOR_CORPUS", os.path.expanduser("~/.cache/navegador-corpus"))
OURS = os.path.join(ROOT, "target", "release", "examples", "search")
RG_VERSION = "14.1.1"  # only used when neither apt nor a PATH rg is available

# Keep in step with navegador_search::HARD_IGNORED.
HARD_IGNORED = [".git", "node_modules", ".idea", ".vscode", ".agent", ".agents", ".claude",
                ".react-router", "build", "dist", ".next", "target", "coverage", ".turbo", ".cache",
                "tmp", "temp", "out", ".navegador"]

# tree -> [(label, query, regex?, our file limit or None)]. The last row is the tool as the
# server runs it (limit 50: files past the first 50 are only counted) against the full
# `rg --json` that a wrapper around rg (the original server) has to read and cut.
QUERIES = {
    "jdk": [("rare literal", "ConcurrentHashMap", False, None),
            ("common literal", "return", False, None),
            ("regex", r"Concurrent\w+Map<", True, None),
            ("common literal, ours with limit 50", "return", False, 50)],
    "linux": [("rare literal", "spin_lock_irqsave", False, None),
              ("common literal", "return", False, None),
              ("regex", r"spin_(un)?lock\w*\(", True, None),
              ("common literal, ours with limit 50", "return", False, 50)],
}


def find_rg():
    rg = shutil.which("rg")
    if rg:
        return rg
    if os.geteuid() == 0 and shutil.which("apt-get"):
        subprocess.run(["apt-get", "install", "-y", "ripgrep"], stdout=subprocess.DEVNULL)
        rg = shutil.which("rg")
        if rg:
            return rg
    tools = os.path.join(ROOT, ".bench-tools")
    subprocess.run(["cargo", "install", "ripgrep", "--version", f"={RG_VERSION}", "--root", tools], check=True)
    return os.path.join(tools, "bin", "rg")


def timed(cmd, cwd, out_path):
    """(wall seconds, CPU seconds user+system, stderr) of one run."""
    with open(out_path, "wb") as out, tempfile.TemporaryFile() as err:
        t = time.perf_counter()
        p = subprocess.Popen(cmd, cwd=cwd, stdout=out, stderr=err)
        _, status, ru = os.wait4(p.pid, 0)
        dt = time.perf_counter() - t
        p.returncode = os.waitstatus_to_exitcode(status)
        err.seek(0)
        stderr = err.read().decode(errors="replace")
    if p.returncode not in (0, 1):  # rg exits 1 when nothing matched
        sys.exit(f"{cmd[0]} failed ({p.returncode}): {stderr}")
    return dt, ru.ru_utime + ru.ru_stime, stderr


def rg_totals(out_path):
    with open(out_path, "rb") as f:
        f.seek(0, 2)
        f.seek(max(0, f.tell() - 4096))
        last = f.read().splitlines()[-1]
    stats = json.loads(last)["data"]["stats"]
    return stats["searches_with_match"], stats["matched_lines"]


def ours_totals(stderr):
    # "files F / TF, matched lines M / TM, truncated false"
    words = stderr.split()
    return int(words[words.index("files") + 3].rstrip(",")), int(words[words.index("lines") + 3].rstrip(","))


def main():
    args = sys.argv[1:]
    runs = int(args[args.index("--runs") + 1]) if "--runs" in args else 5
    if "--runs" in args:
        i = args.index("--runs")
        del args[i:i + 2]
    trees = args or ["jdk", "linux"]
    rg = find_rg()
    rg_version = subprocess.run([rg, "--version"], capture_output=True, text=True).stdout.splitlines()[0]
    subprocess.run(["cargo", "build", "--release", "-p", "navegador-search", "--example", "search"],
                   cwd=ROOT, check=True, stderr=subprocess.DEVNULL)
    out_dir = "/dev/shm" if os.path.isdir("/dev/shm") else tempfile.gettempdir()
    out_path = os.path.join(out_dir, f"bench-search-{os.getpid()}.json")
    globs = [a for h in HARD_IGNORED for a in ("-g", f"!{h}")]
    load_before = open("/proc/loadavg").read().split()[:3]
    print(f"{rg_version}; {os.cpu_count()} cores; load average before: {' '.join(load_before)}; median of {runs}")
    print()
    print("| tree | query | ours wall (s) | rg --json wall (s) | wall ratio | ours CPU (s) | rg CPU (s) | CPU ratio | files | lines | totals agree |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    worst = 0.0
    for tree in trees:
        path = os.path.join(CORPUS, tree)
        if not os.path.isdir(path):
            sys.exit(f"{path} missing: run ../shared/corpus/fetch.sh {tree}")
        for label, query, regex, limit in QUERIES.get(tree, QUERIES["jdk"]):
            # Both given the absolute root, as the server gives it, so both open the same paths.
            ours = [OURS, path, query, "--context", "1"] + (["--regex"] if regex else [])
            ours += ["--limit", str(limit)] if limit else []
            theirs = [rg, "--json", "--no-config", "-C1", "--no-require-git", "--no-ignore-parent",
                      "--no-ignore-global"] + globs + ([] if regex else ["-F"]) + ["-e", query, path]
            timed(ours, path, out_path)
            timed(theirs, path, out_path)
            t_ours, t_rg, c_ours, c_rg = [], [], [], []
            for _ in range(runs):  # interleaved, so drifting load hits both alike
                dt, cpu, err = timed(ours, path, out_path)
                t_ours.append(dt)
                c_ours.append(cpu)
                ot = ours_totals(err)
                dt, cpu, _ = timed(theirs, path, out_path)
                t_rg.append(dt)
                c_rg.append(cpu)
                rt = rg_totals(out_path)
            mo, mr = statistics.median(t_ours), statistics.median(t_rg)
            co, cr = statistics.median(c_ours), statistics.median(c_rg)
            if not limit:
                worst = max(worst, mo / mr)
            print(f"| {tree} | {label} `{query}` | {mo:.3f} | {mr:.3f} | {mo / mr:.2f}x | {co:.3f} | {cr:.3f} | {co / cr:.2f}x | {ot[0]:,} | {ot[1]:,} | "
                  f"{'yes' if ot == rt else f'NO: rg {rt[0]:,} files, {rt[1]:,} lines'} |")
    os.remove(out_path)
    print()
    print(f"load average after: {' '.join(open('/proc/loadavg').read().split()[:3])}; worst wall ratio at equal work (no limit) {worst:.2f}x")


if __name__ == "__main__":
    main()
