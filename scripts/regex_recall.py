#!/usr/bin/env python3
"""Definition recall of a pack against a regular-expression peer, for a language Universal
Ctags does not read (Zig): every `fn NAME(` and `const NAME = struct|enum|union|opaque`
line of the tree, by file, name and line, against the definitions `dump_facts` extracts
(a miss: no definition of that name whose lines cover it). Also the files with a syntax
error. Usage: python3 scripts/regex_recall.py zig DIR [--bin target/release/examples/dump_facts]
(BENCH_MISSES=N prints N misses). A benchmark, not a test."""
import collections, os, re, subprocess, sys

PEERS = {
    "zig": (("zig",), re.compile(r"^\s*(?:pub\s+)?(?:(?:inline|export|extern(?:\s+\"\w+\")?|noinline)\s+)*fn\s+(@\"[^\"]+\"|[A-Za-z_]\w*)\s*\(|"
                                 r"^\s*(?:pub\s+)?const\s+([A-Za-z_]\w*)\s*=\s*(?:extern\s+|packed\s+)?(?:struct|enum|union|opaque)\b")),
}


def main():
    lang, tree = sys.argv[1], sys.argv[2]
    exe = sys.argv[sys.argv.index("--bin") + 1] if "--bin" in sys.argv else "target/release/examples/dump_facts"
    exts, rx = PEERS[lang]
    theirs = []
    for d, _, fs in os.walk(tree):
        for f in fs:
            if f.rsplit(".", 1)[-1] in exts:
                rel = os.path.relpath(os.path.join(d, f), tree)
                for i, line in enumerate(open(os.path.join(d, f), errors="replace"), 1):
                    m = rx.match(line)
                    if m:
                        theirs.append((rel, m.group(1) or m.group(2), i))
    ours, broken, cur = collections.defaultdict(list), set(), None
    out = subprocess.run([exe, tree], capture_output=True, text=True, check=True).stdout
    for line in out.splitlines():
        if line.startswith("=== "):
            cur = line[4:]
            continue
        m = re.match(r"\s*(?:Class|Function|Method) (\S+)(?: kind=\S+)? L(\d+)-(\d+)", line)
        if m:
            ours[(cur, m.group(1).rsplit(".", 1)[-1])].append((int(m.group(2)), int(m.group(3))))
        elif line.startswith("diagnostic") and "syntax error" in line:
            broken.add(cur)
    missed = [t for t in theirs if not any(a <= t[2] <= b for a, b in ours.get((t[0], t[1].strip('@"')), []))]
    files = len({p for p in ours} | broken) if False else sum(1 for l in out.splitlines() if l.startswith("=== "))
    print(f"{lang} {tree}: {files} files, recall {1 - len(missed) / max(len(theirs), 1):.3f} of {len(theirs)}, "
          f"{len(broken)} files with a syntax error ({100 * len(broken) / max(files, 1):.1f}%)")
    for p, n, i in missed[: int(os.environ.get("BENCH_MISSES", "0"))]:
        print(f"  miss {p}:{i} {n}", file=sys.stderr)


if __name__ == "__main__":
    main()
