#!/usr/bin/env python3
"""Share of endpoints with their correct full path on the mount fixtures (issue 17).

Each fixture of crates/navegador-index/tests/endpoints/ named below is written to a
temporary workspace, indexed by the given navegador binary, and its endpoints
(method, full path, file, line) compared with the golden `.endpoints` file.

    python3 scripts/bench_endpoint_paths.py [path/to/navegador]
"""
import json, os, subprocess, sys, tempfile

FIXTURES = ["flask-blueprints", "fastapi-routers", "express-mounts", "gin-groups", "nestjs-global"]
HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "crates", "navegador-index", "tests", "endpoints")


def write(root, text):
    for part in text.split("//- ")[1:]:
        path, _, body = part.partition("\n")
        p = os.path.join(root, path.strip())
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, "w") as f:
            f.write(body)


def main():
    nav = sys.argv[1] if len(sys.argv) > 1 else "target/release/navegador"
    total = right = 0
    for name in FIXTURES:
        want = set()
        for line in open(os.path.join(HERE, name + ".endpoints")):
            kind, method, path, _fw, _lang, at = line.split()[:6]
            want.add((method, path, at))
        with tempfile.TemporaryDirectory() as root:
            write(root, open(os.path.join(HERE, name + ".txt")).read())
            subprocess.run([nav, "ingest", "."], cwd=root, check=True, capture_output=True)
            out = subprocess.run([nav, "query", "--format", "json", "MATCH (e:Endpoint) RETURN e.method, e.path, e.file_path, e.line_start"],
                                 cwd=root, check=True, capture_output=True, text=True).stdout
        got = set()
        for row in json.loads(out):
            got.add((row["e.method"] or "-", row["e.path"], f"{row['e.file_path']}:{row['e.line_start']}"))
        ok = len(want & got)
        print(f"{name:18} {ok}/{len(want)} endpoints with their full path")
        total += len(want)
        right += ok
    print(f"all                {right}/{total} = {100.0 * right / total:.1f}%")


if __name__ == "__main__":
    main()
